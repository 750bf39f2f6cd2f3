// Checks shared by the host and GPU tests of strategy phast: a solver's distances (and tree) from
// each source against Dijkstra through the validator, the small graphs that exercise the
// hierarchy (zero-weight cycles, unreachable vertices, parallel arcs, a source without out-arcs),
// and the cutoff rule.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deltasplit/sssp.hpp"
#include "sssp/test_graphs.hpp"

namespace deltasplit_test {

namespace phast_ds = deltasplit::sssp;

inline phast_ds::options phast_on(phast_ds::device_kind device, bool predecessors = false, double cutoff = INFINITY) {
  phast_ds::options o;
  o.how = phast_ds::strategy::phast;
  o.device = device;
  o.predecessors = predecessors;
  o.cutoff = cutoff;
  o.real_type = phast_ds::distance_type::float32;  // phast computes 32-bit distances in this version
  return o;
}

// One solver, every source: validate() against Dijkstra (distances, and the tree when asked), the
// statistics, and the cutoff (a vertex farther than it reads unreachable).
inline void expect_phast_matches_dijkstra(const csr& g, const std::vector<vertex_t>& sources, const phast_ds::options& o,
                                          const std::string& what) {
  phast_ds::solver s(g, o);
  EXPECT_EQ(s.on_gpu(), o.device == phast_ds::device_kind::gpu) << what;
  for (vertex_t source : sources) {
    SCOPED_TRACE(what + ", source " + std::to_string(source));
    const phast_ds::result got = s.run(source);
    EXPECT_EQ(got.stats.strategy, "phast");
    EXPECT_GE(got.stats.setup_ms, 0);
    phast_ds::result want = phast_ds::dijkstra(g, source, o.predecessors);
    if (std::isinf(o.cutoff)) {
      const phast_ds::validation v = phast_ds::validate(g, source, got, want);
      EXPECT_TRUE(v.ok) << v.message;
    } else {
      std::uint64_t wrong = 0;
      for (vertex_t v = 0; v < g.num_vertices; ++v) {
        const double expected = want.distance(v) > o.cutoff ? INFINITY : want.distance(v);
        const double d = got.distance(v);
        const bool same = std::isinf(expected) || std::isinf(d) ? expected == d
                                                                : std::fabs(d - expected) <= 1e-5 * std::fabs(expected);
        wrong += !same;
        if (o.predecessors && std::isinf(expected)) wrong += got.predecessors[v] != deltasplit::graph::invalid_vertex;
      }
      EXPECT_EQ(wrong, 0u) << "cutoff " << o.cutoff;
    }
    if (o.predecessors) {
      const phast_ds::validation tree = phast_ds::check_predecessors(g, source, got);
      EXPECT_TRUE(tree.ok) << tree.message;
    }
  }
}

// Cutoffs that cut a graph's distances from source at several places: none reached, a third, a
// non-integer half, all (the farthest reached distance).
inline std::vector<double> cutoffs_across(const csr& g, vertex_t source) {
  const phast_ds::result full = phast_ds::dijkstra(g, source);
  double far = 0;
  for (vertex_t v = 0; v < g.num_vertices; ++v)
    if (full.reached(v)) far = std::max(far, full.distance(v));
  EXPECT_GT(far, 10);
  return {0.0, far / 3, std::floor(far / 2) + 0.5, far};
}

// Zero-weight cycles (0 <-> 1 <-> 2), parallel arcs (3 -> 4 twice), a self-loop, a vertex without
// out-arcs (5), an unreachable pair (6 <-> 7) and a long arc that a shorter path beats.
inline csr crafted_graph(weight_kind kind) {
  return make_csr(8,
                  {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {1, 0, 0}, {2, 3, 4}, {3, 4, 9}, {3, 4, 2}, {4, 4, 1},
                   {4, 5, 3}, {0, 5, 100}, {6, 7, 1}, {7, 6, 1}, {5, 5, 0}},
                  kind);
}

inline csr zero_weight_graph(vertex_t n, std::uint64_t seed) {
  csr g = random_graph(n, std::size_t{n} * 4, seed, 3);  // weights 0..3: many zeros
  return g;
}

}  // namespace deltasplit_test
