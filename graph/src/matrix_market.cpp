// Matrix Market coordinate files (NIST Matrix Market exchange format): the banner
// "%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>", comment lines,
// a size line "rows columns entries" and one 1-based "row column [value]" line per entry. An
// entry (i, j) is the arc i -> j; a symmetric file stores one triangle of an undirected graph.
#include <algorithm>
#include <cstring>
#include <string>

#include "data_lines.hpp"
#include "deltasplit/graph/error.hpp"
#include "formats.hpp"
#include "line_cursor.hpp"
#include "output_file.hpp"

namespace deltasplit::graph::detail {

namespace {

enum class mm_field { pattern, integer, real };

struct mm_header {
  mm_field field = mm_field::pattern;
  bool symmetric = false;
  std::uint64_t vertices = 0, entries = 0;
  std::uint64_t size_line = 0;
};

mm_header parse_header(line_cursor& cur, const std::string& path, const read_options& options) {
  mm_header h;
  std::string_view line;
  if (!cur.next(line)) throw input_error(path, 0, "empty file");
  auto bad = [&](const std::string& why) { return input_error(path, cur.line_number(), why); };
  tokens t(line);
  std::string_view tok[5];
  int count = 0;
  while (count < 5 && t.next(tok[count])) ++count;
  if (count == 0 || ascii_lower(tok[0]) != "%%matrixmarket")
    throw bad("missing Matrix Market banner '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  std::string_view extra;
  if (count < 5) throw bad("incomplete Matrix Market banner: expected 'matrix coordinate <field> <symmetry>'");
  if (t.next(extra)) throw bad("unexpected token " + quoted(extra) + " in the banner");
  if (ascii_lower(tok[1]) != "matrix") throw bad("unsupported Matrix Market object " + quoted(tok[1]) + " (only 'matrix')");
  std::string format = ascii_lower(tok[2]);
  if (format == "array")
    throw bad("unsupported Matrix Market format 'array' (a dense matrix): graphs must be in 'coordinate' format");
  if (format != "coordinate") throw bad("unsupported Matrix Market format " + quoted(tok[2]) + " (only 'coordinate')");
  std::string field = ascii_lower(tok[3]);
  if (field == "pattern")
    h.field = mm_field::pattern;
  else if (field == "integer")
    h.field = mm_field::integer;
  else if (field == "real" || field == "double")
    h.field = mm_field::real;
  else if (field == "complex")
    throw bad("unsupported Matrix Market field 'complex': edge weights must be real numbers");
  else
    throw bad("unsupported Matrix Market field " + quoted(tok[3]) + " (pattern, integer or real)");
  std::string symmetry = ascii_lower(tok[4]);
  if (symmetry == "general")
    h.symmetric = false;
  else if (symmetry == "symmetric")
    h.symmetric = true;
  else if (symmetry == "skew-symmetric" || symmetry == "hermitian")
    throw bad("unsupported Matrix Market symmetry " + quoted(tok[4]) +
              ": a graph is 'general' (directed) or 'symmetric' (undirected)");
  else
    throw bad("unsupported Matrix Market symmetry " + quoted(tok[4]) + " (general or symmetric)");

  do {
    if (!cur.next(line))
      throw input_error(path, cur.line_number(), "missing size line 'rows columns entries' after the banner");
  } while (first_char(line) == 0 || first_char(line) == '%');
  h.size_line = cur.line_number();
  tokens s(line);
  std::string_view rows, cols, nnz;
  std::uint64_t r = 0, c = 0;
  if (!s.next(rows) || !s.next(cols) || !s.next(nnz) || !parse_u64(rows, r) || !parse_u64(cols, c) ||
      !parse_u64(nnz, h.entries))
    throw bad("bad size line: expected 'rows columns entries' (three non-negative integers)");
  if (s.next(extra)) throw bad("unexpected token " + quoted(extra) + " on the size line");
  if (r != c)
    throw bad("non-square matrix (" + std::to_string(r) + " rows, " + std::to_string(c) +
              " columns): a graph's adjacency matrix is square");
  check_vertex_count(path, h.size_line, r, options);
  h.vertices = r;
  return h;
}

}  // namespace

csr read_matrix_market(const std::string& path, const read_options& options) {
  text_blocks in(path, options.block_bytes, options.threads != 1);
  std::string block;
  line_cursor cur(in, block);
  const mm_header h = parse_header(cur, path, options);
  const std::uint64_t n = h.vertices;
  const mm_field field = h.field;

  const bool negative = options.negative_weights;
  auto entry = [n, field, negative](std::string_view line, chunk_state& st) -> bool {
    tokens t(line);
    std::string_view a, b, w, extra;
    if (!t.next(a) || a[0] == '%') return true;
    if (!t.next(b)) return st.fail("expected 'row column" + std::string(field == mm_field::pattern ? "'" : " value'") + ", found one token");
    std::uint64_t i = 0, j = 0;
    if (!parse_u64(a, i)) return st.fail("unparsable row index " + quoted(a));
    if (!parse_u64(b, j)) return st.fail("unparsable column index " + quoted(b));
    if (i == 0 || j == 0) return st.fail("vertex id 0: Matrix Market ids start at 1");
    if (i > n || j > n)
      return st.fail("vertex id " + std::to_string(std::max(i, j)) + " out of range 1.." + std::to_string(n));
    if (field != mm_field::pattern) {
      if (!t.next(w)) return st.fail("missing value: the banner declares weighted entries");
      if (field == mm_field::integer && negative) {
        std::uint64_t bits = 0;
        if (const char* why = parse_signed_int_weight(w, bits); *why) return st.fail_weight(why, w);
        st.wide_weight.push_back(bits);
      } else if (field == mm_field::integer) {
        std::uint32_t v = 0;
        if (const char* why = parse_int_weight(w, v); *why) return st.fail_weight(why, w);
        st.weight.push_back(v);
      } else {
        double v = 0;
        if (const char* why = parse_real_weight(w, v, negative); *why) return st.fail_weight(why, w);
        st.wide_weight.push_back(double_bits(v));
      }
    }
    if (t.next(extra)) return st.fail("unexpected token " + quoted(extra) + " after the entry");
    st.src.push_back(static_cast<vertex_t>(i - 1));
    st.dst.push_back(static_cast<vertex_t>(j - 1));
    ++st.entries;
    return true;
  };

  chunk_state data;
  const bool wide = field == mm_field::real || (field == mm_field::integer && negative);
  auto after = [&](const chunk_state& so_far) { after_block(in, options, n, so_far, h.symmetric, wide); };
  read_declared_entries(in, block, cur.offset(), cur.line_number(), h.entries, h.size_line, "entries", options.threads,
                        entry, after, data);
  text_graph t;
  t.vertices = n;
  t.kind = field == mm_field::real ? weight_kind::real : weight_kind::integer;
  t.width = wide ? weight_width::wide : weight_width::narrow;  // real: double, as the format defines it
  t.weighted = field != mm_field::pattern;
  t.symmetric = h.symmetric;
  t.format = "matrix-market";
  return build_text_graph(in, data, t, options);
}

namespace {

template <class Real>
bool same_bits(Real a, Real b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Whether every arc u -> v of g has its reverse v -> u with the same weight (bit for bit), and
// how many arcs have v <= u: the entries of the symmetric file that stands for g.
bool holds_both_directions(const csr& g, std::uint64_t& lower_entries) {
  lower_entries = 0;
  for (vertex_t u = 0; u < g.num_vertices; ++u)
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const vertex_t v = g.targets[e];
      lower_entries += v <= u;
      // Rows are sorted by target: the reverse arc is found by binary search in v's row.
      const auto row_begin = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]);
      const auto row_end = g.targets.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]);
      const auto back = std::lower_bound(row_begin, row_end, u);
      if (back == row_end || *back != u) return false;
      const auto r = static_cast<std::size_t>(back - g.targets.begin());
      const bool same = g.kind == weight_kind::integer
                            ? (g.wide() ? g.uint64_weights[r] == g.uint64_weights[e] : g.int_weights[r] == g.int_weights[e])
                            : (g.wide() ? same_bits(g.float64_weights[r], g.float64_weights[e])
                                        : same_bits(g.real_weights[r], g.real_weights[e]));
      if (!same) return false;
    }
  return true;
}

}  // namespace

// An undirected graph (origin.symmetric: a symmetric file, an undirected generator, arrays built
// as symmetric) is written as one triangle under the banner's "symmetric", so that reading it back
// marks it undirected again (csr_view::symmetric, which the GPU's heavy-arc pull needs). A graph
// so marked whose arcs do not all come in equal pairs (changed after it was built) is written
// "general", arc by arc, so that the file always reads back as the same arcs.
void write_matrix_market(const csr& g, output_file& out) {
  const bool real = g.kind == weight_kind::real;
  std::uint64_t lower_entries = 0;
  const bool symmetric = g.origin.symmetric && holds_both_directions(g, lower_entries);
  out.write(std::string("%%MatrixMarket matrix coordinate ") + (real ? "real" : "integer") +
            (symmetric ? " symmetric\n" : " general\n"));
  out.write(symmetric ? "% written by deltasplit: one 1-based 'row column weight' line per undirected edge, "
                        "row >= column\n"
                      : "% written by deltasplit: one 1-based 'source target weight' line per arc\n");
  out.write(std::to_string(g.num_vertices) + " " + std::to_string(g.num_vertices) + " " +
            std::to_string(symmetric ? lower_entries : g.num_arcs()) + "\n");
  write_arc_lines(g, out, "", 1, symmetric);
}

}  // namespace deltasplit::graph::detail
