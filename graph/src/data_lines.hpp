// Parallel parsing of the data lines of a text graph file. A block of whole lines is cut into
// line-aligned chunks, one thread parses each into its own arc list, and the chunks are joined
// in file order, so errors are reported at the first bad line of the file, exactly as a
// sequential parser would, with the absolute line number.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/error.hpp"
#include "csr_builder.hpp"
#include "text_blocks.hpp"

namespace deltasplit::graph::detail {

// Whitespace-separated tokens of one line.
class tokens {
 public:
  explicit tokens(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}
  bool next(std::string_view& tok) {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t')) ++p_;
    if (p_ == end_) return false;
    const char* start = p_;
    while (p_ != end_ && *p_ != ' ' && *p_ != '\t') ++p_;
    tok = std::string_view(start, static_cast<std::size_t>(p_ - start));
    return true;
  }

 private:
  const char* p_;
  const char* end_;
};

// The first non-blank character of a line (its type in DIMACS, '%' or '#' for comments), or 0
// for a blank line.
inline char first_char(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  return i == std::string_view::npos ? 0 : line[i];
}

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// A token as it may appear in a message: quoted and cut short.
inline std::string quoted(std::string_view tok) {
  constexpr std::size_t shown = 40;
  return "'" + std::string(tok.substr(0, shown)) + (tok.size() > shown ? "...'" : "'");
}

// An unsigned decimal integer, the whole token (no sign, no fraction, no trailing junk).
inline bool parse_u64(std::string_view tok, std::uint64_t& v) {
  auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  return r.ec == std::errc() && r.ptr == tok.data() + tok.size();
}

// The reason the parsers give for a negative weight (one object, so that a caller can tell it
// apart: chunk_state::fail_weight).
inline constexpr char negative_weight[] = "negative weight";

// A real weight, read as the nearest double (Matrix Market `real` is double precision): finite,
// and non-negative unless negative ones are allowed. Returns "" or what is wrong.
inline const char* parse_real_weight(std::string_view tok, double& v, bool negative_allowed = false) {
  if (!tok.empty() && tok[0] == '+') tok.remove_prefix(1);
  auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (r.ptr != tok.data() + tok.size() || r.ec == std::errc::invalid_argument) return "unparsable weight";
  if (r.ec == std::errc::result_out_of_range) return "weight outside the range of a double";
  if (std::isnan(v)) return "NaN weight";
  if (std::isinf(v)) return "infinite weight";
  if (v < 0 && !negative_allowed) return negative_weight;
  v += 0.0;  // -0 becomes +0, so the bit patterns of weights order like their values
  return "";
}

// An integer weight: a non-negative decimal that fits 32 bits. Returns "" or what is wrong.
inline const char* parse_int_weight(std::string_view tok, std::uint32_t& w) {
  std::uint64_t v = 0;
  if (!tok.empty() && tok[0] == '-') return negative_weight;
  if (!parse_u64(tok, v)) {
    auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (r.ec == std::errc::result_out_of_range) return "weight does not fit 32 bits";
    return "unparsable integer weight";
  }
  if (v > 0xffffffffULL) return "weight does not fit 32 bits";
  w = static_cast<std::uint32_t>(v);
  return "";
}

// An integer weight where negative ones are allowed: a decimal that fits 64 bits signed, stored
// as its bits. Returns "" or what is wrong.
inline const char* parse_signed_int_weight(std::string_view tok, std::uint64_t& bits) {
  if (!tok.empty() && tok[0] == '+') tok.remove_prefix(1);
  std::int64_t v = 0;
  auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (r.ec == std::errc::result_out_of_range) return "weight does not fit 64 bits";
  if (r.ec != std::errc() || r.ptr != tok.data() + tok.size()) return "unparsable integer weight";
  bits = static_cast<std::uint64_t>(v);
  return "";
}

inline std::uint64_t double_bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// Arcs parsed from part of a file, in file order.
struct chunk_state {
  std::vector<vertex_t> src, dst;
  std::vector<std::uint32_t> weight;  // integer weights
  std::vector<std::uint64_t> wide_weight;  // the bits of double weights, or uint64 weights
  std::vector<double> value;          // edge lists: weights before their kind is known
  std::uint64_t lines = 0;            // lines consumed (including the failing one)
  std::uint64_t entries = 0;          // data lines
  bool failed = false;
  bool negative = false;              // failed at a negative weight (negative_weight_error)
  std::string error;
  std::uint64_t max_id = 0;           // edge lists: the largest vertex id seen
  unsigned columns = 0;               // edge lists: tokens on the first data line
  std::uint64_t columns_line = 0;     // ... and that line (chunk-relative)

  void reset() {
    src.clear();
    dst.clear();
    weight.clear();
    wide_weight.clear();
    value.clear();
    lines = entries = max_id = columns_line = 0;
    columns = 0;
    failed = negative = false;
    error.clear();
  }
  bool fail(std::string why) {
    failed = true;
    error = std::move(why);
    return false;
  }
  // A weight token that did not parse: `why` (a parser's reason) and the token.
  bool fail_weight(const char* why, std::string_view tok) {
    negative = why == negative_weight;
    return fail(std::string(why) + " " + quoted(tok));
  }
};

// The error of a chunk that failed at `line`: a negative_weight_error for a negative weight.
[[noreturn]] inline void throw_failure(const std::string& path, std::uint64_t line, const chunk_state& st) {
  if (st.negative) throw negative_weight_error(path, line, st.error);
  throw input_error(path, line, st.error);
}

// fn(line, state) -> false (after state.fail) stops at that line. Lines exclude "\n" and "\r".
template <class LineFn>
void parse_lines(std::string_view text, chunk_state& st, LineFn& fn) {
  const char* p = text.data();
  const char* end = p + text.size();
  while (p != end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* stop = nl ? nl : end;
    std::size_t len = static_cast<std::size_t>(stop - p);
    if (len && p[len - 1] == '\r') --len;
    ++st.lines;
    if (!fn(std::string_view(p, len), st)) return;
    p = nl ? nl + 1 : end;
  }
}

inline unsigned parser_threads(unsigned requested, std::size_t bytes) {
  unsigned hw = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  std::size_t by_size = bytes / (std::size_t{64} << 10) + 1;  // chunks of at least 64 KiB
  return static_cast<unsigned>(std::min<std::size_t>(hw, by_size));
}

template <class T>
void append(std::vector<T>& to, std::vector<T>& from) {
  if (to.empty())
    to.swap(from);
  else
    to.insert(to.end(), from.begin(), from.end());
}

// Reads every remaining data line (those in `block` from `offset` on, then the rest of the file)
// into `out`, in file order. `line_base` is the number of lines before `offset`. At most `limit`
// entries are allowed; the first one past it is reported with the message `excess`.
// after(out) runs once each block is joined (the memory check and progress of formats.hpp).
// Afterwards out.lines is the file's line count and out.entries the data lines read.
template <class LineFn, class AfterBlock>
void read_data_lines(text_blocks& in, std::string& block, std::size_t offset, std::uint64_t line_base,
                     std::uint64_t limit, const std::string& excess, unsigned threads, LineFn fn, AfterBlock after,
                     chunk_state& out) {
  std::vector<chunk_state> chunks;
  std::vector<std::string_view> pieces;
  std::vector<std::exception_ptr> failures;
  out.lines = line_base;
  for (bool more = true; more; offset = 0, more = in.next(block)) {
    std::string_view text(block);
    text.remove_prefix(std::min(offset, text.size()));
    if (text.empty()) continue;
    unsigned t = parser_threads(threads, text.size());
    pieces.clear();
    for (unsigned i = 0; i < t && !text.empty(); ++i) {
      std::size_t cut = text.size();
      if (i + 1 < t) {
        std::size_t nl = text.find('\n', text.size() / (t - i));
        cut = nl == std::string_view::npos ? text.size() : nl + 1;
      }
      pieces.push_back(text.substr(0, cut));
      text.remove_prefix(cut);
    }
    chunks.resize(pieces.size());
    failures.assign(pieces.size(), nullptr);
    std::vector<std::thread> workers;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      chunks[i].reset();
      // A data line takes at least 4 bytes ("1 2\n"): room for every entry the chunk can hold,
      // sized by the text actually read, never by a header's claim. Untouched capacity costs
      // address space, not memory.
      std::size_t most = pieces[i].size() / 4 + 1;
      chunks[i].src.reserve(most);
      chunks[i].dst.reserve(most);
      // Out of memory in a chunk must reach the caller as an exception, not terminate a thread.
      auto work = [&fn, &st = chunks[i], &failure = failures[i], piece = pieces[i]] {
        try {
          parse_lines(piece, st, fn);
        } catch (...) {
          failure = std::current_exception();
        }
      };
      if (i + 1 == pieces.size())
        work();
      else
        start_or_run(workers, work);
    }
    for (auto& w : workers) w.join();
    for (const std::exception_ptr& failure : failures)
      if (failure) std::rethrow_exception(failure);

    for (std::size_t i = 0; i < pieces.size(); ++i) {
      chunk_state& st = chunks[i];
      if (st.entries > limit - out.entries) {
        // Too many entries: find the first surplus line by parsing this chunk again.
        std::uint64_t allowed = limit - out.entries;
        chunk_state probe;
        auto counted = [&fn, allowed, &excess](std::string_view line, chunk_state& s) {
          if (!fn(line, s)) return false;
          return s.entries > allowed ? s.fail(excess) : true;
        };
        parse_lines(pieces[i], probe, counted);
        throw_failure(in.path(), out.lines + probe.lines, probe);
      }
      if (st.failed) throw_failure(in.path(), out.lines + st.lines, st);
      if (st.columns) {
        if (!out.columns) {
          out.columns = st.columns;
          out.columns_line = out.lines + st.columns_line;
        } else if (st.columns != out.columns) {
          throw input_error(in.path(), out.lines + st.columns_line,
                            std::to_string(st.columns) + " columns where line " + std::to_string(out.columns_line) +
                                " has " + std::to_string(out.columns));
        }
      }
      out.lines += st.lines;
      out.entries += st.entries;
      out.max_id = std::max(out.max_id, st.max_id);
      append(out.src, st.src);
      append(out.dst, st.dst);
      append(out.weight, st.weight);
      append(out.wide_weight, st.wide_weight);
      append(out.value, st.value);
    }
    after(out);
  }
}

// read_data_lines for formats whose header declares the entry count (Matrix Market size line,
// DIMACS problem line): more entries than declared, or fewer, is an error. `noun` names them.
template <class LineFn, class AfterBlock>
void read_declared_entries(text_blocks& in, std::string& block, std::size_t offset, std::uint64_t line_base,
                           std::uint64_t declared, std::uint64_t declared_line, const char* noun, unsigned threads,
                           LineFn fn, AfterBlock after, chunk_state& out) {
  const std::string where = " declared on line " + std::to_string(declared_line);
  read_data_lines(in, block, offset, line_base, declared,
                  "more " + std::string(noun) + " than the " + std::to_string(declared) + where, threads, fn, after,
                  out);
  if (out.entries < declared)
    throw input_error(in.path(), out.lines,
                      "truncated file: " + std::to_string(declared) + " " + noun + where + ", " +
                          std::to_string(out.entries) + " found");
}

}  // namespace deltasplit::graph::detail
