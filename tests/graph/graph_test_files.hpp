// Helpers for the graph-layer tests: a private temporary directory per test, text and gzip
// files written into it, and a check that an input_error names the right file and line.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <dirent.h>
#include <unistd.h>
#include <zlib.h>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/error.hpp"

namespace deltasplit_test {

class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
                          "/deltasplit-graph-XXXXXX";
    path_.assign(pattern);
    if (!::mkdtemp(path_.data())) throw std::runtime_error("mkdtemp failed");
  }
  ~temp_dir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::string& content) const {
    std::string p = file(name);
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  // A symbolic link `name` to `target`; returns its path.
  std::string path_of_link(const std::string& name, const std::string& target) const {
    std::string p = file(name);
    if (::symlink(target.c_str(), p.c_str()) != 0) throw std::runtime_error("symlink failed");
    return p;
  }
  std::size_t count_files_containing(const std::string& fragment) const {
    std::size_t count = 0;
    if (DIR* d = ::opendir(path_.c_str())) {
      while (dirent* e = ::readdir(d)) count += std::string(e->d_name).find(fragment) != std::string::npos;
      ::closedir(d);
    }
    return count;
  }
  std::string write_gzip(const std::string& name, const std::string& content) const {
    std::string p = file(name);
    gzFile f = gzopen(p.c_str(), "wb");
    gzwrite(f, content.data(), static_cast<unsigned>(content.size()));
    gzclose(f);
    return p;
  }

 private:
  std::string path_;
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs f, which must throw input_error for `file` at `line` with `fragment` in its message.
inline void expect_input_error(const std::function<void()>& f, const std::string& file, std::uint64_t line,
                               const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no input_error; expected " << file << ":" << line << ": ..." << fragment << "...";
  } catch (const deltasplit::graph::input_error& e) {
    EXPECT_EQ(e.file(), file) << e.what();
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "message: " << e.what();
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << "message: " << e.what();
  }
}

// A malformed file: its text, the line the error must name and a fragment of the message.
struct bad_file {
  std::string text;
  std::uint64_t line;
  std::string fragment;
};

// Writes each case into dir (names ending in ext) and expects `read` to refuse it at its line,
// then an empty file, refused as a whole (line 0).
template <class Read>
void expect_each_rejected(temp_dir& dir, const std::vector<bad_file>& cases, const std::string& ext, Read read) {
  int i = 0;
  for (const bad_file& c : cases) {
    auto p = dir.write("b" + std::to_string(i++) + ext, c.text);
    SCOPED_TRACE(c.text);
    expect_input_error([&] { read(p); }, p, c.line, c.fragment);
  }
  auto empty = dir.write("empty" + ext, "");
  expect_input_error([&] { read(empty); }, empty, 0, "empty file");
}

struct arc {
  std::uint64_t u, v;
  double w;
  bool operator==(const arc& o) const { return std::tie(u, v, w) == std::tie(o.u, o.v, o.w); }
  bool operator<(const arc& o) const { return std::tie(u, v, w) < std::tie(o.u, o.v, o.w); }
};
inline std::ostream& operator<<(std::ostream& os, const arc& a) { return os << a.u << "->" << a.v << " (" << a.w << ")"; }

// The arcs of g in CSR order (which is sorted by source, then target), 0-based ids.
inline std::vector<arc> arcs_of(const deltasplit::graph::csr& g) {
  std::vector<arc> out;
  for (deltasplit::graph::vertex_t u = 0; u < g.num_vertices; ++u)
    for (auto e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      out.push_back({u, g.targets[e],
                     g.kind == deltasplit::graph::weight_kind::integer ? double(g.int_weights[e]) : double(g.real_weights[e])});
  return out;
}

// The CSR invariants every reader and generator promises: offsets well formed, targets in
// range, rows strictly increasing (sorted, no parallel arcs), no self-loops, one weight per arc.
inline void expect_clean_csr(const deltasplit::graph::csr& g) {
  using deltasplit::graph::weight_kind;
  ASSERT_EQ(g.offsets.size(), std::size_t{g.num_vertices} + 1);
  ASSERT_EQ(g.offsets.front(), 0u);
  ASSERT_EQ(g.offsets.back(), g.num_arcs());
  if (g.kind == weight_kind::integer) {
    ASSERT_EQ(g.int_weights.size(), g.num_arcs());
    ASSERT_TRUE(g.real_weights.empty());
  } else {
    ASSERT_EQ(g.real_weights.size(), g.num_arcs());
    ASSERT_TRUE(g.int_weights.empty());
  }
  std::uint64_t bad = 0;
  for (deltasplit::graph::vertex_t u = 0; u < g.num_vertices; ++u) {
    ASSERT_LE(g.offsets[u], g.offsets[u + 1]);
    for (auto e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      if (g.targets[e] >= g.num_vertices || g.targets[e] == u) ++bad;
      if (e > g.offsets[u] && g.targets[e - 1] >= g.targets[e]) ++bad;
    }
  }
  EXPECT_EQ(bad, 0u) << "out-of-range targets, self-loops, or unsorted/duplicate rows";
}

}  // namespace deltasplit_test
