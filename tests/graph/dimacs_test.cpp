// DIMACS shortest-path (.gr) reader: arcs, comments, arc count, and its malformed inputs.
#include <string>

#include <gtest/gtest.h>

#include "deltasplit/graph/io.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::arc;
using deltasplit_test::arcs_of;
using deltasplit_test::expect_input_error;

TEST(GraphDimacs, ReadsArcsAndComments) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.gr",
                     "c a comment\n"
                     "c\n"
                     "p sp 4 6\n"
                     "c arcs follow\n"
                     "a 1 2 10\r\n"
                     "a 2 1 10\n"
                     "\n"
                     "a 1 2 4\n"   // parallel: 4 wins
                     "a 3 3 1\n"   // self-loop
                     "a 4 1 0\n"
                     "c between arcs\n"
                     "a 2 4 4294967295\n");
  csr g = read_graph(p);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_EQ(g.num_vertices, 4u);
  std::vector<arc> want = {{0, 1, 4}, {1, 0, 10}, {1, 3, 4294967295.0}, {3, 0, 0}};
  EXPECT_EQ(arcs_of(g), want);
  EXPECT_EQ(g.origin.format, "dimacs");
  EXPECT_EQ(g.origin.entries_read, 6u);
  EXPECT_EQ(g.origin.self_loops_dropped, 1u);
  EXPECT_EQ(g.origin.duplicates_merged, 1u);
  EXPECT_TRUE(g.origin.one_based);
  EXPECT_FALSE(g.origin.weights_generated);
}

TEST(GraphDimacs, DetectedByContentAndGzip) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write_gzip("roads.txt", "c x\np sp 2 1\na 1 2 3\n");
  EXPECT_EQ(detect_format(p), file_format::dimacs);
  EXPECT_EQ(arcs_of(read_graph(p)), (std::vector<arc>{{0, 1, 3}}));
}

TEST(GraphDimacs, MalformedInputsNameTheirLine) {
  deltasplit_test::temp_dir dir;
  const std::vector<deltasplit_test::bad_file> cases = {
      {"c only comments\nc\n", 2, "missing problem line"},
      {"c x\na 1 2 3\np sp 2 1\n", 2, "arc line before the problem line"},
      {"x\n", 1, "unexpected line before the problem line"},
      {"p max 2 1\na 1 2 3\n", 1, "unsupported DIMACS problem 'max'"},
      {"p sp 2\n", 1, "bad problem line"},
      {"p sp 2 1 7\n", 1, "unexpected token '7'"},
      {"p sp 4294967296 0\n", 1, "exceed the limit of 4294967295"},
      {"p sp 3 2\na 1 2 3\n", 2, "truncated file: 2 arcs declared on line 1, 1 found"},
      {"p sp 3 1\na 1 2 3\nc\na 2 3 1\n", 4, "more arcs than the 1 declared on line 1"},
      {"p sp 3 2\na 1 2 3\np sp 3 2\n", 3, "second problem line"},
      {"p sp 3 2\na 1 2 3\ne 1 2\n", 3, "unknown line type 'e'"},
      {"p sp 3 2\na 1 2 3\nab 1 2 3\n", 3, "unknown line type 'ab'"},
      {"p sp 3 2\na 1 2 3\na 0 2 3\n", 3, "vertex id 0"},
      {"p sp 3 2\na 1 2 3\na 1 4 3\n", 3, "vertex id 4 out of range 1..3"},
      {"p sp 3 2\na 1 2 3\na 1 2 -3\n", 3, "negative weight"},
      {"p sp 3 2\na 1 2 3\na 1 2 2.5\n", 3, "unparsable integer weight"},
      {"p sp 3 2\na 1 2 3\na 1 2 4294967296\n", 3, "does not fit 32 bits"},
      {"p sp 3 2\na 1 2 3\na 1 2\n", 3, "incomplete arc line"},
      {"p sp 3 2\na 1 2 3\na 1 q 2\n", 3, "unparsable vertex id 'q'"},
      {"p sp 3 2\na 1 2 3\na 1 2 3 4\n", 3, "unexpected token '4'"},
  };
  deltasplit_test::expect_each_rejected(dir, cases, ".gr", [](const std::string& p) { read_graph(p); });
}
