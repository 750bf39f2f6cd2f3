// The sssp command on a graph with negative weights (read with read_options::negative_weights):
// one source by Bellman-Ford label correcting, several (or --matrix) by Johnson's reweighting
// (sssp/negative_weights.hpp), on the CPU, in the weights' own type (int64 or float64). A negative
// cycle is an error naming a vertex on it (exit 1): with one source, a cycle reachable from it
// (as scipy's bellman_ford); with several, any cycle of the graph (as scipy's johnson). --matrix
// streams the rows to a .npy file as run_matrix does (dtype <i8 with INT64_MAX unreachable, or
// <f8 with inf), Johnson's groups of --batch-size sources at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/text_output.hpp"
#include "deltasplit/graph/csr.hpp"

namespace deltasplit::cli {

struct negative_request {
  std::string graph_path;
  std::vector<graph::vertex_t> sources;
  std::vector<graph::vertex_t> targets;  // --matrix's columns (empty: every vertex)
  std::string matrix_path;               // --matrix OUT.npy (claimed already), or empty
  bool force = false;
  std::uint32_t batch_size = 0;          // Johnson's group of sources (0: automatic)
  std::optional<graph::vertex_t> target;
  std::string strategy_asked;  // a --strategy the user named ("" for none): noted, not used
  bool validate = false;
  unsigned runs = 1;
  unsigned threads = 0;
  double load_ms = 0;
  text_output* output = nullptr;
  text_output* predecessors = nullptr;
  text_output* json = nullptr;
};

// Solves, writes the files asked for and the summary; returns the exit status (0, or 3 when
// --validate finds a distance that breaks the optimality conditions).
int run_negative(const negative_request& request, const graph::csr& g, std::ostream& summary);

}  // namespace deltasplit::cli
