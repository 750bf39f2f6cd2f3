// The bundled real graphs (datasets/README.md): each loads with its documented vertex and edge
// counts, symmetric files hold both directions, and the cleaning counts add up.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "deltasplit/graph/io.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;

namespace {

// Every stored arc has its reverse with the same weight.
void expect_both_directions(const csr& g) {
  std::uint64_t missing = 0;
  for (vertex_t u = 0; u < g.num_vertices; ++u) {
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      vertex_t v = g.targets[e];
      auto first = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]);
      auto last = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]);
      auto it = std::lower_bound(first, last, u);
      if (it == last || *it != u || g.int_weights[static_cast<std::size_t>(it - g.targets.begin())] != g.int_weights[e])
        ++missing;
    }
  }
  EXPECT_EQ(missing, 0u) << "arcs without a reverse arc of the same weight";
}

// Cleaning accounting: stored arcs = entries (doubled when symmetric) - self-loops - merged.
void expect_accounting(const csr& g) {
  const provenance& o = g.origin;
  std::uint64_t loops = o.self_loops_dropped;
  std::uint64_t expanded = o.symmetric ? 2 * (o.entries_read - loops) : o.entries_read - loops;
  EXPECT_EQ(g.num_arcs(), expanded - o.duplicates_merged);
}

csr load(const std::string& name) {
  std::string path = deltasplit_test::dataset_path(name);
  csr g = read_graph(path);
  deltasplit_test::expect_clean_csr(g);
  expect_accounting(g);
  EXPECT_EQ(g.origin.path, path);
  EXPECT_GT(g.origin.text_bytes, 0u);
  return g;
}

}  // namespace

TEST(GraphDatasets, UsaRoadNY) {
  csr g = load("USA-road-d.NY.gr.gz");
  EXPECT_EQ(g.num_vertices, 264346u);
  EXPECT_EQ(g.origin.entries_read, 733846u);
  EXPECT_EQ(g.origin.format, "dimacs");
  EXPECT_EQ(g.kind, weight_kind::integer);
  EXPECT_FALSE(g.origin.weights_generated);
  auto [lo, hi] = std::minmax_element(g.int_weights.begin(), g.int_weights.end());
  EXPECT_GE(*lo, 1u);
  EXPECT_LE(*hi, 36946u);
  EXPECT_EQ(*hi, 36946u);
}

TEST(GraphDatasets, RoadFLA) {
  csr g = load("road-FLA.mtx.gz");
  EXPECT_EQ(g.num_vertices, 1070376u);
  EXPECT_EQ(g.origin.entries_read, 1343951u);
  EXPECT_TRUE(g.origin.symmetric);
  EXPECT_EQ(g.num_arcs(), 2u * 1343951u);  // deduplicated, no self-loops: every edge both ways
  EXPECT_TRUE(g.origin.weights_generated);
  expect_both_directions(g);
}

TEST(GraphDatasets, ChicagoRegional) {
  csr g = load("chicago-regional.mtx.gz");
  EXPECT_EQ(g.num_vertices, 12982u);
  EXPECT_EQ(g.origin.entries_read, 39018u);
  EXPECT_EQ(g.kind, weight_kind::real);
  EXPECT_TRUE(g.wide());  // Matrix Market `real` is read as double
  EXPECT_FALSE(g.origin.symmetric);
  for (double w : g.float64_weights) ASSERT_TRUE(std::isfinite(w) && w >= 0);
}

TEST(GraphDatasets, SocSlashdot0902) {
  csr g = load("soc-slashdot0902.mtx.gz");
  EXPECT_EQ(g.num_vertices, 82168u);
  EXPECT_EQ(g.origin.entries_read, 948464u);
  EXPECT_GT(g.origin.self_loops_dropped, 0u);  // the README notes self-loops
  EXPECT_FALSE(g.origin.symmetric);
}

TEST(GraphDatasets, CitHepPh) {
  csr g = load("cit-HepPh.mtx.gz");
  EXPECT_EQ(g.num_vertices, 34546u);
  EXPECT_EQ(g.origin.entries_read, 421578u);
}

TEST(GraphDatasets, EmailEnron) {
  csr g = load("email-Enron.mtx.gz");
  EXPECT_EQ(g.num_vertices, 36692u);
  EXPECT_EQ(g.origin.entries_read, 183831u);
  EXPECT_TRUE(g.origin.symmetric);
  expect_both_directions(g);
}

TEST(GraphDatasets, Chesapeake) {
  csr g = load("chesapeake.mtx");
  EXPECT_EQ(g.num_vertices, 39u);
  EXPECT_EQ(g.origin.entries_read, 170u);
  EXPECT_EQ(g.num_arcs(), 340u);
  expect_both_directions(g);
}
