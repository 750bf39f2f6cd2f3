// libFuzzer target: the DIMACS .gr reader on arbitrary bytes, as plain text (gzip_fuzz.cpp covers the
// compressed path). Seeds: fuzz/corpus/dimacs/.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deltasplit_fuzz;
  read_checked(write_file("input.gr", data, size), graph::file_format::dimacs, size);
  return 0;
}
