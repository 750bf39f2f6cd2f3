// Checks shared by the host and GPU tests of sssp::many_sources: every row of every block against
// the oracle (Dijkstra from that row's source), the blocks' order and shape, and the graphs the
// tests use.
#pragma once

#include <algorithm>
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
// within the validator's relative 1e-5, infinities exactly. With a cutoff (the one ms was built
// with), Dijkstra's distances past it are expected unreachable. Returns the number of blocks.
// Cell i of a host block as a double (+inf unreachable; exact below 2^53).
inline double block_distance(const ds::distance_block& b, std::size_t i) {
  switch (b.type) {
    case ds::distance_type::uint32: return b.int_distances[i] == ds::int_infinity ? INFINITY : double(b.int_distances[i]);
    case ds::distance_type::uint64:
      return b.uint64_distances[i] == ds::uint64_infinity ? INFINITY : double(b.uint64_distances[i]);
    case ds::distance_type::float32: return b.real_distances[i];
    default: return b.float64_distances[i];
  }
}

inline std::size_t expect_rows_match_dijkstra(const csr& g, ds::many_sources& ms, const std::vector<vertex_t>& sources,
                                              const std::vector<vertex_t>& targets, const std::string& what,
                                              double cutoff = INFINITY) {
  std::size_t next_row = 0, blocks = 0;
  std::vector<ds::result> oracle(g.num_vertices);
  std::vector<bool> have(g.num_vertices, false);
  ms.run(sources, targets, [&](const ds::distance_block& b) {
    ++blocks;
    EXPECT_EQ(b.first_row, next_row) << what;
    EXPECT_EQ(b.columns, targets.empty() ? g.num_vertices : targets.size()) << what;
    EXPECT_EQ(b.type, ms.type()) << what;
    EXPECT_FALSE(b.on_device) << what;
    next_row += b.rows;
    for (std::size_t r = 0; r < b.rows; ++r) {
      const vertex_t s = b.sources[r];
      EXPECT_EQ(s, sources[b.first_row + r]) << what;
      if (!have[s]) {
        oracle[s] = ds::dijkstra(g, s, false,
                                 b.type == ds::distance_type::float32 ? b.type : ds::distance_type::float64);
        have[s] = true;
      }
      std::uint64_t wrong = 0;
      for (std::size_t t = 0; t < b.columns; ++t) {
        const vertex_t v = targets.empty() ? static_cast<vertex_t>(t) : targets[t];
        const bool past = oracle[s].distance(v) > cutoff;
        const double a = block_distance(b, r * b.columns + t), e = past ? INFINITY : oracle[s].distance(v);
        // float32 within the validator's tolerance (a GPU may associate sums otherwise), else exact
        // (uint64 as integers: past 2^53 their doubles are rounded).
        const bool same =
            b.type == ds::distance_type::uint64
                ? b.uint64_distances[r * b.columns + t] == (past ? ds::uint64_infinity : oracle[s].uint64_distances[v])
            : b.type != ds::distance_type::float32 || std::isinf(a) || std::isinf(e)
                ? a == e
                : std::fabs(a - e) <= 1e-5 * std::max(std::fabs(a), std::fabs(e));
        wrong += !same;
      }
      EXPECT_EQ(wrong, 0u) << what << ": row " << b.first_row + r << " (source " << s << "), cutoff " << cutoff;
    }
  });
  EXPECT_EQ(next_row, sources.size()) << what;
  return blocks;
}

// ms.summarize_rows(sources) against Dijkstra from each source with the vertices past the cutoff
// unreached (validate_summary: counts and integer sums and maxima exactly, real ones within a
// relative 1e-12, float32 distances 1e-5). Returns the summaries.
inline ds::row_summaries expect_row_summaries_match_dijkstra(const csr& g, ds::many_sources& ms,
                                                             const std::vector<vertex_t>& sources,
                                                             const std::string& what, double cutoff = INFINITY) {
  const ds::row_summaries s = ms.summarize_rows(sources);
  EXPECT_EQ(s.type, ms.type()) << what;
  const bool integral = s.type == ds::distance_type::uint32 || s.type == ds::distance_type::uint64;
  const std::size_t count = sources.size();
  EXPECT_EQ(s.reached.size(), count) << what;
  EXPECT_EQ(integral ? s.int_sums.size() + s.int_farthest.size() : s.real_sums.size() + s.real_farthest.size(), 2 * count)
      << what;
  if (s.reached.size() != count) return s;
  for (std::size_t i = 0; i < count; ++i) {
    const ds::validation v = ds::validate_summary(g, sources[i], s, i, cutoff);
    EXPECT_TRUE(v.ok) << what << ": " << v.message;
  }
  return s;
}

// Cutoffs that cut the rows from sources three ways: 0 (only what zero-weight paths reach), the
// middle of the widest gap between two neighbouring distances in the middle half of all of them
// (no distance near it, so real distances within 1e-5 of Dijkstra's fall on its side), and past
// every distance. Checks that the graph has reached distances on both sides of the middle one.
inline std::vector<double> cutoffs_between(const csr& g, const std::vector<vertex_t>& sources) {
  std::vector<double> finite;
  for (vertex_t s : sources) {
    const ds::result r = ds::dijkstra(g, s);
    for (vertex_t v = 0; v < g.num_vertices; ++v)
      if (r.reached(v)) finite.push_back(r.distance(v));
  }
  std::sort(finite.begin(), finite.end());
  finite.erase(std::unique(finite.begin(), finite.end()), finite.end());
  EXPECT_GE(finite.size(), 4u) << "too few distinct distances to place a cutoff between two";
  if (finite.size() < 4) return {0.0};
  std::size_t widest = finite.size() / 4;
  for (std::size_t i = finite.size() / 4; i < 3 * finite.size() / 4; ++i)
    if (finite[i + 1] - finite[i] > finite[widest + 1] - finite[widest]) widest = i;
  return {0.0, (finite[widest] + finite[widest + 1]) / 2, 2 * finite.back() + 1};
}

// Every strategy; many_sources takes each on either device (phast: PHAST batches or CPU sweeps;
// any other: batched delta-stepping on the GPU, Dijkstra per source on the CPU).
inline std::vector<ds::strategy> every_strategy() {
  return {ds::strategy::near_far,           ds::strategy::bucketing, ds::strategy::multisplit, ds::strategy::workfront,
          ds::strategy::delta_stepping_cpu, ds::strategy::dijkstra,  ds::strategy::phast};
}

// The rows of many_sources(g, o, m) (o.cutoff set) against Dijkstra with the vertices past the
// cutoff unreachable: every vertex a column, and a subset of targets with a duplicate.
inline void expect_cutoff_rows(const csr& g, const ds::options& o, const ds::many_source_options& m,
                               const std::vector<vertex_t>& sources) {
  ds::many_sources ms(g, o, m);
  EXPECT_EQ(ms.on_gpu(), o.device == ds::device_kind::gpu);
  const std::string what = std::string(ds::strategy_name(o.how)) + ", " + std::to_string(g.num_vertices) +
                           " vertices, delta " + std::to_string(o.tune.delta);
  expect_rows_match_dijkstra(g, ms, sources, {}, what, o.cutoff);
  expect_rows_match_dijkstra(g, ms, sources, {g.num_vertices - 1, 0, 5, 5, sources[3]}, what + ", targets", o.cutoff);
}

// One many_sources object (o.cutoff none) re-aimed by set_cutoff at each cutoff in turn, then back
// to none: every run's rows against Dijkstra with that cutoff, and the one-off setup (phast's
// hierarchy) neither redone nor re-timed. A negative or NaN cutoff is refused and changes nothing.
inline void expect_set_cutoff_keeps_the_solver(const csr& g, const ds::options& o, const ds::many_source_options& m,
                                               const std::vector<vertex_t>& sources) {
  ds::many_sources ms(g, o, m);
  const double setup = ms.setup_ms();
  const std::string what = std::string(ds::strategy_name(o.how)) + ", set_cutoff";
  for (double cutoff : cutoffs_between(g, sources)) {
    ms.set_cutoff(cutoff);
    expect_rows_match_dijkstra(g, ms, sources, {}, what, cutoff);
  }
  EXPECT_THROW(ms.set_cutoff(-1), std::invalid_argument);
  EXPECT_THROW(ms.set_cutoff(NAN), std::invalid_argument);
  ms.set_cutoff(INFINITY);
  expect_rows_match_dijkstra(g, ms, sources, {}, what + ", back to none");
  EXPECT_EQ(ms.setup_ms(), setup);
}

// A distance that does not fit (0 -> 1 -> 2 sums to 8e9) past a cutoff below the largest
// distance: that vertex lies beyond the cutoff and reads unreachable, no error. The rows of
// many_sources under o (o.cutoff 4e9) against the CPU delta-stepping solver with the same cutoff.
inline void expect_overflow_past_the_cutoff_unreachable(ds::options o) {
  const csr g = make_csr(4, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}, {3, 0, 1}});
  o.cutoff = 4000000000.0;
  const std::vector<vertex_t> sources = {3, 0, 1, 2};
  const ds::distance_table t = ds::od_table(g, sources, {}, o);
  ds::options cpu;
  cpu.device = ds::device_kind::cpu;
  cpu.how = ds::strategy::delta_stepping_cpu;
  cpu.cutoff = o.cutoff;
  ds::solver reference(g, cpu);
  std::uint64_t unreached = 0;
  for (std::size_t r = 0; r < sources.size(); ++r) {
    const ds::result want = reference.run(sources[r]);
    for (vertex_t v = 0; v < g.num_vertices; ++v) {
      EXPECT_EQ(t.at(r, v), want.distance(v)) << "source " << sources[r] << ", vertex " << v;
      unreached += !want.reached(v);
    }
  }
  EXPECT_GT(unreached, 0u);
}

// Whole uint32 rows (sources.size() x n, row-major) equal Dijkstra's, vertices past the cutoff
// unreachable.
inline void expect_whole_rows_equal_dijkstra(const csr& g, const std::vector<vertex_t>& sources,
                                             const std::vector<std::uint32_t>& rows, double cutoff) {
  const std::size_t n = g.num_vertices;
  for (std::size_t r = 0; r < sources.size(); ++r) {
    const ds::result d = ds::dijkstra(g, sources[r]);
    for (vertex_t v = 0; v < g.num_vertices; ++v) {
      const std::uint32_t exact = d.int_distances[v];
      const std::uint32_t want = exact != ds::int_infinity && exact <= cutoff ? exact : ds::int_infinity;
      ASSERT_EQ(rows[r * n + v], want) << "source " << sources[r] << " vertex " << v << " cutoff " << cutoff;
    }
  }
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
