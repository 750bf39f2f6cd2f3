// Locates the project's bundled graphs for tests: $DELTASPLIT_DATASETS, then ./datasets
// (tests run from the repository root on the GPU machine), then the source tree's datasets/.
#pragma once

#include <cstdlib>
#include <string>
#include <sys/stat.h>

namespace deltasplit_test {

inline bool file_exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

inline std::string dataset_path(const std::string& name) {
  if (const char* env = std::getenv("DELTASPLIT_DATASETS")) {
    std::string p = std::string(env) + "/" + name;
    if (file_exists(p)) return p;
  }
  if (file_exists("datasets/" + name)) return "datasets/" + name;
#ifdef DELTASPLIT_SOURCE_DIR
  std::string p = std::string(DELTASPLIT_SOURCE_DIR) + "/datasets/" + name;
  if (file_exists(p)) return p;
#endif
  return "datasets/" + name;
}

}  // namespace deltasplit_test
