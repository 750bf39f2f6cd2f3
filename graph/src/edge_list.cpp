// Edge lists in the SNAP style: "#" (or "%") comment lines, then one "u v [w]" line per arc with
// 0-based ids. The vertex count is the largest id + 1, or the "# Nodes: N" header comment when
// that is larger (SNAP files carry one; our writer does too, so isolated tail vertices survive a
// round trip). Weights are integers (uint32, or uint64 as soon as one needs more than 32 bits),
// or reals (read as doubles) as soon as one weight has a fraction or reaches 2^53 (past which
// doubles stop holding every integer, so 2^53 + 1 would read as 2^53), or when the header comment says "Weights: real" (our writer's,
// for real weights).
#include <algorithm>
#include <cmath>
#include <string>

#include "data_lines.hpp"
#include "deltasplit/graph/error.hpp"
#include "formats.hpp"
#include "line_cursor.hpp"
#include "output_file.hpp"

namespace deltasplit::graph::detail {

namespace {

bool is_comment_or_blank(std::string_view line) {
  char c = first_char(line);
  return c == 0 || c == '#' || c == '%';
}

// "# Nodes: 82168 Edges: 948464" -> 82168; false when the comment says nothing of the kind.
bool nodes_comment(std::string_view line, std::uint64_t& nodes) {
  std::size_t at = line.find("Nodes:");
  if (at == std::string_view::npos) return false;
  tokens t(line.substr(at + 6));
  std::string_view tok;
  return t.next(tok) && parse_u64(tok, nodes);
}

// "# Nodes: 4 Edges: 3 Weights: real" (what our writer puts): true when the comment declares real
// weights, which keeps a real-weighted graph real through a round trip even when every weight
// happens to be integral, or when it has no arcs at all.
bool real_weights_comment(std::string_view line) {
  std::size_t at = line.find("Weights:");
  if (at == std::string_view::npos) return false;
  tokens t(line.substr(at + 8));
  std::string_view tok;
  return t.next(tok) && ascii_lower(tok) == "real";
}

// Integer weights below 2^53 stay integers: below it the double that holds a parsed weight is the
// integer itself, and no larger integer rounds down into the range.
constexpr double integral_weight_limit = 9007199254740992.0;

// A weight token as the nearest double: integers digit by digit (exact up to 2^53), anything else
// rounded once; negative ones only when allowed.
const char* parse_weight(std::string_view tok, double& value, bool negative_allowed) {
  std::uint64_t i = 0;
  if (parse_u64(tok, i)) {
    value = static_cast<double>(i);
    return "";
  }
  return parse_real_weight(tok, value, negative_allowed);
}

}  // namespace

csr read_edge_list(const std::string& path, const read_options& options) {
  text_blocks in(path, options.block_bytes, options.threads != 1);
  std::string block;
  line_cursor cur(in, block);

  std::uint64_t header_nodes = 0;
  bool declared_real = false;
  std::string_view line;
  std::size_t data_offset = 0;
  std::uint64_t data_line_base = 0;
  bool any_line = false;
  for (;;) {
    if (!cur.next(line)) {
      data_offset = cur.offset();
      data_line_base = cur.line_number();
      break;
    }
    any_line = true;
    if (!is_comment_or_blank(line)) {
      data_offset = cur.line_start();  // the first data line is parsed with the others
      data_line_base = cur.line_number() - 1;
      break;
    }
    std::uint64_t nodes = 0;
    if (nodes_comment(line, nodes)) header_nodes = std::max(header_nodes, nodes);
    declared_real = declared_real || real_weights_comment(line);
  }
  if (!any_line) throw input_error(path, 0, "empty file");
  check_vertex_count(path, data_line_base, header_nodes, options);

  const bool negative = options.negative_weights;
  auto arc = [negative](std::string_view text, chunk_state& st) -> bool {
    tokens t(text);
    std::string_view a, b, w, extra;
    if (!t.next(a) || a[0] == '#' || a[0] == '%') return true;
    if (!t.next(b)) return st.fail("expected 'source target [weight]', found one token");
    std::uint64_t u = 0, v = 0;
    if (!parse_u64(a, u)) return st.fail("unparsable vertex id " + quoted(a));
    if (!parse_u64(b, v)) return st.fail("unparsable vertex id " + quoted(b));
    if (std::max(u, v) >= max_vertices)
      return st.fail("vertex id " + std::to_string(std::max(u, v)) + " exceeds the limit of " +
                     std::to_string(max_vertices - 1) + " (vertex ids are 32-bit)");
    unsigned columns = 2;
    if (t.next(w)) {
      columns = 3;
      double value = 0;
      if (const char* why = parse_weight(w, value, negative); *why) return st.fail_weight(why, w);
      st.value.push_back(value);
    }
    if (t.next(extra)) return st.fail("unexpected token " + quoted(extra) + " after 'source target weight'");
    if (!st.columns) {
      st.columns = columns;
      st.columns_line = st.lines;
    } else if (columns != st.columns) {
      return st.fail(std::to_string(columns) + " columns where an earlier line has " + std::to_string(st.columns));
    }
    st.src.push_back(static_cast<vertex_t>(u));
    st.dst.push_back(static_cast<vertex_t>(v));
    st.max_id = std::max(st.max_id, std::max(u, v));
    ++st.entries;
    return true;
  };

  chunk_state data;
  // Reals are the costlier guess while the weights' kind is still open.
  auto after = [&](const chunk_state& so_far) {
    after_block(in, options, std::max(header_nodes, so_far.entries ? so_far.max_id + 1 : 0), so_far, false,
                !so_far.value.empty());
  };
  read_data_lines(in, block, data_offset, data_line_base, ~std::uint64_t{0}, std::string(), options.threads, arc,
                  after, data);

  text_graph t;
  t.vertices = std::max(header_nodes, data.entries ? data.max_id + 1 : 0);
  check_vertex_count(path, 0, t.vertices, options);
  // Declared real weights and no data line: a real-weighted graph without arcs.
  t.weighted = data.columns == 3 || (declared_real && data.entries == 0);
  t.one_based = false;
  t.format = "edge-list";
  if (t.weighted) {
    const bool integral = !declared_real && std::all_of(data.value.begin(), data.value.end(), [](double x) {
      return x == std::floor(x) && std::fabs(x) < integral_weight_limit;
    });
    // Signed graphs are wide (negative_weights: int64 or double weights).
    const bool narrow = integral && !negative && std::all_of(data.value.begin(), data.value.end(), [](double x) {
      return x <= 4294967295.0;
    });
    t.kind = integral ? weight_kind::integer : weight_kind::real;
    t.width = narrow ? weight_width::narrow : weight_width::wide;
    if (narrow) {
      data.weight.resize(data.value.size());
      for (std::size_t i = 0; i < data.value.size(); ++i) data.weight[i] = static_cast<std::uint32_t>(data.value[i]);
    } else {
      data.wide_weight.resize(data.value.size());
      for (std::size_t i = 0; i < data.value.size(); ++i)
        data.wide_weight[i] = integral ? static_cast<std::uint64_t>(static_cast<std::int64_t>(data.value[i]))
                                       : double_bits(data.value[i]);
    }
    std::vector<double>().swap(data.value);
  }
  return build_text_graph(in, data, t, options);
}

void write_edge_list(const csr& g, output_file& out) {
  out.write("# written by deltasplit: 0-based 'source target weight' lines\n");
  out.write("# Nodes: " + std::to_string(g.num_vertices) + " Edges: " + std::to_string(g.num_arcs()) +
            " Weights: " + (g.kind == weight_kind::real ? "real" : "integer") + "\n");
  write_arc_lines(g, out, "", 0);
}

}  // namespace deltasplit::graph::detail
