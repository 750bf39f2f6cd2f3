// Owner regions for the partitioned driver (partitioned_driver.cu): the vertices are cut into
// `parts` regions of (nearly) equal size, each grown as a breadth-first ball from one seed, and
// renumbered so that every region is a contiguous range of new ids, in the ball's BFS order.
//
// Why balls and not a global BFS or Cuthill-McKee order cut into ranges: on a road network the
// ranges of one global BFS order are rings around the first seed, whose every vertex lies on the
// boundary; a ball of a few thousand vertices has a boundary of a few per cent (its perimeter), so
// most arcs of a region stay inside it and its owner relaxes them on chip. The next region grows
// from the oldest vertex the previous ball discovered but did not take, so balls tile the graph
// next to each other; fragments left between balls become seeds of later regions.
#pragma once

#include <cstdint>
#include <vector>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::sssp::gpu {

struct owner_regions {
  std::vector<graph::vertex_t> old_of_new;  // new id -> caller's id
  std::vector<graph::vertex_t> new_of_old;  // caller's id -> new id
  std::vector<graph::vertex_t> begin;       // parts + 1 entries: region b is new ids [begin[b], begin[b + 1])
};

// Regions of g's vertices (out-arcs define the balls), parts >= 1, balanced by cost: a vertex u
// costs vertex_cost + arc_cost * out-degree(u) (the bytes its owner keeps on chip), and region b
// ends where the running cost first reaches total * (b + 1) / parts.
owner_regions grow_owner_regions(const graph::csr& g, std::uint32_t parts, std::uint64_t vertex_cost = 1,
                                 std::uint64_t arc_cost = 0);

}  // namespace deltasplit::sssp::gpu
