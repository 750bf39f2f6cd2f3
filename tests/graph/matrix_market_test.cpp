// Matrix Market reader: fields, symmetry, comments, CRLF, gzip by content, cleaning counts,
// and every malformed input reported with its file and line.
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "deltasplit/graph/io.hpp"
#include "deltasplit/graph/weights.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::arc;
using deltasplit_test::arcs_of;
using deltasplit_test::expect_input_error;

TEST(GraphMatrixMarket, IntegerGeneralKeepsWeightsAndCleans) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx",
                     "%%MatrixMarket matrix coordinate integer general\n"
                     "% a comment\n"
                     "4 4 7\n"
                     "1 3 5\n"
                     "1 2 7\n"
                     "2 2 1\n"      // self-loop: dropped
                     "1 3 2\n"      // parallel arc: the lighter one (2) stays
                     "4 1 0\n"      // zero weight is legal
                     "1 3 9\n"
                     "3 4 4294967295\n");
  csr g = read_graph(p);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_EQ(g.num_vertices, 4u);
  EXPECT_EQ(g.kind, weight_kind::integer);
  std::vector<arc> want = {{0, 1, 7}, {0, 2, 2}, {2, 3, 4294967295.0}, {3, 0, 0}};
  EXPECT_EQ(arcs_of(g), want);
  EXPECT_EQ(g.origin.entries_read, 7u);
  EXPECT_EQ(g.origin.self_loops_dropped, 1u);
  EXPECT_EQ(g.origin.duplicates_merged, 2u);
  EXPECT_EQ(g.origin.format, "matrix-market");
  EXPECT_TRUE(g.origin.one_based);
  EXPECT_FALSE(g.origin.symmetric);
  EXPECT_FALSE(g.origin.weights_generated);
  EXPECT_EQ(g.external_id(0), 1u);
}

TEST(GraphMatrixMarket, RealWeightsAreFloats) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx",
                     "%%MatrixMarket matrix coordinate real general\n"
                     "3 3 4\n"
                     "1 2 0.1\n"
                     "2 3 2.5e3\n"
                     "3 1 -0\n"
                     "1 3 +7\n");
  csr g = read_graph(p);
  deltasplit_test::expect_clean_csr(g);
  ASSERT_EQ(g.kind, weight_kind::real);
  ASSERT_TRUE(g.wide()) << "Matrix Market real is double precision";
  std::vector<arc> want = {{0, 1, 0.1}, {0, 2, 7}, {1, 2, 2500}, {2, 0, 0}};
  EXPECT_EQ(arcs_of(g), want);
  EXPECT_FALSE(std::signbit(g.float64_weights.back())) << "-0 is stored as +0";
}

TEST(GraphMatrixMarket, PatternGetsGeneratedWeights) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n3 1\n");
  read_options o;
  o.weight_seed = 42;
  o.weight_min = 10;
  o.weight_max = 20;
  csr g = read_graph(p, o);
  deltasplit_test::expect_clean_csr(g);
  ASSERT_EQ(g.kind, weight_kind::integer);
  EXPECT_TRUE(g.origin.weights_generated);
  EXPECT_EQ(g.origin.weight_seed, 42u);
  EXPECT_EQ(g.origin.weight_min, 10u);
  EXPECT_EQ(g.origin.weight_max, 20u);
  for (const arc& a : arcs_of(g)) {
    EXPECT_EQ(a.w, edge_weight(42, vertex_t(a.u), vertex_t(a.v), 10, 20));
    EXPECT_GE(a.w, 10);
    EXPECT_LE(a.w, 20);
  }
}

TEST(GraphMatrixMarket, ForcedWeightsReplaceTheFileOnes) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n");
  read_options o;
  o.force_generated_weights = true;
  o.weight_seed = 3;
  csr g = read_graph(p, o);
  ASSERT_EQ(g.kind, weight_kind::integer);
  EXPECT_EQ(g.int_weights.at(0), edge_weight(3, 0, 1, 0, 1000));
  EXPECT_TRUE(g.origin.weights_generated);
}

TEST(GraphMatrixMarket, SymmetricExpandsBothDirectionsWithoutDoublingTheDiagonal) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx",
                     "%%MatrixMarket matrix coordinate integer symmetric\n"
                     "3 3 4\n"
                     "2 1 5\n"
                     "3 1 6\n"
                     "3 3 1\n"
                     "3 2 7\n");
  csr g = read_graph(p);
  deltasplit_test::expect_clean_csr(g);
  std::vector<arc> want = {{0, 1, 5}, {0, 2, 6}, {1, 0, 5}, {1, 2, 7}, {2, 0, 6}, {2, 1, 7}};
  EXPECT_EQ(arcs_of(g), want);
  EXPECT_TRUE(g.origin.symmetric);
  EXPECT_EQ(g.origin.self_loops_dropped, 1u);
  EXPECT_EQ(g.origin.duplicates_merged, 0u);
}

TEST(GraphMatrixMarket, SymmetricPatternWeightsAgreeInBothDirections) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n2 1\n3 1\n4 2\n");
  csr g = read_graph(p);
  deltasplit_test::expect_clean_csr(g);
  ASSERT_EQ(g.num_arcs(), 6u);
  for (const arc& a : arcs_of(g)) {
    bool found = false;
    for (const arc& b : arcs_of(g))
      if (b.u == a.v && b.v == a.u) found = (b.w == a.w);
    EXPECT_TRUE(found) << a;
  }
}

TEST(GraphMatrixMarket, BannerCaseCommentsBlankLinesAndCrlf) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("g.mtx",
                     "%%matrixmarket MATRIX Coordinate Integer GENERAL\r\n"
                     "%\r\n"
                     "\r\n"
                     "% comment before the size line\r\n"
                     "  3 3 2  \r\n"
                     "% comment between entries\r\n"
                     "\r\n"
                     "1\t2\t4\r\n"
                     "   \r\n"
                     "2 3 8");  // no final newline
  csr g = read_graph(p);
  std::vector<arc> want = {{0, 1, 4}, {1, 2, 8}};
  EXPECT_EQ(arcs_of(g), want);
}

TEST(GraphMatrixMarket, GzipIsDetectedByContentNotName) {
  deltasplit_test::temp_dir dir;
  std::string text = "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 3\n";
  auto plain_name = dir.write_gzip("graph.mtx", text);  // gzip bytes behind a plain name
  csr g = read_graph(plain_name);
  EXPECT_EQ(arcs_of(g), (std::vector<arc>{{0, 1, 3}}));
  EXPECT_EQ(detect_format(plain_name), file_format::matrix_market);
  auto odd_name = dir.write_gzip("graph.data", text);  // no useful extension at all
  EXPECT_EQ(arcs_of(read_graph(odd_name)), (std::vector<arc>{{0, 1, 3}}));
}

TEST(GraphMatrixMarket, EmptyGraphsAreValid) {
  deltasplit_test::temp_dir dir;
  csr g = read_graph(dir.write("a.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 0\n"));
  deltasplit_test::expect_clean_csr(g);
  EXPECT_EQ(g.num_vertices, 5u);
  EXPECT_EQ(g.num_arcs(), 0u);
  csr z = read_graph(dir.write("b.mtx", "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n"));
  deltasplit_test::expect_clean_csr(z);
  EXPECT_EQ(z.num_vertices, 0u);
}

// Many entries, tiny blocks and several threads: the chunked parallel parse must give exactly
// the sequential result and report errors at the right absolute line.
TEST(GraphMatrixMarket, ParallelChunksMatchSequentialParse) {
  deltasplit_test::temp_dir dir;
  const int n = 5000, m = 60000;
  std::string text = "%%MatrixMarket matrix coordinate integer general\n% header\n" + std::to_string(n) + " " +
                     std::to_string(n) + " " + std::to_string(m) + "\n";
  std::uint64_t x = 7;
  for (int i = 0; i < m; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    text += std::to_string(1 + (x >> 33) % n) + " " + std::to_string(1 + (x >> 13) % n) + " " +
            std::to_string((x >> 40) % 1000) + (i % 7 == 0 ? "\r\n" : "\n");
    if (i % 1000 == 0) text += "% comment\n";
  }
  auto p = dir.write("big.mtx", text);
  read_options one;
  one.threads = 1;
  read_options many;
  many.threads = 4;
  many.block_bytes = 64 << 10;
  csr a = read_graph(p, one), b = read_graph(p, many);
  deltasplit_test::expect_clean_csr(b);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.int_weights, b.int_weights);
  EXPECT_EQ(a.origin.duplicates_merged, b.origin.duplicates_merged);
  EXPECT_EQ(a.origin.self_loops_dropped, b.origin.self_loops_dropped);
  EXPECT_EQ(b.origin.entries_read, std::uint64_t(m));

  // A bad token far into the file, behind several blocks and chunks.
  std::size_t at = text.size() * 3 / 4;
  at = text.find('\n', at) + 1;
  std::uint64_t line = 1 + std::count(text.begin(), text.begin() + at, '\n');
  std::string broken = text.substr(0, at) + "12 x7 3\n" + text.substr(at);
  auto q = dir.write("broken.mtx", broken);
  expect_input_error([&] { read_graph(q, many); }, q, line, "unparsable column index 'x7'");
  expect_input_error([&] { read_graph(q, one); }, q, line, "unparsable column index 'x7'");
}

// Blocks far smaller than a line: headers and entries straddle block boundaries, and the
// gzip read-ahead thread hands over hundreds of blocks.
TEST(GraphMatrixMarket, TinyBlocksAndLinesLongerThanABlock) {
  deltasplit_test::temp_dir dir;
  std::string text = "%%MatrixMarket matrix coordinate real general\n";
  for (int i = 0; i < 20; ++i) text += "% " + std::string(std::size_t(i * 7), 'x') + "\n";
  text += "30 30 40\n";
  for (int i = 0; i < 40; ++i)
    text += std::to_string(1 + i % 30) + "   " + std::to_string(1 + (i * 7 + 3) % 30) + "  " + std::to_string(i) + ".125\r\n";
  read_options normal, tiny;
  tiny.block_bytes = 5;
  tiny.threads = 3;
  auto plain = dir.write("p.mtx", text);
  auto gz = dir.write_gzip("g.mtx.gz", text);
  csr want = read_graph(plain, normal);
  ASSERT_EQ(want.origin.entries_read, 40u);
  ASSERT_GT(want.num_arcs(), 20u);
  for (const std::string& p : {plain, gz}) {
    csr got = read_graph(p, tiny);
    EXPECT_EQ(got.targets, want.targets);
    EXPECT_EQ(got.float64_weights, want.float64_weights);
  }
  auto bad = dir.write_gzip("bad.mtx.gz", text + "1 2 3\n");
  expect_input_error([&] { read_graph(bad, tiny); }, bad, 63, "more entries than the 40 declared on line 22");
}

namespace {
const char* banner = "%%MatrixMarket matrix coordinate integer general\n";
}

TEST(GraphMatrixMarket, BadBannersAreRejected) {
  deltasplit_test::temp_dir dir;
  struct bad {
    std::string text, fragment;
  };
  const bad cases[] = {
      {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "array"},
      {"%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n", "complex"},
      {"%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 2 1\n", "hermitian"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n", "skew-symmetric"},
      {"%%MatrixMarket vector coordinate real general\n2 2 1\n1 2 1\n", "object"},
      {"%%MatrixMarket matrix coordinate real\n2 2 1\n1 2 1\n", "incomplete"},
      {"%%MatrixMarket matrix coordinate real general extra\n2 2 1\n1 2 1\n", "unexpected token 'extra'"},
      {"%%MatrixMarket matrix coordinate quaternion general\n2 2 1\n1 2 1\n", "field"},
      {"%%MatrixMarket matrix coordinate real diagonal\n2 2 1\n1 2 1\n", "symmetry"},
  };
  int i = 0;
  for (const bad& c : cases) {
    auto p = dir.write("b" + std::to_string(i++) + ".mtx", c.text);
    expect_input_error([&] { read_graph(p); }, p, 1, c.fragment);
  }
  // No banner at all: read as Matrix Market because of the name.
  auto p = dir.write("nobanner.mtx", "% just a comment\n2 2 1\n1 2 1\n");
  expect_input_error([&] { read_graph(p); }, p, 1, "missing Matrix Market banner");
}

TEST(GraphMatrixMarket, BadSizeLinesAreRejected) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("a.mtx", std::string(banner) + "% only comments\n\n");
  expect_input_error([&] { read_graph(p); }, p, 3, "missing size line");
  p = dir.write("b.mtx", std::string(banner) + "%\n3 4 1\n1 2 3\n");
  expect_input_error([&] { read_graph(p); }, p, 3, "non-square");
  p = dir.write("c.mtx", std::string(banner) + "3 3\n1 2 3\n");
  expect_input_error([&] { read_graph(p); }, p, 2, "bad size line");
  p = dir.write("d.mtx", std::string(banner) + "3 3 -1\n");
  expect_input_error([&] { read_graph(p); }, p, 2, "bad size line");
  p = dir.write("e.mtx", std::string(banner) + "3 3 1 9\n1 2 3\n");
  expect_input_error([&] { read_graph(p); }, p, 2, "unexpected token '9'");
  p = dir.write("f.mtx", std::string(banner) + "4294967296 4294967296 0\n");
  expect_input_error([&] { read_graph(p); }, p, 2, "exceed the limit of 4294967295");
  p = dir.write("g.mtx", std::string(banner) + "99999999999999999999999 2 0\n");
  expect_input_error([&] { read_graph(p); }, p, 2, "bad size line");
}

TEST(GraphMatrixMarket, TruncatedAndExcessEntries) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("t.mtx", std::string(banner) + "3 3 3\n1 2 1\n2 3 1\n% trailing comment\n");
  expect_input_error([&] { read_graph(p); }, p, 5, "truncated file: 3 entries declared on line 2, 2 found");
  p = dir.write("x.mtx", std::string(banner) + "3 3 2\n1 2 1\n% c\n2 3 1\n3 1 1\n1 3 1\n");
  expect_input_error([&] { read_graph(p); }, p, 6, "more entries than the 2 declared on line 2");
  // A lying header that claims billions of entries must neither allocate for them nor hang.
  p = dir.write("lie.mtx", std::string(banner) + "3 3 18000000000000000000\n1 2 1\n");
  expect_input_error([&] { read_graph(p); }, p, 3, "18000000000000000000 entries declared");
}

TEST(GraphMatrixMarket, BadEntriesAreRejectedWithTheirLine) {
  deltasplit_test::temp_dir dir;
  struct bad {
    std::string field, entry, fragment;
  };
  const bad cases[] = {
      {"integer", "0 2 1", "vertex id 0"},
      {"integer", "1 0 1", "vertex id 0"},
      {"integer", "4 2 1", "vertex id 4 out of range 1..3"},
      {"integer", "1 4 1", "out of range"},
      {"integer", "-1 2 1", "unparsable row index '-1'"},
      {"integer", "1 2.5 1", "unparsable column index"},
      {"integer", "1 2", "missing value"},
      {"integer", "1", "one token"},
      {"integer", "1 2 -3", "negative weight"},
      {"integer", "1 2 1.5", "unparsable integer weight"},
      {"integer", "1 2 4294967296", "does not fit 32 bits"},
      {"integer", "1 2 99999999999999999999999", "does not fit 32 bits"},
      {"integer", "1 2 3 4", "unexpected token '4'"},
      {"integer", "1 2 abc", "unparsable integer weight 'abc'"},
      {"real", "1 2 -0.5", "negative weight"},
      {"real", "1 2 nan", "NaN weight"},
      {"real", "1 2 inf", "infinite weight"},
      {"real", "1 2 -inf", "infinite weight"},
      {"real", "1 2 1e400", "outside the range of a double"},
      {"real", "1 2 1.2.3", "unparsable weight"},
      {"real", "1 2 0x10", "unparsable weight"},
      {"pattern", "1 2 5", "unexpected token '5'"},
  };
  int i = 0;
  for (const bad& c : cases) {
    std::string w = c.field == "pattern" ? "" : " 1";
    auto p = dir.write("e" + std::to_string(i++) + ".mtx", "%%MatrixMarket matrix coordinate " + c.field +
                                                                " general\n%\n3 3 3\n2 3" + w + "\n\n" + c.entry +
                                                                "\n1 3" + w + "\n");
    SCOPED_TRACE(c.entry);
    expect_input_error([&] { read_graph(p); }, p, 6, c.fragment);
  }
}

TEST(GraphMatrixMarket, EmptyAndCorruptFiles) {
  deltasplit_test::temp_dir dir;
  auto p = dir.write("empty.mtx", "");
  expect_input_error([&] { read_graph(p); }, p, 0, "empty file");
  // A gzip stream cut short, and one with a damaged body.
  std::string gz = deltasplit_test::read_bytes(dir.write_gzip(
      "ok.mtx.gz", std::string(banner) + "3 3 2\n1 2 1\n2 3 1\n" + std::string(2000, '%') + "\n"));
  auto cut = dir.write("cut.mtx.gz", gz.substr(0, gz.size() / 2));
  expect_input_error([&] { read_graph(cut); }, cut, 0, "truncated gzip");
  std::string damaged = gz;
  for (std::size_t i = 12; i < damaged.size() - 8; i += 3) damaged[i] = char(damaged[i] ^ 0x5a);
  auto bad = dir.write("bad.mtx.gz", damaged);
  try {
    read_graph(bad);
    ADD_FAILURE() << "damaged gzip accepted";
  } catch (const input_error& e) {
    EXPECT_EQ(e.file(), bad);
    EXPECT_NE(std::string(e.what()).find("gzip"), std::string::npos) << e.what();
  }
  auto trailing = dir.write("trail.mtx.gz", gz + "garbage");
  expect_input_error([&] { read_graph(trailing); }, trailing, 0, "after the end of the compressed stream");
  auto concatenated = dir.write("cat.mtx.gz", deltasplit_test::read_bytes(dir.write_gzip("a", std::string(banner) + "3 3 2\n")) +
                                                   deltasplit_test::read_bytes(dir.write_gzip("b", "1 2 1\n2 3 1\n")));
  EXPECT_EQ(read_graph(concatenated).num_arcs(), 2u) << "concatenated gzip members are one stream";
  auto missing = dir.file("missing.mtx");
  expect_input_error([&] { read_graph(missing); }, missing, 0, "cannot open");
}
