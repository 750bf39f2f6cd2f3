// The body shared by the text writers: one "<prefix>u v w" line per arc, formatted with
// std::to_chars (real weights in the shortest form of their value as a double, float weights
// included, so reading back, as double, gives the very values written); with lower_triangle, only
// the arcs u -> v with v <= u (a symmetric Matrix Market file's entries).
#include <charconv>

#include "formats.hpp"
#include "output_file.hpp"

namespace deltasplit::graph::detail {

void write_arc_lines(const csr& g, output_file& out, std::string_view prefix, unsigned id_base, bool lower_triangle) {
  constexpr std::size_t max_line = 96;  // prefix + two 10-digit ids + a double (24) + separators
  for (vertex_t u = 0; u < g.num_vertices; ++u) {
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      if (lower_triangle && g.targets[e] > u) continue;
      char* begin = out.reserve(max_line);
      char* end = begin + max_line;
      char* p = std::copy(prefix.begin(), prefix.end(), begin);
      p = std::to_chars(p, end, std::uint64_t{u} + id_base).ptr;
      *p++ = ' ';
      p = std::to_chars(p, end, std::uint64_t{g.targets[e]} + id_base).ptr;
      *p++ = ' ';
      if (g.kind == weight_kind::integer)
        p = g.wide() ? std::to_chars(p, end, g.uint64_weights[e]).ptr : std::to_chars(p, end, g.int_weights[e]).ptr;
      else
        p = std::to_chars(p, end, g.weight(e)).ptr;  // a float as the double it is: read back exactly
      *p++ = '\n';
      out.put(static_cast<std::size_t>(p - begin));
    }
    if ((u & 0xffffu) == 0xffffu) out.report(g.offsets[u + 1], g.num_arcs());
  }
  out.report(g.num_arcs(), g.num_arcs());
}

}  // namespace deltasplit::graph::detail
