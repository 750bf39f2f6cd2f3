// Vertex ids on the command line (see vertex_ids.hpp).
#include "cli/vertex_ids.hpp"

#include <algorithm>
#include <random>

#include "cli/command.hpp"

namespace deltasplit::cli {

graph::vertex_t parse_vertex(const std::string& text, const graph::csr& g, const std::string& graph_path,
                             const char* flag) {
  const std::uint64_t first = g.origin.one_based ? 1 : 0;
  const std::string where = std::string("--") + flag + " " + text + ": ";
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
    throw usage_error(where + "not a vertex id (a non-negative integer in the file's numbering)");
  const std::uint64_t id = std::stoull(text);
  if (g.num_vertices == 0) throw usage_error(where + graph_path + " has no vertices");
  if (id < first || id - first >= g.num_vertices)
    throw usage_error(where + "out of range: " + graph_path + " has " + std::to_string(g.num_vertices) +
                      " vertices, numbered " + std::to_string(first) + ".." +
                      std::to_string(first + g.num_vertices - 1) + (first ? " (1-based file)" : " (0-based file)"));
  return static_cast<graph::vertex_t>(id - first);
}

std::vector<graph::vertex_t> parse_vertices(const std::vector<std::string>& items, const graph::csr& g,
                                            const std::string& graph_path, const char* flag) {
  std::vector<graph::vertex_t> ids;
  for (const std::string& item : items) {
    std::size_t start = 0;
    for (;;) {
      std::size_t comma = item.find(',', start);
      ids.push_back(parse_vertex(item.substr(start, comma - start), g, graph_path, flag));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return ids;
}

std::vector<graph::vertex_t> random_sources(const graph::csr& g, std::uint64_t count, std::uint64_t seed) {
  std::vector<graph::vertex_t> candidates;
  for (graph::vertex_t v = 0; v < g.num_vertices; ++v)
    if (g.degree(v) > 0) candidates.push_back(v);
  if (count > candidates.size())
    throw usage_error("--random-sources " + std::to_string(count) + ": the graph has only " +
                      std::to_string(candidates.size()) + " vertices with out-arcs");
  std::mt19937_64 rng(seed);
  // Partial Fisher-Yates: the first `count` entries become a uniform sample without repetition.
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uniform_int_distribution<std::uint64_t> pick(i, candidates.size() - 1);
    std::swap(candidates[i], candidates[pick(rng)]);
  }
  candidates.resize(count);
  return candidates;
}

}  // namespace deltasplit::cli
