// Lists of vertex ids in a file (--source-file, --target-file): one id per line in the graph
// file's numbering, '#' starts a comment, blank lines are skipped.
#pragma once

#include <string>
#include <vector>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::cli {

// The internal ids, in file order (duplicates kept). A line that is not a vertex of g is a
// graph::input_error naming the file and the line; an unreadable file too (line 0).
std::vector<graph::vertex_t> read_vertex_file(const std::string& path, const graph::csr& g);

}  // namespace deltasplit::cli
