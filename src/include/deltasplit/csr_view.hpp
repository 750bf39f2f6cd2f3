// A non-owning view of a CSR graph for pipelines that already hold their graph as arrays (in host
// memory, or in device memory produced by earlier GPU stages), and the public way to build a clean
// CSR from arrays that are not (unsorted rows, parallel arcs, self-loops). Host C++ only.
//
//   deltasplit::sssp::csr_view v = g;                                          // a graph::csr
//   auto g = deltasplit::graph::clean_csr(n, offsets, targets, weights);       // arrays -> csr
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/from_arrays.hpp"

namespace deltasplit::sssp {

using graph::edge_t;
using graph::vertex_t;

using graph::span;

// Where a view's arrays (or a solver's output buffers) live.
enum class memory_space { host, device };

// The arrays of a CSR graph, not copied: num_vertices + 1 offsets (offsets[0] = 0, non-decreasing,
// offsets[n] = number of arcs), a target per arc, and the weights of the graph's kind (integer or
// real, finite and non-negative) and width (narrow: uint32 / float; wide: uint64 / double; the
// GPU engine reads narrow weights only, see sssp.hpp's distance_type). Rows may be in any order and hold parallel arcs: every solver
// relaxes every arc, so a parallel arc simply loses to the lightest. The solvers check the view
// once when a solver is built (std::invalid_argument naming the first fault); device views are
// checked on the device. The arrays must outlive every solver built on the view.
struct csr_view {
  vertex_t num_vertices = 0;
  span<edge_t> offsets;
  span<vertex_t> targets;
  graph::weight_kind kind = graph::weight_kind::integer;
  graph::weight_width width = graph::weight_width::narrow;
  span<std::uint32_t> int_weights;     // num_arcs() entries when integer and narrow
  span<float> real_weights;            // num_arcs() entries when real and narrow
  span<std::uint64_t> uint64_weights;  // num_arcs() entries when integer and wide
  span<double> float64_weights;        // num_arcs() entries when real and wide
  memory_space space = memory_space::host;  // device: every array is CUDA device memory
  bool one_based = false;                   // how vertex ids are printed in error messages
  // Undirected: every arc u -> v of weight w has its reverse v -> u of weight w (a graph::csr whose
  // origin.symmetric is set: a symmetric Matrix Market file, an undirected generator, arrays built
  // with symmetric = true). Lets the GPU step loop pull heavy arcs (tuning::heavy); the solvers
  // take it on trust, so set it only on such graphs.
  bool symmetric = false;

  csr_view() = default;
  // A view of g's arrays (host memory). Implicit, so every call taking a view takes a graph::csr.
  csr_view(const graph::csr& g);  // NOLINT(google-explicit-constructor)

  edge_t num_arcs() const { return static_cast<edge_t>(targets.size()); }
  edge_t degree(vertex_t v) const { return offsets[v + 1] - offsets[v]; }  // host views
  bool wide() const { return width == graph::weight_width::wide; }
  // Arc e's weight as a double (host views; exact for every weight but uint64 ones past 2^53).
  double weight(edge_t e) const {
    if (kind == graph::weight_kind::integer) return wide() ? double(uint64_weights[e]) : double(int_weights[e]);
    return wide() ? float64_weights[e] : double(real_weights[e]);
  }
  std::uint64_t external_id(vertex_t v) const { return std::uint64_t{v} + (one_based ? 1 : 0); }
};

// Building a clean CSR from arrays: graph::clean_csr and graph::clean_csr_from_arcs
// (deltasplit/graph/from_arrays.hpp).
using graph::clean_csr;
using graph::clean_csr_from_arcs;

}  // namespace deltasplit::sssp
