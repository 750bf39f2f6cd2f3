// Regression tests for what fuzzing the loaders found (fuzz/README.md): a cache whose recorded
// source is a FIFO or a device, files that declare more graph than the memory budget holds,
// graphs without arcs, caches whose payload no reader would produce, and round trips through an
// edge list that lost the weight kind. Also the memory checks of generation and the progress
// callbacks of reading, building, generating and writing.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/graph/memory.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::expect_input_error;

namespace {

// Runs read_graph(path) on another thread and gives it `seconds`: a loader that blocks or never
// ends fails the test instead of hanging the suite (the stuck process is ended).
void expect_refused_in_time(const std::string& path, const std::string& fragment, int seconds = 30) {
  auto done = std::async(std::launch::async, [path, fragment] {
    expect_input_error([&] { read_graph(path); }, path, 0, fragment);
  });
  if (done.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
    ADD_FAILURE() << "reading " << path << " did not end within " << seconds << " s";
    std::_Exit(1);
  }
  done.get();
}

// A small clean graph whose cache records `source` as its source file, with a modification time
// that cannot match, so that the loader consults the source's bytes.
std::string cache_recording(const deltasplit_test::temp_dir& dir, const std::string& source, std::uint64_t bytes) {
  csr g = generate_grid({3, 3, 1.0, 5, 0, 9});
  g.origin.source_path = source;
  g.origin.source_bytes = bytes;
  g.origin.source_mtime_ns = 1;
  std::string cache = dir.file("g.dsg");
  std::remove(cache.c_str());
  write_graph(g, cache);
  return cache;
}

}  // namespace

TEST(GraphLoaderLimits, CacheSourceThatIsAFifoOrDeviceIsRefusedNotRead) {
  deltasplit_test::temp_dir dir;
  // Before the fix, the stale-source check opened and hashed whatever the path named: a FIFO
  // blocked the open forever, /dev/zero never reached its end.
  std::string fifo = dir.file("source.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused_in_time(cache_recording(dir, fifo, 0), "no longer a regular file");
  expect_refused_in_time(cache_recording(dir, "/dev/zero", 0), "no longer a regular file");
}

TEST(GraphLoaderLimits, DeclaredSizesPastTheMemoryBudgetAreRefusedBeforeAllocating) {
  deltasplit_test::temp_dir dir;
  read_options o;
  o.memory_limit = std::uint64_t{1} << 30;
  // 18 bytes that declare a billion vertices: 24 GB of CSR offsets to build.
  auto gr = dir.write("billion.gr", "p sp 1000000000 0\n");
  ASSERT_EQ(deltasplit_test::read_bytes(gr).size(), 18u);
  expect_input_error([&] { read_graph(gr, o); }, gr, 1, "1000000000 vertices and 0 arcs needs");
  expect_input_error([&] { read_graph(gr, o); }, gr, 1, "1.0 GiB (1073741824 bytes) is available");
  auto mtx = dir.write("billion.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n1000000000 1000000000 0\n");
  expect_input_error([&] { read_graph(mtx, o); }, mtx, 3, "needs 14.9 GiB (16000000016 bytes)");
  auto el = dir.write("billion.edges", "# Nodes: 1000000000\n0 1\n");
  expect_input_error([&] { read_graph(el, o); }, el, 1, "is available");
  // Within the budget, the same kind of file loads.
  auto small = dir.write("small.gr", "p sp 1000 0\n");
  EXPECT_EQ(read_graph(small, o).num_vertices, 1000u);
  // What the caller needs afterwards counts too: 1000 vertices at 2 MiB each do not fit 1 GiB.
  read_options later = o;
  later.later_bytes_per_vertex = std::uint64_t{2} << 20;
  expect_input_error([&] { read_graph(small, later); }, small, 1, "more memory to load and use");
}

TEST(GraphLoaderLimits, EntriesPastTheMemoryBudgetStopTheRead) {
  deltasplit_test::temp_dir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  auto p = dir.write("long.edges", text);
  read_options o;
  o.memory_limit = 256 << 10;  // 20000 entries need about 800 KB to build
  o.block_bytes = 4096;
  try {
    read_graph(p, o);
    ADD_FAILURE() << "no refusal";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("the entries read so far"), std::string::npos) << e.what();
    EXPECT_GT(e.line(), 0u);
    EXPECT_LT(e.line(), 20000u) << "refused before the whole file was read";
  }
  o.memory_limit = 0;  // the machine's memory: loads
  EXPECT_EQ(read_graph(p, o).num_arcs(), 20000u);
}

TEST(GraphLoaderLimits, CacheLargerThanTheBudgetIsRefusedBeforeItsArrays) {
  deltasplit_test::temp_dir dir;
  csr g = generate_grid({100, 100, 1.0, 1, 0, 9});
  std::string cache = dir.file("grid.dsg");
  write_graph(g, cache);
  read_options o;
  o.memory_limit = 100000;  // the grid's CSR needs 10001 * 8 + 39600 * 8 bytes
  expect_input_error([&] { read_graph(cache, o); }, cache, 0, "needs 0.0 GiB (396808 bytes)");
  o.memory_limit = 400000;
  EXPECT_EQ(read_graph(cache, o).targets, g.targets);
}

TEST(GraphLoaderLimits, GenerationPastTheBudgetIsRefusedWithBytes) {
  rmat_params p;
  p.scale = 12;
  p.edge_factor = 8;
  p.memory_limit = 100000;
  try {
    generate_rmat(p);
    ADD_FAILURE() << "no refusal";
  } catch (const memory_error& e) {
    // 32768 edges: 8 bytes each of edge lists; then, beside them, offsets, cursors and keys, or
    // once they are released two offset arrays, keys, targets and weights.
    const std::uint64_t lists = 32768 * 8;
    EXPECT_EQ(e.needed(), lists + std::max<std::uint64_t>(8 * 4097 + 8 * 4096 + 8 * 32768, 16 * 4097 + 16 * 32768 - lists));
    EXPECT_EQ(e.available(), 100000u);
    EXPECT_NE(std::string(e.what()).find("R-MAT graph of 2^12 vertices and 32768 edges needs"), std::string::npos);
  }
  p.memory_limit = 0;
  EXPECT_EQ(generate_rmat(p).num_vertices, 4096u);
  EXPECT_GT(available_memory(), 0u);
}

TEST(GraphLoaderLimits, AvailableMemoryFromMeminfo) {
  auto from = [](const std::string& text) {
    std::istringstream in(text);
    return available_memory_from_meminfo(in);
  };
  const std::string head = "MemTotal:       131072000 kB\nMemFree:         1000000 kB\n";
  EXPECT_EQ(from(head + "MemAvailable:   120000000 kB\nHugePages_Total:       0\n"), 120000000ull * 1024);
  // A MemAvailable of 0 is no reading (the H200 machine told a Python process so): MemTotal.
  EXPECT_EQ(from(head + "MemAvailable:          0 kB\n"), 131072000ull * 1024);
  // Lines without a unit before MemAvailable do not shift the fields of the lines after them.
  EXPECT_EQ(from("HugePages_Total:       0\nMemAvailable:   5 kB\n"), 5ull * 1024);
  EXPECT_EQ(from("MemFree: 7 kB\n"), 0u);  // neither: the caller asks sysconf
  EXPECT_EQ(from(""), 0u);
}

TEST(GraphLoaderLimits, GraphsWithoutArcsLoadInEveryFormat) {
  // UndefinedBehaviorSanitizer reported memcpy from a null pointer on these (empty weight
  // arrays); the fuzz replay under the sanitizers keeps them clean, this checks the results.
  deltasplit_test::temp_dir dir;
  std::vector<std::string> files = {
      dir.write("a.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 0\n"),
      dir.write("b.mtx", "%%MatrixMarket matrix coordinate integer general\n0 0 0\n"),
      dir.write("c.gr", "p sp 7 0\n"), dir.write("d.edges", "# Nodes: 3\n"),
      dir.write_gzip("e.mtx.gz", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 1 3.5\n")};
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    csr g = read_graph(f);
    deltasplit_test::expect_clean_csr(g);
    EXPECT_EQ(g.num_arcs(), 0u);
    for (const char* ext : {".dsg", ".mtx", ".edges", ".mtx.gz"}) {
      std::string out = f + ext;
      write_graph(g, out);
      csr back = read_graph(out);
      EXPECT_EQ(back.num_vertices, g.num_vertices) << out;
      EXPECT_EQ(back.kind, g.kind) << out;
      EXPECT_EQ(back.num_arcs(), 0u) << out;
    }
  }
}

TEST(GraphLoaderLimits, RealWeightsStayRealThroughAnEdgeList) {
  // Found by the round-trip target: an edge list written from a real-weighted graph whose weights
  // are all integral (or that has no arcs) read back with integer weights, and solvers then add
  // in integers where the original added in floats.
  deltasplit_test::temp_dir dir;
  auto p = dir.write("r.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3 4.0\n");
  csr g = read_graph(p);
  ASSERT_EQ(g.kind, weight_kind::real);
  write_graph(g, dir.file("r.edges"));
  csr back = read_graph(dir.file("r.edges"));
  EXPECT_EQ(back.kind, weight_kind::real);
  EXPECT_EQ(back.float64_weights, g.float64_weights);
  EXPECT_EQ(back.offsets, g.offsets);
  // A file without the comment keeps the documented rule: integral values are integers.
  EXPECT_EQ(read_graph(dir.write("i.edges", "0 1 1.0\n")).kind, weight_kind::integer);
}

TEST(GraphLoaderLimits, CachePayloadsNoReaderProducesAreRefused) {
  deltasplit_test::temp_dir dir;
  auto refused = [&](csr g, const std::string& name, const std::string& fragment) {
    std::string cache = dir.file(name);
    write_graph(g, cache);  // valid checksums: only the payload checks can tell
    expect_input_error([&] { read_graph(cache); }, cache, 0, fragment);
  };
  csr base = generate_grid({2, 2, 1.0, 1, 0, 9});  // 0-1, 0-2, 1-3, 2-3 both ways
  csr unsorted = base;
  std::swap(unsorted.targets[0], unsorted.targets[1]);
  refused(unsorted, "unsorted.dsg", "unsorted, repeated or a self-loop");
  csr loop = base;
  loop.targets[0] = 0;
  refused(loop, "loop.dsg", "unsorted, repeated or a self-loop");
  csr real = base;
  real.kind = weight_kind::real;
  real.real_weights.assign(real.num_arcs(), 1.0f);
  real.int_weights.clear();
  real.real_weights[3] = -0.0f;
  refused(real, "negative_zero.dsg", "a negative, NaN or infinite weight");
  real.real_weights[3] = std::numeric_limits<float>::infinity();
  refused(real, "infinite.dsg", "a negative, NaN or infinite weight");
  // Offsets that rise past the arcs and fall back: refused before any row is walked.
  csr offsets = base;
  offsets.offsets[1] = 100;
  std::string cache = dir.file("offsets.dsg");
  write_graph(offsets, cache);
  expect_input_error([&] { read_graph(cache); }, cache, 0, "corrupt cache payload (offsets)");
}

TEST(GraphLoaderLimits, ProgressIsReportedInOrderAndEnds) {
  deltasplit_test::temp_dir dir;
  std::string text = "p sp 5000 20000\n";
  for (int i = 0; i < 20000; ++i) text += "a " + std::to_string(i % 5000 + 1) + " " + std::to_string((i * 7) % 5000 + 1) + " 3\n";
  auto p = dir.write("g.gr", text);
  struct call {
    std::string stage;
    std::uint64_t done, total;
  };
  std::vector<call> calls;
  progress_fn record = [&](const char* stage, std::uint64_t done, std::uint64_t total) {
    calls.push_back({stage, done, total});
  };
  auto expect_stage = [&](const std::string& stage, std::uint64_t total, std::uint64_t min_calls = 2) {
    std::uint64_t last = 0, seen = 0;
    for (const call& c : calls) {
      if (c.stage != stage) continue;
      ++seen;
      EXPECT_EQ(c.total, total) << stage;
      EXPECT_GE(c.done, last) << stage;
      EXPECT_LE(c.done, c.total) << stage;
      last = c.done;
    }
    EXPECT_GE(seen, min_calls) << stage;
    EXPECT_EQ(last, total) << stage << " does not end at its total";
  };
  read_options o;
  o.block_bytes = 16 << 10;
  o.progress = record;
  csr g = read_graph(p, o);
  expect_stage("reading", text.size());
  expect_stage("building", 4);
  calls.clear();
  write_options w;
  w.progress = record;
  write_graph(g, dir.file("g.dsg"), w);
  expect_stage("writing", 8 + 19 * 8 + g.origin.source_path.size() + 8 * (5000 + 1) + 8 * g.num_arcs());
  calls.clear();
  write_graph(g, dir.file("g.mtx"), w);
  expect_stage("writing", g.num_arcs(), 1);
  calls.clear();
  rmat_params r;
  r.scale = 10;
  r.edge_factor = 4;
  r.progress = record;
  generate_rmat(r);
  expect_stage("building", 4);
  EXPECT_EQ(calls.front().stage, "generating");
  EXPECT_EQ(calls.front().done, 4096u);
}
