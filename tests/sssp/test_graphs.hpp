// Small graphs built in code for the SSSP tests, and a brute-force Bellman-Ford that shares no
// code with the solvers under test.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit_test {

using deltasplit::graph::csr;
using deltasplit::graph::vertex_t;
using deltasplit::graph::weight_kind;

struct arc {
  vertex_t from, to;
  double weight;
};

// CSR from arcs in any order (parallel arcs and self-loops kept: the solvers must cope). wide:
// uint64 or double weights (csr::width), else uint32 or float.
inline csr make_csr(vertex_t n, std::vector<arc> arcs, weight_kind kind = weight_kind::integer, bool wide = false) {
  std::stable_sort(arcs.begin(), arcs.end(), [](const arc& a, const arc& b) {
    return std::tie(a.from, a.to) < std::tie(b.from, b.to);
  });
  csr g;
  g.num_vertices = n;
  g.kind = kind;
  g.width = wide ? deltasplit::graph::weight_width::wide : deltasplit::graph::weight_width::narrow;
  g.offsets.assign(std::size_t{n} + 1, 0);
  for (const arc& a : arcs) ++g.offsets[a.from + 1];
  for (vertex_t v = 0; v < n; ++v) g.offsets[v + 1] += g.offsets[v];
  for (const arc& a : arcs) {
    g.targets.push_back(a.to);
    if (kind == weight_kind::integer && wide)
      g.uint64_weights.push_back(static_cast<std::uint64_t>(a.weight));
    else if (kind == weight_kind::integer)
      g.int_weights.push_back(static_cast<std::uint32_t>(a.weight));
    else if (wide)
      g.float64_weights.push_back(a.weight);
    else
      g.real_weights.push_back(static_cast<float>(a.weight));
  }
  g.origin.one_based = false;
  return g;
}

// scipy's test graph (scipy.sparse.csgraph tests, directed_G read as undirected): from vertex 4,
// vertex 1 is as far directly (4) as through 3 (2 + 2); scipy's tree takes 4, the closer parent,
// and expects tree_of_4 as the tree of source 4.
inline csr scipy_tie_graph(weight_kind kind = weight_kind::integer, bool wide = false) {
  std::vector<arc> arcs;
  for (arc a : std::vector<arc>{{0, 1, 3}, {0, 2, 3}, {1, 3, 2}, {1, 4, 4}, {0, 3, 1}, {0, 4, 2}, {3, 4, 2}}) {
    arcs.push_back(a);
    arcs.push_back({a.to, a.from, a.weight});
  }
  return make_csr(5, arcs, kind, wide);
}
inline const std::vector<vertex_t> scipy_tie_tree_of_4 = {4, 4, 0, 4, deltasplit::graph::invalid_vertex};

// n vertices, m random arcs with weights uniform in [0, max_weight] (integers, or reals: float, or
// double when wide).
inline csr random_graph(vertex_t n, std::size_t m, std::uint64_t seed, double max_weight,
                        weight_kind kind = weight_kind::integer, bool wide = false) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<vertex_t> vertex(0, n - 1);
  std::vector<arc> arcs;
  for (std::size_t i = 0; i < m; ++i) {
    double w = kind == weight_kind::integer
                   ? double(std::uniform_int_distribution<std::uint64_t>(0, std::uint64_t(max_weight))(rng))
                   : std::uniform_real_distribution<double>(0, max_weight)(rng);
    arcs.push_back({vertex(rng), vertex(rng), w});
  }
  return make_csr(n, std::move(arcs), kind, wide);
}

// g (integer weights) with its weights times scale as doubles, the same arcs in the same order:
// scale 0.1 gives tenths, which float32 does not hold (a float32 solve differs almost everywhere).
inline csr with_float64_weights(const csr& g, double scale) {
  csr real = g;
  real.kind = weight_kind::real;
  real.width = deltasplit::graph::weight_width::wide;
  real.float64_weights.assign(g.int_weights.begin(), g.int_weights.end());
  for (double& w : real.float64_weights) w *= scale;
  real.int_weights.clear();
  return real;
}

// g (32-bit integer weights) with each weight w made the 64-bit weight w * factor: with a factor
// such as 2^42 + 1 the paths pass 2^53 and their sums are integers a double does not hold.
inline csr with_uint64_weights(const csr& g, std::uint64_t factor) {
  csr wide = g;
  wide.width = deltasplit::graph::weight_width::wide;
  wide.uint64_weights.assign(g.int_weights.begin(), g.int_weights.end());
  for (std::uint64_t& w : wide.uint64_weights) w *= factor;
  wide.int_weights.clear();
  return wide;
}

// Bellman-Ford in exact (64-bit integer or double) arithmetic: the true distances.
inline std::vector<double> bellman_ford(const csr& g, vertex_t source) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(g.num_vertices, inf);
  dist[source] = 0;
  for (vertex_t round = 0; round < g.num_vertices; ++round) {
    bool changed = false;
    for (vertex_t u = 0; u < g.num_vertices; ++u) {
      if (dist[u] == inf) continue;
      for (auto e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        double w = g.weight(e);
        if (dist[u] + w < dist[g.targets[e]]) {
          dist[g.targets[e]] = dist[u] + w;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return dist;
}

// True when a and b hold distances of one type, equal bit for bit.
inline bool identical_distances(const deltasplit::sssp::result& a, const deltasplit::sssp::result& b) {
  return a.type == b.type && a.int_distances == b.int_distances && a.real_distances == b.real_distances &&
         a.uint64_distances == b.uint64_distances && a.float64_distances == b.float64_distances;
}

// A result's distances as doubles (+inf unreachable; exact below 2^53), whatever its type: for
// comparing two results of one graph.
inline std::vector<double> distances_of(const deltasplit::sssp::result& r) {
  std::vector<double> out(r.size());
  for (vertex_t v = 0; v < out.size(); ++v) out[v] = r.distance(v);
  return out;
}

}  // namespace deltasplit_test
