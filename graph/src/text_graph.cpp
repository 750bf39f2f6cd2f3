// The common end of the text readers: the parsed entries become a clean CSR with its
// provenance, the source file's identity (for binary caches) and, when the file had none,
// generated weights.
#include <string>

#include <unistd.h>

#include "csr_builder.hpp"
#include "deltasplit/graph/error.hpp"
#include "deltasplit/graph/weights.hpp"
#include "formats.hpp"

namespace deltasplit::graph::detail {

void check_vertex_count(const std::string& path, std::uint64_t line, std::uint64_t vertices) {
  if (vertices > max_vertices)
    throw input_error(path, line,
                      std::to_string(vertices) + " vertices exceed the limit of " + std::to_string(max_vertices) +
                          " (vertex ids are 32-bit)");
  // Building the CSR needs three arrays of 64-bit offsets per vertex.
  const std::uint64_t need = 24 * (vertices + 1);
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0 && need / static_cast<std::uint64_t>(page) > static_cast<std::uint64_t>(pages))
    throw input_error(path, line,
                      std::to_string(vertices) + " vertices need " + std::to_string(need >> 30) +
                          " GiB for the CSR offsets alone, more than this machine's memory");
}

csr build_text_graph(const text_blocks& in, chunk_state& data, const text_graph& t, const read_options& options) {
  arc_list arcs;
  arcs.num_vertices = static_cast<vertex_t>(t.vertices);
  arcs.src = std::move(data.src);
  arcs.dst = std::move(data.dst);
  arcs.weight = std::move(data.weight);
  arcs.kind = t.kind;
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

  csr g = build_csr(std::move(arcs), std::move(p), options.threads);
  if (!t.weighted || options.force_generated_weights)
    assign_random_weights(g, options.weight_seed, options.weight_min, options.weight_max);
  return g;
}

}  // namespace deltasplit::graph::detail
