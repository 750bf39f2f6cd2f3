// write_graph: every format round-trips the graph exactly (an undirected graph as a symmetric
// Matrix Market file), gzip optional, temp file + rename,
// and no existing file (nor the input) is replaced without overwrite; write_graph_to streams the
// same bytes to a descriptor.
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/datasets.hpp"
#include "deltasplit/graph/from_arrays.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;

namespace {

void expect_same_graph(const csr& a, const csr& b) {
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.offsets, b.offsets);
  EXPECT_EQ(a.targets, b.targets);
  // Text formats read real weights back as double: a float weight comes back as the same value.
  std::vector<double> wa, wb;
  for (edge_t e = 0; e < a.num_arcs(); ++e) wa.push_back(a.weight(e));
  for (edge_t e = 0; e < b.num_arcs(); ++e) wb.push_back(b.weight(e));
  EXPECT_EQ(wa, wb);
}

// A small graph with real weights that need every digit of a float, isolated tail vertices, and
// a zero weight.
csr real_graph() {
  rmat_params p;
  p.scale = 8;
  p.edge_factor = 4;
  p.seed = 9;
  csr g = generate_rmat(p);
  g.kind = weight_kind::real;
  g.real_weights.resize(g.num_arcs());
  for (std::size_t i = 0; i < g.real_weights.size(); ++i)
    g.real_weights[i] = static_cast<float>(g.int_weights[i]) / 7.0f + (i % 5 == 0 ? 1e-7f : 0.0f);
  g.real_weights[0] = 0;
  g.int_weights.clear();
  return g;
}

bool exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

}  // namespace

TEST(GraphWriters, RoundTripEveryFormatIntegerWeights) {
  deltasplit_test::temp_dir dir;
  grid_params gp;
  gp.rows = 20;
  gp.cols = 30;
  gp.keep_fraction = 0.7;
  csr g = generate_grid(gp);
  for (const char* name : {"g.mtx", "g.mtx.gz", "g.gr", "g.gr.gz", "g.txt", "g.edges.gz", "g.dsg"}) {
    SCOPED_TRACE(name);
    std::string p = dir.file(name);
    write_graph(g, p);
    csr back = read_graph(p);
    expect_same_graph(g, back);
    // A text file now carries the weights; a cache keeps the provenance as it was.
    EXPECT_EQ(back.origin.weights_generated, std::string(name) == "g.dsg");
  }
}

TEST(GraphWriters, RoundTripRealWeightsExactly) {
  deltasplit_test::temp_dir dir;
  csr g = real_graph();
  for (const char* name : {"r.mtx", "r.txt.gz", "r.dsg"}) {
    SCOPED_TRACE(name);
    write_graph(g, dir.file(name));
    expect_same_graph(g, read_graph(dir.file(name)));
  }
}

TEST(GraphWriters, RoundTripRealDataset) {
  deltasplit_test::temp_dir dir;
  csr g = read_graph(deltasplit_test::dataset_path("chicago-regional.mtx.gz"));
  write_graph(g, dir.file("c.mtx"));
  expect_same_graph(g, read_graph(dir.file("c.mtx")));
  write_graph(g, dir.file("c.txt"));
  expect_same_graph(g, read_graph(dir.file("c.txt")));
}

TEST(GraphWriters, ExplicitFormatAndGzipOption) {
  deltasplit_test::temp_dir dir;
  csr g = generate_grid({});
  write_options o;
  o.format = file_format::dimacs;
  o.gzip = true;
  std::string p = dir.file("roads.out");
  write_graph(g, p, o);
  std::string bytes = deltasplit_test::read_bytes(p);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
  EXPECT_EQ(detect_format(p), file_format::dimacs);
  expect_same_graph(g, read_graph(p));
}

TEST(GraphWriters, RefusalsLeaveNothingBehind) {
  deltasplit_test::temp_dir dir;
  csr g = generate_grid({});
  // DIMACS cannot hold real weights.
  csr r = real_graph();
  EXPECT_THROW(write_graph(r, dir.file("r.gr")), std::invalid_argument);
  EXPECT_FALSE(exists(dir.file("r.gr")));
  // Unknown extension, and compressed caches.
  EXPECT_THROW(write_graph(g, dir.file("g.xyz")), std::invalid_argument);
  EXPECT_THROW(write_graph(g, dir.file("g.dsg.gz")), std::invalid_argument);
  // An existing file is kept unless overwrite is set.
  std::string p = dir.write("keep.mtx", "precious");
  EXPECT_THROW(write_graph(g, p), std::invalid_argument);
  EXPECT_EQ(deltasplit_test::read_bytes(p), "precious");
  write_options o;
  o.overwrite = true;
  write_graph(g, p, o);
  expect_same_graph(g, read_graph(p));
  // The input itself, even under another name.
  csr in = read_graph(p);
  std::string alias = dir.path_of_link("alias.mtx", p);
  try {
    write_graph(in, alias);
    ADD_FAILURE() << "overwrote the input";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("input file itself"), std::string::npos) << e.what();
  }
  // No temporary files survive the refusals or the successful writes.
  EXPECT_EQ(dir.count_files_containing(".tmp."), 0u);
}

TEST(GraphWriters, MalformedGraphIsRefused) {
  deltasplit_test::temp_dir dir;
  csr g = generate_grid({});
  g.int_weights.pop_back();
  EXPECT_THROW(write_graph(g, dir.file("g.mtx")), std::invalid_argument);
}

// write_graph_to: the same bytes as write_graph, through a pipe read on another thread (as a
// downstream reader of `deltasplit convert IN - --format F` sees them), in every format and with
// gzip; the descriptor stays open; a stream needs its format named, and a failed write names it.
TEST(GraphWriters, StreamToADescriptor) {
  deltasplit_test::temp_dir dir;
  grid_params gp;
  gp.rows = 40, gp.cols = 50, gp.keep_fraction = 0.8;
  const csr g = generate_grid(gp);
  struct case_t { file_format format; bool gzip; const char* name; };
  for (const case_t& c : {case_t{file_format::matrix_market, false, "g.mtx"}, case_t{file_format::dimacs, false, "g.gr"},
                          case_t{file_format::edge_list, true, "g.edges.gz"}, case_t{file_format::binary, false, "g.dsg"}}) {
    SCOPED_TRACE(c.name);
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    std::string streamed;
    std::thread reader([&] {  // a pipe holds 64 KiB: the writer needs a reader as it goes
      char buf[4096];
      for (ssize_t got; (got = ::read(ends[0], buf, sizeof buf)) > 0;) streamed.append(buf, static_cast<std::size_t>(got));
    });
    write_options o;
    o.format = c.format;
    o.gzip = c.gzip;
    write_graph_to(g, ends[1], "the pipe", o);
    EXPECT_NE(::fcntl(ends[1], F_GETFD), -1) << "the descriptor stays open";
    ::close(ends[1]);
    reader.join();
    ::close(ends[0]);
    const std::string p = dir.file(c.name);
    write_graph(g, p);
    EXPECT_EQ(streamed, deltasplit_test::read_bytes(p)) << "the same bytes as the file";
    expect_same_graph(g, read_graph(dir.write(std::string("streamed.") + c.name, streamed)));
  }
  write_options automatic;
  EXPECT_THROW(write_graph_to(g, 1, "standard output", automatic), std::invalid_argument);
  write_options gr;
  gr.format = file_format::dimacs;
  EXPECT_THROW(write_graph_to(real_graph(), 1, "standard output", gr), std::invalid_argument);
  EXPECT_THROW(write_graph_to(g, -1, "nothing", gr), std::runtime_error);
  const int read_only = ::open(dir.write("ro.txt", "x").c_str(), O_RDONLY);
  ASSERT_GE(read_only, 0);
  try {
    write_graph_to(g, read_only, "a read-only descriptor", gr);
    ADD_FAILURE() << "wrote to a read-only descriptor";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("a read-only descriptor: write failed"), std::string::npos) << e.what();
  }
  ::close(read_only);
  EXPECT_EQ(dir.count_files_containing(".tmp."), 0u);
}

namespace {

// The banner and size lines of a Matrix Market file.
std::pair<std::string, std::string> mm_head(const std::string& path) {
  const std::string bytes = deltasplit_test::read_bytes(path);
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < bytes.size() && lines.size() < 3;) {
    const std::size_t end = bytes.find('\n', at);
    lines.push_back(bytes.substr(at, end - at));
    at = end + 1;
  }
  return {lines.at(0), lines.at(2)};
}

}  // namespace

// An undirected graph (every undirected generator, arrays built as symmetric, a symmetric file read
// or converted through the binary cache) is written as one triangle marked symmetric, and reads
// back as the same arcs, marked undirected again; a directed graph, and one marked undirected whose
// arcs no longer pair up, are written general, arc by arc.
TEST(GraphWriters, UndirectedGraphsAreWrittenSymmetric) {
  deltasplit_test::temp_dir dir;
  auto round_trip = [&](const csr& g, const std::string& name, bool symmetric) {
    SCOPED_TRACE(name);
    const std::string p = dir.file(name);
    write_graph(g, p);
    const csr back = read_graph(p);
    expect_same_graph(g, back);
    EXPECT_EQ(back.origin.symmetric, symmetric);
    const std::string kind = g.kind == weight_kind::real ? "real" : "integer";
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) return back;
    const auto [banner, size] = mm_head(p);
    EXPECT_EQ(banner, "%%MatrixMarket matrix coordinate " + kind + (symmetric ? " symmetric" : " general"));
    EXPECT_EQ(size, std::to_string(g.num_vertices) + " " + std::to_string(g.num_vertices) + " " +
                        std::to_string(symmetric ? g.num_arcs() / 2 : g.num_arcs()));
    return back;
  };
  rmat_params rp;
  rp.scale = 9;
  rp.edge_factor = 8;
  rp.undirected = true;
  const csr rmat = generate_rmat(rp);
  ASSERT_TRUE(rmat.origin.symmetric);
  round_trip(rmat, "rmat.mtx", true);
  round_trip(rmat, "rmat.mtx.gz", true);
  grid_params gp;
  gp.rows = 7, gp.cols = 9, gp.keep_fraction = 0.6;
  const csr grid = generate_grid(gp);
  const csr grid_back = round_trip(grid, "grid.mtx", true);
  round_trip(grid_back, "grid_again.mtx", true);

  // Arrays built as symmetric, real weights, parallel edges (the lightest kept in both directions).
  std::vector<vertex_t> src{0, 1, 2, 1, 3}, dst{1, 2, 0, 0, 3};
  std::vector<float> w{0.5f, 0.25f, 1e-7f, 0.125f, 2.0f};
  const csr arrays = clean_csr_from_arcs(4, {src.data(), src.size()}, {dst.data(), dst.size()}, {w.data(), w.size()}, true);
  ASSERT_TRUE(arrays.origin.symmetric);
  round_trip(arrays, "arrays.mtx", true);

  // A symmetric file through the binary cache (convert's path) and back to Matrix Market.
  const std::string cache = dir.file("rmat.dsg");
  write_graph(rmat, cache);
  const csr cached = read_graph(cache);
  ASSERT_TRUE(cached.origin.symmetric);
  round_trip(cached, "from_cache.mtx", true);

  rp.undirected = false;
  round_trip(generate_rmat(rp), "directed.mtx", false);
  csr changed = grid;
  changed.int_weights[0] += 1;  // one direction of one edge: no longer undirected
  round_trip(changed, "changed.mtx", false);
}
