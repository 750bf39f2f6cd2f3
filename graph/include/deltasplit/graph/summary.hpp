// What `deltasplit info` reports about a graph: size, cleaning, degrees, weights, provenance.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::graph {

struct graph_summary {
  std::uint64_t vertices = 0, arcs = 0;
  edge_t min_degree = 0, max_degree = 0;  // out-degrees
  double mean_degree = 0;
  vertex_t max_degree_vertex = 0;          // internal (0-based) id of a vertex of max_degree
  std::uint64_t isolated_vertices = 0;     // no arc in or out
  std::uint64_t sinks = 0;                 // no arc out
  // degree_histogram[0]: vertices of out-degree 0; [k] for k >= 1: out-degree in [2^(k-1), 2^k).
  std::vector<std::uint64_t> degree_histogram;
  weight_kind kind = weight_kind::integer;
  weight_width width = weight_width::narrow;
  double weight_min = 0, weight_max = 0, weight_mean = 0;  // 0 when there are no arcs
  std::uint64_t zero_weight_arcs = 0;
  provenance origin;
};

graph_summary summarize(const csr& g);

// Human-readable, one "key: value" per line, ids in the file's own numbering.
void print_summary(std::ostream& os, const graph_summary& s);

}  // namespace deltasplit::graph
