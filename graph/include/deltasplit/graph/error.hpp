// The graph layer's exception: every malformed input names its file and line.
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

// A negative weight in a file read without read_options::negative_weights (the same message as
// any input_error): a caller that can solve with negative weights reads the file again with it.
class negative_weight_error : public input_error {
 public:
  using input_error::input_error;
};

}  // namespace deltasplit::graph
