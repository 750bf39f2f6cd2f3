// Writing distances, predecessor trees and paths (see result_output.hpp).
#include "cli/result_output.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace deltasplit::cli {

namespace {

// Appends "id value\n" lines into a buffer: n lines of output are the bulk of a large run.
class line_buffer {
 public:
  explicit line_buffer(std::ostream& os) : os_(os) { text_.reserve(1 << 16); }
  ~line_buffer() { flush(); }
  void number(std::uint64_t x) {
    char digits[24];
    auto end = std::to_chars(digits, digits + sizeof digits, x).ptr;
    text_.append(digits, end);
  }
  void text(const std::string& s) { text_ += s; }
  void end_line() {
    text_ += '\n';
    if (text_.size() > (1 << 16) - 64) flush();
  }
  void flush() {
    os_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

 private:
  std::ostream& os_;
  std::string text_;
};

}  // namespace

std::string format_distance(const sssp::result& r, graph::vertex_t v) {
  if (!r.reached(v)) return "inf";
  char text[32];
  switch (r.type) {
    case sssp::distance_type::uint32: return std::to_string(r.int_distances[v]);
    case sssp::distance_type::uint64: return std::to_string(r.uint64_distances[v]);
    case sssp::distance_type::float32:
      std::snprintf(text, sizeof text, "%.9g", static_cast<double>(r.real_distances[v]));  // round-trips a float
      return text;
    default:  // the shortest text that reads back as the same double
      return std::string(text, std::to_chars(text, text + sizeof text, r.float64_distances[v]).ptr);
  }
}

void write_distances(std::ostream& os, const graph::csr& g, const sssp::result& r) {
  line_buffer out(os);
  for (graph::vertex_t v = 0; v < g.num_vertices; ++v) {
    out.number(g.external_id(v));
    out.text(" ");
    if (r.type == sssp::distance_type::uint32 && r.int_distances[v] != sssp::int_infinity)
      out.number(r.int_distances[v]);
    else if (r.type == sssp::distance_type::uint64 && r.uint64_distances[v] != sssp::uint64_infinity)
      out.number(r.uint64_distances[v]);
    else
      out.text(format_distance(r, v));
    out.end_line();
  }
}

void write_predecessors(std::ostream& os, const graph::csr& g, const sssp::result& r) {
  write_parents(os, g, r.predecessors.data());
}

void write_parents(std::ostream& os, const graph::csr& g, const graph::vertex_t* parent) {
  line_buffer out(os);
  for (graph::vertex_t v = 0; v < g.num_vertices; ++v) {
    out.number(g.external_id(v));
    out.text(" ");
    if (parent[v] == graph::invalid_vertex)
      out.text("none");
    else
      out.number(g.external_id(parent[v]));
    out.end_line();
  }
}

void write_path(std::ostream& os, const graph::csr& g, const sssp::result& r, graph::vertex_t source,
                graph::vertex_t target) {
  write_tree_path(os, g, r.predecessors.data(), source, target, r.reached(target) ? format_distance(r, target) : "");
}

void write_tree_path(std::ostream& os, const graph::csr& g, const graph::vertex_t* tree, graph::vertex_t source,
                     graph::vertex_t target, const std::string& distance) {
  if (distance.empty()) {
    os << "vertex " << g.external_id(target) << " is not reachable from " << g.external_id(source) << "\n";
    return;
  }
  std::vector<graph::vertex_t> path{target};
  while (path.back() != source) {
    graph::vertex_t parent = tree[path.back()];
    if (parent >= g.num_vertices || path.size() > g.num_vertices)
      throw std::runtime_error("the predecessor tree does not lead from vertex " + std::to_string(g.external_id(target)) +
                               " back to the source");
    path.push_back(parent);
  }
  std::reverse(path.begin(), path.end());
  os << "path from " << g.external_id(source) << " to " << g.external_id(target) << ":";
  for (std::size_t i = 0; i < path.size(); ++i) os << (i ? " -> " : " ") << g.external_id(path[i]);
  os << " (distance " << distance << ", " << path.size() - 1 << " arcs)\n";
}

}  // namespace deltasplit::cli
