// Progress of long generation, loading and conversion on standard error, only when it is a
// terminal: one line rewritten in place ("loading g.mtx: reading 45%") and cleared at the end.
// When standard error is a file or a pipe nothing is written, so logs and scripts see results only.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

#include "deltasplit/graph/progress.hpp"

namespace deltasplit::cli {

class progress_meter {
 public:
  // Shows progress on std::cerr when standard error is a terminal.
  explicit progress_meter(std::string what);
  // Shows progress on `os` when `enabled` (tests).
  progress_meter(std::string what, std::ostream& os, bool enabled);
  ~progress_meter();  // clears the line
  progress_meter(const progress_meter&) = delete;
  progress_meter& operator=(const progress_meter&) = delete;

  // The callback for read_options, write_options and generator parameters; empty when disabled.
  graph::progress_fn callback();

 private:
  void show(const char* stage, std::uint64_t done, std::uint64_t total);

  std::string what_;
  std::ostream& os_;
  bool enabled_;
  bool shown_ = false;
  std::string stage_;
  unsigned percent_ = 0;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace deltasplit::cli
