// The GPU solver's bucket width swept in one process: each graph is read once, then every width
// solves from the same sources, the widths taking turns pass by pass (a drift of the card's clocks
// hits each alike). The automatic width (src/sssp/bucket_width.cpp) and each loop's multiple of it
// (src/sssp/gpu/step_loop/tuning.cuh) are chosen from these tables.
//
//   gpu_delta_bench GRAPH... [--deltas auto,x0.5,x1.5,300] [--sources 10] [--runs 5] [--passes 2]
//                   [--strategy near-far] [--driver auto] [--seed 7] [--source-ids V,V,...]
//                   [--no-validate]
//
// GRAPH: any file the CLI reads (a file without weights gets the CLI's: [0, 1000], seed 1).
// Deltas: auto (the engine's own width, the loop's multiple included), xF (F times the GPU rule,
// gpu_auto_width, without a loop's multiple), or a number. A cell is the median over the sources
// of each source's median of --runs solves; every width's first solve from each source is checked
// against Dijkstra unless --no-validate (Dijkstra once a source, on the host: minutes on 1e9 arcs).
// Sources: --sources random vertices with out-arcs (drawn with --seed), or --source-ids, internal
// ids (0-based) such as the CLI's `sssp --random-sources` prints for a binary or edge-list graph.
// Each width of each pass gets a solver of its own (one graph on the device at a time), so the
// graph is uploaded once a cell: seconds on 1e8 arcs, about half a minute on Kronecker 25's 1e9
// (outside the timed solves). Output: a markdown table on standard output, one row a graph and
// width: each pass's median, the driver that ran, the iterations and the edges relaxed per arc
// (from the first source).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/bucket_width.hpp"
#include "comma_list.hpp"
#include "median.hpp"

namespace {

using namespace deltasplit;
using deltasplit_bench::comma_list;
namespace detail = deltasplit::sssp::detail;

using deltasplit_bench::median;

struct settings {
  std::vector<std::string> graphs, deltas{"auto"};
  unsigned sources = 10, runs = 5, passes = 2, seed = 7;
  std::vector<std::string> source_ids;
  std::string strategy = "near-far", driver = "auto";
  bool validate = true;
};

// Sources with at least one out-arc, drawn with the seed (the same for every width).
std::vector<graph::vertex_t> pick_sources(const graph::csr& g, unsigned count, unsigned seed) {
  std::vector<graph::vertex_t> out;
  if (g.num_vertices == 0) return out;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<graph::vertex_t> any(0, g.num_vertices - 1);
  for (unsigned tries = 0; out.size() < count && tries < 100 * count; ++tries) {
    const graph::vertex_t v = any(rng);
    if (g.offsets[v + 1] > g.offsets[v]) out.push_back(v);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  settings s;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] { return deltasplit_bench::option_value(argc, argv, i); };
    if (a == "--deltas") s.deltas = comma_list(value());
    else if (a == "--sources") s.sources = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--runs") s.runs = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--passes") s.passes = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--seed") s.seed = static_cast<unsigned>(std::stoul(value()));
    else if (a == "--strategy") s.strategy = value();
    else if (a == "--driver") s.driver = value();
    else if (a == "--source-ids") s.source_ids = comma_list(value());
    else if (a == "--no-validate") s.validate = false;
    else if (a.rfind("--", 0) == 0 || a.empty()) {
      std::cerr << "usage: gpu_delta_bench GRAPH... [--deltas auto,x0.5,x1.5,300] [--sources 10] [--runs 5]\n"
                   "                       [--passes 2] [--strategy near-far] [--driver auto] [--seed 7]\n"
                   "                       [--source-ids V,V,...] [--no-validate]\n";
      return a == "--help" ? 0 : 2;
    } else s.graphs.push_back(a);
  }
  if (s.graphs.empty() || s.sources == 0 || s.runs == 0 || s.passes == 0)
    throw std::invalid_argument("give at least one graph, and --sources, --runs and --passes of at least 1");
  sssp::options base;
  base.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  base.how = sssp::strategy_from_name(s.strategy);
  base.device = sssp::device_kind::gpu;
  base.tune.driver = sssp::driver_from_name(s.driver);

  std::cout << "| graph | delta | ms, each pass | driver | iterations | relaxed / m |\n|---|---|---|---|---:|---:|\n";
  for (const std::string& path : s.graphs) {
    const graph::csr g = graph::read_graph(path);  // the CLI's default weights
    const detail::graph_statistics st = detail::measure(g);
    const double rule = detail::gpu_auto_width(st, g.kind);
    std::fprintf(stderr, "%s: %u vertices, %llu arcs, mean weight %.1f, mean out-degree %.2f, GPU rule %.0f\n",
                 path.c_str(), g.num_vertices, static_cast<unsigned long long>(g.num_arcs()), st.mean_weight,
                 st.mean_degree, rule);
    std::vector<graph::vertex_t> sources;
    for (const std::string& id : s.source_ids) {
      const unsigned long long v = std::stoull(id);
      if (v >= g.num_vertices) throw std::invalid_argument("--source-ids " + id + ": not a vertex of " + path);
      sources.push_back(static_cast<graph::vertex_t>(v));
    }
    if (sources.empty()) sources = pick_sources(g, s.sources, s.seed);
    std::vector<sssp::result> oracle;
    if (s.validate)
      for (graph::vertex_t v : sources) oracle.push_back(sssp::dijkstra(g, v));

    struct row {
      std::string label, driver;
      double delta = 0;
      std::vector<double> pass_ms;
      std::uint64_t iterations = 0, relaxed = 0;
    };
    std::vector<row> rows;
    for (const std::string& d : s.deltas) {
      row r;
      r.label = d;
      r.delta = d == "auto" ? 0 : d[0] == 'x' ? rule * std::stod(d.substr(1)) : std::stod(d);
      rows.push_back(r);
    }
    for (unsigned pass = 0; pass < s.passes; ++pass)
      for (row& r : rows) {
        sssp::options o = base;
        o.tune.delta = r.delta;
        sssp::solver solver(g, o);
        std::vector<double> per_source;
        for (std::size_t k = 0; k < sources.size(); ++k) {
          const sssp::result first = solver.run(sources[k]);
          if (s.validate && !sssp::validate(g, sources[k], first, oracle[k]).ok)
            throw std::runtime_error(path + ": delta " + r.label + ", source " + std::to_string(sources[k]) +
                                     ": the distances differ from Dijkstra's");
          if (pass == 0 && k == 0) {
            r.delta = first.stats.delta;
            r.driver = first.stats.driver.substr(0, first.stats.driver.find(':'));
            r.iterations = first.stats.iterations;
            r.relaxed = first.stats.edges_relaxed;
          }
          std::vector<double> ms;
          for (unsigned run = 0; run < s.runs; ++run) ms.push_back(solver.run(sources[k]).stats.milliseconds);
          per_source.push_back(median(ms));
        }
        r.pass_ms.push_back(median(per_source));
      }
    for (const row& r : rows) {
      const std::string how = r.label == "auto" ? " (auto)" : r.label[0] == 'x' ? " (" + r.label + ")" : "";
      std::printf("| %s | %.6g%s |", path.c_str(), r.delta, how.c_str());
      for (std::size_t p = 0; p < r.pass_ms.size(); ++p) std::printf("%s%.3f", p ? " / " : " ", r.pass_ms[p]);
      std::printf(" | %s | %llu | %.2f |\n", r.driver.c_str(), static_cast<unsigned long long>(r.iterations),
                  static_cast<double>(r.relaxed) / std::max<double>(1, static_cast<double>(g.num_arcs())));
    }
    std::fflush(stdout);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gpu_delta_bench: %s\n", e.what());
  return 1;
}
