// libFuzzer target: the edge-list reader on arbitrary bytes, as plain text (gzip_fuzz.cpp covers the
// compressed path). Seeds: fuzz/corpus/edge_list/.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deltasplit_fuzz;
  read_checked(write_file("input.edges", data, size), graph::file_format::edge_list, size);
  return 0;
}
