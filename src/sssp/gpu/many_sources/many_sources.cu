// Many sources at once on the GPU (the engine behind sssp::many_sources, seam in
// sssp/many_sources_engine.hpp).
//
// A batch of k sources (k a multiple of 32) keeps its tentative distances vertex-major,
// dist[v * k + j] for source j, so the 32 lanes (sources) j = 32 g .. 32 g + 31 of vertex v lie in
// one 128-byte line. The unit of work is an item, (vertex, group of 32 lanes): item = v * (k / 32) + g.
//
// Delta-stepping (Meyer and Sanders) with ONE bucket bound for all lanes: every source starts at
// distance 0, so a common bound moves through the distances of all of them together. A lane is
// relaxed when it improved since it was last relaxed (its dirty bit) and its distance is below the
// bound; every arc of the vertex is relaxed then, as Near-Far does (Davidson et al. 2014, seed 000,
// Section 7.2: one near set below a threshold, a far pile above it). Per item:
//   dirty[item]  the lanes improved and not yet relaxed;
//   stamp[item]  the iteration whose near queue holds the item (an item enters a queue once);
//   in_far[item] 1 while the item is on the far pile (it has a dirty lane at or above the bound).
// An iteration takes the items of the near queue; a lane improved below the bound puts its item on
// the next near queue, above it on the far pile. When the near queue runs dry the bound moves to
// the bucket of the smallest dirty distance on the far pile, which is split into the items that
// now have lanes below the bound (near) and those that keep lanes above it (far). A distance
// cutoff (options::cutoff) holds the bound just past it and ends the batch once the far pile's
// smallest dirty distance lies beyond it, as the one-source loop ends past the cutoff's bucket
// (solve); gather_rows reports the distances beyond it unreachable.
//
// Who walks an item: random sources seldom share a bucket at a vertex, so most items have one or
// two dirty lanes; a thread takes such an item and relaxes its lanes one after the other
// (relax_items). An item with warp_lanes dirty lanes or more is walked by a warp, one arc read for
// all its lanes, coalesced loads and atomicMins on the target's line (relax_wide). A thread per
// item is faster than a warp for every item (bench/results/many_sources.md).
//
// Ordering: a relaxing thread clears the dirty bits it takes (atomicAnd), fences, and then reads
// the lanes' distances; an improving thread lowers a distance (atomicMin), fences, and then sets
// the dirty bit. Either the reader sees the lower distance, or the bit is set after it was cleared
// and the lane is relaxed again: no improvement is lost.
//
// A vertex with more than split_degree arcs is walked in pieces: the first split_degree arcs by the
// item's thread or warp, the rest as lane tasks (a thread per lane and piece, relax_lanes) or chunks
// (a warp per piece, relax_chunks) in the same iteration. The host launches relax_launches
// iterations, then reads the queue counts once (a relaxation of an empty queue does nothing).
//
// One block per source (tuning::driver block, or automatic on a graph of mean out-degree below
// block_driver_tuning::rows_below_degree): the engine instead launches the
// block driver's kernel (block_driver.cuh) with one block per source of the batch, each running
// Near-Far for its source alone in its own row of every vertex, with block barriers only; the
// rows are then picked for the targets (pick_rows). No arc read is shared between sources, but no
// source waits on another's buckets, and every SM runs several sources at once. On roads this is
// an order of magnitude faster than the vertex-major batch (bench/results/block_driver.md). In
// 32-bit and 64-bit distances (64-bit near queues of half as many entries: block_driver.cuh).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sssp/bucket_width.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/gpu/batch_rows.cuh"
#include "sssp/gpu/near_far/block_driver.cuh"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_csr.cuh"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/distance.cuh"
#include "sssp/gpu/engine_context.cuh"
#include "sssp/gpu_engine.hpp"
#include "sssp/many_sources_engine.hpp"

namespace deltasplit::sssp::gpu {

namespace {

constexpr std::uint32_t group_lanes = 32;     // lanes of one item: a warp
constexpr std::uint32_t split_degree = detail::many_sources_split_degree;
constexpr unsigned relax_launches = 4;         // iterations launched between two looks at the counts
constexpr unsigned warps_per_block = 8;
constexpr unsigned full_mask = 0xFFFFFFFFu;

// far_min when no lane on the far pile is dirty.
constexpr unsigned long long no_far_min = ~0ull;

struct batch_control {
  std::uint32_t near_count[3];  // near queue of iteration i is near[i % 3]
  std::uint32_t far_count[2];
  std::uint32_t chunk_count[2];  // chunks of iteration i: chunk_count[i % 2]
  std::uint32_t lane_count[2];   // lane tasks of iteration i: lane_count[i % 2]
  std::uint32_t wide_count[2];   // items for warps of iteration i: wide_count[i % 2]
  unsigned long long far_min;    // bits of the smallest dirty distance on the far pile (distance_word)
  std::uint32_t overflowed;
  std::uint32_t iterations;      // relaxations that found a non-empty queue
};

template <class Distance>
struct batch_view {
  using weight = typename distance_ops<Distance>::weight;
  const edge_t* offsets;
  const vertex_t* targets;
  const weight* weights;
  Distance* dist;
  std::uint32_t* dirty;
  std::uint32_t* stamp;
  std::uint32_t* in_far;
  std::uint32_t* near[3];
  std::uint32_t* far[2];
  uint4* chunks;
  uint2* lanes;          // lane tasks: (item, piece << 5 | lane), pieces after the first
  std::uint32_t* wide;   // items of this iteration walked by warps
  std::uint32_t lane_capacity;
  std::uint32_t warp_lanes;  // an item with at least this many lanes to relax is walked by a warp
  batch_control* ctl;
  std::uint32_t groups;  // k / 32
  std::uint32_t k;
};

// What one relaxation pass needs besides the view: which queues, which bound.
template <class Distance>
struct pass {
  Distance bound;
  std::uint32_t iteration;  // items of near[iteration % 3] carry stamp == iteration
  std::uint32_t far_side;   // the far pile receiving items: far[far_side]
};

__device__ inline unsigned lane_id() { return threadIdx.x & 31u; }
__device__ inline std::uint64_t global_warp() { return (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) >> 5; }
__device__ inline std::uint64_t warp_count() { return (std::uint64_t{gridDim.x} * blockDim.x) >> 5; }

// Relaxes arcs [begin, end) of item's vertex for the lanes that hold `mine`, from distance d.
template <class Distance>
__device__ void relax_arcs(const batch_view<Distance>& s, const pass<Distance>& p, std::uint32_t group, bool mine,
                           Distance d, edge_t begin, edge_t end) {
  using ops = distance_ops<Distance>;
  const unsigned lane = lane_id();
  const std::uint32_t next_stamp = p.iteration + 1;
  std::uint32_t* next = s.near[next_stamp % 3];
  for (edge_t e = begin; e < end; ++e) {
    const vertex_t v = s.targets[e];
    const typename ops::weight w = s.weights[e];
    Distance* slot = s.dist + std::size_t{v} * s.k + group * group_lanes + lane;
    bool improved = false, below = false;
    if (mine) {
      Distance cand;
      if (ops::extend(d, w, cand)) {
        if (cand < __ldcg(slot) && cand < ops::atomic_min(slot, cand)) {
          improved = true;
          below = cand < p.bound;
          __threadfence();  // the new distance before the dirty bit (see the file comment)
        }
      } else {
        s.ctl->overflowed = 1;
      }
    }
    const unsigned improved_lanes = __ballot_sync(full_mask, improved);
    if (improved_lanes == 0) continue;
    const unsigned below_lanes = __ballot_sync(full_mask, below);
    if (lane == 0) {
      __threadfence();
      const std::uint32_t item = v * s.groups + group;
      atomicOr(&s.dirty[item], improved_lanes);
      if (below_lanes && atomicExch(&s.stamp[item], next_stamp) != next_stamp)
        next[atomicAdd(&s.ctl->near_count[next_stamp % 3], 1u)] = item;
      if ((improved_lanes & ~below_lanes) && atomicExch(&s.in_far[item], 1u) == 0)
        s.far[p.far_side][atomicAdd(&s.ctl->far_count[p.far_side], 1u)] = item;
    }
  }
}

// Appends value to list: the threads of a warp that push together take one atomicAdd.
__device__ inline void push(std::uint32_t* list, std::uint32_t* count, std::uint32_t value) {
  const unsigned together = __activemask();
  const int leader = __ffs(together) - 1;
  const unsigned me = lane_id();
  std::uint32_t base = 0;
  if (static_cast<int>(me) == leader) base = atomicAdd(count, static_cast<std::uint32_t>(__popc(together)));
  base = __shfl_sync(together, base, leader);
  list[base + static_cast<std::uint32_t>(__popc(together & ((1u << me) - 1)))] = value;
}

// A thread improved lane `lane` of vertex v to cand: the dirty bit, then the item on the next near
// queue (below the bound) or the far pile.
template <class Distance>
__device__ void mark_improved(const batch_view<Distance>& s, const pass<Distance>& p, vertex_t v, std::uint32_t group,
                              unsigned lane, Distance cand) {
  const std::uint32_t next_stamp = p.iteration + 1;
  const std::uint32_t item = v * s.groups + group;
  __threadfence();  // the new distance before the dirty bit (see the file comment)
  atomicOr(&s.dirty[item], 1u << lane);
  if (cand < p.bound) {
    if (atomicExch(&s.stamp[item], next_stamp) != next_stamp) push(s.near[next_stamp % 3], &s.ctl->near_count[next_stamp % 3], item);
  } else if (atomicExch(&s.in_far[item], 1u) == 0) {
    push(s.far[p.far_side], &s.ctl->far_count[p.far_side], item);
  }
}

// One lane (source) of one vertex, arcs [begin, end), by one thread: the loads of a few arcs are
// issued together before their atomics, so their latencies overlap.
template <class Distance>
__device__ void relax_lane(const batch_view<Distance>& s, const pass<Distance>& p, std::uint32_t group, unsigned lane,
                           Distance d, edge_t begin, edge_t end) {
  using ops = distance_ops<Distance>;
  constexpr int batch = 4;
  const std::size_t column = group * group_lanes + lane;
  for (edge_t e = begin; e < end; e += batch) {
    vertex_t v[batch];
    typename ops::weight w[batch];
    Distance current[batch];
#pragma unroll
    for (int i = 0; i < batch; ++i)
      if (e + i < end) v[i] = s.targets[e + i], w[i] = s.weights[e + i];
#pragma unroll
    for (int i = 0; i < batch; ++i)
      if (e + i < end) current[i] = __ldcg(s.dist + std::size_t{v[i]} * s.k + column);
#pragma unroll
    for (int i = 0; i < batch; ++i) {
      if (e + i >= end) continue;
      Distance cand;
      if (!ops::extend(d, w[i], cand)) {
        s.ctl->overflowed = 1;
        continue;
      }
      if (cand < current[i] && cand < ops::atomic_min(s.dist + std::size_t{v[i]} * s.k + column, cand))
        mark_improved(s, p, v[i], group, lane, cand);
    }
  }
}

// One iteration, a thread per item of the near queue: the item's dirty lanes below the bound are
// taken and relaxed by the thread, one lane after the other (random sources rarely share a
// bucket, so most items have one or two). An item with warp_lanes dirty lanes or more goes to the
// warps of relax_wide instead, where one arc read serves all lanes. Arcs past the first
// split_degree of a vertex become lane tasks (relax_lanes).
template <class Distance>
__global__ void relax_items(batch_view<Distance> s, pass<Distance> p) {
  const std::uint32_t count = s.ctl->near_count[p.iteration % 3];
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    s.ctl->near_count[(p.iteration + 2) % 3] = 0;  // the queue of iteration + 2, read by no one now
    s.ctl->chunk_count[(p.iteration + 1) % 2] = 0;
    s.ctl->lane_count[(p.iteration + 1) % 2] = 0;
    s.ctl->wide_count[(p.iteration + 1) % 2] = 0;
    if (count) ++s.ctl->iterations;
  }
  const std::uint32_t* queue = s.near[p.iteration % 3];
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint32_t item = queue[i];
    const std::uint32_t dirty = __ldcg(&s.dirty[item]);
    if (dirty == 0) continue;
    if (static_cast<std::uint32_t>(__popc(dirty)) >= s.warp_lanes) {
      push(s.wide, &s.ctl->wide_count[p.iteration % 2], item);
      continue;
    }
    const vertex_t u = item / s.groups;
    const std::uint32_t group = item % s.groups;
    const Distance* row = s.dist + std::size_t{u} * s.k + group * group_lanes;
    std::uint32_t taken = 0;
    for (std::uint32_t left = dirty; left; left &= left - 1) {
      const unsigned j = static_cast<unsigned>(__ffs(left) - 1);
      if (__ldcg(row + j) < p.bound) taken |= 1u << j;
    }
    if (taken == 0) continue;  // only lanes above the bound: they wait on the far pile
    atomicAnd(&s.dirty[item], ~taken);
    __threadfence();
    const edge_t begin = s.offsets[u], end = s.offsets[u + 1];
    edge_t own_end = end;
    if (end - begin > split_degree) {
      own_end = begin + split_degree;
      const std::uint32_t pieces = static_cast<std::uint32_t>((end - begin + split_degree - 1) / split_degree) - 1;
      const std::uint32_t tasks = pieces * static_cast<std::uint32_t>(__popc(taken));
      const std::uint32_t base = atomicAdd(&s.ctl->lane_count[p.iteration % 2], tasks);
      if (base + std::uint64_t{tasks} <= s.lane_capacity) {
        std::uint32_t at = base;
        for (std::uint32_t left = taken; left; left &= left - 1)
          for (std::uint32_t piece = 1; piece <= pieces; ++piece)
            s.lanes[at++] = make_uint2(item, (piece << 5) | static_cast<std::uint32_t>(__ffs(left) - 1));
      } else {  // the task list is full: mark the places reserved that exist as empty, walk all arcs here
        for (std::uint64_t t = base; t < min(std::uint64_t{base} + tasks, std::uint64_t{s.lane_capacity}); ++t)
          s.lanes[t] = make_uint2(0xFFFFFFFFu, 0);
        own_end = end;
      }
    }
    for (std::uint32_t left = taken; left; left &= left - 1) {
      const unsigned j = static_cast<unsigned>(__ffs(left) - 1);
      relax_lane(s, p, group, j, __ldcg(row + j), begin, own_end);
    }
  }
}

// The items of relax_items with many dirty lanes, a warp each.
template <class Distance>
__global__ void relax_wide(batch_view<Distance> s, pass<Distance> p) {
  const std::uint32_t count = s.ctl->wide_count[p.iteration % 2];
  const unsigned lane = lane_id();
  for (std::uint64_t i = global_warp(); i < count; i += warp_count()) {
    const std::uint32_t item = s.wide[i];
    const std::uint32_t dirty = __ldcg(&s.dirty[item]);
    if (dirty == 0) continue;
    const vertex_t u = item / s.groups;
    const std::uint32_t group = item % s.groups;
    const Distance* own = s.dist + std::size_t{u} * s.k + group * group_lanes + lane;
    Distance d = __ldcg(own);
    const bool mine = ((dirty >> lane) & 1u) && d < p.bound;
    const unsigned taken = __ballot_sync(full_mask, mine);
    if (taken == 0) continue;
    if (lane == 0) atomicAnd(&s.dirty[item], ~taken);
    __syncwarp();
    __threadfence();
    if (mine) d = __ldcg(own);
    const edge_t begin = s.offsets[u], end = s.offsets[u + 1];
    edge_t own_end = end;
    if (end - begin > split_degree) {
      own_end = begin + split_degree;
      const std::uint32_t chunks = static_cast<std::uint32_t>((end - own_end + split_degree - 1) / split_degree);
      std::uint32_t base = 0;
      if (lane == 0) base = atomicAdd(&s.ctl->chunk_count[p.iteration % 2], chunks);
      base = __shfl_sync(full_mask, base, 0);
      for (std::uint32_t c = lane; c < chunks; c += 32) {
        const edge_t first = own_end + edge_t{c} * split_degree;
        s.chunks[base + c] = make_uint4(item, static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(first >> 32), taken);
      }
    }
    relax_arcs(s, p, group, mine, d, begin, own_end);
  }
}

// The rest of the arcs of high-degree vertices, split_degree per warp.
template <class Distance>
__global__ void relax_chunks(batch_view<Distance> s, pass<Distance> p) {
  const std::uint32_t count = s.ctl->chunk_count[p.iteration % 2];
  const unsigned lane = lane_id();
  for (std::uint64_t i = global_warp(); i < count; i += warp_count()) {
    const uint4 c = s.chunks[i];
    const vertex_t u = c.x / s.groups;
    const std::uint32_t group = c.x % s.groups;
    const edge_t first = edge_t{c.y} | (edge_t{c.z} << 32);
    const edge_t last = min(first + split_degree, s.offsets[u + 1]);
    const bool mine = (c.w >> lane) & 1u;
    const Distance d = mine ? __ldcg(s.dist + std::size_t{u} * s.k + group * group_lanes + lane) : Distance{};
    relax_arcs(s, p, group, mine, d, first, last);
  }
}

// The lane tasks of the iteration, a thread each.
template <class Distance>
__global__ void relax_lanes(batch_view<Distance> s, pass<Distance> p) {
  const std::uint32_t count = min(s.ctl->lane_count[p.iteration % 2], s.lane_capacity);
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const uint2 task = s.lanes[i];
    if (task.x == 0xFFFFFFFFu) continue;
    const vertex_t u = task.x / s.groups;
    const std::uint32_t group = task.x % s.groups;
    const unsigned lane = task.y & 31u;
    const edge_t first = s.offsets[u] + edge_t{task.y >> 5} * split_degree;
    const edge_t last = min(first + split_degree, s.offsets[u + 1]);
    const Distance d = __ldcg(s.dist + std::size_t{u} * s.k + group * group_lanes + lane);
    relax_lane(s, p, group, lane, d, first, last);
  }
}

template <class Distance>
__device__ Distance dirty_distance(const batch_view<Distance>& s, std::uint32_t item, bool& dirty_lane) {
  const vertex_t u = item / s.groups;
  const std::uint32_t group = item % s.groups;
  dirty_lane = (__ldcg(&s.dirty[item]) >> lane_id()) & 1u;
  return dirty_lane ? __ldcg(s.dist + std::size_t{u} * s.k + group * group_lanes + lane_id())
                    : distance_ops<Distance>::infinity;
}

// The smallest dirty distance on the far pile.
template <class Distance>
__global__ void far_minimum(batch_view<Distance> s, std::uint32_t side) {
  const std::uint32_t count = s.ctl->far_count[side];
  unsigned long long best = no_far_min;
  for (std::uint64_t i = global_warp(); i < count; i += warp_count()) {
    bool dirty_lane;
    const Distance d = dirty_distance(s, s.far[side][i], dirty_lane);
    if (dirty_lane) best = min(best, static_cast<unsigned long long>(distance_bits(d)));
  }
  best = warp_min_word(best);
  if (lane_id() == 0 && best != no_far_min) atomicMin(&s.ctl->far_min, best);
}

// After the bound moved: items with lanes below it go to the near queue of p.iteration, items
// with lanes at or above it stay on the far pile (far[1 - side] from now on).
template <class Distance>
__global__ void split_far(batch_view<Distance> s, pass<Distance> p, std::uint32_t side) {
  const std::uint32_t count = s.ctl->far_count[side];
  const std::uint32_t keep = 1 - side;
  for (std::uint64_t i = global_warp(); i < count; i += warp_count()) {
    const std::uint32_t item = s.far[side][i];
    bool dirty_lane;
    const Distance d = dirty_distance(s, item, dirty_lane);
    const unsigned near_lanes = __ballot_sync(full_mask, dirty_lane && d < p.bound);
    const unsigned far_lanes = __ballot_sync(full_mask, dirty_lane && !(d < p.bound));
    if (lane_id() != 0) continue;
    s.in_far[item] = far_lanes ? 1u : 0u;
    if (near_lanes && atomicExch(&s.stamp[item], p.iteration) != p.iteration)
      s.near[p.iteration % 3][atomicAdd(&s.ctl->near_count[p.iteration % 3], 1u)] = item;
    if (far_lanes) s.far[keep][atomicAdd(&s.ctl->far_count[keep], 1u)] = item;
  }
}

// Lane j of the batch starts at its source with distance 0, dirty, on the near queue.
template <class Distance>
__global__ void start_sources(batch_view<Distance> s, const vertex_t* sources, std::uint32_t count,
                              std::uint32_t iteration) {
  const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= count) return;
  const vertex_t v = sources[j];
  s.dist[std::size_t{v} * s.k + j] = Distance{};
  const std::uint32_t item = v * s.groups + j / group_lanes;
  atomicOr(&s.dirty[item], 1u << (j % group_lanes));
  if (atomicExch(&s.stamp[item], iteration) != iteration)
    s.near[iteration % 3][atomicAdd(&s.ctl->near_count[iteration % 3], 1u)] = item;
}

template <class T>
void upload(device_array<T>& dst, const T* src, std::size_t count, cudaStream_t stream) {
  if (count) DS_CUDA(cudaMemcpyAsync(dst.get(), src, count * sizeof(T), cudaMemcpyHostToDevice, stream));
}

template <class Distance>
class many_engine final : public detail::many_sources_engine, private engine_context {
  using weight = typename distance_ops<Distance>::weight;

 public:
  // opts.tune.driver == block: one block per source; opts.tune.queue_capacity: its far piles' start.
  many_engine(const graph::csr& g, const options& opts)
      : engine_context(nullptr, sizeof(batch_control)), g_(g), n_(g.num_vertices), m_(g.num_arcs()),
        stats_(sssp::detail::measure(g)), block_rows_(block_rows(stats_, opts.tune.driver)),
        queue_capacity_(opts.tune.queue_capacity) {
    blocks_ = multiprocessors_ * (2048 / (warps_per_block * 32));
    graph_ = shared_device_csr<Distance>(g, stream_);  // an upload unless the graph's other engines made one
    ctl_ = device_array<batch_control>(1, "the batch control");
    for (vertex_t v = 0; v < n_; ++v) high_degree_ = high_degree_ || g.degree(v) > split_degree;
  }

  // One block per source: asked for (driver block), or automatic on a graph of mean out-degree
  // below block_driver_tuning::rows_below_degree (road networks); the vertex-major batch otherwise.
  static bool block_rows(const sssp::detail::graph_statistics& s, gpu_driver driver) {
    if (driver == gpu_driver::block) return true;
    return driver == gpu_driver::automatic && s.mean_degree < block_driver_tuning::rows_below_degree;
  }

  std::string device_name() const override { return name_; }
  std::string method() const override { return block_rows_ ? "block" : "vertex-major"; }

  std::size_t free_bytes() const override { return free_bytes_with(allocated_); }

  std::size_t batch_bytes(std::uint32_t k, std::size_t columns) const override {
    if (block_rows_) return block_rows_bytes(k, columns, start_far_capacity());
    return detail::many_sources_batch_bytes(g_, k, columns, sizeof(Distance));
  }

  void run(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, std::uint32_t k,
           const options& opts, const many_source_options& mopts, const block_consumer& consume,
           void* rows = nullptr) override {
    if (sources.empty()) return;
    if (block_rows_) return run_block_rows(sources, targets, k, opts, mopts, consume, rows);
    const std::uint32_t columns = targets.empty() ? n_ : static_cast<std::uint32_t>(targets.size());
    allocate(k, columns);
    warp_lanes_ = mopts.warp_lanes ? mopts.warp_lanes : detail::many_sources_warp_lanes;
    const device_array<vertex_t> d_sources = on_device(sources, "the source list");
    const device_array<vertex_t> d_targets = on_device(targets, "the target list");
    const bucket_of_distance<Distance> width = bucket_width(opts.tune.delta, true);
    const Distance last = cutoff_distance<Distance>(opts.cutoff);
    for (std::size_t first = 0; first < sources.size(); first += k) {
      const std::uint32_t rows = static_cast<std::uint32_t>(std::min<std::size_t>(k, sources.size() - first));
      DS_CUDA(cudaEventRecord(start_, stream_));
      const std::uint64_t iterations = solve(d_sources.get() + first, rows, width.delta, last);
      DS_CUDA(cudaEventRecord(stop_, stream_));
      if (host_ctl_->overflowed && !detail::cutoff_below_overflow<Distance>(opts.cutoff))
        check_overflow(sources, first, rows);
      if (columns)
        gather_rows<<<gather_tiles(columns, rows), gather_threads(), 0, stream_>>>(
            dist_.get(), k_, targets.empty() ? nullptr : d_targets.get(), columns, rows, last, out_.get());
      DS_CUDA_LAUNCH("gather_rows");
      rows_out_.deliver(detail::batch_block(sources, first, rows, columns, detail::type_of<Distance>(), elapsed_ms(), iterations,
                                            static_cast<double>(width.delta)),
                        out_.get(), mopts.device_blocks, stream_, consume);
    }
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

 private:
  // A vertex list (sources, targets) copied to the device on the engine's stream.
  device_array<vertex_t> on_device(const std::vector<vertex_t>& list, const char* what) const {
    device_array<vertex_t> d(list.size(), what);
    upload(d, list.data(), list.size(), stream_);
    return d;
  }

  // --- one block per source (tuning::driver == block; the file comment) ---

  // Device bytes of a batch of k sources on the block driver: every vertex's distance per source,
  // the output block of `columns` targets (counted always; with every vertex a target the rows are
  // the output and none is allocated), two far piles of `capacity` entries and an outcome per block.
  std::size_t block_rows_bytes(std::uint32_t k, std::size_t columns, std::uint32_t capacity) const {
    return std::size_t{k} * (std::size_t{n_} + columns) * sizeof(Distance) +
           std::size_t{k} * (2 * std::size_t{capacity} * sizeof(far_entry<Distance>) + sizeof(block_outcome));
  }
  // The far piles' entries: what an earlier batch grew them to, else tuning::queue_capacity as
  // the engine was made with, else n / rows_far_divisor + 1024 (block_driver_tuning).
  std::uint32_t start_far_capacity() const {
    if (far_capacity_) return far_capacity_;
    return queue_capacity_ ? queue_capacity_ : n_ / block_driver_tuning::rows_far_divisor + 1024;
  }

  // picked: the batch has a target list (an output block of k x columns), else the rows are output.
  // own_rows: the engine's rows, else the caller's (run_block_rows' rows_given).
  void allocate_rows(std::uint32_t k, std::uint32_t columns, bool picked, std::uint32_t capacity, bool own_rows = true) {
    if (k == k_ && columns == columns_ && picked == picked_ && capacity == far_capacity_ && own_rows == own_rows_) return;
    dist_ = {};
    out_ = {};
    piles_ = {};
    outcomes_ = {};
    allocated_ = 0;
    k_ = columns_ = far_capacity_ = 0;
    const std::size_t bytes = block_rows_bytes(k, picked ? columns : 0, capacity) -
                              (own_rows ? 0 : std::size_t{k} * n_ * sizeof(Distance));
    reserve(bytes, "a batch of " + std::to_string(k) + " sources with " + std::to_string(columns) +
                       " targets on the block driver (choose a smaller batch size)");
    if (own_rows) dist_ = device_array<Distance>(std::size_t{k} * n_, "the batch's rows");
    if (picked) out_ = device_array<Distance>(std::size_t{k} * columns, "the output block");
    piles_ = device_array<far_entry<Distance>>(std::size_t{k} * 2 * capacity, "the far piles");
    outcomes_ = device_array<block_outcome>(k, "the blocks' outcomes");
    allocated_ = bytes;
    k_ = k;
    columns_ = columns;
    picked_ = picked;
    own_rows_ = own_rows;
    far_capacity_ = capacity;
  }

  // rows: the caller's memory for every source's row (targets empty, device blocks), which each
  // batch is solved into in place of the engine's own rows; else null.
  void run_block_rows(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, std::uint32_t k,
                      const options& opts, const many_source_options& mopts, const block_consumer& consume,
                      void* rows_given) {
    constexpr std::uint32_t Q = near_entries<Distance>(block_driver_tuning::rows_near_capacity);
    const bool picked = !targets.empty();
    const std::uint32_t columns = picked ? static_cast<std::uint32_t>(targets.size()) : n_;
    Distance* const given = !picked && mopts.device_blocks ? static_cast<Distance*>(rows_given) : nullptr;
    allocate_rows(k, columns, picked, start_far_capacity(), given == nullptr);
    const device_array<vertex_t> d_sources = on_device(sources, "the source list");
    const device_array<vertex_t> d_targets = on_device(targets, "the target list");
    const bucket_of_distance<Distance> width = bucket_width(opts.tune.delta, false);
    const Distance last = cutoff_distance<Distance>(opts.cutoff);
    std::vector<block_outcome> outcome;
    for (std::size_t first = 0; first < sources.size(); first += k) {
      const std::uint32_t rows = static_cast<std::uint32_t>(std::min<std::size_t>(k, sources.size() - first));
      outcome.resize(rows);
      double ms = 0;  // every attempt's: a batch whose piles grew ran more than once
      Distance* dist = nullptr;
      while (true) {
        dist = given ? given + first * n_ : dist_.get();  // allocate_rows below may move dist_
        const block_view<Distance> v{graph_->offsets(), graph_->targets(), graph_->weights(), n_, width, width(last), dist,
                                     n_, piles_.get(), far_capacity_, outcomes_.get()};
        ms += run_block_solve<Distance, Q, block_driver_tuning::rows_lanes>(v, d_sources.get() + first, 0, rows, block_driver_tuning::rows_threads,
                                           blocks_, stream_, start_, stop_, outcome.data());
        const bool exceeded =
            std::any_of(outcome.begin(), outcome.end(), [](const block_outcome& o) { return o.capacity_exceeded != 0; });
        if (!exceeded) break;
        // A far pile filled: every pile doubles and the batch runs again. Piles that outgrow the
        // device are refused by allocate_rows with the sizes (a smaller batch size fits).
        if (far_capacity_ >= 0x3FFFFFFFu) throw std::runtime_error("GPU block driver: far piles exceed 2^30 entries");
        allocate_rows(k_, columns_, picked_, far_capacity_ * 2, given == nullptr);
      }
      std::uint64_t iterations = 0;
      for (std::uint32_t j = 0; j < rows; ++j) {
        iterations = std::max<std::uint64_t>(iterations, outcome[j].iterations);
        if (outcome[j].overflowed && !detail::cutoff_below_overflow<Distance>(opts.cutoff))
          check_overflow_row(sources[first + j], dist + std::size_t{j} * n_);
      }
      // The targets' columns into the output block, or, with every vertex a target, the rows as
      // they are (in place: past a cutoff unreachable).
      Distance* block = picked ? out_.get() : dist;
      if (columns && (picked || std::isfinite(opts.cutoff))) {
        pick_rows<<<blocks_, 256, 0, stream_>>>(dist, n_, picked ? d_targets.get() : nullptr, columns, rows,
                                                 last, block);
        DS_CUDA_LAUNCH("pick_rows");
      }
      rows_out_.deliver(detail::batch_block(sources, first, rows, columns, detail::type_of<Distance>(), ms, iterations,
                                            static_cast<double>(width.delta)),
                        block, mopts.device_blocks, stream_, consume);
    }
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

  // A dropped sum in row j matters only when some distance does not fit (the file comment of
  // distance.cuh): look for the vertex whose true distance does not.
  void check_overflow_row(vertex_t source, const Distance* on_device) {
    std::vector<Distance> row(n_);
    DS_CUDA(cudaMemcpyAsync(row.data(), on_device, n_ * sizeof(Distance), cudaMemcpyDeviceToHost, stream_));
    DS_CUDA(cudaStreamSynchronize(stream_));
    const vertex_t bad = detail::overflowed_vertex(g_, row.data(), distance_ops<Distance>::infinity);
    if (bad != graph::invalid_vertex) detail::throw_overflow(g_, source, bad, detail::type_of<Distance>());
  }

  // The single-source engine's automatic width (bucket_width.cpp, gpu_auto_width), times
  // dense_delta_factor on graphs of mean out-degree 4 or more: a batch of random sources
  // spreads over many buckets at each vertex, and on low-diameter graphs fewer, wider buckets
  // pay: the dense graphs measured ran fastest at x8, while roads keep x1 (narrower or wider both
  // within noise or slower; bench/results/many_sources.md, the delta sweep of call 2).
  // The block driver (dense_factor false) solves each source on its own and takes the single-source
  // width as it is.
  bucket_of_distance<Distance> bucket_width(double delta, bool dense_factor) const {
    constexpr double dense_delta_factor = 8;
    constexpr bool wide_integers = std::is_same_v<Distance, std::uint64_t>;
    if (delta <= 0)
      delta = sssp::detail::bounded_width(
          (dense_factor && stats_.mean_degree >= 4 ? dense_delta_factor : 1.0) *
              sssp::detail::gpu_auto_width(stats_, kind_, wide_integers),
          kind_, wide_integers);
    return bucket_of_width<Distance>(delta, std::numeric_limits<Distance>::max());
  }

  // The first bound above `lowest` on the grid of bucket boundaries.
  static Distance bound_above(Distance lowest, decltype(bucket_of_distance<Distance>::delta) delta) {
    if constexpr (std::is_floating_point_v<Distance>) {
      const double q = std::floor(static_cast<double>(lowest) / delta) + 1;
      Distance b = static_cast<Distance>(q * delta);
      if (!(b > lowest)) b = std::nextafter(lowest, std::numeric_limits<Distance>::infinity());
      return b;
    } else if constexpr (std::is_same_v<Distance, std::uint64_t>) {
      const std::uint64_t q = lowest / delta + 1;  // at most 2^64 - 1: delta >= 1
      return q > distance_ops<Distance>::infinity / delta ? distance_ops<Distance>::infinity : q * delta;
    } else {
      const std::uint64_t b = (std::uint64_t{lowest} / delta + 1) * std::uint64_t{delta};
      return b > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<std::uint32_t>(b);
    }
  }

  batch_view<Distance> view() const {
    batch_view<Distance> s{};
    s.offsets = graph_->offsets();
    s.targets = graph_->targets();
    s.weights = graph_->weights();
    s.dist = dist_.get();
    s.dirty = dirty_.get();
    s.stamp = stamp_.get();
    s.in_far = in_far_.get();
    for (int i = 0; i < 3; ++i) s.near[i] = near_[i].get();
    for (int i = 0; i < 2; ++i) s.far[i] = far_[i].get();
    s.chunks = chunks_.get();
    s.lanes = lanes_.get();
    s.wide = wide_.get();
    s.lane_capacity = static_cast<std::uint32_t>(std::min<std::size_t>(lanes_.size(), 0xFFFFFFFFu));
    s.warp_lanes = warp_lanes_;
    s.ctl = ctl_.get();
    s.k = k_;
    s.groups = k_ / group_lanes;
    return s;
  }

  // The smallest distance past `last`: a lane below it is at `last` or nearer.
  static Distance just_past(Distance last) {
    if constexpr (std::is_floating_point_v<Distance>)
      return std::nextafter(last, std::numeric_limits<Distance>::infinity());
    else
      return last + 1;  // last <= 2^32 - 2, or 2^64 - 2 (cutoff_distance)
  }

  // Solves one batch into dist_ (rows sources at sources[0..rows)); returns the iterations.
  // `last` is the largest distance within the cutoff (options::cutoff; cutoff_distance): the
  // bound never passes just_past(last), so no lane is relaxed from beyond the cutoff, and the
  // batch ends once every dirty distance on the far pile lies beyond it. A lane within the cutoff
  // is then final (Meyer and Sanders' invariant: when the near queue runs dry every distance below
  // the bound is settled, and every dirty lane is beyond the cutoff); gather_rows clears the rest.
  // Without a cutoff, last is the largest distance and neither rule ever applies.
  std::uint64_t solve(const vertex_t* sources, std::uint32_t rows, decltype(bucket_of_distance<Distance>::delta) delta,
                      Distance last) {
    const batch_view<Distance> s = view();
    const std::size_t cells = std::size_t{n_} * k_, items = cells / group_lanes;
    fill_infinity<<<blocks_, 256, 0, stream_>>>(dist_.get(), cells);
    DS_CUDA_LAUNCH("fill_infinity");
    DS_CUDA(cudaMemsetAsync(dirty_.get(), 0, items * sizeof(std::uint32_t), stream_));
    DS_CUDA(cudaMemsetAsync(in_far_.get(), 0, items * sizeof(std::uint32_t), stream_));
    DS_CUDA(cudaMemsetAsync(ctl_.get(), 0, sizeof(batch_control), stream_));
    start_sources<<<(rows + 255) / 256, 256, 0, stream_>>>(s, sources, rows, iteration_);
    DS_CUDA_LAUNCH("start_sources");
    pass<Distance> p{static_cast<Distance>(delta), iteration_, 0};
    if constexpr (std::is_floating_point_v<Distance>) {
      if (!(p.bound > 0)) p.bound = std::numeric_limits<Distance>::infinity();
    }
    const Distance cap = just_past(last);
    p.bound = std::min(p.bound, cap);
    const unsigned threads = warps_per_block * 32;
    for (;;) {
      for (unsigned r = 0; r < relax_launches; ++r, ++p.iteration) {
        relax_items<<<blocks_, threads, 0, stream_>>>(s, p);
        DS_CUDA_LAUNCH("relax_items");
        relax_wide<<<blocks_, threads, 0, stream_>>>(s, p);
        DS_CUDA_LAUNCH("relax_wide");
        if (high_degree_) {
          relax_lanes<<<blocks_, threads, 0, stream_>>>(s, p);
          DS_CUDA_LAUNCH("relax_lanes");
          relax_chunks<<<blocks_, threads, 0, stream_>>>(s, p);
          DS_CUDA_LAUNCH("relax_chunks");
        }
      }
      read_control();
      if (host_ctl_->near_count[p.iteration % 3] != 0) continue;
      if (host_ctl_->far_count[p.far_side] == 0) break;
      DS_CUDA(cudaMemsetAsync(&ctl_.get()->far_min, 0xFF, sizeof(unsigned long long), stream_));
      far_minimum<<<blocks_, threads, 0, stream_>>>(s, p.far_side);
      DS_CUDA_LAUNCH("far_minimum");
      read_control();
      Distance lowest = p.bound;  // nothing dirty: the split empties the pile
      if (host_ctl_->far_min != no_far_min) {
        const distance_word<Distance> bits = static_cast<distance_word<Distance>>(host_ctl_->far_min);
        std::memcpy(&lowest, &bits, sizeof lowest);
      }
      if (lowest > last) break;  // the next bucket starts beyond the cutoff
      p.bound = std::min(bound_above(lowest, delta), cap);
      DS_CUDA(cudaMemsetAsync(&ctl_.get()->far_count[1 - p.far_side], 0, sizeof(std::uint32_t), stream_));
      split_far<<<blocks_, threads, 0, stream_>>>(s, p, p.far_side);
      DS_CUDA_LAUNCH("split_far");
      p.far_side = 1 - p.far_side;
    }
    iteration_ = p.iteration + 1;
    if (iteration_ > 0xF0000000u) reset_stamps();
    return host_ctl_->iterations;
  }

  void read_control() {
    DS_CUDA(cudaMemcpyAsync(host_ctl_, ctl_.get(), sizeof(batch_control), cudaMemcpyDeviceToHost, stream_));
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

  void reset_stamps() {
    DS_CUDA(cudaMemsetAsync(stamp_.get(), 0, stamp_.size() * sizeof(std::uint32_t), stream_));
    iteration_ = 1;
  }

  // A dropped sum matters only when some distance does not fit: look for it row by row.
  void check_overflow(const std::vector<vertex_t>& sources, std::size_t first, std::uint32_t rows) {
    std::vector<Distance> block(std::size_t{n_} * k_), row(n_);
    DS_CUDA(cudaMemcpyAsync(block.data(), dist_.get(), block.size() * sizeof(Distance), cudaMemcpyDeviceToHost, stream_));
    DS_CUDA(cudaStreamSynchronize(stream_));
    for (std::uint32_t j = 0; j < rows; ++j) {
      for (vertex_t v = 0; v < n_; ++v) row[v] = block[std::size_t{v} * k_ + j];
      const vertex_t bad = detail::overflowed_vertex(g_, row.data(), distance_ops<Distance>::infinity);
      if (bad != graph::invalid_vertex) detail::throw_overflow(g_, sources[first + j], bad, detail::type_of<Distance>());
    }
  }

  void allocate(std::uint32_t k, std::uint32_t columns) {
    if (k == k_ && columns == columns_) return;
    dist_ = {};
    dirty_ = {};
    stamp_ = {};
    in_far_ = {};
    for (auto& q : near_) q = {};
    for (auto& q : far_) q = {};
    chunks_ = {};
    lanes_ = {};
    wide_ = {};
    out_ = {};
    allocated_ = 0;
    k_ = columns_ = 0;
    const std::size_t bytes = batch_bytes(k, columns);
    reserve(bytes, "a batch of " + std::to_string(k) + " sources with " + std::to_string(columns) +
                       " targets (choose a smaller batch size)");
    const std::size_t cells = std::size_t{n_} * k, items = cells / group_lanes;
    dist_ = device_array<Distance>(cells, "the batch's distances");
    dirty_ = device_array<std::uint32_t>(items, "the dirty lanes");
    stamp_ = device_array<std::uint32_t>(items, "the queue stamps");
    in_far_ = device_array<std::uint32_t>(items, "the far-pile marks");
    for (auto& q : near_) q = device_array<std::uint32_t>(items, "a near queue");
    for (auto& q : far_) q = device_array<std::uint32_t>(items, "a far pile");
    chunks_ = device_array<uint4>(chunk_capacity(k), "the chunks of high-degree vertices");
    lanes_ = device_array<uint2>(items, "the lane tasks");
    wide_ = device_array<std::uint32_t>(items, "the items for warps");
    out_ = device_array<Distance>(std::size_t{k} * columns, "the output block");
    if (items) DS_CUDA(cudaMemsetAsync(stamp_.get(), 0, items * sizeof(std::uint32_t), stream_));
    iteration_ = 1;
    allocated_ = bytes;
    k_ = k;
    columns_ = columns;
  }

  std::size_t chunk_capacity(std::uint32_t k) const { return detail::many_sources_chunk_capacity(m_, k); }

  const graph::csr& g_;
  std::uint32_t n_;
  edge_t m_;
  unsigned blocks_ = 0;
  batch_control* const host_ctl_ = pinned<batch_control>();
  std::shared_ptr<const device_csr<Distance>> graph_;  // rows sorted by weight, shared with the graph's other engines
  device_array<batch_control> ctl_;
  device_array<Distance> dist_, out_;
  device_array<std::uint32_t> dirty_, stamp_, in_far_, near_[3], far_[2];
  device_array<uint4> chunks_;
  device_array<uint2> lanes_;
  device_array<std::uint32_t> wide_;
  std::uint32_t warp_lanes_ = detail::many_sources_warp_lanes;
  row_delivery rows_out_;
  std::uint32_t k_ = 0, columns_ = 0, iteration_ = 1;
  std::size_t allocated_ = 0;
  const sssp::detail::graph_statistics stats_;  // before block_rows_, which is derived from it
  static constexpr graph::weight_kind kind_ =
      std::is_floating_point_v<Distance> ? graph::weight_kind::real : graph::weight_kind::integer;
  bool high_degree_ = false;
  const bool block_rows_;              // one block per source (block_rows)
  const std::uint32_t queue_capacity_;  // tuning::queue_capacity: the far piles' first size, 0 for automatic
  device_array<far_entry<Distance>> piles_;
  device_array<block_outcome> outcomes_;
  std::uint32_t far_capacity_ = 0;
  bool picked_ = false;  // the batch buffers hold an output block (a target list)
  bool own_rows_ = true;  // the batch's rows are the engine's (dist_), not the caller's
};

}  // namespace

}  // namespace deltasplit::sssp::gpu

namespace deltasplit::sssp::detail {

std::unique_ptr<many_sources_engine> make_many_sources_engine(const graph::csr& g, distance_type type,
                                                              const options& opts) {
  std::string why_not;
  if (!cuda_device_usable(&why_not)) throw std::runtime_error(why_not);
  switch (type) {
    case distance_type::uint32: return std::make_unique<gpu::many_engine<std::uint32_t>>(g, opts);
    case distance_type::float32: return std::make_unique<gpu::many_engine<float>>(g, opts);
    case distance_type::float64: return std::make_unique<gpu::many_engine<double>>(g, opts);
    case distance_type::uint64: return std::make_unique<gpu::many_engine<std::uint64_t>>(g, opts);
  }
  throw std::invalid_argument("unknown distance type");
}

}  // namespace deltasplit::sssp::detail
