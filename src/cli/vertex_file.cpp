// Vertex-id files (see vertex_file.hpp).
#include "cli/vertex_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "deltasplit/graph/error.hpp"

namespace deltasplit::cli {

std::vector<graph::vertex_t> read_vertex_file(const std::string& path, const graph::csr& g) {
  std::ifstream in(path);
  if (!in) throw graph::input_error(path, 0, std::string("cannot open (") + std::strerror(errno) + ")");
  const std::uint64_t first = g.origin.one_based ? 1 : 0;
  std::vector<graph::vertex_t> ids;
  std::string line;
  for (std::uint64_t number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    const auto begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;
    const auto end = line.find_last_not_of(" \t\r") + 1;
    const std::string text = line.substr(begin, end - begin);
    if (text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
      throw graph::input_error(path, number, "'" + text + "' is not a vertex id (one non-negative integer per line)");
    const std::uint64_t id = std::stoull(text);
    if (id < first || id - first >= g.num_vertices)
      throw graph::input_error(path, number, "vertex " + text + " is out of range: the graph has " +
                                                 std::to_string(g.num_vertices) + " vertices, numbered " +
                                                 std::to_string(first) + ".." + std::to_string(first + g.num_vertices - 1));
    ids.push_back(static_cast<graph::vertex_t>(id - first));
  }
  if (in.bad()) throw graph::input_error(path, 0, "read failed");
  if (ids.empty()) throw graph::input_error(path, 0, "no vertex ids in the file");
  return ids;
}

}  // namespace deltasplit::cli
