// The grid-wide step of the delta-stepping loop (Meyer and Sanders, J. Algorithms 2003, Section 2:
// buckets of width delta, light arcs relaxed until the current bucket is empty, then its heavy
// arcs; Davidson et al., IPDPS 2014: the near set and far pile, here a window of K buckets and the
// far pile past it; seed 000, Section 7.2.1), shared by every frontier manager. A step is
//   file (the manager) -> far_pile_min -> plan -> gather              (the managing half)
//   -> small_frontier (cluster_driver.cuh) -> relax_grid -> relax_chunks
//   -> end_step -> settle_grid -> settle_chunks -> close_step           (the relaxing half)
// and every kernel sizes its work from the counters in `control`, so steps are queued (or replayed
// from a CUDA graph, delta_stepping.cuh) without the host ever reading a count. Frontiers small
// enough for the cluster never reach the grid kernels: each returns at once when the counters say
// the cluster took the step.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/step_loop/dependent_launch.cuh"
#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/gpu/step_loop/relaxation.cuh"

namespace deltasplit::sssp::gpu {

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
    c.picked_bucket = no_bucket;
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
  await_predecessor();
  control* ctl = s.ctl;
  if (ctl->done || ctl->frontier_count[ctl->cur] != 0 || ctl->far_pile_count == 0) return;
  const std::uint32_t c = ctl->current, rel = c - ctl->window;
  for (std::uint32_t k = rel + 1; k < s.window_buckets; ++k)
    if (ctl->bucket_count[k] != 0) return;
  const std::uint32_t n = clamp_count(ctl->far_pile_count, s.queue_capacity);
  std::uint32_t best = no_bucket;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    std::uint32_t b = s.bucket(__ldcg(&s.dist[s.far_pile[i]]));
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
  await_predecessor();
  control* ctl = s.ctl;
  if (ctl->done) return;
  ctl->to_file_count = 0;
  ctl->chunks_queued = 0;
  ctl->picked_bucket = no_bucket;
  ctl->refile = 0;
  ctl->gather_count = 0;
  if (ctl->frontier_count[ctl->cur] != 0) return;
  const std::uint32_t rel = ctl->current - ctl->window;
  for (std::uint32_t k = rel + 1; k < s.window_buckets; ++k) {
    if (ctl->bucket_count[k] != 0) {
      if (ctl->window + k > s.last_bucket) break;  // past the cutoff (and so is the far pile): done
      ctl->current = ctl->window + k;
      ctl->picked_bucket = k;
      ctl->gather_count = ctl->bucket_count[k];
      ctl->bucket_count[k] = 0;
      return;
    }
  }
  if (ctl->far_pile_count != 0 && ctl->min_bucket != no_bucket && ctl->min_bucket <= s.last_bucket) {
    ctl->current = ctl->window = ctl->min_bucket;
    ctl->min_bucket = no_bucket;
    ctl->refile = 1;
    ctl->gather_count = ctl->far_pile_count;
    ctl->far_pile_count = 0;
    return;
  }
  ctl->far_pile_count = 0;  // only stale copies were left
  ctl->done = 1;
}

// Builds the new frontier from the bucket picked by plan, or re-files the far pile: copies in the new
// current bucket are taken, the others go to to_file (the manager files them next step).
template <class Distance>
__global__ void gather(loop_view<Distance> s) {
  await_predecessor();
  control* ctl = s.ctl;
  if (ctl->done || (ctl->picked_bucket == no_bucket && !ctl->refile)) return;
  const std::uint32_t c = ctl->current;
  const std::uint32_t n = clamp_count(ctl->gather_count, s.queue_capacity);
  const vertex_t* from = ctl->refile ? s.far_pile : s.bucket_queue(ctl->picked_bucket);
  const grid_sink current = current_frontier_sink(s);
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    vertex_t v = from[i];
    if (s.bucket(__ldcg(&s.dist[v])) <= c)
      take_if_current(s, current, v, c);
    else
      push(s.to_file, &ctl->to_file_count, s.queue_capacity, v, ctl);
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

// One grid-wide relaxation iteration of a frontier too large for small_frontier. The gathers'
// scratch is one entry per warp of a grid_threads block; the launch bound makes a larger block
// fail to launch instead of sharing entries.
inline constexpr unsigned grid_warps = loop_tuning::grid_threads / 32;

template <class Distance>
__global__ void __launch_bounds__(loop_tuning::grid_threads) relax_grid(loop_view<Distance> s) {
  await_predecessor();
  __shared__ gather_scratch<Distance> scratch[grid_warps];
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
    relaxed += relax_warp_gather<arcs::light, loop_tuning::warp_gather_batch>(s, grid_sink_of(s, it), s.frontier[cur],
                                                                              count, first, it, scratch[warp]);
  add_relaxed(s.ctl, relaxed, &block_total);
}

// The chunks of the large rows queued in this iteration (chunks_queued), one warp per chunk:
// chunk(item) relaxes (or pulls) one and returns the arcs it looked at (lane 0's count).
template <class Distance, class Chunk>
__device__ void for_queued_chunks(const loop_view<Distance>& s, Chunk chunk) {
  __shared__ std::uint32_t block_total;
  const std::uint32_t chunks = clamp_count(s.ctl->chunks_queued, s.chunk_capacity);
  if (chunks == 0) return;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const std::uint32_t warps_per_block = blockDim.x >> 5;
  std::uint32_t relaxed = 0;
  for (std::uint32_t item = blockIdx.x * warps_per_block + (threadIdx.x >> 5); item < chunks;
       item += gridDim.x * warps_per_block)
    relaxed += chunk(item);
  add_relaxed(s.ctl, relaxed, &block_total);
}

// Each queued chunk relaxing its Part arcs: the light arcs of an iteration, or the heavy arcs of a
// settle pass.
template <arcs Part, class Distance>
__device__ void relax_queued_chunks(const loop_view<Distance>& s, const iteration_info& it) {
  for_queued_chunks(s, [&](std::uint32_t item) {
    return relax_chunk<Part, loop_tuning::chunk_batch>(s, grid_sink_of(s, it), item, it);
  });
}

template <class Distance>
__global__ void relax_chunks(loop_view<Distance> s) {
  await_predecessor();
  const control* ctl = s.ctl;
  if (ctl->done || ctl->frontier_count[ctl->cur] == 0) return;
  relax_queued_chunks<arcs::light>(s, read_iteration(ctl));
}

// Closes a grid-wide iteration: the next frontier becomes the current one. When the current bucket
// is used up and its vertices' heavy arcs are still to be relaxed (more of them than small_frontier
// takes), the settle kernels relax them next, as one more iteration with its own stamp.
template <class Distance>
__global__ void end_step(loop_view<Distance> s) {
  await_predecessor();
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
    // Push or pull (heavy_mode): the settled vertices' heavy arcs against those of the vertices
    // not settled yet (loop_tuning::pull_pays).
    const unsigned long long push = ctl->settle_heavy;
    ctl->settle_heavy = 0;
    ctl->heavy_settled += push;
    const unsigned long long not_settled = s.heavy_arcs > ctl->heavy_settled ? s.heavy_arcs - ctl->heavy_settled : 0;
    ctl->settle_pull = s.heavy_mode == heavy_pull ||
                       (s.heavy_mode == heavy_automatic && loop_tuning::pull_pays(push, not_settled, s.num_vertices));
    ctl->heavy_pulls += ctl->settle_pull;
  }
}

// The heavy arcs of the finished bucket's vertices, grid-wide; anything they bring back into the
// current bucket (possible only through float rounding) goes into the current frontier.
__device__ inline iteration_info settle_iteration(const control* ctl) {
  return iteration_info{ctl->current, ctl->window, ctl->settle_stamp, ctl->cur};
}

template <class Distance>
__global__ void __launch_bounds__(loop_tuning::grid_threads) settle_grid(loop_view<Distance> s) {
  await_predecessor();
  __shared__ gather_scratch<Distance> scratch[grid_warps];
  __shared__ std::uint32_t block_total;
  const control* ctl = s.ctl;
  if (!ctl->settling) return;
  if (threadIdx.x == 0) block_total = 0;
  __syncthreads();
  const iteration_info it = settle_iteration(ctl);
  std::uint32_t relaxed = 0;
  if (ctl->settle_pull) {  // every vertex above the bucket pulls (relaxation.cuh)
    const grid_sink sink = grid_sink_of(s, it);
    for (std::uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < s.num_vertices; v += gridDim.x * blockDim.x)
      relaxed += pull_vertex(s, sink, v, it);
    relaxed = __reduce_add_sync(0xFFFFFFFFu, relaxed);
    add_relaxed(s.ctl, relaxed, &block_total);
    return;
  }
  const std::uint32_t count = ctl->settle_count;
  const std::uint32_t warp = threadIdx.x >> 5, warps_per_block = blockDim.x >> 5;
  const std::uint32_t stride = gridDim.x * warps_per_block * 32;
  for (std::uint32_t first = (blockIdx.x * warps_per_block + warp) * 32; first < count; first += stride)
    relaxed += relax_warp_gather<arcs::heavy, loop_tuning::warp_gather_batch>(s, grid_sink_of(s, it), s.settled, count,
                                                                              first, it, scratch[warp]);
  add_relaxed(s.ctl, relaxed, &block_total);
}

template <class Distance>
__global__ void settle_chunks(loop_view<Distance> s) {
  await_predecessor();
  if (!s.ctl->settling) return;
  const iteration_info it = settle_iteration(s.ctl);
  if (s.ctl->settle_pull)  // the pull's long rows
    for_queued_chunks(s, [&](std::uint32_t item) { return pull_chunk(s, grid_sink_of(s, it), item, it); });
  else
    relax_queued_chunks<arcs::heavy>(s, it);
}

// The last kernel of a step: how many vertices of to_file the manager files at the start of the
// next step. Taken after the settle pass, which files heavy arcs into the window's to_file too
// (taken before it, those vertices would be dropped when plan empties to_file).
template <class Distance>
__global__ void close_step(loop_view<Distance> s) {
  await_predecessor();
  s.ctl->file_count = clamp_count(s.ctl->to_file_count, s.queue_capacity);
}
}  // namespace deltasplit::sssp::gpu
