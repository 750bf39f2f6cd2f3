// Safe text output files (see text_output.hpp).
#include "cli/text_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "cli/command.hpp"

namespace deltasplit::cli {

namespace fs = std::filesystem;

text_output::text_output(const std::string& path, bool force, const std::string& input_graph, const char* flag)
    : path_(path) {
  if (to_stdout()) return;
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (fs::equivalent(path, input_graph, ec))
      throw usage_error(std::string("--") + flag + " " + path + ": refusing to overwrite the input graph");
    if (!force) throw usage_error(std::string("--") + flag + " " + path + ": file exists (use --force to replace it)");
    if (fs::is_directory(path, ec)) throw usage_error(std::string("--") + flag + " " + path + ": is a directory");
  }
  temp_ = path + ".tmp." + std::to_string(::getpid());
  file_.open(temp_, std::ios::out | std::ios::trunc);
  if (!file_) throw std::runtime_error(path + ": cannot create (" + std::strerror(errno) + ")");
}

text_output::~text_output() {
  if (!to_stdout() && !committed_) {
    file_.close();
    std::remove(temp_.c_str());
  }
}

std::ostream& text_output::stream() { return to_stdout() ? std::cout : file_; }

void text_output::commit() {
  if (to_stdout()) {
    std::cout.flush();
    if (!std::cout) throw std::runtime_error("writing to standard output failed");
    return;
  }
  file_.close();
  if (!file_) throw std::runtime_error(path_ + ": write failed (disk full?)");
  if (std::rename(temp_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error(path_ + ": cannot move into place (" + std::strerror(errno) + ")");
  committed_ = true;
}

}  // namespace deltasplit::cli
