// Warp-level bucket offsets (seed 000, Section 5.2, WMS): where each bucket starts when a warp
// groups its own windows by bucket - an exclusive scan over the warp's m counters, each lane
// summing a few consecutive counters and the lanes combining with shuffles.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/detail/policy.cuh"
#include "multisplit/warp/warp_local_offsets.cuh"

namespace multisplit {
namespace detail {

__device__ __forceinline__ void warp_bucket_offsets(const std::uint32_t* counts,
                                                    std::uint32_t* starts,
                                                    std::uint32_t num_buckets) {
  constexpr int per_lane = static_cast<int>(max_warp_buckets) / 32;
  const unsigned lane = lane_id();
  std::uint32_t c[per_lane];
  std::uint32_t sum = 0;
#pragma unroll
  for (int j = 0; j < per_lane; ++j) {
    const std::uint32_t b = lane * per_lane + j;
    c[j] = b < num_buckets ? counts[b] : 0;
    sum += c[j];
  }
  std::uint32_t inclusive = sum;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const std::uint32_t up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (static_cast<int>(lane) >= d) inclusive += up;
  }
  std::uint32_t running = inclusive - sum;
#pragma unroll
  for (int j = 0; j < per_lane; ++j) {
    const std::uint32_t b = lane * per_lane + j;
    if (b < num_buckets) starts[b] = running;
    running += c[j];
  }
}

}  // namespace detail
}  // namespace multisplit
