// Preconditions every solver relies on, checked once per graph and per source so that a malformed
// CSR built by a library user is refused with a reason instead of read out of bounds.
#pragma once

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp::detail {

// Throws std::invalid_argument: offsets not n + 1 non-decreasing entries ending at the arc count,
// a target out of range, weights missing for the graph's kind, a negative or non-finite real weight.
void check_graph(const csr_view& g);

// Throws std::out_of_range naming the source in both numberings.
void check_source(const csr_view& g, vertex_t source);

}  // namespace deltasplit::sssp::detail
