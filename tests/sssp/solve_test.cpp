// The public API around the solvers: names, dispatch between GPU and CPU, option checks, result
// accessors, solver reuse.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
using namespace deltasplit_test;

TEST(Strategy, NamesRoundTrip) {
  for (ds::strategy s : {ds::strategy::near_far, ds::strategy::bucketing, ds::strategy::multisplit,
                         ds::strategy::workfront, ds::strategy::delta_stepping_cpu, ds::strategy::dijkstra})
    EXPECT_EQ(ds::strategy_from_name(ds::strategy_name(s)), s);
  const std::vector<std::string> names = ds::strategy_names();  // the Python package's STRATEGIES
  ASSERT_EQ(names.size(), 7u);
  for (const std::string& name : names) EXPECT_EQ(ds::strategy_name(ds::strategy_from_name(name)), name);
  EXPECT_EQ(names.back(), "dijkstra");  // the GPU strategies first, the CPU's last
  EXPECT_STREQ(ds::strategy_name(ds::strategy::near_far), "near-far");
  EXPECT_STREQ(ds::strategy_name(ds::strategy::delta_stepping_cpu), "cpu");
  EXPECT_THROW(ds::strategy_from_name("nearfar"), std::invalid_argument);
  EXPECT_TRUE(ds::is_gpu_strategy(ds::strategy::multisplit));
  EXPECT_TRUE(ds::is_gpu_strategy(ds::strategy::workfront));
  EXPECT_FALSE(ds::is_gpu_strategy(ds::strategy::delta_stepping_cpu));
  EXPECT_FALSE(ds::is_gpu_strategy(ds::strategy::dijkstra));
  // runs_on_gpu adds phast; gpu_strategy_names (Python's GPU_STRATEGIES) lists exactly those, in
  // strategy_names' order, and they come first there.
  EXPECT_TRUE(ds::runs_on_gpu(ds::strategy::phast));
  EXPECT_TRUE(ds::runs_on_gpu(ds::strategy::near_far));
  EXPECT_FALSE(ds::runs_on_gpu(ds::strategy::delta_stepping_cpu));
  EXPECT_FALSE(ds::runs_on_gpu(ds::strategy::dijkstra));
  const std::vector<std::string> gpu = ds::gpu_strategy_names();
  ASSERT_EQ(gpu.size(), 5u);
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    EXPECT_EQ(gpu[i], names[i]);
    EXPECT_TRUE(ds::runs_on_gpu(ds::strategy_from_name(gpu[i]))) << gpu[i];
  }
  for (std::size_t i = gpu.size(); i < names.size(); ++i)
    EXPECT_FALSE(ds::runs_on_gpu(ds::strategy_from_name(names[i]))) << names[i];
}

TEST(Driver, NamesRoundTrip) {
  for (ds::gpu_driver d : {ds::gpu_driver::automatic, ds::gpu_driver::steps, ds::gpu_driver::partitioned,
                           ds::gpu_driver::block, ds::gpu_driver::wide})
    EXPECT_EQ(ds::driver_from_name(ds::driver_name(d)), d);
  const std::vector<std::string> names = ds::driver_names();  // the Python package's DRIVERS
  ASSERT_EQ(names.size(), 5u);
  for (const std::string& name : names) EXPECT_EQ(ds::driver_name(ds::driver_from_name(name)), name);
  EXPECT_EQ(names.front(), "auto");
  EXPECT_STREQ(ds::driver_name(ds::gpu_driver::block), "block");
  EXPECT_STREQ(ds::driver_name(ds::gpu_driver::wide), "wide");
  try {
    ds::driver_from_name("blocks");
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("known: auto, steps, partitioned, block, wide"), std::string::npos) << e.what();
  }
}

TEST(HeavyRelaxation, NamesRoundTripAndTheViewKnowsAnUndirectedGraph) {
  for (ds::heavy_relaxation h : {ds::heavy_relaxation::automatic, ds::heavy_relaxation::push, ds::heavy_relaxation::pull})
    EXPECT_EQ(ds::heavy_relaxation_from_name(ds::heavy_relaxation_name(h)), h);
  EXPECT_STREQ(ds::heavy_relaxation_name(ds::heavy_relaxation::automatic), "auto");
  EXPECT_THROW(ds::heavy_relaxation_from_name("pulled"), std::invalid_argument);
  ds::options bad;
  bad.tune.heavy = static_cast<ds::heavy_relaxation>(7);
  EXPECT_THROW(ds::solve(random_graph(10, 30, 1, 9), 0, bad), std::invalid_argument);
  csr g = random_graph(10, 30, 1, 9);
  EXPECT_FALSE(ds::csr_view(g).symmetric);
  g.origin.symmetric = true;
  EXPECT_TRUE(ds::csr_view(g).symmetric);
}

TEST(Dispatch, DeviceCpuRunsCpuDeltaSteppingForAGpuStrategy) {
  csr g = random_graph(300, 1500, 1, 100);
  for (ds::strategy how : {ds::strategy::near_far, ds::strategy::bucketing, ds::strategy::multisplit, ds::strategy::workfront}) {
    ds::options o;
    o.how = how;
    o.device = ds::device_kind::cpu;
    ds::solver s(g, o);
    EXPECT_FALSE(s.on_gpu());
    ds::result r = s.run(0);
    EXPECT_EQ(r.stats.strategy, "cpu");
    EXPECT_TRUE(ds::validate(g, 0, r).ok);
  }
}

TEST(Dispatch, AutomaticFallsBackToTheCpuWithoutAGpu) {
  std::string why;
  if (ds::gpu_available(&why)) GTEST_SKIP() << "a GPU is present; the GPU tests cover this case";
  EXPECT_FALSE(why.empty());
  csr g = random_graph(100, 500, 2, 100);
  ds::solver s(g, {});
  EXPECT_FALSE(s.on_gpu());
  EXPECT_EQ(s.run(0).stats.strategy, "cpu");
}

TEST(Dispatch, DeviceGpuWithoutAGpuFailsWithTheReason) {
  std::string why;
  if (ds::gpu_available(&why)) GTEST_SKIP() << "a GPU is present";
  csr g = random_graph(100, 500, 2, 100);
  ds::options o;
  o.device = ds::device_kind::gpu;
  try {
    ds::solver s(g, o);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(Dispatch, CpuStrategiesRefuseDeviceGpu) {
  csr g = random_graph(10, 20, 3, 10);
  for (ds::strategy how : {ds::strategy::delta_stepping_cpu, ds::strategy::dijkstra}) {
    ds::options o;
    o.how = how;
    o.device = ds::device_kind::gpu;
    EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
  }
}

TEST(Dispatch, DijkstraStrategyRunsTheOracle) {
  csr g = random_graph(200, 1000, 4, 100);
  ds::options o;
  o.how = ds::strategy::dijkstra;
  o.predecessors = true;
  ds::result r = ds::solve(g, 5, o);
  EXPECT_EQ(r.stats.strategy, "dijkstra");
  EXPECT_EQ(r.int_distances, ds::dijkstra(g, 5).int_distances);
  EXPECT_TRUE(ds::check_predecessors(g, 5, r).ok);
}

// Trees drawn from final distances (the 64-bit CPU solver's) take the closest tight parent.
TEST(Dispatch, TreeFromDistancesTakesTheClosestParent) {
  for (weight_kind kind : {weight_kind::integer, weight_kind::real}) {
    ds::options o;
    o.how = ds::strategy::delta_stepping_cpu;
    o.predecessors = true;
    ds::result r = ds::solve(scipy_tie_graph(kind, true), 4, o);
    EXPECT_EQ(r.predecessors, scipy_tie_tree_of_4) << r.stats.distance_type;
  }
}

TEST(Options, BadValuesAreRefused) {
  csr g = random_graph(10, 20, 5, 10);
  ds::options o;
  o.device = ds::device_kind::cpu;
  o.tune.delta = -1;
  EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
  o.tune.delta = std::nan("");
  EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
  o.tune.delta = 0;
  o.tune.buckets = 0;
  EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
  o.tune.buckets = 10;
  o.how = static_cast<ds::strategy>(99);
  EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
}

TEST(Solver, ReusedAcrossSourcesAndMoved) {
  csr g = random_graph(400, 2400, 6, 1000);
  ds::options o;
  o.device = ds::device_kind::cpu;
  o.threads = 2;
  ds::solver first(g, o);
  ds::solver s(std::move(first));
  for (vertex_t source : {0u, 10u, 399u, 10u})
    EXPECT_EQ(s.run(source).int_distances, ds::dijkstra(g, source).int_distances);
  EXPECT_EQ(s.settings().threads, 2u);
  EXPECT_THROW(s.run(400), std::out_of_range);
}

TEST(Solver, OutOfRangeSourceNamesFileNumbering) {
  csr g = make_csr(3, {{0, 1, 1}});
  g.origin.one_based = true;
  try {
    ds::solve(g, 3, {});
    FAIL();
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("1..3"), std::string::npos) << e.what();
  }
}

TEST(Result, Accessors) {
  csr g = make_csr(3, {{0, 1, 7}});
  ds::result r = ds::dijkstra(g, 0);
  EXPECT_TRUE(r.reached(1));
  EXPECT_EQ(r.distance(1), 7);
  EXPECT_FALSE(r.reached(2));
  EXPECT_TRUE(std::isinf(r.distance(2)));
  EXPECT_EQ(r.num_reached(), 2u);
  EXPECT_THROW(r.reached(3), std::out_of_range);
  csr real = make_csr(2, {{0, 1, 0.5}}, weight_kind::real);
  ds::result rr = ds::dijkstra(real, 0);
  EXPECT_EQ(rr.distance(1), 0.5);
  EXPECT_EQ(rr.size(), 2u);
}
