// libFuzzer target: gzip-compressed graph files, read with format detection. The first byte
// chooses what the rest is: bit 0 clear, the raw bytes of a .gz file (damaged, truncated or
// foreign streams); bit 0 set, text compressed here, as one gzip member or (bit 1) as two
// concatenated ones, under the name of format (bits 2-3): .mtx.gz, .gr.gz, .edges.gz or .gz.
// Seeds: fuzz/corpus/gzip/.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <zlib.h>

#include "fuzz_support.hpp"

namespace {

void deflate_member(const std::uint8_t* data, std::size_t size, int level, std::vector<unsigned char>& out) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    deltasplit_fuzz::finding("deflateInit2 failed");
  std::size_t at = out.size();
  out.resize(at + deflateBound(&z, static_cast<uLong>(size)) + 32);
  z.next_in = const_cast<std::uint8_t*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data() + at;
  z.avail_out = static_cast<uInt>(out.size() - at);
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) deltasplit_fuzz::finding("deflate did not finish");
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deltasplit_fuzz;
  if (size == 0) return 0;
  const unsigned mode = data[0];
  ++data;
  --size;
  static const char* const names[] = {"input.mtx.gz", "input.gr.gz", "input.edges.gz", "input.gz"};
  const char* name = names[(mode >> 2) & 3u];
  if ((mode & 1u) == 0) {
    read_checked(write_file(name, data, size), graph::file_format::automatic, size);
    return 0;
  }
  std::vector<unsigned char> packed;
  const int level = static_cast<int>((mode >> 4) % 10);
  if (mode & 2u) {
    deflate_member(data, size / 2, level, packed);
    deflate_member(data + size / 2, size - size / 2, level, packed);
  } else {
    deflate_member(data, size, level, packed);
  }
  read_checked(write_file(name, packed.data(), packed.size()), graph::file_format::automatic, size);
  return 0;
}
