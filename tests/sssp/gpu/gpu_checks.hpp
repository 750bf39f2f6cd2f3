// Checks the GPU SSSP tests share: the GPU strategies, distances against Dijkstra vertex by vertex
// (integer and float64 exactly, float32 within validate.cpp's relative 1e-5), predecessor trees that reach the
// source from every reached vertex, and one engine run from many sources against the oracle.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deltasplit/sssp.hpp"

namespace deltasplit_test {

namespace sssp = deltasplit::sssp;
namespace graph = deltasplit::graph;
using graph::vertex_t;

inline const sssp::strategy gpu_strategies[] = {sssp::strategy::near_far, sssp::strategy::bucketing,
                                                sssp::strategy::multisplit, sssp::strategy::workfront};

// Every reached vertex reaches the source by parent links (no cycle, no dangling link).
inline ::testing::AssertionResult tree_reaches_source(const graph::csr& g, vertex_t source, const sssp::result& r) {
  const vertex_t n = g.num_vertices;
  if (r.predecessors.size() != n) return ::testing::AssertionFailure() << "predecessors has wrong size";
  std::vector<std::uint8_t> state(n, 0);  // 0 unknown, 1 on the current walk, 2 reaches the source
  state[source] = 2;
  std::vector<vertex_t> walk;
  for (vertex_t v = 0; v < n; ++v) {
    if (!r.reached(v) || state[v] == 2) continue;
    walk.clear();
    vertex_t u = v;
    while (state[u] != 2) {
      if (state[u] == 1) return ::testing::AssertionFailure() << "parent links form a cycle through vertex " << u;
      state[u] = 1;
      walk.push_back(u);
      vertex_t p = r.predecessors[u];
      if (p == graph::invalid_vertex || p >= n || !r.reached(p))
        return ::testing::AssertionFailure() << "vertex " << u << " has no reached parent";
      u = p;
    }
    for (vertex_t w : walk) state[w] = 2;
  }
  if (r.predecessors[source] != graph::invalid_vertex) return ::testing::AssertionFailure() << "the source has a parent";
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult same_distances(const sssp::result& expected, const sssp::result& got) {
  if (got.size() != expected.size()) return ::testing::AssertionFailure() << "size " << got.size();
  std::uint64_t bad = 0;
  std::string first;
  const bool both_uint64 = expected.type == sssp::distance_type::uint64 && got.type == sssp::distance_type::uint64;
  for (vertex_t v = 0; v < expected.size(); ++v) {
    double a = expected.distance(v), b = got.distance(v);
    if (both_uint64 && expected.uint64_distances[v] != got.uint64_distances[v]) {  // past 2^53 the doubles round
      if (bad++ == 0) first = "vertex " + std::to_string(v) + ": " + std::to_string(expected.uint64_distances[v]) +
                              " vs " + std::to_string(got.uint64_distances[v]);
      continue;
    }
    // Integer distances and float64 against float64 (the same sums in the same type) are equal;
    // float32 against the float64 oracle within a relative 1e-5.
    const bool exact = expected.type == sssp::distance_type::uint32 || expected.type == sssp::distance_type::uint64 ||
                       (expected.type == sssp::distance_type::float64 && got.type == sssp::distance_type::float64);
    bool same = exact ? a == b
                : (std::isinf(a) || std::isinf(b)) ? a == b
                : std::fabs(a - b) <= 1e-5 * std::max(std::fabs(a), std::fabs(b));
    if (!same && bad++ == 0) first = "vertex " + std::to_string(v) + ": " + std::to_string(a) + " vs " + std::to_string(b);
  }
  if (bad) return ::testing::AssertionFailure() << bad << " distances differ, first " << first;
  return ::testing::AssertionSuccess();
}

// Runs o on g from each source (one engine) and compares with Dijkstra: distances vertex by vertex,
// the statistics, the driver that ran when one was forced, and the predecessor tree when asked for.
// Returns each solve's statistics, in the order of sources (none when the solver is not on the GPU),
// for tests that check which paths the solves took.
inline std::vector<sssp::statistics> expect_dijkstra(const graph::csr& g, const std::vector<vertex_t>& sources,
                                                     const sssp::options& o, const std::string& what) {
  std::vector<sssp::statistics> runs;
  sssp::solver s(g, o);
  if (!s.on_gpu()) {
    ADD_FAILURE() << what << ": the solver is not on the GPU";
    return runs;
  }
  for (vertex_t source : sources) {
    SCOPED_TRACE(what + ", " + sssp::strategy_name(o.how) + ", source " + std::to_string(source) + ", delta " +
                 std::to_string(o.tune.delta) + ", K " + std::to_string(o.tune.buckets));
    sssp::result want = sssp::dijkstra(g, source);
    sssp::result got = s.run(source);
    EXPECT_TRUE(same_distances(want, got));
    // The manager is named only where the step loop filed the work through it.
    EXPECT_EQ(got.stats.strategy, got.stats.driver.rfind("steps", 0) == 0 ? sssp::strategy_name(o.how) : "")
        << got.stats.driver;
    if (o.tune.driver == sssp::gpu_driver::partitioned) {
      EXPECT_EQ(got.stats.driver.rfind("partitioned", 0), 0u) << got.stats.driver;
    }
    EXPECT_GT(got.stats.milliseconds, 0);
    if (g.num_arcs() > 0 && want.num_reached() > 1) {
      EXPECT_GT(got.stats.iterations, 0u);
      EXPECT_GE(got.stats.edges_relaxed, g.degree(source));
      EXPECT_GE(got.stats.vertices_processed, want.num_reached());
    }
    if (o.predecessors) {
      sssp::validation tree = sssp::check_predecessors(g, source, got);
      EXPECT_TRUE(tree.ok) << tree.message;
      EXPECT_TRUE(tree_reaches_source(g, source, got));
    }
    runs.push_back(got.stats);
  }
  return runs;
}

}  // namespace deltasplit_test
