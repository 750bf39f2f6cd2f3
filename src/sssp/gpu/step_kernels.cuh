// The kernels of one step of the delta-stepping loop (Davidson et al. 2014; seed 000, Section 7.2),
// shared by every frontier manager. A step is
//   file (manager) -> far_pile_min -> plan -> gather -> small_frontier -> relax_grid -> relax_chunks
//   -> end_step -> settle_grid -> settle_chunks -> close_step
// and every kernel sizes its work from the counters in `control`, so steps are queued (or replayed
// from a CUDA graph) without the host ever reading a count.
//
// Small frontiers: road networks keep a frontier of hundreds to a few thousand vertices for
// thousands of iterations, where a grid-wide iteration costs a handful of launches for almost no
// work. small_frontier runs those iterations inside one persistent block of 1024 threads, with
// __syncthreads between relaxation and the swap of frontiers, bucket after bucket, until the
// frontier outgrows small_frontier_limit or the window needs the grid (see decide()); the grid
// kernels take the large frontiers. Inside the block the arcs of a frontier are shared by all its
// threads (relax_block_gather), so an iteration costs about one chain of memory round trips.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/relaxation.cuh"

namespace deltasplit::sssp::gpu {

inline constexpr std::uint32_t small_frontier_limit = 8192;
inline constexpr unsigned small_frontier_threads = 1024;

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
      ctl->current = ctl->window + k;
      ctl->pick_slot = k;
      ctl->gather_count = ctl->slot_count[k];
      ctl->slot_count[k] = 0;
      return;
    }
  }
  if (ctl->beyond_count != 0 && ctl->min_bucket != no_bucket) {
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

// Iterations over small frontiers inside one block (see the file comment). The frontier lives in
// shared memory (two queues of small_frontier_limit vertices) and so do its counters, the current
// bucket, the iteration stamp, the count of the bucket's processed vertices and the hash sets that
// keep a vertex out of the next frontier twice: an iteration costs the arcs' own memory round trips
// and a few barriers. When the bucket is used up the block goes on by itself (decide(), below) as
// long as the work stays small. A next frontier that outgrows the shared queue spills into the
// global frontier buffer; the kernel then copies the shared part in front of it and leaves the
// frontier to the grid-wide kernels.
inline constexpr std::uint32_t seen_set_size = 2 * small_frontier_limit;  // load factor <= 1/2 in the block
inline constexpr std::size_t small_frontier_shared_bytes =
    2 * small_frontier_limit * sizeof(vertex_t) + 2 * seen_set_size * sizeof(std::uint32_t);
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
  refile_phase
};

struct block_state {
  iteration_info it;
  std::uint32_t count;        // the current frontier (shared queue q)
  std::uint32_t next_count;
  std::uint32_t chunk_count;
  std::uint32_t settled;      // vertices processed in the current bucket (global list s.settled)
  unsigned long long relaxed;
  unsigned long long processed;  // vertices of the light iterations, and the largest such frontier
  std::uint32_t largest;
  std::uint32_t spill_buffer;
  std::uint32_t phase, items, picked_slot;
  std::uint32_t far_min;        // lowest live bucket of the far pile, once a min_phase has run
  std::uint32_t far_min_known;
};

// What the block does next (thread 0; counters written by atomics are read through L2):
// relax the light arcs of a small frontier; when the bucket is used up, relax its vertices'
// heavy arcs; then file to_file into the window (by atomics, as Near-Far's filing does); then take
// the next non-empty bucket of the window; when the window is used up, find the far pile's lowest
// live bucket and re-file the far pile around it (far_pile_min, plan and gather's work: the new
// bucket's vertices are taken, the others go to to_file and are filed by the next file phase).
// Anything too large for one block, the end of the solve and the managers' own filing of large
// batches are left to the grid kernels.
template <class Distance>
__device__ void decide(const loop_view<Distance>& s, block_state& b) {
  control* ctl = s.ctl;
  b.phase = no_work;
  if (b.count > small_frontier_limit) return;
  if (b.count > 0) {
    b.phase = light_phase;
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
    if (waiting <= small_frontier_limit) {
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
  if (b.far_min == no_bucket) return;  // only stale copies are left: plan ends the solve
  b.phase = refile_phase;
  b.items = far;
  ctl->beyond_count = 0;
  b.it.window = b.it.current = b.far_min;
  ctl->window = b.far_min;
}

// Adds the count of relaxed arcs that lane 0 of a warp holds (relax_chunk: the warp's chunk;
// relax_block_gather: the whole block's arcs, in thread 0).
__device__ inline void count_relaxed(block_state& b, std::uint64_t relaxed) {
  if ((threadIdx.x & 31u) == 0 && relaxed) atomicAdd(&b.relaxed, static_cast<unsigned long long>(relaxed));
}

// Calls f(v, d) for every list[i] = v, i < n, that falls to this thread, with d = dist[v]: the
// thread reads filing_batch vertices, then their distances, before the first call, so that their
// memory round trips overlap.
template <class Distance, class F>
__device__ void for_each_batched(const loop_view<Distance>& s, const vertex_t* list, std::uint32_t n, F&& f) {
  for (std::uint32_t first = threadIdx.x; first < n; first += small_frontier_threads * filing_batch) {
    vertex_t v[filing_batch];
    Distance d[filing_batch];
#pragma unroll
    for (std::uint32_t j = 0; j < filing_batch; ++j) {
      const std::uint32_t i = first + j * small_frontier_threads;
      v[j] = i < n ? list[i] : 0;
    }
#pragma unroll
    for (std::uint32_t j = 0; j < filing_batch; ++j)
      if (first + j * small_frontier_threads < n) d[j] = __ldcg(&s.dist[v[j]]);
#pragma unroll
    for (std::uint32_t j = 0; j < filing_batch; ++j)
      if (first + j * small_frontier_threads < n) f(v[j], d[j]);
  }
}

__device__ inline void clear_set(std::uint32_t* set) {
  for (std::uint32_t i = threadIdx.x; i < seen_set_size; i += blockDim.x) set[i] = block_sink::empty;
}

template <class Distance>
__global__ void __launch_bounds__(small_frontier_threads, 1) small_frontier(loop_view<Distance> s) {
  extern __shared__ vertex_t shared_words[];  // queues [2][small_frontier_limit], seen sets [2][seen_set_size]
  vertex_t* const queues = shared_words;
  std::uint32_t* const seen = shared_words + 2 * small_frontier_limit;
  __shared__ block_gather_scratch<Distance> tile;
  __shared__ block_state b;
  control* ctl = s.ctl;
  const std::uint32_t warp = threadIdx.x >> 5;
  const std::uint32_t warps = small_frontier_threads / 32;
  if (threadIdx.x == 0) {
    const std::uint32_t cur = ctl->cur;
    b.count = ctl->frontier_count[cur];
    if (ctl->done || b.count > small_frontier_limit) b.count = 0;
    b.it = iteration_info{ctl->current, ctl->window, ctl->iteration + 1, 0};
    b.spill_buffer = cur ^ 1u;
    b.next_count = 0;
    b.chunk_count = 0;
    b.settled = ctl->settled_count;
    b.relaxed = 0;
    b.processed = 0;
    b.largest = 0;
    b.far_min_known = 0;
  }
  __syncthreads();
  if (b.count == 0) return;
  for (std::uint32_t i = threadIdx.x; i < b.count; i += blockDim.x) queues[i] = s.frontier[b.spill_buffer ^ 1u][i];
  clear_set(seen);
  std::uint32_t q = 0, set = 0;
  for (;;) {
    __syncthreads();
    if (threadIdx.x == 0) decide(s, b);
    __syncthreads();
    if (b.phase == no_work) break;
    const block_sink sink{queues + (q ^ 1u) * small_frontier_limit,
                          &b.next_count,
                          small_frontier_limit,
                          s.frontier[b.spill_buffer],
                          s.frontier_capacity,
                          &b.chunk_count,
                          &b.settled,
                          seen + set * seen_set_size,
                          seen_set_size - 1};
    const std::uint32_t n = b.items;
    const iteration_info it = b.it;
    if (b.phase == light_phase || b.phase == heavy_phase) {
      clear_set(seen + (set ^ 1u) * seen_set_size);  // for the next iteration, after the barriers below
      if (b.phase == light_phase) {
        count_relaxed(b, relax_block_gather<small_frontier_threads, arcs::light>(
                             s, sink, queues + q * small_frontier_limit, n, it, tile));
        __syncthreads();
        const std::uint32_t chunks = clamp_count(b.chunk_count, s.chunk_capacity);
        for (std::uint32_t item = warp; item < chunks; item += warps)
          count_relaxed(b, relax_chunk<arcs::light>(s, sink, item, it));
      } else {
        count_relaxed(b, relax_block_gather<small_frontier_threads, arcs::heavy>(s, sink, s.settled, n, it, tile));
        __syncthreads();
        const std::uint32_t chunks = clamp_count(b.chunk_count, s.chunk_capacity);
        for (std::uint32_t item = warp; item < chunks; item += warps)
          count_relaxed(b, relax_chunk<arcs::heavy>(s, sink, item, it));
      }
      set ^= 1u;
    } else if (b.phase == file_phase) {
      const window_key<Distance> key = key_of(s);
      const std::uint32_t rel = it.current - it.window;
      for_each_batched(s, s.to_file, n, [&](vertex_t v, Distance d) {
        file_by_key(s, sink, v, key.of_distance(d), it.current, rel);
      });
    } else if (b.phase == gather_phase) {
      for_each_batched(s, s.slot(b.picked_slot), n,
                       [&](vertex_t v, Distance d) { take_if_in_bucket(s, sink, v, d, it.current); });
    } else if (b.phase == min_phase) {
      std::uint32_t best = no_bucket;
      for_each_batched(s, s.beyond, n, [&](vertex_t, Distance d) {
        const std::uint32_t bucket = s.bucket(d);
        if (bucket > it.current && bucket < best) best = bucket;  // at or below it: settled, stale
      });
      best = __reduce_min_sync(0xFFFFFFFFu, best);
      if ((threadIdx.x & 31u) == 0 && best != no_bucket) atomicMin(&b.far_min, best);
    } else {
      for_each_batched(s, s.beyond, n, [&](vertex_t v, Distance d) {
        if (s.bucket(d) <= it.current)
          take_if_in_bucket(s, sink, v, d, it.current);
        else
          push(s.to_file, &ctl->to_file_count, s.queue_capacity, v, ctl);
      });
    }
    __syncthreads();
    q ^= 1u;
    if (threadIdx.x == 0) {
      if (b.phase == light_phase) {
        b.processed += b.items;
        if (b.items > b.largest) b.largest = b.items;
      }
      if (b.phase == light_phase || b.phase == heavy_phase) b.it.stamp += 1;
      if (b.phase == min_phase) b.far_min_known = 1;
      b.count = b.next_count;
      b.next_count = 0;
      b.chunk_count = 0;
    }
  }
  const std::uint32_t left = b.count;
  if (left > small_frontier_limit) {  // hand the frontier to the grid: shared part, then the spilled rest
    for (std::uint32_t i = threadIdx.x; i < small_frontier_limit; i += blockDim.x)
      s.frontier[b.spill_buffer][i] = queues[q * small_frontier_limit + i];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::uint32_t cur = b.spill_buffer ^ 1u;
    ctl->frontier_count[cur] = 0;
    ctl->frontier_count[b.spill_buffer] = left;
    ctl->cur = b.spill_buffer;
    ctl->iteration = b.it.stamp - 1;
    ctl->current = b.it.current;
    ctl->settled_count = b.settled;
    ctl->vertices_processed += b.processed;
    if (b.largest > ctl->max_frontier) ctl->max_frontier = b.largest;
    if (b.relaxed) ctl->edges_relaxed += b.relaxed;
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

// The chunks of the large vertices of the same iteration, one warp per chunk.
template <class Distance>
__global__ void relax_chunks(loop_view<Distance> s) {
  __shared__ std::uint32_t block_total;
  const control* ctl = s.ctl;
  if (ctl->done || ctl->frontier_count[ctl->cur] == 0) return;
  const std::uint32_t chunks = clamp_count(ctl->chunks_queued, s.chunk_capacity);
  if (chunks == 0) return;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const iteration_info it = read_iteration(ctl);
  const std::uint32_t warps_per_block = blockDim.x >> 5;
  std::uint32_t relaxed = 0;
  for (std::uint32_t item = blockIdx.x * warps_per_block + (threadIdx.x >> 5); item < chunks;
       item += gridDim.x * warps_per_block)
    relaxed += relax_chunk<arcs::light>(s, grid_sink_of(s, it), item, it);
  add_relaxed(s.ctl, relaxed, &block_total);
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
  __shared__ std::uint32_t block_total;
  const control* ctl = s.ctl;
  if (!ctl->settling) return;
  const std::uint32_t chunks = clamp_count(ctl->chunks_queued, s.chunk_capacity);
  if (chunks == 0) return;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const iteration_info it = settle_iteration(ctl);
  const std::uint32_t warps_per_block = blockDim.x >> 5;
  std::uint32_t relaxed = 0;
  for (std::uint32_t item = blockIdx.x * warps_per_block + (threadIdx.x >> 5); item < chunks;
       item += gridDim.x * warps_per_block)
    relaxed += relax_chunk<arcs::heavy>(s, grid_sink_of(s, it), item, it);
  add_relaxed(s.ctl, relaxed, &block_total);
}

// The last kernel of a step: how many vertices of to_file the manager files at the start of the
// next step. Taken after the settle pass, which files heavy arcs into the window's to_file too
// (taken before it, those vertices would be dropped when plan empties to_file).
template <class Distance>
__global__ void close_step(loop_view<Distance> s) {
  s.ctl->file_count = clamp_count(s.ctl->to_file_count, s.queue_capacity);
}

}  // namespace deltasplit::sssp::gpu
