// Exact distances in the input's own type (sssp.hpp's distance_type): the uint32 / uint64 choice
// at its boundary, integer paths past 2^32 and 2^53, uint64 weights, real weights in float64
// against a float64 Dijkstra, float32 only when asked, and the solvers' dispatch of 64-bit types.
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deltasplit/many_sources.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;
using namespace deltasplit_test;

namespace {

ds::options on_cpu(ds::strategy how = ds::strategy::delta_stepping_cpu) {
  ds::options o;
  o.how = how;
  o.device = ds::device_kind::cpu;
  o.threads = 2;
  o.predecessors = true;
  return o;
}

// Every CPU path (delta-stepping, Dijkstra, a GPU strategy falling back to the CPU) gives the
// oracle's distances bit for bit, of its type, with a valid tree.
void expect_every_cpu_solver_exact(const csr& g, vertex_t source, ds::distance_type type,
                                   ds::distance_type real_type = ds::distance_type::float64) {
  const ds::result oracle = ds::dijkstra(g, source, true, real_type);
  ASSERT_EQ(oracle.type, type);
  for (ds::strategy how : {ds::strategy::delta_stepping_cpu, ds::strategy::dijkstra, ds::strategy::multisplit}) {
    ds::options o = on_cpu(how);
    o.real_type = real_type;
    const ds::result r = ds::solver(g, o).run(source);
    EXPECT_TRUE(identical_distances(r, oracle)) << ds::strategy_name(how);
    EXPECT_EQ(r.stats.distance_type, ds::distance_type_name(type)) << ds::strategy_name(how);
    const ds::validation v = ds::validate(g, source, r);
    EXPECT_TRUE(v.ok) << ds::strategy_name(how) << ": " << v.message;
  }
}

}  // namespace

TEST(DistanceType, Names) {
  for (ds::distance_type t : {ds::distance_type::uint32, ds::distance_type::uint64, ds::distance_type::float32,
                              ds::distance_type::float64})
    EXPECT_EQ(ds::distance_type_from_name(ds::distance_type_name(t)), t);
  EXPECT_THROW(ds::distance_type_from_name("int64"), std::invalid_argument);
  EXPECT_TRUE(ds::is_wide(ds::distance_type::uint64));
  EXPECT_FALSE(ds::is_wide(ds::distance_type::float32));
}

// uint32 exactly when no simple path can pass 2^32 - 2: the sum of the rows' heaviest arcs less
// the smallest of them.
TEST(DistanceType, Uint32OrUint64AtTheBoundary) {
  const double half = 2147483647;  // 2 x half = 2^32 - 2
  EXPECT_EQ(ds::distance_type_for(make_csr(3, {{0, 1, half}, {1, 2, half}})), ds::distance_type::uint32);
  EXPECT_EQ(ds::distance_type_for(make_csr(3, {{0, 1, half}, {1, 2, half + 1}})), ds::distance_type::uint64);
  // A star: max weight x (n - 1) passes 2^32 - 2, but a simple path takes one heavy arc at most.
  std::vector<arc> star;
  for (vertex_t v = 1; v < 10; ++v) star.push_back({0, v, 3000000000.0});
  EXPECT_EQ(ds::distance_type_for(make_csr(10, star)), ds::distance_type::uint32);
  EXPECT_EQ(ds::distance_type_for(make_csr(0, {})), ds::distance_type::uint32);
  EXPECT_EQ(ds::distance_type_for(make_csr(1, {})), ds::distance_type::uint32);
  const csr wide = make_csr(2, {{0, 1, 5}}, weight_kind::integer, true);
  EXPECT_EQ(ds::distance_type_for(wide), ds::distance_type::uint64) << "uint64 weights";
  const csr real = make_csr(2, {{0, 1, 0.5}}, weight_kind::real);
  EXPECT_EQ(ds::distance_type_for(real), ds::distance_type::float64);
  EXPECT_EQ(ds::distance_type_for(real, ds::distance_type::float32), ds::distance_type::float32);
  EXPECT_THROW(ds::distance_type_for(real, ds::distance_type::uint32), std::invalid_argument);
}

TEST(DistanceType, IntegerPathsPast32And53Bits) {
  // Past 2^32 with uint32 weights.
  csr g = make_csr(5, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}, {2, 3, 4000000000.0}, {0, 4, 1}, {4, 3, 7}});
  expect_every_cpu_solver_exact(g, 0, ds::distance_type::uint64);
  EXPECT_EQ(ds::dijkstra(g, 1).uint64_distances[3], 8000000000ull);
  // Past 2^53, where doubles stop holding every integer: 3 x (2^52 + 1) is odd.
  const double w = 4503599627370497.0;  // 2^52 + 1
  csr big = make_csr(4, {{0, 1, w}, {1, 2, w}, {2, 3, w}}, weight_kind::integer, true);
  expect_every_cpu_solver_exact(big, 0, ds::distance_type::uint64);
  EXPECT_EQ(ds::dijkstra(big, 0).uint64_distances[3], 13510798882111491ull);
}

TEST(DistanceType, Uint64WeightsFromArraysStayExact) {
  const std::vector<vertex_t> src = {0, 1}, dst = {1, 2};
  const std::vector<std::uint64_t> w = {(std::uint64_t{1} << 40) + 3, 5};
  const csr g = graph::clean_csr_from_arcs(3, src, dst, w);
  ASSERT_TRUE(g.wide());
  EXPECT_EQ(g.uint64_weights[0], (std::uint64_t{1} << 40) + 3);
  const ds::result r = ds::solve(g, 0, on_cpu());
  ASSERT_EQ(r.type, ds::distance_type::uint64);
  EXPECT_EQ(r.uint64_distances, (std::vector<std::uint64_t>{0, (std::uint64_t{1} << 40) + 3, (std::uint64_t{1} << 40) + 8}));
}

// float64 of double weights: 0.1 + 0.2 is 0.30000000000000004, and 1e8 + 0.001 keeps its 0.001.
TEST(DistanceType, RealWeightsInFloat64) {
  const std::vector<vertex_t> src = {0, 1, 0, 3}, dst = {1, 2, 3, 4};
  const std::vector<double> w = {0.1, 0.2, 1e8, 0.001};
  const csr g = graph::clean_csr_from_arcs(5, src, dst, w);
  expect_every_cpu_solver_exact(g, 0, ds::distance_type::float64);
  const ds::result r = ds::solve(g, 0, on_cpu());
  EXPECT_EQ(r.float64_distances[2], 0.30000000000000004);
  EXPECT_EQ(r.float64_distances[4], 1e8 + 0.001);
  // float32 only when asked: the weights rounded to float, sums in float.
  ds::options single = on_cpu();
  single.real_type = ds::distance_type::float32;
  const ds::result f = ds::solve(g, 0, single);
  ASSERT_EQ(f.type, ds::distance_type::float32);
  EXPECT_EQ(f.real_distances[2], 0.1f + 0.2f);
  EXPECT_EQ(f.real_distances[4], 1e8f) << "float32 loses the 0.001";
  expect_every_cpu_solver_exact(g, 0, ds::distance_type::float32, ds::distance_type::float32);
}

// Random graphs of float weights solved in float64 against a float64 Dijkstra written here.
TEST(DistanceType, RandomRealGraphsMatchAFloat64Dijkstra) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    csr g = random_graph(300, 2000, seed, 10.0, weight_kind::real);
    const std::vector<double> truth = bellman_ford(g, 0);  // exact sums in double of the float weights
    const ds::result r = ds::solve(g, 0, on_cpu());
    ASSERT_EQ(r.type, ds::distance_type::float64);
    for (vertex_t v = 0; v < g.num_vertices; ++v)
      EXPECT_NEAR(r.distance(v), truth[v], 1e-12 * truth[v]) << "vertex " << v;
    expect_every_cpu_solver_exact(g, 0, ds::distance_type::float64);
  }
}

// A CSR whose weights are all integral floats: real weights, float64 distances equal to the
// integer graph's.
TEST(DistanceType, IntegralFloatWeights) {
  csr ints = random_graph(200, 1200, 5, 1000);
  csr reals = ints;
  reals.kind = weight_kind::real;
  reals.width = graph::weight_width::wide;
  reals.float64_weights.assign(ints.int_weights.begin(), ints.int_weights.end());
  reals.int_weights.clear();
  const ds::result a = ds::solve(ints, 0, on_cpu()), b = ds::solve(reals, 0, on_cpu());
  ASSERT_EQ(a.type, ds::distance_type::uint32);
  ASSERT_EQ(b.type, ds::distance_type::float64);
  EXPECT_EQ(distances_of(a), distances_of(b));
}

// uint64 of 64-bit weights (paths past 2^53, where a double no longer holds every integer) runs
// where every type runs: on the GPU in 64 bits where one is usable, else on the CPU, and device gpu
// without one is refused with the reason.
TEST(DistanceType, Uint64SolvesRunWhereEveryTypeRuns) {
  const csr huge = make_csr(3, {{0, 1, 1152921504606846976.0}, {1, 2, 1152921504606846976.0}},  // 2^60 each
                            graph::weight_kind::integer, true);
  ds::options automatic;
  automatic.how = ds::strategy::multisplit;
  const ds::result r = ds::solve(huge, 0, automatic);
  EXPECT_EQ(r.stats.device.rfind("cpu", 0) == 0, !ds::gpu_available()) << r.stats.device;
  EXPECT_EQ(r.stats.distance_type, "uint64");
  EXPECT_EQ(r.stats.note, "");
  EXPECT_EQ(r.uint64_distances[2], 2305843009213693952ull);
  ds::options gpu = automatic;
  gpu.device = ds::device_kind::gpu;
  ds::many_source_options m;
  if (!ds::gpu_available()) {
    EXPECT_THROW(ds::solver(huge, gpu), std::runtime_error);
    EXPECT_THROW(ds::many_sources(huge, gpu, m), std::runtime_error);
  }
  csr g = make_csr(3, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}});
  // run_into takes the buffer of the solve's type.
  ds::solver s(g, on_cpu());
  std::vector<std::uint32_t> narrow(3);
  ds::output_buffers out;
  out.int_distances = narrow.data();
  EXPECT_THROW(s.run_into(0, out), std::invalid_argument);
  std::vector<std::uint64_t> wide(3);
  out.uint64_distances = wide.data();
  s.run_into(0, out);
  EXPECT_EQ(wide, (std::vector<std::uint64_t>{0, 4000000000ull, 8000000000ull}));
}

TEST(DistanceType, ManySourcesRowsInEveryType) {
  csr g = make_csr(3, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}});
  ds::options o = on_cpu(ds::strategy::dijkstra);
  const ds::distance_table t = ds::od_table(g, {0, 1}, {}, o);
  ASSERT_EQ(t.type, ds::distance_type::uint64);
  EXPECT_EQ(t.uint64_distances, (std::vector<std::uint64_t>{0, 4000000000ull, 8000000000ull, ds::uint64_infinity, 0,
                                                            4000000000ull}));
  const std::vector<vertex_t> src = {0, 1}, dst = {1, 2};
  const std::vector<double> w = {0.1, 0.2};
  const csr real = graph::clean_csr_from_arcs(3, src, dst, w);
  const ds::distance_table d = ds::od_table(real, {0}, {2}, o);
  ASSERT_EQ(d.type, ds::distance_type::float64);
  EXPECT_EQ(d.float64_distances, (std::vector<double>{0.30000000000000004}));
  o.real_type = ds::distance_type::float32;
  const ds::distance_table f = ds::od_table(real, {0}, {2}, o);
  ASSERT_EQ(f.type, ds::distance_type::float32);
  EXPECT_EQ(f.real_distances, (std::vector<float>{0.1f + 0.2f}));
}
