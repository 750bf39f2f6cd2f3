// The contraction hierarchy file: writer and hardened reader (see hierarchy_file.hpp).
#include "sssp/hierarchy_file.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "content_hash.hpp"
#include "deltasplit/graph/error.hpp"
#include "output_file.hpp"
#include "raw_reader.hpp"

namespace deltasplit::sssp::detail {

namespace {

using graph::input_error;
using graph::detail::content_hash;

constexpr unsigned char magic[8] = {'D', 'S', '-', 'H', 'I', 'E', 'R', '\n'};
constexpr std::uint64_t version = 1;
constexpr std::uint64_t byte_order_mark = 0x0102030405060708ULL;
// Arc counts past this are corrupt (a hierarchy that large would not fit in memory anyway); it
// keeps the size arithmetic below far from overflowing 64 bits.
constexpr std::uint64_t max_arcs = std::uint64_t{1} << 56;

using header = hierarchy_header;

std::uint64_t header_digest(const header& h) {
  content_hash hash;
  hash.update(&h, offsetof(header, header_hash));
  return hash.digest();
}

// The weights' kind in the header and the fingerprint: 0 integer (32-bit), 1 real, 2 64-bit integer.
template <class Weight>
constexpr std::uint64_t kind_of() {
  return std::is_same_v<Weight, float> ? 1 : std::is_same_v<Weight, std::uint64_t> ? 2 : 0;
}

const char* kind_name(std::uint64_t kind) { return kind == 0 ? "integer" : kind == 1 ? "real" : "64-bit integer"; }

std::string describe(std::uint64_t vertices, std::uint64_t arcs, std::uint64_t hash) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return std::to_string(vertices) + " vertices, " + std::to_string(arcs) + " arcs, fingerprint " + hex;
}

// The bytes the header promises after itself.
std::uint64_t payload_bytes(const header& h, std::size_t weight_bytes) {
  return 4 * h.vertices + 4 * (h.levels + 1) + 2 * 8 * (h.vertices + 1) + (4 + weight_bytes) * (h.up_arcs + h.down_arcs);
}

// Levels, core and arcs against the layout of contraction_hierarchy.hpp; what is wrong, or empty.
// Positions of level i are level_offsets[i] .. level_offsets[i + 1] - 1, so "q is in an earlier
// level than p" is q < level_offsets[level of p].
template <class Weight>
std::string layout_fault(const contraction_hierarchy<Weight>& ch) {
  const vertex_t n = ch.num_vertices;
  const std::vector<vertex_t>& lo = ch.level_offsets;
  if (lo.front() != 0 || lo.back() != n || (n > 0 && lo.size() < 2)) return "level offsets do not span the vertices";
  for (std::size_t i = 0; i + 1 < lo.size(); ++i)
    if (lo[i] >= lo[i + 1]) return "level " + std::to_string(i) + " is empty or its offsets decrease";
  if (ch.core_size > 0 && lo[1] != ch.core_size) return "the core is not exactly level 0";
  for (const std::vector<edge_t>* offsets : {&ch.up_offsets, &ch.down_offsets}) {
    const std::size_t arcs = offsets == &ch.up_offsets ? ch.up_targets.size() : ch.down_sources.size();
    if (offsets->front() != 0 || offsets->back() != arcs) return "arc offsets do not span the arcs";
    for (vertex_t p = 0; p < n; ++p)
      if ((*offsets)[p] > (*offsets)[p + 1]) return "arc offsets decrease at position " + std::to_string(p);
  }
  std::size_t level = 0;
  for (vertex_t p = 0; p < n; ++p) {
    while (p >= lo[level + 1]) ++level;
    const bool core = p < ch.core_size;
    // Up arcs go to earlier levels (the core: stay in it), down in-arcs come from earlier levels
    // and never into the core; rows sorted without repeats, as the contraction lays them out.
    const vertex_t up_bound = core ? ch.core_size : lo[level];
    for (edge_t e = ch.up_offsets[p]; e < ch.up_offsets[p + 1]; ++e) {
      const vertex_t q = ch.up_targets[e];
      if (q >= up_bound || q == p || (e > ch.up_offsets[p] && q <= ch.up_targets[e - 1]))
        return "up arc " + std::to_string(p) + " -> " + std::to_string(q) + " breaks the levels or its row's order";
    }
    if (core && ch.down_offsets[p] != ch.down_offsets[p + 1])
      return "core position " + std::to_string(p) + " has down in-arcs";
    for (edge_t e = ch.down_offsets[p]; e < ch.down_offsets[p + 1]; ++e) {
      const vertex_t q = ch.down_sources[e];
      if (q >= lo[level] || (e > ch.down_offsets[p] && q <= ch.down_sources[e - 1]))
        return "down in-arc " + std::to_string(q) + " -> " + std::to_string(p) + " breaks the levels or its row's order";
    }
  }
  if constexpr (std::is_same_v<Weight, float>) {
    for (const std::vector<float>* weights : {&ch.up_weights, &ch.down_weights})
      for (float w : *weights)
        if (!(w >= 0)) return "a negative or NaN arc weight";
  }
  return {};
}

}  // namespace

graph_fingerprint fingerprint_of(const csr_view& g) {
  graph_fingerprint f;
  f.vertices = g.num_vertices;
  f.arcs = g.num_arcs();
  f.kind = g.kind == graph::weight_kind::integer ? (g.wide() ? 2 : 0) : 1;
  content_hash hash;
  const std::uint64_t words[3] = {f.vertices, f.arcs, f.kind};
  hash.update(words, sizeof words);
  hash.update(g.offsets.data(), g.offsets.size() * sizeof(edge_t));
  hash.update(g.targets.data(), g.targets.size() * sizeof(vertex_t));
  if (f.kind == 0)
    hash.update(g.int_weights.data(), g.int_weights.size() * sizeof(std::uint32_t));
  else if (f.kind == 2)
    hash.update(g.uint64_weights.data(), g.uint64_weights.size() * sizeof(std::uint64_t));
  else
    hash.update(g.real_weights.data(), g.real_weights.size() * sizeof(float));
  f.hash = hash.digest();
  return f;
}

template <class Weight>
contraction_hierarchy<Weight> read_hierarchy(const std::string& path, const graph_fingerprint& expected) {
  graph::detail::raw_reader in(path, "hierarchy file");
  header h{};
  if (in.size() < sizeof h) throw input_error(path, 0, "not a contraction hierarchy file (shorter than its header)");
  in.read(&h, sizeof h, "header");
  if (std::memcmp(h.magic, magic, sizeof magic) != 0)
    throw input_error(path, 0, "not a contraction hierarchy file (bad magic bytes)");
  if (h.version != version)
    throw input_error(path, 0, "contraction hierarchy format version " + std::to_string(h.version) +
                                   " (this build reads version " + std::to_string(version) +
                                   "); remove the file to build the hierarchy again");
  if (h.byte_order != byte_order_mark)
    throw input_error(path, 0, "contraction hierarchy written on a machine of the other byte order; remove the file "
                               "to build the hierarchy here");
  if (header_digest(h) != h.header_hash) throw input_error(path, 0, "corrupt hierarchy file header (checksum mismatch)");
  if (h.kind > 2) throw input_error(path, 0, "corrupt hierarchy file header (weight kind)");
  if (h.kind != kind_of<Weight>())
    throw input_error(path, 0, std::string("a contraction hierarchy of ") + kind_name(h.kind) +
                                   " weights, but the graph has " + kind_name(kind_of<Weight>()) +
                                   " weights: remove the file or choose another path");
  if (h.vertices != expected.vertices || h.graph_arcs != expected.arcs || h.graph_hash != expected.hash ||
      expected.kind != h.kind)
    throw input_error(path, 0, "the contraction hierarchy of another graph (" +
                                   describe(h.vertices, h.graph_arcs, h.graph_hash) + "); this graph has " +
                                   describe(expected.vertices, expected.arcs, expected.hash) +
                                   ": remove the file or choose another path");
  double build_ms;
  std::memcpy(&build_ms, &h.build_ms, sizeof build_ms);
  if (h.vertices > graph::max_vertices || h.levels > h.vertices || h.core_size > h.vertices || h.up_arcs > max_arcs ||
      h.down_arcs > max_arcs || !std::isfinite(build_ms) || build_ms < 0)
    throw input_error(path, 0, "corrupt hierarchy file header (sizes)");

  // The header's sizes must account for the file's length exactly before anything is allocated.
  const std::uint64_t expected_bytes = sizeof h + payload_bytes(h, sizeof(Weight));
  if (in.size() < expected_bytes)
    throw input_error(path, 0, "truncated hierarchy file: " + std::to_string(in.size()) +
                                   " bytes, the header describes " + std::to_string(expected_bytes));
  if (in.size() > expected_bytes)
    throw input_error(path, 0, "corrupt hierarchy file: " + std::to_string(in.size() - expected_bytes) +
                                   " bytes past the payload");

  contraction_hierarchy<Weight> ch;
  ch.num_vertices = static_cast<vertex_t>(h.vertices);
  ch.core_size = static_cast<vertex_t>(h.core_size);
  ch.shortcuts = h.shortcuts;
  ch.witness_searches = h.witness_searches;
  ch.build_milliseconds = build_ms;
  content_hash hash;
  graph::detail::read_array(in, ch.vertex_at, h.vertices, "vertex order", hash);
  graph::detail::read_array(in, ch.level_offsets, h.levels + 1, "level offsets", hash);
  graph::detail::read_array(in, ch.up_offsets, h.vertices + 1, "up arc offsets", hash);
  graph::detail::read_array(in, ch.up_targets, h.up_arcs, "up arcs", hash);
  graph::detail::read_array(in, ch.up_weights, h.up_arcs, "up arc weights", hash);
  graph::detail::read_array(in, ch.down_offsets, h.vertices + 1, "down arc offsets", hash);
  graph::detail::read_array(in, ch.down_sources, h.down_arcs, "down arcs", hash);
  graph::detail::read_array(in, ch.down_weights, h.down_arcs, "down arc weights", hash);
  if (hash.digest() != h.payload_hash) throw input_error(path, 0, "corrupt hierarchy file payload (checksum mismatch)");

  // The checksum catches damage; these checks keep a crafted file from sending the sweeps out of
  // bounds, into a race between positions of one level, or into a search that never ends.
  ch.position_of.assign(ch.num_vertices, graph::invalid_vertex);
  for (vertex_t p = 0; p < ch.num_vertices; ++p) {
    const vertex_t v = ch.vertex_at[p];
    if (v >= ch.num_vertices || ch.position_of[v] != graph::invalid_vertex)
      throw input_error(path, 0, "corrupt hierarchy file (the vertex order is not a permutation: vertex " +
                                     std::to_string(v) + " at position " + std::to_string(p) + ")");
    ch.position_of[v] = p;
  }
  const std::string fault = layout_fault(ch);
  if (!fault.empty()) throw input_error(path, 0, "corrupt hierarchy file (" + fault + ")");
  return ch;
}

template <class Weight>
bool write_hierarchy(const std::string& path, const contraction_hierarchy<Weight>& ch, const graph_fingerprint& f) {
  header h{};
  std::memcpy(h.magic, magic, sizeof magic);
  h.version = version;
  h.byte_order = byte_order_mark;
  h.kind = kind_of<Weight>();
  h.vertices = f.vertices;
  h.graph_arcs = f.arcs;
  h.graph_hash = f.hash;
  h.core_size = ch.core_size;
  h.levels = ch.num_levels();
  h.up_arcs = ch.up_targets.size();
  h.down_arcs = ch.down_sources.size();
  h.shortcuts = ch.shortcuts;
  h.witness_searches = ch.witness_searches;
  std::memcpy(&h.build_ms, &ch.build_milliseconds, sizeof h.build_ms);
  struct piece {
    const void* data;
    std::size_t bytes;
  };
  const piece payload[] = {
      {ch.vertex_at.data(), ch.vertex_at.size() * sizeof(vertex_t)},
      {ch.level_offsets.data(), ch.level_offsets.size() * sizeof(vertex_t)},
      {ch.up_offsets.data(), ch.up_offsets.size() * sizeof(edge_t)},
      {ch.up_targets.data(), ch.up_targets.size() * sizeof(vertex_t)},
      {ch.up_weights.data(), ch.up_weights.size() * sizeof(Weight)},
      {ch.down_offsets.data(), ch.down_offsets.size() * sizeof(edge_t)},
      {ch.down_sources.data(), ch.down_sources.size() * sizeof(vertex_t)},
      {ch.down_weights.data(), ch.down_weights.size() * sizeof(Weight)},
  };
  content_hash hash;
  for (const piece& p : payload) hash.update(p.data, p.bytes);
  h.payload_hash = hash.digest();
  h.header_hash = header_digest(h);
  graph::detail::output_file out(path, false);
  out.write(&h, sizeof h);
  for (const piece& p : payload)
    if (p.bytes) out.write(p.data, p.bytes);
  return out.commit_if_absent();
}

template contraction_hierarchy<std::uint32_t> read_hierarchy<std::uint32_t>(const std::string&, const graph_fingerprint&);
template contraction_hierarchy<float> read_hierarchy<float>(const std::string&, const graph_fingerprint&);
template bool write_hierarchy<std::uint32_t>(const std::string&, const contraction_hierarchy<std::uint32_t>&,
                                             const graph_fingerprint&);
template bool write_hierarchy<float>(const std::string&, const contraction_hierarchy<float>&, const graph_fingerprint&);
template contraction_hierarchy<std::uint64_t> read_hierarchy<std::uint64_t>(const std::string&, const graph_fingerprint&);
template bool write_hierarchy<std::uint64_t>(const std::string&, const contraction_hierarchy<std::uint64_t>&,
                                             const graph_fingerprint&);

}  // namespace deltasplit::sssp::detail
