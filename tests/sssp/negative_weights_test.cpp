// Bellman-Ford and Johnson on negative weights against Floyd-Warshall (a brute force sharing no
// code with them), negative cycles found with a vertex on one, and the edge cases: no vertices,
// one, unreachable vertices, zero weights, parallel arcs, int64 overflow, scipy's tolerance.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "sssp/negative_weights.hpp"

namespace ds = deltasplit::sssp;
using deltasplit::graph::edge_t;
using deltasplit::graph::invalid_vertex;
using deltasplit::graph::vertex_t;

namespace {

template <class W>
struct arc {
  vertex_t from, to;
  W weight;
};

// A CSR that owns its arrays, rows in order of source (parallel arcs and self-loops kept).
template <class W>
struct owned_csr {
  vertex_t n = 0;
  std::vector<edge_t> offsets;
  std::vector<vertex_t> targets;
  std::vector<W> weights;
  std::vector<arc<W>> arcs;

  owned_csr(vertex_t vertices, std::vector<arc<W>> list) : n(vertices), offsets(std::size_t{vertices} + 1, 0) {
    std::stable_sort(list.begin(), list.end(), [](const arc<W>& a, const arc<W>& b) { return a.from < b.from; });
    for (const arc<W>& a : list) {
      ++offsets[a.from + 1];
      targets.push_back(a.to);
      weights.push_back(a.weight);
    }
    for (vertex_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
    arcs = std::move(list);
  }
  ds::signed_csr<W> view() const { return {n, offsets, targets, weights}; }
};

// a + b into sum; false when an int64 sum does not fit (a walk longer than any distance).
template <class W>
bool add(W a, W b, W& sum) {
  if constexpr (std::is_integral_v<W>) {
    return !__builtin_add_overflow(a, b, &sum);
  } else {
    sum = a + b;
    return true;
  }
}

// All-pairs distances by Floyd-Warshall (unreachable: ds::unreachable<W>()); the diagonal falls
// below zero exactly on the vertices of a negative closed walk.
template <class W>
std::vector<std::vector<W>> floyd_warshall(const owned_csr<W>& g) {
  const W inf = ds::unreachable<W>();
  std::vector<std::vector<W>> d(g.n, std::vector<W>(g.n, inf));
  for (vertex_t v = 0; v < g.n; ++v) d[v][v] = 0;
  for (const arc<W>& a : g.arcs) d[a.from][a.to] = std::min(d[a.from][a.to], a.weight);
  for (vertex_t k = 0; k < g.n; ++k)
    for (vertex_t i = 0; i < g.n; ++i)
      for (vertex_t j = 0; j < g.n; ++j)
        if (W sum; d[i][k] != inf && d[k][j] != inf && add(d[i][k], d[k][j], sum)) d[i][j] = std::min(d[i][j], sum);
  return d;
}

// Whether v lies on a simple cycle of negative weight (every simple path from v back to v).
template <class W>
bool on_negative_cycle(const owned_csr<W>& g, vertex_t v) {
  std::vector<char> on_path(g.n, 0);
  bool found = false;
  auto walk = [&](auto&& self, vertex_t u, W length) -> void {
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1] && !found; ++e) {
      const vertex_t t = g.targets[e];
      if (t == v) {
        found = length + g.weights[e] < 0;
      } else if (!on_path[t]) {
        on_path[t] = 1;
        self(self, t, length + g.weights[e]);
        on_path[t] = 0;
      }
    }
  };
  on_path[v] = 1;
  walk(walk, v, W(0));
  return found;
}

// n vertices, m random arcs with negative weights and no negative cycle: w(u, v) = b + p(u) - p(v)
// for a base weight b >= 0 and potentials p, so every cycle weighs the sum of its b (zero-weight
// cycles included). double weights are multiples of 1/4, so that every sum is exact.
template <class W>
owned_csr<W> random_graph(vertex_t n, std::size_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<vertex_t> vertex(0, n - 1);
  std::uniform_int_distribution<std::int64_t> base(0, 20), potential(0, 40);
  std::vector<std::int64_t> p(n);
  for (auto& x : p) x = potential(rng);
  std::vector<arc<W>> arcs;
  for (std::size_t i = 0; i < m; ++i) {
    const vertex_t u = vertex(rng), v = vertex(rng);
    const std::int64_t w = base(rng) * (i % 5 == 0 ? 0 : 1) + p[u] - p[v];
    arcs.push_back({u, v, std::is_integral_v<W> ? W(w) : W(w) / 4});
  }
  return owned_csr<W>(n, std::move(arcs));
}

// Every reached vertex but the source has a parent whose distance plus an arc gives its own.
template <class W>
void expect_tree(const owned_csr<W>& g, vertex_t source, const W* dist, const vertex_t* parent) {
  for (vertex_t v = 0; v < g.n; ++v) {
    if (v == source || dist[v] == ds::unreachable<W>()) {
      EXPECT_EQ(parent[v], invalid_vertex) << "vertex " << v;
      continue;
    }
    const vertex_t u = parent[v];
    ASSERT_LT(u, g.n) << "vertex " << v;
    bool tight = false;
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) tight |= g.targets[e] == v && dist[u] + g.weights[e] == dist[v];
    EXPECT_TRUE(tight) << "vertex " << v << " parent " << u;
  }
}

template <class W>
void expect_all_pairs(const owned_csr<W>& g) {
  const auto truth = floyd_warshall(g);
  const std::size_t n = g.n;
  std::vector<vertex_t> sources(n);
  for (vertex_t s = 0; s < g.n; ++s) sources[s] = s;
  std::vector<W> rows(n * n);
  std::vector<vertex_t> parents(n * n);
  ds::johnson(g.view(), sources, rows.data(), parents.data(), 2);
  std::vector<W> dist(n);
  std::vector<vertex_t> parent(n);
  for (vertex_t s = 0; s < g.n; ++s) {
    ds::bellman_ford(g.view(), s, dist.data(), parent.data());
    for (vertex_t t = 0; t < g.n; ++t) {
      ASSERT_EQ(dist[t], truth[s][t]) << "bellman_ford " << s << " -> " << t;
      ASSERT_EQ(rows[s * n + t], truth[s][t]) << "johnson " << s << " -> " << t;
    }
    expect_tree(g, s, dist.data(), parent.data());
    expect_tree(g, s, rows.data() + s * n, parents.data() + s * n);
  }
}

template <class W>
class NegativeWeights : public ::testing::Test {};
using weight_types = ::testing::Types<std::int64_t, double>;
TYPED_TEST_SUITE(NegativeWeights, weight_types);

TYPED_TEST(NegativeWeights, MatchFloydWarshallOnRandomGraphs) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const vertex_t n = 1 + vertex_t(seed % 12);
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    expect_all_pairs(random_graph<TypeParam>(n, std::size_t{n} * (1 + seed % 4), seed));
  }
}

TYPED_TEST(NegativeWeights, UnreachableZeroWeightsAndParallelArcs) {
  using W = TypeParam;
  // 0 -> 1 twice (the lighter wins), a zero-weight cycle 1 -> 2 -> 1, a negative arc 2 -> 3,
  // vertex 4 unreachable from everyone, 5 reaching 0 only.
  owned_csr<W> g(6, {{0, 1, W(5)}, {0, 1, W(-2)}, {1, 2, W(3)}, {2, 1, W(-3)}, {2, 3, W(-7)}, {5, 0, W(1)}});
  expect_all_pairs(g);
  std::vector<W> dist(6);
  std::vector<vertex_t> parent(6);
  ds::bellman_ford(g.view(), 0, dist.data(), parent.data());
  EXPECT_EQ(dist[3], W(-6));
  EXPECT_EQ(dist[4], ds::unreachable<W>());
  EXPECT_EQ(dist[5], ds::unreachable<W>());
  EXPECT_EQ(parent[4], invalid_vertex);
}

TYPED_TEST(NegativeWeights, NoVerticesAndOne) {
  using W = TypeParam;
  owned_csr<W> empty(0, {});
  W d[1] = {W(7)};
  EXPECT_THROW(ds::bellman_ford(empty.view(), 0, d, nullptr), std::out_of_range);
  ds::johnson(empty.view(), {}, d, nullptr);  // no sources: nothing written
  EXPECT_EQ(d[0], W(7));
  EXPECT_TRUE(ds::johnson_potentials(empty.view()).empty());

  owned_csr<W> one(1, {{0, 0, W(2)}});  // a positive self-loop changes nothing
  vertex_t parent[1];
  ds::bellman_ford(one.view(), 0, d, parent);
  EXPECT_EQ(d[0], W(0));
  EXPECT_EQ(parent[0], invalid_vertex);
  vertex_t source = 0;
  ds::johnson(one.view(), {&source, 1}, d, parent);
  EXPECT_EQ(d[0], W(0));

  owned_csr<W> loop(1, {{0, 0, W(-1)}});  // a negative self-loop is a negative cycle
  try {
    ds::bellman_ford(loop.view(), 0, d, nullptr);
    FAIL() << "no negative_cycle";
  } catch (const ds::negative_cycle& e) {
    EXPECT_EQ(e.vertex(), 0u);
  }
  EXPECT_THROW(ds::johnson_potentials(loop.view()), ds::negative_cycle);
}

// Random graphs with a negative cycle planted: both solvers name a vertex on a negative cycle;
// bellman_ford from a source that cannot reach one answers, as Floyd-Warshall says.
TYPED_TEST(NegativeWeights, NegativeCycleNamesAVertexOnIt) {
  using W = TypeParam;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    const vertex_t n = 3 + vertex_t(seed % 6);
    owned_csr<W> base = random_graph<W>(n, 2 * std::size_t{n}, seed);
    std::vector<arc<W>> arcs = base.arcs;
    const vertex_t a = vertex_t(seed % n), b = vertex_t((seed / 2 + 1) % n), c = vertex_t((seed / 3 + 2) % n);
    arcs.push_back({a, b, W(1)});
    arcs.push_back({b, c, W(1)});
    arcs.push_back({c, a, W(-3 - W(seed % 4))});
    owned_csr<W> g(n, std::move(arcs));
    const auto truth = floyd_warshall(g);
    try {
      ds::johnson_potentials(g.view());
      FAIL() << "johnson found no negative cycle";
    } catch (const ds::negative_cycle& e) {
      EXPECT_TRUE(on_negative_cycle(g, e.vertex())) << "vertex " << e.vertex();
    }
    std::vector<W> dist(n);
    for (vertex_t s = 0; s < n; ++s) {
      bool reaches_cycle = false;
      for (vertex_t v = 0; v < n; ++v) reaches_cycle |= truth[s][v] != ds::unreachable<W>() && truth[v][v] < 0;
      try {
        ds::bellman_ford(g.view(), s, dist.data(), nullptr);
        EXPECT_FALSE(reaches_cycle) << "source " << s;
        for (vertex_t t = 0; t < n; ++t) EXPECT_EQ(dist[t], truth[s][t]) << s << " -> " << t;
      } catch (const ds::negative_cycle& e) {
        EXPECT_TRUE(reaches_cycle) << "source " << s;
        EXPECT_TRUE(on_negative_cycle(g, e.vertex())) << "source " << s << " vertex " << e.vertex();
      }
    }
  }
}

TYPED_TEST(NegativeWeights, UndirectedNegativeEdgeIsACycle) {
  using W = TypeParam;
  owned_csr<W> g(3, {{0, 1, W(4)}, {1, 0, W(4)}, {1, 2, W(-1)}, {2, 1, W(-1)}});
  std::vector<W> dist(3);
  try {
    ds::bellman_ford(g.view(), 0, dist.data(), nullptr);
    FAIL() << "no negative_cycle";
  } catch (const ds::negative_cycle& e) {
    EXPECT_TRUE(e.vertex() == 1 || e.vertex() == 2) << e.vertex();
  }
}

TYPED_TEST(NegativeWeights, MalformedArraysAreRefused) {
  using W = TypeParam;
  const std::vector<edge_t> offsets{0, 1, 1};
  const std::vector<vertex_t> bad_target{2};
  const std::vector<W> weights{W(-1)};
  std::vector<W> dist(2);
  EXPECT_THROW(ds::bellman_ford(ds::signed_csr<W>{2, offsets, bad_target, weights}, 0, dist.data(), nullptr),
               std::invalid_argument);
  const std::vector<vertex_t> target{1};
  const std::vector<edge_t> short_offsets{0, 1};
  EXPECT_THROW(ds::bellman_ford(ds::signed_csr<W>{2, short_offsets, target, weights}, 0, dist.data(), nullptr),
               std::invalid_argument);
  const std::vector<W> no_weights;
  EXPECT_THROW(ds::bellman_ford(ds::signed_csr<W>{2, offsets, target, no_weights}, 0, dist.data(), nullptr),
               std::invalid_argument);
  const vertex_t source = 2;
  EXPECT_THROW(ds::johnson(ds::signed_csr<W>{2, offsets, target, weights}, {&source, 1}, dist.data(), nullptr),
               std::out_of_range);
}

TEST(NegativeWeights, Int64SumsAreExactAndOverflowIsAnError) {
  const std::int64_t big = std::int64_t{1} << 62;
  // 0 -> 1 -> 2 sums past 2^63 - 2; 0 -> 2 directly fits, so the long sum is only skipped.
  owned_csr<std::int64_t> fits(3, {{0, 1, big}, {1, 2, big}, {0, 2, 5}, {2, 1, -3}});
  expect_all_pairs(fits);
  owned_csr<std::int64_t> too_long(3, {{0, 1, big}, {1, 2, big}});
  std::vector<std::int64_t> dist(3);
  EXPECT_THROW(ds::bellman_ford(too_long.view(), 0, dist.data(), nullptr), ds::distance_overflow);
  const vertex_t source = 0;
  EXPECT_THROW(ds::johnson(too_long.view(), {&source, 1}, dist.data(), nullptr), ds::distance_overflow);
  owned_csr<std::int64_t> too_low(3, {{0, 1, -big}, {1, 2, -big - 1}});
  EXPECT_THROW(ds::bellman_ford(too_low.view(), 0, dist.data(), nullptr), ds::distance_overflow);
  // 2^53 + 1 and its sums are exact in int64 (a double would round them).
  const std::int64_t odd = (std::int64_t{1} << 53) + 1;
  owned_csr<std::int64_t> exact(3, {{0, 1, odd}, {1, 2, -2}});
  ds::bellman_ford(exact.view(), 0, dist.data(), nullptr);
  EXPECT_EQ(dist[2], odd - 2);
}

TEST(NegativeWeights, DoubleRoundingAroundAZeroCycleIsNotACycle) {
  // -0.1 - 0.2 + 0.3 sums to -5.55e-17 in doubles: scipy's tolerance (1e-15) takes it as zero.
  owned_csr<double> g(3, {{0, 1, -0.1}, {1, 2, -0.2}, {2, 0, 0.3}});
  std::vector<double> dist(3);
  EXPECT_NO_THROW(ds::bellman_ford(g.view(), 0, dist.data(), nullptr));
  EXPECT_NEAR(dist[2], -0.3, 1e-15);
  EXPECT_NO_THROW(ds::johnson_potentials(g.view()));
  owned_csr<double> real(3, {{0, 1, -0.1}, {1, 2, -0.2}, {2, 0, 0.29}});
  EXPECT_THROW(ds::bellman_ford(real.view(), 0, dist.data(), nullptr), ds::negative_cycle);
}

}  // namespace
