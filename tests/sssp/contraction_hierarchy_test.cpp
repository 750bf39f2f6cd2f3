// Contraction hierarchies and the CPU PHAST sweep: every distance equals Dijkstra's (exactly for
// integer weights, within 1e-5 relative for real ones, where the sweep adds shortcut weights in
// another order), overflows are reported exactly when Dijkstra reports one, and the sweep layout
// keeps its promises (inverse permutations, levels, the core, down in-arcs from earlier levels).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/contraction_hierarchy.hpp"
#include "sssp/new_york_hierarchy.hpp"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;
using deltasplit_test::arc;
using deltasplit_test::make_csr;
using graph::vertex_t;

namespace {

constexpr std::uint32_t largest_distance = 4294967294u;  // 2^32 - 2, the largest integer distance

// The layout promises of contraction_hierarchy.hpp, checked position by position.
template <class W>
void expect_layout(const ds::detail::contraction_hierarchy<W>& ch, const graph::csr& g) {
  const vertex_t n = g.num_vertices;
  ASSERT_EQ(ch.num_vertices, n);
  ASSERT_EQ(ch.position_of.size(), n);
  ASSERT_EQ(ch.vertex_at.size(), n);
  for (vertex_t v = 0; v < n; ++v) {
    ASSERT_LT(ch.position_of[v], n);
    ASSERT_EQ(ch.vertex_at[ch.position_of[v]], v) << "vertex " << v;
  }
  ASSERT_EQ(ch.level_offsets.front(), 0u);
  ASSERT_EQ(ch.level_offsets.back(), n);
  for (vertex_t i = 0; i < ch.num_levels(); ++i) ASSERT_LT(ch.level_offsets[i], ch.level_offsets[i + 1]) << "level " << i;
  std::vector<vertex_t> level(n);
  for (vertex_t i = 0; i < ch.num_levels(); ++i)
    for (vertex_t p = ch.level_offsets[i]; p < ch.level_offsets[i + 1]; ++p) level[p] = i;
  ASSERT_LE(ch.core_size, n);
  if (ch.core_size > 0) {
    ASSERT_EQ(ch.level_offsets[1], ch.core_size) << "the core is exactly level 0";
  }
  ASSERT_EQ(ch.up_offsets.size(), std::size_t{n} + 1);
  ASSERT_EQ(ch.down_offsets.size(), std::size_t{n} + 1);
  ASSERT_EQ(ch.up_targets.size(), ch.up_offsets.back());
  ASSERT_EQ(ch.up_weights.size(), ch.up_offsets.back());
  ASSERT_EQ(ch.down_sources.size(), ch.down_offsets.back());
  ASSERT_EQ(ch.down_weights.size(), ch.down_offsets.back());
  for (vertex_t p = 0; p < n; ++p) {
    const bool core = p < ch.core_size;
    if (core) {
      ASSERT_EQ(ch.down_offsets[p], ch.down_offsets[p + 1]) << "core position " << p << " has down in-arcs";
    }
    for (auto e = ch.down_offsets[p]; e < ch.down_offsets[p + 1]; ++e) {
      const vertex_t q = ch.down_sources[e];
      ASSERT_LT(q, p) << "down in-arc " << q << " -> " << p;
      ASSERT_LT(level[q], level[p]) << "down in-arc " << q << " -> " << p;
    }
    for (auto e = ch.up_offsets[p]; e < ch.up_offsets[p + 1]; ++e) {
      const vertex_t q = ch.up_targets[e];
      ASSERT_LT(q, n);
      if (core) {
        ASSERT_LT(q, ch.core_size) << "core position " << p << " has an up arc leaving the core";
      } else {
        ASSERT_LT(level[q], level[p]) << "up arc " << p << " -> " << q;
      }
    }
  }
}

template <class W>
ds::detail::contraction_hierarchy<W> build(const graph::csr& g, unsigned threads = 1) {
  auto ch = ds::detail::build_contraction_hierarchy<W>(g, threads);
  expect_layout(ch, g);
  return ch;
}

// The group sweep against the one-source sweep, over every sources' group of 1 .. phast_group
// (taken in order, cycling, so that groups repeat a source and mix overflowing ones with others):
// the same rows, bit for bit; and an overflow for the group exactly when one of its sources has
// one, named for the first such (with report_overflow false, the rows the one-source sweep gives).
template <class W>
void expect_group_equals_single(const ds::detail::contraction_hierarchy<W>& ch, const std::vector<vertex_t>& sources) {
  if (sources.empty()) return;
  const vertex_t n = ch.num_vertices;
  ds::detail::upward_search<W> single(ch), grouped(ch);
  for (std::size_t size = 1; size <= ds::detail::phast_group; ++size) {
    std::vector<vertex_t> group(size);
    for (std::size_t i = 0; i < size; ++i) group[i] = sources[(size + i) % sources.size()];
    for (bool report : {true, false}) {
      std::vector<std::vector<W>> want(size, std::vector<W>(n)), got(size, std::vector<W>(n));
      std::string first_overflow;
      for (std::size_t i = 0; i < size; ++i) {
        try {
          ds::detail::phast_cpu(ch, single, group[i], want[i].data(), report);
        } catch (const ds::distance_overflow& e) {
          if (first_overflow.empty()) first_overflow = e.what();
        }
      }
      std::vector<W*> outs;
      for (auto& row : got) outs.push_back(row.data());
      if (!first_overflow.empty()) {
        try {
          ds::detail::phast_cpu_group(ch, grouped, group.data(), size, outs.data(), report);
          ADD_FAILURE() << "no overflow from the group of " << size << " (" << first_overflow << ")";
        } catch (const ds::distance_overflow& e) {
          EXPECT_EQ(std::string(e.what()), first_overflow) << "group of " << size;
        }
        continue;
      }
      ds::detail::phast_cpu_group(ch, grouped, group.data(), size, outs.data(), report);
      for (std::size_t i = 0; i < size; ++i)
        for (vertex_t v = 0; v < n; ++v) {
          const bool same = std::memcmp(&want[i][v], &got[i][v], sizeof(W)) == 0;
          ASSERT_TRUE(same) << "group of " << size << ", source " << group[i] << ", vertex " << v << ": "
                            << got[i][v] << " against " << want[i][v];
        }
    }
  }
}

// PHAST from each source against Dijkstra; an overflow must be reported by both or neither. The
// group sweep is checked against it on the same sources.
template <class W>
void expect_phast_equals_dijkstra(const graph::csr& g, const ds::detail::contraction_hierarchy<W>& ch,
                                  const std::vector<vertex_t>& sources) {
  expect_group_equals_single(ch, sources);
  ds::detail::upward_search<W> up(ch);
  std::vector<W> out(g.num_vertices);
  for (vertex_t s : sources) {
    // The oracle in phast's type for real weights; integer distances past 2^32 - 2 (uint64 by
    // the rule of distance_type) are what phast's uint32 sweep must report as an overflow.
    ds::result oracle;
    bool overflow = false;
    try {
      oracle = ds::dijkstra(g, s, false, ds::distance_type::float32);
    } catch (const ds::distance_overflow&) {
      overflow = true;  // float32 sums past the largest float
    }
    if constexpr (std::is_same_v<W, std::uint32_t>)
      for (vertex_t v = 0; v < g.num_vertices; ++v)
        overflow = overflow || (oracle.reached(v) && oracle.distance(v) > largest_distance);
    if (overflow) {
      EXPECT_THROW(ds::detail::phast_cpu(ch, up, s, out.data()), ds::distance_overflow) << "source " << s;
      continue;
    }
    ds::detail::phast_cpu(ch, up, s, out.data());
    if constexpr (std::is_same_v<W, std::uint32_t>) {
      for (vertex_t v = 0; v < g.num_vertices; ++v)
        ASSERT_EQ(out[v] == ds::int_infinity ? INFINITY : double(out[v]), oracle.distance(v)) << "source " << s << ", vertex " << v;
    } else {
      for (vertex_t v = 0; v < g.num_vertices; ++v) {
        const float want = oracle.real_distances[v];
        if (std::isinf(want)) {
          ASSERT_TRUE(std::isinf(out[v])) << "source " << s << ", vertex " << v << ": " << out[v];
        } else {
          ASSERT_NEAR(out[v], want, 1e-5 * want) << "source " << s << ", vertex " << v;
        }
      }
    }
  }
}

// The given sources, plus a vertex with no out-arcs when the graph has one.
std::vector<vertex_t> with_sink(const graph::csr& g, std::vector<vertex_t> sources) {
  for (vertex_t v = 0; v < g.num_vertices; ++v)
    if (g.degree(v) == 0) {
      sources.push_back(v);
      break;
    }
  return sources;
}

void expect_exact(const graph::csr& g, const std::vector<vertex_t>& sources, unsigned threads = 1) {
  if (g.kind == graph::weight_kind::integer)
    expect_phast_equals_dijkstra(g, build<std::uint32_t>(g, threads), with_sink(g, sources));
  else
    expect_phast_equals_dijkstra(g, build<float>(g, threads), with_sink(g, sources));
}

graph::csr load(const std::string& name) { return graph::read_graph(deltasplit_test::dataset_path(name)); }

// The pair query (pair_distances) against PHAST's rows, which the tests above check against
// Dijkstra: each source to 40 random vertices and to itself, on `threads` threads.
template <class W>
void expect_pairs_equal_phast(const graph::csr& g, const ds::detail::contraction_hierarchy<W>& ch,
                              const std::vector<vertex_t>& sources, unsigned threads = 2) {
  std::vector<vertex_t> from, to;
  std::mt19937 rng(5);
  for (vertex_t s : sources) {
    for (int k = 0; k < 40; ++k) from.push_back(s), to.push_back(static_cast<vertex_t>(rng() % g.num_vertices));
    from.push_back(s), to.push_back(s);
  }
  std::vector<W> got(from.size());
  ds::detail::pair_distances(ch, from.data(), to.data(), from.size(), got.data(), threads);
  ds::detail::upward_search<W> up(ch);
  std::vector<W> row(g.num_vertices);
  for (std::size_t i = 0; i < from.size(); ++i) {
    if (i == 0 || from[i] != from[i - 1]) ds::detail::phast_cpu(ch, up, from[i], row.data());
    const W want = row[to[i]];
    if constexpr (std::is_same_v<W, float>) {
      if (std::isinf(want)) {
        ASSERT_TRUE(std::isinf(got[i])) << from[i] << " -> " << to[i] << ": " << got[i];
      } else {
        ASSERT_NEAR(got[i], want, 1e-5 * want) << from[i] << " -> " << to[i];
      }
    } else {
      ASSERT_EQ(got[i], want) << from[i] << " -> " << to[i];
    }
  }
}

}  // namespace

TEST(ContractionHierarchy, EmptyAndSingleVertex) {
  graph::csr empty = make_csr(0, {});
  auto ch = build<std::uint32_t>(empty);
  EXPECT_EQ(ch.num_levels(), 0u);
  ds::detail::upward_search<std::uint32_t> up(ch);
  EXPECT_THROW(ds::detail::phast_cpu(ch, up, 0, static_cast<std::uint32_t*>(nullptr)), std::out_of_range);
  expect_exact(make_csr(1, {}), {0});
  expect_exact(make_csr(1, {{0, 0, 5}}), {0});  // a self-loop
}

TEST(ContractionHierarchy, WrongKindIsRefused) {
  graph::csr g = make_csr(2, {{0, 1, 1}});
  EXPECT_THROW(ds::detail::build_contraction_hierarchy<float>(g), std::invalid_argument);
  graph::csr r = make_csr(2, {{0, 1, 1.5}}, graph::weight_kind::real);
  EXPECT_THROW(ds::detail::build_contraction_hierarchy<std::uint32_t>(r), std::invalid_argument);
}

TEST(ContractionHierarchy, SmallDirectedCases) {
  // Asymmetric: 0 -> 1 -> 2 cheap one way, 2 -> 0 expensive the other.
  expect_exact(make_csr(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 100}, {2, 1, 50}}), {0, 1, 2});
  // Parallel arcs: the lightest counts, whichever comes first.
  expect_exact(make_csr(4, {{0, 1, 9}, {0, 1, 2}, {1, 2, 4}, {1, 2, 1}, {1, 2, 7}, {2, 3, 3}, {0, 3, 20}}), {0, 1, 2, 3});
  // Unreachable vertices: two components and a vertex nothing points to.
  expect_exact(make_csr(7, {{0, 1, 3}, {1, 0, 3}, {1, 2, 1}, {3, 4, 2}, {4, 5, 2}, {5, 3, 2}}), {0, 3, 6});
  // Zero weights and zero-weight cycles, with a witness of equal length beside each via-path.
  expect_exact(make_csr(6, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 0}, {3, 4, 5}, {1, 4, 5}, {4, 5, 0}, {5, 4, 0},
                            {5, 2, 0}}),
               {0, 3, 4, 5});
  // A star: the centre is a via-vertex of every pair.
  std::vector<arc> star;
  for (vertex_t v = 1; v < 8; ++v) star.push_back({0, v, double(v)}), star.push_back({v, 0, double(10 - v)});
  expect_exact(make_csr(8, star), {0, 1, 7});
}

TEST(ContractionHierarchy, RandomDirectedGraphs) {
  // Sparse and denser, weights from all-zero to wide, so that witnesses tie and cycles are free.
  std::uint64_t seed = 1;
  for (vertex_t n : {5u, 20u, 200u, 2000u})
    for (std::size_t per_vertex : {1u, 3u, 8u})
      for (double max_weight : {0.0, 3.0, 1000.0}) {
        graph::csr g = deltasplit_test::random_graph(n, n * per_vertex, seed++, max_weight);
        expect_exact(g, {0, n / 2, n - 1}, seed % 2 ? 1 : 3);
      }
}

TEST(ContractionHierarchy, RandomRealWeights) {
  std::uint64_t seed = 100;
  for (vertex_t n : {20u, 500u, 3000u})
    for (double max_weight : {1.0, 1e6}) {
      graph::csr g = deltasplit_test::random_graph(n, n * 4, seed++, max_weight, graph::weight_kind::real);
      expect_exact(g, {0, n / 3, n - 1}, seed % 2 ? 1 : 3);
    }
}

TEST(ContractionHierarchy, IntegerOverflow) {
  // The shortest distance to 2 is 2^32 - 1: Dijkstra throws, so must PHAST (the shortcut 0 -> 2
  // is saturated at too_long).
  graph::csr over = make_csr(3, {{0, 1, largest_distance}, {1, 2, 1}});
  auto ch = build<std::uint32_t>(over);
  ds::detail::upward_search<std::uint32_t> up(ch);
  std::vector<std::uint32_t> out(3);
  EXPECT_THROW(ds::detail::phast_cpu(ch, up, 0, out.data()), ds::distance_overflow);
  expect_phast_equals_dijkstra(over, ch, {0, 1, 2});
  // Exactly 2^32 - 2 fits.
  expect_exact(make_csr(3, {{0, 1, largest_distance - 1}, {1, 2, 1}}), {0});
  // A long path that is not shortest never throws: 0 -> 1 -> 2 sums past 2^32, 0 -> 2 is 5.
  graph::csr detour = make_csr(4, {{0, 1, 3e9}, {1, 2, 3e9}, {0, 2, 5}, {2, 3, 1}, {3, 1, 2}});
  auto dch = build<std::uint32_t>(detour);
  ds::detail::upward_search<std::uint32_t> dup(dch);
  std::vector<std::uint32_t> d(4);
  ds::detail::phast_cpu(dch, dup, 0, d.data());
  EXPECT_EQ(d[2], 5u);
  EXPECT_EQ(d[1], 8u);
  expect_phast_equals_dijkstra(detour, dch, {0, 1, 2, 3});
  // An original arc of weight 2^32 - 1 (too_long itself) is a path, not a missing arc.
  expect_exact(make_csr(2, {{0, 1, 4294967295.0}}), {0});
  expect_exact(make_csr(3, {{0, 1, 4294967295.0}, {0, 2, 7}, {2, 1, 1}}), {0});
  // Chains of heavy arcs: the first vertices fit, the later ones overflow.
  std::vector<arc> chain;
  for (vertex_t v = 0; v + 1 < 12; ++v) chain.push_back({v, v + 1, 1e9}), chain.push_back({v + 1, v, 1});
  graph::csr c = make_csr(12, chain);
  expect_exact(c, {0, 5, 8, 11});
  // Random graphs with weights near 2^31: some sources overflow, some do not.
  std::uint64_t seed = 7;
  for (vertex_t n : {10u, 100u, 1000u}) {
    graph::csr g = deltasplit_test::random_graph(n, n * 2, seed++, 2147483648.0);
    expect_exact(g, {0, 1, n / 2, n - 1});
  }
}

TEST(ContractionHierarchy, RealOverflow) {
  graph::csr over = make_csr(3, {{0, 1, 3e38}, {1, 2, 3e38}}, graph::weight_kind::real);
  expect_exact(over, {0, 1});
  graph::csr detour = make_csr(3, {{0, 1, 3e38}, {1, 2, 3e38}, {0, 2, 1}}, graph::weight_kind::real);
  expect_exact(detour, {0});
}

// The parallel contraction's rounds depend on the graph alone: every array is the same for any
// thread count.
template <class W>
void expect_same_build(const graph::csr& g, const std::vector<vertex_t>& sources) {
  auto one = build<W>(g, 1);
  for (unsigned threads : {2u, 4u}) {
    auto many = build<W>(g, threads);
    EXPECT_EQ(one.position_of, many.position_of) << threads << " threads";
    EXPECT_EQ(one.vertex_at, many.vertex_at) << threads << " threads";
    EXPECT_EQ(one.level_offsets, many.level_offsets) << threads << " threads";
    EXPECT_EQ(one.core_size, many.core_size) << threads << " threads";
    EXPECT_EQ(one.up_offsets, many.up_offsets) << threads << " threads";
    EXPECT_EQ(one.up_targets, many.up_targets) << threads << " threads";
    EXPECT_EQ(one.up_weights, many.up_weights) << threads << " threads";
    EXPECT_EQ(one.down_offsets, many.down_offsets) << threads << " threads";
    EXPECT_EQ(one.down_sources, many.down_sources) << threads << " threads";
    EXPECT_EQ(one.down_weights, many.down_weights) << threads << " threads";
    EXPECT_EQ(one.shortcuts, many.shortcuts) << threads << " threads";
    EXPECT_EQ(one.witness_searches, many.witness_searches) << threads << " threads";
    expect_phast_equals_dijkstra(g, many, sources);
  }
}

// Symmetric graphs (every arc's reverse of the same weight: road networks) search each pair of a
// vertex's neighbours once; the same graphs with one reverse arc one heavier take the directed
// path. Both exact from every source; the symmetric build searches less. Zero weights and ties
// included, integer and real.
TEST(ContractionHierarchy, SymmetricGraphsSearchEachPairOnce) {
  std::mt19937 rng(7);
  for (vertex_t n : {2u, 12u, 300u})
    for (double max_weight : {0.0, 4.0, 1000.0})
      for (const auto kind : {graph::weight_kind::integer, graph::weight_kind::real}) {
        std::vector<arc> both;
        for (vertex_t i = 0; i < 3 * n; ++i) {
          const vertex_t u = static_cast<vertex_t>(rng() % n), v = static_cast<vertex_t>(rng() % n);
          double w = max_weight == 0 ? 0 : double(rng() % static_cast<std::uint32_t>(max_weight + 1));
          if (kind == graph::weight_kind::real) w += 0.25;
          both.push_back({u, v, w});
          both.push_back({v, u, w});
        }
        std::vector<vertex_t> all(n);
        for (vertex_t v = 0; v < n; ++v) all[v] = v;
        const graph::csr symmetric = make_csr(n, both, kind);
        expect_exact(symmetric, all, 2);
        std::vector<arc> one_way = both;
        one_way[1].weight += 1;
        const graph::csr directed = make_csr(n, one_way, kind);
        expect_exact(directed, all, 2);
        if (n == 300 && max_weight > 0 && kind == graph::weight_kind::integer) {
          EXPECT_LT(build<std::uint32_t>(symmetric).witness_searches, build<std::uint32_t>(directed).witness_searches);
        }
      }
}

TEST(ContractionHierarchy, BuildIsTheSameOnSeveralThreads) {
  expect_same_build<std::uint32_t>(deltasplit_test::random_graph(3000, 9000, 42, 100), {0, 1500});
  // Equal weights everywhere: equal priorities, rounds decided by the ids.
  graph::grid_params grid;
  grid.rows = 60;
  grid.cols = 70;
  grid.weight_min = grid.weight_max = 1;
  expect_same_build<std::uint32_t>(graph::generate_grid(grid), {0, 2000});
  // A skewed graph large enough to keep a core (past the core rule's arc floor).
  graph::rmat_params rmat;
  rmat.scale = 14;
  rmat.edge_factor = 20;
  graph::csr skewed = graph::generate_rmat(rmat);
  expect_same_build<std::uint32_t>(skewed, {0, 1000});
  EXPECT_GT(build<std::uint32_t>(skewed).core_size, 0u);
  expect_same_build<float>(deltasplit_test::random_graph(2000, 8000, 43, 1e3, graph::weight_kind::real), {0, 1999});
  // Sparse and symmetric, with hubs: the two-arc count of most vertices, every pair for the hubs'
  // (past the count's scan limit). (The random graph above is sparse and directed.)
  rmat.scale = 13;
  rmat.edge_factor = 2;
  rmat.undirected = true;
  expect_same_build<std::uint32_t>(graph::generate_rmat(rmat), {0, 1, 8191});
}

TEST(ContractionHierarchy, GridsAndRmat) {
  graph::grid_params grid;
  grid.rows = 120;
  grid.cols = 150;
  grid.keep_fraction = 0.8;
  expect_exact(graph::generate_grid(grid), {0, 9000, 17999});
  grid.weight_min = grid.weight_max = 1;  // ties everywhere
  grid.keep_fraction = 1.0;
  expect_exact(graph::generate_grid(grid), {0, 5000});
  graph::rmat_params rmat;
  rmat.scale = 12;
  rmat.edge_factor = 8;
  expect_exact(graph::generate_rmat(rmat), {0, 1, 2000});
}

// The bidirectional pair query: directed graphs with unreachable pairs, ties everywhere, a graph
// that keeps a core (the backward search crosses it against its arcs), real weights, zero-weight
// cycles; the same vertex; a vertex past the graph refused.
TEST(ContractionHierarchy, PairQueriesEqualPhast) {
  const graph::csr random = deltasplit_test::random_graph(3000, 7000, 42, 100);
  expect_pairs_equal_phast(random, build<std::uint32_t>(random), {0, 17, 1500, 2999});
  graph::grid_params grid;
  grid.rows = 40, grid.cols = 50, grid.weight_min = grid.weight_max = 1;
  const graph::csr ties = graph::generate_grid(grid);
  expect_pairs_equal_phast(ties, build<std::uint32_t>(ties), {0, 999, 1999}, 3);
  graph::rmat_params rmat;
  rmat.scale = 14, rmat.edge_factor = 20;
  const graph::csr skewed = graph::generate_rmat(rmat);
  const auto with_core = build<std::uint32_t>(skewed, 2);
  ASSERT_GT(with_core.core_size, 0u);
  expect_pairs_equal_phast(skewed, with_core, {0, 1, 5000, 16383});
  const graph::csr real = deltasplit_test::random_graph(2000, 8000, 43, 1e3, graph::weight_kind::real);
  expect_pairs_equal_phast(real, build<float>(real), {0, 1999});
  const graph::csr zero = make_csr(4, {{0, 1, 0}, {1, 0, 0}, {1, 2, 0}, {2, 3, 5}, {3, 2, 0}});
  expect_pairs_equal_phast(zero, build<std::uint32_t>(zero), {0, 3});
  const auto ch = build<std::uint32_t>(zero);
  const vertex_t from[] = {0}, past[] = {4};
  std::uint32_t out[1];
  EXPECT_THROW(ds::detail::pair_distances(ch, from, past, 1, out), std::out_of_range);
  ds::detail::pair_distances(ch, from, from, 0, out);  // no pairs: nothing written, no threads
}

TEST(ContractionHierarchyDatasets, NewYorkRoads) {
  const graph::csr& g = deltasplit_test::new_york().graph;
  const auto& ch = deltasplit_test::new_york().hierarchy;
  expect_layout(ch, g);
  EXPECT_LT(ch.core_size, g.num_vertices / 100) << "a road network contracts almost fully";
  expect_phast_equals_dijkstra(g, ch, with_sink(g, {0, 100000, 264345}));
  expect_pairs_equal_phast(g, ch, {0, 100000});
}

TEST(ContractionHierarchyDatasets, FloridaRoads) { expect_exact(load("road-FLA.mtx.gz"), {0, 500000}, 2); }

TEST(ContractionHierarchyDatasets, Chesapeake) { expect_exact(load("chesapeake.mtx"), {0, 20, 38}); }

TEST(ContractionHierarchyDatasets, ChicagoRealWeights) {
  graph::csr g = load("chicago-regional.mtx.gz");
  ASSERT_EQ(g.kind, graph::weight_kind::real);
  EXPECT_THROW(build<float>(g), std::invalid_argument) << "the hierarchy reads float weights, not double";
  g.real_weights.assign(g.float64_weights.begin(), g.float64_weights.end());  // rounded, as for float32 solves
  g.float64_weights.clear();
  g.width = graph::weight_width::narrow;
  expect_exact(g, {0, 5000, 12000});
}

TEST(ContractionHierarchyDatasets, EmailEnronCore) {
  graph::csr g = load("email-Enron.mtx.gz");
  auto ch = build<std::uint32_t>(g, 2);
  EXPECT_GT(ch.core_size, 0u) << "a social graph keeps a core";
  expect_phast_equals_dijkstra(g, ch, with_sink(g, {0, 123, 20000}));
}
