// Contraction hierarchies and the CPU PHAST sweep (src/sssp/contraction_hierarchy.cpp): the build
// (time, shortcuts, levels, core), the upward search alone and the whole sweep per source beside
// Dijkstra per source, on the same sources, every PHAST result checked against Dijkstra's. Writes
// one markdown row per graph (bench/results/phast.md holds the measured ones).
//
//   phast_cpu_bench [--threads T] [--sources K] GRAPH...
//   phast_cpu_bench --files DIR [--threads T] [--loads L] GRAPH...
//
// --files: the hierarchy file instead (options::hierarchy_file, src/sssp/hierarchy_file.hpp):
// a phast solver's setup (stats.setup_ms, CPU) when it builds the hierarchy and writes it into DIR
// (contraction, the graph's fingerprint, the write) against when it loads it (fingerprint, read,
// checks), median of L solvers on the written file (in the page cache, as when a pipeline runs
// again); the load's parts, medians of L calls each; the file's size. The file is removed after.
//
// GRAPH is a file (any format read_graph reads) or grid:ROWS:COLS (generate_grid, weights
// [0, 1000], seed 1, every edge kept, as `deltasplit generate grid` makes it). Sources: K
// vertices drawn uniformly with seed 1; times are medians over them.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/contraction_hierarchy.hpp"
#include "sssp/hierarchy_file.hpp"
#include "median.hpp"

namespace {

using namespace deltasplit;
namespace detail = deltasplit::sssp::detail;

using deltasplit_bench::median;

graph::csr load(const std::string& name) {
  if (name.rfind("grid:", 0) == 0) {
    graph::grid_params p;
    if (std::sscanf(name.c_str(), "grid:%u:%u", &p.rows, &p.cols) != 2) throw std::invalid_argument("bad grid: " + name);
    return graph::generate_grid(p);
  }
  return graph::read_graph(name);
}

template <class W>
void bench(const std::string& name, const graph::csr& g, unsigned threads, unsigned num_sources) {
  detail::contraction_hierarchy<W> ch = detail::build_contraction_hierarchy<W>(g, threads);
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<graph::vertex_t> pick(0, g.num_vertices - 1);
  detail::upward_search<W> up(ch);
  std::vector<W> out(g.num_vertices);
  std::vector<double> phast_ms, dijkstra_ms, upward_vertices, upward_ms;
  for (unsigned i = 0; i < num_sources; ++i) {
    const graph::vertex_t s = pick(rng);
    auto t0 = std::chrono::steady_clock::now();
    detail::phast_cpu(ch, up, s, out.data());
    auto t1 = std::chrono::steady_clock::now();
    sssp::result r = sssp::dijkstra(g, s);
    auto t2 = std::chrono::steady_clock::now();
    phast_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    dijkstra_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    auto t3 = std::chrono::steady_clock::now();
    upward_vertices.push_back(double(up.run(s).positions.size()));
    upward_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t3).count());
    for (graph::vertex_t v = 0; v < g.num_vertices; ++v) {
      const double want = g.kind == graph::weight_kind::integer ? double(r.int_distances[v]) : double(r.real_distances[v]);
      const double got = double(out[v]);
      if (!(got == want || std::abs(got - want) <= 1e-5 * want))
        throw std::runtime_error(name + ": PHAST differs from Dijkstra at vertex " + std::to_string(v));
    }
  }
  std::printf("| %s | %u | %llu | %.0f | %llu | %llu | %u | %u | %llu | %llu | %.0f | %.3f | %.2f | %.2f | %.1f |\n", name.c_str(),
              g.num_vertices, static_cast<unsigned long long>(g.num_arcs()), ch.build_milliseconds, static_cast<unsigned long long>(ch.witness_searches),
              static_cast<unsigned long long>(ch.shortcuts), ch.num_levels(), ch.core_size,
              static_cast<unsigned long long>(ch.up_targets.size()),
              static_cast<unsigned long long>(ch.down_sources.size()), median(upward_vertices), median(upward_ms), median(phast_ms),
              median(dijkstra_ms), median(dijkstra_ms) / median(phast_ms));
  std::fflush(stdout);
}

template <class F>
double ms_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

template <class W>
void bench_file(const std::string& label, const graph::csr& g, const std::string& path, unsigned threads, unsigned loads) {
  sssp::options o;
  o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  o.how = sssp::strategy::phast;
  o.device = sssp::device_kind::cpu;
  o.threads = threads;
  o.hierarchy_file = path;
  ::unlink(path.c_str());
  const sssp::statistics built = sssp::solver(g, o).run(0).stats;
  struct stat st {};
  if (built.setup != "built" || ::stat(path.c_str(), &st) != 0)
    throw std::runtime_error(label + ": the first solver did not build and write the hierarchy");
  std::vector<double> load_ms, fingerprint_ms, read_ms;
  for (unsigned i = 0; i < loads; ++i) {
    const sssp::statistics loaded = sssp::solver(g, o).run(0).stats;
    if (loaded.setup != "loaded") throw std::runtime_error(label + ": a later solver did not load the hierarchy");
    load_ms.push_back(loaded.setup_ms);
    detail::graph_fingerprint f;
    fingerprint_ms.push_back(ms_of([&] { f = detail::fingerprint_of(g); }));
    read_ms.push_back(ms_of([&] { detail::read_hierarchy<W>(path, f); }));
  }
  std::printf("| %s | %u | %llu | %u | %.0f | %.1f | %.1f | %.1f | %.1f | %.0fx |\n", label.c_str(), g.num_vertices,
              static_cast<unsigned long long>(g.num_arcs()), threads, built.setup_ms, median(load_ms),
              median(fingerprint_ms), median(read_ms), double(st.st_size) / (1 << 20), built.setup_ms / median(load_ms));
  std::fflush(stdout);
  ::unlink(path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  unsigned threads = 1, num_sources = 10, loads = 5;
  std::string files;
  std::vector<std::string> graphs;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = unsigned(std::stoul(argv[++i]));
    else if (!std::strcmp(argv[i], "--sources") && i + 1 < argc)
      num_sources = unsigned(std::stoul(argv[++i]));
    else if (!std::strcmp(argv[i], "--loads") && i + 1 < argc)
      loads = unsigned(std::stoul(argv[++i]));
    else if (!std::strcmp(argv[i], "--files") && i + 1 < argc)
      files = argv[++i];
    else
      graphs.push_back(argv[i]);
  }
  if (graphs.empty() || loads == 0) {
    std::fprintf(stderr, "usage: phast_cpu_bench [--threads T] [--sources K] GRAPH...\n"
                         "       phast_cpu_bench --files DIR [--threads T] [--loads L] GRAPH...\n");
    return 2;
  }
  if (files.empty()) {
    std::printf("threads %u, %u sources (median)\n\n", threads, num_sources);
    std::printf("| graph | n | m | build ms | witness searches | shortcuts | levels | core | up arcs | down arcs | upward settled | upward ms | PHAST ms | Dijkstra ms | Dijkstra / PHAST |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  } else {
    std::printf("threads %u, %u loads (median)\n\n", threads, loads);
    std::printf("| graph | n | m | threads | build + write ms | load ms | of which fingerprint ms | read + checks ms | file MiB | build / load |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  }
  try {
    for (const std::string& name : graphs) {
      graph::csr g = load(name);
      const std::string label = name.substr(name.find_last_of('/') + 1);
      const std::string path = files + "/" + label + "." + std::to_string(::getpid()) + ".ch";
      const bool integer = g.kind == graph::weight_kind::integer;
      if (!files.empty() && integer)
        bench_file<std::uint32_t>(label, g, path, threads, loads);
      else if (!files.empty())
        bench_file<float>(label, g, path, threads, loads);
      else if (integer)
        bench<std::uint32_t>(label, g, threads, num_sources);
      else
        bench<float>(label, g, threads, num_sources);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
