// Compressed sparse row graphs: the one in-memory form every reader produces and every
// solver consumes. Host C++ only (graph/ never includes CUDA headers).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace deltasplit::graph {

using vertex_t = std::uint32_t;  // vertex ids are 32-bit: at most max_vertices vertices
using edge_t = std::uint64_t;    // arc offsets are 64-bit: graphs past 2^31 arcs load

inline constexpr vertex_t invalid_vertex = std::numeric_limits<vertex_t>::max();
inline constexpr std::uint64_t max_vertices = invalid_vertex;  // ids 0 .. 2^32 - 2

enum class weight_kind : std::uint8_t { integer, real };

// The stored width of a graph's weights. narrow: uint32 (integer) or float (real), the arrays the
// GPU engine reads. wide: uint64 (integer weights past 2^32 - 1) or double (real weights as text
// files and float64 arrays give them). Exactly one weight array is filled: the one of the graph's
// kind and width. Code that reads the narrow arrays checks the width first (the solvers refuse a
// wide graph at the GPU engine's door, and check_graph a graph whose filled array is not the one
// its kind and width name).
enum class weight_width : std::uint8_t { narrow, wide };

// Where a graph came from and what cleaning did to it; `info` prints this.
struct provenance {
  std::string path;                 // file it was read from ("" when generated)
  std::string format;               // "matrix-market", "dimacs", "edge-list", "binary", "rmat", "grid"
  bool one_based = true;            // ids in the file (and on the command line) start at 1
  bool symmetric = false;           // the file stored one triangle of an undirected graph
  bool weights_generated = false;   // the file had no weights; they were drawn from weight_seed
  std::uint64_t weight_seed = 0;
  std::uint32_t weight_min = 0, weight_max = 0;  // range of generated weights
  std::uint64_t entries_read = 0;          // data lines / records read
  std::uint64_t self_loops_dropped = 0;
  std::uint64_t duplicates_merged = 0;     // parallel arcs folded into the lightest
  // The text file the graph was parsed from (for a binary cache: the file the cache was made
  // from), identified by size, modification time and a hash of its bytes, so that a cache can
  // tell when its source changed.
  std::string source_path;                 // absolute; "" when generated
  std::uint64_t source_bytes = 0;
  std::int64_t source_mtime_ns = 0;
  std::uint64_t source_hash = 0;
  std::uint64_t text_bytes = 0;            // bytes of (decompressed) text parsed; 0 for binary
};

// Directed graph in CSR form. Undirected inputs hold both directions of every edge.
// Rows are sorted by target; no self-loops or parallel arcs survive cleaning.
struct csr {
  vertex_t num_vertices = 0;
  std::vector<edge_t> offsets;              // num_vertices + 1 entries, offsets[0] = 0
  std::vector<vertex_t> targets;            // num_arcs() entries
  weight_kind kind = weight_kind::integer;
  weight_width width = weight_width::narrow;
  std::vector<std::uint32_t> int_weights;     // num_arcs() entries when integer and narrow
  std::vector<float> real_weights;            // num_arcs() entries when real and narrow
  std::vector<std::uint64_t> uint64_weights;  // num_arcs() entries when integer and wide
  std::vector<double> float64_weights;        // num_arcs() entries when real and wide
  // Read with read_options::negative_weights: weights may be negative. The width is wide; integer
  // weights are int64 values, stored as their bits in uint64_weights (signed_int_weights() reads
  // them), real ones doubles. Parallel arcs keep the lightest, as always; self-loops are dropped
  // from the rows as always, and the vertices that had a negative one are listed here (each lies
  // on a negative cycle). The shortest-path solvers of sssp.hpp refuse such a graph; the ones of
  // negative_weights.hpp take it.
  bool signed_weights = false;
  std::vector<vertex_t> negative_self_loops;
  provenance origin;

  edge_t num_arcs() const { return static_cast<edge_t>(targets.size()); }
  edge_t degree(vertex_t v) const { return offsets[v + 1] - offsets[v]; }
  bool wide() const { return width == weight_width::wide; }
  const std::int64_t* signed_int_weights() const {  // signed integer graphs: the int64 weights
    return reinterpret_cast<const std::int64_t*>(uint64_weights.data());
  }
  // Arc e's weight as a double (exact for every weight but uint64 ones past 2^53).
  double weight(edge_t e) const {
    if (kind == weight_kind::integer && signed_weights) return double(signed_int_weights()[e]);
    if (kind == weight_kind::integer) return wide() ? double(uint64_weights[e]) : double(int_weights[e]);
    return wide() ? float64_weights[e] : double(real_weights[e]);
  }
  // Id of vertex v as printed and accepted on the command line (file numbering).
  std::uint64_t external_id(vertex_t v) const { return std::uint64_t{v} + (origin.one_based ? 1 : 0); }
};

}  // namespace deltasplit::graph
