// The GPU delta-stepping engine (src/sssp/gpu) against the Dijkstra oracle, vertex by vertex, for
// every GPU strategy: the bundled graphs, generated R-MAT and grid graphs, and crafted cases (zero
// weights and zero-weight cycles, unreachable vertices, one vertex, long paths, a star with a million
// leaves, a bucket too wide for the cluster-resident loop, a dense bucket
// whose heavy arcs the grid settles, parallel arcs, real weights, overflow, many
// sources on one engine, delta and K values, road-like grids through the cluster-resident loop, every
// small-frontier mode forced through the options (light phase, cluster size), queue regrowth, phase
// times only when asked for).
// Integer distances must be equal; real ones within a relative 1e-5 (validate.cpp's tolerance: the
// GPU adds the same floats but a few ulps are not a wrong answer). Predecessor trees are checked
// arc by arc (check_predecessors) and for reaching the source from every reached vertex.
#include <cmath>
#include <cstdint>
#include <limits>
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

sssp::options gpu_options(sssp::strategy how, double delta = 0, std::uint32_t buckets = 10, bool predecessors = false) {
  sssp::options o;
  o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  o.how = how;
  o.device = sssp::device_kind::gpu;
  o.tune.delta = delta;
  o.tune.buckets = buckets;
  o.predecessors = predecessors;
  // This suite tests the step loop; the other drivers and the automatic choice between them are
  // driver_test.cpp's.
  o.tune.driver = sssp::gpu_driver::steps;
  return o;
}




// The same graph with real weights w / 1000 + 1/16 (the float instantiation of every kernel).
graph::csr with_real_weights(const graph::csr& g) {
  graph::csr real = g;
  real.kind = graph::weight_kind::real;
  real.real_weights.resize(g.int_weights.size());
  for (std::size_t i = 0; i < g.int_weights.size(); ++i)
    real.real_weights[i] = 0.001f * static_cast<float>(g.int_weights[i]) + 0.0625f;
  real.int_weights.clear();
  return real;
}

// Graph500 R-MAT with both directions of every edge (marked undirected), weights [0, 1000].
graph::csr undirected_rmat(unsigned scale, std::uint64_t seed = 1) {
  graph::rmat_params p;
  p.scale = scale;
  p.undirected = true;
  p.seed = seed;
  return graph::generate_rmat(p);
}

void expect_all_strategies(const graph::csr& g, const std::vector<vertex_t>& sources, const std::string& what,
                           bool predecessors = false, double delta = 0) {
  for (sssp::strategy how : gpu_strategies) expect_dijkstra(g, sources, gpu_options(how, delta, 10, predecessors), what);
}

TEST(GpuSolver, BundledDatasets) {
  DELTASPLIT_REQUIRE_GPU();
  for (const char* name : {"chesapeake.mtx", "chicago-regional.mtx.gz", "email-Enron.mtx.gz", "cit-HepPh.mtx.gz",
                           "soc-slashdot0902.mtx.gz", "USA-road-d.NY.gr.gz", "road-FLA.mtx.gz"}) {
    graph::csr g = graph::read_graph(deltasplit_test::dataset_path(name));
    expect_all_strategies(g, {0, g.num_vertices / 2}, name);
    expect_dijkstra(g, {1}, gpu_options(sssp::strategy::multisplit, 0, 10, true), name);
  }
}

TEST(GpuSolver, GeneratedRmatAndGrid) {
  DELTASPLIT_REQUIRE_GPU();
  graph::rmat_params graph500;
  graph500.scale = 15;
  expect_all_strategies(graph::generate_rmat(graph500), {0, 1, 77}, "rmat graph500", true);
  graph::rmat_params paper;  // seed 000, Table 9: (a, b, c, d) = (0.5, 0.1, 0.1, 0.3)
  paper.scale = 14;
  paper.a = 0.5, paper.b = 0.1, paper.c = 0.1, paper.d = 0.3;
  paper.undirected = true;
  paper.seed = 7;
  expect_all_strategies(graph::generate_rmat(paper), {3}, "rmat paper");
  graph::grid_params grid;
  grid.rows = 300, grid.cols = 200, grid.keep_fraction = 0.85;
  expect_all_strategies(graph::generate_grid(grid), {0, 30000}, "grid", true);
}

TEST(GpuSolver, ZeroWeightsAndZeroCycles) {
  DELTASPLIT_REQUIRE_GPU();
  // Every weight zero: all reached vertices at distance 0, joined by zero-weight cycles.
  graph::csr zero = deltasplit_test::random_graph(3000, 12000, 11, 0);
  expect_all_strategies(zero, {0, 5}, "all zero", true);
  // Mostly zero weights: long chains of equal distances.
  graph::csr mostly = deltasplit_test::random_graph(4000, 16000, 12, 1);
  expect_all_strategies(mostly, {2}, "weights 0..1", true);
  // A zero-weight cycle 0 -> 1 -> 2 -> 0 hanging off a positive arc, and a zero chain after it.
  graph::csr cycle = make_csr(6, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 5}, {3, 4, 0}, {4, 3, 0}, {4, 5, 0}});
  expect_all_strategies(cycle, {0, 1, 3}, "zero cycle", true);
}

TEST(GpuSolver, UnreachableAndSingleVertex) {
  DELTASPLIT_REQUIRE_GPU();
  graph::csr two_parts = make_csr(7, {{0, 1, 4}, {1, 2, 3}, {2, 0, 1}, {4, 5, 2}, {5, 6, 2}, {3, 3, 1}});
  expect_all_strategies(two_parts, {0, 4, 3, 6}, "two components", true);
  graph::csr one = make_csr(1, {});
  expect_all_strategies(one, {0}, "one vertex", true);
}

TEST(GpuSolver, LongPathAndStar) {
  DELTASPLIT_REQUIRE_GPU();
  std::vector<arc> path;
  for (vertex_t v = 0; v + 1 < 6000; ++v) path.push_back({v, v + 1, double(v % 7)});
  graph::csr p = make_csr(6000, path);
  expect_all_strategies(p, {0}, "path of 6000 hops", true, 3);
  expect_dijkstra(p, {0}, gpu_options(sssp::strategy::multisplit), "path of 6000 hops, auto delta");

  const vertex_t leaves = (1u << 20) + 777;  // the hub's row is longer than a block-wide gather takes
  std::vector<arc> star;
  for (vertex_t v = 1; v <= leaves; ++v) {
    star.push_back({0, v, double((v * 2654435761u) % 1001)});
    if (v % 1024 == 0) star.push_back({v, v - 1, 1});  // a few arcs back among the leaves
  }
  graph::csr s = make_csr(leaves + 1, star);
  expect_all_strategies(s, {0, 1024}, "star with a million leaves");
}

TEST(GpuSolver, WideBucketWithHeavyArcs) {
  DELTASPLIT_REQUIRE_GPU();
  // Bucket 0 holds 40000 vertices (too many for the cluster-resident loop), whose heavy arcs land in
  // the window's later buckets and past it: the grid relaxes them once bucket 0 is used up.
  const vertex_t wide = 40000, far = 5000;
  std::vector<arc> arcs;
  for (vertex_t v = 1; v <= wide; ++v) {
    arcs.push_back({0, v, double(v % 100)});
    arcs.push_back({v, wide + 1 + v % far, double(100 + (v * 7919u) % 1400)});
  }
  graph::csr g = make_csr(wide + far + 1, arcs);
  expect_all_strategies(g, {0}, "wide bucket with heavy arcs", true, 100);
  for (std::uint32_t K : {2u, 33u})
    for (sssp::strategy how : {sssp::strategy::bucketing, sssp::strategy::multisplit})
      expect_dijkstra(g, {0, 1}, gpu_options(how, 100, K), "wide bucket with heavy arcs");
}

TEST(GpuSolver, DenseBucketSettledOnTheGrid) {
  DELTASPLIT_REQUIRE_GPU();
  // Bucket 0 holds 5000 vertices, few enough for the cluster's light iterations, each with 30 heavy
  // arcs: at this mean out-degree (155,000 arcs over 7,001 vertices: 22.1) the cluster keeps the
  // heavy arcs of at most loop_tuning::cluster_settle_limit(22.1), about 4,400 processed vertices,
  // so it hands the bucket's heavy arcs to the grid's settle kernels (the light iterations in the
  // cluster, the heavy arcs on the grid).
  const vertex_t wide = 5000, far = 2000, heavy = 30;
  std::vector<arc> arcs;
  for (vertex_t v = 1; v <= wide; ++v) {
    arcs.push_back({0, v, double(v % 100)});
    for (vertex_t j = 0; j < heavy; ++j)
      arcs.push_back({v, wide + 1 + (v * 31u + j * 977u) % far, double(100 + (v * 7919u + j * 104729u) % 1400)});
  }
  graph::csr g = make_csr(wide + far + 1, arcs);
  expect_all_strategies(g, {0}, "dense bucket settled on the grid", true, 100);
  expect_dijkstra(g, {0, 3}, gpu_options(sssp::strategy::near_far, 100, 1, true), "dense bucket, K = 1");
}

TEST(GpuSolver, ParallelArcs) {
  DELTASPLIT_REQUIRE_GPU();
  graph::csr g = make_csr(4, {{0, 1, 9}, {0, 1, 2}, {0, 1, 5}, {1, 2, 1}, {1, 2, 1}, {0, 2, 3}, {2, 3, 0}, {2, 3, 4}});
  expect_all_strategies(g, {0, 1}, "parallel arcs", true);
  expect_all_strategies(deltasplit_test::random_graph(500, 20000, 5, 50), {0}, "dense random with parallel arcs", true);
}

TEST(GpuSolver, RealWeights) {
  DELTASPLIT_REQUIRE_GPU();
  graph::csr g = deltasplit_test::random_graph(20000, 120000, 3, 1.0, graph::weight_kind::real);
  expect_all_strategies(g, {0, 9}, "real weights", true);
  expect_all_strategies(g, {4}, "real weights, delta 0.01", false, 0.01);
  graph::csr tiny = deltasplit_test::random_graph(2000, 8000, 4, 1e-6, graph::weight_kind::real);
  expect_all_strategies(tiny, {1}, "tiny real weights", true);
}

// float64 distances (real weights with options::real_type float64, the default): the GPU engine
// solves in double on the step loop, and the distances equal Dijkstra's float64 ones bit for bit
// (the same left-to-right sums in the same type), for every strategy, on double weights and on
// float weights (widened, exactly). The weights are tenths, which float32 does not hold: a float32
// solve differs from these distances almost everywhere, so the check would catch one.
using deltasplit_test::with_float64_weights;

sssp::options float64_options(sssp::strategy how, double delta = 0, bool predecessors = true) {
  sssp::options o = gpu_options(how, delta, 10, predecessors);
  o.real_type = sssp::distance_type::float64;
  return o;
}

TEST(GpuSolver, Float64DistancesAreDijkstras) {
  DELTASPLIT_REQUIRE_GPU();
  const graph::csr wide = deltasplit_test::random_graph(20000, 120000, 3, 1.0, graph::weight_kind::real, true);
  const graph::csr narrow = deltasplit_test::random_graph(20000, 120000, 3, 1.0, graph::weight_kind::real);
  graph::rmat_params graph500;
  graph500.scale = 14;
  const graph::csr rmat = with_float64_weights(graph::generate_rmat(graph500), 0.1);
  for (sssp::strategy how : gpu_strategies) {
    expect_dijkstra(wide, {0, 9}, float64_options(how), "double weights");
    expect_dijkstra(wide, {4}, float64_options(how, 0.01, false), "double weights, delta 0.01");
    expect_dijkstra(narrow, {0}, float64_options(how), "float weights, float64 distances");
    expect_dijkstra(rmat, {0, 77}, float64_options(how), "rmat graph500, tenths");
  }
  const graph::csr ny = with_float64_weights(graph::read_graph(deltasplit_test::dataset_path("USA-road-d.NY.gr.gz")), 0.1);
  sssp::options automatic = float64_options(sssp::strategy::near_far);
  automatic.tune.driver = sssp::gpu_driver::automatic;
  expect_dijkstra(ny, {0, 1000}, automatic, "USA-road-d.NY, tenths, automatic driver");
  sssp::solver s(ny, automatic);
  const sssp::result r = s.run(0);
  EXPECT_EQ(r.type, sssp::distance_type::float64);
  EXPECT_EQ(r.stats.distance_type, "float64");
  // A road graph takes the partitioned driver in 64 bits too (its regions keep 8-byte distances and
  // weights on chip; the outbox's entries are 16 bytes).
  EXPECT_EQ(r.stats.driver.rfind("partitioned", 0), 0u) << r.stats.driver;
  sssp::options single = automatic;
  single.real_type = sssp::distance_type::float32;
  const sssp::result f = sssp::solver(ny, single).run(0);
  vertex_t differ = 0;
  for (vertex_t v = 0; v < ny.num_vertices; ++v) differ += static_cast<double>(f.real_distances[v]) != r.float64_distances[v];
  EXPECT_GT(differ, ny.num_vertices / 2) << "float32 agrees with float64 on tenths: the test would not see a float32 solve";
}

TEST(GpuSolver, Float64EdgeCases) {
  DELTASPLIT_REQUIRE_GPU();
  const auto real = [](vertex_t n, std::vector<deltasplit_test::arc> arcs) {
    return make_csr(n, std::move(arcs), graph::weight_kind::real, true);
  };
  for (sssp::strategy how : gpu_strategies) {
    const sssp::options o = float64_options(how);
    const graph::csr tenths = real(3, {{0, 1, 0.1}, {1, 2, 0.2}});
    const sssp::result sum = sssp::solver(tenths, o).run(0);
    EXPECT_EQ(sum.float64_distances[2], 0.1 + 0.2);  // 0.30000000000000004, not 0.3 or float's 0.3000000119
    expect_dijkstra(real(1, {}), {0}, o, "one vertex");
    expect_dijkstra(real(6, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}, {2, 3, 0.5}, {3, 4, 0}, {4, 3, 0}, {4, 5, 0}}), {0, 3}, o,
                    "zero cycle");
    expect_dijkstra(real(7, {{0, 1, 0.4}, {0, 1, 0.2}, {1, 2, 0.3}, {2, 0, 0.1}, {4, 5, 0.2}, {5, 6, 0.2}, {5, 6, 0.2}}),
                    {0, 4}, o, "two components, parallel arcs");
    expect_dijkstra(real(4, {{0, 1, 1e300}, {1, 2, 1e300}, {0, 3, 1e-300}, {3, 2, 1e300}}), {0}, o, "huge and tiny weights");
    // A sum past the largest double is an overflow, reported as the CPU solvers report it.
    const graph::csr past_double = real(3, {{0, 1, 1e308}, {1, 2, 1e308}});
    EXPECT_THROW(sssp::solver(past_double, o).run(0), sssp::distance_overflow);
    // The cutoff: vertices past it are unreachable, as on the CPU.
    sssp::options cut = o;
    cut.cutoff = 0.35;
    const graph::csr chain = real(5, {{0, 1, 0.1}, {1, 2, 0.1}, {2, 3, 0.1}, {3, 4, 0.1}});
    const sssp::result c = sssp::solver(chain, cut).run(0);
    EXPECT_EQ(c.float64_distances[3], 0.1 + 0.1 + 0.1);
    EXPECT_TRUE(std::isinf(c.float64_distances[4]));
  }
  // Every driver solves in float64: the block and wide drivers (16-byte entries), the partitioned
  // driver (sm_90; elsewhere it refuses with the reason).
  const graph::csr tenths = real(3, {{0, 1, 0.1}, {1, 2, 0.2}});
  for (sssp::gpu_driver d : {sssp::gpu_driver::block, sssp::gpu_driver::wide}) {
    sssp::options forced = float64_options(sssp::strategy::near_far);
    forced.tune.driver = d;
    const sssp::result r = sssp::solver(tenths, forced).run(0);
    EXPECT_EQ(r.float64_distances[2], 0.1 + 0.2) << sssp::driver_name(d);
    EXPECT_EQ(r.stats.driver.rfind(sssp::driver_name(d), 0), 0u) << r.stats.driver;
  }
  sssp::options partitioned = float64_options(sssp::strategy::near_far);
  partitioned.tune.driver = sssp::gpu_driver::partitioned;
  sssp::solver s(tenths, partitioned);
  try {
    EXPECT_EQ(s.run(0).float64_distances[2], 0.1 + 0.2);
  } catch (const std::runtime_error& e) {  // a GPU before sm_90
    EXPECT_NE(std::string(e.what()).find("sm_90"), std::string::npos) << e.what();
  }
}

// Integer weights whose paths may pass 2^32 - 2 have uint64 distances: the GPU solves in 32 bits
// and widens, or, when a distance does pass it (the engine's overflow check), solves again in 64
// bits, and so directly for the solver's later sources (solve.cpp). 64-bit weights take the
// 64-bit engine directly, also past 2^53 where a double no longer holds every integer; only a
// distance past 2^64 - 2 is an overflow. Either way the distances are exact and the note says
// which ran.
TEST(GpuSolver, IntegerPathsPast32BitsAreExact) {
  DELTASPLIT_REQUIRE_GPU();
  const double big = 3e9;  // two of these do not fit in 32 bits
  graph::csr overflow = make_csr(3, {{0, 1, big}, {1, 2, big}});
  for (sssp::strategy how : gpu_strategies) {
    sssp::solver s(overflow, gpu_options(how));
    const sssp::result r = s.run(0);
    ASSERT_EQ(r.type, sssp::distance_type::uint64) << sssp::strategy_name(how);
    EXPECT_EQ(r.uint64_distances[2], 6000000000u) << sssp::strategy_name(how);
    EXPECT_EQ(r.stats.note, "a distance past 2^32 - 2: solved again on the GPU in 64 bits");
    // Later sources go to 64 bits directly (no 32-bit attempt): the graph's paths are long.
    const sssp::result later = s.run(1);
    EXPECT_EQ(later.uint64_distances[2], 3000000000u);
    EXPECT_NE(later.stats.note.find("an earlier solve passed 2^32 - 2"), std::string::npos) << later.stats.note;
  }
  // A candidate overflows, but a short path reaches the same vertex: the GPU's 32 bits suffice.
  graph::csr fine = make_csr(4, {{0, 1, big}, {1, 2, big}, {0, 3, 1}, {3, 2, 1}});
  expect_all_strategies(fine, {0}, "overflowing candidate, short path", true);
  const sssp::result r = sssp::solver(fine, gpu_options(sssp::strategy::multisplit)).run(0);
  EXPECT_EQ(r.uint64_distances[2], 2u);
  EXPECT_NE(r.stats.note.find("widened"), std::string::npos) << r.stats.note;
  // 64-bit weights: 2^40 + 3; 2^60 twice (2^61); 2^53 + 1 and sums past it that a double rounds.
  const double w40 = 1099511627779.0;  // 2^40 + 3
  const graph::csr wide = make_csr(4, {{0, 1, w40}, {1, 2, 5}, {0, 3, 7}, {3, 2, 1}}, graph::weight_kind::integer, true);
  const graph::csr huge = make_csr(3, {{0, 1, 1152921504606846976.0}, {1, 2, 1152921504606846976.0}},  // 2^60 each
                                   graph::weight_kind::integer, true);
  const graph::csr past64 = make_csr(3, {{0, 1, 9223372036854775808.0}, {1, 2, 9223372036854775808.0}},  // 2^63 each
                                     graph::weight_kind::integer, true);
  graph::csr past53 = make_csr(4, {{0, 1, 1}, {1, 2, 1}, {2, 3, 3}}, graph::weight_kind::integer, true);
  past53.uint64_weights[0] = (std::uint64_t{1} << 53) + 1;
  for (sssp::strategy how : gpu_strategies) {
    sssp::solver s(wide, gpu_options(how, 0, 10, true));
    const sssp::result got = s.run(0);
    ASSERT_EQ(got.type, sssp::distance_type::uint64);
    EXPECT_EQ(got.uint64_distances, (std::vector<std::uint64_t>{0, 1099511627779u, 8, 7})) << sssp::strategy_name(how);
    EXPECT_EQ(got.stats.note, "") << got.stats.note;
    EXPECT_TRUE(s.run(1).uint64_distances[0] == sssp::uint64_infinity);
    EXPECT_EQ(sssp::solver(huge, gpu_options(how)).run(0).uint64_distances[2], 2305843009213693952u);
    const sssp::result exact = sssp::solver(past53, gpu_options(how, 0, 10, true)).run(0);
    const std::uint64_t two53 = std::uint64_t{1} << 53;
    EXPECT_EQ(exact.uint64_distances, (std::vector<std::uint64_t>{0, two53 + 1, two53 + 2, two53 + 5}))
        << sssp::strategy_name(how);
    EXPECT_EQ(exact.predecessors, (std::vector<vertex_t>{graph::invalid_vertex, 0, 1, 2}));
    sssp::options cut = gpu_options(how);
    cut.cutoff = 9007199254740994.0;  // 2^53 + 2, a double: vertex 2 at it, vertex 3 past it
    EXPECT_EQ(sssp::solver(past53, cut).run(0).uint64_distances,
              (std::vector<std::uint64_t>{0, two53 + 1, two53 + 2, sssp::uint64_infinity}))
        << sssp::strategy_name(how);
    // Past 2^64 - 2 only is a distance an overflow; below a cutoff that leaves it out, none.
    EXPECT_THROW(sssp::solver(past64, gpu_options(how)).run(0), sssp::distance_overflow) << sssp::strategy_name(how);
    sssp::options short_of = gpu_options(how);
    short_of.cutoff = 9223372036854775808.0;  // 2^63
    EXPECT_EQ(sssp::solver(past64, short_of).run(0).uint64_distances,
              (std::vector<std::uint64_t>{0, std::uint64_t{1} << 63, sssp::uint64_infinity}));
  }
}

TEST(GpuSolver, ManySourcesOneEngine) {
  DELTASPLIT_REQUIRE_GPU();
  const graph::csr g = undirected_rmat(13);
  std::vector<vertex_t> sources;
  for (vertex_t v = 0; v < 12; ++v) sources.push_back(v * 613 % g.num_vertices);
  for (sssp::strategy how : gpu_strategies) expect_dijkstra(g, sources, gpu_options(how), "rmat, 12 sources");
  // Switching strategies and K on one solver's engine is not possible through the API; a second
  // solver on the same graph must not disturb the first.
  sssp::solver a(g, gpu_options(sssp::strategy::multisplit)), b(g, gpu_options(sssp::strategy::near_far));
  EXPECT_TRUE(same_distances(a.run(5), b.run(5)));
  EXPECT_TRUE(same_distances(sssp::dijkstra(g, 9), a.run(9)));
}

TEST(GpuSolver, DeltaAndBucketCounts) {
  DELTASPLIT_REQUIRE_GPU();
  graph::grid_params gp;
  gp.rows = 120, gp.cols = 120, gp.keep_fraction = 0.9;
  graph::csr grid = graph::generate_grid(gp);
  graph::rmat_params rp;
  rp.scale = 12;
  graph::csr rmat = graph::generate_rmat(rp);
  for (double delta : {0.0, 50.0, 150.0, 1e6, 5e9})
    for (sssp::strategy how : gpu_strategies) expect_dijkstra(grid, {0}, gpu_options(how, delta), "grid");
  for (double delta : {0.0, 1.0, 7.0, 150.0, 1e6, 5e9})
    for (sssp::strategy how : gpu_strategies) expect_dijkstra(rmat, {1}, gpu_options(how, delta), "rmat");
  for (std::uint32_t K : {1u, 2u, 3u, 10u, 33u, 64u})
    for (sssp::strategy how : {sssp::strategy::bucketing, sssp::strategy::multisplit}) {
      expect_dijkstra(grid, {7}, gpu_options(how, 20, K), "grid");
      expect_dijkstra(rmat, {2}, gpu_options(how, 0, K), "rmat");
    }
  sssp::solver too_many(grid, gpu_options(sssp::strategy::multisplit, 0, 65));
  EXPECT_THROW(too_many.run(0), std::invalid_argument);
}

TEST(GpuSolver, RoadLikeGridInTheClusterLoop) {
  DELTASPLIT_REQUIRE_GPU();
  // A road-like grid (mean degree 3.6) large enough for thousands of cluster-resident iterations:
  // delta 500 keeps frontiers of a few hundred vertices inside the cluster, the auto delta and 50000
  // give larger frontiers and buckets, with K = 1 (every later bucket on the far pile) and K = 10,
  // predecessors checked.
  graph::grid_params gp;
  gp.rows = 700, gp.cols = 700, gp.keep_fraction = 0.9, gp.seed = 5;
  graph::csr g = graph::generate_grid(gp);
  for (double delta : {500.0, 0.0, 50000.0}) {
    expect_dijkstra(g, {0, 245350}, gpu_options(sssp::strategy::near_far, delta, 1, true), "road-like grid");
    expect_dijkstra(g, {400123}, gpu_options(sssp::strategy::multisplit, delta, 10, true), "road-like grid");
  }
}

TEST(GpuSolver, RoadLikeGridInTheCluster) {
  DELTASPLIT_REQUIRE_GPU();
  // The small-frontier loop runs on a cluster of blocks, each relaxing a slice of the frontier: a
  // wide road-like grid whose bucket fronts hold a few to a few thousand vertices, so that slices
  // range from empty to full tiles. Integer and real weights (the two instantiations of the
  // kernel), K = 1 (near-far, workfront) and K = 10 (multisplit, bucketing), predecessors checked.
  graph::grid_params gp;
  gp.rows = 300, gp.cols = 3000, gp.keep_fraction = 0.85, gp.seed = 11;
  graph::csr g = graph::generate_grid(gp);
  const graph::csr real = with_real_weights(g);
  for (double delta : {300.0, 0.0}) {
    expect_dijkstra(g, {0, 450000}, gpu_options(sssp::strategy::near_far, delta, 1, true), "wide road-like grid");
    expect_dijkstra(g, {899999}, gpu_options(sssp::strategy::multisplit, delta, 10, true), "wide road-like grid");
    expect_dijkstra(g, {1500}, gpu_options(sssp::strategy::bucketing, delta, 10, true), "wide road-like grid");
  }
  expect_dijkstra(real, {7}, gpu_options(sssp::strategy::near_far, 0, 1, true), "wide road-like grid, real weights");
  expect_dijkstra(real, {12345}, gpu_options(sssp::strategy::multisplit, 0.5, 10, true),
                  "wide road-like grid, real weights");
  expect_dijkstra(g, {3}, gpu_options(sssp::strategy::workfront, 0, 1, true), "wide road-like grid");
}

// Every path of the small-frontier loop, forced through the options: the light iterations block
// by block and cluster-synchronously, on clusters of 16, 8 and 1 blocks (block by block needs 4),
// on a graph of each kind (R-MAT, whose dense frontiers outgrow a block's share and go back to the
// cluster, and road-like grids, integer and real weights), every strategy, predecessors checked.
// The statistics must say that the forced mode ran.
struct small_frontier_mode {
  sssp::light_phase light;
  std::uint32_t blocks;
};

void expect_modes(const graph::csr& g, const std::vector<vertex_t>& sources, const std::string& what) {
  for (small_frontier_mode mode : {small_frontier_mode{sssp::light_phase::block, 16}, {sssp::light_phase::block, 8},
                                   {sssp::light_phase::cluster, 16}, {sssp::light_phase::cluster, 8},
                                   {sssp::light_phase::cluster, 1}}) {
    const std::string label = what + (mode.light == sssp::light_phase::block ? ", block by block" : ", cluster") +
                              ", " + std::to_string(mode.blocks) + " blocks";
    for (sssp::strategy how : gpu_strategies) {
      sssp::options o = gpu_options(how, 0, 10, true);
      o.tune.light = mode.light;
      o.tune.cluster_blocks = mode.blocks;
      expect_dijkstra(g, sources, o, label);
      const sssp::result r = sssp::solver(g, o).run(sources.front());
      EXPECT_EQ(r.stats.cluster_blocks, mode.blocks) << label;
      EXPECT_EQ(r.stats.block_light_phase, mode.light == sssp::light_phase::block) << label;
    }
  }
}

TEST(GpuSolver, SmallFrontierModesThroughOptions) {
  DELTASPLIT_REQUIRE_GPU();
  graph::rmat_params rp;
  rp.scale = 14, rp.edge_factor = 8, rp.undirected = true, rp.seed = 21;
  expect_modes(graph::generate_rmat(rp), {0, 5000}, "rmat");
  graph::grid_params gp;
  gp.rows = 400, gp.cols = 500, gp.keep_fraction = 0.9, gp.seed = 3;
  const graph::csr grid = graph::generate_grid(gp);
  expect_modes(grid, {0, 123456}, "road-like grid");
  expect_modes(with_real_weights(grid), {77}, "road-like grid, real weights");
}

TEST(GpuSolver, SmallFrontierModesOnBundledGraphs) {
  DELTASPLIT_REQUIRE_GPU();
  for (const char* name : {"chesapeake.mtx", "email-Enron.mtx.gz", "USA-road-d.NY.gr.gz"}) {
    const graph::csr g = graph::read_graph(deltasplit_test::dataset_path(name));
    expect_modes(g, {1}, name);
  }
}

TEST(GpuSolver, AutomaticModesFollowTheGraph) {
  DELTASPLIT_REQUIRE_GPU();
  // Automatic: block by block below a mean out-degree of 6, cluster-synchronous above; the cluster
  // as large as the GPU places (16 on Hopper).
  graph::grid_params gp;
  gp.rows = 100, gp.cols = 100;
  const graph::csr grid = graph::generate_grid(gp);
  const sssp::result sparse = sssp::solver(grid, gpu_options(sssp::strategy::near_far)).run(0);
  graph::rmat_params rp;
  rp.scale = 12, rp.edge_factor = 16;
  const graph::csr rmat = graph::generate_rmat(rp);
  const sssp::result dense = sssp::solver(rmat, gpu_options(sssp::strategy::near_far)).run(0);
  EXPECT_TRUE(sparse.stats.block_light_phase == (sparse.stats.cluster_blocks >= 4));
  EXPECT_FALSE(dense.stats.block_light_phase);
  EXPECT_TRUE(sparse.stats.cluster_blocks == 16 || sparse.stats.cluster_blocks == 8 || sparse.stats.cluster_blocks == 1);
  EXPECT_EQ(sparse.stats.cluster_blocks, dense.stats.cluster_blocks);
}

TEST(GpuSolver, ImpossibleModesAreRefused) {
  // Checked with the options, before any device is looked at: runs without a GPU too.
  const graph::csr g = make_csr(3, {{0, 1, 1}, {1, 2, 1}});
  sssp::options o = gpu_options(sssp::strategy::near_far);
  o.tune.light = sssp::light_phase::block;
  o.tune.cluster_blocks = 1;
  EXPECT_THROW(sssp::solver(g, o), std::invalid_argument);
  o.tune.light = sssp::light_phase::automatic;
  o.tune.cluster_blocks = 4;
  EXPECT_THROW(sssp::solver(g, o), std::invalid_argument);
}

TEST(GpuSolver, QueueRegrowth) {
  DELTASPLIT_REQUIRE_GPU();
  // Work queues of one entry overflow at once: the engine doubles them and solves again until the
  // solve fits, with the same distances and trees, and says how often (stats.queue_growths). The
  // workfront sweep keeps every vertex in bucket 0 (no bucket queue, no far pile), so only its
  // hub chunks could overflow: its growth count is not asserted.
  graph::grid_params gp;
  gp.rows = 150, gp.cols = 150, gp.keep_fraction = 0.9, gp.seed = 9;
  const graph::csr grid = graph::generate_grid(gp);
  graph::rmat_params rp;
  rp.scale = 12, rp.undirected = true;
  const graph::csr rmat = graph::generate_rmat(rp);
  for (const graph::csr* g : {&grid, &rmat}) {
    const sssp::result want = sssp::dijkstra(*g, 0);
    for (sssp::strategy how : gpu_strategies)
      for (double delta : {0.0, 50.0}) {
        SCOPED_TRACE(std::string(g == &grid ? "grid" : "rmat") + ", queues of 1, " + sssp::strategy_name(how) +
                     ", delta " + std::to_string(delta));
        sssp::options o = gpu_options(how, delta, 10, true);
        o.tune.queue_capacity = 1;
        const sssp::result got = sssp::solver(*g, o).run(0);
        EXPECT_TRUE(same_distances(want, got));
        const sssp::validation tree = sssp::check_predecessors(*g, 0, got);
        EXPECT_TRUE(tree.ok) << tree.message;
        if (how != sssp::strategy::workfront) {
          EXPECT_GT(got.stats.queue_growths, 0u);
        }
      }
  }
  EXPECT_EQ(sssp::solver(grid, gpu_options(sssp::strategy::multisplit)).run(0).stats.queue_growths, 0u);
}

TEST(GpuSolver, StatisticsAreReported) {
  DELTASPLIT_REQUIRE_GPU();
  graph::grid_params gp;
  gp.rows = 200, gp.cols = 200;
  graph::csr g = graph::generate_grid(gp);
  for (sssp::strategy how : gpu_strategies) {
    sssp::options timed = gpu_options(how, 100);
    timed.phase_times = true;
    sssp::result r = sssp::solver(g, timed).run(0);
    // Phase times only when asked for: the default run has no instrumented second solve.
    sssp::result plain = sssp::solver(g, gpu_options(how, 100)).run(0);
    EXPECT_EQ(plain.stats.relax_ms, 0);
    EXPECT_EQ(plain.stats.frontier_ms, 0);
    EXPECT_EQ(r.stats.strategy, sssp::strategy_name(how));
    EXPECT_FALSE(r.stats.device.empty());
    EXPECT_GT(r.stats.relax_ms, 0);
    EXPECT_GT(r.stats.frontier_ms, 0);
    EXPECT_GE(r.stats.max_queue, 1u);
    EXPECT_GE(r.stats.edges_relaxed, g.num_arcs());  // every reached vertex relaxes its arcs at least once
    if (how == sssp::strategy::workfront)
      EXPECT_TRUE(std::isinf(r.stats.delta));
    else
      EXPECT_EQ(r.stats.delta, 100);
  }
}

// An undirected graph from arcs: both directions of each, marked symmetric (csr_view::symmetric),
// so the step loop may pull heavy arcs.
graph::csr undirected(vertex_t n, const std::vector<arc>& edges) {
  std::vector<arc> arcs;
  for (const arc& e : edges) {
    arcs.push_back(e);
    arcs.push_back({e.to, e.from, e.weight});
  }
  graph::csr g = make_csr(n, std::move(arcs));
  g.origin.symmetric = true;
  return g;
}

sssp::options heavy_options(sssp::strategy how, sssp::heavy_relaxation heavy, double delta = 0) {
  sssp::options o = gpu_options(how, delta, 10, true);
  o.tune.heavy = heavy;
  return o;
}

// Heavy arcs pulled (sssp::heavy_relaxation): on undirected graphs whose first bucket is too large
// for the cluster's settle pass, forced pull, push and the automatic choice give Dijkstra's
// distances and a valid tree for every strategy, with integer and real weights; the pulls are
// counted (statistics::heavy_pulls) and forced push never pulls.
TEST(GpuSolver, HeavyArcsPulledOnUndirectedRmat) {
  DELTASPLIT_REQUIRE_GPU();
  const graph::csr g = undirected_rmat(15, 3);
  ASSERT_TRUE(g.origin.symmetric);
  const graph::csr real = with_real_weights(g);
  for (sssp::strategy how : gpu_strategies) {
    const std::vector<sssp::statistics> pulled =
        expect_dijkstra(g, {0, 1, 777}, heavy_options(how, sssp::heavy_relaxation::pull), "R-MAT 15, pull");
    const std::vector<sssp::statistics> pushed =
        expect_dijkstra(g, {0, 1}, heavy_options(how, sssp::heavy_relaxation::push), "R-MAT 15, push");
    const std::vector<sssp::statistics> chosen =
        expect_dijkstra(g, {0, 1}, heavy_options(how, sssp::heavy_relaxation::automatic), "R-MAT 15, automatic");
    expect_dijkstra(real, {1}, heavy_options(how, sssp::heavy_relaxation::pull), "R-MAT 15, real weights, pull");
    if (how == sssp::strategy::workfront) continue;  // one bucket of infinite width: no heavy arcs
    for (const sssp::statistics& st : pulled) EXPECT_GE(st.heavy_pulls, 1u) << "the grid never settled: pull untested";
    for (const sssp::statistics& st : pushed) EXPECT_EQ(st.heavy_pulls, 0u);
    // Bucket 0 settles the hubs, whose heavy arcs are most of the graph's: the rule pulls there
    // and pushes the small buckets after it.
    for (const sssp::statistics& st : chosen) {
      EXPECT_GE(st.heavy_pulls, 1u);
      EXPECT_LE(st.heavy_pulls, pulled[0].heavy_pulls);
    }
  }
}

// Long rows pulled in chunks: 40,000 vertices at distance 1..9 from the source (bucket 0, settled by
// the grid) each have a heavy edge to one hub that nothing else reaches, so the hub, unreached when
// bucket 0 ends, reads its row into the chunk list (each chunk stops at the first arc too heavy to
// improve it); a second hub also has a heavy edge to the source, its lightest, and stops after it. Parallel edges, zero weights, an unreachable pair and a
// vertex whose only path overflows beside it.
TEST(GpuSolver, HeavyArcsPulledInChunks) {
  DELTASPLIT_REQUIRE_GPU();
  const vertex_t leaves = 40000, hub = leaves + 1, near_hub = leaves + 2, n = leaves + 5;
  std::vector<arc> edges;
  for (vertex_t v = 1; v <= leaves; ++v) {
    edges.push_back({0, v, double(1 + v % 9)});
    edges.push_back({v, hub, double(100 + (v * 7919u) % 1400)});
    if (v % 3 == 0) edges.push_back({v, near_hub, double(200 + (v * 104729u) % 900)});
  }
  edges.push_back({0, near_hub, 60});
  edges.push_back({hub, 17, 100});  // a parallel edge, heavier than another
  edges.push_back({leaves + 3, leaves + 4, 0});
  const graph::csr g = undirected(n, edges);
  for (sssp::strategy how : gpu_strategies)
    for (sssp::heavy_relaxation heavy : {sssp::heavy_relaxation::pull, sssp::heavy_relaxation::automatic}) {
      const std::vector<sssp::statistics> runs = expect_dijkstra(g, {0}, heavy_options(how, heavy, 50), "hub rows");
      if (how != sssp::strategy::workfront && heavy == sssp::heavy_relaxation::pull && !runs.empty()) {
        EXPECT_GE(runs[0].heavy_pulls, 1u);
      }
    }
  // The only path to vertex `far` sums past 2^32 - 2, found by a pull: the 32-bit solve reports
  // it and the CPU solves again in 64 bits, exactly.
  std::vector<arc> over = edges;
  const vertex_t far = n;
  over.push_back({5, far, 4294967295.0});
  const graph::csr o = undirected(n + 1, over);
  const sssp::result r = sssp::solver(o, heavy_options(sssp::strategy::near_far, sssp::heavy_relaxation::pull, 50)).run(0);
  EXPECT_GT(r.distance(far), 4294967294.0);
  EXPECT_EQ(r.distance(far), sssp::dijkstra(o, 0).distance(far));
}

// Pull needs in-arcs: refused on a graph not marked undirected, where automatic pushes.
TEST(GpuSolver, HeavyArcsPullNeedsAnUndirectedGraph) {
  DELTASPLIT_REQUIRE_GPU();
  graph::csr g = undirected_rmat(15);
  g.origin.symmetric = false;  // the same arcs, not declared undirected
  EXPECT_THROW(sssp::solver(g, heavy_options(sssp::strategy::near_far, sssp::heavy_relaxation::pull)).run(1),
               std::invalid_argument);
  for (const sssp::statistics& st :
       expect_dijkstra(g, {1}, heavy_options(sssp::strategy::near_far, sssp::heavy_relaxation::automatic), "not marked"))
    EXPECT_EQ(st.heavy_pulls, 0u);
}

}  // namespace
