// Embedding deltasplit in a program: load a graph, solve from one source, print a few distances
// and check them against Dijkstra. Built in-tree (examples/CMakeLists.txt) and, by the install
// test, as a separate project through find_package(deltasplit).
//
//   shortest_paths GRAPH [SOURCE]     SOURCE in the file's numbering (default: its first vertex)
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>

#include <deltasplit/graph/io.hpp>
#include <deltasplit/sssp.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: shortest_paths GRAPH [SOURCE]\n";
    return 2;
  }
  try {
    const deltasplit::graph::csr g = deltasplit::graph::read_graph(argv[1]);
    const std::uint64_t first = g.origin.one_based ? 1 : 0;
    const std::uint64_t source_id = argc > 2 ? std::stoull(argv[2]) : first;
    if (source_id < first || source_id - first >= g.num_vertices) {
      std::cerr << "source " << source_id << " is not a vertex of " << argv[1] << "\n";
      return 2;
    }
    const auto source = static_cast<deltasplit::graph::vertex_t>(source_id - first);

    deltasplit::sssp::options opts;  // the GPU when one is usable, else CPU delta-stepping
    deltasplit::sssp::solver solver(g, opts);
    const deltasplit::sssp::result r = solver.run(source);

    // strategy: the CPU solver or the GPU's frontier manager; empty when a GPU driver without one ran.
    const std::string& what = r.stats.strategy.empty() ? r.stats.driver : r.stats.strategy;
    std::cout << "solved with " << what << " on " << r.stats.device << " in " << r.stats.milliseconds
              << " ms; reached " << r.num_reached() << " of " << g.num_vertices << " vertices\n";
    for (deltasplit::graph::vertex_t v = 0; v < g.num_vertices && v < 5; ++v)
      std::cout << "distance from " << source_id << " to " << g.external_id(v) << ": " << r.distance(v) << "\n";

    const deltasplit::sssp::validation check = deltasplit::sssp::validate(g, source, r);
    std::cout << (check.ok ? "matches Dijkstra\n" : "MISMATCH: " + check.message + "\n");
    return check.ok ? 0 : 3;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
