// The CPU delta-stepping solver alone (src/sssp/delta_stepping_cpu.cpp): bucket-width sweeps,
// thread counts and its tuning constants, beside single-thread Dijkstra, on bundled and generated
// graphs. Every result is checked against Dijkstra before it is timed. Writes a markdown table
// (bench/results/cpu_solver.md holds the measured ones).
//
//   cpu_solver_bench --graphs NY,FLA,kron-20 --threads 1,2,16 --deltas auto,x0.5,x2,30000
//
// Graph names: NY, FLA, slashdot, cit-HepPh, email-Enron, chicago, chesapeake (files under
// --datasets, integer weights drawn as the CLI draws them: [0,1000], seed 1), kron-20 (Graph500
// R-MAT scale 20, edge factor 16, undirected, weights 1..255, seed 1: the GAPBS anchor graph), or
// a path. Deltas: auto (the solver's rule), xF (F times auto), or a number. Times are the median
// of --runs solves from source vertex 0 (vertex 1 in the files' 1-based numbering); Dijkstra's
// of --dijkstra-runs (default 1).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/bucket_width.hpp"
#include "sssp/delta_stepping_cpu.hpp"
#include "comma_list.hpp"
#include "median.hpp"

namespace {

using namespace deltasplit;
using deltasplit_bench::comma_list;
namespace detail = deltasplit::sssp::detail;

using deltasplit_bench::median;

graph::csr load(const std::string& name, const std::string& datasets) {
  const std::pair<const char*, const char*> files[] = {
      {"NY", "USA-road-d.NY.gr.gz"},         {"FLA", "road-FLA.mtx.gz"},        {"slashdot", "soc-slashdot0902.mtx.gz"},
      {"cit-HepPh", "cit-HepPh.mtx.gz"},     {"email-Enron", "email-Enron.mtx.gz"}, {"chicago", "chicago-regional.mtx.gz"},
      {"chesapeake", "chesapeake.mtx"}};
  for (const auto& [short_name, file] : files)
    if (name == short_name) return graph::read_graph(datasets + "/" + file);
  if (name == "kron-20") {
    graph::rmat_params p;
    p.scale = 20, p.edge_factor = 16, p.undirected = true, p.seed = 1, p.weight_min = 1, p.weight_max = 255;
    return graph::generate_rmat(p);
  }
  return graph::read_graph(name);
}

struct settings {
  std::vector<std::string> graphs{"NY", "FLA", "kron-20", "slashdot", "cit-HepPh"};
  std::vector<unsigned> threads{0};
  std::vector<std::string> deltas{"auto"};
  std::vector<std::size_t> fusion{detail::cpu_tuning{}.fusion_limit};
  std::string datasets = "datasets", out;
  unsigned runs = 5, dijkstra_runs = 1;
  bool sequential_too = false;  // also the one-thread path of a small graph (parallel_arcs = 0 forces a team)
};

}  // namespace

int main(int argc, char** argv) {
  settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] { return deltasplit_bench::option_value(argc, argv, i); };
    if (a == "--graphs") s.graphs = comma_list(value());
    else if (a == "--threads") {
      s.threads.clear();
      for (const auto& t : comma_list(value())) s.threads.push_back(static_cast<unsigned>(std::stoul(t)));
    } else if (a == "--deltas") s.deltas = comma_list(value());
    else if (a == "--fusion") {
      s.fusion.clear();
      for (const auto& f : comma_list(value())) s.fusion.push_back(std::stoul(f));
    } else if (a == "--runs") s.runs = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--datasets") s.datasets = value();
    else if (a == "--out") s.out = value();
    else if (a == "--team-always") s.sequential_too = true;
    else {
      std::cerr << "usage: cpu_solver_bench [--graphs A,B] [--threads 1,2,16] [--deltas auto,x2,300] [--fusion 1024]\n"
                   "                        [--runs R] [--dijkstra-runs R] [--datasets DIR] [--out FILE.md] [--team-always]\n";
      return a == "--help" ? 0 : 2;
    }
  }
  std::ostringstream table;
  table << "| graph | threads | path | delta | fusion | median ms | min ms | rounds | expanded / n | relaxed / m | vs Dijkstra |\n"
        << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::cout << table.str() << std::flush;
  for (const std::string& name : s.graphs) {
    const auto t0 = std::chrono::steady_clock::now();
    graph::csr g = load(name, s.datasets);
    const detail::graph_statistics st = detail::measure(g);
    std::fprintf(stderr, "%s: %u vertices, %llu arcs, mean weight %.1f, max %.0f, mean out-degree %.2f (%.1f s)\n",
                 name.c_str(), g.num_vertices, static_cast<unsigned long long>(g.num_arcs()), st.mean_weight, st.max_weight,
                 st.mean_degree, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::vector<double> dijkstra_ms;
    sssp::result oracle;
    for (unsigned r = 0; r < s.dijkstra_runs; ++r) {
      oracle = sssp::dijkstra(g, 0);
      dijkstra_ms.push_back(oracle.stats.milliseconds);
    }
    const double dijkstra = median(dijkstra_ms);
    std::ostringstream row;
    row << "| " << name << " | 1 | dijkstra | - | - | " << dijkstra << " | "
        << *std::min_element(dijkstra_ms.begin(), dijkstra_ms.end()) << " | - | - | - | 1 |\n";
    for (unsigned threads : s.threads)
      for (std::size_t fusion : s.fusion) {
        detail::cpu_tuning tuning;
        tuning.fusion_limit = fusion;
        if (s.sequential_too) tuning.parallel_arcs = 0;
        detail::delta_stepping_cpu solver(g, threads, tuning);
        const double automatic = detail::cpu_auto_width(st, g.kind, solver.threads());
        for (const std::string& d : s.deltas) {
          const double delta = d == "auto" ? 0 : d[0] == 'x' ? automatic * std::stod(d.substr(1)) : std::stod(d);
          std::vector<double> ms;
          sssp::result r = solver.run(0, delta, false);
          if (!sssp::validate(g, 0, r, oracle).ok) throw std::runtime_error(name + ": result differs from Dijkstra at delta " + d);
          for (unsigned k = 0; k < s.runs; ++k) ms.push_back(solver.run(0, delta, false).stats.milliseconds);
          const double med = median(ms);
          row << "| " << name << " | " << solver.threads() << " | " << solver.description() << " | " << r.stats.delta
              << (d == "auto" ? " (auto)" : "") << " | " << fusion << " | " << med << " | " << *std::min_element(ms.begin(), ms.end())
              << " | " << r.stats.iterations << " | " << double(r.stats.vertices_processed) / g.num_vertices << " | "
              << double(r.stats.edges_relaxed) / std::max<double>(1, double(g.num_arcs())) << " | " << dijkstra / med << " |\n";
          std::cout << row.str() << std::flush;
          table << row.str();
          row.str("");
        }
      }
    table << row.str();
    std::cout << row.str() << std::flush;
  }
  if (!s.out.empty()) std::ofstream(s.out) << table.str();
  return 0;
}
