// The block-local light phase of small frontiers (Meyer and Sanders, J. Algorithms 2003,
// Section 2: a bucket's light arcs are relaxed round after round until the bucket is empty; here
// each block of the cluster runs its own rounds). The cluster (cluster_driver.cuh) hands every
// block a slice of the bucket's frontier; the block relaxes it and then, iteration after
// iteration, the vertices it improved into the current bucket itself, with block barriers only
// and no cluster barrier until every block's work in the bucket is done. Filing into later buckets
// and the list of processed vertices wait in shared memory until then. A block whose frontier
// outgrows its share, or turns dense, hands it back to the cluster, which spreads it again (or
// passes it to the grid). On sparse graphs this about halves the road networks' solve times
// (loop_tuning::block_light_below_degree has the rule; bench/results/loop_tuning.md its
// measurements).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/step_loop/frontier_cluster.cuh"
#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/gpu/step_loop/relaxation.cuh"

namespace deltasplit::sssp::gpu {

// The sink of a block's own light iterations (local_phase): the block keeps the
// vertices it improves into the current bucket in its own shared memory and relaxes them itself,
// with no cluster barrier between its iterations. Its hash set is its own too (cleared per
// iteration; past max_probes a vertex is pushed without deduplication, which costs a repeated
// relaxation, never a lost one). What outgrows the block's queue goes to the cluster's next
// frontier, the chunks of hub rows to the cluster's list. Vertices improved into later buckets and
// the vertices processed are kept in shared memory too (up to `kept_limit` each) and handed to the
// global lists once, when the block's iterations end (relax_locally): no iteration waits on a
// global queue's round trips for them.
struct local_sink {
  vertex_t* queue;               // this block's shared memory, `limit` entries
  std::uint32_t* count;          // this block's shared memory
  std::uint32_t limit;
  std::uint32_t* seen;           // this block's set of this iteration, seen_mask + 1 entries
  std::uint32_t seen_mask;
  block_sink cluster;            // the overflow, the chunks and the processed vertices
  std::uint32_t* chunk_count;    // = cluster.chunk_count (push_chunks reads it from the sink)
  vertex_t* later;               // improved into a later bucket, to file
  std::uint32_t* later_count;
  vertex_t* processed;           // processed in the current bucket (the heavy arcs' list)
  std::uint32_t* processed_count;
  std::uint32_t kept_limit;
  static constexpr bool read_before_atomic = false;
  __device__ bool defer_filing(vertex_t v) const {
    const std::uint32_t i = atomicAdd(later_count, 1u);
    if (i >= kept_limit) return false;
    later[i] = v;
    return true;
  }
  __device__ void push_next(vertex_t v, control* ctl) const {
    const std::uint32_t i = atomicAdd(count, 1u);
    if (i < limit) queue[i] = v;
  }
  // Past `limit` the vertex goes to the cluster's next frontier, deduplicated there by the cluster's
  // set and stamps (several blocks and iterations may send it), and the block ends its iterations.
  template <class Distance>
  __device__ void push_next_once(const loop_view<Distance>& s, vertex_t v, std::uint32_t stamp) const {
    std::uint32_t h = (v * 2654435761u) & seen_mask;
    for (unsigned probe = 0; probe < block_sink::max_probes; ++probe) {
      const std::uint32_t prev = atomicCAS(&seen[h], block_sink::empty, v);
      if (prev == v) return;
      if (prev == block_sink::empty) break;
      h = (h + 1) & seen_mask;
    }
    const std::uint32_t i = atomicAdd(count, 1u);
    if (i < limit)
      queue[i] = v;
    else
      cluster.push_next_once(s, v, stamp);
  }
  template <class Distance>
  __device__ void push_settled(const loop_view<Distance>& s, vertex_t v) const {
    const std::uint32_t i = atomicAdd(processed_count, 1u);
    if (i < kept_limit)
      processed[i] = v;
    else
      cluster.push_settled(s, v);
  }
};

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

// Where the blocks add up what the cluster reports (in block rank 0's loop state): the bucket's
// processed vertices, the longest chain of one block's iterations, the vertices relaxed.
struct local_totals {
  std::uint32_t* settled;
  std::uint32_t* longest_chain;
  unsigned long long* vertices;
};

template <class Distance>
__device__ void relax_locally(const loop_view<Distance>& s, const block_sink& cluster_sink, const vertex_t* slice,
                              std::uint32_t n, const iteration_info& it, std::uint32_t* area, local_state& local,
                              const local_totals& totals, block_gather_scratch<Distance>& tile,
                              unsigned long long& relaxed) {
  // An empty slice has nothing to relax, file or record. Returning here (n is the same in every
  // thread) is also what keeps thread 0's resets below apart from the other threads' reads of the
  // kept lists' counts after the loop: with n > 0 the gather's barriers separate them, with n == 0
  // nothing would (compute-sanitizer racecheck found that hazard).
  if (n == 0) return;
  // Each block holds at most its share of what the cluster holds: a frontier that outgrows it goes
  // back to the cluster, and from there, past small_frontier_limit, to the grid.
  const std::uint32_t limit = loop_tuning::small_frontier_limit / frontier_cluster{}.num_blocks();
  vertex_t* const queues = area;
  std::uint32_t* const sets = area + 2 * loop_tuning::local_queue_limit;
  vertex_t* const later = sets + 2 * loop_tuning::local_set_size;
  vertex_t* const processed = later + loop_tuning::local_kept_limit;
  if (threadIdx.x == 0) {
    local.count[1] = 0;
    local.spread[0] = local.spread[1] = 0;
    local.later = 0;
    local.processed = 0;
    local.vertices = 0;
  }
  for (std::uint32_t i = threadIdx.x; i < loop_tuning::local_set_size; i += blockDim.x) sets[i] = block_sink::empty;
  const vertex_t* list = slice;
  std::uint32_t count = n, k = 0;
  while (count > 0) {
    const std::uint32_t in = k & 1u, out = in ^ 1u;
    for (std::uint32_t i = threadIdx.x; i < loop_tuning::local_set_size; i += blockDim.x)
      sets[out * loop_tuning::local_set_size + i] = block_sink::empty;  // the next iteration's
    const local_sink sink{queues + out * loop_tuning::local_queue_limit, &local.count[out], limit,
                          sets + in * loop_tuning::local_set_size, loop_tuning::local_set_size - 1, cluster_sink, cluster_sink.chunk_count,
                          later, &local.later, processed, &local.processed, loop_tuning::local_kept_limit};
    const std::uint64_t arcs = relax_block_gather<loop_tuning::small_frontier_threads, arcs::light>(s, sink, list, count, it, tile);
    count_relaxed(relaxed, arcs);
    // After the gather's closing barrier: the pushes, and the flag thread 0 set after the last one.
    const std::uint32_t pushed = local.count[out];
    const bool spread = local.spread[in];
    if (threadIdx.x == 0) {
      local.vertices += count;
      local.count[in] = 0;  // the next iteration's output counter
      local.spread[out] = arcs > loop_tuning::local_spread_arcs;
    }
    list = queues + out * loop_tuning::local_queue_limit;
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
  const std::uint32_t later_count = clamp_count(local.later, loop_tuning::local_kept_limit);
  for (std::uint32_t i = threadIdx.x; i < later_count; i += blockDim.x) {
    const vertex_t v = later[i];
    const std::uint32_t b = s.bucket(__ldcg(&s.dist[v]));
    if (b > it.current) file_later_bucket(s, v, b, it.window);
  }
  const std::uint32_t processed_count = clamp_count(local.processed, loop_tuning::local_kept_limit);
  if (threadIdx.x == 0) {
    if (processed_count) local.processed_base = atomicAdd(totals.settled, processed_count);
    if (k > 0) {
      atomicMax(totals.longest_chain, k);
      atomicAdd(totals.vertices, local.vertices);
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

}  // namespace deltasplit::sssp::gpu
