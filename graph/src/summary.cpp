// Graph statistics for `deltasplit info` (see summary.hpp).
#include "deltasplit/graph/summary.hpp"

#include <algorithm>
#include <ostream>

namespace deltasplit::graph {

graph_summary summarize(const csr& g) {
  graph_summary s;
  s.vertices = g.num_vertices;
  s.arcs = g.num_arcs();
  s.kind = g.kind;
  s.width = g.width;
  s.origin = g.origin;
  std::vector<bool> has_in(g.num_vertices, false);
  for (vertex_t t : g.targets) has_in[t] = true;
  s.min_degree = g.num_vertices ? g.degree(0) : 0;
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    edge_t d = g.degree(v);
    s.min_degree = std::min(s.min_degree, d);
    if (d > s.max_degree) {
      s.max_degree = d;
      s.max_degree_vertex = v;
    }
    std::size_t bucket = 0;
    for (edge_t x = d; x; x >>= 1) ++bucket;
    if (s.degree_histogram.size() <= bucket) s.degree_histogram.resize(bucket + 1, 0);
    ++s.degree_histogram[bucket];
    if (d == 0) ++s.sinks;
    if (d == 0 && !has_in[v]) ++s.isolated_vertices;
  }
  s.mean_degree = s.vertices ? static_cast<double>(s.arcs) / static_cast<double>(s.vertices) : 0;
  double sum = 0;
  bool first = true;
  for (edge_t e = 0; e < s.arcs; ++e) {
    double w = g.weight(e);
    s.weight_min = first ? w : std::min(s.weight_min, w);
    s.weight_max = first ? w : std::max(s.weight_max, w);
    first = false;
    sum += w;
    if (w == 0) ++s.zero_weight_arcs;
  }
  s.weight_mean = s.arcs ? sum / static_cast<double>(s.arcs) : 0;
  return s;
}

void print_summary(std::ostream& os, const graph_summary& s) {
  const provenance& o = s.origin;
  os << "file: " << (o.path.empty() ? "(generated)" : o.path) << "\n";
  os << "format: " << o.format << (o.symmetric ? " (symmetric: both directions stored)" : "") << "\n";
  if (o.format == "binary" && !o.source_path.empty()) os << "cached from: " << o.source_path << "\n";
  os << "vertex ids: " << (o.one_based ? "1-based" : "0-based") << "\n";
  os << "vertices: " << s.vertices << "\n";
  os << "arcs: " << s.arcs << "\n";
  os << "entries read: " << o.entries_read << "\n";
  os << "self-loops dropped: " << o.self_loops_dropped << "\n";
  os << "parallel arcs merged: " << o.duplicates_merged << "\n";
  os << "out-degree: min " << s.min_degree << ", max " << s.max_degree;
  if (s.vertices) os << " (vertex " << (std::uint64_t{s.max_degree_vertex} + (o.one_based ? 1 : 0)) << ")";
  os << ", mean " << s.mean_degree << "\n";
  os << "vertices without out-arcs: " << s.sinks << ", isolated: " << s.isolated_vertices << "\n";
  os << "out-degree histogram:";
  for (std::size_t k = 0; k < s.degree_histogram.size(); ++k) {
    if (!s.degree_histogram[k]) continue;
    if (k == 0)
      os << " [0]=" << s.degree_histogram[k];
    else
      os << " [" << (edge_t{1} << (k - 1)) << "," << (edge_t{1} << k) << ")=" << s.degree_histogram[k];
  }
  os << "\n";
  os << "weights: " << (s.kind == weight_kind::integer ? (s.width == weight_width::wide ? "integer (uint64)" : "integer (uint32)")
                                                      : (s.width == weight_width::wide ? "real (float64)" : "real (float32)"));
  if (o.weights_generated)
    os << ", generated uniform in [" << o.weight_min << ", " << o.weight_max << "] from seed " << o.weight_seed;
  os << "\n";
  os << "weight min " << s.weight_min << ", max " << s.weight_max << ", mean " << s.weight_mean
     << ", zero-weight arcs " << s.zero_weight_arcs << "\n";
}

}  // namespace deltasplit::graph
