// The batched GPU solver of sssp::many_sources against Dijkstra, row by row: bundled graphs,
// R-MAT (high-degree vertices walked in chunks) and grids (unreachable vertices), batch sizes
// that do and do not divide the source count, duplicate sources, sources without out-arcs, one
// vertex, target subsets, real and zero weights, device blocks, the distance cutoff, and the errors
// (a batch that does not fit, a distance that overflows). Every test runs for both GPU batch
// engines: the vertex-major batch (driver steps) and one block per source (driver block,
// block_driver.cuh); one test checks which of them driver auto picks. Skips without a GPU.
#include <cuda_runtime.h>

#include <cstring>
#include <limits>

#include "common/datasets.hpp"
#include "common/gpu.hpp"
#include "deltasplit/graph/io.hpp"
#include "sssp/many_sources_checks.hpp"

namespace {

using namespace deltasplit_test;

// The GPU driver of the test that runs (the suite's parameter, set before each test).
ds::gpu_driver engine_driver = ds::gpu_driver::steps;

ds::options on_gpu() {
  ds::options o;
  o.real_type = ds::distance_type::float32;  // the GPU engine's type for real weights
  o.device = ds::device_kind::gpu;
  o.tune.driver = engine_driver;
  return o;
}

class ManySourcesGpu : public ::testing::TestWithParam<ds::gpu_driver> {
 protected:
  void SetUp() override { engine_driver = GetParam(); }
};

TEST_P(ManySourcesGpu, BundledGraphs) {
  DELTASPLIT_REQUIRE_GPU();
  for (const char* name : {"chesapeake.mtx", "USA-road-d.NY.gr.gz", "soc-slashdot0902.mtx.gz"}) {
    const csr g = deltasplit::graph::read_graph(dataset_path(name));
    ds::many_sources ms(g, on_gpu(), batch(32));
    ASSERT_TRUE(ms.on_gpu());
    EXPECT_EQ(ms.method(), engine_driver == ds::gpu_driver::block ? "block" : "vertex-major") << name;
    // 40 sources in batches of 32: one full batch and one of 8.
    EXPECT_EQ(expect_rows_match_dijkstra(g, ms, first_sources(g.num_vertices, 40, 7), {}, name), 2u);
  }
}

TEST_P(ManySourcesGpu, RoadWithNeighbouringSourcesWalkedByWarps) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = deltasplit::graph::read_graph(dataset_path("USA-road-d.NY.gr.gz"));
  std::vector<vertex_t> sources(64);
  for (vertex_t i = 0; i < 64; ++i) sources[i] = 1000 + i;  // neighbouring ids: lanes move together
  for (std::uint32_t warp_lanes : {1u, 33u}) {
    ds::many_source_options m = batch(64);
    m.warp_lanes = warp_lanes;
    ds::many_sources ms(g, on_gpu(), m);
    expect_rows_match_dijkstra(g, ms, sources, {}, "NY, warp_lanes " + std::to_string(warp_lanes));
  }
}

TEST_P(ManySourcesGpu, AllSourcesOfASmallGraphInOneAutomaticBatch) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = deltasplit::graph::read_graph(dataset_path("chesapeake.mtx"));
  ds::many_sources ms(g, on_gpu());
  std::vector<vertex_t> all(g.num_vertices);
  for (vertex_t v = 0; v < g.num_vertices; ++v) all[v] = v;
  EXPECT_EQ(ms.batch_size(all.size(), 0), 64u);
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms, all, {}, "chesapeake all-pairs"), 1u);
}

TEST_P(ManySourcesGpu, RmatWithHighDegreeVerticesAndBatchesThatDoAndDoNotDivide) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = small_rmat(12, 3);
  std::uint32_t max_degree = 0;
  for (vertex_t v = 0; v < g.num_vertices; ++v) max_degree = std::max<std::uint32_t>(max_degree, static_cast<std::uint32_t>(g.degree(v)));
  ASSERT_GT(max_degree, 200u);  // several chunks of 64 arcs
  ds::many_sources ms32(g, on_gpu(), batch(32)), ms64(g, on_gpu(), batch(64));
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms32, first_sources(g.num_vertices, 96, 1), {}, "rmat 96/32"), 3u);
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms32, first_sources(g.num_vertices, 70, 2), {}, "rmat 70/32"), 3u);
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms64, first_sources(g.num_vertices, 70, 3), {}, "rmat 70/64"), 2u);
  for (std::uint32_t warp_lanes : {1u, 33u}) {
    ds::many_source_options m = batch(64);
    m.warp_lanes = warp_lanes;
    ds::many_sources mw(g, on_gpu(), m);
    expect_rows_match_dijkstra(g, mw, first_sources(g.num_vertices, 64, 10), {}, "rmat, warp_lanes " + std::to_string(warp_lanes));
  }
  // A batch size that is not a multiple of 32 is rounded up.
  ds::many_sources ms40(g, on_gpu(), batch(40));
  EXPECT_EQ(ms40.batch_size(100, 0), 64u);
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms40, first_sources(g.num_vertices, 100, 4), {}, "rmat 100/40->64"), 2u);
}

TEST_P(ManySourcesGpu, StarsWalkedInChunks) {
  DELTASPLIT_REQUIRE_GPU();
  // Vertex 0 has 300 out-arcs (a first warp takes 64, chunks of 64 the rest, the last one short),
  // vertex 1 exactly 128; the leaves lead back to 0 and 1.
  std::vector<arc> arcs;
  for (vertex_t v = 2; v < 302; ++v) arcs.push_back({0, v, double(v % 17)});
  for (vertex_t v = 2; v < 130; ++v) arcs.push_back({1, v, double(v % 5)});
  for (vertex_t v = 2; v < 302; v += 3) arcs.push_back({v, v % 2, 3});
  const csr g = make_csr(303, std::move(arcs));
  // Items walked by warps (warp_lanes 1), by a thread per source (33), and as the default picks.
  for (std::uint32_t warp_lanes : {1u, 33u, 0u}) {
    ds::many_source_options m = batch(32);
    m.warp_lanes = warp_lanes;
    ds::many_sources ms(g, on_gpu(), m);
    expect_rows_match_dijkstra(g, ms, {0, 1, 5, 302, 0, 7, 1, 100, 299, 2, 4, 8, 16, 32, 64, 128, 256, 3, 6, 9, 12, 15,
                                       18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54},
                               {}, "stars, warp_lanes " + std::to_string(warp_lanes));
  }
}

TEST_P(ManySourcesGpu, GridsWithUnreachableVerticesAndZeroWeights) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = small_grid(40, 5);
  ds::many_sources ms(g, on_gpu(), batch(96));
  expect_rows_match_dijkstra(g, ms, first_sources(g.num_vertices, 200, 5), {}, "grid");
  // Zero and equal weights: many ties.
  const csr z = random_graph(3000, 12000, 9, 2);
  ds::many_sources mz(z, on_gpu(), batch(64));
  expect_rows_match_dijkstra(z, mz, first_sources(z.num_vertices, 150, 6), {}, "weights 0..2");
}

TEST_P(ManySourcesGpu, RealWeights) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = random_graph(4000, 20000, 11, 100.0, weight_kind::real);
  ds::many_sources ms(g, on_gpu(), batch(32));
  expect_rows_match_dijkstra(g, ms, first_sources(g.num_vertices, 75, 8), {}, "real");
  ds::options wide = on_gpu();
  wide.tune.delta = 1e30;  // one bucket: Bellman-Ford order, same answers
  ds::many_sources mw(g, wide, batch(64));
  expect_rows_match_dijkstra(g, mw, first_sources(g.num_vertices, 64, 9), {}, "real, one bucket");
}

TEST_P(ManySourcesGpu, DuplicateSourcesSourcesWithoutArcsTargetSubsetsAndOneVertex) {
  DELTASPLIT_REQUIRE_GPU();
  // Vertex 5 has no out-arcs, vertex 6 no arcs at all.
  const csr g = make_csr(7, {{0, 1, 4}, {1, 2, 3}, {2, 0, 1}, {0, 3, 10}, {3, 4, 0}, {4, 5, 7}, {1, 4, 2}});
  ds::many_sources ms(g, on_gpu(), batch(32));
  const std::vector<vertex_t> sources = {0, 0, 5, 6, 3, 0, 1, 2, 4, 5, 5, 0, 1, 2, 3, 4, 5, 6, 6, 6, 0, 1, 2, 3,
                                         4, 5, 6, 0, 1, 2, 3, 4, 5, 1, 1};  // 35: a second batch of 3
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms, sources, {}, "duplicates"), 2u);
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms, sources, {6, 5, 5, 0}, "targets"), 2u);
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms, {5}, {4}, "one cell"), 1u);
  const csr one = make_csr(1, {});
  ds::many_sources m1(one, on_gpu());
  EXPECT_EQ(expect_rows_match_dijkstra(one, m1, {0, 0}, {}, "one vertex"), 1u);
  const csr loop = make_csr(1, {{0, 0, 5}});
  ds::many_sources ml(loop, on_gpu());
  EXPECT_EQ(expect_rows_match_dijkstra(loop, ml, {0}, {0, 0}, "self-loop"), 1u);
  // Nothing to do.
  std::size_t calls = 0;
  ms.run({}, {}, [&](const ds::distance_block&) { ++calls; });
  EXPECT_EQ(calls, 0u);
}

TEST_P(ManySourcesGpu, DeviceBlocksHoldTheSameRows) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = small_grid(30, 2);
  const std::vector<vertex_t> sources = first_sources(g.num_vertices, 50, 12), targets = {7, 3, 900, 3, 0};
  const ds::distance_table host = ds::od_table(g, sources, targets, on_gpu(), batch(32));
  ds::many_source_options m = batch(32);
  m.device_blocks = true;
  ds::many_sources ms(g, on_gpu(), m);
  std::vector<std::uint32_t> copied(sources.size() * targets.size());
  ms.run(sources, targets, [&](const ds::distance_block& b) {
    ASSERT_TRUE(b.on_device);
    ASSERT_NE(b.stream, nullptr);
    auto stream = static_cast<cudaStream_t>(b.stream);
    ASSERT_EQ(cudaMemcpyAsync(copied.data() + b.first_row * b.columns, b.int_distances,
                              b.rows * b.columns * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream),
              cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  });
  EXPECT_EQ(copied, host.int_distances);
  for (std::size_t r = 0; r < sources.size(); ++r) {
    const ds::result d = ds::dijkstra(g, sources[r]);
    for (std::size_t t = 0; t < targets.size(); ++t) EXPECT_EQ(host.at(r, t), d.distance(targets[t]));
  }
}

// run_into: every vertex a target, the rows given in device memory; with one block per source the
// batches are solved straight into them (the blocks point into them), otherwise the engine's blocks
// come as from run(); either way the rows hold Dijkstra's distances, with and without a cutoff,
// for batches that do and do not divide the source count.
TEST_P(ManySourcesGpu, RowsGivenInDeviceMemoryHoldDijkstrasRows) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = small_grid(30, 2);
  const std::vector<vertex_t> sources = first_sources(g.num_vertices, 70, 12);
  const std::size_t n = g.num_vertices, cells = sources.size() * n;
  for (const double cutoff : {std::numeric_limits<double>::infinity(), 40.0}) {
    ds::options o = on_gpu();
    o.cutoff = cutoff;
    ds::many_source_options m = batch(32);
    m.device_blocks = true;
    ds::many_sources ms(g, o, m);
    std::uint32_t* rows = nullptr;
    ASSERT_EQ(cudaMalloc(&rows, cells * sizeof(std::uint32_t)), cudaSuccess);
    ASSERT_EQ(cudaMemset(rows, 0, cells * sizeof(std::uint32_t)), cudaSuccess);
    // The memset runs on the legacy default stream, asynchronously to the host; the engine's
    // stream does not wait for it, so it must be done before the batches write the rows.
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::size_t in_place = 0, blocks = 0;
    ms.run_into(sources, rows, [&](const ds::distance_block& b) {
      ASSERT_TRUE(b.on_device);
      ++blocks;
      if (b.int_distances == rows + b.first_row * n) {
        ++in_place;
        return;
      }
      ASSERT_EQ(cudaMemcpyAsync(rows + b.first_row * n, b.int_distances, b.rows * n * sizeof(std::uint32_t),
                                cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(b.stream)),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(static_cast<cudaStream_t>(b.stream)), cudaSuccess);
    });
    EXPECT_EQ(in_place, ms.method() == "block" ? blocks : 0u) << ms.method();
    std::vector<std::uint32_t> got(cells);
    ASSERT_EQ(cudaMemcpy(got.data(), rows, cells * sizeof(std::uint32_t), cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaFree(rows), cudaSuccess);
    expect_whole_rows_equal_dijkstra(g, sources, got, cutoff);
  }
}

TEST_P(ManySourcesGpu, ABatchThatDoesNotFitIsRefusedWithTheSizes) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = random_graph(5000, 20000, 3, 10);
  ds::many_sources ms(g, on_gpu(), batch(1u << 24));  // 5000 x 2^24 x 4 bytes: 335 GB
  try {
    ms.run({0, 1}, {}, [](const ds::distance_block&) {});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("GPU out of memory"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("batch of 16777216 sources"), std::string::npos) << e.what();
  }
  // The solver stays usable.
  ds::many_sources ok(g, on_gpu(), batch(32));
  expect_rows_match_dijkstra(g, ok, {0, 1, 2}, {}, "after a refusal");
}

// float64 batches (real weights, the default type) run on either engine on the GPU and equal
// Dijkstra's float64 rows bit for bit: tenths (which float32 does not hold) on a grid with zero
// weights and a road network, float weights widened, a cutoff, one bucket for all distances.
TEST_P(ManySourcesGpu, Float64RowsEqualDijkstraExactly) {
  DELTASPLIT_REQUIRE_GPU();
  ds::options o = on_gpu();
  o.real_type = ds::distance_type::float64;
  const csr tenths = with_float64_weights(small_grid(40, 7), 0.1);
  ds::many_sources ms(tenths, o, batch(32));
  ASSERT_TRUE(ms.on_gpu());
  EXPECT_EQ(ms.type(), ds::distance_type::float64);
  EXPECT_EQ(ms.method(), engine_driver == ds::gpu_driver::block ? "block" : "vertex-major");
  EXPECT_EQ(expect_rows_match_dijkstra(tenths, ms, first_sources(tenths.num_vertices, 40, 11), {}, "grid tenths"), 2u);
  const csr floats = random_graph(3000, 15000, 11, 100.0, weight_kind::real);  // float weights, widened
  ds::many_sources mf(floats, o, batch(64));
  expect_rows_match_dijkstra(floats, mf, first_sources(floats.num_vertices, 70, 5), {}, "float weights in float64");
  ds::options one_bucket = o;
  one_bucket.tune.delta = 1e300;
  ds::many_sources mb(floats, one_bucket, batch(32));
  expect_rows_match_dijkstra(floats, mb, first_sources(floats.num_vertices, 32, 9), {}, "float64, one bucket");
}

TEST_P(ManySourcesGpu, Float64RoadRowsWithACutoff) {
  DELTASPLIT_REQUIRE_GPU();
  ds::options o = on_gpu();
  o.real_type = ds::distance_type::float64;
  const csr ny = with_float64_weights(deltasplit::graph::read_graph(dataset_path("USA-road-d.NY.gr.gz")), 0.1);
  ds::options cut = o;
  cut.cutoff = 5000.05;  // tenths: about a fifth of NY's diameter
  ds::many_sources mn(ny, cut, batch(32));
  expect_rows_match_dijkstra(ny, mn, first_sources(ny.num_vertices, 32, 8101), {2, 5, 9, 20000, 5}, "NY tenths, cutoff",
                            cut.cutoff);
}

// Paths that may pass 2^32 - 2 have uint64 distances, which either engine computes in 64 bits:
// into host blocks and into rows in device memory, past 2^53 too (sums a double does not hold);
// only a distance past 2^64 - 2 is an overflow.
TEST_P(ManySourcesGpu, PathsPast32BitsRunIn64Bits) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = make_csr(4, {{0, 1, 4000000000.0}, {1, 2, 4000000000.0}, {3, 0, 1}});
  ds::many_sources gpu(g, on_gpu());
  EXPECT_TRUE(gpu.on_gpu());
  EXPECT_EQ(gpu.type(), ds::distance_type::uint64);
  EXPECT_EQ(gpu.method(), engine_driver == ds::gpu_driver::block ? "block" : "vertex-major");
  expect_rows_match_dijkstra(g, gpu, {3, 0, 1, 2}, {}, "uint64 rows");
  const std::uint64_t two53 = std::uint64_t{1} << 53;
  csr past53 = make_csr(4, {{0, 1, 1}, {1, 2, 3}, {3, 0, 1}, {2, 3, 1}}, weight_kind::integer, true);
  past53.uint64_weights[0] = two53 + 1;  // 0 -> 1
  ds::many_sources wide(past53, on_gpu());
  EXPECT_TRUE(wide.on_gpu());
  expect_rows_match_dijkstra(past53, wide, {0, 1, 2, 3}, {}, "uint64 rows past 2^53");
  expect_rows_match_dijkstra(past53, wide, {3, 0}, {2, 1, 2}, "uint64 rows past 2^53, targets");
  ds::many_source_options on_device;
  on_device.device_blocks = true;
  ds::many_sources rows(past53, on_gpu(), on_device);
  std::uint64_t* d_rows = nullptr;
  ASSERT_EQ(cudaMalloc(&d_rows, 4 * 4 * sizeof(std::uint64_t)), cudaSuccess);
  rows.run_into({0, 1, 2, 3}, d_rows, [&](const ds::distance_block& b) {  // the vertex-major engine's own blocks
    ASSERT_TRUE(b.on_device);
    if (b.uint64_distances == d_rows + b.first_row * 4) return;
    ASSERT_EQ(cudaMemcpyAsync(d_rows + b.first_row * 4, b.uint64_distances, b.rows * 4 * sizeof(std::uint64_t),
                              cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(b.stream)),
              cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(static_cast<cudaStream_t>(b.stream)), cudaSuccess);
  });
  std::vector<std::uint64_t> got(16);
  ASSERT_EQ(cudaMemcpy(got.data(), d_rows, got.size() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(d_rows);
  for (vertex_t s = 0; s < 4; ++s) {
    const ds::result want = ds::dijkstra(past53, s);
    for (vertex_t v = 0; v < 4; ++v) EXPECT_EQ(got[s * 4 + v], want.uint64_distances[v]) << s << " -> " << v;
  }
  EXPECT_EQ(got[0 * 4 + 3], two53 + 5);
  // Past 2^64 - 2 only is a distance an overflow.
  const csr past64 = make_csr(3, {{0, 1, 9223372036854775808.0}, {1, 2, 9223372036854775808.0}},  // 2^63 each
                              weight_kind::integer, true);
  ds::many_sources over(past64, on_gpu());
  EXPECT_THROW(over.run({1, 0}, {}, [](const ds::distance_block&) {}), ds::distance_overflow);
}

// A cutoff ends a batch once its bound passes it and the farther vertices read unreachable: every
// strategy (phast's batches too), integer, real and zero weights, 64-bit weights whose rows pass
// 2^53, high-degree vertices (lane tasks and chunks), a batch of 32 and one of 8, bucket widths
// that put the cutoff inside a bucket (auto, 3) and one bucket for all distances (1e9), all
// targets and a subset with duplicates.
TEST_P(ManySourcesGpu, CutoffRowsEqualDijkstraWithFartherVerticesUnreachable) {
  DELTASPLIT_REQUIRE_GPU();
  const csr grid = small_grid(30, 6);
  const csr real = random_graph(3000, 15000, 2, 50.0, weight_kind::real);
  const csr zeros = random_graph(2000, 8000, 3, 2);
  const csr rmat = small_rmat(10, 4);
  const csr wide = with_uint64_weights(grid, (std::uint64_t{1} << 46) + 1);  // uint64 past 2^53
  for (const csr* g : {&grid, &real, &zeros, &rmat, &wide}) {
    const std::vector<vertex_t> sources = first_sources(g->num_vertices, 40, 7);
    for (double cutoff : cutoffs_between(*g, sources)) {
      for (ds::strategy how : every_strategy()) {
        for (double delta : {0.0, 3.0, 1e9}) {
          if (delta != 0 && how != ds::strategy::near_far) continue;  // one engine serves every other strategy
          ds::options o = on_gpu();
          o.how = how;
          o.tune.delta = delta;
          o.cutoff = cutoff;
          expect_cutoff_rows(*g, o, batch(32), sources);
        }
      }
    }
  }
}

TEST_P(ManySourcesGpu, SetCutoffReaimsOneSolver) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = small_rmat(10, 9);
  const std::vector<vertex_t> sources = first_sources(g.num_vertices, 40, 5);
  for (ds::strategy how : {ds::strategy::near_far, ds::strategy::phast}) {
    ds::options o = on_gpu();
    o.how = how;
    expect_set_cutoff_keeps_the_solver(g, o, batch(32), sources);
  }
}

TEST_P(ManySourcesGpu, AnOverflowPastTheCutoffIsUnreachable) {
  DELTASPLIT_REQUIRE_GPU();
  ds::options automatic = on_gpu();
  automatic.device = ds::device_kind::automatic;  // uint64 rows: the CPU's in this version
  expect_overflow_past_the_cutoff_unreachable(automatic);
}

TEST_P(ManySourcesGpu, OutOfRangeSourcesAndTargetsAreRefused) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = make_csr(3, {{0, 1, 1}});
  ds::many_sources ms(g, on_gpu());
  EXPECT_THROW(ms.run({0, 3}, {}, [](const ds::distance_block&) {}), std::out_of_range);
  EXPECT_THROW(ms.run({0}, {9}, [](const ds::distance_block&) {}), std::out_of_range);
}

// The block driver's far piles start at tuning::queue_capacity entries: 8 fill in every batch,
// the piles double and the batch runs again; the grown piles serve the next run.
TEST_P(ManySourcesGpu, FarPilesThatFillGrow) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = small_grid(50, 3);
  ds::options o = on_gpu();
  o.tune.queue_capacity = 8;
  ds::many_sources ms(g, o, batch(64));
  const std::vector<vertex_t> sources = first_sources(g.num_vertices, 100, 4);
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms, sources, {}, "far piles of 8"), 2u);
  expect_rows_match_dijkstra(g, ms, sources, {3, 2000, 3}, "far piles grown before");
}

// A bucket of 5,000 vertices from one source: the near set of a block (2,048 entries a queue)
// spills to its far pile and takes the same bucket again.
TEST_P(ManySourcesGpu, WideBucketsSpillTheNearSet) {
  DELTASPLIT_REQUIRE_GPU();
  std::vector<arc> star;
  for (vertex_t v = 1; v <= 5000; ++v) star.push_back({0, v, double(v % 3)});
  for (vertex_t v = 1; v < 5000; v += 2) star.push_back({v, v + 1, 1});
  const csr g = make_csr(5001, star);
  ds::many_sources ms(g, on_gpu(), batch(32));
  expect_rows_match_dijkstra(g, ms, {0, 1, 0, 4999}, {}, "star of 5,000 leaves");
}

// driver auto: one block per source on graphs of mean out-degree below 6 (a road network, a grid),
// the vertex-major batch from 6 on (a social network, R-MAT); the rows equal Dijkstra's either way.
TEST(ManySourcesGpuAutomatic, PicksOneBlockPerSourceOnSparseGraphsOnly) {
  DELTASPLIT_REQUIRE_GPU();
  ds::options o;
  o.real_type = ds::distance_type::float32;  // the GPU engine's type for real weights
  o.device = ds::device_kind::gpu;
  ASSERT_EQ(o.tune.driver, ds::gpu_driver::automatic);
  deltasplit::graph::rmat_params rp;
  rp.scale = 10, rp.edge_factor = 8, rp.undirected = true, rp.seed = 5;
  rp.weight_min = 1, rp.weight_max = 100;
  const csr rmat = deltasplit::graph::generate_rmat(rp);
  const csr grid = small_grid(40, 7);
  const csr ny = deltasplit::graph::read_graph(dataset_path("USA-road-d.NY.gr.gz"));
  const csr slashdot = deltasplit::graph::read_graph(dataset_path("soc-slashdot0902.mtx.gz"));
  struct expected { const csr* g; const char* name; bool sparse; };
  for (const expected& e : {expected{&grid, "grid 40 x 43", true}, expected{&ny, "NY", true},
                            expected{&rmat, "R-MAT 10", false}, expected{&slashdot, "slashdot", false}}) {
    ASSERT_EQ(static_cast<double>(e.g->num_arcs()) < 6.0 * e.g->num_vertices, e.sparse) << e.name;
    ds::many_sources ms(*e.g, o, batch(32));
    EXPECT_EQ(ms.method(), e.sparse ? "block" : "vertex-major") << e.name;
    expect_rows_match_dijkstra(*e.g, ms, first_sources(e.g->num_vertices, 40, 3), {}, e.name);
  }
}

std::string driver_label(const ::testing::TestParamInfo<ds::gpu_driver>& info) {
  return info.param == ds::gpu_driver::block ? "block_per_source" : "vertex_major";
}

INSTANTIATE_TEST_SUITE_P(Engines, ManySourcesGpu, ::testing::Values(ds::gpu_driver::steps, ds::gpu_driver::block),
                         driver_label);

}  // namespace
