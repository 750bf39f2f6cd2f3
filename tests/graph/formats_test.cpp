// Format detection (content first, then name) and the format names used on the command line.
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "deltasplit/graph/io.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;

TEST(GraphFormats, DetectionByContentThenName) {
  deltasplit_test::temp_dir dir;
  // Content wins over a misleading name.
  EXPECT_EQ(detect_format(dir.write("a.gr", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n")),
            file_format::matrix_market);
  EXPECT_EQ(detect_format(dir.write("b.mtx", "c comment\n\np sp 1 0\n")), file_format::dimacs);
  EXPECT_EQ(detect_format(dir.write_gzip("c.bin", "c x\np sp 1 0\n")), file_format::dimacs);
  // Without telling content, the extension decides (past a .gz).
  EXPECT_EQ(detect_format(dir.write("d.mtx", "1 2\n")), file_format::matrix_market);
  EXPECT_EQ(detect_format(dir.write_gzip("e.GR.gz", "a 1 2 3\n")), file_format::dimacs);
  EXPECT_EQ(detect_format(dir.write("f.edges", "0 1\n")), file_format::edge_list);
  // Plain numbers or '#' comments with no known name: an edge list.
  EXPECT_EQ(detect_format(dir.write("g", "# SNAP\n0 1\n")), file_format::edge_list);
  EXPECT_EQ(detect_format(dir.write("h.dat", "3 4\n")), file_format::edge_list);
  auto p = dir.write("i.dat", "hello\n");
  deltasplit_test::expect_input_error([&] { detect_format(p); }, p, 0, "cannot tell the graph format");
  auto e = dir.write("j.mtx", "");
  deltasplit_test::expect_input_error([&] { detect_format(e); }, e, 0, "empty file");
  auto folder = dir.file("");
  deltasplit_test::expect_input_error([&] { read_graph(folder); }, folder, 0, "not a regular file");
}

TEST(GraphFormats, ExplicitFormatOverridesDetection) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx", "0 1\n1 2\n");
  read_options o;
  o.format = file_format::edge_list;
  EXPECT_EQ(read_graph(p, o).num_arcs(), 2u);
}

TEST(GraphFormats, Names) {
  for (file_format f : {file_format::matrix_market, file_format::dimacs, file_format::edge_list, file_format::binary})
    EXPECT_EQ(format_from_name(format_name(f)), f);
  EXPECT_EQ(format_from_name("mtx"), file_format::matrix_market);
  EXPECT_EQ(format_from_name("gr"), file_format::dimacs);
  EXPECT_EQ(format_from_name("edges"), file_format::edge_list);
  EXPECT_EQ(format_from_name("bin"), file_format::binary);
  EXPECT_EQ(format_from_name("auto"), file_format::automatic);
  EXPECT_THROW(format_from_name("xml"), std::invalid_argument);
}

TEST(GraphFormats, BadWeightRangeIsRefused) {
  deltasplit_test::temp_dir dir;
  read_options o;
  o.weight_min = 5;
  o.weight_max = 4;
  EXPECT_THROW(read_graph(dir.write("g.txt", "0 1\n"), o), std::invalid_argument);
}
