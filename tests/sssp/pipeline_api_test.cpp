// The pipeline API (csr_view.hpp, graph/from_arrays.hpp, solver::run_into, options::cutoff) on
// the CPU solvers: clean_csr cleans and counts as the readers do, views answer as the graph does,
// results land in the caller's buffers, the cutoff equals Dijkstra's distances with everything
// farther cleared, and a solver cannot be built from a temporary graph.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "deltasplit/graph/from_arrays.hpp"
#include "deltasplit/graph/io.hpp"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;
using namespace deltasplit_test;
using graph::edge_t;

static_assert(!std::is_constructible_v<ds::solver, graph::csr&&, const ds::options&>,
              "a solver must not be built from a temporary graph");
static_assert(std::is_constructible_v<ds::solver, const graph::csr&, const ds::options&>);
static_assert(std::is_constructible_v<ds::solver, const ds::csr_view&, const ds::options&>);

TEST(CleanCsr, CleansAndCountsExactlyAsTheReaderDoes) {
  // The same entries as a Matrix Market file and as arrays: unsorted, a self-loop, parallel arcs.
  const std::vector<vertex_t> src = {2, 0, 0, 1, 0, 2, 3, 0};
  const std::vector<vertex_t> dst = {0, 3, 1, 1, 1, 3, 2, 3};
  const std::vector<std::uint32_t> w = {5, 9, 4, 7, 2, 1, 6, 3};
  const std::string path = ::testing::TempDir() + "/clean_csr_test.mtx";
  {
    std::ofstream f(path);
    f << "%%MatrixMarket matrix coordinate integer general\n4 4 " << src.size() << "\n";
    for (std::size_t i = 0; i < src.size(); ++i) f << src[i] + 1 << " " << dst[i] + 1 << " " << w[i] << "\n";
  }
  graph::csr from_file = graph::read_graph(path);
  std::remove(path.c_str());
  graph::csr from_arrays = graph::clean_csr_from_arcs(4, src, dst, w);
  EXPECT_EQ(from_arrays.offsets, from_file.offsets);
  EXPECT_EQ(from_arrays.targets, from_file.targets);
  EXPECT_EQ(from_arrays.int_weights, from_file.int_weights);
  EXPECT_EQ(from_arrays.origin.self_loops_dropped, from_file.origin.self_loops_dropped);
  EXPECT_EQ(from_arrays.origin.duplicates_merged, from_file.origin.duplicates_merged);
  EXPECT_EQ(from_arrays.origin.self_loops_dropped, 1u);
  EXPECT_EQ(from_arrays.origin.duplicates_merged, 2u);
  EXPECT_EQ(from_arrays.origin.format, "arrays");

  // The same arcs as CSR arrays with unsorted rows.
  std::vector<edge_t> offsets = {0, 4, 5, 7, 8};
  std::vector<vertex_t> targets = {3, 1, 1, 3, 1, 0, 3, 2};
  std::vector<std::uint32_t> weights = {9, 4, 2, 3, 7, 5, 1, 6};
  graph::csr from_rows = graph::clean_csr(4, offsets, targets, weights);
  EXPECT_EQ(from_rows.offsets, from_file.offsets);
  EXPECT_EQ(from_rows.targets, from_file.targets);
  EXPECT_EQ(from_rows.int_weights, from_file.int_weights);
  EXPECT_EQ(from_rows.origin.duplicates_merged, from_file.origin.duplicates_merged);
}

TEST(CleanCsr, RealWeightsAndSymmetricArcs) {
  const std::vector<vertex_t> src = {0, 1, 1};
  const std::vector<vertex_t> dst = {1, 0, 2};
  const std::vector<float> w = {2.5f, 1.5f, -0.0f};
  graph::csr g = graph::clean_csr_from_arcs(3, src, dst, w, true);
  EXPECT_EQ(g.kind, graph::weight_kind::real);
  EXPECT_EQ(g.offsets, (std::vector<edge_t>{0, 1, 3, 4}));
  EXPECT_EQ(g.targets, (std::vector<vertex_t>{1, 0, 2, 1}));
  EXPECT_EQ(g.real_weights, (std::vector<float>{1.5f, 1.5f, 0.0f, 0.0f}));
  EXPECT_FALSE(std::signbit(g.real_weights[2]));
  EXPECT_EQ(g.origin.duplicates_merged, 2u);
}

TEST(CleanCsr, RefusesBadArrays) {
  const std::vector<vertex_t> a = {0, 1}, b = {1, 5}, c = {1};
  const std::vector<std::uint32_t> w2 = {1, 1}, w1 = {1};
  EXPECT_THROW(graph::clean_csr_from_arcs(3, a, b, w2), std::invalid_argument);  // vertex 5
  EXPECT_THROW(graph::clean_csr_from_arcs(3, a, c, w2), std::invalid_argument);  // lengths
  EXPECT_THROW(graph::clean_csr_from_arcs(3, a, a, w1), std::invalid_argument);  // weights
  const std::vector<float> negative = {1.0f, -2.0f}, nan = {std::nanf(""), 1.0f};
  EXPECT_THROW(graph::clean_csr_from_arcs(3, a, a, negative), std::invalid_argument);
  EXPECT_THROW(graph::clean_csr_from_arcs(3, a, a, nan), std::invalid_argument);
  const std::vector<edge_t> decreasing = {0, 2, 1, 2}, short_offsets = {0, 2};
  EXPECT_THROW(graph::clean_csr(3, decreasing, a, w2), std::invalid_argument);
  EXPECT_THROW(graph::clean_csr(3, short_offsets, a, w2), std::invalid_argument);
}

namespace {

std::vector<ds::options> cpu_solvers() {
  ds::options cpu;
  cpu.how = ds::strategy::delta_stepping_cpu;
  cpu.threads = 2;
  ds::options dijkstra;
  dijkstra.how = ds::strategy::dijkstra;
  ds::options fallback;  // a GPU strategy with device cpu: CPU delta-stepping
  fallback.device = ds::device_kind::cpu;
  fallback.threads = 3;
  return {cpu, dijkstra, fallback};
}

}  // namespace

TEST(RunInto, WritesTheCallersBuffersAsRunReturns) {
  for (auto kind : {weight_kind::integer, weight_kind::real}) {
    csr g = random_graph(500, 3000, 7, 50, kind);
    const ds::csr_view view = g;
    for (ds::options o : cpu_solvers()) {
      o.predecessors = true;
      ds::solver by_graph(g, o), by_view(view, o);
      for (vertex_t source : {0u, 17u, 499u}) {
        ds::result want = by_graph.run(source);
        ASSERT_TRUE(ds::validate(g, source, want).ok);
        std::vector<std::uint32_t> ints(g.num_vertices, 12345);
        std::vector<double> reals(g.num_vertices, 1.0);
        std::vector<vertex_t> parents(g.num_vertices, 7);
        ds::output_buffers out;
        if (kind == weight_kind::integer)
          out.int_distances = ints.data();
        else
          out.float64_distances = reals.data();  // real weights: float64 unless float32 is asked for
        out.predecessors = parents.data();
        ds::statistics st = by_view.run_into(source, out);
        EXPECT_EQ(st.strategy, want.stats.strategy);
        if (kind == weight_kind::integer)
          EXPECT_EQ(ints, want.int_distances);
        else
          EXPECT_EQ(reals, want.float64_distances);
        ds::result got = want;
        got.predecessors = parents;
        EXPECT_TRUE(ds::check_predecessors(g, source, got).ok);
      }
    }
  }
}

TEST(RunInto, RefusesMissingOrDeviceBuffersOnTheCpu) {
  csr g = random_graph(50, 200, 3, 10);
  ds::options o;
  o.device = ds::device_kind::cpu;
  ds::solver s(g, o);
  ds::output_buffers none;
  EXPECT_THROW(s.run_into(0, none), std::invalid_argument);
  std::vector<float> wrong_kind(50);
  none.real_distances = wrong_kind.data();
  EXPECT_THROW(s.run_into(0, none), std::invalid_argument);
  std::vector<std::uint32_t> d(50);
  ds::output_buffers device;
  device.space = ds::memory_space::device;
  device.int_distances = d.data();
  EXPECT_THROW(s.run_into(0, device), std::invalid_argument);
  ds::csr_view on_device = g;
  on_device.space = ds::memory_space::device;
  EXPECT_THROW(ds::solver(on_device, o), std::invalid_argument);
}

TEST(Cutoff, EqualsDijkstraWithFartherVerticesCleared) {
  for (auto kind : {weight_kind::integer, weight_kind::real}) {
    csr g = random_graph(2000, 10000, 11, 100, kind);
    ds::result full = ds::dijkstra(g, 3);
    std::vector<double> finite;
    for (vertex_t v = 0; v < g.num_vertices; ++v)
      if (full.reached(v)) finite.push_back(full.distance(v));
    std::sort(finite.begin(), finite.end());
    for (double cutoff : {0.0, finite[finite.size() / 4], finite[finite.size() / 2] + 0.5, finite.back()}) {
      for (ds::options o : cpu_solvers()) {
        for (double delta : {0.0, 7.0, 1000.0}) {
          o.cutoff = cutoff;
          o.tune.delta = delta;
          o.predecessors = true;
          ds::solver s(g, o);
          ds::result r = s.run(3);
          SCOPED_TRACE(std::string(ds::strategy_name(o.how)) + " cutoff " + std::to_string(cutoff) + " delta " +
                       std::to_string(delta));
          std::uint64_t kept = 0;
          for (vertex_t v = 0; v < g.num_vertices; ++v) {
            const bool within = full.reached(v) && full.distance(v) <= cutoff;
            ASSERT_EQ(r.reached(v), within) << "vertex " << v;
            if (within) {
              ++kept;
              ASSERT_EQ(r.distance(v), full.distance(v)) << "vertex " << v;
            } else {
              ASSERT_EQ(r.predecessors[v], graph::invalid_vertex);
            }
          }
          EXPECT_GE(kept, 1u);
          EXPECT_TRUE(ds::check_predecessors(g, 3, r).ok);
        }
      }
    }
  }
}

TEST(Cutoff, NegativeOrNanIsRefused) {
  csr g = random_graph(10, 20, 1, 5);
  ds::options o;
  o.device = ds::device_kind::cpu;
  o.cutoff = -1;
  EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
  o.cutoff = std::nan("");
  EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
}

TEST(SetOptions, RetunesWithoutANewSolverAndKeepsFixedSettings) {
  csr g = random_graph(300, 1500, 5, 30);
  ds::options o;
  o.device = ds::device_kind::cpu;
  o.how = ds::strategy::dijkstra;
  ds::solver s(g, o);
  ds::result want = s.run(2);
  o.how = ds::strategy::delta_stepping_cpu;
  s.set_options(o);
  ds::result got = s.run(2);
  EXPECT_EQ(got.stats.strategy, "cpu");
  EXPECT_EQ(got.int_distances, want.int_distances);
  ds::options moved = o;
  moved.device = ds::device_kind::automatic;
  EXPECT_THROW(s.set_options(moved), std::invalid_argument);
}
