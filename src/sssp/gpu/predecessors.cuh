// A shortest-path tree from converged distances, built after the solve (not timed).
// An arc (u, v) is tight when dist[u] + w(u, v) == dist[v] (the same float or integer arithmetic
// as the relaxation). Every reached vertex other than the source has a tight in-arc, but picking any
// one can close a cycle among vertices of equal distance joined by zero-weight arcs. So:
//   1. a vertex with a tight in-arc that strictly increases the distance takes the closest such u
//      as its parent (least dist[u], the lowest-numbered among equals: the u Dijkstra's algorithm
//      settles first, whose parent scipy reports); parent arcs of this kind can never lie on a
//      cycle (the distance would have to come back down), and these vertices, with the source, get
//      level 0;
//   2. the remaining reached vertices are reached only through tight arcs of equal distance; sweep r
//      (r = 1, 2, ...) gives level r and parent u to each still unlevelled v with a tight equal-
//      distance arc from a u of level < r. Levels strictly increase along these parent arcs, so no
//      cycle can form either, and the sweeps stop when one finds nothing new (as many sweeps as the
//      longest chain of zero-increase arcs, plus one).
// In step 2 a tight arc from a levelled u to an unlevelled v has dist[u] == dist[v] (tight arcs
// never decrease the distance, and one that increases it levelled v in step 1), so it only asks
// for a tight arc.
//
// Which arcs are tight: `exact` distances come from relaxing these very arcs (delta-stepping), so
// every reached vertex has an in-arc whose sum equals its distance. PHAST's real distances add
// shortcut weights, themselves float sums of several arcs, so a distance may differ from every
// in-arc's sum in the last bits: `within_tolerance` accepts a sum within the validator's relative
// 1e-5 of the distance (validate.cpp). Steps 1 and 2 keep the tree free of cycles either way.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include "sssp/gpu/device_memory.cuh"
#include "deltasplit/graph/csr.hpp"
#include "sssp/gpu/distance.cuh"

namespace deltasplit::sssp::gpu {

enum class tightness { exact, within_tolerance };

using graph::edge_t;
using graph::vertex_t;

// The graph and the distances a tree is drawn from (device memory).
template <class Distance>
struct tree_arcs {
  const edge_t* offsets;
  const vertex_t* targets;
  const typename distance_ops<Distance>::weight* weights;
  const Distance* dist;
  vertex_t num_vertices;
};

template <tightness rule, class Distance>
__device__ bool tight(const Distance* dist, Distance du, typename distance_ops<Distance>::weight w, vertex_t v) {
  Distance sum;
  if (!distance_ops<Distance>::extend(du, w, sum)) return false;
  const Distance dv = dist[v];
  if constexpr (rule == tightness::exact || !std::is_floating_point_v<Distance>) {
    return sum == dv;
  } else {
    if (dv == distance_ops<Distance>::infinity) return false;
    return fabsf(sum - dv) <= 1e-5f * fmaxf(sum, dv);
  }
}

// Calls f(u, dist[u], v) for every tight arc u -> v that strictly increases the distance (v not
// the source), over the grid.
template <tightness rule, class Distance, class F>
__device__ void for_strict_tight_arcs(const tree_arcs<Distance>& s, vertex_t source, F f) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (vertex_t u = blockIdx.x * blockDim.x + threadIdx.x; u < s.num_vertices; u += stride) {
    const Distance du = s.dist[u];
    if (du == distance_ops<Distance>::infinity) continue;
    for (edge_t a = s.offsets[u]; a < s.offsets[u + 1]; ++a) {
      const vertex_t v = s.targets[a];
      if (v != source && s.dist[v] > du && tight<rule>(s.dist, du, s.weights[a], v)) f(u, du, v);
    }
  }
}

// Step 1 in three passes: closest[v] first holds the least dist[u] (as distance_bits) over v's
// strictly increasing tight in-arcs, then parent[v] the lowest u at that distance, then level[v]
// becomes 0 for these vertices and the source and no_bucket for the others. For 32-bit distances
// closest is level's own storage.
template <tightness rule, class Distance>
__global__ void closest_parent_distance(tree_arcs<Distance> s, vertex_t source, distance_word<Distance>* closest) {
  for_strict_tight_arcs<rule>(s, source, [closest](vertex_t, Distance du, vertex_t v) {
    atomicMin(&closest[v], distance_bits(du));
  });
}

template <tightness rule, class Distance>
__global__ void strict_parents(tree_arcs<Distance> s, vertex_t source, vertex_t* parent,
                               const distance_word<Distance>* closest) {
  for_strict_tight_arcs<rule>(s, source, [parent, closest](vertex_t u, Distance du, vertex_t v) {
    if (closest[v] == distance_bits(du)) atomicMin(&parent[v], u);
  });
}

template <class Distance>
__global__ void strict_levels(vertex_t n, vertex_t source, const vertex_t* parent, std::uint32_t* level) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    level[v] = v == source || parent[v] != graph::invalid_vertex ? 0 : no_bucket;
}

template <tightness rule, class Distance>
__global__ void equal_distance_sweep(tree_arcs<Distance> s, std::uint32_t round, vertex_t* parent, std::uint32_t* level,
                                     std::uint32_t* changed) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (vertex_t u = blockIdx.x * blockDim.x + threadIdx.x; u < s.num_vertices; u += stride) {
    if (level[u] >= round) continue;  // unlevelled (no_bucket) or levelled in this sweep
    const Distance du = s.dist[u];
    for (edge_t a = s.offsets[u]; a < s.offsets[u + 1]; ++a) {
      const vertex_t v = s.targets[a];
      if (level[v] == no_bucket && tight<rule>(s.dist, du, s.weights[a], v) &&
          atomicCAS(&level[v], no_bucket, round) == no_bucket) {
        parent[v] = u;
        *changed = 1;
      }
    }
  }
}

// parent[], level[] and closest[] are device scratch of num_vertices entries (closest may be level
// when the words are 32 bits), changed one device word and changed_host one pinned word; the tree
// (invalid_vertex for the source and unreached vertices) is copied into tree, num_vertices
// entries of host or device memory, on the stream.
template <tightness rule = tightness::exact, class Distance>
void shortest_path_tree(const tree_arcs<Distance>& s, vertex_t source, vertex_t* parent, std::uint32_t* level,
                        distance_word<Distance>* closest, std::uint32_t* changed, std::uint32_t* changed_host,
                        unsigned blocks, cudaStream_t stream, vertex_t* tree) {
  const std::size_t n = s.num_vertices;
  DS_CUDA(cudaMemsetAsync(parent, 0xFF, n * sizeof(vertex_t), stream));
  DS_CUDA(cudaMemsetAsync(closest, 0xFF, n * sizeof(distance_word<Distance>), stream));
  closest_parent_distance<rule><<<blocks, 256, 0, stream>>>(s, source, closest);
  DS_CUDA_LAUNCH("closest_parent_distance");
  strict_parents<rule><<<blocks, 256, 0, stream>>>(s, source, parent, static_cast<const distance_word<Distance>*>(closest));
  DS_CUDA_LAUNCH("strict_parents");
  strict_levels<Distance><<<blocks, 256, 0, stream>>>(s.num_vertices, source, parent, level);
  DS_CUDA_LAUNCH("strict_levels");
  for (std::uint32_t round = 1;; ++round) {
    DS_CUDA(cudaMemsetAsync(changed, 0, sizeof *changed, stream));
    equal_distance_sweep<rule><<<blocks, 256, 0, stream>>>(s, round, parent, level, changed);
    DS_CUDA_LAUNCH("equal_distance_sweep");
    DS_CUDA(cudaMemcpyAsync(changed_host, changed, sizeof *changed, cudaMemcpyDeviceToHost, stream));
    DS_CUDA(cudaStreamSynchronize(stream));
    if (!*changed_host) break;
  }
  if (n) DS_CUDA(cudaMemcpyAsync(tree, parent, n * sizeof(vertex_t), cudaMemcpyDefault, stream));
}

}  // namespace deltasplit::sssp::gpu
