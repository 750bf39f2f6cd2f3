// Dijkstra's search stopped at a distance cutoff, into a caller's row: the CPU rows of
// many_sources (many_sources.cpp). sssp::dijkstra (sssp.hpp) is the same search without one.
#pragma once

#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp::detail {

// The distances from source to every vertex into row (num_vertices entries of `type`, which
// check_distance_type accepts for g). The search stops at the first vertex it would settle past cutoff, and
// every vertex farther than cutoff reads unreachable (options::cutoff); the others equal
// dijkstra(g, source)'s bit for bit. Throws distance_overflow as dijkstra does, unless the cutoff
// lies below the largest distance (a sum that does not fit is then past it).
// sssp::dijkstra in a given type (check_distance_type), the graph already checked.
result dijkstra_typed(const csr_view& g, vertex_t source, bool predecessors, distance_type type);

void dijkstra_row(const csr_view& g, vertex_t source, distance_type type, double cutoff, void* row);

}  // namespace deltasplit::sssp::detail
