// Bucket offsets read off an output that is already grouped by bucket: offsets[c] is the first
// position whose bucket is >= c. Item i writes every offset between its predecessor's bucket
// and its own, so empty buckets get offsets too and the work is O(n + m) with no atomics. Used
// by the methods whose last pass does not see all m buckets (large, reduced-bit sort).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/detail/tile_range.cuh"

namespace multisplit {
namespace detail {

// bucket_at(i): the bucket of output item i (i < n). Writes offsets[0..m].
template <class BucketAt>
__global__ void bucket_boundaries_kernel(BucketAt bucket_at, item_count count,
                                         std::uint32_t num_buckets, std::uint32_t* offsets) {
  const std::uint32_t n = count.get();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i <= n;
       i += stride) {
    const std::uint32_t here = i == n ? num_buckets : bucket_at(static_cast<std::uint32_t>(i));
    const std::uint32_t from = i == 0 ? 0 : bucket_at(static_cast<std::uint32_t>(i - 1)) + 1;
    for (std::uint32_t c = from; c <= here; ++c) offsets[c] = static_cast<std::uint32_t>(i);
  }
}

constexpr int boundaries_threads = 256;

inline std::uint32_t boundaries_grid(std::size_t max_items) {
  return static_cast<std::uint32_t>(
      std::min<std::size_t>(4096, max_items / boundaries_threads + 1));
}

}  // namespace detail
}  // namespace multisplit
