// The readers and writers of each file format, behind read_graph / write_graph (io.hpp).
#pragma once

#include <string>
#include <string_view>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/io.hpp"
#include "data_lines.hpp"
#include "text_blocks.hpp"

namespace deltasplit::graph::detail {

class output_file;

csr read_matrix_market(const std::string& path, const read_options& options);
csr read_dimacs(const std::string& path, const read_options& options);
csr read_edge_list(const std::string& path, const read_options& options);
csr read_binary(const std::string& path, const read_options& options);

void write_matrix_market(const csr& g, output_file& out);
void write_dimacs(const csr& g, output_file& out);
void write_edge_list(const csr& g, output_file& out);
void write_binary(const csr& g, output_file& out);
// One "<prefix>u v w" line per arc, ids shifted by id_base (1 for 1-based formats); with
// lower_triangle only the arcs u -> v with v <= u.
void write_arc_lines(const csr& g, output_file& out, std::string_view prefix, unsigned id_base,
                     bool lower_triangle = false);

// Refuses a vertex count past the 32-bit id limit, or one whose CSR offsets alone (and what the
// caller needs per vertex later) would not fit the memory budget, before anything is allocated.
void check_vertex_count(const std::string& path, std::uint64_t line, std::uint64_t vertices, const read_options& options);

// Refuses (input_error at `line`, with the bytes needed and available) a load that needs `need`
// more bytes while holding `held`: options.memory_limit less what is held, or what the machine
// has available now.
void require_load_memory(const std::string& path, std::uint64_t line, const read_options& options,
                         const std::string& what, std::uint64_t need, std::uint64_t held);

// Refuses (input_error at `line`) a text graph whose entries read so far, `held` bytes of parsed
// lists, would not fit the memory budget once built into a CSR with `vertices` vertices and
// used by the caller (options.later_bytes_*). Called after every block, so a file that is too
// large for the machine stops while there is still memory to report it.
void check_load_memory(const std::string& path, std::uint64_t line, const read_options& options, std::uint64_t vertices,
                       std::uint64_t entries, bool symmetric, bool wide, std::uint64_t held);

// After a block of data lines: the memory check above for what `data` holds, and progress.
void after_block(const text_blocks& in, const read_options& options, std::uint64_t vertices, const chunk_state& data,
                 bool symmetric, bool wide);

// What a text reader parsed, on its way to a CSR.
struct text_graph {
  std::uint64_t vertices = 0;
  weight_kind kind = weight_kind::integer;
  weight_width width = weight_width::narrow;  // wide: the weights are in chunk_state::wide_weight
  bool weighted = false;   // the file had weights (else they are generated)
  bool symmetric = false;  // entries stand for both directions
  bool one_based = true;
  const char* format = "";
};

// Builds the clean CSR from the parsed entries (consumed), records the provenance (source
// identity included) and draws weights when the file had none or the caller asked for new ones.
csr build_text_graph(const text_blocks& in, chunk_state& data, const text_graph& t, const read_options& options);

}  // namespace deltasplit::graph::detail
