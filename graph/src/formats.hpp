// The readers and writers of each file format, behind read_graph / write_graph (io.hpp).
#pragma once

#include <string>
#include <string_view>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/io.hpp"
#include "text_blocks.hpp"

namespace deltasplit::graph::detail {

class output_file;

csr read_matrix_market(const std::string& path, const read_options& options);
csr read_dimacs(const std::string& path, const read_options& options);
csr read_edge_list(const std::string& path, const read_options& options);
csr read_binary(const std::string& path);

void write_matrix_market(const csr& g, output_file& out);
void write_dimacs(const csr& g, output_file& out);
void write_edge_list(const csr& g, output_file& out);
void write_binary(const csr& g, output_file& out);
// One "<prefix>u v w" line per arc, ids shifted by id_base (1 for 1-based formats).
void write_arc_lines(const csr& g, output_file& out, std::string_view prefix, unsigned id_base);

// Fills the provenance every text reader records: where the graph came from and what was read.
provenance text_provenance(const text_blocks& in, const char* format, std::uint64_t entries);

// Refuses a declared vertex count whose CSR offsets alone would not fit this machine's memory,
// instead of failing inside an allocation.
void check_vertex_memory(const std::string& path, std::uint64_t line, std::uint64_t vertices);

// Draws weights when the file had none (or the caller asked for new ones).
void finish_weights(csr& g, bool file_had_weights, const read_options& options);

}  // namespace deltasplit::graph::detail
