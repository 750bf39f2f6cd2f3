// read_graph / write_graph: format detection by content, then by name, and dispatch to the
// reader or writer of each format (formats.hpp).
#include "deltasplit/graph/io.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binary_cache.hpp"
#include "deltasplit/graph/error.hpp"
#include "deltasplit/graph/weights.hpp"
#include "formats.hpp"
#include "output_file.hpp"
#include "text_blocks.hpp"

namespace deltasplit::graph {

namespace {

// The extension that names the format, past a ".gz": "graph.mtx.gz" -> "mtx".
std::string format_extension(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  std::string l = detail::ascii_lower(name);
  if (l.size() > 3 && l.compare(l.size() - 3, 3, ".gz") == 0) l.resize(l.size() - 3);
  std::size_t dot = l.find_last_of('.');
  return dot == std::string::npos ? std::string() : l.substr(dot + 1);
}

bool gz_extension(const std::string& path) {
  std::string l = detail::ascii_lower(path);
  return l.size() > 3 && l.compare(l.size() - 3, 3, ".gz") == 0;
}

file_format format_from_extension(const std::string& ext) {
  if (ext == "mtx" || ext == "mm") return file_format::matrix_market;
  if (ext == "gr" || ext == "dimacs") return file_format::dimacs;
  if (ext == "dsg") return file_format::binary;
  if (ext == "txt" || ext == "el" || ext == "edges" || ext == "edgelist" || ext == "tsv" || ext == "snap")
    return file_format::edge_list;
  return file_format::automatic;
}

}  // namespace

const char* format_name(file_format f) {
  switch (f) {
    case file_format::automatic: return "automatic";
    case file_format::matrix_market: return "matrix-market";
    case file_format::dimacs: return "dimacs";
    case file_format::edge_list: return "edge-list";
    case file_format::binary: return "binary";
  }
  return "unknown";
}

file_format format_from_name(const std::string& name) {
  std::string n = detail::ascii_lower(name);
  if (n == "auto" || n == "automatic") return file_format::automatic;
  if (n == "mtx" || n == "mm" || n == "matrix-market" || n == "matrixmarket") return file_format::matrix_market;
  if (n == "gr" || n == "dimacs") return file_format::dimacs;
  if (n == "edges" || n == "edge-list" || n == "edgelist" || n == "el" || n == "txt" || n == "snap")
    return file_format::edge_list;
  if (n == "bin" || n == "binary" || n == "dsg" || n == "cache") return file_format::binary;
  throw std::invalid_argument("unknown graph format '" + name +
                              "' (mtx, gr, edges or bin; matrix-market, dimacs, edge-list or binary)");
}

file_format detect_format(const std::string& path) {
  if (detail::has_binary_magic(path)) return file_format::binary;
  detail::text_blocks in(path, std::size_t{64} << 10, false);
  std::string head;
  if (!in.next(head)) throw input_error(path, 0, "empty file");
  std::string_view rest(head);
  bool first = true;
  std::string_view first_content;
  while (!rest.empty()) {
    std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    std::size_t i = line.find_first_not_of(" \t\r");
    if (i == std::string_view::npos) continue;
    line.remove_prefix(i);
    if (first && detail::ascii_lower(line.substr(0, 14)) == "%%matrixmarket") return file_format::matrix_market;
    first = false;
    if (line[0] == 'c' && (line.size() == 1 || line[1] == ' ' || line[1] == '\t' || line[1] == '\r')) continue;
    if (line.substr(0, 2) == "p " || line.substr(0, 2) == "p\t") {
      if (line.find("sp") != std::string_view::npos) return file_format::dimacs;
    }
    first_content = line;
    break;
  }
  file_format by_name = format_from_extension(format_extension(path));
  if (by_name != file_format::automatic) return by_name;
  if (!first_content.empty() && (first_content[0] == '#' || std::isdigit(static_cast<unsigned char>(first_content[0]))))
    return file_format::edge_list;
  throw input_error(path, 0,
                    "cannot tell the graph format: no Matrix Market banner, no DIMACS 'p sp' line, no cache "
                    "header, and no known extension (.mtx, .gr, .dsg, .txt/.edges)");
}

csr read_graph(const std::string& path, const read_options& options) {
  if (options.weight_min > options.weight_max)
    throw std::invalid_argument("weight range [" + std::to_string(options.weight_min) + ", " +
                                std::to_string(options.weight_max) + "] is empty");
  file_format f = options.format == file_format::automatic ? detect_format(path) : options.format;
  switch (f) {
    case file_format::matrix_market: return detail::read_matrix_market(path, options);
    case file_format::dimacs: return detail::read_dimacs(path, options);
    case file_format::edge_list: return detail::read_edge_list(path, options);
    case file_format::binary: {
      csr g = detail::read_binary(path, options);
      if (options.force_generated_weights)
        assign_random_weights(g, options.weight_seed, options.weight_min, options.weight_max);
      return g;
    }
    case file_format::automatic: break;
  }
  throw std::logic_error("read_graph: no reader for the format");
}

namespace {

std::size_t weight_count(const csr& g) {
  if (g.kind == weight_kind::integer) return g.wide() ? g.uint64_weights.size() : g.int_weights.size();
  return g.wide() ? g.float64_weights.size() : g.real_weights.size();
}

// The checks both writers make before any byte is written; f is the format, not automatic.
void check_writable(const csr& g, const std::string& name, file_format f, bool gzip) {
  if (g.signed_weights)
    throw std::invalid_argument(name + ": a graph read with negative weights is not written in this version");
  if (f == file_format::dimacs && g.kind == weight_kind::real)
    throw std::invalid_argument(name + ": DIMACS .gr files hold integer weights only; this graph has real "
                                       "weights (write Matrix Market, an edge list or a binary cache instead)");
  if (f == file_format::binary && gzip)
    throw std::invalid_argument(name + ": binary caches are not compressed (they exist to load fast); drop the .gz");
  const std::size_t arcs = g.targets.size();
  if (g.offsets.size() != std::size_t{g.num_vertices} + 1 || g.offsets.back() != arcs ||
      weight_count(g) != arcs)
    throw std::invalid_argument(name + ": cannot write a malformed graph (offsets or weights do not match the arcs)");
}

void write_as(const csr& g, file_format f, detail::output_file& out, const write_options& options) {
  out.set_progress(&options.progress);
  switch (f) {
    case file_format::matrix_market: detail::write_matrix_market(g, out); break;
    case file_format::dimacs: detail::write_dimacs(g, out); break;
    case file_format::edge_list: detail::write_edge_list(g, out); break;
    case file_format::binary: detail::write_binary(g, out); break;
    case file_format::automatic: break;
  }
  out.commit();
}

}  // namespace

void write_graph(const csr& g, const std::string& path, const write_options& options) {
  file_format f = options.format;
  if (f == file_format::automatic) f = format_from_extension(format_extension(path));
  if (f == file_format::automatic)
    throw std::invalid_argument(path + ": cannot tell the output format from the name; use .mtx, .gr, .txt/.edges "
                                       "or .dsg (optionally .gz), or name the format");
  check_writable(g, path, f, options.gzip || gz_extension(path));
  struct stat out_st {};
  if (::stat(path.c_str(), &out_st) == 0 && !options.overwrite) {
    struct stat in_st {};
    bool is_input = !g.origin.path.empty() && ::stat(g.origin.path.c_str(), &in_st) == 0 &&
                    in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino;
    throw std::invalid_argument(path + (is_input ? ": this is the input file itself" : ": file exists") +
                                "; refusing to overwrite it (set overwrite to replace it)");
  }
  detail::output_file out(path, options.gzip || gz_extension(path));
  write_as(g, f, out, options);
}

void write_graph_to(const csr& g, int fd, const std::string& name, const write_options& options) {
  if (options.format == file_format::automatic)
    throw std::invalid_argument(name + ": name the output format (mtx, gr, edges or bin): a stream has no extension");
  check_writable(g, name, options.format, options.gzip);
  detail::output_file out(fd, name, options.gzip);
  write_as(g, options.format, out, options);
}

}  // namespace deltasplit::graph
