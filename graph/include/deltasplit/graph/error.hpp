// The one exception type of the graph layer: every malformed input names its file and line.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace deltasplit::graph {

class input_error : public std::runtime_error {
 public:
  // line 0 means "the file as a whole" (empty file, corrupt gzip stream, bad cache header).
  input_error(std::string file, std::uint64_t line, const std::string& what)
      : std::runtime_error(file + (line ? ":" + std::to_string(line) : std::string()) + ": " + what),
        file_(std::move(file)), line_(line) {}
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }

 private:
  std::string file_;
  std::uint64_t line_;
};

}  // namespace deltasplit::graph
