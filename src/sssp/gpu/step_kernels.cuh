// The kernels of one step of the delta-stepping loop (Davidson et al. 2014; seed 000, Section 7.2),
// shared by every frontier manager. A step is
//   file (manager) -> far_pile_min -> plan -> gather -> small_frontier -> relax_grid -> relax_chunks
//   -> end_step -> settle_grid -> settle_chunks -> close_step
// and every kernel sizes its work from the counters in `control`, so steps are queued (or replayed
// from a CUDA graph) without the host ever reading a count.
//
// Small frontiers: road networks keep a frontier of hundreds to a few thousand vertices for
// thousands of iterations, where a grid-wide iteration costs a handful of launches for almost no
// work. small_frontier runs those iterations inside one persistent thread-block cluster (Hopper:
// 16 blocks of 1024 threads on as many SMs, or small_frontier_cluster where the GPU cannot place
// 16 (small_frontier_blocks in delta_stepping.cuh), one hardware cluster barrier
// between relaxation and the swap of frontiers), bucket after bucket, until the frontier outgrows
// small_frontier_limit or the window needs the grid (see decide()); the grid kernels take the large
// frontiers. The cluster's queues and counters live in the shared memory of block rank 0, its hash
// sets are spread over all blocks, and the blocks reach each other's through distributed shared
// memory; every block relaxes a slice of the
// frontier, and inside a block the slice's arcs are shared by all its threads (relax_block_gather),
// so an iteration costs about one chain of memory round trips spread over the cluster's SMs.
// The light iterations of a bucket run block by block (local_phase, relax_locally): each block
// takes its slice of the frontier and goes on with the vertices it improves itself, with a block
// barrier between its iterations and no cluster barrier until every block's work in the bucket is
// done; filing into later buckets and the list of processed vertices wait in shared memory until
// then. A block whose frontier outgrows its share, or turns dense, hands it back to the cluster,
// which spreads it again (or passes it to the grid). The engine chooses it for sparse graphs
// (engine.cu, choose_local_light), where it cut USA-road-d.NY from 11.3 to 5.7 ms and road-FLA from
// 18.7 to 11.1 ms (H200, same run); the cluster-synchronous light phase (light_phase) stays for
// the others.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/frontier_cluster.cuh"
#include "sssp/gpu/relaxation.cuh"

namespace deltasplit::sssp::gpu {

inline constexpr std::uint32_t small_frontier_limit = 8192;
inline constexpr unsigned small_frontier_threads = 1024;
inline constexpr unsigned small_frontier_warps = small_frontier_threads / 32;

template <class Distance>
__global__ void init_solve(loop_view<Distance> s, vertex_t source) {
  std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.num_vertices; v += stride) {
    s.dist[v] = v == source ? Distance(0) : distance_ops<Distance>::infinity;
    s.stamp[v] = 0;
    s.filed[v] = no_bucket;
    s.settled_tag[v] = no_bucket;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    control c{};
    c.min_bucket = no_bucket;
    c.pick_slot = no_bucket;
    c.frontier_count[0] = 1;
    *s.ctl = c;
    s.frontier[0][0] = source;
  }
}

// Lowest live bucket of the far pile, computed only in the step that will re-file it: the frontier
// is empty and no bucket of the window after the current one holds anything. Live copies are those
// whose bucket lies past the current one (everything at or below it has been settled).
template <class Distance>
__global__ void far_pile_min(loop_view<Distance> s) {
  control* ctl = s.ctl;
  if (ctl->done || ctl->frontier_count[ctl->cur] != 0 || ctl->beyond_count == 0) return;
  const std::uint32_t c = ctl->current, rel = c - ctl->window;
  for (std::uint32_t k = rel + 1; k < s.window_buckets; ++k)
    if (ctl->slot_count[k] != 0) return;
  const std::uint32_t n = clamp_count(ctl->beyond_count, s.queue_capacity);
  std::uint32_t best = no_bucket;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    std::uint32_t b = s.bucket(__ldcg(&s.dist[s.beyond[i]]));
    if (b > c && b < best) best = b;
  }
  best = __reduce_min_sync(0xFFFFFFFFu, best);
  if ((threadIdx.x & 31u) == 0 && best != no_bucket) atomicMin(&ctl->min_bucket, best);
}

// Picks what the next frontier is made of when the current one is empty: the next non-empty bucket
// of the window, else the far pile re-filed around its lowest live bucket, else the solve is done.
// The manager has filed to_file at the start of the step, so to_file is empty again.
template <class Distance>
__global__ void plan(loop_view<Distance> s) {
  control* ctl = s.ctl;
  if (ctl->done) return;
  ctl->to_file_count = 0;
  ctl->chunks_queued = 0;
  ctl->pick_slot = no_bucket;
  ctl->refile = 0;
  ctl->gather_count = 0;
  if (ctl->frontier_count[ctl->cur] != 0) return;
  const std::uint32_t rel = ctl->current - ctl->window;
  for (std::uint32_t k = rel + 1; k < s.window_buckets; ++k) {
    if (ctl->slot_count[k] != 0) {
      if (ctl->window + k > s.last_bucket) break;  // past the cutoff (and so is the far pile): done
      ctl->current = ctl->window + k;
      ctl->pick_slot = k;
      ctl->gather_count = ctl->slot_count[k];
      ctl->slot_count[k] = 0;
      return;
    }
  }
  if (ctl->beyond_count != 0 && ctl->min_bucket != no_bucket && ctl->min_bucket <= s.last_bucket) {
    ctl->current = ctl->window = ctl->min_bucket;
    ctl->min_bucket = no_bucket;
    ctl->refile = 1;
    ctl->gather_count = ctl->beyond_count;
    ctl->beyond_count = 0;
    return;
  }
  ctl->beyond_count = 0;  // only stale copies were left
  ctl->done = 1;
}

// Builds the new frontier from the slot picked by plan, or re-files the far pile: copies in the new
// current bucket are taken, the others go to to_file (the manager files them next step).
template <class Distance>
__global__ void gather(loop_view<Distance> s) {
  control* ctl = s.ctl;
  if (ctl->done || (ctl->pick_slot == no_bucket && !ctl->refile)) return;
  const std::uint32_t c = ctl->current;
  const std::uint32_t n = clamp_count(ctl->gather_count, s.queue_capacity);
  const vertex_t* from = ctl->refile ? s.beyond : s.slot(ctl->pick_slot);
  const grid_sink current = current_frontier_sink(s);
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    vertex_t v = from[i];
    if (s.bucket(__ldcg(&s.dist[v])) <= c)
      take_if_current(s, current, v, c);
    else
      push(s.to_file, &ctl->to_file_count, s.queue_capacity, v, ctl);
  }
}

// Iterations over small frontiers inside one cluster (see the file comment). The frontier lives in
// the shared memory of block rank 0 (two queues of small_frontier_limit vertices) and so do its
// counters, the current bucket, the iteration stamp and the count of the bucket's processed
// vertices; the hash sets that keep a vertex out of the next frontier twice are spread over the
// blocks (block_sink): an iteration costs the arcs' own memory round trips and a few cluster
// barriers. When the bucket is used up the cluster goes on
// by itself (decide(), below) as long as the work stays small. A next frontier that outgrows the
// shared queue spills into the global frontier buffer; the kernel then copies the shared part in
// front of it and leaves the frontier to the grid-wide kernels. Every block allocates the same
// shared memory (one launch shape, sized for a cluster of one block).
inline constexpr unsigned small_frontier_cluster = 8;  // blocks: the portable cluster size, one per SM
static_assert((small_frontier_cluster & (small_frontier_cluster - 1)) == 0, "the hash sets split by a power of two");
inline constexpr std::uint32_t seen_set_size = 2 * small_frontier_limit;  // load factor <= 1/2
// A block's own light iterations (local_phase, relax_locally) keep two queues of its share of
// small_frontier_limit (at most local_queue_limit vertices) and two hash sets of local_set_size
// entries in the part of the block's seen-set area that the cluster's sets leave free: a cluster of
// b blocks keeps 2 * seen_set_size / b words of sets in each block, so from local_min_blocks blocks
// on the rest holds the local ones.
inline constexpr std::uint32_t local_min_blocks = 4;
inline constexpr std::uint32_t local_queue_limit = small_frontier_limit / local_min_blocks;
inline constexpr std::uint32_t local_set_size = 4096;
inline constexpr std::uint32_t local_kept_limit = 4096;  // each of local_sink's kept lists
// A block whose iteration relaxed more arcs than this (four per thread) hands its frontier back to
// the cluster after the next one: dense frontiers (R-MAT, social graphs) are shared by all blocks
// again, road frontiers (tens of arcs per block) stay local.
inline constexpr std::uint64_t local_spread_arcs = 4 * small_frontier_threads;
static_assert(2 * seen_set_size / local_min_blocks + 2 * local_queue_limit + 2 * local_set_size +
                      2 * local_kept_limit <= 2 * seen_set_size,
              "the local queues, sets and kept lists fit beside the cluster's sets");
inline constexpr std::uint32_t settle_limit = 4 * small_frontier_limit;
inline constexpr std::uint32_t block_file_limit = 4 * small_frontier_limit;
// Vertices a thread files or takes at once: their loads are issued before any is looked at.
inline constexpr std::uint32_t filing_batch = 2;

// A far pile up to this size is re-filed by the block itself (two passes of a few batches per
// thread); above it, the grid's far_pile_min and gather (one pass each over all SMs, but a step of
// launches) cost less.
inline constexpr std::uint32_t block_refile_limit = small_frontier_limit;

enum small_phase : std::uint32_t {
  no_work,
  light_phase,
  heavy_phase,
  file_phase,
  gather_phase,
  min_phase,
  refile_phase,
  local_phase  // light iterations, each block on its own share (relax_locally)
};

// The cluster's loop state, in block rank 0.
struct block_state {
  iteration_info it;
  std::uint32_t count;        // the current frontier (shared queue q)
  std::uint32_t next_count;
  std::uint32_t chunk_count;
  std::uint32_t settled;      // vertices processed in the current bucket (global list s.settled)
  unsigned long long processed;  // vertices of the light iterations, and the largest such frontier
  std::uint32_t largest;
  std::uint32_t phase, items, picked_slot;
  std::uint32_t far_min;        // lowest live bucket of the far pile, once a min_phase has run
  std::uint32_t far_min_known;
  std::uint32_t local_iterations;  // the most light iterations a block ran in the last local_phase
};

// What rank 0 decided, written into every block's shared memory before the cluster barrier that
// publishes it: each block then reads its own copy, not 32 warps' worth of remote loads into rank 0.
struct cluster_decision {
  iteration_info it;
  std::uint32_t phase, items, picked_slot;
};

// The dynamic shared memory of a block: the queues, the seen sets and the loop state, so that rank 0's
// are reached from one address.
inline constexpr std::uint32_t state_word = 2 * small_frontier_limit + 2 * seen_set_size;
inline constexpr std::size_t small_frontier_shared_bytes = state_word * sizeof(std::uint32_t) + sizeof(block_state);
static_assert(state_word * sizeof(std::uint32_t) % alignof(block_state) == 0, "loop state alignment");

// What the cluster does next (thread 0 of rank 0; counters written by atomics are read through L2):
// relax the light arcs of a small frontier; when the bucket is used up, relax its vertices'
// heavy arcs; then file to_file into the window (by atomics, as Near-Far's filing does); then take
// the next non-empty bucket of the window; when the window is used up, find the far pile's lowest
// live bucket and re-file the far pile around it (far_pile_min, plan and gather's work: the new
// bucket's vertices are taken, the others go to to_file and are filed by the next file phase).
// Anything too large for the cluster, the end of the solve and the managers' own filing of large
// batches are left to the grid kernels.
template <class Distance>
__device__ void decide(const loop_view<Distance>& s, block_state& b) {
  control* ctl = s.ctl;
  b.phase = no_work;
  if (b.count > small_frontier_limit) return;
  if (b.count > 0) {
    b.phase = s.local_light && frontier_cluster{}.num_blocks() >= local_min_blocks ? local_phase : light_phase;
    b.items = b.count;
    return;
  }
  if (b.settled > 0) {
    if (b.settled <= settle_limit) {
      b.phase = heavy_phase;
      b.items = clamp_count(b.settled, s.frontier_capacity);
      b.settled = 0;
    }
    return;
  }
  const std::uint32_t unfiled = __ldcg(&ctl->to_file_count);
  if (unfiled > 0) {
    if (unfiled <= block_file_limit) {
      b.phase = file_phase;
      b.items = clamp_count(unfiled, s.queue_capacity);
      ctl->to_file_count = 0;
    }
    return;
  }
  for (std::uint32_t k = b.it.current - b.it.window + 1; k < s.window_buckets; ++k) {
    const std::uint32_t waiting = __ldcg(&ctl->slot_count[k]);
    if (waiting == 0) continue;
    if (waiting <= small_frontier_limit && b.it.window + k <= s.last_bucket) {  // past the cutoff: plan ends it
      b.phase = gather_phase;
      b.items = clamp_count(waiting, s.queue_capacity);
      b.picked_slot = k;
      ctl->slot_count[k] = 0;
      b.it.current = b.it.window + k;
    }
    return;
  }
  const std::uint32_t far = clamp_count(__ldcg(&ctl->beyond_count), s.queue_capacity);
  if (far == 0 || far > block_refile_limit) return;
  if (!b.far_min_known) {
    b.phase = min_phase;
    b.items = far;
    b.far_min = no_bucket;
    return;
  }
  b.far_min_known = 0;
  if (b.far_min == no_bucket || b.far_min > s.last_bucket) return;  // stale copies or past the cutoff: plan ends it
  b.phase = refile_phase;
  b.items = far;
  ctl->beyond_count = 0;
  b.it.window = b.it.current = b.far_min;
  ctl->window = b.far_min;
}

// Adds the count of relaxed arcs that lane 0 of a warp holds (relax_chunk: the warp's chunk;
// relax_block_gather: the whole block's arcs, in thread 0) to the block's total.
__device__ inline void count_relaxed(unsigned long long& total, std::uint64_t relaxed) {
  if ((threadIdx.x & 31u) == 0 && relaxed) atomicAdd(&total, static_cast<unsigned long long>(relaxed));
}

// Calls f(v, d) for every list[i] = v, i < n, that falls to this thread (number `thread` of
// `threads`), with d = dist[v]: the thread reads filing_batch vertices, then their distances,
// before the first call, so that their memory round trips overlap.
template <class Distance, class F>
__device__ void for_each_batched(const loop_view<Distance>& s, const vertex_t* list, std::uint32_t n,
                                 std::uint32_t thread, std::uint32_t threads, F&& f) {
  for (std::uint32_t first = thread; first < n; first += threads * filing_batch) {
    vertex_t v[filing_batch];
    Distance d[filing_batch];
#pragma unroll
    for (std::uint32_t j = 0; j < filing_batch; ++j) {
      const std::uint32_t i = first + j * threads;
      v[j] = i < n ? list[i] : 0;
    }
#pragma unroll
    for (std::uint32_t j = 0; j < filing_batch; ++j)
      if (first + j * threads < n) d[j] = __ldcg(&s.dist[v[j]]);
#pragma unroll
    for (std::uint32_t j = 0; j < filing_batch; ++j)
      if (first + j * threads < n) f(v[j], d[j]);
  }
}

// Empties this block's part of a hash set (block_sink: entry h lives in block h mod blocks).
__device__ inline void clear_set(std::uint32_t* set, std::uint32_t rank_bits) {
  for (std::uint32_t i = threadIdx.x; i < seen_set_size >> rank_bits; i += blockDim.x) set[i] = block_sink::empty;
}

// The cluster's blocks relax the Part arcs of list[0 .. n) in even slices, then every warp of the
// cluster takes chunks of the hub rows the slices left (after a cluster barrier: any block may have
// pushed them).
template <arcs Part, class Distance>
__device__ void relax_in_cluster(const loop_view<Distance>& s, const block_sink& sink, const vertex_t* list,
                                 std::uint32_t n, const iteration_info& it, const block_state& lead,
                                 block_gather_scratch<Distance>& tile, unsigned long long& relaxed) {
  const frontier_cluster cluster{};
  const std::uint32_t rank = cluster.block_rank(), blocks = cluster.num_blocks();
  const std::uint32_t lo = n * rank / blocks, hi = n * (rank + 1) / blocks;
  count_relaxed(relaxed, relax_block_gather<small_frontier_threads, Part>(s, sink, list + lo, hi - lo, it, tile));
  cluster.sync();
  const std::uint32_t chunks = clamp_count(lead.chunk_count, s.chunk_capacity);
  for (std::uint32_t item = rank * small_frontier_warps + (threadIdx.x >> 5); item < chunks;
       item += blocks * small_frontier_warps)
    count_relaxed(relaxed, relax_chunk<Part>(s, sink, item, it));
}

// Light iterations with no cluster barrier between them (local_phase): the block relaxes its share
// slice[0 .. n) of the cluster's frontier, then, iteration after iteration, the vertices it improved
// into the current bucket itself (local_sink: its own queues and hash sets in `area`, see
// local_queue_limit), until it improved none; only then does it wait for the other blocks. A vertex
// improved by two blocks is relaxed by both, each from the distance it reads then, so every
// improvement is followed by a relaxation, as delta-stepping's light phase needs; the blocks' chains
// of iterations no longer wait for each other at every step. Counters and sets are double-buffered
// so that one barrier (relax_block_gather's last) separates iterations.
struct local_state {
  std::uint32_t count[2];
  std::uint32_t spread[2];  // the block's iteration before last relaxed more than local_spread_arcs
  std::uint32_t later, processed, processed_base;
  unsigned long long vertices;
};

template <class Distance>
__device__ void relax_locally(const loop_view<Distance>& s, const block_sink& cluster_sink, const vertex_t* slice,
                              std::uint32_t n, const iteration_info& it, std::uint32_t* area, local_state& local,
                              block_state& lead, block_gather_scratch<Distance>& tile, unsigned long long& relaxed) {
  // Each block holds at most its share of what the cluster holds: a frontier that outgrows it goes
  // back to the cluster, and from there, past small_frontier_limit, to the grid.
  const std::uint32_t limit = small_frontier_limit / frontier_cluster{}.num_blocks();
  vertex_t* const queues = area;
  std::uint32_t* const sets = area + 2 * local_queue_limit;
  vertex_t* const later = sets + 2 * local_set_size;
  vertex_t* const processed = later + local_kept_limit;
  if (threadIdx.x == 0) {
    local.count[1] = 0;
    local.spread[0] = local.spread[1] = 0;
    local.later = 0;
    local.processed = 0;
    local.vertices = 0;
  }
  for (std::uint32_t i = threadIdx.x; i < local_set_size; i += blockDim.x) sets[i] = block_sink::empty;
  const vertex_t* list = slice;
  std::uint32_t count = n, k = 0;
  while (count > 0) {
    const std::uint32_t in = k & 1u, out = in ^ 1u;
    for (std::uint32_t i = threadIdx.x; i < local_set_size; i += blockDim.x)
      sets[out * local_set_size + i] = block_sink::empty;  // the next iteration's
    const local_sink sink{queues + out * local_queue_limit, &local.count[out], limit,
                          sets + in * local_set_size, local_set_size - 1, cluster_sink, cluster_sink.chunk_count,
                          later, &local.later, processed, &local.processed, local_kept_limit};
    const std::uint64_t arcs = relax_block_gather<small_frontier_threads, arcs::light>(s, sink, list, count, it, tile);
    count_relaxed(relaxed, arcs);
    // After the gather's closing barrier: the pushes, and the flag thread 0 set after the last one.
    const std::uint32_t pushed = local.count[out];
    const bool spread = local.spread[in];
    if (threadIdx.x == 0) {
      local.vertices += count;
      local.count[in] = 0;  // the next iteration's output counter
      local.spread[out] = arcs > local_spread_arcs;
    }
    list = queues + out * local_queue_limit;
    ++k;
    // Outgrown, or dense enough that the cluster's blocks should share it: the block's frontier
    // joins the cluster's (where the overflow already is), which spreads it over the blocks again.
    if (pushed > limit || (spread && pushed > 0)) {
      const std::uint32_t kept = clamp_count(pushed, limit);
      for (std::uint32_t i = threadIdx.x; i < kept; i += blockDim.x) cluster_sink.push_next_once(s, list[i], it.stamp);
      break;
    }
    count = pushed;
  }
  // The kept lists (complete: the last gather ended with a barrier). A vertex kept for a later
  // bucket is filed by the distance it has now; one that has since come back into the current
  // bucket was taken into a frontier by that improvement and is left alone.
  const std::uint32_t later_count = clamp_count(local.later, local_kept_limit);
  for (std::uint32_t i = threadIdx.x; i < later_count; i += blockDim.x) {
    const vertex_t v = later[i];
    const std::uint32_t b = s.bucket(__ldcg(&s.dist[v]));
    if (b > it.current) file_later_bucket(s, v, b, it.window);
  }
  const std::uint32_t processed_count = clamp_count(local.processed, local_kept_limit);
  if (threadIdx.x == 0) {
    if (processed_count) local.processed_base = atomicAdd(&lead.settled, processed_count);
    if (k > 0) {
      atomicMax(&lead.local_iterations, k);
      atomicAdd(&lead.processed, local.vertices);
    }
  }
  __syncthreads();
  const std::uint32_t base = local.processed_base;
  for (std::uint32_t i = threadIdx.x; i < processed_count; i += blockDim.x) {
    if (base + i < s.frontier_capacity)
      s.settled[base + i] = processed[i];
    else
      s.ctl->capacity_exceeded = 1;
  }
}

// Thread 0 of rank 0, between iterations: the iteration just done becomes history, the next
// frontier the current one.
__device__ inline void close_iteration(block_state& b) {
  if (b.phase == light_phase) b.processed += b.items;  // local_phase: the blocks add their own
  if ((b.phase == light_phase || b.phase == local_phase) && b.items > b.largest) b.largest = b.items;
  if (b.phase == light_phase || b.phase == heavy_phase) b.it.stamp += 1;
  if (b.phase == local_phase) b.it.stamp += b.local_iterations > 1 ? b.local_iterations : 1;
  b.local_iterations = 0;
  if (b.phase == min_phase) b.far_min_known = 1;
  b.count = b.next_count;
  b.next_count = 0;
  b.chunk_count = 0;
}

// Launched as one cluster. Every block reads the same control words at the start, so all of them
// stay or leave together; afterwards every decision is rank 0's, published to all blocks by a
// cluster barrier, and rank 0 leaves last (its shared memory is everyone's).
template <class Distance>
__global__ void __launch_bounds__(small_frontier_threads, 1) small_frontier(loop_view<Distance> s) {
  // queues [2][small_frontier_limit], seen sets [2][seen_set_size], block_state
  extern __shared__ __align__(8) vertex_t shared_words[];
  __shared__ block_gather_scratch<Distance> tile;
  block_state& b = *reinterpret_cast<block_state*>(shared_words + state_word);
  __shared__ unsigned long long relaxed;  // this block's arcs
  __shared__ cluster_decision decision;
  const frontier_cluster cluster{};
  control* ctl = s.ctl;
  const std::uint32_t cur = ctl->cur, start_count = ctl->frontier_count[cur];
  if (ctl->done || start_count == 0 || start_count > small_frontier_limit) return;
  const std::uint32_t rank = cluster.block_rank();
  vertex_t* const queues = cluster.map_shared_rank(shared_words, 0);
  block_state& lead = *reinterpret_cast<block_state*>(queues + state_word);
  const std::uint32_t spill_buffer = cur ^ 1u;
  const std::uint32_t rank_bits = static_cast<std::uint32_t>(__ffs(cluster.num_blocks())) - 1u;
  std::uint32_t* const seen = shared_words + 2 * small_frontier_limit;  // this block's part of both sets
  const std::uint32_t set_part = seen_set_size >> rank_bits;             // words of each set in this block
  __shared__ local_state local;
  if (threadIdx.x == 0) relaxed = 0;
  clear_set(seen, rank_bits);
  if (rank == 0) {
    if (threadIdx.x == 0) {
      b.count = start_count;
      b.it = iteration_info{ctl->current, ctl->window, ctl->iteration + 1, 0};
      b.next_count = 0;
      b.chunk_count = 0;
      b.settled = ctl->settled_count;
      b.processed = 0;
      b.largest = 0;
      b.phase = no_work;
      b.far_min_known = 0;
      b.local_iterations = 0;
    }
    for (std::uint32_t i = threadIdx.x; i < start_count; i += blockDim.x) shared_words[i] = s.frontier[cur][i];
  }
  std::uint32_t q = 0, set = 0;
  for (;;) {
    cluster.sync();
    if (rank == 0 && threadIdx.x == 0) {
      if (b.phase != no_work) close_iteration(b);
      decide(s, b);
      for (std::uint32_t r = 0; r < cluster.num_blocks(); ++r)
        *cluster.map_shared_rank(&decision, r) = cluster_decision{b.it, b.phase, b.items, b.picked_slot};
    }
    cluster.sync();
    const std::uint32_t phase = decision.phase;
    if (phase == no_work) break;
    const std::uint32_t n = decision.items;
    const iteration_info it = decision.it;
    const std::uint32_t thread = rank * small_frontier_threads + threadIdx.x;
    const std::uint32_t threads = cluster.num_blocks() * small_frontier_threads;
    const block_sink sink{queues + (q ^ 1u) * small_frontier_limit,
                          &lead.next_count,
                          small_frontier_limit,
                          s.frontier[spill_buffer],
                          s.frontier_capacity,
                          &lead.chunk_count,
                          &lead.settled,
                          seen + set * set_part,
                          seen_set_size - 1};
    if (phase == light_phase || phase == heavy_phase) {
      clear_set(seen + (set ^ 1u) * set_part, rank_bits);  // for the next iteration
      if (phase == light_phase)
        relax_in_cluster<arcs::light>(s, sink, queues + q * small_frontier_limit, n, it, lead, tile, relaxed);
      else
        relax_in_cluster<arcs::heavy>(s, sink, s.settled, n, it, lead, tile, relaxed);
      set ^= 1u;
    } else if (phase == local_phase) {
      clear_set(seen + (set ^ 1u) * set_part, rank_bits);
      const std::uint32_t blocks = cluster.num_blocks(), lo = n * rank / blocks, hi = n * (rank + 1) / blocks;
      relax_locally(s, sink, queues + q * small_frontier_limit + lo, hi - lo, it, seen + 2 * set_part, local, lead,
                    tile, relaxed);
      cluster.sync();  // the chunks of hub rows any block met
      const std::uint32_t chunks = clamp_count(lead.chunk_count, s.chunk_capacity);
      for (std::uint32_t item = rank * small_frontier_warps + (threadIdx.x >> 5); item < chunks;
           item += blocks * small_frontier_warps)
        count_relaxed(relaxed, relax_chunk<arcs::light>(s, sink, item, it));
      set ^= 1u;
    } else if (phase == file_phase) {
      const window_key<Distance> key = key_of(s);
      const std::uint32_t rel = it.current - it.window;
      for_each_batched(s, s.to_file, n, thread, threads, [&](vertex_t v, Distance d) {
        file_by_key(s, sink, v, key.of_distance(d), it.current, rel);
      });
    } else if (phase == gather_phase) {
      for_each_batched(s, s.slot(decision.picked_slot), n, thread, threads,
                       [&](vertex_t v, Distance d) { take_if_in_bucket(s, sink, v, d, it.current); });
    } else if (phase == min_phase) {
      std::uint32_t best = no_bucket;
      for_each_batched(s, s.beyond, n, thread, threads, [&](vertex_t, Distance d) {
        const std::uint32_t bucket = s.bucket(d);
        if (bucket > it.current && bucket < best) best = bucket;  // at or below it: settled, stale
      });
      best = __reduce_min_sync(0xFFFFFFFFu, best);
      if ((threadIdx.x & 31u) == 0 && best != no_bucket) atomicMin(&lead.far_min, best);
    } else {
      for_each_batched(s, s.beyond, n, thread, threads, [&](vertex_t v, Distance d) {
        if (s.bucket(d) <= it.current)
          take_if_in_bucket(s, sink, v, d, it.current);
        else
          push(s.to_file, &ctl->to_file_count, s.queue_capacity, v, ctl);
      });
    }
    q ^= 1u;
  }
  cluster.sync();  // every block has read the last decision: rank 0's shared memory is its own again
  if (threadIdx.x == 0 && relaxed) atomicAdd(&ctl->edges_relaxed, relaxed);
  if (rank != 0) return;
  const std::uint32_t left = b.count;
  if (left > small_frontier_limit) {  // hand the frontier to the grid: shared part, then the spilled rest
    for (std::uint32_t i = threadIdx.x; i < small_frontier_limit; i += blockDim.x)
      s.frontier[spill_buffer][i] = shared_words[q * small_frontier_limit + i];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ctl->frontier_count[cur] = 0;
    ctl->frontier_count[spill_buffer] = left;
    ctl->cur = spill_buffer;
    ctl->iteration = b.it.stamp - 1;
    ctl->current = b.it.current;
    ctl->settled_count = b.settled;
    ctl->vertices_processed += b.processed;
    if (b.largest > ctl->max_frontier) ctl->max_frontier = b.largest;
  }
}

__device__ inline iteration_info read_iteration(const control* ctl) {
  return iteration_info{ctl->current, ctl->window, ctl->iteration + 1, ctl->cur ^ 1u};
}

template <class Distance>
__device__ grid_sink grid_sink_of(const loop_view<Distance>& s, const iteration_info& it) {
  return grid_sink{s.frontier[it.next], &s.ctl->frontier_count[it.next], s.frontier_capacity, &s.ctl->chunks_queued,
                   &s.ctl->settled_count};
}

__device__ inline void add_relaxed(control* ctl, std::uint32_t relaxed, std::uint32_t* block_total) {
  if ((threadIdx.x & 31u) == 0 && relaxed) atomicAdd(block_total, relaxed);
  __syncthreads();
  if (threadIdx.x == 0 && *block_total) atomicAdd(&ctl->edges_relaxed, static_cast<unsigned long long>(*block_total));
}

// One grid-wide relaxation iteration of a frontier too large for small_frontier.
template <class Distance>
__global__ void relax_grid(loop_view<Distance> s) {
  __shared__ gather_scratch<Distance> scratch[8];
  __shared__ std::uint32_t block_total;
  const control* ctl = s.ctl;
  const std::uint32_t cur = ctl->cur;
  const std::uint32_t count = clamp_count(ctl->frontier_count[cur], s.frontier_capacity);
  if (ctl->done || count == 0) return;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const iteration_info it = read_iteration(ctl);
  const std::uint32_t warp = threadIdx.x >> 5, warps_per_block = blockDim.x >> 5;
  const std::uint32_t stride = gridDim.x * warps_per_block * 32;
  std::uint32_t relaxed = 0;
  for (std::uint32_t first = (blockIdx.x * warps_per_block + warp) * 32; first < count; first += stride)
    relaxed += relax_warp_gather<arcs::light>(s, grid_sink_of(s, it), s.frontier[cur], count, first, it, scratch[warp]);
  add_relaxed(s.ctl, relaxed, &block_total);
}

// The chunks of the large rows queued in this iteration (chunks_queued), one warp per chunk, each
// relaxing its Part arcs: the light arcs of an iteration, or the heavy arcs of a settle pass.
template <arcs Part, class Distance>
__device__ void relax_queued_chunks(const loop_view<Distance>& s, const iteration_info& it) {
  __shared__ std::uint32_t block_total;
  const std::uint32_t chunks = clamp_count(s.ctl->chunks_queued, s.chunk_capacity);
  if (chunks == 0) return;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const std::uint32_t warps_per_block = blockDim.x >> 5;
  std::uint32_t relaxed = 0;
  for (std::uint32_t item = blockIdx.x * warps_per_block + (threadIdx.x >> 5); item < chunks;
       item += gridDim.x * warps_per_block)
    relaxed += relax_chunk<Part>(s, grid_sink_of(s, it), item, it);
  add_relaxed(s.ctl, relaxed, &block_total);
}

template <class Distance>
__global__ void relax_chunks(loop_view<Distance> s) {
  const control* ctl = s.ctl;
  if (ctl->done || ctl->frontier_count[ctl->cur] == 0) return;
  relax_queued_chunks<arcs::light>(s, read_iteration(ctl));
}

// Closes a grid-wide iteration: the next frontier becomes the current one. When the current bucket
// is used up and its vertices' heavy arcs are still to be relaxed (more of them than small_frontier
// takes), the settle kernels relax them next, as one more iteration with its own stamp.
template <class Distance>
__global__ void end_step(loop_view<Distance> s) {
  control* ctl = s.ctl;
  ctl->settling = 0;
  if (ctl->done) return;
  const std::uint32_t cur = ctl->cur, count = ctl->frontier_count[cur];
  if (count != 0) {
    ctl->vertices_processed += count;
    if (count > ctl->max_frontier) ctl->max_frontier = count;
    ctl->frontier_count[cur] = 0;
    ctl->chunks_queued = 0;
    ctl->cur = cur ^ 1u;
    ctl->iteration += 1;
  }
  if (ctl->frontier_count[ctl->cur] == 0 && ctl->settled_count != 0) {
    ctl->settling = 1;
    ctl->settle_count = clamp_count(ctl->settled_count, s.frontier_capacity);
    ctl->settled_count = 0;
    ctl->settle_stamp = ctl->iteration + 1;
    ctl->iteration += 1;
    ctl->chunks_queued = 0;
  }
}

// The heavy arcs of the finished bucket's vertices, grid-wide; anything they bring back into the
// current bucket (possible only through float rounding) goes into the current frontier.
__device__ inline iteration_info settle_iteration(const control* ctl) {
  return iteration_info{ctl->current, ctl->window, ctl->settle_stamp, ctl->cur};
}

template <class Distance>
__global__ void settle_grid(loop_view<Distance> s) {
  __shared__ gather_scratch<Distance> scratch[8];
  __shared__ std::uint32_t block_total;
  const control* ctl = s.ctl;
  if (!ctl->settling) return;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const iteration_info it = settle_iteration(ctl);
  const std::uint32_t count = ctl->settle_count;
  const std::uint32_t warp = threadIdx.x >> 5, warps_per_block = blockDim.x >> 5;
  const std::uint32_t stride = gridDim.x * warps_per_block * 32;
  std::uint32_t relaxed = 0;
  for (std::uint32_t first = (blockIdx.x * warps_per_block + warp) * 32; first < count; first += stride)
    relaxed += relax_warp_gather<arcs::heavy>(s, grid_sink_of(s, it), s.settled, count, first, it, scratch[warp]);
  add_relaxed(s.ctl, relaxed, &block_total);
}

template <class Distance>
__global__ void settle_chunks(loop_view<Distance> s) {
  if (!s.ctl->settling) return;
  relax_queued_chunks<arcs::heavy>(s, settle_iteration(s.ctl));
}

// The last kernel of a step: how many vertices of to_file the manager files at the start of the
// next step. Taken after the settle pass, which files heavy arcs into the window's to_file too
// (taken before it, those vertices would be dropped when plan empties to_file).
template <class Distance>
__global__ void close_step(loop_view<Distance> s) {
  s.ctl->file_count = clamp_count(s.ctl->to_file_count, s.queue_capacity);
}

}  // namespace deltasplit::sssp::gpu
