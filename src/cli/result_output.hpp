// How shortest-path results are written: one "vertex value" line per vertex in the graph file's
// numbering, "inf" for an unreachable distance and "none" for a missing predecessor; and the
// path from the source to one target.
#pragma once

#include <ostream>
#include <string>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::cli {

std::string format_distance(const sssp::result& r, graph::vertex_t v);
void write_distances(std::ostream& os, const graph::csr& g, const sssp::result& r);
void write_predecessors(std::ostream& os, const graph::csr& g, const sssp::result& r);
// "path from S to T: S -> ... -> T (distance D, K arcs)", or that T is unreachable.
void write_path(std::ostream& os, const graph::csr& g, const sssp::result& r, graph::vertex_t source,
                graph::vertex_t target);
// The same from a tree held apart from a result (num_vertices parents, invalid_vertex for none)
// and T's distance as text; an empty text: T is unreachable.
void write_tree_path(std::ostream& os, const graph::csr& g, const graph::vertex_t* tree, graph::vertex_t source,
                     graph::vertex_t target, const std::string& distance);
// write_predecessors' lines from such a tree.
void write_parents(std::ostream& os, const graph::csr& g, const graph::vertex_t* parent);

}  // namespace deltasplit::cli
