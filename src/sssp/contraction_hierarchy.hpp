// Contraction hierarchies and PHAST: the road-network solver for many queries on one graph.
//
// Contraction (Geisberger, Sanders, Schultes and Delling, "Contraction Hierarchies", WEA 2008,
// Sections 2-3): vertices are removed in an order chosen by a priority (edge difference, with the
// shortcuts estimated as the neighbour pairs without a witness of at most two arcs on sparse
// graphs and every pair on denser ones, and the contracted neighbours, updated after every round),
// in rounds of independent sets contracted in parallel (Geisberger et al., Transportation Science
// 2012, Section 4.1); removing v adds a shortcut u -> w of weight w(u, v) + w(v, w) for every pair
// of its remaining neighbours whose shortest u-w path runs through v, which a bounded witness
// search (a Dijkstra from u that avoids v) fails to disprove. A vertex's rank is its place in that order. Every arc of the original graph and
// every shortcut goes up (to a higher rank) or down.
//
// PHAST (Delling, Goldberg, Nowatzyk and Werneck, "PHAST: Hardware-accelerated shortest path
// trees", IPDPS 2011 / JPDC 2013, Sections 3-4): the distances from s to every vertex are an
// upward search from s (Dijkstra over the up arcs only: a few hundred vertices on a road network)
// followed by one linear sweep over all vertices in decreasing level, each taking
// min(its upward distance, min over its down in-arcs (u -> v) of d(u) + w). A vertex's level is
// one more than the highest level of the lower-ranked neighbours it had when it was contracted,
// so every down arc goes from a higher level to a lower one and the vertices of one level are
// independent: the sweep is one parallel pass per level, and k sources share every arc read.
//
// The layout here is the sweep's: vertices are renumbered into sweep positions (highest level
// first), so that each level is a contiguous range and every down in-arc of position p comes from
// a position of an earlier level. Host C++ only; the GPU sweep (sssp/gpu/phast/phast.cu) uploads these
// arrays as they are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "deltasplit/csr_view.hpp"
#include "deltasplit/graph/progress.hpp"

namespace deltasplit::sssp::detail {

// Weight: std::uint32_t for integer graphs, std::uint64_t for integer graphs whose paths may pass
// 2^32 - 2 (uint64 distances, distance_type_for), float for real ones. Integer shortcut weights are
// sums formed in twice the width and saturated at too_long (a shortcut that long can only make
// distances that overflow; the sweep reports them as distance_overflow, as every solver does).
template <class Weight>
struct contraction_hierarchy {
  static constexpr Weight too_long = std::numeric_limits<Weight>::has_infinity
                                        ? std::numeric_limits<Weight>::infinity()
                                        : std::numeric_limits<Weight>::max();  // 2^32 - 1, or +inf

  vertex_t num_vertices = 0;
  // position_of[v]: the sweep position of the caller's vertex v; vertex_at[p]: the caller's
  // vertex at sweep position p. Positions are ordered by decreasing level.
  std::vector<vertex_t> position_of, vertex_at;
  // Positions level_offsets[i] .. level_offsets[i + 1] - 1 form the i-th level swept (i = 0 is the
  // highest level); num_levels() + 1 entries, the last one num_vertices.
  std::vector<vertex_t> level_offsets;
  // The core: vertices left uncontracted because contracting them would add too many shortcuts
  // (dense graphs; road networks contract fully, or nearly). They take positions
  // 0 .. core_size - 1, all in level 0, and share the highest rank: the arcs among them are up arcs
  // in both directions, so the upward search runs its Dijkstra across the core, and the sweep
  // starts below it (core vertices have no down in-arcs).
  vertex_t core_size = 0;
  bool one_based = false;  // how vertex ids are printed in error messages (the input file's numbering)

  // Up arcs by sweep position: the arcs p -> q (original arcs and shortcuts) with q of a higher
  // rank than p (or both in the core), in up_offsets[p] .. up_offsets[p + 1]; targets are
  // positions. The upward search walks these.
  std::vector<edge_t> up_offsets;
  std::vector<vertex_t> up_targets;
  std::vector<Weight> up_weights;

  // Down in-arcs by sweep position: for position p, the arcs q -> p with q of a higher rank than
  // p (so q < p, in an earlier level), in down_offsets[p] .. down_offsets[p + 1]; sources are
  // positions. The sweep reads these.
  std::vector<edge_t> down_offsets;
  std::vector<vertex_t> down_sources;
  std::vector<Weight> down_weights;

  // What the contraction did.
  double build_milliseconds = 0;
  std::uint64_t shortcuts = 0;       // arcs added (a shortcut replacing a heavier arc counts once)
  std::uint64_t witness_searches = 0;

  vertex_t num_levels() const { return level_offsets.empty() ? 0 : static_cast<vertex_t>(level_offsets.size() - 1); }
};

// The sweep on the CPU for one source (PHAST): the upward search, then the levels in order. Writes
// d(source, v) for every caller's vertex v into out[v] (num_vertices entries; int_infinity or +inf
// when unreachable). Throws distance_overflow when a shortest distance does not fit (integer sums
// past 2^32 - 2, real sums rounding to +inf), as every solver does; with report_overflow false
// (a caller's cutoff below the largest distance: such vertices lie beyond it) they are left
// unreached instead, as the GPU sweep and the delta-stepping solvers, which stop at the cutoff, do.
template <class Weight>
struct upward_search;
template <class Weight>
void phast_cpu(const contraction_hierarchy<Weight>& ch, upward_search<Weight>& up, vertex_t source, Weight* out,
               bool report_overflow = true);

// The sweep for up to phast_group sources at once: each source's distances exactly as phast_cpu
// gives them (the same minima), in one pass over the hierarchy, each position's distances for
// the group side by side, so that a down arc and its tail's distances are read once for all of
// them (Delling et al. 2011, Section 5: several trees a sweep). outs[i]: sources[i]'s row
// (num_vertices entries, caller's ids). An overflow is reported for the first source of the
// group that has one. The upward search object keeps the group's distances between calls
// (num_vertices x phast_group of the distance type, a thread's). 8 against 1 and 4: bench/
// results/phast.md, "Several sources a sweep on the CPU".
// phast_cpu is the group of one.
constexpr std::size_t phast_group = 8;
template <class Weight, std::size_t Group = phast_group>
void phast_cpu_group(const contraction_hierarchy<Weight>& ch, upward_search<Weight>& up, const vertex_t* sources,
                     std::size_t count, Weight* const* outs, bool report_overflow = true);

// Builds the hierarchy of a host graph (integer or real, as its kind says; the other instantiation
// throws std::invalid_argument). `threads` (0 = all hardware threads) share the witness searches
// and priority evaluations; the hierarchy is the same for any thread count. `progress`, when set,
// hears of every round (options::progress).
// Parallel arcs keep the lightest; self-loops are dropped; zero weights are allowed.
template <class Weight>
contraction_hierarchy<Weight> build_contraction_hierarchy(const csr_view& g, unsigned threads = 0,
                                                          const graph::progress_fn& progress = {});

__extension__ typedef unsigned __int128 uint128;  // the sums of 64-bit integer weights

// An upward search's result for one source: the positions it settled with their distances (sums
// of twice the width for integer graphs, so values past the distance type's limit are kept as
// they are; float for real graphs).
template <class Weight>
struct upward_distances {
  using sum = std::conditional_t<std::is_same_v<Weight, float>, float,
                                 std::conditional_t<std::is_same_v<Weight, std::uint64_t>, uint128, std::uint64_t>>;
  std::vector<vertex_t> positions;
  std::vector<sum> distances;
};

// The upward search from the caller's vertex `source` (Dijkstra over up arcs). Reuses its memory
// between calls; one object per thread. (The private members are the implementation's to choose.)
template <class Weight>
struct upward_search {
  explicit upward_search(const contraction_hierarchy<Weight>& ch);
  // For integer graphs upward sums past 2^32 - 2 are kept as they are; for real graphs a sum that
  // rounds to +inf is kept as +inf: such a position is reached, by a path too long to fit.
  const upward_distances<Weight>& run(vertex_t source);

 private:
  using sum = typename upward_distances<Weight>::sum;
  static constexpr std::uint32_t unvisited = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t settled = unvisited - 1;
  void sift_up(std::size_t i);
  void sift_down(std::size_t i);
  template <class W, std::size_t G>
  friend void phast_cpu_group(const contraction_hierarchy<W>&, upward_search<W>&, const vertex_t*, std::size_t,
                              W* const*, bool);

  const contraction_hierarchy<Weight>* ch_;
  std::vector<sum> dist_;                    // by position; valid where heap_index_ is not unvisited
  std::vector<std::uint32_t> heap_index_;    // by position: unvisited, settled, or the place in heap_
  std::vector<std::pair<sum, vertex_t>> heap_;
  upward_distances<Weight> out_;
  // The sweeps' (phast_cpu_group, phast_cpu): the group's distances by position (the group's
  // size a position, allocated on use), and each source's upward distances sorted by position.
  std::vector<Weight> group_;
  std::vector<std::vector<std::pair<vertex_t, sum>>> group_seeds_;
};

// Distances of given pairs (from[i], to[i]) on the hierarchy, without a sweep: the bidirectional
// query (Geisberger et al. 2008, Section 4). An upward search from from[i] over the up arcs and a
// backward one from to[i] against the arcs that come down into it (the down in-arcs; among the
// core's vertices, which share the highest rank, the core's arcs turned around) meet: the
// distance is the least sum of the two over the positions both reach. Exact: every shortest path
// has a form that only climbs, then only descends; the searches take turns and each stops once
// nothing it has left is nearer than the best meeting, and stall-on-demand never stalls a position
// on a shortest path (Geisberger et al. 2008, Section 4). Writes out[i] (caller's ids in from and to; int_infinity or +inf when unreachable);
// throws distance_overflow as phast_cpu does and std::out_of_range for a vertex past the graph.
// `threads` (0 = all hardware threads) share the pairs.
template <class Weight>
void pair_distances(const contraction_hierarchy<Weight>& ch, const vertex_t* from, const vertex_t* to,
                    std::size_t count, Weight* out, unsigned threads = 0);

// std::out_of_range naming the first vertex of from or to that is not below n (printed 1-based
// when one_based): pair_distances' check, for callers that answer pairs elsewhere first.
void check_pair_vertices(vertex_t n, bool one_based, const vertex_t* from, const vertex_t* to, std::size_t count);

}  // namespace deltasplit::sssp::detail
