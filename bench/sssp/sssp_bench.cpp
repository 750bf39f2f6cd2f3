// Reproduces Table 10 of the multisplit paper (seed 000, Section 7.2.3) on the GPU in hand:
// Near-Far, sort-based Bucketing and Multisplit-SSSP (plus the workfront baseline and the CPU
// delta-stepping on this machine's cores) on real road, social and citation graphs and on R-MAT.
//
// For each graph and strategy: every result is first validated against Dijkstra, then the
// median solve time over R runs from fixed random sources (seeded) is reported with MTEPS
// (arcs of the graph / time, as the paper counts), speedup against Near-Far, iterations, edges
// relaxed and the frontier-management share. Output: a CSV file and a markdown table.
//
// The GPU loop is `--driver` (default auto, the library's default). Where auto runs the
// partitioned or wide driver (the rule: sssp.hpp's driver::automatic; road graphs and small dense
// ones), no frontier manager files a vertex and every strategy runs the same driver (the driver
// column says which ran); the paper's comparison of the managers is `--driver steps`, which runs
// the step loop everywhere.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "median.hpp"

namespace {

using namespace deltasplit;

struct graph_case {
  std::string name;
  std::string what;  // how it was made
  graph::csr g;
};

// Graphs are made one at a time, measured and dropped: a run cut short keeps what it measured.
struct graph_maker {
  std::string name;
  std::function<graph_case()> make;
};

struct row {
  std::string graph, strategy, driver;  // driver: the GPU loop that ran (its name's first word)
  double median_ms = 0, min_ms = 0, max_ms = 0, mteps = 0, frontier_share = 0;
  std::uint64_t iterations = 0, edges_relaxed = 0;
  bool valid = false;
};

using deltasplit_bench::median;

// Fixed sources: the first is vertex 0 (the anchors were measured from vertex 1 in 1-based
// numbering), the rest drawn from a seeded generator among vertices with out-arcs.
std::vector<graph::vertex_t> pick_sources(const graph::csr& g, unsigned count, std::uint64_t seed) {
  std::vector<graph::vertex_t> s{0};
  std::uint64_t x = seed;
  while (s.size() < count && g.num_vertices > 1) {
    x += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    const auto v = static_cast<graph::vertex_t>(z % g.num_vertices);
    if (g.degree(v) > 0) s.push_back(v);
  }
  return s;
}

struct config {
  unsigned runs = 10;
  std::string out_dir = ".";
  std::string datasets = "datasets";
  std::vector<std::string> only;  // graph names to run; empty = all
  bool skip_large_rmat = false;
  sssp::gpu_driver driver = sssp::gpu_driver::automatic;
};

bool wanted(const config& c, const std::string& name) {
  return c.only.empty() || std::find(c.only.begin(), c.only.end(), name) != c.only.end();
}

std::vector<graph_maker> graph_makers(const config& c) {
  std::vector<graph_maker> out;
  auto timed = [](const std::string& name, const char* verb, auto make) {
    const auto t0 = std::chrono::steady_clock::now();
    graph::csr g = make();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "%s %s: %u vertices, %llu arcs in %.2f s\n", verb, name.c_str(), g.num_vertices,
                 static_cast<unsigned long long>(g.num_arcs()), s);
    return g;
  };
  auto file = [&](const std::string& name, const std::string& path, const std::string& what) {
    if (!wanted(c, name)) return;
    const std::string full = c.datasets + "/" + path;
    out.push_back({name, [=] {
                     return graph_case{name, what, timed(name, "loaded", [&] { return graph::read_graph(full); })};
                   }});
  };
  auto rmat = [&](const std::string& name, const graph::rmat_params& p, const std::string& what) {
    if (!wanted(c, name)) return;
    out.push_back({name, [=] {
                     return graph_case{name, what, timed(name, "generated", [&] { return graph::generate_rmat(p); })};
                   }});
  };
  file("USA-road-d.NY", "USA-road-d.NY.gr.gz", "New York roads, own distances");
  file("road-FLA", "road-FLA.mtx.gz", "Florida roads, uniform [0,1000] weights (seed 1)");
  file("soc-slashdot0902", "soc-slashdot0902.mtx.gz", "Slashdot, uniform [0,1000] weights (seed 1)");
  file("cit-HepPh", "cit-HepPh.mtx.gz", "HepPh citations, uniform [0,1000] weights (seed 1)");

  graph::rmat_params k20;  // the GAPBS / Gunrock anchor graph: Graph500 parameters, weights 1..255
  k20.scale = 20, k20.edge_factor = 16, k20.undirected = true, k20.seed = 1;
  k20.weight_min = 1, k20.weight_max = 255;
  rmat("kron-20", k20, "Kronecker scale 20, Graph500 (0.57,0.19,0.19,0.05), edge factor 16, undirected, [1,255]");

  graph::rmat_params paper;  // Table 9's rmat: (0.5, 0.1, 0.1, 0.3), ~0.8M vertices, 4.8M edges
  paper.a = 0.5, paper.b = 0.1, paper.c = 0.1, paper.d = 0.3;
  paper.scale = 20, paper.edge_factor = 4.6, paper.undirected = true, paper.seed = 1;
  rmat("rmat-paper", paper, "R-MAT (0.5,0.1,0.1,0.3), scale 20, 4.8M edges, undirected, [0,1000]");
  if (c.skip_large_rmat) return out;
  graph::rmat_params p22 = paper;
  p22.scale = 22;
  rmat("rmat-22", p22, "R-MAT (0.5,0.1,0.1,0.3), scale 22, edge factor 4.6, undirected, [0,1000]");
  graph::rmat_params p23 = paper;
  p23.scale = 23;
  rmat("rmat-23", p23, "R-MAT (0.5,0.1,0.1,0.3), scale 23, edge factor 4.6, undirected, [0,1000]");
  graph::rmat_params k22 = k20;
  k22.scale = 22;
  rmat("kron-22", k22, "Kronecker scale 22, Graph500, edge factor 16, undirected, [1,255]");
  return out;
}

row measure(const graph_case& gc, sssp::strategy how, sssp::device_kind dev, sssp::gpu_driver driver,
            const std::vector<graph::vertex_t>& sources, const std::vector<sssp::result>& oracle) {
  row r;
  r.graph = gc.name;
  sssp::options o;
  o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  o.how = how;
  o.device = dev;
  o.phase_times = true;  // the frontier share; stats.milliseconds stays the uninstrumented solve's
  o.tune.driver = driver;
  sssp::solver s(gc.g, o);
  r.strategy = sssp::strategy_name(how);
  r.valid = true;
  // Validate every source's result against Dijkstra (computed once per graph).
  for (std::size_t i = 0; i < sources.size() && i < oracle.size(); ++i) {
    sssp::result res = s.run(sources[i]);
    if (i == 0) r.driver = res.stats.driver.substr(0, res.stats.driver.find(':'));
    const bool same = res.type == sssp::distance_type::uint32 ? res.int_distances == oracle[i].int_distances
                                                              : sssp::validate(gc.g, sources[i], res).ok;
    if (!same) {
      r.valid = false;
      std::fprintf(stderr, "MISMATCH %s %s source %u\n", gc.name.c_str(), r.strategy.c_str(), sources[i]);
    }
  }
  std::vector<double> ms, frontier;
  std::uint64_t iters = 0, relaxed = 0;
  for (graph::vertex_t src : sources) {
    sssp::result res = s.run(src);
    ms.push_back(res.stats.milliseconds);
    const double phases = res.stats.relax_ms + res.stats.frontier_ms;
    frontier.push_back(phases > 0 ? res.stats.frontier_ms / phases : 0);
    iters += res.stats.iterations;
    relaxed += res.stats.edges_relaxed;
  }
  r.median_ms = median(ms);
  r.min_ms = *std::min_element(ms.begin(), ms.end());
  r.max_ms = *std::max_element(ms.begin(), ms.end());
  r.mteps = static_cast<double>(gc.g.num_arcs()) / (r.median_ms * 1e3);
  r.frontier_share = median(frontier);
  r.iterations = iters / sources.size();
  r.edges_relaxed = relaxed / sources.size();
  if (how == sssp::strategy::delta_stepping_cpu) r.strategy = s.run(sources[0]).stats.device;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  config c;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "sssp_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--runs") c.runs = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--out") c.out_dir = next();
    else if (a == "--datasets") c.datasets = next();
    else if (a == "--graph") c.only.push_back(next());
    else if (a == "--small") c.skip_large_rmat = true;
    else if (a == "--driver") {
      try {
        c.driver = sssp::driver_from_name(next());
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "sssp_bench: %s\n", e.what());
        return 2;
      }
    } else {
      std::fprintf(stderr,
                   "usage: sssp_bench [--runs R] [--out DIR] [--datasets DIR] [--graph NAME]... [--small] "
                   "[--driver auto|steps|partitioned|block|wide]\n");
      return a == "--help" ? 0 : 2;
    }
  }
  std::string why;
  const bool gpu = sssp::gpu_available(&why);
  if (!gpu) std::fprintf(stderr, "sssp_bench: no GPU (%s): only the CPU delta-stepping runs\n", why.c_str());

  std::vector<row> rows;
  // Rows also go to the CSV as they are measured, so a run cut short keeps what it measured.
  std::ofstream partial(c.out_dir + "/sssp_bench_partial.csv");
  for (const graph_maker& maker : graph_makers(c)) {
    const graph_case gc = maker.make();
    const auto sources = pick_sources(gc.g, c.runs, 42);
    std::vector<sssp::result> oracle;
    for (std::size_t i = 0; i < std::min<std::size_t>(sources.size(), 3); ++i)
      oracle.push_back(sssp::dijkstra(gc.g, sources[i]));
    std::vector<sssp::strategy> order;
    if (gpu)
      order = {sssp::strategy::near_far, sssp::strategy::bucketing, sssp::strategy::multisplit,
               sssp::strategy::workfront};
    order.push_back(sssp::strategy::delta_stepping_cpu);
    for (sssp::strategy how : order) {
      const auto dev = sssp::is_gpu_strategy(how) ? sssp::device_kind::gpu : sssp::device_kind::cpu;
      rows.push_back(measure(gc, how, dev, c.driver, sources, oracle));
      const row& r = rows.back();
      std::fprintf(stderr, "%-18s %-28s %-12s %9.3f ms %9.1f MTEPS %s\n", r.graph.c_str(), r.strategy.c_str(),
                   r.driver.c_str(), r.median_ms, r.mteps, r.valid ? "valid" : "INVALID");
      partial << r.graph << ',' << r.strategy << ',' << r.driver << ',' << r.median_ms << ',' << r.mteps << ','
              << r.iterations << ',' << r.edges_relaxed << ',' << (r.valid ? "yes" : "no") << std::endl;
    }
  }

  std::map<std::string, double> near_far, cpu;
  for (const row& r : rows) {
    if (r.strategy == "near-far") near_far[r.graph] = r.median_ms;
    if (r.strategy.rfind("cpu", 0) == 0) cpu[r.graph] = r.median_ms;
  }
  auto ratio = [](double base, double ms) { return base > 0 && ms > 0 ? base / ms : 0.0; };
  auto shown = [](double x) {
    char b[32];
    if (x > 0) std::snprintf(b, sizeof b, "%.2fx", x);
    else std::snprintf(b, sizeof b, "-");
    return std::string(b);
  };

  std::ofstream csv(c.out_dir + "/sssp_bench.csv");
  csv << "graph,strategy,driver,median_ms,min_ms,max_ms,mteps,speedup_vs_near_far,speedup_vs_cpu,iterations,"
         "edges_relaxed,frontier_share,valid\n";
  // The speedup columns name their baseline, the CPU's with the thread count it ran on.
  std::string cpu_name = "cpu";
  for (const row& r : rows)
    if (r.strategy.rfind("cpu", 0) == 0) cpu_name = r.strategy;
  std::ostringstream md;
  md << "Speedup = the baseline's median time / the row's, same graph and sources; baselines: near-far (GPU) and "
     << cpu_name << " (CPU delta-stepping, automatic delta).\n\n"
     << "| graph | strategy | driver | median ms | MTEPS | vs near-far | vs " << cpu_name
     << " | iterations | edges relaxed | frontier share | valid |\n"
     << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const row& r : rows) {
    const double vs_nf = ratio(near_far[r.graph], r.median_ms), vs_cpu = ratio(cpu[r.graph], r.median_ms);
    csv << r.graph << ',' << r.strategy << ',' << r.driver << ',' << r.median_ms << ',' << r.min_ms << ',' << r.max_ms
        << ',' << r.mteps << ',' << vs_nf << ',' << vs_cpu << ',' << r.iterations << ',' << r.edges_relaxed << ',' << r.frontier_share
        << ',' << (r.valid ? "yes" : "no") << '\n';
    char line[512];
    std::snprintf(line, sizeof line, "| %s | %s | %s | %.3f | %.1f | %s | %s | %llu | %llu | %.0f%% | %s |\n",
                  r.graph.c_str(), r.strategy.c_str(), r.driver.empty() ? "-" : r.driver.c_str(), r.median_ms,
                  r.mteps, shown(vs_nf).c_str(), shown(vs_cpu).c_str(),
                  static_cast<unsigned long long>(r.iterations), static_cast<unsigned long long>(r.edges_relaxed),
                  100 * r.frontier_share, r.valid ? "yes" : "NO");
    md << line;
  }
  std::ofstream(c.out_dir + "/sssp_bench.md") << md.str();
  std::cout << md.str();
  bool all_valid = std::all_of(rows.begin(), rows.end(), [](const row& r) { return r.valid; });
  return all_valid ? 0 : 1;
}
