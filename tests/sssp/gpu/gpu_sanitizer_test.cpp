// Every path of the GPU loop on graphs small enough for compute-sanitizer: for each strategy and
// small-frontier mode (light iterations block by block or cluster-synchronously, on clusters of 16,
// 8 and 1 blocks), and for each strategy on the block and wide drivers (block_driver.cuh: their far
// piles of 16 entries grow, the star's bucket spills the near set), five tests, each solving one or a few tiny
// graphs with predecessors and comparing with Dijkstra vertex by vertex. The suite's other tests
// use graphs of up to millions of vertices; under racecheck the persistent cluster kernel runs some
// thousand times slower, its cost growing with the loop's rounds times the cluster's threads (a
// 4-vertex graph: 8-13 s on a 1-block cluster, 123-190 s on a 16-block one, 8 processes sharing
// the GPU), so tests/check_gpu.sh runs this suite under the tools instead, one test a process. Small as they are, the graphs
// reach every phase of the loop: several buckets with heavy arcs (a small delta), zero weights and
// zero-weight cycles, unreachable vertices, one vertex, parallel arcs, real weights, integer
// overflow, queue regrowth, the grid-wide step (a frontier past the cluster's limit) and heavy arcs
// pulled on the grid (an undirected star too wide for the cluster's settle pass).
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/gpu/gpu_checks.hpp"
#include "sssp/test_graphs.hpp"

namespace {

namespace sssp = deltasplit::sssp;
namespace graph = deltasplit::graph;
using deltasplit_test::expect_dijkstra;
using deltasplit_test::make_csr;
using graph::vertex_t;

struct loop_path {
  sssp::strategy how;
  sssp::light_phase light;
  std::uint32_t blocks;
  sssp::gpu_driver driver = sssp::gpu_driver::steps;
};

std::string path_name(const ::testing::TestParamInfo<loop_path>& info) {
  std::string name = sssp::strategy_name(info.param.how);
  for (char& c : name)
    if (c == '-') c = '_';
  if (info.param.driver != sssp::gpu_driver::steps) return name + "_driver_" + sssp::driver_name(info.param.driver);
  return name + (info.param.light == sssp::light_phase::block ? "_block_" : "_cluster_") +
         std::to_string(info.param.blocks);
}

std::vector<loop_path> every_path() {
  std::vector<loop_path> paths;
  for (sssp::strategy how : deltasplit_test::gpu_strategies)
    for (loop_path mode : {loop_path{how, sssp::light_phase::block, 16}, {how, sssp::light_phase::block, 8},
                           {how, sssp::light_phase::cluster, 16}, {how, sssp::light_phase::cluster, 8},
                           {how, sssp::light_phase::cluster, 1}})
      paths.push_back(mode);
  for (sssp::strategy how : deltasplit_test::gpu_strategies)
    for (sssp::gpu_driver driver : {sssp::gpu_driver::block, sssp::gpu_driver::wide})
      paths.push_back({how, sssp::light_phase::automatic, 0, driver});
  return paths;
}

class GpuSanitizer : public ::testing::TestWithParam<loop_path> {
 protected:
  sssp::options options(double delta = 0) const {
    sssp::options o;
    o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
    o.how = GetParam().how;
    o.device = sssp::device_kind::gpu;
    o.tune.light = GetParam().light;
    o.tune.cluster_blocks = GetParam().blocks;
    o.tune.driver = GetParam().driver;
    o.tune.delta = delta;
    o.predecessors = true;
    return o;
  }
};

// One test per graph, so that the tools' runs can be split and timed graph by graph (racecheck of
// a 16-block cluster costs minutes per graph; tests/check_gpu.sh gives each test its own process).

// Weights 0..100 with delta 16: a dozen buckets (a delta-stepping simulation on the host: 12
// non-empty buckets, 33 light and heavy rounds), most arcs heavy, far-pile re-filing; queues of 16
// entries make the solve overflow and regrow (checked). One source on 100 vertices: racecheck's cost grows
// with the rounds times the cluster's threads, and a 300-vertex graph from two sources (140 rounds,
// every queue doubling from 16) did not finish under racecheck in 190 s on a 1-block cluster
// (bench/results/gpu_checks.md).
TEST_P(GpuSanitizer, ManyBucketsAndRegrowingQueues) {
  DELTASPLIT_REQUIRE_GPU();
  graph::csr mixed = deltasplit_test::random_graph(100, 500, 5, 100);
  sssp::options small_queues = options(16);
  small_queues.tune.queue_capacity = 16;
  const std::vector<sssp::statistics> runs =
      expect_dijkstra(mixed, {0}, small_queues, "random 100 x 500, delta 16, queues of 16");
  ASSERT_EQ(runs.size(), 1u);
  // The workfront sweep keeps every vertex in bucket 0, inside the cluster's (or the block
  // driver's) shared-memory near set: it files nothing into the queues of 16, so they never fill
  // (0 growths on the H100, every mode). The other strategies file into them and must regrow.
  if (GetParam().how != sssp::strategy::workfront) {
    EXPECT_GE(runs[0].queue_growths, 1u) << "the queues of 16 entries never filled: regrowth untested";
  }
}

// Zero-weight cycle hanging off a positive arc, a zero chain after it; two components with parallel
// arcs (make_csr keeps them; the solver relaxes every one); one vertex.
TEST_P(GpuSanitizer, ZeroCyclesParallelArcsAndOneVertex) {
  DELTASPLIT_REQUIRE_GPU();
  expect_dijkstra(make_csr(6, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 5}, {3, 4, 0}, {4, 3, 0}, {4, 5, 0}}), {0, 3},
                  options(), "zero cycle");
  expect_dijkstra(make_csr(7, {{0, 1, 4}, {0, 1, 2}, {1, 2, 3}, {2, 0, 1}, {4, 5, 2}, {5, 6, 2}, {5, 6, 2}}), {0, 4},
                  options(), "two components, parallel arcs");
  expect_dijkstra(make_csr(1, {}), {0}, options(), "one vertex");
}

// A road-like grid with real weights: the float instantiation, block-local iterations. 8 x 24:
// about half the delta-stepping rounds of the 12 x 40 grid this test used before (host simulation
// at deltas 0.1, 0.3 and 1: 174 / 88 / 46 rounds against 338 / 160 / 90), which took 160-190 s
// under racecheck on 8-block clusters.
TEST_P(GpuSanitizer, RealWeightGrid) {
  DELTASPLIT_REQUIRE_GPU();
  graph::grid_params gp;
  gp.rows = 8, gp.cols = 24, gp.keep_fraction = 0.9, gp.seed = 4;
  graph::csr grid = graph::generate_grid(gp);
  graph::csr real = grid;
  real.kind = graph::weight_kind::real;
  real.real_weights.assign(grid.int_weights.begin(), grid.int_weights.end());
  for (float& w : real.real_weights) w = 0.001f * w + 0.0625f;
  real.int_weights.clear();
  expect_dijkstra(real, {7}, options(), "grid 8 x 24, real weights");
}

// A star wider than the cluster's frontier limit: the grid-wide step takes it.
TEST_P(GpuSanitizer, StarWiderThanTheCluster) {
  DELTASPLIT_REQUIRE_GPU();
  std::vector<deltasplit_test::arc> star;
  for (vertex_t v = 1; v < 10000; ++v) star.push_back({0, v, static_cast<double>(v % 7)});
  for (vertex_t v = 1; v + 1 < 10000; v += 97) star.push_back({v, v + 1, 1});
  expect_dijkstra(make_csr(10000, star), {0}, options(), "star of 9,999 leaves");
}

// Overflow: the only path to vertex 2 sums past 2^32 - 2 (the 32-bit solve reports it, the GPU
// solves again in 64 bits); beside it, an overflowing candidate that a short path beats.
TEST_P(GpuSanitizer, IntegerOverflow) {
  DELTASPLIT_REQUIRE_GPU();
  const graph::csr far = make_csr(3, {{0, 1, 3e9}, {1, 2, 3e9}});
  EXPECT_EQ(sssp::solver(far, options()).run(0).distance(2), 6e9);
  expect_dijkstra(make_csr(4, {{0, 1, 3e9}, {1, 2, 3e9}, {0, 3, 1}, {3, 2, 1}}), {0}, options(),
                  "overflowing candidate, short path");
}

// Heavy arcs pulled (tuning::heavy pull; the step loop only): an undirected star of 40,000 leaves
// at distance 0..6 settles bucket 0 on the grid (more vertices than the cluster's settle pass
// takes); every fifth leaf has a heavy edge to a hub that nothing else reaches, so the hub, unreached
// when bucket 0 ends, pulls its 8,000-arc row through the chunk list; the hub's far neighbour is
// reached in a later bucket.
TEST_P(GpuSanitizer, HeavyArcsPulledOnTheGrid) {
  DELTASPLIT_REQUIRE_GPU();
  if (GetParam().driver != sssp::gpu_driver::steps) GTEST_SKIP() << "the step loop's settle pass";
  const vertex_t leaves = 40000, hub = leaves + 1;
  std::vector<deltasplit_test::arc> arcs;
  auto edge = [&arcs](vertex_t a, vertex_t b, double w) {
    arcs.push_back({a, b, w});
    arcs.push_back({b, a, w});
  };
  for (vertex_t v = 1; v <= leaves; ++v) {
    edge(0, v, static_cast<double>(v % 7));
    if (v % 5 == 0) edge(v, hub, static_cast<double>(16 + v % 40));
  }
  edge(hub, hub + 1, 20);
  graph::csr g = make_csr(hub + 2, arcs);
  g.origin.symmetric = true;
  sssp::options o = options(16);
  o.tune.heavy = sssp::heavy_relaxation::pull;
  const std::vector<sssp::statistics> runs = expect_dijkstra(g, {0}, o, "star of 40,000 leaves, heavy arcs pulled");
  if (GetParam().how != sssp::strategy::workfront && !runs.empty()) {
    EXPECT_GE(runs[0].heavy_pulls, 1u) << "the grid never settled: pull untested";
  }
}

// 64-bit distances: the double and uint64 instantiations of the step loop's kernels, or of the
// block and wide drivers' (16-byte queue and pile entries), several buckets with heavy arcs and
// regrowing queues or far piles, and on the step loop the 64-bit warp minimum of the heavy-arc
// pull, equal to Dijkstra's in the same type. Each graph's integer weight w becomes w * scale: a
// tenth (float64), or 2^46 + 1 (uint64 weights whose paths pass 2^53, sums a double does not hold).
void expect_wide_buckets_and_pull(sssp::options o, double scale, bool pull_too) {
  const bool real = scale < 1;
  const graph::weight_kind kind = real ? graph::weight_kind::real : graph::weight_kind::integer;
  o.real_type = sssp::distance_type::float64;
  o.tune.delta = 16 * scale;
  std::vector<deltasplit_test::arc> arcs;
  const graph::csr mixed = deltasplit_test::random_graph(100, 500, 5, 100);
  for (vertex_t u = 0; u < mixed.num_vertices; ++u)
    for (graph::edge_t e = mixed.offsets[u]; e < mixed.offsets[u + 1]; ++e)
      arcs.push_back({u, mixed.targets[e], scale * mixed.int_weights[e]});
  sssp::options queues = o;
  queues.tune.queue_capacity = 16;
  expect_dijkstra(make_csr(100, arcs, kind, true), {0}, queues, "random 100 x 500, 16 units a bucket");
  if (!pull_too) return;  // the pull is the step loop's
  const vertex_t leaves = 40000, hub = leaves + 1;  // as HeavyArcsPulledOnTheGrid: bucket 0 settles on the grid
  arcs.clear();
  auto edge = [&arcs](vertex_t a, vertex_t b, double w) {
    arcs.push_back({a, b, w});
    arcs.push_back({b, a, w});
  };
  for (vertex_t v = 1; v <= leaves; ++v) {
    edge(0, v, scale * (v % 7));
    if (v % 5 == 0) edge(v, hub, scale * (16 + v % 40));
  }
  edge(hub, hub + 1, 20 * scale);
  graph::csr star = make_csr(hub + 2, arcs, kind, true);
  star.origin.symmetric = true;
  o.tune.heavy = sssp::heavy_relaxation::pull;
  const std::vector<sssp::statistics> runs = expect_dijkstra(star, {0}, o, "star of 40,000 leaves, pulled");
  if (o.how != sssp::strategy::workfront && !runs.empty()) {
    EXPECT_GE(runs[0].heavy_pulls, 1u) << "the grid never settled: the 64-bit pull untested";
  }
}

TEST_P(GpuSanitizer, Float64BucketsAndPull) {
  DELTASPLIT_REQUIRE_GPU();
  expect_wide_buckets_and_pull(options(), 0.1, GetParam().driver == sssp::gpu_driver::steps);
}

TEST_P(GpuSanitizer, UInt64BucketsAndPull) {
  DELTASPLIT_REQUIRE_GPU();
  expect_wide_buckets_and_pull(options(), 70368744177665.0, GetParam().driver == sssp::gpu_driver::steps);  // 2^46 + 1
}

INSTANTIATE_TEST_SUITE_P(Paths, GpuSanitizer, ::testing::ValuesIn(every_path()), path_name);

}  // namespace
