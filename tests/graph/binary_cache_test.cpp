// The binary CSR cache: exact reload with provenance, refusal when its source changed, and
// refusal of damaged, truncated or foreign files.
#include <fcntl.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "deltasplit/graph/io.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::expect_input_error;

namespace {

const char* source_text =
    "%%MatrixMarket matrix coordinate pattern symmetric\n"
    "5 5 5\n"
    "2 1\n3 1\n3 3\n4 2\n2 1\n";

void set_mtime(const std::string& path, long seconds) {
  timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

struct cached {
  deltasplit_test::temp_dir dir;
  std::string source, cache;
  csr original;
  cached() {
    source = dir.write_gzip("g.mtx.gz", source_text);
    read_options o;
    o.weight_seed = 77;
    original = read_graph(source, o);
    cache = dir.file("g.dsg");
    write_graph(original, cache);
  }
};

}  // namespace

TEST(GraphBinaryCache, ReloadsGraphAndProvenance) {
  cached c;
  EXPECT_EQ(detect_format(c.cache), file_format::binary);
  csr g = read_graph(c.cache);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_EQ(g.num_vertices, c.original.num_vertices);
  EXPECT_EQ(g.offsets, c.original.offsets);
  EXPECT_EQ(g.targets, c.original.targets);
  EXPECT_EQ(g.int_weights, c.original.int_weights);
  const provenance &a = g.origin, &b = c.original.origin;
  EXPECT_EQ(a.format, "binary");
  EXPECT_EQ(a.path, c.cache);
  EXPECT_EQ(a.source_path, b.source_path);
  EXPECT_EQ(a.source_hash, b.source_hash);
  EXPECT_TRUE(a.one_based);
  EXPECT_TRUE(a.symmetric);
  EXPECT_TRUE(a.weights_generated);
  EXPECT_EQ(a.weight_seed, 77u);
  EXPECT_EQ(a.entries_read, 5u);
  EXPECT_EQ(a.self_loops_dropped, 1u);
  EXPECT_EQ(a.duplicates_merged, 2u);
  EXPECT_EQ(a.text_bytes, b.text_bytes);
}

TEST(GraphBinaryCache, ChangedSourceMakesItStale) {
  cached c;
  // Same size, different bytes, new mtime: only the content hash can tell.
  std::string changed = source_text;
  changed[changed.size() - 2] = '3';
  c.dir.write_gzip("g.mtx.gz", changed);
  set_mtime(c.source, 1000000);
  expect_input_error([&] { read_graph(c.cache); }, c.cache, 0, "stale cache");
  expect_input_error([&] { read_graph(c.cache); }, c.cache, 0, "rebuild");
  // Different size.
  c.dir.write_gzip("g.mtx.gz", std::string(source_text) + "% more\n");
  expect_input_error([&] { read_graph(c.cache); }, c.cache, 0, "stale cache");
}

TEST(GraphBinaryCache, TouchedOrDeletedSourceIsFine) {
  cached c;
  set_mtime(c.source, 2000000);  // same bytes, new time: the hash vouches for it
  EXPECT_EQ(read_graph(c.cache).targets, c.original.targets);
  std::remove(c.source.c_str());  // a cache outlives its source
  EXPECT_EQ(read_graph(c.cache).targets, c.original.targets);
}

TEST(GraphBinaryCache, DamageIsDetected) {
  cached c;
  const std::string bytes = deltasplit_test::read_bytes(c.cache);
  ASSERT_GT(bytes.size(), 200u);
  auto with = [&](const std::string& name, const std::string& content) { return c.dir.write(name, content); };

  std::string payload = bytes;
  payload[payload.size() - 5] = char(payload[payload.size() - 5] ^ 1);
  auto p = with("payload.dsg", payload);
  expect_input_error([&] { read_graph(p); }, p, 0, "corrupt cache payload (checksum mismatch)");

  std::string header = bytes;
  header[8 * 4] = char(header[8 * 4] ^ 1);  // inside num_vertices
  p = with("header.dsg", header);
  expect_input_error([&] { read_graph(p); }, p, 0, "corrupt cache header (checksum mismatch)");

  std::string version = bytes;
  version[8] = 9;
  p = with("version.dsg", version);
  expect_input_error([&] { read_graph(p); }, p, 0, "version 9");

  p = with("short.dsg", bytes.substr(0, bytes.size() - 4));
  expect_input_error([&] { read_graph(p); }, p, 0, "truncated cache");
  p = with("stub.dsg", bytes.substr(0, 40));
  expect_input_error([&] { read_graph(p); }, p, 0, "truncated cache");
  p = with("long.dsg", bytes + "xyz");
  expect_input_error([&] { read_graph(p); }, p, 0, "3 bytes past the payload");

  std::string foreign = bytes;
  foreign[1] = 'X';
  p = with("foreign.dsg", foreign);
  expect_input_error([&] { read_graph(p); }, p, 0, "not a deltasplit binary cache");
  p = with("empty.dsg", "");
  expect_input_error([&] { read_graph(p); }, p, 0, "empty file");
}
