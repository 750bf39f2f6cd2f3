// Sequential access to the header lines of a text graph file (banner, comments, size or
// problem line), fetching further blocks as needed; the data lines after them are then parsed
// in parallel from offset() on (data_lines.hpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "text_blocks.hpp"

namespace deltasplit::graph::detail {

class line_cursor {
 public:
  line_cursor(text_blocks& in, std::string& block) : in_(in), block_(block) {}

  // The next line without its "\n" / "\r\n"; false at the end of the file.
  bool next(std::string_view& line) {
    if (pos_ == block_.size()) {
      if (!in_.next(block_)) return false;
      pos_ = 0;
    }
    start_ = pos_;
    const char* p = block_.data() + pos_;
    std::size_t left = block_.size() - pos_;
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', left));
    std::size_t len = nl ? static_cast<std::size_t>(nl - p) : left;
    pos_ += nl ? len + 1 : len;
    if (len && p[len - 1] == '\r') --len;
    line = std::string_view(p, len);
    ++line_;
    return true;
  }
  std::size_t offset() const { return pos_; }          // where the next line starts
  std::size_t line_start() const { return start_; }   // where the line last returned starts
  std::uint64_t line_number() const { return line_; }  // of the line last returned

 private:
  text_blocks& in_;
  std::string& block_;
  std::size_t pos_ = 0;
  std::size_t start_ = 0;
  std::uint64_t line_ = 0;
};

}  // namespace deltasplit::graph::detail
