// Deterministic weights for unweighted graphs: uniform integers in [lo, hi] (the multisplit
// paper's experiments use [0, 1000]), a pure function of (seed, min(u, v), max(u, v)) so both
// directions of an undirected edge get the same weight and the result is independent of order.
#pragma once

#include <cstdint>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::graph {

std::uint32_t edge_weight(std::uint64_t seed, vertex_t u, vertex_t v, std::uint32_t lo, std::uint32_t hi);

// Replaces g's weights with generated integer weights and records it in g.origin.
void assign_random_weights(csr& g, std::uint64_t seed, std::uint32_t lo = 0, std::uint32_t hi = 1000);

}  // namespace deltasplit::graph
