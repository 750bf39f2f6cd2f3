// libFuzzer target: the binary CSR cache reader. The first byte chooses the mode; the rest is
// the cache. Bit 0 set: the header and payload checksums are recomputed before reading, so the
// fuzzer gets past them to the size, source and payload checks (a cache is only as safe as
// those: anyone can write a valid checksum). Bit 1 set: the format is detected, not named.
// Seeds: fuzz/corpus/binary_cache/.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "content_hash.hpp"
#include "fuzz_support.hpp"

namespace {

// The cache header (graph/src/binary_cache.cpp): 8 magic bytes and 19 64-bit fields, the last
// three the source path's length, the payload hash and the header hash.
constexpr std::size_t header_bytes = 8 + 19 * 8;
constexpr std::size_t path_length_at = 8 + 16 * 8, payload_hash_at = 8 + 17 * 8, header_hash_at = 8 + 18 * 8;

void fix_checksums(std::vector<unsigned char>& cache) {
  if (cache.size() < header_bytes) return;
  std::uint64_t path_bytes = 0;
  std::memcpy(&path_bytes, cache.data() + path_length_at, 8);
  if (path_bytes > cache.size() - header_bytes) return;
  const std::size_t payload_at = header_bytes + static_cast<std::size_t>(path_bytes);
  deltasplit::graph::detail::content_hash payload;
  payload.update(cache.data() + payload_at, cache.size() - payload_at);
  std::uint64_t digest = payload.digest();
  std::memcpy(cache.data() + payload_hash_at, &digest, 8);
  deltasplit::graph::detail::content_hash header;
  header.update(cache.data(), header_hash_at);
  header.update(cache.data() + header_bytes, static_cast<std::size_t>(path_bytes));
  digest = header.digest();
  std::memcpy(cache.data() + header_hash_at, &digest, 8);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deltasplit_fuzz;
  if (size == 0) return 0;
  const unsigned mode = data[0];
  std::vector<unsigned char> cache(data + 1, data + size);
  if (mode & 1u) fix_checksums(cache);
  read_checked(write_file("input.dsg", cache.data(), cache.size()),
               mode & 2u ? graph::file_format::automatic : graph::file_format::binary, cache.size());
  return 0;
}
