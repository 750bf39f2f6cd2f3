// Helpers for the graph-layer tests: malformed files refused at their line, arcs of a CSR and the
// CSR invariants; the temporary directory and the input_error check are common/test_files.hpp.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "common/test_files.hpp"
#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/error.hpp"

namespace deltasplit_test {

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
      out.push_back({u, g.targets[e], g.weight(e)});
  return out;
}

// The CSR invariants every reader and generator promises: offsets well formed, targets in
// range, rows strictly increasing (sorted, no parallel arcs), no self-loops, one weight per arc.
inline void expect_clean_csr(const deltasplit::graph::csr& g) {
  using deltasplit::graph::weight_kind;
  ASSERT_EQ(g.offsets.size(), std::size_t{g.num_vertices} + 1);
  ASSERT_EQ(g.offsets.front(), 0u);
  ASSERT_EQ(g.offsets.back(), g.num_arcs());
  // Exactly one weight array, the one of the graph's kind and width.
  const bool integer = g.kind == weight_kind::integer, wide = g.wide();
  ASSERT_EQ(g.int_weights.size(), integer && !wide ? g.num_arcs() : 0u);
  ASSERT_EQ(g.real_weights.size(), !integer && !wide ? g.num_arcs() : 0u);
  ASSERT_EQ(g.uint64_weights.size(), integer && wide ? g.num_arcs() : 0u);
  ASSERT_EQ(g.float64_weights.size(), !integer && wide ? g.num_arcs() : 0u);
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
