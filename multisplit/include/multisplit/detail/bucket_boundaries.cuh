// Bucket offsets read off an output that is already grouped by bucket: offsets[c] is the first
// position whose bucket is >= c. Item i writes every offset between its predecessor's bucket
// and its own, so empty buckets get offsets too and the work is O(n + m) with no atomics. Used
// by the methods whose last pass does not see all m buckets (large, reduced-bit sort).
// Each item's bucket is evaluated once: a warp takes 32 consecutive items and lane l gets its
// predecessor's bucket from lane l - 1 (only lane 0 evaluates one more), and bucket functions
// are staged first (stage_splitters.cuh: delta-buckets divide by multiplication).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/detail/stage_splitters.cuh"
#include "multisplit/detail/tile_range.cuh"

namespace multisplit {
namespace detail {

// bucket_at(i): the bucket of output item i (i < n). Writes offsets[0..m]. blockDim.x is a
// multiple of 32.
template <class BucketAt>
__global__ void bucket_boundaries_kernel(BucketAt bucket_at, item_count count,
                                         std::uint32_t num_buckets, std::uint32_t* offsets) {
  __shared__ splitter_stage stage_area;
  const auto at = stage(bucket_at, stage_area);
  __syncthreads();
  const std::uint32_t n = count.get();
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  // first: the warp's first item, so the loop and its shuffle are warp-uniform.
  for (std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + (threadIdx.x - lane);
       first <= n; first += stride) {
    const std::uint64_t i = first + lane;
    const std::uint32_t here = i < n ? at(static_cast<std::uint32_t>(i)) : num_buckets;  // i > n: unused
    std::uint32_t before = __shfl_up_sync(0xffffffffu, here, 1);  // bucket of item i - 1
    if (lane == 0 && i > 0) before = at(static_cast<std::uint32_t>(i - 1));
    if (i <= n) {
      const std::uint32_t from = i == 0 ? 0 : before + 1;
      for (std::uint32_t c = from; c <= here; ++c) offsets[c] = static_cast<std::uint32_t>(i);
    }
  }
}

constexpr int boundaries_threads = 256;

inline std::uint32_t boundaries_grid(std::size_t max_items) {
  return static_cast<std::uint32_t>(
      std::min<std::size_t>(4096, max_items / boundaries_threads + 1));
}

}  // namespace detail
}  // namespace multisplit
