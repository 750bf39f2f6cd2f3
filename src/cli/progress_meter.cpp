// Progress on a terminal (see progress_meter.hpp).
#include "cli/progress_meter.hpp"

#include <iostream>

#include <unistd.h>

namespace deltasplit::cli {

namespace {
// Redraws at most this often (a stage's start and end are always drawn): fast enough to look
// alive, rare enough to cost nothing next to reading hundreds of MB per second.
constexpr std::chrono::milliseconds redraw_interval{200};
}  // namespace

progress_meter::progress_meter(std::string what) : progress_meter(std::move(what), std::cerr, ::isatty(STDERR_FILENO) == 1) {}

progress_meter::progress_meter(std::string what, std::ostream& os, bool enabled)
    : what_(std::move(what)), os_(os), enabled_(enabled) {}

progress_meter::~progress_meter() {
  if (shown_) os_ << "\r\x1b[K" << std::flush;  // erase the line: what follows starts clean
}

graph::progress_fn progress_meter::callback() {
  if (!enabled_) return {};
  return [this](const char* stage, std::uint64_t done, std::uint64_t total) { show(stage, done, total); };
}

void progress_meter::show(const char* stage, std::uint64_t done, std::uint64_t total) {
  const auto now = std::chrono::steady_clock::now();
  const bool new_stage = stage_ != stage;
  const unsigned percent = total ? static_cast<unsigned>(static_cast<double>(done) * 100.0 / static_cast<double>(total)) : 100;
  if (!new_stage && (percent == percent_ || (done != total && now - last_ < redraw_interval))) return;
  last_ = now;
  stage_ = stage;
  percent_ = percent;
  os_ << "\r" << what_ << ": " << stage << " " << percent << "%\x1b[K" << std::flush;
  shown_ = true;
}

}  // namespace deltasplit::cli
