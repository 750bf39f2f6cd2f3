// DIMACS shortest-path files (.gr, 9th DIMACS Implementation Challenge): "c" comment lines, one
// problem line "p sp <vertices> <arcs>", then one "a <from> <to> <weight>" line per arc, ids
// 1-based, weights non-negative integers.
#include <string>

#include "csr_builder.hpp"
#include "data_lines.hpp"
#include "deltasplit/graph/error.hpp"
#include "formats.hpp"
#include "line_cursor.hpp"
#include "output_file.hpp"

namespace deltasplit::graph::detail {

namespace {

// The line's type character, or 0 for a blank line.
char line_type(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  return i == std::string_view::npos ? 0 : line[i];
}

struct problem {
  std::uint64_t vertices = 0, arcs = 0, line = 0;
};

problem parse_problem_line(line_cursor& cur, const std::string& path) {
  std::string_view line;
  bool any = false;
  for (;;) {
    if (!cur.next(line)) {
      if (!any) throw input_error(path, 0, "empty file");
      throw input_error(path, cur.line_number(), "missing problem line 'p sp <vertices> <arcs>'");
    }
    any = true;
    char type = line_type(line);
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
    if (pr.vertices > max_vertices)
      throw bad(std::to_string(pr.vertices) + " vertices exceed the limit of " + std::to_string(max_vertices) +
                " (vertex ids are 32-bit)");
    check_vertex_memory(path, pr.line, pr.vertices);
    return pr;
  }
}

}  // namespace

csr read_dimacs(const std::string& path, const read_options& options) {
  text_blocks in(path, options.block_bytes, options.threads != 1);
  std::string block;
  line_cursor cur(in, block);
  const problem pr = parse_problem_line(cur, path);
  const std::uint64_t n = pr.vertices;

  auto arc = [n](std::string_view line, chunk_state& st) -> bool {
    char type = line_type(line);
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
    if (const char* why = parse_int_weight(w, weight); *why) return st.fail(std::string(why) + " " + quoted(w));
    if (t.next(extra)) return st.fail("unexpected token " + quoted(extra) + " after the arc");
    st.src.push_back(static_cast<vertex_t>(from - 1));
    st.dst.push_back(static_cast<vertex_t>(to - 1));
    st.weight.push_back(weight);
    ++st.entries;
    return true;
  };

  chunk_state data;
  const std::string excess =
      "more arcs than the " + std::to_string(pr.arcs) + " declared on line " + std::to_string(pr.line);
  read_data_lines(in, block, cur.offset(), cur.line_number(), pr.arcs, excess, options.threads, arc, data);
  if (data.entries < pr.arcs)
    throw input_error(path, data.lines,
                      "truncated file: " + std::to_string(pr.arcs) + " arcs declared on line " +
                          std::to_string(pr.line) + ", " + std::to_string(data.entries) + " found");

  arc_list arcs;
  arcs.num_vertices = static_cast<vertex_t>(n);
  arcs.src = std::move(data.src);
  arcs.dst = std::move(data.dst);
  arcs.weight = std::move(data.weight);
  arcs.kind = weight_kind::integer;
  provenance origin = text_provenance(in, "dimacs", data.entries);
  origin.one_based = true;
  csr g = build_csr(std::move(arcs), std::move(origin), options.threads);
  finish_weights(g, true, options);
  return g;
}

void write_dimacs(const csr& g, output_file& out) {
  out.write("c written by deltasplit\n");
  out.write("p sp " + std::to_string(g.num_vertices) + " " + std::to_string(g.num_arcs()) + "\n");
  write_arc_lines(g, out, "a ", 1);
}

}  // namespace deltasplit::graph::detail
