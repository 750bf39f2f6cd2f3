// CPU delta-stepping equals Dijkstra exactly on every bundled real graph (road networks with
// integer distances, one with real link lengths, social, citation and e-mail graphs with generated
// weights) and on generated R-MAT and grid graphs, with valid predecessor trees, on 1, 2 and 16
// threads (the team forced, as the public solver would run small graphs on one thread).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/delta_stepping_cpu.hpp"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;

namespace {

// The first vertex at or after v with an out-arc, so that every source reaches something.
graph::vertex_t with_arcs(const graph::csr& g, graph::vertex_t v) {
  while (g.degree(v) == 0) ++v;
  return v;
}

void expect_cpu_equals_dijkstra(const graph::csr& g, std::initializer_list<graph::vertex_t> sources, double delta = 0) {
  std::vector<ds::result> oracles;
  for (graph::vertex_t first : sources) oracles.push_back(ds::dijkstra(g, with_arcs(g, first)));
  ds::detail::cpu_tuning team;
  team.parallel_arcs = 0;
  for (unsigned threads : {1u, 2u, 16u}) {
    ds::detail::delta_stepping_cpu s(g, threads, team);
    std::size_t i = 0;
    for (graph::vertex_t first : sources) {
      const graph::vertex_t source = with_arcs(g, first);
      const ds::result& oracle = oracles[i++];
      ds::result r = s.run(source, delta, true);
      ASSERT_TRUE(deltasplit_test::identical_distances(r, oracle)) << "source " << source << ", " << threads << " threads";
      ds::validation tree = ds::check_predecessors(g, source, r);
      ASSERT_TRUE(tree.ok) << tree.message;
      EXPECT_GT(r.num_reached(), 1u);
    }
  }
}

graph::csr load(const std::string& name) { return graph::read_graph(deltasplit_test::dataset_path(name)); }

}  // namespace

TEST(DeltaSteppingCpuDatasets, NewYorkRoads) {
  graph::csr g = load("USA-road-d.NY.gr.gz");
  expect_cpu_equals_dijkstra(g, {0, 100000});
  expect_cpu_equals_dijkstra(g, {0}, 500);
}

TEST(DeltaSteppingCpuDatasets, FloridaRoads) { expect_cpu_equals_dijkstra(load("road-FLA.mtx.gz"), {0, 500000}); }

TEST(DeltaSteppingCpuDatasets, Slashdot) { expect_cpu_equals_dijkstra(load("soc-slashdot0902.mtx.gz"), {0, 4000}); }

TEST(DeltaSteppingCpuDatasets, Chesapeake) { expect_cpu_equals_dijkstra(load("chesapeake.mtx"), {0, 20}); }

TEST(DeltaSteppingCpuDatasets, ChicagoRealWeights) {
  graph::csr g = load("chicago-regional.mtx.gz");
  ASSERT_EQ(g.kind, graph::weight_kind::real);
  expect_cpu_equals_dijkstra(g, {0, 5000});
}

TEST(DeltaSteppingCpuDatasets, EmailEnron) { expect_cpu_equals_dijkstra(load("email-Enron.mtx.gz"), {0, 123}); }

TEST(DeltaSteppingCpuDatasets, CitHepPh) { expect_cpu_equals_dijkstra(load("cit-HepPh.mtx.gz"), {0, 777}); }

TEST(DeltaSteppingCpuGenerated, RmatGraph500AndPaperPresets) {
  graph::rmat_params p;
  p.scale = 14;
  p.edge_factor = 8;
  expect_cpu_equals_dijkstra(graph::generate_rmat(p), {0, 1});
  p.a = 0.5, p.b = 0.1, p.c = 0.1, p.d = 0.3;
  p.undirected = true;
  p.seed = 2;
  expect_cpu_equals_dijkstra(graph::generate_rmat(p), {0, 3}, 50);
}

TEST(DeltaSteppingCpuGenerated, GridWithMissingEdges) {
  graph::grid_params p;
  p.rows = 120;
  p.cols = 150;
  p.keep_fraction = 0.7;
  expect_cpu_equals_dijkstra(graph::generate_grid(p), {0, 9000});
  p.weight_min = 0;
  p.weight_max = 0;  // all-zero weights: one bucket, many zero-weight cycles
  expect_cpu_equals_dijkstra(graph::generate_grid(p), {0});
}
