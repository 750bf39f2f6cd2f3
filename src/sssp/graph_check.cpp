// Shortest-path preconditions on a CSR graph (see graph_check.hpp).
#include "sssp/graph_check.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace deltasplit::sssp::detail {

namespace {
[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("invalid CSR graph: " + why); }
}  // namespace

void check_graph(const csr_view& g) {
  const std::uint64_t n = g.num_vertices;
  if (g.offsets.size() != n + 1)
    refuse(std::to_string(g.offsets.size()) + " offsets for " + std::to_string(n) + " vertices (need n + 1)");
  if (g.offsets[0] != 0) refuse("offsets[0] is " + std::to_string(g.offsets[0]) + ", not 0");
  for (std::uint64_t v = 0; v < n; ++v)
    if (g.offsets[v + 1] < g.offsets[v]) refuse("offsets decrease at vertex " + std::to_string(v));
  if (g.offsets[n] != g.num_arcs())
    refuse("offsets end at " + std::to_string(g.offsets[n]) + " but there are " + std::to_string(g.num_arcs()) +
           " targets");
  for (edge_t e = 0; e < g.num_arcs(); ++e)
    if (g.targets[e] >= n)
      refuse("arc " + std::to_string(e) + " leads to vertex " + std::to_string(g.targets[e]) + " of " +
             std::to_string(n));
  const bool integer = g.kind == graph::weight_kind::integer;
  const std::size_t weights = integer ? (g.wide() ? g.uint64_weights.size() : g.int_weights.size())
                                      : (g.wide() ? g.float64_weights.size() : g.real_weights.size());
  if (weights != g.num_arcs())
    refuse(std::to_string(weights) + " " + (g.wide() ? "wide " : "") + (integer ? "integer" : "real") +
           " weights for " + std::to_string(g.num_arcs()) + " arcs");
  if (!integer)
    for (edge_t e = 0; e < g.num_arcs(); ++e) {
      const double w = g.wide() ? g.float64_weights[e] : double(g.real_weights[e]);
      if (!(w >= 0.0) || !std::isfinite(w))
        refuse("arc " + std::to_string(e) + " has weight " + std::to_string(w) +
               " (shortest paths need finite non-negative weights)");
    }
}

void check_source(const csr_view& g, vertex_t source) {
  if (source < g.num_vertices) return;
  std::string range = g.num_vertices == 0 ? std::string("the graph has no vertices")
                                          : "valid ids are " + std::to_string(g.external_id(0)) + ".." +
                                                std::to_string(g.external_id(g.num_vertices - 1));
  throw std::out_of_range("source vertex " + std::to_string(g.external_id(source)) + " is out of range: " + range);
}

}  // namespace deltasplit::sssp::detail
