// strategy phast on the CPU (the fallback of sssp::solver and sssp::many_sources without a GPU):
// distances and trees against Dijkstra, the cutoff, overflow, switching strategies on one solver,
// and the refusals. The hierarchy itself is tested in contraction_hierarchy_test.cpp.
#include <cmath>
#include <stdexcept>

#include "common/datasets.hpp"
#include "deltasplit/graph/io.hpp"
#include "sssp/many_sources_checks.hpp"
#include "sssp/phast_checks.hpp"

namespace {

using namespace deltasplit_test;

const phast_ds::device_kind cpu = phast_ds::device_kind::cpu;

TEST(PhastCpu, SolverMatchesDijkstraOnSmallGraphs) {
  const csr ches = deltasplit::graph::read_graph(dataset_path("chesapeake.mtx"));
  expect_phast_matches_dijkstra(ches, {0, 5, 38}, phast_on(cpu, true), "chesapeake");
  expect_phast_matches_dijkstra(small_grid(25, 3), {0, 100, 699}, phast_on(cpu, true), "grid with cut vertices");
  expect_phast_matches_dijkstra(small_rmat(10, 2), {0, 1, 900}, phast_on(cpu, true), "rmat");
  expect_phast_matches_dijkstra(zero_weight_graph(400, 7), {0, 3, 399}, phast_on(cpu, true), "zero weights");
  for (weight_kind kind : {weight_kind::integer, weight_kind::real})
    expect_phast_matches_dijkstra(crafted_graph(kind), {0, 3, 5, 6}, phast_on(cpu, true), "crafted");
  const csr real = random_graph(600, 3000, 4, 30.0, weight_kind::real);
  expect_phast_matches_dijkstra(real, {0, 17, 599}, phast_on(cpu, true), "real weights");
  expect_phast_matches_dijkstra(make_csr(1, {}), {0}, phast_on(cpu, true), "one vertex");
}

TEST(PhastCpu, TreesAlongLongZeroWeightChains) {
  // A zero-weight path of 60,000 vertices in both directions, a zero-weight arc closing it into a
  // cycle and a positive arc into its middle that is never tight: every vertex is at distance 0,
  // reached only over zero-weight arcs from equally far ones. The tree is built breadth-first over
  // them: a pass over the vertices per vertex along the chain would be 3.6e9 steps.
  const vertex_t n = 60000;
  std::vector<arc> arcs;
  for (vertex_t v = 0; v + 1 < n; ++v) arcs.push_back({v, v + 1, 0}), arcs.push_back({v + 1, v, 0});
  arcs.push_back({0, n / 2, 1});
  arcs.push_back({n - 1, 0, 0});
  expect_phast_matches_dijkstra(make_csr(n, arcs), {0, n / 2, n - 1}, phast_on(cpu, true), "zero-weight chain");
}

TEST(PhastCpu, CutoffMakesFartherVerticesUnreachable) {
  const csr grid = small_grid(25, 5);
  for (double cutoff : cutoffs_across(grid, 0))
    expect_phast_matches_dijkstra(grid, {0, 31}, phast_on(cpu, true, cutoff), "grid, cutoff");
  expect_phast_matches_dijkstra(random_graph(300, 1500, 9, 20.0, weight_kind::real), {0}, phast_on(cpu, true, 7.25),
                                "real, cutoff");
}

// Integer weights whose paths may pass 2^32 - 2 have uint64 distances: a hierarchy of 64-bit
// weights swept on the CPU, Dijkstra's exactly (one source with the tree and a cutoff, many
// sources, pairs), from 32-bit weights (widened) and from 64-bit ones past 2^53; float64 is
// refused (sums through shortcuts would not be the left-to-right sums every other solver gives).
TEST(PhastCpu, UInt64DistancesOnTheCpuAndFloat64Refused) {
  const csr narrow = random_graph(300, 1500, 21, 3e9);  // 32-bit weights, paths past 2^32
  const csr wide = random_graph(250, 1200, 22, 9e15, weight_kind::integer, true);  // past 2^53
  for (const csr* g : {&narrow, &wide}) {
    const std::string what = g == &narrow ? "32-bit weights" : "64-bit weights";
    ds::many_sources rows(*g, phast_on(cpu), batch(16));
    ASSERT_EQ(rows.type(), ds::distance_type::uint64) << what;
    EXPECT_EQ(rows.method(), "phast");
    expect_rows_match_dijkstra(*g, rows, first_sources(g->num_vertices, 40, 3), {7, 0, 7}, what + ", rows");
    expect_phast_matches_dijkstra(*g, {0, 17, g->num_vertices - 1}, phast_on(cpu, true), what);
    const phast_ds::result far = phast_ds::dijkstra(*g, 0);
    ASSERT_EQ(far.stats.distance_type, "uint64");
    double farthest = 0;
    for (vertex_t v = 0; v < g->num_vertices; ++v)
      if (far.reached(v)) farthest = std::max(farthest, far.distance(v));
    EXPECT_GT(farthest, 4294967294.0) << what;
    expect_phast_matches_dijkstra(*g, {0, 5}, phast_on(cpu, true, farthest / 2), what + ", cutoff");
    const std::vector<vertex_t> from = first_sources(g->num_vertices, 60, 4), to = first_sources(g->num_vertices, 60, 5);
    std::vector<std::uint64_t> pairs(from.size());
    rows.pair_distances(from.data(), to.data(), from.size(), pairs.data());
    for (std::size_t i = 0; i < from.size(); ++i) {
      const phast_ds::result want = phast_ds::dijkstra(*g, from[i]);
      EXPECT_EQ(pairs[i], want.uint64_distances[to[i]]) << what << ", pair " << from[i] << " -> " << to[i];
    }
  }
  phast_ds::options doubles = phast_on(cpu);
  doubles.real_type = phast_ds::distance_type::float64;
  const csr real = make_csr(2, {{0, 1, 0.5}}, weight_kind::real);
  try {
    phast_ds::solver s(real, doubles);
    ADD_FAILURE() << "phast built on float64 distances";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ds::many_sources(real, doubles, batch(2)), std::invalid_argument);
}

TEST(PhastCpu, SwitchingStrategiesOnOneSolver) {
  const csr g = small_grid(20, 8);
  phast_ds::options o = phast_on(cpu);
  phast_ds::solver s(g, o);
  EXPECT_FALSE(s.on_gpu());
  const phast_ds::result a = s.run(3);
  EXPECT_GT(a.stats.setup_ms, 0);
  o.how = phast_ds::strategy::delta_stepping_cpu;
  s.set_options(o);
  const phast_ds::result b = s.run(3);
  EXPECT_EQ(b.stats.setup_ms, 0);
  EXPECT_EQ(a.int_distances, b.int_distances);
  o.how = phast_ds::strategy::dijkstra;
  s.set_options(o);
  EXPECT_EQ(s.run(3).int_distances, a.int_distances);
  o.how = phast_ds::strategy::phast;
  s.set_options(o);
  EXPECT_EQ(s.run(3).stats.setup_ms, a.stats.setup_ms);  // the hierarchy built once
  // A solver built for another strategy builds the hierarchy when switched to phast.
  phast_ds::options d;
  d.how = phast_ds::strategy::dijkstra;
  d.device = cpu;
  phast_ds::solver t(g, d);
  d.how = phast_ds::strategy::phast;
  t.set_options(d);
  const phast_ds::result c = t.run(3);
  EXPECT_EQ(c.stats.strategy, "phast");
  EXPECT_EQ(c.int_distances, a.int_distances);
}

TEST(PhastCpu, RefusalsAndNames) {
  EXPECT_EQ(phast_ds::strategy_from_name("phast"), phast_ds::strategy::phast);
  EXPECT_STREQ(phast_ds::strategy_name(phast_ds::strategy::phast), "phast");
  EXPECT_FALSE(phast_ds::is_gpu_strategy(phast_ds::strategy::phast));
  const csr g = small_grid(5, 1);
  phast_ds::solver s(g, phast_on(cpu));
  phast_ds::output_buffers out;
  std::vector<std::uint32_t> dist(g.num_vertices);
  out.int_distances = dist.data();
  out.space = phast_ds::memory_space::device;
  EXPECT_THROW(s.run_into(0, out), std::invalid_argument);
  if (!phast_ds::gpu_available()) {
    EXPECT_THROW(phast_ds::solver(g, phast_on(phast_ds::device_kind::gpu)), std::runtime_error);
  }
}

TEST(PhastCpu, ManySourcesRowsMatchDijkstra) {
  phast_ds::options o = phast_on(cpu);
  o.threads = 3;
  const csr grid = small_grid(20, 6);
  ds::many_sources a(grid, o, batch(7));
  ASSERT_FALSE(a.on_gpu());
  EXPECT_GT(a.setup_ms(), 0);
  expect_rows_match_dijkstra(grid, a, first_sources(grid.num_vertices, 30, 4), {5, 5, 0, 400}, "grid targets");
  const csr real = random_graph(500, 3000, 2, 50.0, weight_kind::real);
  ds::many_sources b(real, o);
  expect_rows_match_dijkstra(real, b, first_sources(real.num_vertices, 20, 5), {}, "real");
  const csr zeros = zero_weight_graph(300, 3);
  ds::many_sources c(zeros, o, batch(4));
  expect_rows_match_dijkstra(zeros, c, {0, 0, 299, 5, 17}, {}, "zero weights, duplicate sources");
}

}  // namespace
