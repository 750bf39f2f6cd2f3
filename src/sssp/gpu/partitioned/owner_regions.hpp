// Owner regions for the partitioned driver (partitioned_driver.cu): the vertices are cut into
// `parts` regions of (nearly) equal cost, and renumbered so that every region is a contiguous range
// of new ids, in breadth-first order inside the region.
//
// Recursive breadth-first bisection: a piece to be cut into k regions is searched breadth-first
// (over arcs inside it) from a peripheral vertex (the last one reached from any vertex), and its
// order is cut where the running cost reaches floor(k / 2) / k of the piece's: the first part is a
// ball around the peripheral vertex, the rest its complement, and each is cut again. Why not one
// global BFS or Cuthill-McKee order cut into ranges: on a road network its ranges are rings around
// the first vertex, every vertex on a boundary. Why not balls grown one after the other (the first
// version): the last balls collect the fragments the earlier ones left all over the map, and the
// block owning such a region took part in every step of the wave and ran an order of magnitude
// more local iterations than the mean block (bench/results/sssp_roads.md, step 5). Regions here
// cut a few percent of a road network's arcs and are mostly connected.
#pragma once

#include <cstdint>
#include <vector>

#include "deltasplit/csr_view.hpp"
#include "deltasplit/graph/csr.hpp"

namespace deltasplit::sssp::gpu {

struct owner_regions {
  std::vector<graph::vertex_t> old_of_new;  // new id -> caller's id
  std::vector<graph::vertex_t> new_of_old;  // caller's id -> new id
  std::vector<graph::vertex_t> begin;       // parts + 1 entries: region b is new ids [begin[b], begin[b + 1])
};

// Regions of g's vertices (out-arcs define the searches), parts >= 1 (at most num_vertices are
// made; every region gets at least one vertex when parts <= num_vertices), balanced by cost: a
// vertex u costs vertex_cost + arc_cost * out-degree(u) (the bytes its owner keeps on chip).
owner_regions grow_owner_regions(const csr_view& g, std::uint32_t parts, std::uint64_t vertex_cost = 1,
                                 std::uint64_t arc_cost = 0);

}  // namespace deltasplit::sssp::gpu
