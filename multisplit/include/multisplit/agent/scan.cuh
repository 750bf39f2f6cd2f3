// Scan (seed 000, Section 4, "scan"; seed 001's top-level scan): one exclusive prefix sum over
// the bucket-major count matrix H[m][blocks] (cub::DeviceScan, all SMs: with m = 256 and a
// thousand blocks it has a quarter million entries, too many for one block to scan quickly).
// Entry (b, g) becomes the global position of block g's first item of bucket b; entry (b, 0) is
// bucket b's offset. bucket_offsets_kernel then publishes the offsets and detects the early exit
// of seed 001 (Section 5): when one bucket holds every item, postscan only copies.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "multisplit/detail/tile_range.cuh"

namespace multisplit {
namespace detail {

constexpr int offsets_threads = 256;

// Launched with one block. columns: the prescan's grid size. offsets: m + 1 entries of
// temporary storage; user_offsets: the caller's copy, or null.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    bucket_offsets_kernel(const std::uint32_t* scanned, std::uint32_t num_buckets, std::uint32_t columns,
                          item_count count, std::uint32_t* offsets, std::uint32_t* user_offsets,
                          std::uint32_t* single_bucket) {
  const std::uint32_t n = count.get();
  bool alone = false;
  for (std::uint32_t b = threadIdx.x; b <= num_buckets; b += Threads) {
    const std::uint32_t at = b < num_buckets ? scanned[static_cast<std::size_t>(b) * columns] : n;
    offsets[b] = at;
    if (user_offsets) user_offsets[b] = at;
    if (b < num_buckets) {
      const std::uint32_t next = b + 1 < num_buckets ? scanned[static_cast<std::size_t>(b + 1) * columns] : n;
      alone = alone || (n > 0 && next - at == n);
    }
  }
  const int any_alone = __syncthreads_or(alone);
  if (threadIdx.x == 0) {
    *single_bucket = any_alone ? 1u : 0u;
    count.report_clamp();
  }
}

// Temporary bytes cub::DeviceScan needs for `entries` counts.
inline std::size_t scan_temp_bytes(std::uint32_t entries) {
  std::size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                static_cast<std::uint32_t*>(nullptr), static_cast<int>(entries));
  return bytes;
}

}  // namespace detail
}  // namespace multisplit
