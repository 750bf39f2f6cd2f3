// SNAP-style edge lists: 0-based ids, '#' comments, optional weight column (integer, or real as
// soon as one weight has a fraction), vertex count from the largest id or the Nodes comment.
#include <string>

#include <gtest/gtest.h>

#include "deltasplit/graph/io.hpp"
#include "deltasplit/graph/weights.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::arc;
using deltasplit_test::arcs_of;
using deltasplit_test::expect_input_error;

TEST(GraphEdgeList, UnweightedSnapFile) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.txt",
                     "# Directed graph\n"
                     "# FromNodeId\tToNodeId\n"
                     "0\t1\n"
                     "1\t2\r\n"
                     "\n"
                     "2\t2\n"
                     "# a comment in the middle\n"
                     "5\t0\n"
                     "0\t1\n");
  csr g = read_graph(p);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_EQ(g.num_vertices, 6u);  // largest id + 1
  EXPECT_FALSE(g.origin.one_based);
  EXPECT_EQ(g.origin.format, "edge-list");
  EXPECT_EQ(g.origin.entries_read, 5u);
  EXPECT_EQ(g.origin.self_loops_dropped, 1u);
  EXPECT_EQ(g.origin.duplicates_merged, 1u);
  EXPECT_TRUE(g.origin.weights_generated);
  ASSERT_EQ(g.num_arcs(), 3u);
  EXPECT_EQ(g.external_id(5), 5u);
  for (const arc& a : arcs_of(g)) EXPECT_EQ(a.w, edge_weight(1, vertex_t(a.u), vertex_t(a.v), 0, 1000));
}

TEST(GraphEdgeList, IntegerAndRealWeightColumns) {
  deltasplit_test::temp_dir dir;
  csr g = read_graph(dir.write("i.txt", "0 1 5\n1 0 2.0\n1 2 4294967295\n"));
  ASSERT_EQ(g.kind, weight_kind::integer);
  EXPECT_EQ(arcs_of(g), (std::vector<arc>{{0, 1, 5}, {1, 0, 2}, {1, 2, 4294967295.0}}));
  EXPECT_FALSE(g.origin.weights_generated);
  csr r = read_graph(dir.write("r.txt", "0 1 5\n1 0 0.25\n1 2 1e-3\n"));
  ASSERT_EQ(r.kind, weight_kind::real);
  EXPECT_TRUE(r.wide()) << "real weights are read as double";
  EXPECT_EQ(arcs_of(r), (std::vector<arc>{{0, 1, 5}, {1, 0, 0.25}, {1, 2, 1e-3}}));
  csr big = read_graph(dir.write("b.txt", "0 1 4294967296\n1 0 9007199254740991\n"));
  EXPECT_EQ(big.kind, weight_kind::integer) << "integers past 32 bits stay integers, 64-bit";
  ASSERT_TRUE(big.wide());
  EXPECT_EQ(big.uint64_weights, (std::vector<std::uint64_t>{4294967296ull, 9007199254740991ull}));
  csr past = read_graph(dir.write("p.txt", "0 1 9007199254740993\n"));
  EXPECT_EQ(past.kind, weight_kind::real) << "past 2^53 a double no longer holds every integer";
}

TEST(GraphEdgeList, NodesCommentKeepsIsolatedTailVertices) {
  deltasplit_test::temp_dir dir;
  csr g = read_graph(dir.write("g.edges", "# Nodes: 10 Edges: 1\n0 1\n"));
  EXPECT_EQ(g.num_vertices, 10u);
  csr empty = read_graph(dir.write("e.edges", "# nothing here\n"));
  EXPECT_EQ(empty.num_vertices, 0u);
  EXPECT_EQ(empty.num_arcs(), 0u);
}

TEST(GraphEdgeList, ParallelChunksMatchSequentialParse) {
  deltasplit_test::temp_dir dir;
  std::string text = "# Nodes: 3000\n";
  std::uint64_t x = 11;
  for (int i = 0; i < 40000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    text += std::to_string((x >> 33) % 3000) + "\t" + std::to_string((x >> 13) % 3000) + "\t" +
            std::to_string((x >> 45) % 100) + (i == 30000 ? ".5" : "") + "\n";
  }
  auto p = dir.write("big.txt", text);
  read_options one, many;
  one.threads = 1;
  many.threads = 3;
  many.block_bytes = 50000;
  csr a = read_graph(p, one), b = read_graph(p, many);
  deltasplit_test::expect_clean_csr(b);
  ASSERT_EQ(b.kind, weight_kind::real);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.float64_weights, b.float64_weights);
  // A line with a missing weight column far into the file.
  std::size_t at = text.find('\n', text.size() * 2 / 3) + 1;
  std::uint64_t line = 1 + std::count(text.begin(), text.begin() + at, '\n');
  auto q = dir.write("broken.txt", text.substr(0, at) + "7 8\n" + text.substr(at));
  expect_input_error([&] { read_graph(q, many); }, q, line, "2 columns where");
  expect_input_error([&] { read_graph(q, one); }, q, line, "2 columns where");
}

TEST(GraphEdgeList, MalformedInputsNameTheirLine) {
  deltasplit_test::temp_dir dir;
  const std::vector<deltasplit_test::bad_file> cases = {
      {"0 1\n# c\n2\n", 3, "one token"},
      {"0 1\n-1 2\n", 2, "unparsable vertex id '-1'"},
      {"0 1\n1 x\n", 2, "unparsable vertex id 'x'"},
      {"0 1 3\n1 2\n", 2, "2 columns where"},
      {"0 1\n1 2 3\n", 2, "3 columns where"},
      {"0 1 3\n1 2 -4\n", 2, "negative weight"},
      {"0 1 3\n1 2 nan\n", 2, "NaN weight"},
      {"0 1 3\n1 2 inf\n", 2, "infinite weight"},
      {"0 1 3\n1 2 w\n", 2, "unparsable weight"},
      {"0 1 3\n1 2 3 4\n", 2, "unexpected token '4'"},
      {"0 1\n0 4294967295\n", 2, "exceeds the limit of 4294967294"},
      {"0 1\n99999999999999999999 1\n", 2, "unparsable vertex id"},
      {"# Nodes: 4294967296 Edges: 1\n0 1\n", 1, "exceed the limit of 4294967295"},
  };
  deltasplit_test::expect_each_rejected(dir, cases, ".txt", [](const std::string& p) { read_graph(p); });
}
