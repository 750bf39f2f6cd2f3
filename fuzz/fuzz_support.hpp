// What the libFuzzer targets of the graph loaders share: the input written to a file in a private
// scratch directory (the readers read files), the read options every target uses, and the
// invariants of a clean CSR checked after every successful read. A malformed input must end in
// input_error; any other exception, a sanitizer report or a broken invariant is a finding.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <dirent.h>
#include <unistd.h>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/error.hpp"
#include "deltasplit/graph/io.hpp"

namespace deltasplit_fuzz {

namespace graph = deltasplit::graph;

// Aborts with a message: libFuzzer (or the replay) reports the input that got here.
[[noreturn]] inline void finding(const char* what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

class scratch_dir {
 public:
  scratch_dir() {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/deltasplit-fuzz-XXXXXX";
    if (!::mkdtemp(path_.data())) finding("cannot create a scratch directory");
  }
  ~scratch_dir() {
    if (DIR* d = ::opendir(path_.c_str())) {
      while (dirent* e = ::readdir(d))
        if (e->d_name[0] != '.') ::unlink((path_ + "/" + e->d_name).c_str());
      ::closedir(d);
    }
    ::rmdir(path_.c_str());
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline const scratch_dir& scratch() {
  static scratch_dir dir;
  return dir;
}

// Writes bytes to a file of the scratch directory (replacing it) and returns its path.
inline std::string write_file(const std::string& name, const void* data, std::size_t size) {
  std::string path = scratch().file(name);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) finding("cannot write a scratch file");
  if (size && std::fwrite(data, 1, size, f) != size) finding("cannot write a scratch file");
  std::fclose(f);
  return path;
}

// One thread (no read-ahead), and a block size that varies with the input so that lines and
// gzip members straddle block boundaries; a memory budget far below what the sanitizers allow,
// so that a file declaring a huge graph is refused by the loader's own check.
inline graph::read_options fuzz_read_options(std::size_t size) {
  graph::read_options o;
  o.threads = 1;
  o.block_bytes = 8 + size % 57;
  o.memory_limit = std::size_t{16} << 20;
  return o;
}

// The CSR every reader promises: offsets from 0 to the arc count, rows sorted by target without
// repeats or self-loops, one weight per arc, real weights finite and non-negative.
inline void check_clean(const graph::csr& g) {
  const std::size_t arcs = g.targets.size();
  if (g.offsets.size() != std::size_t{g.num_vertices} + 1 || g.offsets.front() != 0 || g.offsets.back() != arcs)
    finding("offsets do not span the arcs");
  const std::size_t weights = g.kind == graph::weight_kind::integer
                                  ? (g.wide() ? g.uint64_weights.size() : g.int_weights.size())
                                  : (g.wide() ? g.float64_weights.size() : g.real_weights.size());
  if (weights != arcs) finding("weight count differs from the arc count");
  for (graph::vertex_t v = 0; v < g.num_vertices; ++v) {
    if (g.offsets[v] > g.offsets[v + 1]) finding("offsets decrease");
    for (graph::edge_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      graph::vertex_t t = g.targets[e];
      if (t >= g.num_vertices) finding("target out of range");
      if (t == v) finding("self-loop survived cleaning");
      if (e > g.offsets[v] && t <= g.targets[e - 1]) finding("row unsorted or with a parallel arc");
    }
  }
  if (g.kind == graph::weight_kind::real)
    for (graph::edge_t e = 0; e < arcs; ++e) {
      const double w = g.weight(e);
      if (!(w >= 0) || !std::isfinite(w) || std::signbit(w)) finding("negative, -0, NaN or infinite real weight");
    }
}

// Reads the file as `format` (automatic: detected); a malformed input must end in input_error,
// a graph that loads must be clean. Returns whether it loaded, and the graph in `out`.
inline bool read_checked(const std::string& path, graph::file_format format, std::size_t size, graph::csr* out = nullptr) {
  graph::read_options o = fuzz_read_options(size);
  o.format = format;
  graph::csr g;
  try {
    g = graph::read_graph(path, o);
  } catch (const graph::input_error&) {
    return false;
  }
  check_clean(g);
  if (out) *out = std::move(g);
  return true;
}

// Equal graphs: the same vertices, arcs, weight kind and weight values (a float weight written to
// a text file reads back as the same value in a double).
inline bool same_graph(const graph::csr& a, const graph::csr& b) {
  if (a.num_vertices != b.num_vertices || a.offsets != b.offsets || a.targets != b.targets || a.kind != b.kind)
    return false;
  for (graph::edge_t e = 0; e < a.num_arcs(); ++e)
    if (a.weight(e) != b.weight(e)) return false;
  return true;
}

}  // namespace deltasplit_fuzz
