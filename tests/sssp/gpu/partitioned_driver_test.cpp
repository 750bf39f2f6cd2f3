// The partitioned driver (src/sssp/gpu/partitioned_driver.cu) forced through options.driver, against
// the Dijkstra oracle vertex by vertex, for every GPU strategy: the bundled graphs, road-like grids
// (with unreachable vertices), R-MAT (hub rows, dense regions), a grid large enough that regions keep
// their distances in global memory, long paths across many regions, zero weights and zero-weight
// cycles, one vertex, parallel arcs, real weights, overflow, many sources on one engine, and the
// statistics that name the driver. Predecessor trees are checked arc by arc and for reaching the
// source. Tests named Small* use graphs small enough for compute-sanitizer.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "common/gpu.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/gpu/gpu_checks.hpp"
#include "sssp/test_graphs.hpp"

namespace {

namespace sssp = deltasplit::sssp;
namespace graph = deltasplit::graph;
using deltasplit_test::expect_dijkstra;
using deltasplit_test::gpu_strategies;
using deltasplit_test::same_distances;
using deltasplit_test::tree_reaches_source;
using deltasplit_test::arc;
using deltasplit_test::make_csr;
using graph::vertex_t;

sssp::options partitioned(sssp::strategy how, double delta = 0, bool predecessors = false) {
  sssp::options o;
  o.how = how;
  o.device = sssp::device_kind::gpu;
  o.delta = delta;
  o.predecessors = predecessors;
  o.driver = sssp::gpu_driver::partitioned;
  return o;
}




void expect_all_strategies(const graph::csr& g, const std::vector<vertex_t>& sources, const std::string& what,
                           bool predecessors = false, double delta = 0) {
  for (sssp::strategy how : gpu_strategies) expect_dijkstra(g, sources, partitioned(how, delta, predecessors), what);
}

TEST(PartitionedDriver, BundledDatasets) {
  DELTASPLIT_REQUIRE_GPU();
  for (const char* name : {"chesapeake.mtx", "chicago-regional.mtx.gz", "email-Enron.mtx.gz", "cit-HepPh.mtx.gz",
                           "soc-slashdot0902.mtx.gz", "USA-road-d.NY.gr.gz", "road-FLA.mtx.gz"}) {
    const graph::csr g = graph::read_graph(deltasplit_test::dataset_path(name));
    expect_all_strategies(g, {0, g.num_vertices / 2}, name);
    expect_dijkstra(g, {1}, partitioned(sssp::strategy::near_far, 0, true), name);
  }
}

TEST(PartitionedDriver, RoadGridsAndRmat) {
  DELTASPLIT_REQUIRE_GPU();
  graph::grid_params grid;  // 15% of the edges removed: some vertices are cut off
  grid.rows = 300, grid.cols = 200, grid.keep_fraction = 0.85;
  expect_all_strategies(graph::generate_grid(grid), {0, 30000}, "grid", true);
  grid.rows = grid.cols = 700, grid.keep_fraction = 1.0, grid.weight_min = 1, grid.weight_max = 100;
  const graph::csr square = graph::generate_grid(grid);  // regions keep distances and arcs on chip
  expect_all_strategies(square, {0, 245350}, "grid 700 x 700", true);
  EXPECT_NE(sssp::solver(square, partitioned(sssp::strategy::near_far)).run(1).stats.driver.find("arcs in shared"),
            std::string::npos);
  for (double delta : {1.0, 40.0, 1e9}) expect_dijkstra(square, {3}, partitioned(sssp::strategy::near_far, delta), "grid");
  graph::rmat_params graph500;
  graph500.scale = 15;
  expect_all_strategies(graph::generate_rmat(graph500), {0, 1, 77}, "rmat graph500", true);
  graph::rmat_params paper;  // seed 000, Table 9: (a, b, c, d) = (0.5, 0.1, 0.1, 0.3)
  paper.scale = 14;
  paper.a = 0.5, paper.b = 0.1, paper.c = 0.1, paper.d = 0.3;
  paper.undirected = true;
  paper.seed = 7;
  expect_all_strategies(graph::generate_rmat(paper), {3}, "rmat paper", true);
}

TEST(PartitionedDriver, LargeGridKeepsDistancesInGlobalMemory) {
  DELTASPLIT_REQUIRE_GPU();
  graph::grid_params grid;  // 7.8M vertices: ~30,000 per region, past the shared-memory budget
  grid.rows = grid.cols = 2800, grid.keep_fraction = 0.95;
  const graph::csr g = graph::generate_grid(grid);
  sssp::solver s(g, partitioned(sssp::strategy::near_far, 0, true));
  const sssp::result got = s.run(1400 * 2800 + 1400);
  EXPECT_NE(got.stats.driver.find("distances in global memory"), std::string::npos) << got.stats.driver;
  const sssp::validation check = sssp::validate(g, 1400 * 2800 + 1400, got);
  EXPECT_TRUE(check.ok) << check.message;
  grid.rows = grid.cols = 1500;  // ~8,500 vertices and 34,000 arcs a region: distances fit, arcs do not
  const graph::csr mid = graph::generate_grid(grid);
  for (sssp::strategy how : gpu_strategies) {
    const sssp::result r = sssp::solver(mid, partitioned(how, 0, how == sssp::strategy::near_far)).run(7);
    EXPECT_NE(r.stats.driver.find("distances in shared memory, arcs in global memory"), std::string::npos)
        << r.stats.driver;
    const sssp::validation ok = sssp::validate(mid, 7, r);
    EXPECT_TRUE(ok.ok) << ok.message;
  }
}

TEST(PartitionedDriver, SmallZeroWeightsAndZeroCycles) {
  DELTASPLIT_REQUIRE_GPU();
  expect_all_strategies(deltasplit_test::random_graph(3000, 12000, 11, 0), {0, 5}, "all zero", true);
  expect_all_strategies(deltasplit_test::random_graph(4000, 16000, 12, 1), {2}, "weights 0..1", true);
  const graph::csr cycle = make_csr(6, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 5}, {3, 4, 0}, {4, 3, 0}, {4, 5, 0}});
  expect_all_strategies(cycle, {0, 1, 3}, "zero cycle", true);
}

TEST(PartitionedDriver, SmallUnreachableOneVertexParallelArcs) {
  DELTASPLIT_REQUIRE_GPU();
  const graph::csr two_parts = make_csr(7, {{0, 1, 4}, {1, 2, 3}, {2, 0, 1}, {4, 5, 2}, {5, 6, 2}, {3, 3, 1}});
  expect_all_strategies(two_parts, {0, 4, 3, 6}, "two components", true);
  expect_all_strategies(make_csr(1, {}), {0}, "one vertex", true);
  const graph::csr parallel =
      make_csr(4, {{0, 1, 9}, {0, 1, 2}, {0, 1, 5}, {1, 2, 1}, {1, 2, 1}, {0, 2, 3}, {2, 3, 0}, {2, 3, 4}});
  expect_all_strategies(parallel, {0, 1}, "parallel arcs", true);
}

TEST(PartitionedDriver, SmallPathAcrossRegionsAndRealWeights) {
  DELTASPLIT_REQUIRE_GPU();
  std::vector<arc> path;  // every region a segment: the distance crosses all of them, one round each
  for (vertex_t v = 0; v + 1 < 1500; ++v) path.push_back({v, v + 1, double(v % 7)});
  const graph::csr p = make_csr(1500, path);
  expect_all_strategies(p, {0, 700}, "path of 1500 hops", true, 3);
  expect_all_strategies(p, {0}, "path of 1500 hops, auto delta", true);
  const graph::csr real = deltasplit_test::random_graph(3000, 12000, 3, 1.0, graph::weight_kind::real);
  expect_all_strategies(real, {0, 9}, "real weights", true);
  expect_all_strategies(real, {4}, "real weights, delta 0.01", false, 0.01);
}

TEST(PartitionedDriver, HubRowAndLongPath) {
  DELTASPLIT_REQUIRE_GPU();
  std::vector<arc> path;
  for (vertex_t v = 0; v + 1 < 20000; ++v) path.push_back({v, v + 1, double(v % 7)});
  expect_dijkstra(make_csr(20000, path), {0}, partitioned(sssp::strategy::near_far), "path of 20000 hops");
  const vertex_t leaves = 300000;  // one thread walks the hub's row
  std::vector<arc> star;
  for (vertex_t v = 1; v <= leaves; ++v) {
    star.push_back({0, v, double((v * 2654435761u) % 1001)});
    if (v % 1024 == 0) star.push_back({v, v - 1, 1});
  }
  expect_all_strategies(make_csr(leaves + 1, star), {0, 1024}, "star");
}

TEST(PartitionedDriver, SmallOverflowIsReported) {
  DELTASPLIT_REQUIRE_GPU();
  const double big = 3e9;  // two of these do not fit in 32 bits
  const graph::csr overflow = make_csr(3, {{0, 1, big}, {1, 2, big}});
  for (sssp::strategy how : gpu_strategies) {
    sssp::solver s(overflow, partitioned(how));
    EXPECT_THROW(s.run(0), sssp::distance_overflow) << sssp::strategy_name(how);
  }
  const graph::csr fine = make_csr(4, {{0, 1, big}, {1, 2, big}, {0, 3, 1}, {3, 2, 1}});
  expect_all_strategies(fine, {0}, "overflowing candidate, short path", true);
}

TEST(PartitionedDriver, ManySourcesOneEngine) {
  DELTASPLIT_REQUIRE_GPU();
  graph::grid_params gp;
  gp.rows = 150, gp.cols = 150, gp.keep_fraction = 0.9;
  const graph::csr g = graph::generate_grid(gp);
  std::vector<vertex_t> sources;
  for (vertex_t v = 0; v < 12; ++v) sources.push_back(v * 1877 % g.num_vertices);
  for (sssp::strategy how : gpu_strategies) expect_dijkstra(g, sources, partitioned(how), "grid, 12 sources");
}

TEST(PartitionedDriver, DriverIsReported) {
  DELTASPLIT_REQUIRE_GPU();
  graph::grid_params gp;
  gp.rows = gp.cols = 300;
  const graph::csr road = graph::generate_grid(gp);
  sssp::options o = partitioned(sssp::strategy::multisplit);
  const sssp::result forced = sssp::solver(road, o).run(0);
  EXPECT_EQ(forced.stats.driver.rfind("partitioned", 0), 0u) << forced.stats.driver;
  EXPECT_NE(forced.stats.driver.find("rounds"), std::string::npos) << forced.stats.driver;
  EXPECT_NE(forced.stats.driver.find("idle"), std::string::npos) << forced.stats.driver;  // the profile
  EXPECT_EQ(forced.stats.relax_ms + forced.stats.frontier_ms, 0);  // no manager filed anything
  for (sssp::gpu_driver d : {sssp::gpu_driver::automatic, sssp::gpu_driver::steps}) {
    o.driver = d;
    const sssp::result steps = sssp::solver(road, o).run(0);
    EXPECT_EQ(steps.stats.driver, "steps") << sssp::driver_name(d);
    EXPECT_TRUE(same_distances(steps, forced));
  }
  EXPECT_EQ(sssp::driver_from_name("partitioned"), sssp::gpu_driver::partitioned);
  EXPECT_EQ(sssp::driver_from_name("auto"), sssp::gpu_driver::automatic);
  EXPECT_THROW(sssp::driver_from_name("cluster"), std::invalid_argument);
}

}  // namespace
