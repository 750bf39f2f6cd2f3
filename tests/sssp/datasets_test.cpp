// CPU delta-stepping equals Dijkstra exactly on the bundled real graphs (a road network with
// integer distances, one with real link lengths, a social and a citation graph with generated
// weights) and on generated R-MAT and grid graphs, with valid predecessor trees.
#include <string>

#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"

namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;

namespace {

// The first vertex at or after v with an out-arc, so that every source reaches something.
graph::vertex_t with_arcs(const graph::csr& g, graph::vertex_t v) {
  while (g.degree(v) == 0) ++v;
  return v;
}

void expect_cpu_equals_dijkstra(const graph::csr& g, std::initializer_list<graph::vertex_t> sources, double delta = 0) {
  ds::options o;
  o.how = ds::strategy::delta_stepping_cpu;
  o.device = ds::device_kind::cpu;
  o.predecessors = true;
  o.delta = delta;
  ds::solver s(g, o);
  for (graph::vertex_t first : sources) {
    const graph::vertex_t source = with_arcs(g, first);
    ds::result r = s.run(source);
    ds::result oracle = ds::dijkstra(g, source);
    if (g.kind == graph::weight_kind::integer)
      ASSERT_EQ(r.int_distances, oracle.int_distances) << "source " << source;
    else
      ASSERT_EQ(r.real_distances, oracle.real_distances) << "source " << source;
    ds::validation tree = ds::check_predecessors(g, source, r);
    ASSERT_TRUE(tree.ok) << tree.message;
    EXPECT_GT(r.num_reached(), 1u);
  }
}

graph::csr load(const std::string& name) { return graph::read_graph(deltasplit_test::dataset_path(name)); }

}  // namespace

TEST(DeltaSteppingCpuDatasets, NewYorkRoads) {
  graph::csr g = load("USA-road-d.NY.gr.gz");
  expect_cpu_equals_dijkstra(g, {0, 100000});
  expect_cpu_equals_dijkstra(g, {0}, 500);
}

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
