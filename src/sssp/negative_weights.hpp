// Shortest paths on graphs with negative arc weights and no negative cycle: one source by
// label correcting (Bellman-Ford), many sources by Johnson's reweighting. Host C++ on plain CSR
// arrays with int64 or double weights, apart from the delta-stepping solvers (which need
// non-negative weights): the Python drop-ins for scipy's bellman_ford, johnson and shortest_path
// call these when a graph has a negative arc.
//
// One source: Bellman-Ford label correcting (Bellman 1958, "On a routing problem"; Ford 1956;
// the FIFO queue of Moore 1959), in passes: pass 0 scans the source, pass k scans the vertices
// whose label fell during pass k - 1, each once (a vertex already queued is not queued again).
// After pass k every label is at most the length of the shortest walk of at most k + 1 arcs;
// without a negative cycle reachable from the source a shortest path has at most n - 1 arcs, so
// every label is final after pass n - 2 and pass n - 1 lowers none. That is the bound: at most n
// passes of at most m relaxations each, O(n m), and usually far fewer. A label that still falls in
// pass n - 1 proves a negative cycle, and the predecessor graph then holds one: along every tree
// arc u -> v, d(v) >= d(u) + w(u, v) (d(u) only falls after v took it), so were the tree path to
// the lowered vertex simple it would be a walk of at most n - 1 arcs shorter than the pass bound
// allows. n steps back along predecessors from that vertex therefore land on the cycle, the vertex
// negative_cycle reports (Cherkassky and Goldberg 1999, "Negative-cycle detection algorithms").
//
// Many sources: Johnson 1977 ("Efficient algorithms for shortest paths in sparse networks").
// Potentials h(v) = the distance to v from a virtual vertex with a zero-weight arc to every vertex
// (the same label correcting on n + 1 vertices: every vertex starts at 0, queued), so h(v) <=
// h(u) + w(u, v) on every arc and w'(u, v) = w(u, v) + h(u) - h(v) >= 0. Dijkstra from each source
// on w' gives d'(s, t) = d(s, t) + h(s) - h(t), mapped back as d(s, t) = d'(s, t) - h(s) + h(t).
// The potentials find a negative cycle anywhere in the graph, reached from a source or not, as
// scipy's johnson does.
//
// Arithmetic. int64 weights are exact: every sum is checked, and one past 63 bits (or reaching
// INT64_MAX, which reads unreachable) throws distance_overflow. double weights follow scipy's
// bellman_ford and johnson operation for operation, so that results agree to the last bit where
// the same paths are chosen: relaxation d(u) + w < d(v); in the last pass a label falling by more
// than 1e-15 is a negative cycle, a smaller fall (rounding around a zero-weight cycle) is kept
// without a further pass (scipy's DTYPE_EPS test after its n - 1 passes); w' = (w + h(u)) - h(v)
// and d = (d' + h(t)) - h(s). Rounding can leave a w' a hair below zero, which Dijkstra takes as
// scipy's does: a settled vertex stays settled.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "deltasplit/csr_view.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp {

// A negative cycle reachable from the source (bellman_ford) or anywhere in the graph (johnson);
// vertex() lies on it.
class negative_cycle : public std::runtime_error {
 public:
  explicit negative_cycle(vertex_t vertex);
  vertex_t vertex() const { return vertex_; }

 private:
  vertex_t vertex_;
};

// The arrays of a CSR graph whose weights may be negative: num_vertices + 1 offsets (offsets[0] =
// 0, non-decreasing, offsets[n] = number of arcs), a target and a weight per arc. Rows may hold
// parallel arcs and self-loops (a negative self-loop is a negative cycle). W: std::int64_t or
// double (finite). Undirected graphs give every edge both ways (so a negative edge is a negative
// cycle of two arcs, as in scipy).
template <class W>
struct signed_csr {
  vertex_t num_vertices = 0;
  span<edge_t> offsets;
  span<vertex_t> targets;
  span<W> weights;
};

// What a distance reads where a vertex is unreachable: INT64_MAX, or +infinity.
template <class W>
constexpr W unreachable() {
  return std::numeric_limits<W>::has_infinity ? std::numeric_limits<W>::infinity() : std::numeric_limits<W>::max();
}

// Distances from source into dist (num_vertices entries) and, when predecessors is not null, the
// parent of each vertex in a shortest-path tree (graph::invalid_vertex for the source and the
// unreachable). Throws negative_cycle, distance_overflow (int64), std::invalid_argument for
// malformed arrays or a non-finite weight, std::out_of_range for the source.
template <class W>
void bellman_ford(const signed_csr<W>& g, vertex_t source, W* dist, vertex_t* predecessors);

// Johnson's potentials h (num_vertices entries, all <= 0). Throws as bellman_ford.
template <class W>
std::vector<W> johnson_potentials(const signed_csr<W>& g);

// Distances from every source: row i (num_vertices entries of dist, and of predecessors when not
// null) for sources[i]; the rows are solved by `threads` threads (0: all cores). Throws as
// bellman_ford, before writing any row when the graph has a negative cycle.
template <class W>
void johnson(const signed_csr<W>& g, span<vertex_t> sources, W* dist, vertex_t* predecessors, unsigned threads = 0);

}  // namespace deltasplit::sssp
