// A shortest-path tree from final distances, for the solvers that compute distances without
// parents: the CPU delta-stepping solver in the 64-bit types (a 64-bit distance and a parent do
// not share one atomic word) and PHAST (its sweep runs over the hierarchy, not the graph).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp::detail {

// v's parent is a u whose arc is tight (tight(dist[u], arc, v): dist[u] + w == dist[v] in the
// caller's sense). Vertices with a tight arc from a strictly closer u take the closest such u (least
// dist[u], the smallest u among equals: the one Dijkstra's algorithm settles first, as scipy reports);
// the rest (reached only over zero-weight arcs from equally far vertices) are taken breadth-first
// from the vertices already placed, so parent links never form a cycle. O(n + m) whatever the
// zero-weight chains. parent: n entries, invalid_vertex for the source and unreached vertices.
template <class Distance, class Tight>
void tree_from_distances(const csr_view& g, vertex_t source, const Distance* dist, Distance infinity,
                         vertex_t* parent, Tight tight) {
  const vertex_t n = g.num_vertices;
  std::vector<std::uint8_t> placed(n, 0);
  std::fill(parent, parent + n, graph::invalid_vertex);
  placed[source] = 1;
  for (vertex_t u = 0; u < n; ++u) {
    if (dist[u] == infinity) continue;
    for (edge_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
      const vertex_t v = g.targets[a];
      if (v != source && dist[v] > dist[u] && tight(dist[u], a, v)) {
        if (parent[v] == graph::invalid_vertex || dist[u] < dist[parent[v]]) parent[v] = u;  // u ascends
        placed[v] = 1;
      }
    }
  }
  std::vector<vertex_t> queue;
  for (vertex_t v = 0; v < n; ++v)
    if (placed[v]) queue.push_back(v);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const vertex_t u = queue[head];
    if (dist[u] == infinity) continue;
    for (edge_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
      const vertex_t v = g.targets[a];
      if (!placed[v] && tight(dist[u], a, v)) {
        placed[v] = 1;
        parent[v] = u;
        queue.push_back(v);
      }
    }
  }
}

// A shortest-path tree from PHAST's distances on the original graph (policy.extend(du, arc, sum):
// du plus the arc's weight, false past the type's range): an arc is tight exactly for integer
// distances, within the validator's relative 1e-5 for float32 ones summed through shortcuts.
template <class Policy>
void tree_from_sweep(const csr_view& g, const Policy& policy, vertex_t source, const typename Policy::distance* dist,
                     vertex_t* parent) {
  using distance = typename Policy::distance;
  tree_from_distances(g, source, dist, Policy::infinity, parent, [&](distance du, edge_t arc, vertex_t v) {
    distance sum;
    if (!policy.extend(du, arc, sum)) return false;
    if constexpr (std::is_same_v<distance, float>) {
      if (dist[v] == Policy::infinity) return false;
      return std::fabs(double{sum} - double{dist[v]}) <= 1e-5 * std::max(double{sum}, double{dist[v]});
    } else {
      return sum == dist[v];
    }
  });
}

}  // namespace deltasplit::sssp::detail
