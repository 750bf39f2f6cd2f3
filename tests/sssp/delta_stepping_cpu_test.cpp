// CPU delta-stepping against Dijkstra: exact equality of every distance (integer and real, see
// distance_policy.hpp for why real distances agree bit for bit), valid predecessor trees, at 1, 2
// and 16 threads, with and without bucket fusion, and for a range of bucket widths, including
// widths that force the far pile. The team of threads is forced here (cpu_tuning::parallel_arcs
// = 0) so that small graphs exercise the parallel rounds; the public solver's choice of one
// thread for small graphs is tested at the end.
#include <ostream>
#include <random>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "sssp/delta_stepping_cpu.hpp"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
using namespace deltasplit_test;

// Named, not anonymous: the TEST_P classes derive from the fixture, and in a unity batch
// (DELTASPLIT_UNITY_BUILD) a base of internal linkage from an included file is a warning.
namespace delta_stepping_cpu_test {

struct setup {
  unsigned threads;
  std::size_t fusion_limit;  // 1: no bucket fusion, every step is a shared round
};
void PrintTo(const setup& s, std::ostream* os) { *os << s.threads << " threads, fusion limit " << s.fusion_limit; }

ds::options cpu_options(unsigned threads, double delta, bool predecessors = true) {
  ds::options o;
  o.how = ds::strategy::delta_stepping_cpu;
  o.device = ds::device_kind::cpu;
  o.threads = threads;
  o.tune.delta = delta;
  o.predecessors = predecessors;
  return o;
}

// Solves from each source with one team (so runs reuse its threads and buffers).
void check_against_dijkstra(const csr& g, const std::vector<vertex_t>& sources, setup how, double delta,
                            bool predecessors = true) {
  ds::detail::cpu_tuning tuning;
  tuning.parallel_arcs = 0;
  tuning.fusion_limit = how.fusion_limit;
  ds::detail::delta_stepping_cpu s(g, how.threads, tuning);
  ASSERT_EQ(s.threads(), how.threads);
  for (vertex_t source : sources) {
    ds::result r = s.run(source, delta, predecessors);
    ds::result oracle = ds::dijkstra(g, source);
    ASSERT_TRUE(identical_distances(r, oracle)) << "source " << source << " threads " << how.threads << " delta " << delta;
    if (predecessors) {
      ds::validation tree = ds::check_predecessors(g, source, r);
      ASSERT_TRUE(tree.ok) << tree.message;
    }
    EXPECT_EQ(r.stats.strategy, "cpu");
  }
}

class DeltaSteppingCpu : public ::testing::TestWithParam<setup> {
 protected:
  void expect_equals_dijkstra(const csr& g, const std::vector<vertex_t>& sources, double delta, bool tree = true) {
    check_against_dijkstra(g, sources, GetParam(), delta, tree);
  }
};

}  // namespace delta_stepping_cpu_test
using namespace delta_stepping_cpu_test;

TEST_P(DeltaSteppingCpu, RandomIntegerGraphsWithZeroWeightsAndCycles) {
  std::uint64_t seed = 7;
  for (vertex_t n : {1u, 2u, 33u, 500u, 3000u})
    for (std::size_t arcs_per_vertex : {1u, 4u, 16u})
      for (double max_weight : {0.0, 5.0, 1000.0}) {
        csr g = random_graph(n, n * arcs_per_vertex, seed++, max_weight);
        for (double delta : {0.0, 1.0, 50.0, 1e9})
          expect_equals_dijkstra(g, {0, n / 2, n - 1}, delta, delta != 50);
      }
}

TEST_P(DeltaSteppingCpu, RandomRealGraphsMatchBitForBit) {
  std::uint64_t seed = 70;
  for (vertex_t n : {40u, 2000u})
    for (double max_weight : {1e-3, 1.0, 1e5}) {
      csr g = random_graph(n, n * 6, seed++, max_weight, weight_kind::real);
      for (double delta : {0.0, max_weight / 100, max_weight * 10})
        expect_equals_dijkstra(g, {0, n - 1}, delta);
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
  expect_equals_dijkstra(g, {0, n / 3}, 1);
  expect_equals_dijkstra(g, {0}, 0);
}

TEST_P(DeltaSteppingCpu, HeavyWeightsWithATinyDeltaUseTheFarPile) {
  csr g = random_graph(3000, 20000, 11, 1e7);
  expect_equals_dijkstra(g, {0, 1}, 1);
  expect_equals_dijkstra(g, {0}, 9999);
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
  expect_equals_dijkstra(g, {0, id(rows / 2, cols / 2)}, 0);
  expect_equals_dijkstra(g, {0}, 100);
}

TEST_P(DeltaSteppingCpu, UnreachableVerticesStayUnreached) {
  csr g = make_csr(6, {{0, 1, 2}, {1, 2, 3}, {3, 4, 1}, {4, 5, 1}, {5, 3, 1}});
  expect_equals_dijkstra(g, {0, 3}, 0);
  ds::detail::cpu_tuning tuning;
  tuning.parallel_arcs = 0;
  ds::detail::delta_stepping_cpu s(g, GetParam().threads, tuning);
  ds::result r = s.run(0, 0, true);
  EXPECT_EQ(r.num_reached(), 3u);
  for (vertex_t v : {3u, 4u, 5u}) {
    EXPECT_FALSE(r.reached(v));
    EXPECT_EQ(r.predecessors[v], deltasplit::graph::invalid_vertex);
  }
}

TEST_P(DeltaSteppingCpu, SingleVertexAndNoArcs) {
  expect_equals_dijkstra(make_csr(1, {}), {0}, 0);
  expect_equals_dijkstra(make_csr(5, {}), {0, 4}, 0);
}

TEST_P(DeltaSteppingCpu, ZeroWeightCycleTreeIsRooted) {
  csr g = make_csr(6, {{0, 1, 4}, {1, 2, 0}, {2, 3, 0}, {3, 1, 0}, {3, 4, 0}, {4, 2, 0}, {2, 5, 9}});
  expect_equals_dijkstra(g, {0, 1, 3}, 1);
  csr zero = random_graph(1000, 8000, 4, 0);
  expect_equals_dijkstra(zero, {0, 999}, 0);
}

// Issue 13: one arc among 100,000 vertices made the automatic width overflow (a mean out-degree of
// 1e-5, cubed, divides); every width is now bounded, whatever the statistics.
TEST_P(DeltaSteppingCpu, OneArcAmongManyVertices) {
  expect_equals_dijkstra(make_csr(100000, {{0, 1, 7}}), {0, 1, 99999}, 0);
  expect_equals_dijkstra(make_csr(100000, {{5, 99999, 0.5}}, weight_kind::real), {5, 0}, 0);
  expect_equals_dijkstra(make_csr(100000, {{0, 1, 4294967294.0}}), {0}, 0);  // the largest distance
}

TEST_P(DeltaSteppingCpu, PathsPast32BitsAreExactAndPast64BitsAnOverflow) {
  csr g = make_csr(4, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}, {0, 3, 1}});
  ds::detail::cpu_tuning tuning;
  tuning.parallel_arcs = 0;
  ds::detail::delta_stepping_cpu s(g, GetParam().threads, tuning);
  ds::result r = s.run(0, 0, true);
  ASSERT_EQ(r.type, ds::distance_type::uint64);
  EXPECT_EQ(r.uint64_distances[2], 8000000000ull);
  EXPECT_TRUE(ds::check_predecessors(g, 0, r).ok);
  expect_equals_dijkstra(g, {0, 1}, 0);
  expect_equals_dijkstra(g, {0}, 1e9);
  csr wide = make_csr(3, {{0, 1, 9223372036854775808.0}, {1, 2, 9223372036854775808.0}}, weight_kind::integer, true);
  ds::detail::delta_stepping_cpu w(wide, GetParam().threads, tuning);
  EXPECT_THROW(w.run(0, 0, false), ds::distance_overflow);
  EXPECT_EQ(w.run(1, 0, false).uint64_distances[2], 9223372036854775808ull);  // 1 -> 2 alone fits
}

TEST_P(DeltaSteppingCpu, StatisticsAreFilled) {
  csr g = random_graph(2000, 16000, 9, 1000);
  ds::detail::cpu_tuning tuning;
  tuning.parallel_arcs = 0;
  tuning.fusion_limit = GetParam().fusion_limit;
  ds::detail::delta_stepping_cpu s(g, GetParam().threads, tuning);
  ds::result r = s.run(0, 100, false);
  EXPECT_EQ(r.stats.delta, 100);
  EXPECT_GT(r.stats.iterations, 1u);
  EXPECT_GE(r.stats.edges_relaxed, r.num_reached() - 1);
  EXPECT_GE(r.stats.vertices_processed, r.num_reached());
  EXPECT_GT(r.stats.max_queue, 0u);
  EXPECT_GE(r.stats.milliseconds, r.stats.relax_ms);
  const unsigned t = GetParam().threads;
  EXPECT_EQ(r.stats.device, "cpu (" + std::to_string(t) + (t == 1 ? " thread)" : " threads)"));
  EXPECT_TRUE(r.predecessors.empty());
}

TEST_P(DeltaSteppingCpu, IntegerDeltaIsRoundedDown) {
  csr g = random_graph(100, 400, 2, 10);
  ds::solver s(g, cpu_options(GetParam().threads, 2.7, false));
  EXPECT_EQ(s.run(0).stats.delta, 2);
  ds::solver tiny(g, cpu_options(GetParam().threads, 0.25, false));
  EXPECT_EQ(tiny.run(0).stats.delta, 1);
}

INSTANTIATE_TEST_SUITE_P(Threads, DeltaSteppingCpu,
                         ::testing::Values(setup{1, 1024}, setup{2, 1024}, setup{16, 1024}, setup{2, 1}, setup{16, 1}),
                         [](const ::testing::TestParamInfo<setup>& p) {
                           return std::to_string(p.param.threads) + (p.param.fusion_limit == 1 ? "_unfused" : "_fused");
                         });

// The public solver runs a graph with fewer arcs than cpu_tuning::parallel_arcs on one thread,
// says so, and still answers exactly; a larger graph gets the threads asked for.
TEST(DeltaSteppingCpuPath, SmallGraphsRunOnOneThread) {
  csr small = random_graph(2000, 16000, 9, 1000);
  ds::solver s(small, cpu_options(4, 0, true));
  ds::result r = s.run(0);
  EXPECT_EQ(r.stats.device, "cpu (1 thread: 16000 arcs are too few for 4)");
  EXPECT_TRUE(identical_distances(r, ds::dijkstra(small, 0)));
  const std::size_t arcs = ds::detail::cpu_tuning{}.parallel_arcs;
  csr large = random_graph(static_cast<vertex_t>(arcs / 4), arcs, 3, 1000);
  ds::solver team(large, cpu_options(4, 0, false));
  ds::result big = team.run(0);
  EXPECT_EQ(big.stats.device, "cpu (4 threads)");
  EXPECT_TRUE(identical_distances(big, ds::dijkstra(large, 0)));
}
