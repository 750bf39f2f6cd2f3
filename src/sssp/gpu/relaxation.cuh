// Relaxation, shared by every frontier manager: each vertex of the frontier relaxes its light (or,
// once its bucket is finished, its heavy) out-arcs with atomicMin on the tentative distances, and
// every vertex whose distance drops is filed at once by its new bucket (Davidson et al. 2014;
// seed 000, Section 7.2; vertex_filing.cuh):
//   - in the current bucket: into the next frontier, once per iteration (the sink deduplicates);
//   - in the window: into to_file, for the frontier manager to file into its buckets;
//   - past the window: onto the far pile (beyond).
// Load balance over skewed degrees: a warp takes 32 frontier vertices of degree <= warp_degree,
// scans their degrees and relaxes the union of their arcs 32 at a time (scan-based gather), so
// a warp never walks one vertex's list alone; vertices of larger degree are cut into chunks of
// chunk_arcs arcs, each chunk relaxed by one warp, and the chunks of one hub spread over every
// warp and block of the grid.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/vertex_filing.cuh"

namespace deltasplit::sssp::gpu {

// What one relaxation iteration needs to know, read once per iteration.
struct iteration_info {
  std::uint32_t current, window, stamp, next;
};

template <class Distance, class Sink>
__device__ void relax_arc(const loop_view<Distance>& s, const Sink& sink, Distance du, edge_t arc,
                          const iteration_info& it) {
  using ops = distance_ops<Distance>;
  Distance nd;
  if (!ops::extend(du, s.weights[arc], nd)) {
    s.ctl->overflowed = 1;
    return;
  }
  vertex_t t = s.targets[arc];
  if (Sink::read_before_atomic && !(nd < __ldcg(&s.dist[t]))) return;
  if (nd < ops::atomic_min(&s.dist[t], nd)) file_improved(s, sink, t, nd, it.current, it.window, it.stamp);
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
  std::uint32_t chunks = static_cast<std::uint32_t>((degree + chunk_arcs - 1) / chunk_arcs);
  std::uint32_t base = atomicAdd(sink.chunk_count, chunks);
  if (static_cast<std::uint64_t>(base) + chunks > s.chunk_capacity) {
    s.ctl->capacity_exceeded = 1;
    return;
  }
  for (std::uint32_t k = 0; k < chunks; ++k) s.chunks[base + k] = make_uint2(v, k);
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
// Returns the number of arcs the warp relaxed (same value in every lane).
template <arcs Part, class Distance, class Sink>
__device__ std::uint32_t relax_warp_gather(const loop_view<Distance>& s, const Sink& sink, const vertex_t* frontier,
                                           std::uint32_t count, std::uint32_t first, const iteration_info& it,
                                           gather_scratch<Distance>& scratch) {
  const std::uint32_t lane = threadIdx.x & 31u;
  const std::uint32_t i = first + lane;
  std::uint32_t degree = 0, tag = it.current;
  edge_t begin = 0;
  Distance du{};
  vertex_t v = 0;
  if (i < count) {
    v = frontier[i];
    edge_t end;
    arc_range<Part>(s, v, begin, end);
    edge_t d = end - begin;
    du = __ldcg(&s.dist[v]);
    // Issued now, looked at after the arcs: the tag's round trip overlaps the relaxation.
    if (Part == arcs::light) tag = atomicExch(&s.settled_tag[v], it.current);
    if (d > warp_degree)
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
  for (std::uint32_t e = lane; e < total; e += 32) {
    std::uint32_t lo = 0, hi = 31;  // the lane owning arc e: smallest lo with inclusive[lo] > e
    while (lo < hi) {
      std::uint32_t mid = (lo + hi) >> 1;
      if (scratch.inclusive[mid] > e)
        hi = mid;
      else
        lo = mid + 1;
    }
    std::uint32_t exclusive = lo ? scratch.inclusive[lo - 1] : 0;
    relax_arc(s, sink, scratch.du[lo], scratch.first_arc[lo] + (e - exclusive), it);
  }
  if (Part == arcs::light && i < count && tag != it.current) sink.push_settled(s, v);
  __syncwarp();
  return total;
}

// One warp relaxes chunk `item` of the chunk list. Returns the arcs relaxed (lane 0's count).
template <arcs Part, class Distance, class Sink>
__device__ std::uint32_t relax_chunk(const loop_view<Distance>& s, const Sink& sink, std::uint32_t item,
                                     const iteration_info& it) {
  const std::uint32_t lane = threadIdx.x & 31u;
  uint2 c = s.chunks[item];
  edge_t begin, end;
  arc_range<Part>(s, c.x, begin, end);
  edge_t from = begin + static_cast<edge_t>(c.y) * chunk_arcs;
  edge_t to = from + chunk_arcs < end ? from + chunk_arcs : end;
  Distance du = __ldcg(&s.dist[c.x]);
  for (edge_t a = from + lane; a < to; a += 32) relax_arc(s, sink, du, a, it);
  return static_cast<std::uint32_t>(to - from);
}

}  // namespace deltasplit::sssp::gpu
