// Dijkstra, the oracle, against brute-force Bellman-Ford; overflow detection; its tree.
#include <cmath>
#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
using namespace deltasplit_test;

namespace {

void expect_matches_bellman_ford(const csr& g, vertex_t source) {
  ds::result r = ds::dijkstra(g, source, true);
  std::vector<double> truth = bellman_ford(g, source);
  ASSERT_EQ(r.size(), g.num_vertices);
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    if (g.kind == weight_kind::integer) {
      ASSERT_EQ(r.distance(v), truth[v]) << "vertex " << v;
    } else if (std::isinf(truth[v])) {
      ASSERT_FALSE(r.reached(v)) << "vertex " << v;
    } else {  // float sums of at most n terms against exact sums
      ASSERT_NEAR(r.distance(v), truth[v], 1e-5 * truth[v] * g.num_vertices + 1e-30) << "vertex " << v;
    }
  }
  ds::validation tree = ds::check_predecessors(g, source, r);
  EXPECT_TRUE(tree.ok) << tree.message;
}

}  // namespace

TEST(Dijkstra, MatchesBellmanFordOnRandomIntegerGraphs) {
  std::uint64_t seed = 1;
  for (vertex_t n : {1u, 2u, 7u, 64u, 300u})
    for (std::size_t arcs_per_vertex : {0u, 1u, 3u, 10u})
      for (double max_weight : {0.0, 3.0, 1000.0}) {
        csr g = random_graph(n, n * arcs_per_vertex, seed++, max_weight);
        expect_matches_bellman_ford(g, 0);
        expect_matches_bellman_ford(g, n - 1);
      }
}

TEST(Dijkstra, MatchesBellmanFordOnRandomRealGraphs) {
  std::uint64_t seed = 100;
  for (vertex_t n : {2u, 50u, 400u})
    for (double max_weight : {1e-3, 1.0, 1e6}) {
      csr g = random_graph(n, n * 4, seed++, max_weight, weight_kind::real);
      expect_matches_bellman_ford(g, 0);
    }
}

TEST(Dijkstra, UnreachableVerticesAreInfinite) {
  csr g = make_csr(4, {{0, 1, 5}, {2, 3, 1}});
  ds::result r = ds::dijkstra(g, 0, true);
  EXPECT_EQ(r.int_distances[1], 5u);
  EXPECT_EQ(r.int_distances[2], ds::int_infinity);
  EXPECT_EQ(r.int_distances[3], ds::int_infinity);
  EXPECT_TRUE(std::isinf(r.distance(3)));
  EXPECT_EQ(r.num_reached(), 2u);
  EXPECT_EQ(r.predecessors[1], 0u);
  EXPECT_EQ(r.predecessors[0], deltasplit::graph::invalid_vertex);
  EXPECT_EQ(r.predecessors[3], deltasplit::graph::invalid_vertex);
}

TEST(Dijkstra, ZeroWeightCyclesKeepATreeRootedAtTheSource) {
  csr g = make_csr(5, {{0, 1, 4}, {1, 2, 0}, {2, 1, 0}, {2, 3, 0}, {3, 1, 0}, {3, 4, 2}});
  ds::result r = ds::dijkstra(g, 0, true);
  EXPECT_EQ(r.int_distances, (std::vector<std::uint32_t>{0, 4, 4, 4, 6}));
  ds::validation tree = ds::check_predecessors(g, 0, r);
  EXPECT_TRUE(tree.ok) << tree.message;
}

TEST(Dijkstra, DistanceUpToTheLimitIsExact) {
  const double half = 2147483647;  // two arcs sum to 2^32 - 2, the largest finite distance
  csr g = make_csr(3, {{0, 1, half}, {1, 2, half}});
  ds::result r = ds::dijkstra(g, 0);
  EXPECT_EQ(r.int_distances[2], 4294967294u);
}

TEST(Dijkstra, DistancesPast32BitsAreUint64) {
  csr g = make_csr(4, {{0, 1, 2147483647}, {1, 2, 2147483648.0}, {2, 3, 1}});
  ds::result r = ds::dijkstra(g, 0);
  ASSERT_EQ(r.type, ds::distance_type::uint64);
  EXPECT_EQ(r.uint64_distances, (std::vector<std::uint64_t>{0, 2147483647, 4294967295ull, 4294967296ull}));
  EXPECT_EQ(r.stats.distance_type, "uint64");
}

TEST(Dijkstra, DistanceBeyond64BitsThrows) {
  const double half = 9223372036854775808.0;  // 2^63: two arcs make 2^64, past 2^64 - 2
  csr g = make_csr(3, {{0, 1, half}, {1, 2, half}}, weight_kind::integer, true);
  try {
    ds::dijkstra(g, 0);
    ADD_FAILURE() << "no overflow";
  } catch (const ds::distance_overflow& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2^64 - 2"), std::string::npos) << e.what();
  }
}

TEST(Dijkstra, LongCandidateThatIsNotShortestIsNoOverflow) {
  csr g = make_csr(3, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}, {0, 2, 7}});
  ds::result r = ds::dijkstra(g, 0);
  EXPECT_EQ(r.distance(2), 7);
  EXPECT_EQ(r.distance(1), 4000000000.0);
}

TEST(Dijkstra, RealDistancesBeyondTheirTypeThrow) {
  csr g = make_csr(3, {{0, 1, 3e38}, {1, 2, 3e38}}, weight_kind::real);
  EXPECT_THROW(ds::dijkstra(g, 0, false, ds::distance_type::float32), ds::distance_overflow);
  EXPECT_EQ(ds::dijkstra(g, 0).distance(2), double(3e38f) + double(3e38f)) << "float64 holds it";
  csr wide = make_csr(3, {{0, 1, 1e308}, {1, 2, 1e308}}, weight_kind::real, true);
  EXPECT_THROW(ds::dijkstra(wide, 0), ds::distance_overflow);
}

TEST(Dijkstra, SingleVertex) {
  csr g = make_csr(1, {});
  ds::result r = ds::dijkstra(g, 0, true);
  EXPECT_EQ(r.int_distances, std::vector<std::uint32_t>{0});
  EXPECT_EQ(r.num_reached(), 1u);
}

TEST(Dijkstra, RejectsBadSourceAndMalformedGraphs) {
  csr g = make_csr(3, {{0, 1, 1}});
  EXPECT_THROW(ds::dijkstra(g, 3), std::out_of_range);
  EXPECT_THROW(ds::dijkstra(make_csr(0, {}), 0), std::out_of_range);
  csr bad_target = g;
  bad_target.targets[0] = 7;
  EXPECT_THROW(ds::dijkstra(bad_target, 0), std::invalid_argument);
  csr bad_offsets = g;
  bad_offsets.offsets.pop_back();
  EXPECT_THROW(ds::dijkstra(bad_offsets, 0), std::invalid_argument);
  csr missing_weights = g;
  missing_weights.int_weights.clear();
  EXPECT_THROW(ds::dijkstra(missing_weights, 0), std::invalid_argument);
  csr negative = make_csr(2, {{0, 1, -1}}, weight_kind::real);
  EXPECT_THROW(ds::dijkstra(negative, 0), std::invalid_argument);
  csr not_a_number = make_csr(2, {{0, 1, std::nan("")}}, weight_kind::real);
  EXPECT_THROW(ds::dijkstra(not_a_number, 0), std::invalid_argument);
}
