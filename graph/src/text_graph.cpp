// The common end of the text readers: the parsed entries become a clean CSR with its
// provenance, the source file's identity (for binary caches) and, when the file had none,
// generated weights.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "csr_builder.hpp"
#include "deltasplit/graph/error.hpp"
#include "deltasplit/graph/memory.hpp"
#include "deltasplit/graph/weights.hpp"
#include "formats.hpp"

namespace deltasplit::graph::detail {

void check_vertex_count(const std::string& path, std::uint64_t line, std::uint64_t vertices, const read_options& options) {
  if (vertices > max_vertices)
    throw input_error(path, line,
                      std::to_string(vertices) + " vertices exceed the limit of " + std::to_string(max_vertices) +
                          " (vertex ids are 32-bit)");
  check_load_memory(path, line, options, vertices, 0, false, false, 0);
}

void check_load_memory(const std::string& path, std::uint64_t line, const read_options& options, std::uint64_t vertices,
                       std::uint64_t entries, bool symmetric, bool wide, std::uint64_t held) {
  const std::uint64_t arcs = saturating_mul(entries, symmetric ? 2 : 1);
  const std::uint64_t building = build_csr_extra_bytes(vertices, entries, symmetric, wide, held);
  const std::uint64_t later =
      saturating_add(saturating_add(csr_bytes(vertices, arcs), saturating_mul(options.later_bytes_per_vertex, vertices)),
                     saturating_mul(options.later_bytes_per_arc, arcs));
  const std::uint64_t need = std::max(building, later > held ? later - held : 0);
  require_load_memory(path, line, options,
                      "a graph of " + std::to_string(vertices) + " vertices and " + std::to_string(arcs) + " arcs" +
                          (held ? " (the entries read so far)" : ""),
                      need, held);
}

void require_load_memory(const std::string& path, std::uint64_t line, const read_options& options,
                         const std::string& what, std::uint64_t need, std::uint64_t held) {
  // A fixed limit covers what is held already; the machine's available memory has it taken out.
  const std::uint64_t available =
      options.memory_limit ? (options.memory_limit > held ? options.memory_limit - held : 0) : available_memory();
  if (need > available)
    throw input_error(path, line,
                      what + " needs " + describe_bytes(need) + " more memory to load" +
                          (options.later_bytes_per_vertex || options.later_bytes_per_arc ? " and use" : "") +
                          ", but only " + describe_bytes(available) + " is available");
}

void after_block(const text_blocks& in, const read_options& options, std::uint64_t vertices, const chunk_state& data,
                 bool symmetric, bool wide) {
  const std::uint64_t held = (data.src.size() + data.dst.size() + data.weight.size()) * sizeof(vertex_t) +
                             (data.value.size() + data.wide_weight.size()) * sizeof(double);
  check_load_memory(in.path(), data.lines, options, vertices, data.entries, symmetric, wide, held);
  if (options.progress) options.progress("reading", in.raw_bytes(), in.file_bytes());
}

namespace {

// Signed weights (read_options::negative_weights) as keys whose unsigned order is the weights'
// order, so that the builder's rows keep the lightest of parallel arcs as they do for unsigned
// ones: int64 with the sign bit flipped; doubles with the sign bit set when non-negative and every
// bit flipped when negative. signed_key and signed_bits are inverse.
constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63;
std::uint64_t signed_key(std::uint64_t bits, weight_kind kind) {
  if (kind == weight_kind::integer) return bits ^ sign_bit;
  return bits & sign_bit ? ~bits : bits | sign_bit;
}
std::uint64_t signed_bits(std::uint64_t key, weight_kind kind) {
  if (kind == weight_kind::integer) return key ^ sign_bit;
  return key & sign_bit ? key & ~sign_bit : ~key;
}

}  // namespace

csr build_text_graph(const text_blocks& in, chunk_state& data, const text_graph& t, const read_options& options) {
  const bool signed_weights = options.negative_weights && t.weighted && !options.force_generated_weights;
  std::vector<vertex_t> negative_loops;
  if (signed_weights) {  // wide weights (the readers make them so)
    for (std::size_t i = 0; i < data.src.size(); ++i) {
      std::uint64_t& bits = data.wide_weight[i];
      if (data.src[i] == data.dst[i] && signed_key(bits, t.kind) < sign_bit && (bits << 1) != 0)
        negative_loops.push_back(data.src[i]);  // below zero (-0.0 was read as +0.0)
      bits = signed_key(bits, t.kind);
    }
    std::sort(negative_loops.begin(), negative_loops.end());
    negative_loops.erase(std::unique(negative_loops.begin(), negative_loops.end()), negative_loops.end());
  }
  arc_list arcs;
  arcs.num_vertices = static_cast<vertex_t>(t.vertices);
  arcs.src = std::move(data.src);
  arcs.dst = std::move(data.dst);
  arcs.weight = std::move(data.weight);
  arcs.wide_weight = std::move(data.wide_weight);
  arcs.kind = t.kind;
  arcs.width = t.width;
  arcs.symmetric = t.symmetric;

  provenance p;
  p.path = in.path();
  p.format = t.format;
  p.one_based = t.one_based;
  p.symmetric = t.symmetric;
  p.entries_read = data.entries;
  file_identity id = in.identity();
  p.source_path = canonical_path(in.path());
  p.source_bytes = id.bytes;
  p.source_mtime_ns = id.mtime_ns;
  p.source_hash = id.hash;
  p.text_bytes = in.text_bytes();

  csr g = build_csr(std::move(arcs), std::move(p), options.threads, &options.progress);
  if (signed_weights) {
    if (t.kind == weight_kind::integer) {
      for (std::uint64_t& k : g.uint64_weights) k = signed_bits(k, t.kind);
    } else {
      for (double& w : g.float64_weights) {
        std::uint64_t k;
        std::memcpy(&k, &w, 8);
        k = signed_bits(k, t.kind);
        std::memcpy(&w, &k, 8);
      }
    }
    g.signed_weights = true;
    g.negative_self_loops = std::move(negative_loops);
  }
  if (!t.weighted || options.force_generated_weights)
    assign_random_weights(g, options.weight_seed, options.weight_min, options.weight_max);
  return g;
}

}  // namespace deltasplit::graph::detail
