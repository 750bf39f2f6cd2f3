// The `info` summary computed on a small graph whose statistics are known by hand.
#include <sstream>

#include <gtest/gtest.h>

#include "deltasplit/graph/io.hpp"
#include "deltasplit/graph/summary.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;

TEST(GraphSummary, CountsDegreesWeights) {
  deltasplit_test::temp_dir dir;
  // Vertex 5 is isolated, 4 is a sink, 1 has out-degree 3.
  auto p = dir.write("g.mtx",
                     "%%MatrixMarket matrix coordinate integer general\n"
                     "5 5 6\n1 2 0\n1 3 4\n1 4 8\n2 1 2\n2 2 9\n1 2 6\n");
  graph_summary s = summarize(read_graph(p));
  EXPECT_EQ(s.vertices, 5u);
  EXPECT_EQ(s.arcs, 4u);
  EXPECT_EQ(s.min_degree, 0u);
  EXPECT_EQ(s.max_degree, 3u);
  EXPECT_EQ(s.max_degree_vertex, 0u);
  EXPECT_DOUBLE_EQ(s.mean_degree, 0.8);
  EXPECT_EQ(s.sinks, 3u);
  EXPECT_EQ(s.isolated_vertices, 1u);
  EXPECT_EQ(s.degree_histogram, (std::vector<std::uint64_t>{3, 1, 0 + 1}));
  EXPECT_EQ(s.weight_min, 0);
  EXPECT_EQ(s.weight_max, 8);
  EXPECT_DOUBLE_EQ(s.weight_mean, 3.5);
  EXPECT_EQ(s.zero_weight_arcs, 1u);
  EXPECT_EQ(s.origin.self_loops_dropped, 1u);
  EXPECT_EQ(s.origin.duplicates_merged, 1u);
  std::ostringstream out;
  print_summary(out, s);
  EXPECT_NE(out.str().find("vertices: 5"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("self-loops dropped: 1"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("(vertex 1)"), std::string::npos) << "file numbering: " << out.str();
}

TEST(GraphSummary, EmptyGraph) {
  csr g;
  g.offsets = {0};
  graph_summary s = summarize(g);
  EXPECT_EQ(s.vertices, 0u);
  EXPECT_EQ(s.arcs, 0u);
  EXPECT_EQ(s.mean_degree, 0);
  EXPECT_EQ(s.weight_mean, 0);
}
