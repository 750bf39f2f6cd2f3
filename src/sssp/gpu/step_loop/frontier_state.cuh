// The state the delta-stepping loop keeps on the device (Davidson et al. 2014; seed 000,
// Section 7.2), shared by every frontier manager. Buckets are windows of width delta over the
// tentative distances; the loop processes the current bucket until it is empty, then picks the
// next one:
//   frontier[cur]      vertices of the current bucket to relax this iteration (no duplicates:
//                      an iteration stamp per vertex, or a shared-memory set in the cluster-resident
//                      iterations, admits each vertex once per iteration);
//   frontier[cur ^ 1]  the next iteration's, filled by the relaxation;
//   to_file            vertices whose new distance fell past the current bucket but inside the
//                      window [window, window + K): filed into the window's buckets by the
//                      frontier manager (radix sort, multisplit, ...);
//   bucket_queue(k)    bucket window + k of the window, filed and waiting;
//   far_pile           vertices past the window, re-filed when the window is used up
//                      (with K = 1 this is Near-Far's far pile and the window is the near set);
//   settled            the vertices processed in the current bucket, whose heavy arcs are relaxed
//                      once the bucket is used up.
// filed[v] is the lowest bucket v was filed into since it was last taken: a vertex is filed again
// only when its bucket drops, and a copy is taken from a bucket queue only once (compare-and-swap back to
// no_bucket); copies left behind by a later improvement are stale and dropped when met.
//
// All sizes live on the device in `control`, so that kernels size their work from device counters
// and the host never waits on a count (no round trip per iteration).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "deltasplit/graph/csr.hpp"
#include "sssp/gpu/distance.cuh"

namespace deltasplit::sssp::gpu {

using graph::edge_t;
using graph::vertex_t;

inline constexpr std::uint32_t max_window_buckets = 64;  // largest K

struct control {
  std::uint32_t cur;               // which frontier buffer is current
  std::uint32_t done;
  std::uint32_t iteration;         // relaxation iterations so far; stamps are iteration + 1
  std::uint32_t current;           // current bucket
  std::uint32_t window;            // first bucket of the window
  std::uint32_t min_bucket;        // lowest live bucket of the far pile, when re-filing
  std::uint32_t picked_bucket;     // bucket of the window taken this step, or no_bucket
  std::uint32_t refile;            // 1 when the far pile is re-filed this step
  std::uint32_t gather_count;      // items of that bucket or of the far pile taken this step
  std::uint32_t frontier_count[2];
  std::uint32_t to_file_count;
  std::uint32_t file_count;        // to_file_count as the manager files it (clipped to the capacity)
  std::uint32_t far_pile_count;
  std::uint32_t chunks_queued;
  std::uint32_t settled_count;      // vertices processed in the current bucket (light arcs relaxed)
  std::uint32_t settling;           // 1 while the grid relaxes the heavy arcs of a finished bucket
  std::uint32_t settle_count;       // how many, then
  std::uint32_t settle_stamp;       // the iteration stamp of that pass
  std::uint32_t settle_pull;        // 1 when that pass pulls (heavy_mode; grid_step.cuh)
  std::uint32_t heavy_pulls;        // settle passes that pulled, this solve
  unsigned long long settle_heavy;  // heavy arcs of the vertices in settled (heavy_automatic only)
  unsigned long long heavy_settled; // the same summed over this solve's settle passes
  std::uint32_t bucket_count[max_window_buckets];
  std::uint32_t capacity_exceeded;  // a queue was too small: the engine grows it and solves again
  std::uint32_t overflowed;         // a distance sum was dropped (see distance.cuh)
  std::uint32_t max_frontier;
  unsigned long long edges_relaxed;
  unsigned long long vertices_processed;
};

// Light and heavy arcs (Meyer and Sanders): rows are sorted by weight on upload, and light_end[v]
// splits v's row at delta. While a bucket is current its vertices relax only their light arcs
// (w < delta), which may land in the same bucket and be relaxed again; once the bucket is used up
// its vertices' distances are final and their heavy arcs (w >= delta, which always leave the
// bucket) are relaxed exactly once. This keeps re-relaxation to the light arcs.
enum class arcs { light, heavy };

// How the grid's settle pass relaxes a finished bucket's heavy arcs (sssp::heavy_relaxation): pushed
// by the settled vertices, pulled by the vertices left to improve (undirected graphs: a row is also
// the vertex's in-arcs), or chosen per pass by loop_tuning::pull_pays.
enum heavy_mode : std::uint32_t { heavy_push = 0, heavy_automatic = 1, heavy_pull = 2 };

// Everything a kernel needs, passed by value.
template <class Distance>
struct loop_view {
  using weight = typename distance_ops<Distance>::weight;
  const edge_t* offsets;
  const vertex_t* targets;
  const weight* weights;
  Distance* dist;
  std::uint32_t* stamp;
  std::uint32_t* filed;
  control* ctl;
  vertex_t* frontier[2];
  vertex_t* to_file;
  vertex_t* far_pile;
  vertex_t* bucket_queues;  // K arrays of queue_capacity
  uint2* chunks;    // (vertex, chunk) pairs of large vertices
  const edge_t* light_end;   // per vertex: end of its light arcs (rows sorted by weight)
  std::uint32_t* settled_tag;  // the bucket a vertex was last recorded as processed in
  vertex_t* settled;           // vertices processed in the current bucket
  std::uint32_t num_vertices;
  std::uint32_t frontier_capacity;
  std::uint32_t queue_capacity;
  std::uint32_t chunk_capacity;
  std::uint32_t window_buckets;  // K
  std::uint32_t block_light;     // small frontiers: light iterations block by block (block_local_light.cuh)
  std::uint32_t cluster_settle_limit;  // the cluster relaxes the heavy arcs of up to this many processed vertices
  bucket_of_distance<Distance> bucket;
  std::uint32_t last_bucket;     // the distance cutoff's bucket: the loop ends before a later one (no_bucket: none)
  std::uint32_t heavy_mode;      // heavy_push, heavy_automatic or heavy_pull
  unsigned long long heavy_arcs; // the graph's heavy arcs at this width (heavy_automatic's rule)

  __device__ vertex_t* bucket_queue(std::uint32_t k) const { return bucket_queues + static_cast<std::size_t>(k) * queue_capacity; }
};

__device__ inline std::uint32_t clamp_count(std::uint32_t count, std::uint32_t capacity) {
  return count < capacity ? count : capacity;
}

}  // namespace deltasplit::sssp::gpu
