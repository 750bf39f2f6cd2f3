// Relaxation, shared by every frontier manager: each vertex of the frontier relaxes its light (or,
// once its bucket is finished, its heavy) out-arcs with atomicMin on the tentative distances, and
// every vertex whose distance drops is filed at once by its new bucket (Davidson et al. 2014;
// seed 000, Section 7.2; vertex_filing.cuh):
//   - in the current bucket: into the next frontier, once per iteration (the sink deduplicates);
//   - in the window: into to_file, for the frontier manager to file into its buckets;
//   - past the window: onto the far pile.
// Load balance over skewed degrees: a warp takes 32 frontier vertices of degree <= warp_degree,
// scans their degrees and relaxes the union of their arcs 32 at a time (scan-based gather), so
// a warp never walks one vertex's list alone; vertices of larger degree are cut into chunks of
// chunk_arcs arcs, each chunk relaxed by one warp, and the chunks of one hub spread over every
// warp and block of the grid. The warp gather and the chunks relax their arcs through one step,
// relax_arcs, which issues the memory round trips of a batch of arcs together; the cluster's block
// gather interleaves its batch with the owner search (relax_block_gather).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/gpu/step_loop/vertex_filing.cuh"

namespace deltasplit::sssp::gpu {

// What one relaxation iteration needs to know, read once per iteration.
struct iteration_info {
  std::uint32_t current, window, stamp, next;
};

// The one relaxation step of the loop, for Batch arcs at once: arc[j], leaving a vertex at distance
// du[j], where in[j]. It issues every target and weight load, then (Sink::read_before_atomic) every
// distance read, then every atomicMin, before it looks at any of their results, so a thread waits
// for one round trip of each kind a batch instead of one chain an arc; an arc whose distance drops
// is filed (vertex_filing.cuh). A sum past the distance type sets overflowed.
template <std::uint32_t Batch, class Distance, class Sink>
__device__ void relax_arcs(const loop_view<Distance>& s, const Sink& sink, const Distance (&du)[Batch],
                           const edge_t (&arc)[Batch], const bool (&in)[Batch], const iteration_info& it) {
  using ops = distance_ops<Distance>;
  using weight = typename ops::weight;
  vertex_t t[Batch];
  weight w[Batch];
#pragma unroll
  for (std::uint32_t j = 0; j < Batch; ++j) {
    t[j] = in[j] ? s.targets[arc[j]] : 0;
    w[j] = in[j] ? s.weights[arc[j]] : weight{};
  }
  Distance nd[Batch];
  bool live[Batch];
#pragma unroll
  for (std::uint32_t j = 0; j < Batch; ++j) {
    live[j] = in[j] && ops::extend(du[j], w[j], nd[j]);
    if (in[j] && !live[j]) s.ctl->overflowed = 1;
  }
  if constexpr (Sink::read_before_atomic) {
    Distance seen[Batch];
#pragma unroll
    for (std::uint32_t j = 0; j < Batch; ++j) seen[j] = live[j] ? __ldcg(&s.dist[t[j]]) : Distance{};
#pragma unroll
    for (std::uint32_t j = 0; j < Batch; ++j) live[j] = live[j] && nd[j] < seen[j];
  }
  Distance old[Batch];
#pragma unroll
  for (std::uint32_t j = 0; j < Batch; ++j) old[j] = live[j] ? ops::atomic_min(&s.dist[t[j]], nd[j]) : Distance{};
#pragma unroll
  for (std::uint32_t j = 0; j < Batch; ++j)
    if (live[j] && nd[j] < old[j]) file_improved(s, sink, t[j], nd[j], it.current, it.window, it.stamp);
}

// The part of v's row a pass relaxes.
template <arcs Part, class Distance>
__device__ void arc_range(const loop_view<Distance>& s, vertex_t v, edge_t& begin, edge_t& end) {
  if (Part == arcs::light) {
    begin = s.offsets[v];
    end = s.light_end[v];
  } else {
    begin = s.light_end[v];
    end = s.offsets[v + 1];
  }
}

// Records the chunks of a vertex too large for the warp gather.
template <class Distance, class Sink>
__device__ void push_chunks(const loop_view<Distance>& s, const Sink& sink, vertex_t v, edge_t degree) {
  std::uint32_t chunks = static_cast<std::uint32_t>((degree + loop_tuning::chunk_arcs - 1) / loop_tuning::chunk_arcs);
  std::uint32_t base = atomicAdd(sink.chunk_count, chunks);
  if (static_cast<std::uint64_t>(base) + chunks > s.chunk_capacity) {
    s.ctl->capacity_exceeded = 1;
    return;
  }
  for (std::uint32_t k = 0; k < chunks; ++k) s.chunks[base + k] = make_uint2(v, k);
}

// The heavy arcs of a vertex whose light arcs end at light_end, clipped to 2^clip_bits (the automatic
// heavy-arc rule sums them per warp in 32 bits), and a warp's sum of them added to what the bucket's
// settle pass will weigh (loop_tuning::pull_pays). Called by all 32 lanes.
template <unsigned ClipBits, class Distance>
__device__ std::uint32_t clipped_heavy_arcs(const loop_view<Distance>& s, vertex_t v, edge_t light_end) {
  const edge_t h = s.offsets[v + 1] - light_end;
  return h < (edge_t{1} << ClipBits) ? static_cast<std::uint32_t>(h) : (1u << ClipBits);
}
template <class Distance>
__device__ void add_settled_heavy(const loop_view<Distance>& s, std::uint32_t heavy) {
  heavy = __reduce_add_sync(0xFFFFFFFFu, heavy);
  if ((threadIdx.x & 31u) == 0 && heavy) atomicAdd(&s.ctl->settle_heavy, static_cast<unsigned long long>(heavy));
}

// The entry of a scan's inclusive sums inclusive[0 .. count) that owns item e: the smallest lo
// with inclusive[lo] > e (count >= 1, e < inclusive[count - 1]). Binary search, log2(count) reads.
__device__ inline std::uint32_t owner_of(const std::uint32_t* inclusive, std::uint32_t count, std::uint32_t e) {
  std::uint32_t lo = 0, hi = count - 1;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi) >> 1;
    if (inclusive[mid] > e)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// Per-warp scratch of the scan-based gather.
template <class Distance>
struct gather_scratch {
  std::uint32_t inclusive[32];
  edge_t first_arc[32];
  Distance du[32];
};

// One warp relaxes the Part arcs of frontier[first .. first + 32) (clipped to count); for the light
// part it also records the vertices as processed in the current bucket. Called by all 32 lanes.
// Each lane takes arcs lane, lane + 32, ... of the warp's union, Batch at a time (relax_arcs).
// Returns the number of arcs the warp relaxed (same value in every lane).
template <arcs Part, std::uint32_t Batch, class Distance, class Sink>
__device__ std::uint32_t relax_warp_gather(const loop_view<Distance>& s, const Sink& sink, const vertex_t* frontier,
                                           std::uint32_t count, std::uint32_t first, const iteration_info& it,
                                           gather_scratch<Distance>& scratch) {
  const std::uint32_t lane = threadIdx.x & 31u;
  const std::uint32_t i = first + lane;
  std::uint32_t degree = 0, tag = it.current, heavy = 0;
  edge_t begin = 0;
  Distance du{};
  vertex_t v = 0;
  if (i < count) {
    v = frontier[i];
    edge_t end;
    arc_range<Part>(s, v, begin, end);
    edge_t d = end - begin;
    // The heavy arcs this vertex brings to the bucket's settle pass (the automatic push or pull).
    if (Part == arcs::light && s.heavy_mode == heavy_automatic) heavy = clipped_heavy_arcs<26>(s, v, end);
    du = __ldcg(&s.dist[v]);
    // Issued now, looked at after the arcs: the tag's round trip overlaps the relaxation.
    if (Part == arcs::light) tag = atomicExch(&s.settled_tag[v], it.current);
    if (d > loop_tuning::warp_degree)
      push_chunks(s, sink, v, d);
    else
      degree = static_cast<std::uint32_t>(d);
  }
  std::uint32_t inclusive = degree;
  for (std::uint32_t o = 1; o < 32; o <<= 1) {
    std::uint32_t y = __shfl_up_sync(0xFFFFFFFFu, inclusive, o);
    if (lane >= o) inclusive += y;
  }
  const std::uint32_t total = __shfl_sync(0xFFFFFFFFu, inclusive, 31);
  scratch.inclusive[lane] = inclusive;
  scratch.first_arc[lane] = begin;
  scratch.du[lane] = du;
  __syncwarp();
  for (std::uint32_t lane_arc = lane; lane_arc < total; lane_arc += 32 * Batch) {
    Distance arc_du[Batch];
    edge_t arc[Batch];
    bool in[Batch];
#pragma unroll
    for (std::uint32_t j = 0; j < Batch; ++j) {
      const std::uint32_t e = lane_arc + 32 * j;
      in[j] = e < total;
      arc_du[j] = Distance{};
      arc[j] = 0;
      if (in[j]) {
        const std::uint32_t lo = owner_of(scratch.inclusive, 32, e);  // the lane owning arc e
        const std::uint32_t exclusive = lo ? scratch.inclusive[lo - 1] : 0;
        arc_du[j] = scratch.du[lo];
        arc[j] = scratch.first_arc[lo] + (e - exclusive);
      }
    }
    relax_arcs<Batch>(s, sink, arc_du, arc, in, it);
  }
  if (Part == arcs::light && i < count && tag != it.current) sink.push_settled(s, v);
  if (Part == arcs::light && s.heavy_mode == heavy_automatic) add_settled_heavy(s, tag != it.current ? heavy : 0u);
  __syncwarp();
  return total;
}

// The block-wide gather of the cluster-resident iterations (cluster_driver.cuh): each block of the
// cluster gathers its slice of the frontier. A warp per 32 frontier vertices leaves most of a block
// idle on a road frontier of a few hundred vertices, and each of its lanes walks ~3 arcs one after
// the other, every arc a chain of memory round trips (arc, atomicMin, filing). Here the Threads
// threads of the block share the arcs of up to block_tile vertices evenly (a block scan of their
// degrees; a thread finds the owner of an arc by binary search), and each thread issues the loads
// and atomics of up to gather_batch arcs before it looks at any result, so an iteration costs about
// one chain of round trips, not one per arc. Rows longer than block_hub_arcs go to the chunk list
// (and a tile's degree sum stays below 2^32).

// The tile in vertices: loop_tuning::block_tile, half of it for 64-bit distances, whose scratch
// would not fit beside the cluster's queues and sets in small_frontier's shared memory (227 KB).
template <class Distance>
inline constexpr std::uint32_t gather_tile = sizeof(Distance) == 8 ? loop_tuning::block_tile / 2 : loop_tuning::block_tile;

template <class Distance>
struct block_gather_scratch {
  std::uint32_t inclusive[gather_tile<Distance>];  // inclusive prefix sums of the tile's degrees
  edge_t first_arc[gather_tile<Distance>];
  Distance du[gather_tile<Distance>];
  std::uint32_t warp_total[32];
};

// The block relaxes the Part arcs of list[0 .. count); for the light part it also records the
// vertices as processed in the current bucket. Called by all Threads threads; contains barriers
// and ends with one. Returns the number of arcs relaxed in thread 0, 0 elsewhere (hub chunks are
// the caller's, as in the warp gather).
template <unsigned Threads, arcs Part, class Distance, class Sink>
__device__ std::uint64_t relax_block_gather(const loop_view<Distance>& s, const Sink& sink, const vertex_t* list,
                                            std::uint32_t count, const iteration_info& it,
                                            block_gather_scratch<Distance>& scratch) {
  using ops = distance_ops<Distance>;
  using weight = typename ops::weight;
  constexpr std::uint32_t tile_size = gather_tile<Distance>;
  constexpr std::uint32_t per_thread = tile_size / Threads, warps = Threads / 32;
  static_assert(tile_size % Threads == 0 && Threads % 32 == 0 && warps <= 32, "block gather shape");
  static_assert(per_thread <= 64, "a warp's sum of clipped_heavy_arcs<21> must stay below 2^32");
  const std::uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
  std::uint64_t relaxed = 0;
  for (std::uint32_t tile = 0; tile < count; tile += tile_size) {
    const std::uint32_t in_tile = count - tile < tile_size ? count - tile : tile_size;
    vertex_t v[per_thread];
    std::uint32_t degree[per_thread], tag[per_thread];
    std::uint32_t sum = 0;
#pragma unroll
    for (std::uint32_t j = 0; j < per_thread; ++j) {
      const std::uint32_t i = tid * per_thread + j;
      v[j] = 0;
      degree[j] = 0;
      tag[j] = it.current;
      if (i < in_tile) {
        v[j] = list[tile + i];
        edge_t begin, end;
        arc_range<Part>(s, v[j], begin, end);
        scratch.first_arc[i] = begin;
        scratch.du[i] = __ldcg(&s.dist[v[j]]);
        // Issued now, looked at after the arcs: the tag's round trip overlaps the relaxation.
        if (Part == arcs::light) tag[j] = atomicExch(&s.settled_tag[v[j]], it.current);
        const edge_t d = end - begin;
        if (d > loop_tuning::block_hub_arcs)
          push_chunks(s, sink, v[j], d);
        else
          degree[j] = static_cast<std::uint32_t>(d);
      }
      sum += degree[j];
    }
    std::uint32_t inclusive = sum;
#pragma unroll
    for (std::uint32_t o = 1; o < 32; o <<= 1) {
      const std::uint32_t y = __shfl_up_sync(0xFFFFFFFFu, inclusive, o);
      if (lane >= o) inclusive += y;
    }
    if (lane == 31) scratch.warp_total[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
      std::uint32_t t = lane < warps ? scratch.warp_total[lane] : 0;
#pragma unroll
      for (std::uint32_t o = 1; o < 32; o <<= 1) {
        const std::uint32_t y = __shfl_up_sync(0xFFFFFFFFu, t, o);
        if (lane >= o) t += y;
      }
      scratch.warp_total[lane] = t;
    }
    __syncthreads();
    std::uint32_t running = inclusive - sum + (warp ? scratch.warp_total[warp - 1] : 0);
#pragma unroll
    for (std::uint32_t j = 0; j < per_thread; ++j) {
      const std::uint32_t i = tid * per_thread + j;
      running += degree[j];
      if (i < in_tile) scratch.inclusive[i] = running;
    }
    const std::uint32_t total = scratch.warp_total[warps - 1];
    __syncthreads();
    for (std::uint32_t first = 0; first < total; first += Threads * loop_tuning::gather_batch) {
      vertex_t target[loop_tuning::gather_batch];
      weight w[loop_tuning::gather_batch];
      Distance du[loop_tuning::gather_batch], nd[loop_tuning::gather_batch] = {}, old[loop_tuning::gather_batch] = {};
      bool live[loop_tuning::gather_batch];
#pragma unroll
      for (std::uint32_t b = 0; b < loop_tuning::gather_batch; ++b) {
        const std::uint32_t e = first + b * Threads + tid;
        live[b] = e < total;
        if (live[b]) {
          const std::uint32_t lo = owner_of(scratch.inclusive, in_tile, e);  // the owner of arc e
          const std::uint32_t exclusive = lo ? scratch.inclusive[lo - 1] : 0;
          const edge_t arc = scratch.first_arc[lo] + (e - exclusive);
          du[b] = scratch.du[lo];
          target[b] = s.targets[arc];
          w[b] = s.weights[arc];
        }
      }
#pragma unroll
      for (std::uint32_t b = 0; b < loop_tuning::gather_batch; ++b) {
        if (!live[b]) continue;
        if (!ops::extend(du[b], w[b], nd[b])) {
          s.ctl->overflowed = 1;
          live[b] = false;
          continue;
        }
        old[b] = ops::atomic_min(&s.dist[target[b]], nd[b]);
      }
#pragma unroll
      for (std::uint32_t b = 0; b < loop_tuning::gather_batch; ++b)
        if (live[b] && nd[b] < old[b]) file_improved(s, sink, target[b], nd[b], it.current, it.window, it.stamp);
    }
    if (Part == arcs::light) {
      std::uint32_t heavy = 0;  // the heavy arcs the settled vertices bring to the settle pass (as the warp gather)
#pragma unroll
      for (std::uint32_t j = 0; j < per_thread; ++j)
        if (tid * per_thread + j < in_tile && tag[j] != it.current) {
          sink.push_settled(s, v[j]);
          // per_thread of them a lane: 2^21 each keeps a warp's sum below 2^32
          if (s.heavy_mode == heavy_automatic) heavy += clipped_heavy_arcs<21>(s, v[j], s.light_end[v[j]]);
        }
      if (s.heavy_mode == heavy_automatic) add_settled_heavy(s, heavy);
    }
    relaxed += total;
    __syncthreads();
  }
  return tid == 0 ? relaxed : 0;
}

// Adds the count of relaxed arcs that lane 0 of a warp holds (relax_chunk: the warp's chunk;
// relax_block_gather: the whole block's arcs, in thread 0) to the block's total.
__device__ inline void count_relaxed(unsigned long long& total, std::uint64_t relaxed) {
  if ((threadIdx.x & 31u) == 0 && relaxed) atomicAdd(&total, static_cast<unsigned long long>(relaxed));
}

// One warp relaxes chunk `item` of the chunk list: each lane its arcs lane, lane + 32, ..., Batch
// at a time (relax_arcs). The grid's chunk kernels take loop_tuning::chunk_batch; the
// cluster takes 1, one arc after another (its kernel is held to 64 registers, and a batch of 4
// spilled 124-228 bytes there, against 8-20). Returns the arcs relaxed (lane 0's count).
template <arcs Part, std::uint32_t Batch, class Distance, class Sink>
__device__ std::uint32_t relax_chunk(const loop_view<Distance>& s, const Sink& sink, std::uint32_t item,
                                     const iteration_info& it) {
  constexpr std::uint32_t batch = Batch;
  const std::uint32_t lane = threadIdx.x & 31u;
  uint2 c = s.chunks[item];
  edge_t begin, end;
  arc_range<Part>(s, c.x, begin, end);
  edge_t from = begin + static_cast<edge_t>(c.y) * loop_tuning::chunk_arcs;
  edge_t to = from + loop_tuning::chunk_arcs < end ? from + loop_tuning::chunk_arcs : end;
  const Distance du = __ldcg(&s.dist[c.x]);
  for (edge_t first = from + lane; first < to; first += 32 * batch) {
    Distance arc_du[batch];
    edge_t arc[batch];
    bool in[batch];
#pragma unroll
    for (std::uint32_t j = 0; j < batch; ++j) {
      arc_du[j] = du;
      arc[j] = first + 32 * j;
      in[j] = arc[j] < to;
    }
    relax_arcs<batch>(s, sink, arc_du, arc, in, it);
  }
  return static_cast<std::uint32_t>(to - from);
}

// --- Pulled heavy arcs (sssp::heavy_relaxation; Chakaravarthy et al., IEEE TPDS 2017) ---
// Once bucket c is used up, every vertex v still above it may improve only through a heavy arc
// from a vertex u of bucket c (the arcs of earlier buckets and the light arcs of c are relaxed),
// and only when d(u) + w < d(v), that is w < d(v) - d(u) <= d(v) - c delta. On an undirected
// graph v's row is its in-arcs, sorted by weight on upload: v reads its heavy arcs from the
// lightest on and stops at the first with (c delta) + w >= its best, reading each source's
// distance and keeping the best sum. A source from any bucket gives a true path length, so no
// bucket is checked; one from a later bucket may improve again and relax its arcs then. The first
// pull_thread_arcs arcs are the thread's, the rest of a long row goes to the chunk list.

// Reads arcs [first, last) of v's row (weights ascending), pull_batch at a time: each one whose
// sum with the bucket's floor is below best is looked at (its source's distance read), and best
// keeps the least sum. Returns false once an arc was too heavy (the row's rest is too), true when
// the range ran out. looked counts the sources read. A sum past the distance type sets overflowed
// (the engine then looks for a vertex whose distance does not fit).
template <class Distance>
__device__ bool pull_range(const loop_view<Distance>& s, edge_t first, edge_t last, edge_t step, Distance floor,
                           Distance& best, std::uint32_t& looked) {
  using ops = distance_ops<Distance>;
  using weight = typename ops::weight;
  constexpr std::uint32_t batch = loop_tuning::pull_batch;
  for (edge_t e = first; e < last; e += step * batch) {
    weight w[batch];
    vertex_t t[batch];
    bool in[batch];
#pragma unroll
    for (std::uint32_t j = 0; j < batch; ++j) {
      const edge_t a = e + step * j;
      in[j] = a < last;
      w[j] = in[j] ? s.weights[a] : weight{};
      t[j] = in[j] ? s.targets[a] : 0;
    }
    bool more = true;
#pragma unroll
    for (std::uint32_t j = 0; j < batch; ++j) {
      if (!in[j]) continue;
      Distance low{};
      const bool fits = ops::extend(floor, w[j], low);
      if (!fits) s.ctl->overflowed = 1;  // perhaps no source of bucket c has this arc: checked after the solve
      if (!fits || !(low < best)) {
        in[j] = false;
        more = false;
      }
    }
    Distance du[batch];
#pragma unroll
    for (std::uint32_t j = 0; j < batch; ++j) du[j] = in[j] ? __ldcg(&s.dist[t[j]]) : Distance{};
#pragma unroll
    for (std::uint32_t j = 0; j < batch; ++j) {
      if (!in[j]) continue;
      ++looked;
      Distance nd{};
      if (!ops::extend(du[j], w[j], nd)) {
        if (du[j] != ops::infinity) s.ctl->overflowed = 1;
      } else if (nd < best) {
        best = nd;
      }
    }
    if (!more) return false;
  }
  return true;
}

// v's new distance, if the pull lowered it: written with atomicMin (the chunks of a long row write
// theirs too) and filed like any improvement.
template <class Distance, class Sink>
__device__ void pulled_distance(const loop_view<Distance>& s, const Sink& sink, vertex_t v, Distance d, Distance best,
                                const iteration_info& it) {
  if (!(best < d)) return;
  const Distance old = distance_ops<Distance>::atomic_min(&s.dist[v], best);
  if (best < old) file_improved(s, sink, v, best, it.current, it.window, it.stamp);
}

// One thread pulls for vertex v. Returns the sources read.
template <class Distance, class Sink>
__device__ std::uint32_t pull_vertex(const loop_view<Distance>& s, const Sink& sink, vertex_t v, const iteration_info& it) {
  const Distance d = __ldcg(&s.dist[v]);
  if (s.bucket(d) <= it.current) return 0;  // settled: its distance is final
  const edge_t first = s.light_end[v], end = s.offsets[v + 1];
  const edge_t own = end - first > loop_tuning::pull_thread_arcs ? first + loop_tuning::pull_thread_arcs : end;
  Distance best = d;
  std::uint32_t looked = 0;
  const bool more = pull_range(s, first, own, 1, s.bucket.lower_bound(it.current), best, looked);
  if (more && own < end) push_chunks(s, sink, v, end - own);  // the rest of a long row, chunk_arcs a warp
  pulled_distance(s, sink, v, d, best, it);
  return looked;
}

// One warp pulls chunk `item` of the chunk list: arcs [own + k chunk_arcs, ...) of its vertex's
// row, lane by lane, then the warp's least sum. Returns the sources read (lane 0's count).
template <class Distance, class Sink>
__device__ std::uint32_t pull_chunk(const loop_view<Distance>& s, const Sink& sink, std::uint32_t item,
                                    const iteration_info& it) {
  const std::uint32_t lane = threadIdx.x & 31u;
  const uint2 c = s.chunks[item];
  const edge_t end = s.offsets[c.x + 1];
  const edge_t from = s.light_end[c.x] + loop_tuning::pull_thread_arcs + static_cast<edge_t>(c.y) * loop_tuning::chunk_arcs;
  const edge_t to = from + loop_tuning::chunk_arcs < end ? from + loop_tuning::chunk_arcs : end;
  const Distance d = __ldcg(&s.dist[c.x]);
  Distance best = d;
  std::uint32_t looked = 0;
  pull_range(s, from + lane, to, 32, s.bucket.lower_bound(it.current), best, looked);
  const distance_word<Distance> least = warp_min_word(distance_bits(best));
  looked = __reduce_add_sync(0xFFFFFFFFu, looked);
  if (lane == 0) pulled_distance(s, sink, c.x, d, distance_from_bits<Distance>(least), it);
  return looked;
}

}  // namespace deltasplit::sssp::gpu
