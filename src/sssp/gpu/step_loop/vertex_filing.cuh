// Where a vertex goes, shared by the relaxation, the loop's own kernels and the frontier managers:
// appends to the device queues, the next-frontier sinks, and filing by bucket (frontier_state.cuh
// explains the buckets, the window and the far pile).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/step_loop/frontier_cluster.cuh"
#include "sssp/gpu/step_loop/frontier_state.cuh"
#include "sssp/gpu/queue_slot.cuh"

namespace deltasplit::sssp::gpu {

// Appends v to a device queue; the active threads of a warp that append to the same queue take
// their places with one atomic (queue_slot.cuh; file_by_key's bucket k differs per lane).
__device__ inline void push(vertex_t* queue, std::uint32_t* count, std::uint32_t capacity, vertex_t v, control* ctl) {
  const std::uint32_t base = queue_slot(count);
  if (base < capacity)
    queue[base] = v;
  else
    ctl->capacity_exceeded = 1;
}

// Where the next frontier, the chunks of large vertices and the bucket's processed vertices go, and
// how a vertex enters the next frontier only once per iteration. The grid-wide iteration appends to
// the global queues and deduplicates with a per-vertex iteration stamp (atomicExch); the cluster-
// resident iterations of small frontiers (cluster_driver.cuh) append to queues in the shared memory of
// the cluster's block rank 0 (distributed shared memory for the other blocks), spilling past their
// end to the global frontier, and deduplicate in a hash set in distributed shared memory, so that
// no global round trip is spent on bookkeeping. The hash set is spread over the cluster's blocks
// (entry h in block h mod blocks, a power of two), so that its clearing and its compare-and-swaps
// load every SM alike.
struct grid_sink {
  vertex_t* next;
  std::uint32_t* next_count;
  std::uint32_t next_capacity;
  std::uint32_t* chunk_count;
  std::uint32_t* settled_count;
  // A plain read of the target's distance first: most arcs improve nothing, and on large
  // frontiers the atomics are what the memory system is short of.
  static constexpr bool read_before_atomic = true;
  __device__ bool defer_filing(vertex_t) const { return false; }
  __device__ void push_next(vertex_t v, control* ctl) const { push(next, next_count, next_capacity, v, ctl); }
  template <class Distance>
  __device__ void push_next_once(const loop_view<Distance>& s, vertex_t v, std::uint32_t stamp) const {
    if (atomicExch(&s.stamp[v], stamp) != stamp) push_next(v, s.ctl);
  }
  template <class Distance>
  __device__ void push_settled(const loop_view<Distance>& s, vertex_t v) const {
    push(s.settled, settled_count, s.frontier_capacity, v, s.ctl);
  }
};

struct block_sink {
  vertex_t* queue;               // (distributed) shared memory, `limit` entries
  std::uint32_t* count;          // (distributed) shared memory
  std::uint32_t limit;
  vertex_t* spill;               // global frontier buffer, entries limit .. capacity
  std::uint32_t spill_capacity;
  std::uint32_t* chunk_count;    // (distributed) shared memory
  std::uint32_t* settled_count;  // (distributed) shared memory
  std::uint32_t* seen;           // this block's part of the hash set of this iteration's next frontier
  std::uint32_t seen_mask;       // the whole set's size - 1 (a power of two)
  static constexpr std::uint32_t empty = 0xFFFFFFFFu;
  static constexpr unsigned max_probes = 32;
  // Small frontiers are latency-bound: one atomic round trip instead of a read and an atomic.
  static constexpr bool read_before_atomic = false;
  __device__ bool defer_filing(vertex_t) const { return false; }
  __device__ void push_next(vertex_t v, control* ctl) const {
    std::uint32_t i = atomicAdd(count, 1u);
    if (i < limit)
      queue[i] = v;
    else if (i < spill_capacity)
      spill[i] = v;
    else
      ctl->capacity_exceeded = 1;
  }
  // Linear probing; the set is cleared before each iteration. Past max_probes (a crowded set) the
  // vertex falls back to the global stamp: a vertex's probe path is the same every time, so it is
  // always deduplicated the same way within an iteration.
  template <class Distance>
  __device__ void push_next_once(const loop_view<Distance>& s, vertex_t v, std::uint32_t stamp) const {
    const frontier_cluster cluster{};
    const std::uint32_t blocks = cluster.num_blocks(), rank_bits = static_cast<std::uint32_t>(__ffs(blocks)) - 1u;
    std::uint32_t h = (v * 2654435761u) & seen_mask;
    for (unsigned probe = 0; probe < max_probes; ++probe) {
      std::uint32_t* entry = cluster.map_shared_rank(seen + (h >> rank_bits), h & (blocks - 1u));
      const std::uint32_t prev = atomicCAS(entry, empty, v);
      if (prev == empty) {
        push_next(v, s.ctl);
        return;
      }
      if (prev == v) return;
      h = (h + 1) & seen_mask;
    }
    if (atomicExch(&s.stamp[v], stamp) != stamp) push_next(v, s.ctl);
  }
  template <class Distance>
  __device__ void push_settled(const loop_view<Distance>& s, vertex_t v) const {
    std::uint32_t i = atomicAdd(settled_count, 1u);
    if (i < s.frontier_capacity)
      s.settled[i] = v;
    else
      s.ctl->capacity_exceeded = 1;
  }
};

// Files v, whose distance fell into bucket b past the current one, unless it was filed into b or
// lower since it was last taken.
template <class Distance>
__device__ void file_later_bucket(const loop_view<Distance>& s, vertex_t v, std::uint32_t b, std::uint32_t window) {
  if (atomicMin(&s.filed[v], b) > b) {
    if (b - window < s.window_buckets)
      push(s.to_file, &s.ctl->to_file_count, s.queue_capacity, v, s.ctl);
    else
      push(s.far_pile, &s.ctl->far_pile_count, s.queue_capacity, v, s.ctl);
  }
}

// Where an improved vertex goes: see the file comment. c is the current bucket. A sink that
// defers filing (local_sink) keeps v to file it when its light iterations end.
template <class Distance, class Sink>
__device__ void file_improved(const loop_view<Distance>& s, const Sink& sink, vertex_t v, Distance d, std::uint32_t c,
                              std::uint32_t window, std::uint32_t stamp) {
  std::uint32_t b = s.bucket(d);
  if (b <= c) {
    sink.push_next_once(s, v, stamp);
  } else if (!sink.defer_filing(v)) {
    file_later_bucket(s, v, b, window);
  }
}

// Takes v into the current frontier (through sink) if it still belongs to bucket c and this copy is
// the first one taken since v was filed there (the compare-and-swap); stale and duplicate copies
// are dropped. take_if_in_bucket is given v's distance, read by a caller that batches the reads.
template <class Distance, class Sink>
__device__ void take_if_in_bucket(const loop_view<Distance>& s, const Sink& sink, vertex_t v, Distance d,
                                  std::uint32_t c) {
  if (s.bucket(d) == c && atomicCAS(&s.filed[v], c, no_bucket) == c) sink.push_next(v, s.ctl);
}

template <class Distance, class Sink>
__device__ void take_if_current(const loop_view<Distance>& s, const Sink& sink, vertex_t v, std::uint32_t c) {
  take_if_in_bucket(s, sink, v, __ldcg(&s.dist[v]), c);
}

// The bucket identifier the split primitives see: a vertex's key in the current window.
template <class Distance>
struct window_key {
  const Distance* dist;
  const control* ctl;
  bucket_of_distance<Distance> bucket;
  std::uint32_t window_buckets;  // K
  __device__ std::uint32_t operator()(vertex_t v) const { return of_distance(__ldcg(&dist[v])); }
  __device__ std::uint32_t of_distance(Distance d) const {
    std::uint32_t b = bucket(d), w = ctl->window;
    if (b < w) return 0;
    return b - w < window_buckets ? b - w : window_buckets;
  }
};

template <class Distance>
__host__ __device__ window_key<Distance> key_of(const loop_view<Distance>& s) {
  return window_key<Distance>{s.dist, s.ctl, s.bucket, s.window_buckets};
}

// Files v by its key k (see window_filing.cuh): the current frontier, bucket k of the window, or
// the far pile. rel = current - window.
template <class Distance, class Sink>
__device__ void file_by_key(const loop_view<Distance>& s, const Sink& current, vertex_t v, std::uint32_t k,
                            std::uint32_t c, std::uint32_t rel) {
  if (k <= rel)
    take_if_current(s, current, v, c);
  else if (k < s.window_buckets)
    push(s.bucket_queue(k), &s.ctl->bucket_count[k], s.queue_capacity, v, s.ctl);
  else
    push(s.far_pile, &s.ctl->far_pile_count, s.queue_capacity, v, s.ctl);
}

template <class Distance>
__device__ grid_sink current_frontier_sink(const loop_view<Distance>& s) {
  const std::uint32_t cur = s.ctl->cur;
  return grid_sink{s.frontier[cur], &s.ctl->frontier_count[cur], s.frontier_capacity, &s.ctl->chunks_queued,
                   &s.ctl->settled_count};
}

}  // namespace deltasplit::sssp::gpu
