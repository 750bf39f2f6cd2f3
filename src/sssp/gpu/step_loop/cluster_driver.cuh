// The persistent driver of small frontiers (seed 000, Section 7.2: the same delta-stepping loop,
// one bucket after another, Meyer and Sanders, J. Algorithms 2003, Section 2). Road networks keep
// a frontier of hundreds to a few thousand vertices for thousands of iterations, where a grid-wide
// iteration (grid_step.cuh) costs a dozen launches for almost no work. small_frontier runs those
// iterations inside one persistent thread-block cluster (Hopper: loop_tuning::wide_cluster_blocks
// blocks of 1024 threads on as many SMs, the portable size where the GPU cannot place that many,
// or one block; the engine chooses, tuning::cluster_blocks forces), bucket after bucket, until
// the frontier outgrows small_frontier_limit or the window needs the grid (see decide()). Every
// block relaxes a slice of the frontier, and inside a block the slice's arcs are shared by all its
// threads (relax_block_gather), so an iteration costs about one chain of memory round trips spread
// over the cluster's SMs. The light iterations of a bucket run either cluster-synchronously
// (light_phase: one cluster barrier per iteration) or block by block (local_phase,
// block_local_light.cuh), as loop_view::block_light says.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/step_loop/block_local_light.cuh"
#include "sssp/gpu/step_loop/dependent_launch.cuh"
#include "sssp/gpu/step_loop/frontier_cluster.cuh"
#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/gpu/step_loop/relaxation.cuh"

namespace deltasplit::sssp::gpu {

// The cluster's loop. The frontier lives in the shared memory of block rank 0 (two queues of
// small_frontier_limit vertices) and so do its counters, the current bucket, the iteration stamp
// and the count of the bucket's processed vertices; the hash sets that keep a vertex out of the
// next frontier twice are spread over the blocks (block_sink): an iteration costs the arcs' own
// memory round trips and a few cluster barriers. When the bucket is used up the cluster goes on by
// itself (decide(), below) as long as the work stays small. A next frontier that outgrows the
// shared queue spills into the global frontier buffer; the kernel then copies the shared part in
// front of it and leaves the frontier to the grid-wide kernels. Every block allocates the same
// shared memory (one launch shape, sized for a cluster of one block).
inline constexpr unsigned small_frontier_warps = loop_tuning::small_frontier_threads / 32;
static_assert((loop_tuning::wide_cluster_blocks & (loop_tuning::wide_cluster_blocks - 1)) == 0 &&
                  (loop_tuning::portable_cluster_blocks & (loop_tuning::portable_cluster_blocks - 1)) == 0,
              "the hash sets split by a power of two");
inline constexpr std::uint32_t seen_set_size = 2 * loop_tuning::small_frontier_limit;  // load factor <= 1/2
// A block's own light iterations (block_local_light.cuh) keep two queues of its share of
// small_frontier_limit (at most local_queue_limit vertices), two hash sets of local_set_size
// entries and two kept lists in the part of the block's seen-set area that the cluster's sets
// leave free: a cluster of b blocks keeps 2 * seen_set_size / b words of sets in each block, so
// from local_min_blocks blocks on the rest holds the local ones.
static_assert(2 * seen_set_size / loop_tuning::local_min_blocks + 2 * loop_tuning::local_queue_limit +
                      2 * loop_tuning::local_set_size + 2 * loop_tuning::local_kept_limit <=
                  2 * seen_set_size,
              "the local queues, sets and kept lists fit beside the cluster's sets");

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
  std::uint32_t phase, items, picked_bucket;
  std::uint32_t far_min;        // lowest live bucket of the far pile, once a min_phase has run
  std::uint32_t far_min_known;
  std::uint32_t local_iterations;  // the most light iterations a block ran in the last local_phase
};

// What rank 0 decided, written into every block's shared memory before the cluster barrier that
// publishes it: each block then reads its own copy, not 32 warps' worth of remote loads into rank 0.
struct cluster_decision {
  iteration_info it;
  std::uint32_t phase, items, picked_bucket;
};

// The dynamic shared memory of a block: the queues, the seen sets and the loop state, so that rank 0's
// are reached from one address.
inline constexpr std::uint32_t state_word = 2 * loop_tuning::small_frontier_limit + 2 * seen_set_size;
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
  if (b.count > loop_tuning::small_frontier_limit) return;
  if (b.count > 0) {
    b.phase = s.block_light && frontier_cluster{}.num_blocks() >= loop_tuning::local_min_blocks ? local_phase : light_phase;
    b.items = b.count;
    return;
  }
  if (b.settled > 0) {
    if (b.settled <= s.cluster_settle_limit) {
      b.phase = heavy_phase;
      b.items = clamp_count(b.settled, s.frontier_capacity);
      b.settled = 0;
      ctl->settle_heavy = 0;  // what the grid's light iterations counted for a settle pass of the grid's
    }
    return;
  }
  const std::uint32_t unfiled = __ldcg(&ctl->to_file_count);
  if (unfiled > 0) {
    if (unfiled <= loop_tuning::block_file_limit) {
      b.phase = file_phase;
      b.items = clamp_count(unfiled, s.queue_capacity);
      ctl->to_file_count = 0;
    }
    return;
  }
  for (std::uint32_t k = b.it.current - b.it.window + 1; k < s.window_buckets; ++k) {
    const std::uint32_t waiting = __ldcg(&ctl->bucket_count[k]);
    if (waiting == 0) continue;
    if (waiting <= loop_tuning::small_frontier_limit && b.it.window + k <= s.last_bucket) {  // past the cutoff: plan ends it
      b.phase = gather_phase;
      b.items = clamp_count(waiting, s.queue_capacity);
      b.picked_bucket = k;
      ctl->bucket_count[k] = 0;
      b.it.current = b.it.window + k;
    }
    return;
  }
  const std::uint32_t far = clamp_count(__ldcg(&ctl->far_pile_count), s.queue_capacity);
  if (far == 0 || far > loop_tuning::block_refile_limit) return;
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
  ctl->far_pile_count = 0;
  b.it.window = b.it.current = b.far_min;
  ctl->window = b.far_min;
}

// Calls f(v, d) for every list[i] = v, i < n, that falls to this thread (number `thread` of
// `threads`), with d = dist[v]: the thread reads filing_batch vertices, then their distances,
// before the first call, so that their memory round trips overlap.
template <class Distance, class F>
__device__ void for_each_batched(const loop_view<Distance>& s, const vertex_t* list, std::uint32_t n,
                                 std::uint32_t thread, std::uint32_t threads, F&& f) {
  for (std::uint32_t first = thread; first < n; first += threads * loop_tuning::filing_batch) {
    vertex_t v[loop_tuning::filing_batch];
    Distance d[loop_tuning::filing_batch];
#pragma unroll
    for (std::uint32_t j = 0; j < loop_tuning::filing_batch; ++j) {
      const std::uint32_t i = first + j * threads;
      v[j] = i < n ? list[i] : 0;
    }
#pragma unroll
    for (std::uint32_t j = 0; j < loop_tuning::filing_batch; ++j)
      if (first + j * threads < n) d[j] = __ldcg(&s.dist[v[j]]);
#pragma unroll
    for (std::uint32_t j = 0; j < loop_tuning::filing_batch; ++j)
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
  count_relaxed(relaxed, relax_block_gather<loop_tuning::small_frontier_threads, Part>(s, sink, list + lo, hi - lo, it, tile));
  cluster.sync();
  const std::uint32_t chunks = clamp_count(lead.chunk_count, s.chunk_capacity);
  for (std::uint32_t item = rank * small_frontier_warps + (threadIdx.x >> 5); item < chunks;
       item += blocks * small_frontier_warps)
    count_relaxed(relaxed, relax_chunk<Part, 1>(s, sink, item, it));
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
__global__ void __launch_bounds__(loop_tuning::small_frontier_threads, 1) small_frontier(loop_view<Distance> s) {
  await_predecessor();
  // queues [2][small_frontier_limit], seen sets [2][seen_set_size], block_state
  extern __shared__ __align__(8) vertex_t shared_words[];
  __shared__ block_gather_scratch<Distance> tile;
  block_state& b = *reinterpret_cast<block_state*>(shared_words + state_word);
  __shared__ unsigned long long relaxed;  // this block's arcs
  __shared__ cluster_decision decision;
  const frontier_cluster cluster{};
  control* ctl = s.ctl;
  const std::uint32_t cur = ctl->cur, start_count = ctl->frontier_count[cur];
  if (ctl->done || start_count == 0 || start_count > loop_tuning::small_frontier_limit) return;
  const std::uint32_t rank = cluster.block_rank();
  vertex_t* const queues = cluster.map_shared_rank(shared_words, 0);
  block_state& lead = *reinterpret_cast<block_state*>(queues + state_word);
  const std::uint32_t spill_buffer = cur ^ 1u;
  const std::uint32_t rank_bits = static_cast<std::uint32_t>(__ffs(cluster.num_blocks())) - 1u;
  std::uint32_t* const seen = shared_words + 2 * loop_tuning::small_frontier_limit;  // this block's part of both sets
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
        *cluster.map_shared_rank(&decision, r) = cluster_decision{b.it, b.phase, b.items, b.picked_bucket};
    }
    cluster.sync();
    const std::uint32_t phase = decision.phase;
    if (phase == no_work) break;
    const std::uint32_t n = decision.items;
    const iteration_info it = decision.it;
    const std::uint32_t thread = rank * loop_tuning::small_frontier_threads + threadIdx.x;
    const std::uint32_t threads = cluster.num_blocks() * loop_tuning::small_frontier_threads;
    const block_sink sink{queues + (q ^ 1u) * loop_tuning::small_frontier_limit,
                          &lead.next_count,
                          loop_tuning::small_frontier_limit,
                          s.frontier[spill_buffer],
                          s.frontier_capacity,
                          &lead.chunk_count,
                          &lead.settled,
                          seen + set * set_part,
                          seen_set_size - 1};
    if (phase == light_phase || phase == heavy_phase) {
      clear_set(seen + (set ^ 1u) * set_part, rank_bits);  // for the next iteration
      if (phase == light_phase)
        relax_in_cluster<arcs::light>(s, sink, queues + q * loop_tuning::small_frontier_limit, n, it, lead, tile, relaxed);
      else
        relax_in_cluster<arcs::heavy>(s, sink, s.settled, n, it, lead, tile, relaxed);
      set ^= 1u;
    } else if (phase == local_phase) {
      clear_set(seen + (set ^ 1u) * set_part, rank_bits);
      const std::uint32_t blocks = cluster.num_blocks(), lo = n * rank / blocks, hi = n * (rank + 1) / blocks;
      relax_locally(s, sink, queues + q * loop_tuning::small_frontier_limit + lo, hi - lo, it, seen + 2 * set_part, local,
                    local_totals{&lead.settled, &lead.local_iterations, &lead.processed}, tile, relaxed);
      cluster.sync();  // the chunks of hub rows any block met
      const std::uint32_t chunks = clamp_count(lead.chunk_count, s.chunk_capacity);
      for (std::uint32_t item = rank * small_frontier_warps + (threadIdx.x >> 5); item < chunks;
           item += blocks * small_frontier_warps)
        count_relaxed(relaxed, relax_chunk<arcs::light, 1>(s, sink, item, it));
      set ^= 1u;
    } else if (phase == file_phase) {
      const window_key<Distance> key = key_of(s);
      const std::uint32_t rel = it.current - it.window;
      for_each_batched(s, s.to_file, n, thread, threads, [&](vertex_t v, Distance d) {
        file_by_key(s, sink, v, key.of_distance(d), it.current, rel);
      });
    } else if (phase == gather_phase) {
      for_each_batched(s, s.bucket_queue(decision.picked_bucket), n, thread, threads,
                       [&](vertex_t v, Distance d) { take_if_in_bucket(s, sink, v, d, it.current); });
    } else if (phase == min_phase) {
      std::uint32_t best = no_bucket;
      for_each_batched(s, s.far_pile, n, thread, threads, [&](vertex_t, Distance d) {
        const std::uint32_t bucket = s.bucket(d);
        if (bucket > it.current && bucket < best) best = bucket;  // at or below it: settled, stale
      });
      best = __reduce_min_sync(0xFFFFFFFFu, best);
      if ((threadIdx.x & 31u) == 0 && best != no_bucket) atomicMin(&lead.far_min, best);
    } else {
      for_each_batched(s, s.far_pile, n, thread, threads, [&](vertex_t v, Distance d) {
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
  if (left > loop_tuning::small_frontier_limit) {  // hand the frontier to the grid: shared part, then the spilled rest
    for (std::uint32_t i = threadIdx.x; i < loop_tuning::small_frontier_limit; i += blockDim.x)
      s.frontier[spill_buffer][i] = shared_words[q * loop_tuning::small_frontier_limit + i];
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

}  // namespace deltasplit::sssp::gpu
