// CPU delta-stepping against Dijkstra: exact equality of every distance (integer and real, see
// distance_policy.hpp for why real distances agree bit for bit), valid predecessor trees, for
// every thread count and a range of bucket widths, including widths that force the far pile.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
using namespace deltasplit_test;

namespace {

ds::options cpu_options(unsigned threads, double delta, bool predecessors = true) {
  ds::options o;
  o.how = ds::strategy::delta_stepping_cpu;
  o.device = ds::device_kind::cpu;
  o.threads = threads;
  o.delta = delta;
  o.predecessors = predecessors;
  return o;
}

// Solves from each source with one solver (so runs reuse its threads and buffers).
void expect_equals_dijkstra(const csr& g, const std::vector<vertex_t>& sources, const ds::options& o) {
  ds::solver s(g, o);
  for (vertex_t source : sources) {
    ds::result r = s.run(source);
    ds::result oracle = ds::dijkstra(g, source);
    ASSERT_EQ(r.kind, g.kind);
    if (g.kind == weight_kind::integer)
      ASSERT_EQ(r.int_distances, oracle.int_distances) << "source " << source << " threads " << o.threads << " delta " << o.delta;
    else
      ASSERT_EQ(r.real_distances, oracle.real_distances) << "source " << source << " threads " << o.threads << " delta " << o.delta;
    if (o.predecessors) {
      ds::validation tree = ds::check_predecessors(g, source, r);
      ASSERT_TRUE(tree.ok) << tree.message;
    }
    EXPECT_EQ(r.stats.strategy, "cpu");
  }
}

class DeltaSteppingCpu : public ::testing::TestWithParam<unsigned> {};

}  // namespace

TEST_P(DeltaSteppingCpu, RandomIntegerGraphsWithZeroWeightsAndCycles) {
  std::uint64_t seed = 7;
  for (vertex_t n : {1u, 2u, 33u, 500u, 3000u})
    for (std::size_t arcs_per_vertex : {1u, 4u, 16u})
      for (double max_weight : {0.0, 5.0, 1000.0}) {
        csr g = random_graph(n, n * arcs_per_vertex, seed++, max_weight);
        for (double delta : {0.0, 1.0, 50.0, 1e9})
          expect_equals_dijkstra(g, {0, n / 2, n - 1}, cpu_options(GetParam(), delta));
      }
}

TEST_P(DeltaSteppingCpu, RandomRealGraphsMatchBitForBit) {
  std::uint64_t seed = 70;
  for (vertex_t n : {40u, 2000u})
    for (double max_weight : {1e-3, 1.0, 1e5}) {
      csr g = random_graph(n, n * 6, seed++, max_weight, weight_kind::real);
      for (double delta : {0.0, max_weight / 100, max_weight * 10})
        expect_equals_dijkstra(g, {0, n - 1}, cpu_options(GetParam(), delta));
    }
}

TEST_P(DeltaSteppingCpu, LongPathCrossesManyWindows) {
  // 20,000 buckets of width 1: the bucket window is refilled from the far piles many times.
  const vertex_t n = 20000;
  std::mt19937 rng(3);
  std::vector<arc> arcs;
  for (vertex_t v = 0; v + 1 < n; ++v) arcs.push_back({v, v + 1, double(rng() % 3)});
  arcs.push_back({0, n - 1, 1e6});  // a heavy shortcut that is not shortest
  csr g = make_csr(n, arcs);
  expect_equals_dijkstra(g, {0, n / 3}, cpu_options(GetParam(), 1));
  expect_equals_dijkstra(g, {0}, cpu_options(GetParam(), 0));
}

TEST_P(DeltaSteppingCpu, HeavyWeightsWithATinyDeltaUseTheFarPile) {
  csr g = random_graph(3000, 20000, 11, 1e7);
  expect_equals_dijkstra(g, {0, 1}, cpu_options(GetParam(), 1));
  expect_equals_dijkstra(g, {0}, cpu_options(GetParam(), 9999));
}

TEST_P(DeltaSteppingCpu, GridGraph) {
  const vertex_t rows = 60, cols = 70;
  std::mt19937 rng(5);
  std::vector<arc> arcs;
  auto id = [&](vertex_t r, vertex_t c) { return r * cols + c; };
  for (vertex_t r = 0; r < rows; ++r)
    for (vertex_t c = 0; c < cols; ++c) {
      if (c + 1 < cols) {
        double w = double(rng() % 1001);
        arcs.push_back({id(r, c), id(r, c + 1), w});
        arcs.push_back({id(r, c + 1), id(r, c), w});
      }
      if (r + 1 < rows) {
        double w = double(rng() % 1001);
        arcs.push_back({id(r, c), id(r + 1, c), w});
        arcs.push_back({id(r + 1, c), id(r, c), w});
      }
    }
  csr g = make_csr(rows * cols, arcs);
  expect_equals_dijkstra(g, {0, id(rows / 2, cols / 2)}, cpu_options(GetParam(), 0));
  expect_equals_dijkstra(g, {0}, cpu_options(GetParam(), 100));
}

TEST_P(DeltaSteppingCpu, UnreachableVerticesStayUnreached) {
  csr g = make_csr(6, {{0, 1, 2}, {1, 2, 3}, {3, 4, 1}, {4, 5, 1}, {5, 3, 1}});
  ds::solver s(g, cpu_options(GetParam(), 0));
  ds::result r = s.run(0);
  EXPECT_EQ(r.num_reached(), 3u);
  for (vertex_t v : {3u, 4u, 5u}) {
    EXPECT_FALSE(r.reached(v));
    EXPECT_EQ(r.predecessors[v], deltasplit::graph::invalid_vertex);
  }
}

TEST_P(DeltaSteppingCpu, SingleVertexAndNoArcs) {
  expect_equals_dijkstra(make_csr(1, {}), {0}, cpu_options(GetParam(), 0));
  expect_equals_dijkstra(make_csr(5, {}), {0, 4}, cpu_options(GetParam(), 0));
}

TEST_P(DeltaSteppingCpu, ZeroWeightCycleTreeIsRooted) {
  csr g = make_csr(6, {{0, 1, 4}, {1, 2, 0}, {2, 3, 0}, {3, 1, 0}, {3, 4, 0}, {4, 2, 0}, {2, 5, 9}});
  expect_equals_dijkstra(g, {0, 1, 3}, cpu_options(GetParam(), 1));
  csr zero = random_graph(1000, 8000, 4, 0);
  expect_equals_dijkstra(zero, {0, 999}, cpu_options(GetParam(), 0));
}

TEST_P(DeltaSteppingCpu, OverflowIsDetected) {
  csr g = make_csr(4, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}, {0, 3, 1}});
  ds::solver s(g, cpu_options(GetParam(), 0));
  EXPECT_THROW(s.run(0), ds::distance_overflow);
  ds::result from_one = s.run(1);  // 1 -> 2 alone fits
  EXPECT_EQ(from_one.int_distances[2], 4000000000u);
  csr fits = make_csr(3, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}, {0, 2, 7}});
  expect_equals_dijkstra(fits, {0}, cpu_options(GetParam(), 0));
}

TEST_P(DeltaSteppingCpu, StatisticsAreFilled) {
  csr g = random_graph(2000, 16000, 9, 1000);
  ds::solver s(g, cpu_options(GetParam(), 100, false));
  ds::result r = s.run(0);
  EXPECT_EQ(r.stats.delta, 100);
  EXPECT_GT(r.stats.iterations, 1u);
  EXPECT_GE(r.stats.edges_relaxed, r.num_reached() - 1);
  EXPECT_GE(r.stats.vertices_processed, r.num_reached());
  EXPECT_GT(r.stats.max_queue, 0u);
  EXPECT_GE(r.stats.milliseconds, r.stats.relax_ms);
  EXPECT_EQ(r.stats.device, "cpu (" + std::to_string(GetParam()) + (GetParam() == 1 ? " thread)" : " threads)"));
  EXPECT_TRUE(r.predecessors.empty());
}

TEST_P(DeltaSteppingCpu, IntegerDeltaIsRoundedDown) {
  csr g = random_graph(100, 400, 2, 10);
  ds::solver s(g, cpu_options(GetParam(), 2.7, false));
  EXPECT_EQ(s.run(0).stats.delta, 2);
  ds::solver tiny(g, cpu_options(GetParam(), 0.25, false));
  EXPECT_EQ(tiny.run(0).stats.delta, 1);
}

INSTANTIATE_TEST_SUITE_P(Threads, DeltaSteppingCpu, ::testing::Values(1u, 2u, 4u),
                         [](const ::testing::TestParamInfo<unsigned>& p) { return std::to_string(p.param); });
