// libFuzzer target: the Matrix Market reader on arbitrary bytes, as plain text (gzip_fuzz.cpp covers the
// compressed path). Seeds: fuzz/corpus/matrix_market/.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deltasplit_fuzz;
  read_checked(write_file("input.mtx", data, size), graph::file_format::matrix_market, size);
  return 0;
}
