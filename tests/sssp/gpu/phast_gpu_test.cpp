// strategy phast on the GPU (sssp/gpu/phast/phast.cu) against Dijkstra: one source (solver) and batches
// of sources (many_sources) on the bundled road networks, a grid with unreachable vertices, R-MAT,
// a social graph with a large uncontracted core, zero-weight cycles, real weights, uint64 distances,
// the cutoff, overflow (a shortest distance past the type's largest raises it), predecessor trees,
// device output buffers and device blocks, batches in a pipeline into the caller's rows, switching
// strategies on one solver, and hierarchies loaded from a hierarchy file (options::hierarchy_file)
// built on either side, the pair query on the device and the batches' upward searches there (with
// the host taking the sources whose closures pass every warp capacity). Skips without a GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "common/datasets.hpp"
#include "common/gpu.hpp"
#include "common/test_files.hpp"
#include "deltasplit/graph/io.hpp"
#include "sssp/many_sources_checks.hpp"
#include "sssp/phast_checks.hpp"

namespace {

using namespace deltasplit_test;

const phast_ds::device_kind gpu = phast_ds::device_kind::gpu;

csr load(const char* name) { return deltasplit::graph::read_graph(dataset_path(name)); }

phast_ds::options phast_batches(unsigned threads = 0) {
  phast_ds::options o = phast_on(gpu);
  o.threads = threads;
  return o;
}

// o with NY's contraction hierarchy in one file for the whole test process: the first phast solver
// given it contracts NY (seconds on the host) and writes it, every later one loads it, so the tests
// that sweep NY share one contraction. HierarchyFileBuiltOnOneSideLoadedOnTheOther keeps a file of
// its own: it checks the build on either side.
phast_ds::options with_new_york_hierarchy(phast_ds::options o) {
  static const temp_dir dir;
  o.hierarchy_file = dir.file("USA-road-d.NY.ch");
  return o;
}

TEST(PhastGpu, RoadNetworks) {
  DELTASPLIT_REQUIRE_GPU();
  const csr ny = load("USA-road-d.NY.gr.gz");
  expect_phast_matches_dijkstra(ny, {0, 1000, 264345}, with_new_york_hierarchy(phast_on(gpu, true)), "USA-road-d.NY");
  const csr fla = load("road-FLA.mtx.gz");
  expect_phast_matches_dijkstra(fla, {0, 500000}, phast_on(gpu), "road-FLA");
}

TEST(PhastGpu, GridRmatSocialAndCraftedGraphs) {
  DELTASPLIT_REQUIRE_GPU();
  expect_phast_matches_dijkstra(load("chesapeake.mtx"), {0, 38}, phast_on(gpu, true), "chesapeake");
  expect_phast_matches_dijkstra(small_grid(60, 3), {0, 1000, 3779}, phast_on(gpu, true), "grid with cut vertices");
  expect_phast_matches_dijkstra(small_rmat(12, 2), {0, 1, 4000}, phast_on(gpu, true), "rmat");
  expect_phast_matches_dijkstra(load("email-Enron.mtx.gz"), {0, 100}, phast_on(gpu, true), "email-Enron (core)");
  expect_phast_matches_dijkstra(zero_weight_graph(2000, 7), {0, 3, 1999}, phast_on(gpu, true), "zero weights");
  for (weight_kind kind : {weight_kind::integer, weight_kind::real})
    expect_phast_matches_dijkstra(crafted_graph(kind), {0, 3, 5, 6}, phast_on(gpu, true), "crafted");
  expect_phast_matches_dijkstra(make_csr(1, {}), {0}, phast_on(gpu, true), "one vertex");
}

TEST(PhastGpu, RealWeights) {
  DELTASPLIT_REQUIRE_GPU();
  expect_phast_matches_dijkstra(random_graph(3000, 15000, 4, 30.0, weight_kind::real), {0, 17, 2999},
                                phast_on(gpu, true), "random real");
  expect_phast_matches_dijkstra(load("chicago-regional.mtx.gz"), {0, 5000}, phast_on(gpu, true), "chicago-regional");
}

TEST(PhastGpu, Cutoff) {
  DELTASPLIT_REQUIRE_GPU();
  const csr grid = small_grid(60, 5);
  for (double cutoff : cutoffs_across(grid, 0))
    expect_phast_matches_dijkstra(grid, {0, 31}, phast_on(gpu, true, cutoff), "grid, cutoff");
  expect_phast_matches_dijkstra(random_graph(3000, 15000, 9, 20.0, weight_kind::real), {0}, phast_on(gpu, true, 7.25),
                                "real, cutoff");
}

// A shortest distance past the distance type's largest is an overflow, one source and batches:
// uint64 sums past 2^64 - 2, a float32 sum past the largest float.
TEST(PhastGpu, OverflowOnlyForShortestDistances) {
  DELTASPLIT_REQUIRE_GPU();
  // Two arcs of 2^63: the shortest distance 2^64 passes the uint64 distances (2^64 - 2 at most).
  const double big = 9223372036854775808.0;
  const csr overflow = make_csr(3, {{0, 1, big}, {1, 2, big}}, weight_kind::integer, true);
  phast_ds::solver w(overflow, phast_on(gpu));
  ASSERT_TRUE(w.on_gpu());
  EXPECT_THROW(w.run(0), phast_ds::distance_overflow);
  EXPECT_EQ(w.run(1).uint64_distances[2], std::uint64_t{1} << 63);  // the engine is clean after the throw
  ds::many_sources ms(overflow, phast_batches(), batch(32));
  EXPECT_THROW(ms.run({1, 0}, {}, [](const ds::distance_block&) {}), phast_ds::distance_overflow);
  const csr real = make_csr(3, {{0, 1, 3e38}, {1, 2, 3e38}}, weight_kind::real);
  phast_ds::options single = phast_on(gpu);
  single.real_type = phast_ds::distance_type::float32;
  phast_ds::solver r(real, single);
  EXPECT_THROW(r.run(0), phast_ds::distance_overflow);
  EXPECT_EQ(r.run(1).real_distances[2], 3e38f);  // the engine is clean after the throw
  // Row summaries: a shortest distance that does not fit is the same error, and a sum dropped on
  // the way to a vertex whose shortest distance fits changes nothing.
  EXPECT_THROW(ms.summarize_rows({1, 0}), phast_ds::distance_overflow);
  expect_row_summaries_match_dijkstra(overflow, ms, {1, 2, 1}, "after the throw");
  // 0 -> 2 directly in 5: the sum through 1 (2^64) does not fit and is no shortest distance.
  const csr detour = make_csr(3, {{0, 1, big}, {1, 2, big}, {0, 2, 5}}, weight_kind::integer, true);
  ds::many_sources on_detour(detour, phast_batches(), batch(32));
  const ds::row_summaries d = expect_row_summaries_match_dijkstra(detour, on_detour, {0, 1, 2}, "detour");
  ASSERT_EQ(d.int_sums.size(), 3u);
  EXPECT_EQ(d.int_sums[0], (std::uint64_t{1} << 63) + 5);
}

TEST(PhastGpu, DeviceOutputBuffersAndSwitchingStrategies) {
  DELTASPLIT_REQUIRE_GPU();
  const csr g = load("USA-road-d.NY.gr.gz");
  phast_ds::options o = with_new_york_hierarchy(phast_on(gpu, true));
  phast_ds::solver s(g, o);
  ASSERT_TRUE(s.on_gpu());
  const phast_ds::result host = s.run(77);
  EXPECT_GT(host.stats.setup_ms, 0);
  std::uint32_t* dist = nullptr;
  vertex_t* parent = nullptr;
  ASSERT_EQ(cudaMalloc(&dist, g.num_vertices * sizeof(std::uint32_t)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&parent, g.num_vertices * sizeof(vertex_t)), cudaSuccess);
  phast_ds::output_buffers out;
  out.space = phast_ds::memory_space::device;
  out.int_distances = dist;
  out.predecessors = parent;
  s.run_into(77, out);
  phast_ds::result copied;
  copied.int_distances.resize(g.num_vertices);
  copied.predecessors.resize(g.num_vertices);
  ASSERT_EQ(cudaMemcpy(copied.int_distances.data(), dist, g.num_vertices * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(copied.predecessors.data(), parent, g.num_vertices * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(dist);
  cudaFree(parent);
  EXPECT_EQ(copied.int_distances, host.int_distances);
  const phast_ds::validation v = phast_ds::validate(g, 77, copied);
  EXPECT_TRUE(v.ok) << v.message;
  // phast -> near-far -> phast on one solver; a CPU strategy is refused on the GPU.
  // The hierarchy file is phast's option: the delta-stepping strategies are given none.
  const std::string hierarchy = o.hierarchy_file;
  o.hierarchy_file.clear();
  o.how = phast_ds::strategy::near_far;
  s.set_options(o);
  EXPECT_EQ(s.run(77).int_distances, host.int_distances);
  o.how = phast_ds::strategy::dijkstra;
  EXPECT_THROW(s.set_options(o), std::invalid_argument);
  o.how = phast_ds::strategy::phast;
  o.hierarchy_file = hierarchy;
  s.set_options(o);
  EXPECT_EQ(s.run(78).stats.strategy, "phast");
}

// A fan: vertex 0 has arcs to 5,000 vertices on a two-way path and none in, so it is contracted
// first with an up arc to each of them: its upward closure passes 2^12 positions, every warp
// table's capacity (the host answers its pairs and searches it for a batch).
csr fan_past_every_capacity() {
  std::vector<arc> fan;
  for (vertex_t v = 1; v <= 5000; ++v) {
    fan.push_back({0, v, 1000.0 + v % 7});
    if (v < 5000) fan.push_back({v, v + 1, 1.0}), fan.push_back({v + 1, v, 2.0});
  }
  return make_csr(5001, fan);
}

TEST(PhastGpu, BatchesThatDoAndDoNotDivideTheSources) {
  DELTASPLIT_REQUIRE_GPU();
  const csr ny = load("USA-road-d.NY.gr.gz");
  ds::many_sources a(ny, with_new_york_hierarchy(phast_batches()), batch(32));
  ASSERT_TRUE(a.on_gpu());
  EXPECT_GT(a.setup_ms(), 0);
  EXPECT_EQ(expect_rows_match_dijkstra(ny, a, first_sources(ny.num_vertices, 40, 7), {}, "NY 40/32"), 2u);
  const csr rmat = small_rmat(12, 3);
  ds::many_sources b(rmat, phast_batches(3), batch(64));
  EXPECT_EQ(expect_rows_match_dijkstra(rmat, b, first_sources(rmat.num_vertices, 70, 2), {}, "rmat 70/64"), 2u);
  const csr grid = small_grid(40, 6);
  ds::many_sources c(grid, phast_batches());
  expect_rows_match_dijkstra(grid, c, {0, 0, 5, 1639, 5}, {5, 5, 0, 1600}, "grid, duplicates, targets");
  const csr real = random_graph(3000, 15000, 2, 50.0, weight_kind::real);
  ds::many_sources d(real, phast_batches(), batch(32));
  expect_rows_match_dijkstra(real, d, first_sources(real.num_vertices, 33, 5), {}, "real 33/32");
  const csr enron = load("email-Enron.mtx.gz");
  ds::many_sources e(enron, phast_batches(), batch(32));
  expect_rows_match_dijkstra(enron, e, first_sources(enron.num_vertices, 32, 8), {}, "email-Enron (core)");
  const csr zeros = zero_weight_graph(2000, 3);
  ds::many_sources f(zeros, phast_batches(), batch(32));
  expect_rows_match_dijkstra(zeros, f, first_sources(zeros.num_vertices, 50, 1), {}, "zero weights");
}

// A batch's upward searches run on the device, a warp a source; the fan's source 0, whose closure
// every warp capacity hands back to the host, among sources the device searches (twice, and in
// two batches), and a grid's batch with every source searched on the device.
TEST(PhastGpu, BatchUpwardSearchesOnTheDeviceAndHandedBack) {
  DELTASPLIT_REQUIRE_GPU();
  const csr fan = fan_past_every_capacity();
  ds::many_sources a(fan, phast_batches(), batch(32));
  ASSERT_TRUE(a.on_gpu());
  std::vector<vertex_t> sources = {7, 0, 4999, 0, 2500, 1};
  for (vertex_t v = 0; v < 40; ++v) sources.push_back(v * 97 % 5001);
  EXPECT_EQ(expect_rows_match_dijkstra(fan, a, sources, {}, "fan past every warp capacity"), 2u);
  const csr grid = small_grid(60, 3);
  ds::many_sources b(grid, phast_batches(), batch(64));
  expect_rows_match_dijkstra(grid, b, first_sources(grid.num_vertices, 64, 11), {0, 3779, 1000}, "grid");
}

TEST(PhastGpu, BatchCutoffAndDeviceBlocks) {
  DELTASPLIT_REQUIRE_GPU();
  const csr grid = small_grid(40, 2);
  const std::vector<vertex_t> sources = first_sources(grid.num_vertices, 45, 9), targets = {0, 7, 7, 1000, 1639};
  phast_ds::options o = phast_on(gpu, false, 40);
  ds::many_source_options m = batch(32);
  m.device_blocks = true;
  ds::many_sources ms(grid, o, m);
  std::vector<std::uint32_t> copied(sources.size() * targets.size());
  ms.run(sources, targets, [&](const ds::distance_block& b) {
    ASSERT_TRUE(b.on_device);
    auto stream = static_cast<cudaStream_t>(b.stream);
    ASSERT_EQ(cudaMemcpyAsync(copied.data() + b.first_row * b.columns, b.int_distances,
                              b.rows * b.columns * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream),
              cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  });
  std::uint64_t wrong = 0, cut = 0;
  for (std::size_t r = 0; r < sources.size(); ++r) {
    const ds::result want = ds::dijkstra(grid, sources[r]);
    for (std::size_t t = 0; t < targets.size(); ++t) {
      const std::uint32_t d = want.int_distances[targets[t]];
      const std::uint32_t expected = d > 40 ? ds::int_infinity : d;
      cut += expected != d;
      wrong += copied[r * targets.size() + t] != expected;
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(cut, 0u);
}

// Batches run in a pipeline (a batch's sweep beside the next one's upward searches and the last
// one's gather, two buffers): every vertex a target in the caller's device rows (run_into) is
// gathered straight into them, batch after batch, both buffers in turn and a last short batch;
// with a cutoff; and a batch's overflow found in the second buffer, the engine clean after it.
TEST(PhastGpu, BatchesInAPipelineIntoTheCallersRows) {
  DELTASPLIT_REQUIRE_GPU();
  const csr ny = load("USA-road-d.NY.gr.gz");
  const csr grid = small_grid(50, 4);
  for (const double cutoff : {double(INFINITY), 60.0}) {
    const csr& g = std::isinf(cutoff) ? ny : grid;
    const std::string what = std::isinf(cutoff) ? "NY" : "grid, cutoff 60";
    SCOPED_TRACE(what);
    ds::many_source_options m = batch(32);
    m.device_blocks = true;
    phast_ds::options o = phast_batches();
    o.cutoff = cutoff;
    ds::many_sources ms(g, std::isinf(cutoff) ? with_new_york_hierarchy(o) : o, m);
    ASSERT_TRUE(ms.on_gpu());
    const std::vector<vertex_t> sources = first_sources(g.num_vertices, 70, 12);  // batches of 32, 32, 6
    const std::size_t n = g.num_vertices;
    std::uint32_t* rows = nullptr;
    ASSERT_EQ(cudaMalloc(&rows, sources.size() * n * sizeof(std::uint32_t)), cudaSuccess);
    std::size_t next_row = 0;
    ms.run_into(sources, rows, [&](const ds::distance_block& b) {
      EXPECT_TRUE(b.on_device);
      EXPECT_EQ(b.first_row, next_row);
      EXPECT_EQ(b.int_distances, rows + b.first_row * n);  // in place: nothing to copy
      next_row += b.rows;
    });
    EXPECT_EQ(next_row, sources.size());
    std::vector<std::uint32_t> copied(sources.size() * n);
    ASSERT_EQ(cudaMemcpy(copied.data(), rows, copied.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(rows);
    for (std::size_t r = 0; r < sources.size(); ++r) {
      const ds::result want = ds::dijkstra(g, sources[r]);
      std::uint64_t wrong = 0;
      for (std::size_t v = 0; v < n; ++v) {
        const std::uint32_t d = want.int_distances[v];
        wrong += copied[r * n + v] != (d > cutoff ? ds::int_infinity : d);
      }
      EXPECT_EQ(wrong, 0u) << "row " << r << " (source " << sources[r] << ")";
    }
  }
  // Two arcs of 2^63 from vertex 0: its shortest distance to 2 passes the uint64 distances; the
  // first batch (32 sources of 1) fits, the second (source 0) overflows.
  const double big = 9223372036854775808.0;
  const csr overflow = make_csr(3, {{0, 1, big}, {1, 2, big}}, weight_kind::integer, true);
  ds::many_sources ms(overflow, phast_batches(), batch(32));
  std::vector<vertex_t> sources(32, 1);
  sources.push_back(0);
  EXPECT_THROW(ms.run(sources, {}, [](const ds::distance_block&) {}), phast_ds::distance_overflow);
  expect_rows_match_dijkstra(overflow, ms, std::vector<vertex_t>(40, 1), {}, "after the throw");
}

// Row summaries reduced where the batches lie (many_sources::summarize_rows): NY in batches of 32
// (a pipeline of three batches, the last short; duplicates), a grid with a cutoff and unreachable
// vertices, the automatic batch, uint64 and float32 distances, a sum past 2^64 - 1 (the error names
// its source, the engine serves the next call), and the batched delta-stepping engine's summaries
// from its host blocks.
TEST(PhastGpu, RowSummariesInTheEngine) {
  DELTASPLIT_REQUIRE_GPU();
  const csr ny = load("USA-road-d.NY.gr.gz");
  ds::many_sources on_ny(ny, with_new_york_hierarchy(phast_batches()), batch(32));
  ASSERT_TRUE(on_ny.on_gpu());
  std::vector<vertex_t> sources = first_sources(ny.num_vertices, 70, 13);
  sources[5] = sources[40];
  const ds::row_summaries s = expect_row_summaries_match_dijkstra(ny, on_ny, sources, "NY");
  EXPECT_EQ(s.batch_size, 32u);
  EXPECT_EQ(s.batches, 3u);
  const csr grid = small_grid(50, 4);
  for (const double cutoff : {double(INFINITY), 60.0}) {
    phast_ds::options o = phast_batches();
    o.cutoff = cutoff;
    ds::many_sources ms(grid, o);
    expect_row_summaries_match_dijkstra(grid, ms, first_sources(grid.num_vertices, 300, 14), "grid", cutoff);
  }
  // 64-bit weights (up to 1e13): paths past 2^32, each source's sum below 2^64.
  const csr wide = random_graph(2500, 12000, 22, 1e13, weight_kind::integer, true);
  ds::many_sources on_wide(wide, phast_batches(), batch(64));
  ASSERT_EQ(on_wide.type(), phast_ds::distance_type::uint64);
  expect_row_summaries_match_dijkstra(wide, on_wide, first_sources(wide.num_vertices, 100, 15), "uint64");
  phast_ds::options single = phast_batches();
  single.real_type = phast_ds::distance_type::float32;
  const csr real = random_graph(3000, 15000, 23, 50.0, weight_kind::real);
  ds::many_sources on_real(real, single, batch(32));
  ASSERT_EQ(on_real.type(), phast_ds::distance_type::float32);
  expect_row_summaries_match_dijkstra(real, on_real, first_sources(real.num_vertices, 40, 16), "float32");
  // A path 0 -> 1 -> 2 -> 3 of 2^62, 2^62 and 1.5 x 2^62: vertex 0's distances sum past 2^64 - 1.
  const double big = 4611686018427387904.0;
  const csr path = make_csr(4, {{0, 1, big}, {1, 2, big}, {2, 3, 1.5 * big}}, weight_kind::integer, true);
  ds::many_sources on_path(path, phast_batches(), batch(32));
  std::vector<vertex_t> mostly_one(40, 1);
  mostly_one[35] = 0;
  try {
    on_path.summarize_rows(mostly_one);
    ADD_FAILURE() << "no overflow_error";
  } catch (const std::overflow_error& e) {
    EXPECT_NE(std::string(e.what()).find("from vertex 0 "), std::string::npos) << e.what();
  }
  expect_row_summaries_match_dijkstra(path, on_path, {1, 2, 3, 1}, "after the throw");
  phast_ds::options steps;
  steps.device = gpu;
  ds::many_sources batched(grid, steps, batch(32));
  ASSERT_TRUE(batched.on_gpu());
  expect_row_summaries_match_dijkstra(grid, batched, first_sources(grid.num_vertices, 40, 17), "delta-stepping batches");
}

// Row summaries of large batches on NY (the seed bits of 32 to 64 groups a position, the partials
// of many tiles): two batches, the second of 70 rows, a source twice; a sample of the sources,
// with the edges of groups of 32 and of the batches, checked against Dijkstra.
TEST(PhastGpu, RowSummariesOfLargeBatches) {
  DELTASPLIT_REQUIRE_GPU();
  const csr ny = load("USA-road-d.NY.gr.gz");
  std::vector<vertex_t> sources = first_sources(ny.num_vertices, 2048 + 70, 31);
  sources[2100] = sources[3];
  std::vector<std::size_t> sample = {0, 1, 3, 31, 32, 33, 1023, 1024, 2047, 2048, 2079, 2100, 2117};
  for (std::size_t i = 97; i < sources.size(); i += 211) sample.push_back(i);
  for (const std::uint32_t k : {2048u, 1024u})
    for (const double cutoff : {double(INFINITY), 400000.0}) {
      SCOPED_TRACE("k " + std::to_string(k) + ", cutoff " + std::to_string(cutoff));
      phast_ds::options o = with_new_york_hierarchy(phast_batches());
      o.cutoff = cutoff;
      ds::many_sources ms(ny, o, batch(k));
      ASSERT_TRUE(ms.on_gpu());
      const ds::row_summaries s = ms.summarize_rows(sources);
      ASSERT_EQ(s.reached.size(), sources.size());
      EXPECT_EQ(s.batch_size, k);
      for (const std::size_t i : sample) {
        const ds::validation v = ds::validate_summary(ny, sources[i], s, i, cutoff);
        EXPECT_TRUE(v.ok) << "source index " << i << ": " << v.message;
      }
      EXPECT_EQ(s.int_sums[2100], s.int_sums[3]);
    }
}

// The GPU sweep takes a loaded hierarchy as it takes a built one: NY built on the CPU side and
// written, then loaded by a GPU solver and GPU batches; real weights built on the GPU side (the
// contraction runs on the host either way), then loaded on both.
TEST(PhastGpu, HierarchyFileBuiltOnOneSideLoadedOnTheOther) {
  DELTASPLIT_REQUIRE_GPU();
  temp_dir dir;
  const csr ny = load("USA-road-d.NY.gr.gz");
  phast_ds::options on_cpu = phast_on(phast_ds::device_kind::cpu);
  on_cpu.hierarchy_file = dir.file("ny.ch");
  EXPECT_EQ(phast_ds::solver(ny, on_cpu).run(0).stats.setup, "built");
  phast_ds::options o = phast_on(gpu, true);
  o.hierarchy_file = on_cpu.hierarchy_file;
  EXPECT_EQ(phast_ds::solver(ny, o).run(0).stats.setup, "loaded");
  expect_phast_matches_dijkstra(ny, {0, 1000, 264345}, o, "USA-road-d.NY, loaded");
  phast_ds::options batches = phast_batches();
  batches.hierarchy_file = on_cpu.hierarchy_file;
  ds::many_sources m(ny, batches, batch(32));
  ASSERT_TRUE(m.on_gpu());
  EXPECT_EQ(m.setup(), "loaded");
  EXPECT_EQ(expect_rows_match_dijkstra(ny, m, first_sources(ny.num_vertices, 40, 7), {}, "NY loaded, 40/32"), 2u);

  const csr real = random_graph(3000, 15000, 4, 30.0, weight_kind::real);
  o.hierarchy_file = dir.file("real.ch");
  EXPECT_EQ(phast_ds::solver(real, o).run(0).stats.setup, "built");
  expect_phast_matches_dijkstra(real, {0, 17, 2999}, o, "random real, loaded on the GPU");
  on_cpu.hierarchy_file = o.hierarchy_file;
  on_cpu.predecessors = true;
  expect_phast_matches_dijkstra(real, {0, 17, 2999}, on_cpu, "random real, loaded on the CPU");
}

// The device's pair query (gpu/phast/pair_query.cuh) against the host's (which
// contraction_hierarchy_test checks against PHAST's rows) and against Dijkstra's rows: each source
// paired with `per_source` random targets and with itself. Real distances within 1e-6 of the
// host's (both are minima of float sums over the same up-down paths).
void expect_device_pairs(const csr& g, const phast_ds::options& o, const std::vector<vertex_t>& sources,
                         std::size_t per_source, const std::string& what) {
  SCOPED_TRACE(what);
  ds::many_sources device(g, o, batch(32));
  ASSERT_TRUE(device.on_gpu());
  phast_ds::options host_options = o;
  host_options.device = phast_ds::device_kind::cpu;
  ds::many_sources host(g, host_options, batch(32));
  std::vector<vertex_t> from, to;
  const std::vector<vertex_t> targets = first_sources(g.num_vertices, sources.size() * per_source, 11);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    from.push_back(sources[i]), to.push_back(sources[i]);
    for (std::size_t j = 0; j < per_source; ++j) from.push_back(sources[i]), to.push_back(targets[i * per_source + j]);
  }
  const auto integers = [&](auto zero, auto column) {
    std::vector<decltype(zero)> got(from.size()), want(from.size());
    device.pair_distances(from.data(), to.data(), from.size(), got.data());
    host.pair_distances(from.data(), to.data(), from.size(), want.data());
    EXPECT_EQ(got, want);
    for (std::size_t i = 0, k = 0; i < sources.size(); ++i) {
      const phast_ds::result row = phast_ds::dijkstra(g, sources[i]);
      for (std::size_t j = 0; j <= per_source; ++j, ++k)
        ASSERT_EQ(got[k], (row.*column)[to[k]]) << "pair " << from[k] << " -> " << to[k];
    }
  };
  if (device.type() == phast_ds::distance_type::uint64) {
    integers(std::uint64_t{0}, &phast_ds::result::uint64_distances);
  } else if (g.kind == weight_kind::integer) {
    integers(std::uint32_t{0}, &phast_ds::result::int_distances);
  } else {
    std::vector<float> got(from.size()), want(from.size());
    device.pair_distances(from.data(), to.data(), from.size(), got.data());
    host.pair_distances(from.data(), to.data(), from.size(), want.data());
    for (std::size_t k = 0; k < from.size(); ++k) {
      if (std::isinf(want[k]))
        EXPECT_TRUE(std::isinf(got[k])) << "pair " << from[k] << " -> " << to[k];
      else
        EXPECT_NEAR(got[k], want[k], 1e-6 * want[k]) << "pair " << from[k] << " -> " << to[k];
    }
  }
}

// Pairs on the device: the road networks (closures within a warp's first or second capacity) and
// real weights. NY's pairs outnumber the engine's probe (phast.cu, pair_probe): most of the
// probe's pass the first capacity, so the rest start at the second.
TEST(PhastGpu, PairsOnRoadNetworks) {
  DELTASPLIT_REQUIRE_GPU();
  const csr ny = load("USA-road-d.NY.gr.gz");
  expect_device_pairs(ny, with_new_york_hierarchy(phast_batches()), {0, 1000, 264345}, 11000, "USA-road-d.NY");
  expect_device_pairs(load("road-FLA.mtx.gz"), phast_batches(), {0, 500000}, 1000, "road-FLA");
  expect_device_pairs(load("chicago-regional.mtx.gz"), phast_batches(), {0, 5000}, 1000, "chicago-regional");
}

// Pairs on the device, small graphs: grids with unreachable pairs (the larger one's closures
// reach the second capacity), zero weights, the crafted graphs, one vertex; a graph whose closures
// pass every warp capacity (the host answers those pairs); a graph with a core (the host answers
// every pair); a real sum past the largest float (the host answers the pair and reports the
// overflow); a vertex past the graph.
TEST(PhastGpu, PairsOnSmallGraphs) {
  DELTASPLIT_REQUIRE_GPU();
  expect_device_pairs(small_grid(60, 3), phast_batches(), {0, 1000, 3779}, 300, "grid with cut vertices");
  expect_device_pairs(small_grid(150, 4), phast_batches(), {0, 11000, 22000}, 300, "larger grid");
  expect_device_pairs(zero_weight_graph(2000, 7), phast_batches(), {0, 3, 1999}, 300, "zero weights");
  for (weight_kind kind : {weight_kind::integer, weight_kind::real})
    expect_device_pairs(crafted_graph(kind), phast_batches(), {0, 3, 5, 6}, 20, "crafted");
  expect_device_pairs(make_csr(1, {}), phast_batches(), {0}, 2, "one vertex");
  expect_device_pairs(fan_past_every_capacity(), phast_batches(), {0, 1, 4000}, 300, "fan past every warp capacity");
  expect_device_pairs(load("email-Enron.mtx.gz"), phast_batches(), {0, 100}, 300, "email-Enron (core)");

  const csr real = make_csr(3, {{0, 1, 3e38}, {1, 2, 3e38}}, weight_kind::real);
  ds::many_sources m(real, phast_batches(), batch(32));
  ASSERT_TRUE(m.on_gpu());
  const vertex_t from[] = {1, 0}, to[] = {2, 2};
  float out[2];
  m.pair_distances(from, to, 1, out);
  EXPECT_EQ(out[0], 3e38f);
  EXPECT_THROW(m.pair_distances(from, to, 2, out), phast_ds::distance_overflow);
  const vertex_t past[] = {3};
  EXPECT_THROW(m.pair_distances(from, past, 1, out), std::out_of_range);
}

// Integer graphs whose paths may pass 2^32 - 2 have uint64 distances, swept on the GPU on a
// hierarchy of 64-bit weights: one source (trees, a cutoff), batches into host and device blocks,
// pairs (the warp's table of 64-bit distances), from 32-bit weights (widened) and from 64-bit ones
// past 2^53.
TEST(PhastGpu, UInt64Distances) {
  DELTASPLIT_REQUIRE_GPU();
  const csr narrow = random_graph(3000, 15000, 21, 3e9);
  const csr wide = random_graph(2500, 12000, 22, 9e15, weight_kind::integer, true);
  for (const csr* g : {&narrow, &wide}) {
    const std::string what = g == &narrow ? "32-bit weights" : "64-bit weights";
    SCOPED_TRACE(what);
    const vertex_t last = g->num_vertices - 1;
    ds::many_sources rows(*g, phast_batches(), batch(32));
    ASSERT_TRUE(rows.on_gpu());
    ASSERT_EQ(rows.type(), phast_ds::distance_type::uint64);
    expect_rows_match_dijkstra(*g, rows, first_sources(g->num_vertices, 40, 3), {7, 0, 7, last}, what + ", rows");
    expect_phast_matches_dijkstra(*g, {0, 17, last}, phast_on(gpu, true), what);
    const phast_ds::result far = phast_ds::dijkstra(*g, 0);
    double farthest = 0;
    for (vertex_t v = 0; v < g->num_vertices; ++v)
      if (far.reached(v)) farthest = std::max(farthest, far.distance(v));
    ASSERT_GT(farthest, 4294967294.0);
    expect_phast_matches_dijkstra(*g, {0, 5}, phast_on(gpu, true, farthest / 2), what + ", cutoff");
    expect_device_pairs(*g, phast_batches(), {0, 100, last}, 300, what);

    ds::many_source_options m = batch(32);
    m.device_blocks = true;
    ds::many_sources on_device(*g, phast_batches(), m);
    const std::vector<vertex_t> sources = first_sources(g->num_vertices, 33, 4);
    std::vector<std::uint64_t> copied(sources.size() * g->num_vertices);
    on_device.run(sources, {}, [&](const ds::distance_block& b) {
      ASSERT_TRUE(b.on_device);
      ASSERT_EQ(b.type, phast_ds::distance_type::uint64);
      auto stream = static_cast<cudaStream_t>(b.stream);
      ASSERT_EQ(cudaMemcpyAsync(copied.data() + b.first_row * b.columns, b.uint64_distances,
                                b.rows * b.columns * sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream),
                cudaSuccess);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    });
    for (std::size_t r = 0; r < sources.size(); ++r) {
      const phast_ds::result want = phast_ds::dijkstra(*g, sources[r]);
      ASSERT_TRUE(std::equal(want.uint64_distances.begin(), want.uint64_distances.end(),
                             copied.begin() + r * g->num_vertices))
          << "device block row " << r;
    }
  }
}

// USA-road-d.NY with its weights times 1,000: paths past 2^32, a road network's closures in the
// pair query's 64-bit tables.
TEST(PhastGpu, UInt64OnARoadNetwork) {
  DELTASPLIT_REQUIRE_GPU();
  csr ny = load("USA-road-d.NY.gr.gz");
  for (std::uint32_t& w : ny.int_weights) w *= 1000;
  expect_device_pairs(ny, phast_batches(), {0, 1000, 264345}, 3000, "USA-road-d.NY x 1000");
  expect_phast_matches_dijkstra(ny, {0, 264345}, phast_on(gpu, true), "USA-road-d.NY x 1000");
}

}  // namespace
