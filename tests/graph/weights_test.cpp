// Generated weights: in range, the same both ways, deterministic, seed-dependent, spread out.
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/weights.hpp"

using namespace deltasplit::graph;

TEST(GraphWeights, RangeSymmetryDeterminism) {
  std::set<std::uint32_t> seen;
  std::uint64_t differ = 0;
  for (vertex_t u = 0; u < 200; ++u) {
    for (vertex_t v = 0; v < 200; v += 7) {
      std::uint32_t w = edge_weight(3, u, v, 0, 1000);
      ASSERT_LE(w, 1000u);
      ASSERT_EQ(w, edge_weight(3, v, u, 0, 1000));
      ASSERT_EQ(w, edge_weight(3, u, v, 0, 1000));
      differ += w != edge_weight(4, u, v, 0, 1000);
      seen.insert(w);
    }
  }
  EXPECT_GT(seen.size(), 900u) << "weights should cover [0, 1000]";
  EXPECT_GT(differ, 5000u) << "another seed gives other weights";
  EXPECT_EQ(edge_weight(1, 2, 3, 42, 42), 42u);
  EXPECT_EQ(edge_weight(1, 2, 3, 0, 0xffffffffu) , edge_weight(1, 3, 2, 0, 0xffffffffu));
  EXPECT_THROW(edge_weight(1, 2, 3, 5, 4), std::invalid_argument);
}

TEST(GraphWeights, AssignRecordsProvenanceAndReplacesRealWeights) {
  grid_params p;
  p.rows = 4;
  p.cols = 4;
  csr g = generate_grid(p);
  g.kind = weight_kind::real;
  g.real_weights.assign(g.num_arcs(), 1.5f);
  g.int_weights.clear();
  assign_random_weights(g, 11, 5, 6);
  EXPECT_EQ(g.kind, weight_kind::integer);
  EXPECT_TRUE(g.real_weights.empty());
  ASSERT_EQ(g.int_weights.size(), g.num_arcs());
  for (vertex_t u = 0; u < g.num_vertices; ++u)
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      EXPECT_EQ(g.int_weights[e], edge_weight(11, u, g.targets[e], 5, 6));
  EXPECT_TRUE(g.origin.weights_generated);
  EXPECT_EQ(g.origin.weight_seed, 11u);
  EXPECT_EQ(g.origin.weight_min, 5u);
  EXPECT_EQ(g.origin.weight_max, 6u);
  csr broken;
  broken.num_vertices = 3;
  EXPECT_THROW(assign_random_weights(broken, 1), std::invalid_argument);
}
