// The sssp command on a graph with negative weights (see negative_run.hpp).
#include "cli/negative_run.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/json_writer.hpp"
#include "cli/matrix_run.hpp"
#include "cli/options.hpp"
#include "cli/result_output.hpp"
#include "sssp/negative_weights.hpp"

namespace deltasplit::cli {

namespace {

// Sources are solved in groups of this many rows by Johnson (potentials once per group), unless
// --batch-size says: a group's rows are held at once, n entries each.
constexpr std::size_t johnson_group = 64;

template <class W>
sssp::signed_csr<W> signed_view(const graph::csr& g) {
  sssp::signed_csr<W> s;
  s.num_vertices = g.num_vertices;
  s.offsets = graph::span<graph::edge_t>(g.offsets.data(), g.offsets.size());
  s.targets = graph::span<graph::vertex_t>(g.targets.data(), g.targets.size());
  if constexpr (std::is_same_v<W, double>)
    s.weights = graph::span<double>(g.float64_weights.data(), g.float64_weights.size());
  else
    s.weights = graph::span<std::int64_t>(g.signed_int_weights(), g.uint64_weights.size());
  return s;
}

template <class W>
std::string distance_text(W d) {
  if (d == sssp::unreachable<W>()) return "inf";
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, d).ptr);
}

// The optimality conditions of distances d from source (no negative cycle was found): d(source)
// = 0; no arc u -> v with d(u) reached has d(u) + w < d(v); every reached vertex but the source
// has an in-arc with d(u) + w = d(v). Integers exactly; doubles within a relative 1e-9 of the
// terms' magnitudes (Johnson's reweighting, w + h(u) - h(v) and back, rounds; Bellman-Ford keeps a
// last fall below 1e-15 as scipy does). Empty when they hold, else the first violation.
template <class W>
std::string optimality_violation(const graph::csr& g, const sssp::signed_csr<W>& s, graph::vertex_t source,
                                 const W* d) {
  const W none = sssp::unreachable<W>();
  if (d[source] != W(0)) return "the source's distance is " + distance_text(d[source]);
  std::vector<char> tight(g.num_vertices, 0);
  tight[source] = 1;
  for (graph::vertex_t u = 0; u < g.num_vertices; ++u) {
    if (d[u] == none) continue;
    for (graph::edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const graph::vertex_t v = g.targets[e];
      W sum;
      W slack = 0;  // how far apart sum and d(v) may be and still count as equal
      if constexpr (std::is_same_v<W, double>) {
        sum = d[u] + s.weights[e];
        if (d[v] != none) slack = 1e-9 * (std::fabs(d[u]) + std::fabs(s.weights[e]) + std::fabs(d[v]));
      } else if (__builtin_add_overflow(d[u], s.weights[e], &sum)) {
        continue;  // past 63 bits: no shorter, not tight (the solver refuses such distances)
      }
      if (d[v] == none || sum < d[v] - slack)
        return "arc " + std::to_string(g.external_id(u)) + " -> " + std::to_string(g.external_id(v)) +
               " would shorten vertex " + std::to_string(g.external_id(v)) + " to " + distance_text(sum);
      if (sum <= d[v] + slack) tight[v] = 1;
    }
  }
  for (graph::vertex_t v = 0; v < g.num_vertices; ++v)
    if (d[v] != none && !tight[v])
      return "vertex " + std::to_string(g.external_id(v)) + " has no in-arc that gives its distance " + distance_text(d[v]);
  return "";
}

[[noreturn]] void throw_cycle(const std::string& path, const graph::csr& g, graph::vertex_t v) {
  throw std::runtime_error(path + ": a negative cycle through vertex " + std::to_string(g.external_id(v)) +
                           ": shortest paths are not defined");
}

template <class W>
int run_typed(const negative_request& req, const graph::csr& g, std::ostream& summary) {
  const sssp::signed_csr<W> s = signed_view<W>(g);
  const graph::vertex_t n = g.num_vertices;
  const bool matrix = !req.matrix_path.empty();
  const bool one = req.sources.size() == 1 && !matrix;
  const std::size_t group_size = req.batch_size ? req.batch_size : johnson_group;
  const std::size_t columns = req.targets.empty() ? n : req.targets.size();
  std::unique_ptr<matrix_files> npy;
  if (matrix)
    npy = std::make_unique<matrix_files>(req.matrix_path, req.force, req.graph_path, g, req.sources, req.targets,
                                         std::is_same_v<W, double> ? "<f8" : "<i8", sizeof(W));
  std::vector<W> picked(matrix ? columns : 0);
  const bool tree = req.predecessors || req.target;
  // A negative self-loop (dropped from the rows by the reader): with one source, a cycle when its
  // vertex is reached; with several, a cycle of the graph, as Johnson's potentials find any.
  if (!one && !g.negative_self_loops.empty()) throw_cycle(req.graph_path, g, g.negative_self_loops.front());
  std::vector<W> dist;
  std::vector<graph::vertex_t> parent;
  std::vector<double> solve_ms;
  std::vector<std::size_t> reached;
  std::string failed;
  const bool several = req.sources.size() > 1;
  for (std::size_t first = 0; first < req.sources.size(); first += one ? 1 : group_size) {
    const std::size_t rows = one ? 1 : std::min(group_size, req.sources.size() - first);
    const graph::span<graph::vertex_t> group(req.sources.data() + first, rows);
    dist.assign(rows * std::size_t{n}, W(0));
    parent.assign(tree ? rows * std::size_t{n} : 0, graph::invalid_vertex);
    std::vector<double> ms;
    for (unsigned run = 0; run < std::max(1u, req.runs); ++run) {
      const auto start = std::chrono::steady_clock::now();
      try {
        if (one)
          sssp::bellman_ford(s, group[0], dist.data(), tree ? parent.data() : nullptr);
        else
          sssp::johnson(s, group, dist.data(), tree ? parent.data() : nullptr, req.threads);
      } catch (const sssp::negative_cycle& e) {
        throw_cycle(req.graph_path, g, e.vertex());
      }
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    for (std::size_t i = 0; i < rows; ++i) solve_ms.push_back(ms[ms.size() / 2] / static_cast<double>(rows));
    for (std::size_t i = 0; i < rows; ++i) {
      const graph::vertex_t source = group[i];
      const W* const row = dist.data() + i * n;
      if (one)
        for (graph::vertex_t v : g.negative_self_loops)
          if (row[v] != sssp::unreachable<W>()) throw_cycle(req.graph_path, g, v);
      reached.push_back(static_cast<std::size_t>(
          std::count_if(row, row + n, [](W d) { return d != sssp::unreachable<W>(); })));
      if (req.validate && failed.empty()) {
        const std::string why = optimality_violation(g, s, source, row);
        if (!why.empty()) failed = "source " + std::to_string(g.external_id(source)) + ": " + why;
      }
      if (npy) {
        if (req.targets.empty()) {
          npy->write_rows(row, 1);
        } else {
          for (std::size_t t = 0; t < columns; ++t) picked[t] = row[req.targets[t]];
          npy->write_rows(picked.data(), 1);
        }
      }
      if (req.output) {
        std::ostream& os = req.output->stream();
        if (several) os << "# source " << g.external_id(source) << "\n";
        for (graph::vertex_t v = 0; v < n; ++v) os << g.external_id(v) << ' ' << distance_text(row[v]) << '\n';
      }
      if (req.predecessors) {
        if (several) req.predecessors->stream() << "# source " << g.external_id(source) << "\n";
        write_parents(req.predecessors->stream(), g, parent.data() + i * n);
      }
      if (req.target) {
        const graph::vertex_t t = *req.target;
        write_tree_path(summary, g, parent.data() + i * n, source, t,
                        row[t] == sssp::unreachable<W>() ? "" : distance_text(row[t]));
      }
    }
  }
  if (req.output) req.output->commit();
  if (req.predecessors) req.predecessors->commit();
  if (npy) npy->commit();

  const char* type = std::is_same_v<W, double> ? "float64" : "int64";
  const std::string method = one ? "bellman-ford" : "johnson";
  const std::string how = one ? "Bellman-Ford label correcting on the CPU"
                              : "Johnson's reweighting on the CPU: potentials, then Dijkstra a source";
  if (req.json) {
    json_writer j(req.json->stream());
    j.begin_object();
    j.field("graph", req.graph_path).field("vertices", n).field("arcs", g.num_arcs());
    j.field("negative_weights", true).field("method", method).field("distance_type", type);
    j.field("load_ms", req.load_ms);
    j.key("runs").begin_array();
    for (std::size_t i = 0; i < req.sources.size(); ++i) {
      j.begin_object();
      j.field("source", g.external_id(req.sources[i])).field("milliseconds", solve_ms[i]).field("reached", reached[i]);
      j.end_object();
    }
    j.end_array();
    if (req.validate) j.field("validation", failed.empty() ? "ok" : failed);
    j.end_object();
    req.json->stream() << "\n";
    req.json->commit();
  }
  double total = 0;
  for (double ms : solve_ms) total += ms;
  summary << std::fixed << std::setprecision(2);
  summary << "graph       " << file_name(req.graph_path) << ": " << n << " vertices, " << g.num_arcs() << " arcs ("
          << g.origin.format << ", " << (std::is_same_v<W, double> ? "real (float64)" : "integer (int64)")
          << " weights, some negative), loaded in " << req.load_ms << " ms\n";
  summary << "method      " << method << " (" << how << "; negative weights)\n";
  if (!req.strategy_asked.empty())
    summary << "note        --strategy " << req.strategy_asked
            << " needs non-negative weights; this graph was solved by " << method << " instead\n";
  summary << "distances   " << type << "\n";
  summary << "sources     " << req.sources.size() << ", reached " << reached.front() << " of " << n
          << (several ? " from the first" : "") << "\n";
  if (matrix)
    summary << "matrix      " << req.matrix_path << " (" << type << ", " << req.sources.size() << " x " << columns
            << (std::is_same_v<W, double> ? "; inf" : "; 9223372036854775807") << " = unreachable), ids in "
            << matrix_side_file(req.matrix_path, "sources") << " and " << matrix_side_file(req.matrix_path, "targets")
            << "\n";
  summary << "time        " << total << " ms solving" << (several ? " (all sources)" : "") << "\n";
  if (req.validate) summary << "validation  " << (failed.empty() ? "ok (optimality conditions)" : failed) << "\n";
  return failed.empty() ? 0 : 3;
}

}  // namespace

int run_negative(const negative_request& request, const graph::csr& g, std::ostream& summary) {
  if (g.kind == graph::weight_kind::real) return run_typed<double>(request, g, summary);
  return run_typed<std::int64_t>(request, g, summary);
}

}  // namespace deltasplit::cli
