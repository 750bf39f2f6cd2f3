// How many dependent iterations a one-source road solve needs, on the host, before any kernel is
// written: a synchronous model of Near-Far (Davidson et al., IPDPS 2014; seed 000, Section 7.2) as
// the block driver runs it (block_driver.cuh: every arc of a near-set vertex relaxed, a stale entry
// skipped by its pushed distance, one iteration per pass over the near set, the far pile searched
// for the next bucket), for a list of bucket widths; and the depth of the shortest-path tree in
// hops, the number of rounds that any method needs when one round advances every path by one arc.
// On USA-road-d.NY sources 199419 / 250945 / 31040 at the GPU's automatic width the model counts
// 1,412 / 1,511 / 1,450 iterations, exactly what the block driver ran (H100, 2026-11-26,
// bench/results/block_driver.md). Iteration counts times a measured cost per iteration bound what
// a bucket width, or a cheaper iteration, can reach (issue 9).
//
//   near_far_rounds GRAPH [--deltas auto,x2,104000,inf] [--sources 199419,250945]
//
// Deltas: auto (the GPU engine's rule, sssp/bucket_width.hpp), xF (F times auto), a number, or inf
// (one bucket: Bellman-Ford rounds). Sources are vertex ids as the CLI reads and prints them (the
// file's numbering: 1-based for .gr and .mtx; default: the first vertex). Prints, for each
// source and width, the iterations, the buckets taken, the arcs relaxed per arc of the graph and
// the largest near set.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <queue>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "deltasplit/graph/io.hpp"
#include "sssp/bucket_width.hpp"
#include "comma_list.hpp"

namespace {

using namespace deltasplit;
using deltasplit_bench::comma_list;
using graph::vertex_t;

double weight_of(const graph::csr& g, std::size_t e) {
  return g.kind == graph::weight_kind::integer ? double(g.int_weights[e]) : double(g.real_weights[e]);
}

struct rounds {
  std::uint64_t iterations = 0, buckets = 0, relaxed = 0, widest = 0;
};

// Near-Far in synchronous iterations: the near set of iteration i + 1 is every vertex whose
// distance dropped in iteration i to within the current bucket.
rounds near_far(const graph::csr& g, vertex_t source, double delta) {
  const double inf = std::numeric_limits<double>::infinity();
  auto bucket = [&](double d) { return std::isinf(delta) ? 0.0 : std::floor(d / delta); };
  std::vector<double> dist(g.num_vertices, inf);
  using entry = std::pair<vertex_t, double>;  // a vertex and its distance when filed
  std::vector<entry> near{{source, 0.0}}, next, far, kept;
  dist[source] = 0;
  double cur = 0;
  rounds r;
  r.buckets = 1;
  for (;;) {
    while (!near.empty()) {
      ++r.iterations;
      r.widest = std::max<std::uint64_t>(r.widest, near.size());
      next.clear();
      for (const auto& [x, dx] : near) {
        if (dist[x] < dx) continue;  // stale
        for (auto e = g.offsets[x]; e < g.offsets[x + 1]; ++e) {
          ++r.relaxed;
          const vertex_t u = g.targets[e];
          const double nd = dx + weight_of(g, e);
          if (nd >= dist[u]) continue;
          dist[u] = nd;
          (bucket(nd) <= cur ? next : far).push_back({u, nd});
        }
      }
      near.swap(next);
    }
    double best = inf;  // the lowest bucket of a live far-pile entry
    for (const auto& [v, dv] : far)
      if (dist[v] == dv) best = std::min(best, bucket(dv));
    if (std::isinf(best)) break;
    kept.clear();
    for (const auto& [v, dv] : far)
      if (dist[v] == dv) (bucket(dv) == best ? near : kept).push_back({v, dv});
    far.swap(kept);
    cur = best;
    ++r.buckets;
  }
  return r;
}

// The shortest-path tree's depth in arcs, among shortest paths the fewest arcs: Dijkstra on (distance,
// arcs) pairs in lexicographic order, so a vertex's arcs are final when it is taken, zero-weight
// ties included. Equal to the Bellman-Ford rounds (delta inf) less one, at the cost of one Dijkstra.
std::uint64_t tree_depth(const graph::csr& g, vertex_t source) {
  std::vector<double> dist(g.num_vertices, std::numeric_limits<double>::infinity());
  std::vector<std::uint32_t> hops(g.num_vertices, 0);
  using item = std::tuple<double, std::uint32_t, vertex_t>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> heap;
  dist[source] = 0;
  heap.push({0.0, 0, source});
  std::uint64_t deepest = 0;
  while (!heap.empty()) {
    const auto [dx, hx, x] = heap.top();
    heap.pop();
    if (dx > dist[x] || hx > hops[x]) continue;
    deepest = std::max<std::uint64_t>(deepest, hx);
    for (auto e = g.offsets[x]; e < g.offsets[x + 1]; ++e) {
      const vertex_t u = g.targets[e];
      const double nd = dx + weight_of(g, e);
      if (nd < dist[u] || (nd == dist[u] && hx + 1 < hops[u])) {
        dist[u] = nd;
        hops[u] = hx + 1;
        heap.push({nd, hx + 1, u});
      }
    }
  }
  return deepest;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2 || std::string(argv[1]) == "--help") {
      std::fprintf(stderr, "usage: near_far_rounds GRAPH [--deltas auto,x2,104000,inf] [--sources 199419,250945]\n");
      return argc < 2 ? 2 : 0;
    }
    std::vector<std::string> deltas{"auto"}, sources;
    for (int i = 2; i < argc; ++i) {
      const std::string arg = argv[i];
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      if (arg == "--deltas")
        deltas = comma_list(argv[++i]);
      else if (arg == "--sources")
        sources = comma_list(argv[++i]);
      else
        throw std::invalid_argument("unknown option " + arg);
    }
    const graph::csr g = graph::read_graph(argv[1]);
    const unsigned long first_id = g.origin.one_based ? 1 : 0;  // the file's id of vertex 0
    if (sources.empty()) sources.push_back(std::to_string(first_id));
    const double automatic =
        sssp::detail::gpu_auto_width(sssp::detail::measure(sssp::csr_view(g)), g.kind);
    std::printf("%s: %u vertices, %zu arcs; automatic delta %.6g\n", argv[1], g.num_vertices, g.targets.size(),
                automatic);
    std::printf("%10s %14s %11s %8s %10s %9s\n", "source", "delta", "iterations", "buckets", "relaxed/m",
                "widest");
    for (const std::string& s : sources) {
      const unsigned long id = std::stoul(s);
      if (id < first_id || id - first_id >= g.num_vertices)
        throw std::invalid_argument("source " + s + " is not a vertex");
      const auto source = static_cast<vertex_t>(id - first_id);
      for (const std::string& d : deltas) {
        const double delta = d == "auto"           ? automatic
                             : d == "inf"          ? std::numeric_limits<double>::infinity()
                             : d.front() == 'x'    ? automatic * std::stod(d.substr(1))
                                                   : std::stod(d);
        if (!(delta > 0)) throw std::invalid_argument("delta " + d + " is not positive");
        const rounds r = near_far(g, source, delta);
        std::printf("%10lu %14.6g %11llu %8llu %10.2f %9llu\n", id, delta,
                    static_cast<unsigned long long>(r.iterations), static_cast<unsigned long long>(r.buckets),
                    g.targets.empty() ? 0.0 : double(r.relaxed) / double(g.targets.size()),
                    static_cast<unsigned long long>(r.widest));
      }
      std::printf("%10lu shortest-path tree depth: %llu arcs\n", id,
                  static_cast<unsigned long long>(tree_depth(g, source)));
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "near_far_rounds: %s\n", e.what());
    return 1;
  }
}
