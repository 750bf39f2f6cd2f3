// The common end of the text readers: the parsed entries become a clean CSR with its
// provenance, the source file's identity (for binary caches) and, when the file had none,
// generated weights.
#include <algorithm>
#include <string>

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

csr build_text_graph(const text_blocks& in, chunk_state& data, const text_graph& t, const read_options& options) {
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
  if (!t.weighted || options.force_generated_weights)
    assign_random_weights(g, options.weight_seed, options.weight_min, options.weight_max);
  return g;
}

}  // namespace deltasplit::graph::detail
