// The verifier must catch what it exists for: planted wrong distances, broken trees.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
using namespace deltasplit_test;

namespace {
bool mentions(const std::string& message, const std::string& what) { return message.find(what) != std::string::npos; }
}  // namespace

TEST(Validate, AcceptsDijkstraItself) {
  csr g = random_graph(500, 3000, 1, 100);
  ds::result r = ds::dijkstra(g, 0, true);
  ds::validation v = ds::validate(g, 0, r);
  EXPECT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.mismatches, 0u);
}

TEST(Validate, CatchesAPlantedWrongDistance) {
  csr g = random_graph(500, 3000, 2, 100);
  ds::result r = ds::dijkstra(g, 0);
  vertex_t victim = 0;
  for (vertex_t v = 1; v < g.num_vertices; ++v)
    if (r.reached(v)) victim = v;
  ASSERT_NE(victim, 0u);
  r.int_distances[victim] += 1;
  ds::validation v = ds::validate(g, 0, r);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_TRUE(mentions(v.message, "vertex " + std::to_string(victim))) << v.message;
}

TEST(Validate, AgainstAPrecomputedOracle) {
  csr g = random_graph(300, 2000, 12, 100);
  ds::result oracle = ds::dijkstra(g, 3);
  ds::result r = ds::dijkstra(g, 3, true);
  EXPECT_TRUE(ds::validate(g, 3, r, oracle).ok);
  r.int_distances[oracle.int_distances.size() - 1] ^= 1;
  EXPECT_FALSE(ds::validate(g, 3, r, oracle).ok);
  ds::result from_elsewhere = ds::dijkstra(g, 4);
  from_elsewhere.int_distances.pop_back();
  EXPECT_FALSE(ds::validate(g, 3, oracle, from_elsewhere).ok) << "an oracle of the wrong size is refused";
}

TEST(Validate, CatchesAReachedVertexReportedUnreachedAndViceVersa) {
  csr g = make_csr(3, {{0, 1, 1}});
  ds::result r = ds::dijkstra(g, 0);
  r.int_distances[1] = ds::int_infinity;
  r.int_distances[2] = 5;
  ds::validation v = ds::validate(g, 0, r);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.mismatches, 2u);
}

TEST(Validate, CountsEveryMismatchButReportsAFew) {
  csr g = random_graph(200, 2000, 3, 100);
  ds::result r = ds::dijkstra(g, 0);
  std::uint64_t planted = 0;
  for (vertex_t v = 1; v < g.num_vertices; ++v)
    if (r.reached(v)) {
      r.int_distances[v] += 1;
      ++planted;
    }
  ds::validation v = ds::validate(g, 0, r);
  EXPECT_EQ(v.mismatches, planted);
  EXPECT_TRUE(mentions(v.message, std::to_string(planted) + " differences")) << v.message;
}

TEST(Validate, Float64DistancesExactly) {
  csr g = random_graph(300, 2000, 4, 10.0, weight_kind::real);
  ds::result r = ds::dijkstra(g, 0);
  ASSERT_EQ(r.type, ds::distance_type::float64);
  vertex_t victim = 1;
  while (!r.reached(victim)) ++victim;
  r.float64_distances[victim] = std::nextafter(r.float64_distances[victim], 1e300);
  EXPECT_FALSE(ds::validate(g, 0, r).ok) << "only the CPU computes float64, bit for bit";
}

TEST(Validate, Float32DistancesWithinToleranceOnly) {
  csr g = random_graph(300, 2000, 4, 10.0, weight_kind::real);
  ds::result r = ds::dijkstra(g, 0, false, ds::distance_type::float32);
  vertex_t victim = 1;
  while (!r.reached(victim)) ++victim;
  r.real_distances[victim] = std::nextafter(r.real_distances[victim], 1e30f);
  EXPECT_TRUE(ds::validate(g, 0, r).ok) << "one ulp is within the documented tolerance";
  r.real_distances[victim] *= 1.001f;
  EXPECT_FALSE(ds::validate(g, 0, r).ok);
}

TEST(Validate, WrongShapeOrKind) {
  csr g = make_csr(3, {{0, 1, 1}});
  ds::result r = ds::dijkstra(g, 0);
  r.int_distances.pop_back();
  EXPECT_FALSE(ds::validate(g, 0, r).ok);
  ds::result real;
  real.type = ds::distance_type::float32;
  real.real_distances = {0, 1, INFINITY};
  ds::validation v = ds::validate(g, 0, real);
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(mentions(v.message, "float32")) << v.message;
}

TEST(CheckPredecessors, CatchesANonTightParent) {
  csr g = make_csr(4, {{0, 1, 1}, {0, 2, 5}, {1, 2, 1}, {2, 3, 1}});
  ds::result r = ds::dijkstra(g, 0, true);
  ASSERT_TRUE(ds::check_predecessors(g, 0, r).ok);
  r.predecessors[2] = 0;  // arc 0 -> 2 exists but weighs 5, not 2
  ds::validation v = ds::check_predecessors(g, 0, r);
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(mentions(v.message, "vertex 2")) << v.message;
  EXPECT_FALSE(ds::validate(g, 0, r).ok) << "validate checks the tree too";
  r.predecessors[2] = 3;  // no arc 3 -> 2
  EXPECT_FALSE(ds::check_predecessors(g, 0, r).ok);
}

TEST(CheckPredecessors, CatchesAZeroWeightCycle) {
  // 1 and 2 are both at distance 4 and joined by zero-weight arcs: each is a tight parent of the
  // other, so only the rootedness check can see that neither leads back to the source.
  csr g = make_csr(3, {{0, 1, 4}, {0, 2, 4}, {1, 2, 0}, {2, 1, 0}});
  ds::result r = ds::dijkstra(g, 0, true);
  ASSERT_TRUE(ds::check_predecessors(g, 0, r).ok);
  r.predecessors[1] = 2;
  r.predecessors[2] = 1;
  ds::validation v = ds::check_predecessors(g, 0, r);
  EXPECT_FALSE(v.ok);
  EXPECT_TRUE(mentions(v.message, "cycle")) << v.message;
}

TEST(CheckPredecessors, SourceAndUnreachedHaveNone) {
  csr g = make_csr(3, {{0, 1, 1}, {1, 0, 1}});
  ds::result r = ds::dijkstra(g, 0, true);
  r.predecessors[0] = 1;
  EXPECT_FALSE(ds::check_predecessors(g, 0, r).ok);
  r.predecessors[0] = deltasplit::graph::invalid_vertex;
  r.predecessors[2] = 0;
  EXPECT_FALSE(ds::check_predecessors(g, 0, r).ok);
  r.predecessors[2] = deltasplit::graph::invalid_vertex;
  r.predecessors[1] = deltasplit::graph::invalid_vertex;
  EXPECT_FALSE(ds::check_predecessors(g, 0, r).ok) << "a reached vertex needs a parent";
  r.predecessors.pop_back();
  EXPECT_FALSE(ds::check_predecessors(g, 0, r).ok);
}
