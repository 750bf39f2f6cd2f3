// R-MAT and grid generators: sizes, determinism per seed, skew, symmetry, parameter checks.
#include <algorithm>
#include <stdexcept>

#include <gtest/gtest.h>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/weights.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::arcs_of;

namespace {

bool has_arc(const csr& g, vertex_t u, vertex_t v, std::uint32_t* w) {
  auto first = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[u]);
  auto last = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[u + 1]);
  auto it = std::lower_bound(first, last, v);
  if (it == last || *it != v) return false;
  *w = g.int_weights[static_cast<std::size_t>(it - g.targets.begin())];
  return true;
}

edge_t max_degree(const csr& g) {
  edge_t m = 0;
  for (vertex_t v = 0; v < g.num_vertices; ++v) m = std::max(m, g.degree(v));
  return m;
}

}  // namespace

TEST(GraphRmat, SizesAndAccounting) {
  rmat_params p;
  p.scale = 12;
  p.edge_factor = 8;
  csr g = generate_rmat(p);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_EQ(g.num_vertices, 4096u);
  EXPECT_EQ(g.origin.entries_read, 8u * 4096u);
  EXPECT_EQ(g.num_arcs() + g.origin.self_loops_dropped + g.origin.duplicates_merged, 8u * 4096u);
  EXPECT_EQ(g.origin.format, "rmat");
  EXPECT_FALSE(g.origin.one_based);
  EXPECT_TRUE(g.origin.weights_generated);
  for (std::uint32_t w : g.int_weights) ASSERT_LE(w, 1000u);
}

TEST(GraphRmat, DeterministicPerSeed) {
  rmat_params p;
  p.scale = 11;
  p.seed = 5;
  csr a = generate_rmat(p), b = generate_rmat(p);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.int_weights, b.int_weights);
  p.seed = 6;
  csr c = generate_rmat(p);
  EXPECT_NE(a.targets, c.targets);
}

TEST(GraphRmat, SkewedDegrees) {
  for (auto probs : {std::array<double, 4>{0.57, 0.19, 0.19, 0.05}, std::array<double, 4>{0.5, 0.1, 0.1, 0.3}}) {
    rmat_params p;
    p.scale = 14;
    p.edge_factor = 16;
    p.a = probs[0];
    p.b = probs[1];
    p.c = probs[2];
    p.d = probs[3];
    csr g = generate_rmat(p);
    double mean = double(g.num_arcs()) / g.num_vertices;
    EXPECT_GT(double(max_degree(g)), 6 * mean) << "a=" << p.a;
  }
  // Uniform quadrants give an Erdos-Renyi-like graph: no hub.
  rmat_params u;
  u.scale = 14;
  u.a = u.b = u.c = u.d = 0.25;
  csr g = generate_rmat(u);
  EXPECT_LT(double(max_degree(g)), 4 * double(g.num_arcs()) / g.num_vertices);
}

TEST(GraphRmat, UndirectedHoldsBothDirectionsWithEqualWeights) {
  rmat_params p;
  p.scale = 10;
  p.undirected = true;
  p.weight_min = 1;
  p.weight_max = 9;
  csr g = generate_rmat(p);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_TRUE(g.origin.symmetric);
  for (const auto& a : arcs_of(g)) {
    std::uint32_t w = 0;
    ASSERT_TRUE(has_arc(g, vertex_t(a.v), vertex_t(a.u), &w)) << a;
    ASSERT_EQ(double(w), a.w);
    ASSERT_GE(a.w, 1);
    ASSERT_LE(a.w, 9);
  }
}

TEST(GraphRmat, ParametersAreChecked) {
  rmat_params p;
  p.scale = 32;
  EXPECT_THROW(generate_rmat(p), std::invalid_argument);
  p = {};
  p.a = -0.1;
  EXPECT_THROW(generate_rmat(p), std::invalid_argument);
  p = {};
  p.a = p.b = p.c = p.d = 0;
  EXPECT_THROW(generate_rmat(p), std::invalid_argument);
  p = {};
  p.edge_factor = -1;
  EXPECT_THROW(generate_rmat(p), std::invalid_argument);
  p = {};
  p.weight_min = 10;
  p.weight_max = 9;
  EXPECT_THROW(generate_rmat(p), std::invalid_argument);
  p = {};
  p.scale = 0;
  csr one = generate_rmat(p);
  EXPECT_EQ(one.num_vertices, 1u);
  EXPECT_EQ(one.num_arcs(), 0u);  // all 16 edges are the self-loop 0 -> 0
  EXPECT_EQ(one.origin.self_loops_dropped, 16u);
}

TEST(GraphGrid, FullGridHasEveryNeighbourArc) {
  grid_params p;
  p.rows = 7;
  p.cols = 9;
  csr g = generate_grid(p);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_EQ(g.num_vertices, 63u);
  EXPECT_EQ(g.num_arcs(), 2u * (7 * 8 + 9 * 6));
  std::uint32_t w1 = 0, w2 = 0;
  ASSERT_TRUE(has_arc(g, 10, 11, &w1));
  ASSERT_TRUE(has_arc(g, 11, 10, &w2));
  EXPECT_EQ(w1, w2);
  EXPECT_EQ(w1, edge_weight(p.seed, 10, 11, 0, 1000));
  EXPECT_TRUE(has_arc(g, 10, 19, &w1));
  EXPECT_FALSE(has_arc(g, 8, 9, &w1)) << "no wrap-around between rows";
  EXPECT_EQ(g.origin.format, "grid");
}

TEST(GraphGrid, KeepFractionAndSeeds) {
  grid_params p;
  p.rows = 100;
  p.cols = 100;
  p.keep_fraction = 0.6;
  csr a = generate_grid(p), b = generate_grid(p);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.int_weights, b.int_weights);
  double full = 2.0 * (100 * 99 * 2);
  EXPECT_NEAR(double(a.num_arcs()) / full, 0.6, 0.03);
  p.seed = 2;
  EXPECT_NE(generate_grid(p).targets, a.targets);
  p.keep_fraction = 0;
  EXPECT_EQ(generate_grid(p).num_arcs(), 0u);
  p.keep_fraction = 1.5;
  EXPECT_THROW(generate_grid(p), std::invalid_argument);
  grid_params huge;
  huge.rows = 70000;
  huge.cols = 70000;
  EXPECT_THROW(generate_grid(huge), std::invalid_argument);
}
