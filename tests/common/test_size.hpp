// The size of a test run. DELTASPLIT_TEST_SIZE=small asks the GPU tests for their edge cases and
// tile boundaries without the large inputs, so that a run under compute-sanitizer (10-100x
// slower) stays within minutes (tests/check_gpu.sh). Read by tests only, never by the library.
#pragma once

#include <cstdlib>
#include <cstring>

namespace deltasplit_test {

inline bool small_run() {
  const char* size = std::getenv("DELTASPLIT_TEST_SIZE");
  return size != nullptr && std::strcmp(size, "small") == 0;
}

}  // namespace deltasplit_test
