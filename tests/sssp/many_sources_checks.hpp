// Checks shared by the host and GPU tests of sssp::many_sources: every row of every block against
// the oracle (Dijkstra from that row's source), the blocks' order and shape, and the graphs the
// tests use.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/many_sources.hpp"
#include "sssp/test_graphs.hpp"

namespace deltasplit_test {

namespace ds = deltasplit::sssp;

// Runs ms on sources x targets and compares every row with Dijkstra: integers exactly, reals
// within the validator's relative 1e-5, infinities exactly. Returns the number of blocks.
inline std::size_t expect_rows_match_dijkstra(const csr& g, ds::many_sources& ms, const std::vector<vertex_t>& sources,
                                              const std::vector<vertex_t>& targets, const std::string& what) {
  std::size_t next_row = 0, blocks = 0;
  std::vector<ds::result> oracle(g.num_vertices);
  std::vector<bool> have(g.num_vertices, false);
  ms.run(sources, targets, [&](const ds::distance_block& b) {
    ++blocks;
    EXPECT_EQ(b.first_row, next_row) << what;
    EXPECT_EQ(b.columns, targets.empty() ? g.num_vertices : targets.size()) << what;
    EXPECT_EQ(b.kind, g.kind) << what;
    EXPECT_FALSE(b.on_device) << what;
    next_row += b.rows;
    for (std::size_t r = 0; r < b.rows; ++r) {
      const vertex_t s = b.sources[r];
      EXPECT_EQ(s, sources[b.first_row + r]) << what;
      if (!have[s]) {
        oracle[s] = ds::dijkstra(g, s);
        have[s] = true;
      }
      std::uint64_t wrong = 0;
      for (std::size_t t = 0; t < b.columns; ++t) {
        const vertex_t v = targets.empty() ? static_cast<vertex_t>(t) : targets[t];
        if (g.kind == weight_kind::integer) {
          wrong += b.int_distances[r * b.columns + t] != oracle[s].int_distances[v];
        } else {
          const float a = b.real_distances[r * b.columns + t], e = oracle[s].real_distances[v];
          const bool same = std::isinf(a) || std::isinf(e)
                                ? a == e
                                : std::fabs(double{a} - double{e}) <= 1e-5 * std::max(std::fabs(double{a}), std::fabs(double{e}));
          wrong += !same;
        }
      }
      EXPECT_EQ(wrong, 0u) << what << ": row " << b.first_row + r << " (source " << s << ")";
    }
  });
  EXPECT_EQ(next_row, sources.size()) << what;
  return blocks;
}

inline ds::many_source_options batch(std::uint32_t k) {
  ds::many_source_options m;
  m.batch_size = k;
  return m;
}

inline std::vector<vertex_t> first_sources(vertex_t n, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<vertex_t> s(count);
  for (auto& v : s) v = static_cast<vertex_t>(rng() % n);
  return s;
}

inline csr small_rmat(unsigned scale, std::uint64_t seed) {
  deltasplit::graph::rmat_params p;
  p.scale = scale;
  p.edge_factor = 8;
  p.seed = seed;
  return deltasplit::graph::generate_rmat(p);
}

inline csr small_grid(std::uint32_t side, std::uint64_t seed) {
  deltasplit::graph::grid_params p;
  p.rows = side;
  p.cols = side + 3;
  p.keep_fraction = 0.8;  // some vertices cut off: unreachable columns
  p.seed = seed;
  return deltasplit::graph::generate_grid(p);
}

}  // namespace deltasplit_test
