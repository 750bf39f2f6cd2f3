// DIMACS shortest-path files (.gr, 9th DIMACS Implementation Challenge): "c" comment lines, one
// problem line "p sp <vertices> <arcs>", then one "a <from> <to> <weight>" line per arc, ids
// 1-based, weights non-negative integers.
#include <string>

#include "data_lines.hpp"
#include "deltasplit/graph/error.hpp"
#include "formats.hpp"
#include "line_cursor.hpp"
#include "output_file.hpp"

namespace deltasplit::graph::detail {

namespace {

struct problem {
  std::uint64_t vertices = 0, arcs = 0, line = 0;
};

problem parse_problem_line(line_cursor& cur, const std::string& path, const read_options& options) {
  std::string_view line;
  bool any = false;
  for (;;) {
    if (!cur.next(line)) {
      if (!any) throw input_error(path, 0, "empty file");
      throw input_error(path, cur.line_number(), "missing problem line 'p sp <vertices> <arcs>'");
    }
    any = true;
    char type = first_char(line);
    if (type == 0 || type == 'c') continue;
    auto bad = [&](const std::string& why) { return input_error(path, cur.line_number(), why); };
    if (type == 'a') throw bad("arc line before the problem line 'p sp <vertices> <arcs>'");
    if (type != 'p') throw bad("unexpected line before the problem line 'p sp <vertices> <arcs>'");
    tokens t(line);
    std::string_view p, sp, n, m, extra;
    problem pr;
    pr.line = cur.line_number();
    if (!t.next(p) || p != "p" || !t.next(sp)) throw bad("bad problem line: expected 'p sp <vertices> <arcs>'");
    if (sp != "sp") throw bad("unsupported DIMACS problem " + quoted(sp) + " (only shortest paths, 'sp')");
    if (!t.next(n) || !t.next(m) || !parse_u64(n, pr.vertices) || !parse_u64(m, pr.arcs))
      throw bad("bad problem line: expected 'p sp <vertices> <arcs>' (non-negative integers)");
    if (t.next(extra)) throw bad("unexpected token " + quoted(extra) + " on the problem line");
    check_vertex_count(path, pr.line, pr.vertices, options);
    return pr;
  }
}

}  // namespace

csr read_dimacs(const std::string& path, const read_options& options) {
  text_blocks in(path, options.block_bytes, options.threads != 1);
  std::string block;
  line_cursor cur(in, block);
  const problem pr = parse_problem_line(cur, path, options);
  const std::uint64_t n = pr.vertices;

  const bool negative = options.negative_weights;  // int64 weights, wide
  auto arc = [n, negative](std::string_view line, chunk_state& st) -> bool {
    char type = first_char(line);
    if (type == 0 || type == 'c') return true;
    if (type == 'p') return st.fail("second problem line");
    if (type != 'a') return st.fail("unknown line type " + quoted(line.substr(0, 1)) + " (expected 'a' or 'c')");
    tokens t(line);
    std::string_view a, u, v, w, extra;
    t.next(a);
    if (a != "a") return st.fail("unknown line type " + quoted(a) + " (expected 'a' or 'c')");
    if (!t.next(u) || !t.next(v) || !t.next(w)) return st.fail("incomplete arc line: expected 'a <from> <to> <weight>'");
    std::uint64_t from = 0, to = 0;
    if (!parse_u64(u, from)) return st.fail("unparsable vertex id " + quoted(u));
    if (!parse_u64(v, to)) return st.fail("unparsable vertex id " + quoted(v));
    if (from == 0 || to == 0) return st.fail("vertex id 0: DIMACS ids start at 1");
    if (from > n || to > n)
      return st.fail("vertex id " + std::to_string(std::max(from, to)) + " out of range 1.." + std::to_string(n));
    std::uint32_t weight = 0;
    std::uint64_t bits = 0;
    if (const char* why = negative ? parse_signed_int_weight(w, bits) : parse_int_weight(w, weight); *why)
      return st.fail_weight(why, w);
    if (t.next(extra)) return st.fail("unexpected token " + quoted(extra) + " after the arc");
    st.src.push_back(static_cast<vertex_t>(from - 1));
    st.dst.push_back(static_cast<vertex_t>(to - 1));
    if (negative)
      st.wide_weight.push_back(bits);
    else
      st.weight.push_back(weight);
    ++st.entries;
    return true;
  };

  chunk_state data;
  auto after = [&](const chunk_state& so_far) { after_block(in, options, n, so_far, false, negative); };
  read_declared_entries(in, block, cur.offset(), cur.line_number(), pr.arcs, pr.line, "arcs", options.threads, arc,
                        after, data);
  text_graph t;
  t.vertices = n;
  t.weighted = true;
  t.width = negative ? weight_width::wide : weight_width::narrow;
  t.format = "dimacs";
  return build_text_graph(in, data, t, options);
}

void write_dimacs(const csr& g, output_file& out) {
  out.write("c written by deltasplit\n");
  out.write("p sp " + std::to_string(g.num_vertices) + " " + std::to_string(g.num_arcs()) + "\n");
  write_arc_lines(g, out, "a ", 1);
}

}  // namespace deltasplit::graph::detail
