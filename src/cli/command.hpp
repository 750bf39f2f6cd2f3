// The sub-commands of the deltasplit program and what they share: exit codes and the error for a
// bad command line. Each command parses its own options and returns an exit code; errors are
// exceptions, reported once by main().
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace deltasplit::cli {

enum exit_code : int {
  exit_success = 0,
  exit_failure = 1,   // unreadable or malformed input, I/O error, no usable GPU, overflow
  exit_usage = 2,     // bad command line (unknown option, bad value, source out of range)
  exit_mismatch = 3,  // --validate or compare found a result that differs from Dijkstra
};

class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using arguments = std::vector<std::string>;

int run_info(const arguments& args);
int run_convert(const arguments& args);
int run_generate(const arguments& args);
int run_sssp(const arguments& args);
int run_compare(const arguments& args);

}  // namespace deltasplit::cli
