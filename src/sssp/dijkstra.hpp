// Dijkstra's search stopped at a distance cutoff, into a caller's row: the CPU rows of
// many_sources (many_sources.cpp). sssp::dijkstra (sssp.hpp) is the same search without one.
#pragma once

#include <cstdint>
#include <vector>

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

// What each source reaches within a finite cutoff, as lists: source i's vertices (by id, with
// their distances, dijkstra's bit for bit) are targets[offsets[i]..offsets[i + 1]). Each thread
// keeps its search's arrays between sources and resets only what a search touched, so a bounded
// search costs its ball, not the graph (dijkstra_row fills and clears whole rows). distances: the
// entries of `type` (check_distance_type), resized by the call. Throws distance_overflow as
// dijkstra_row does; std::invalid_argument for an infinite or negative cutoff.
struct reached_lists {
  std::vector<std::uint64_t> offsets;
  std::vector<vertex_t> targets;
  std::vector<unsigned char> distances;  // offsets.back() entries of the type, packed
};
reached_lists reached_within(const csr_view& g, distance_type type, double cutoff, const std::vector<vertex_t>& sources,
                             unsigned threads);

}  // namespace deltasplit::sssp::detail
