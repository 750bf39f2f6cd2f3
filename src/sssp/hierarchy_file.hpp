// The contraction hierarchy on disk (options::hierarchy_file): strategy phast pays the contraction
// (seconds on a road network) once, and later solvers on the same graph read it back.
//
// A file is tied to the graph it was built from by a fingerprint (vertex and arc counts, weight
// kind, and a hash of the offsets, targets and weights), so it is never used with another graph or
// another weighting. The reader trusts nothing: it checks every size against the file's size
// before it allocates, checksums the header and the payload, and then checks every array against
// the layout that the sweeps (phast_cpu, gpu/phast.cu) index without bounds checks
// (contraction_hierarchy.hpp): inverse permutations, levels, the core, every arc between
// positions of the right levels. A refusal is a graph::input_error naming the file and what is
// wrong. A file that passes is safe to sweep (no read out of bounds, no endless search); its
// distances are those of the graph it was built from unless someone forged the checksums.
//
// Layout (version 1, native byte order, checked by a byte-order mark): hierarchy_header, then
// vertex_at (n x u32), level_offsets (levels + 1 x u32), up_offsets (n + 1 x u64), up_targets
// (u32), up_weights (u32 or f32), down_offsets (n + 1 x u64), down_sources (u32), down_weights.
// position_of is not stored: it is vertex_at's inverse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "deltasplit/csr_view.hpp"
#include "sssp/contraction_hierarchy.hpp"

namespace deltasplit::sssp::detail {

// The file's header: every field 64-bit, so the layout has no padding. payload_hash covers every
// byte after the header, header_hash every byte before itself (both graph/src/content_hash.hpp).
struct hierarchy_header {
  unsigned char magic[8];
  std::uint64_t version, byte_order, kind;          // kind: 0 integer weights, 1 real, 2 64-bit integer
  std::uint64_t vertices, graph_arcs, graph_hash;   // the fingerprint of the graph it was built from
  std::uint64_t core_size, levels, up_arcs, down_arcs;
  std::uint64_t shortcuts, witness_searches, build_ms;  // build_ms: a double's bits
  std::uint64_t payload_hash;
  std::uint64_t header_hash;
};
static_assert(sizeof(hierarchy_header) == 8 + 15 * 8, "the hierarchy header must have no padding");

// What ties a hierarchy to its graph. hash covers n, the arc count, the kind and the bytes of the
// offsets, targets and weights of the kind: one pass over the graph (road-FLA: 30 MB).
struct graph_fingerprint {
  std::uint64_t vertices = 0, arcs = 0, kind = 0, hash = 0;
  bool operator==(const graph_fingerprint& o) const {
    return vertices == o.vertices && arcs == o.arcs && kind == o.kind && hash == o.hash;
  }
};
graph_fingerprint fingerprint_of(const csr_view& g);

// Reads the hierarchy in path, which must have been built from the graph of `expected` and for
// Weight (std::uint32_t: integer weights, float: real). Throws graph::input_error naming path: not
// a hierarchy file, another version or byte order, another weight kind, another graph, truncated,
// corrupt (checksums), or arrays that break the sweep's layout. one_based is left false (the
// caller knows the graph's numbering). Cost: reading the file and one hash over it, and one pass
// over its arrays.
template <class Weight>
contraction_hierarchy<Weight> read_hierarchy(const std::string& path, const graph_fingerprint& expected);

// Writes ch, built from the graph of f, to path: into a temporary file beside it, then linked into
// place only if path does not exist by then (never replacing anything). Returns false, writing
// nothing, when path exists. Throws std::runtime_error naming path when it cannot write.
template <class Weight>
bool write_hierarchy(const std::string& path, const contraction_hierarchy<Weight>& ch, const graph_fingerprint& f);

}  // namespace deltasplit::sssp::detail
