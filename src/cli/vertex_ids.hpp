// Vertex ids as the user writes them: in the graph file's own numbering (1-based for Matrix
// Market and DIMACS, 0-based for edge lists), checked against the graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::cli {

// The internal id of the vertex written `text` in g's numbering; usage_error naming `flag` and
// the valid range when it is not a number or not a vertex of g.
graph::vertex_t parse_vertex(const std::string& text, const graph::csr& g, const std::string& graph_path,
                             const char* flag);

// Every id in items, each item a comma-separated list.
std::vector<graph::vertex_t> parse_vertices(const std::vector<std::string>& items, const graph::csr& g,
                                            const std::string& graph_path, const char* flag);

// count distinct vertices with at least one out-arc, drawn uniformly with the seed; usage_error
// when the graph has fewer.
std::vector<graph::vertex_t> random_sources(const graph::csr& g, std::uint64_t count, std::uint64_t seed);

}  // namespace deltasplit::cli
