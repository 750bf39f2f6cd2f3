// The binary CSR cache (.dsg): the CSR arrays as they lie in memory, behind a versioned header
// that records the provenance and the identity of the source file (absolute path, size,
// modification time, content hash), with checksums over header and payload. Loading one is a
// few large reads; a cache whose source has changed since, or whose bytes are damaged, is
// refused rather than silently used.
#pragma once

#include <cstdint>
#include <string>

namespace deltasplit::graph::detail {

inline constexpr unsigned char binary_magic[8] = {0x89, 'D', 'S', 'G', 'C', 'S', 'R', '\n'};
// Version 2 added wide weights (header kind 2: uint64, 3: double); version 1 caches (kinds 0:
// uint32 and 1: float, the same layout) are still read.
inline constexpr std::uint64_t binary_version = 2;

// True when the file starts with the cache magic bytes.
bool has_binary_magic(const std::string& path);

}  // namespace deltasplit::graph::detail
