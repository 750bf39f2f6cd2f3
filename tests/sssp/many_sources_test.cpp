// sssp::many_sources on the CPU (the fallback: one Dijkstra per source, sources shared out over
// threads) and the parts of the API that do not depend on the device: blocks in order, target
// subsets, the cutoff, the OD table, the row validator and the refusals.
#include "common/datasets.hpp"
#include "deltasplit/graph/io.hpp"
#include "sssp/many_sources_checks.hpp"

namespace {

using namespace deltasplit_test;

ds::options on_cpu(unsigned threads = 3) {
  ds::options o;
  o.device = ds::device_kind::cpu;
  o.threads = threads;
  return o;
}

TEST(ManySourcesCpu, RowsMatchDijkstraOnBundledRmatAndGridGraphs) {
  const csr ches = deltasplit::graph::read_graph(dataset_path("chesapeake.mtx"));
  ds::many_sources a(ches, on_cpu(), batch(16));
  ASSERT_FALSE(a.on_gpu());
  EXPECT_EQ(a.method(), "dijkstra");
  EXPECT_EQ(expect_rows_match_dijkstra(ches, a, first_sources(ches.num_vertices, 48, 1), {}, "chesapeake"), 3u);
  EXPECT_EQ(expect_rows_match_dijkstra(ches, a, first_sources(ches.num_vertices, 50, 2), {}, "chesapeake 50/16"), 4u);
  const csr rmat = small_rmat(10, 4);
  ds::many_sources b(rmat, on_cpu());
  expect_rows_match_dijkstra(rmat, b, first_sources(rmat.num_vertices, 40, 3), {}, "rmat");
  const csr grid = small_grid(20, 6);
  ds::many_sources c(grid, on_cpu(2), batch(7));
  expect_rows_match_dijkstra(grid, c, first_sources(grid.num_vertices, 30, 4), {5, 5, 0, 400}, "grid targets");
  const csr real = random_graph(500, 3000, 2, 50.0, weight_kind::real);
  ds::many_sources d(real, on_cpu());
  expect_rows_match_dijkstra(real, d, first_sources(real.num_vertices, 20, 5), {}, "real");
}

// Every strategy runs on the CPU threads here (Dijkstra per source; phast: its CPU sweep), and
// each honours the cutoff: integer, real and zero weights (ties at a cutoff of 0), unreachable
// vertices, all targets and a subset with duplicates.
TEST(ManySourcesCpu, CutoffRowsEqualDijkstraWithFartherVerticesUnreachable) {
  const csr grid = small_grid(20, 6);
  const csr real = random_graph(500, 3000, 2, 50.0, weight_kind::real);
  const csr zeros = random_graph(400, 1600, 3, 2);
  for (const csr* g : {&grid, &real, &zeros}) {
    const std::vector<vertex_t> sources = first_sources(g->num_vertices, 20, 7);
    for (double cutoff : cutoffs_between(*g, sources)) {
      for (ds::strategy how : every_strategy()) {
        ds::options o = on_cpu();
        o.how = how;
        o.cutoff = cutoff;
        if (how == ds::strategy::phast) o.real_type = ds::distance_type::float32;  // phast: 32-bit distances
        expect_cutoff_rows(*g, o, batch(8), sources);
      }
    }
  }
}

TEST(ManySourcesCpu, SetCutoffReaimsOneSolver) {
  const csr g = random_graph(400, 2400, 4, 60);
  const std::vector<vertex_t> sources = first_sources(g.num_vertices, 12, 5);
  for (ds::strategy how : every_strategy()) {
    ds::options o = on_cpu();
    o.how = how;
    expect_set_cutoff_keeps_the_solver(g, o, batch(5), sources);
  }
}

// run_into on the CPU: the rows given in host memory are solved into in place (every block points
// into them), by Dijkstra and by PHAST's group sweep, with and without a cutoff, batches that do
// and do not divide the source count.
TEST(ManySourcesCpu, RowsGivenInHostMemoryAreSolvedInPlace) {
  const csr g = small_grid(20, 6);
  const std::vector<vertex_t> sources = first_sources(g.num_vertices, 21, 9);
  const std::size_t n = g.num_vertices;
  for (ds::strategy how : {ds::strategy::dijkstra, ds::strategy::phast}) {
    for (const double cutoff : {std::numeric_limits<double>::infinity(), 900.0}) {
      ds::options o = on_cpu();
      o.how = how;
      o.cutoff = cutoff;
      ds::many_sources ms(g, o, batch(8));
      std::vector<std::uint32_t> rows(sources.size() * n, 7);
      std::size_t blocks = 0;
      ms.run_into(sources, rows.data(), [&](const ds::distance_block& b) {
        ++blocks;
        EXPECT_EQ(b.int_distances, rows.data() + b.first_row * n);
      });
      EXPECT_EQ(blocks, 3u);
      expect_whole_rows_equal_dijkstra(g, sources, rows, cutoff);
    }
  }
}

TEST(ManySourcesCpu, AnOverflowPastTheCutoffIsUnreachable) { expect_overflow_past_the_cutoff_unreachable(on_cpu()); }

TEST(ManySourcesCpu, DuplicatesSourcesWithoutArcsAndOneVertex) {
  const csr g = make_csr(4, {{0, 1, 2}, {1, 2, 0}, {2, 0, 5}});
  ds::many_sources ms(g, on_cpu(), batch(3));
  EXPECT_EQ(expect_rows_match_dijkstra(g, ms, {3, 3, 0, 2, 0, 1, 3}, {}, "duplicates"), 3u);
  const csr one = make_csr(1, {});
  ds::many_sources m1(one, on_cpu());
  EXPECT_EQ(expect_rows_match_dijkstra(one, m1, {0}, {0, 0}, "one vertex"), 1u);
}

TEST(ManySourcesCpu, OdTableRowsAndColumnsFollowTheLists) {
  const csr g = small_grid(12, 3);
  const std::vector<vertex_t> sources = {5, 100, 5, 17}, targets = {0, 17, 17, 150};
  const ds::distance_table t = ds::od_table(g, sources, targets, on_cpu(), batch(3));
  ASSERT_EQ(t.rows, 4u);
  ASSERT_EQ(t.columns, 4u);
  ASSERT_EQ(t.int_distances.size(), 16u);
  for (std::size_t r = 0; r < t.rows; ++r) {
    const ds::result d = ds::dijkstra(g, sources[r]);
    for (std::size_t c = 0; c < t.columns; ++c) EXPECT_EQ(t.at(r, c), d.distance(targets[c])) << r << "," << c;
  }
  const ds::distance_table all = ds::od_table(g, {3}, {}, on_cpu());
  EXPECT_EQ(all.columns, g.num_vertices);
  EXPECT_EQ(all.int_distances, ds::dijkstra(g, 3).int_distances);
  // Every vertex a target, rows solved into the table in batches of 2 (the last one short).
  const std::vector<vertex_t> three = {3, 40, 3};
  const ds::distance_table rows = ds::od_table(g, three, {}, on_cpu(), batch(2));
  for (std::size_t r = 0; r < three.size(); ++r) {
    const std::vector<std::uint32_t> want = ds::dijkstra(g, three[r]).int_distances;
    EXPECT_TRUE(std::equal(want.begin(), want.end(), rows.int_distances.begin() + r * g.num_vertices)) << r;
  }
}

// Row summaries on the CPU threads (Dijkstra per source; phast: its sweeps), reduced from host
// blocks: every distance type, a cutoff, unreachable vertices, duplicates, one vertex, no sources;
// a sum past 2^64 - 1 is an overflow_error naming its source.
TEST(ManySourcesCpu, RowSummariesEqualDijkstrasRowsSummed) {
  const csr grid = small_grid(20, 6);
  const csr real = random_graph(500, 3000, 2, 50.0, weight_kind::real);
  const csr crafted = make_csr(5, {{0, 1, 2}, {1, 2, 0}, {2, 0, 5}, {4, 3, 7}});
  for (ds::strategy how : {ds::strategy::dijkstra, ds::strategy::phast}) {
    ds::options o = on_cpu();
    o.how = how;
    const std::string name = ds::strategy_name(how);
    ds::many_sources a(grid, o, batch(7));
    const std::vector<vertex_t> sources = first_sources(grid.num_vertices, 30, 4);
    EXPECT_EQ(expect_row_summaries_match_dijkstra(grid, a, sources, name + ", grid").batches, 5u);
    const double cutoff = cutoffs_between(grid, sources)[1];
    a.set_cutoff(cutoff);
    expect_row_summaries_match_dijkstra(grid, a, sources, name + ", grid with a cutoff", cutoff);
    for (ds::distance_type t : {ds::distance_type::float64, ds::distance_type::float32}) {
      if (how == ds::strategy::phast && t == ds::distance_type::float64) continue;  // phast: 32-bit reals
      o.real_type = t;
      ds::many_sources b(real, o);
      expect_row_summaries_match_dijkstra(real, b, first_sources(real.num_vertices, 20, 5),
                                          name + ", " + ds::distance_type_name(t));
    }
    o.real_type = ds::distance_type::float64;
    ds::many_sources c(crafted, o, batch(2));
    const ds::row_summaries s = expect_row_summaries_match_dijkstra(crafted, c, {3, 3, 0, 4, 2}, name + ", crafted");
    EXPECT_EQ(s.reached, (std::vector<std::uint64_t>{1, 1, 3, 2, 3}));
    EXPECT_EQ(s.int_farthest[3], 7u);
    EXPECT_EQ(s.int_sums[2], 2u + 2u);  // from 0: 1 at 2, 2 at 2 (a zero arc)
    ds::row_summaries wrong = s;
    ++wrong.int_sums[2];
    const ds::validation v = ds::validate_summary(crafted, 0, wrong, 2);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("sum 5 (Dijkstra 4)"), std::string::npos) << v.message;
    EXPECT_TRUE(c.summarize_rows({}).reached.empty());
  }
  const csr one = make_csr(1, {});
  ds::many_sources m1(one, on_cpu());
  const ds::row_summaries s1 = m1.summarize_rows({0, 0});
  EXPECT_EQ(s1.reached, (std::vector<std::uint64_t>{1, 1}));
  EXPECT_EQ(s1.int_sums, (std::vector<std::uint64_t>{0, 0}));
  // uint64 distances, a path 0 -> 1 -> 2 -> 3 of 2^62, 2^62 and 1.5 x 2^62: vertex 0's distances
  // sum to 6.5 x 2^62, past 2^64 - 1; vertex 1's to 3.5 x 2^62.
  const double big = 4611686018427387904.0;  // 2^62
  const csr wide = make_csr(4, {{0, 1, big}, {1, 2, big}, {2, 3, 1.5 * big}}, weight_kind::integer, true);
  ds::many_sources w(wide, on_cpu());
  ASSERT_EQ(w.type(), ds::distance_type::uint64);
  expect_row_summaries_match_dijkstra(wide, w, {2, 3, 1}, "uint64 sums below 2^64");
  try {
    w.summarize_rows({2, 0});
    ADD_FAILURE() << "no overflow_error";
  } catch (const std::overflow_error& e) {
    EXPECT_NE(std::string(e.what()).find("from vertex 0 "), std::string::npos) << e.what();
  }
  EXPECT_THROW(w.summarize_rows({4}), std::out_of_range);
}

TEST(ManySourcesCpu, ValidateRowFindsAWrongDistance) {
  const csr g = small_grid(10, 1);
  std::vector<std::uint32_t> row = ds::dijkstra(g, 4).int_distances;
  ds::distance_block b;
  b.rows = 1;
  b.columns = row.size();
  b.int_distances = row.data();
  EXPECT_TRUE(ds::validate_row(g, 4, {}, b, 0).ok);
  row[7] += 1;
  const ds::validation v = ds::validate_row(g, 4, {}, b, 0);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.mismatches, 1u);
  EXPECT_NE(v.message.find("to vertex 7"), std::string::npos) << v.message;  // grids are 0-based
  const std::vector<std::uint32_t> oracle = ds::dijkstra(g, 4).int_distances;
  std::vector<std::uint32_t> two = {oracle[3], oracle[0]};
  b.columns = 2;
  b.int_distances = two.data();
  EXPECT_TRUE(ds::validate_row(g, 4, {3, 0}, b, 0).ok);
  EXPECT_FALSE(ds::validate_row(g, 4, {0, 3}, b, 0).ok || oracle[0] == oracle[3]);
}

TEST(ManySourcesCpu, Refusals) {
  const csr g = make_csr(3, {{0, 1, 1}});
  ds::many_sources ms(g, on_cpu());
  EXPECT_THROW(ms.run({0, 3}, {}, [](const ds::distance_block&) {}), std::out_of_range);
  EXPECT_THROW(ms.run({0}, {3}, [](const ds::distance_block&) {}), std::out_of_range);
  ds::many_source_options dev;
  dev.device_blocks = true;
  EXPECT_THROW(ds::many_sources(g, on_cpu(), dev), std::invalid_argument);
  ds::options bad = on_cpu();
  bad.tune.delta = -1;
  EXPECT_THROW(ds::many_sources(g, bad), std::invalid_argument);
  // Past 2^32 - 2 the rows are uint64; only past 2^64 - 2 is a distance an overflow.
  const csr over = make_csr(3, {{0, 1, 9223372036854775808.0}, {1, 2, 9223372036854775808.0}}, weight_kind::integer, true);
  ds::many_sources mo(over, on_cpu());
  EXPECT_EQ(mo.type(), ds::distance_type::uint64);
  EXPECT_THROW(mo.run({0}, {}, [](const ds::distance_block&) {}), ds::distance_overflow);
}

}  // namespace
