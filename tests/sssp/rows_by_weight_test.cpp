// The GPU engine's arc order for host graphs (sssp/rows_by_weight.hpp), checked on the host: every
// row sorted by (weight, target) and holding the same arcs, whatever the thread count, on skewed
// rows (a hub at vertex 0, as R-MAT's), empty rows, parallel arcs, equal weights, rows whose
// targets come unsorted, float weights and the empty graph; and the split of the rows among the
// threads by arcs.
#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sssp/rows_by_weight.hpp"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
namespace detail = deltasplit::sssp::detail;
using deltasplit::graph::edge_t;
using namespace deltasplit_test;

namespace {

// A hub at vertex 0 with `hub` arcs, then random arcs over n vertices (some rows stay empty), with
// few distinct weights so that ties are common; each row's arcs then shuffled, so targets come in
// no order.
csr skewed_graph(vertex_t n, std::size_t hub, std::size_t m, weight_kind kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<vertex_t> vertex(0, n - 1), low(0, n / 8);
  std::uniform_int_distribution<int> weight(0, 7);
  std::vector<arc> arcs;
  for (std::size_t i = 0; i < hub; ++i) arcs.push_back({0, vertex(rng), double(weight(rng))});
  for (std::size_t i = 0; i < m; ++i) arcs.push_back({i % 3 ? low(rng) : vertex(rng), vertex(rng), weight(rng) * 0.5});
  arcs.push_back({1, 2, 3}), arcs.push_back({1, 2, 3}), arcs.push_back({1, 2, 1});  // parallel arcs
  csr g = make_csr(n, std::move(arcs), kind);
  for (vertex_t v = 0; v < n; ++v)  // shuffle each row, its arcs' weights moving with them
    for (edge_t i = g.offsets[v + 1]; i > g.offsets[v] + 1; --i) {
      const edge_t j = g.offsets[v] + std::uniform_int_distribution<edge_t>(0, i - 1 - g.offsets[v])(rng);
      std::swap(g.targets[i - 1], g.targets[j]);
      if (kind == weight_kind::integer)
        std::swap(g.int_weights[i - 1], g.int_weights[j]);
      else
        std::swap(g.real_weights[i - 1], g.real_weights[j]);
    }
  return g;
}

// The reference: each row's (weight, target) pairs sorted, one row after another.
template <class Weight>
void expect_rows_sorted(const csr& g, const std::vector<Weight>& weights, unsigned threads) {
  std::vector<vertex_t> targets;
  std::vector<Weight> sorted;
  detail::rows_by_weight(ds::csr_view(g), ds::span<Weight>(weights), targets, sorted, threads);
  ASSERT_EQ(targets.size(), g.num_arcs());
  ASSERT_EQ(sorted.size(), g.num_arcs());
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    std::vector<std::pair<Weight, vertex_t>> expected, got;
    for (edge_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
      expected.emplace_back(weights[i], g.targets[i]);
      got.emplace_back(sorted[i], targets[i]);
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(got, expected) << "row " << v << ", " << threads << " threads";
  }
}

}  // namespace

TEST(RowsByWeight, EveryRowSortedByWeightThenTargetForAnyThreadCount) {
  const csr g = skewed_graph(3000, 20000, 30000, weight_kind::integer, 1);
  for (unsigned threads : {0u, 1u, 2u, 3u, 7u, 16u, 64u}) expect_rows_sorted(g, g.int_weights, threads);
  const csr few_rows = skewed_graph(10, 50, 60, weight_kind::integer, 4);  // more threads than rows
  expect_rows_sorted(few_rows, few_rows.int_weights, 32);
}

TEST(RowsByWeight, FloatWeights) {
  const csr g = skewed_graph(1000, 5000, 8000, weight_kind::real, 2);
  for (unsigned threads : {1u, 4u, 16u}) expect_rows_sorted(g, g.real_weights, threads);
}

TEST(RowsByWeight, EmptyGraphsAndEmptyRows) {
  const csr none = make_csr(0, {});
  expect_rows_sorted(none, none.int_weights, 4);
  const csr no_arcs = make_csr(5, {});
  expect_rows_sorted(no_arcs, no_arcs.int_weights, 4);
  const csr one = make_csr(1, {{0, 0, 5}, {0, 0, 2}});
  expect_rows_sorted(one, one.int_weights, 3);
}

TEST(RowsByWeight, RowsSplitByArcs) {
  const csr g = skewed_graph(3000, 20000, 30000, weight_kind::integer, 3);
  const edge_t m = g.num_arcs();
  edge_t longest = 0;
  for (vertex_t v = 0; v < g.num_vertices; ++v) longest = std::max(longest, g.degree(v));
  ASSERT_EQ(longest, g.degree(0));  // the hub
  for (unsigned threads : {1u, 2u, 5u, 16u, 100u}) {
    const std::vector<vertex_t> first = detail::rows_by_arcs(ds::span<edge_t>(g.offsets), g.num_vertices, threads);
    ASSERT_EQ(first.size(), threads + 1u);
    EXPECT_EQ(first.front(), 0u);
    EXPECT_EQ(first.back(), g.num_vertices);
    EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
    for (unsigned t = 0; t < threads; ++t) {  // no run longer than a share and the row it began inside
      const edge_t arcs = g.offsets[first[t + 1]] - g.offsets[first[t]];
      EXPECT_LE(arcs, (m + threads - 1) / threads + longest) << threads << " threads, run " << t;
    }
  }
  // The even split of the vertices gave the first of 16 threads the hub and most rows of low ids;
  // by arcs, the hub's run holds little besides it.
  const std::vector<vertex_t> first = detail::rows_by_arcs(ds::span<edge_t>(g.offsets), g.num_vertices, 16);
  EXPECT_LE(g.offsets[first[1]] - g.offsets[first[0]], (m + 15) / 16 + longest);
  EXPECT_LT(first[1], g.num_vertices / 16);
  // Degenerate inputs: no vertices, no arcs, zero threads (taken as one).
  EXPECT_EQ(detail::rows_by_arcs(ds::span<edge_t>(g.offsets), 0, 4), std::vector<vertex_t>(5, 0));
  const csr no_arcs = make_csr(6, {});
  EXPECT_EQ(detail::rows_by_arcs(ds::span<edge_t>(no_arcs.offsets), 6, 3), (std::vector<vertex_t>{0, 0, 0, 6}));
  EXPECT_EQ(detail::rows_by_arcs(ds::span<edge_t>(g.offsets), g.num_vertices, 0),
            (std::vector<vertex_t>{0, g.num_vertices}));
}
