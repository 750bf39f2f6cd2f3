// Warp histogram by ballots (seed 000, Section 5.1): a warp counts its windows into a private
// row of m counters in shared memory. Per window the ballots find each bucket's peers and only
// the leader of each group adds the group's popcount, so a warp never conflicts with itself and
// warps never share a row: no atomics, cost independent of how keys are distributed.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/warp/warp_local_offsets.cuh"

namespace multisplit {
namespace detail {

// Adds one window (one item per lane, `valid` lanes only) to the warp's row of counters.
__device__ __forceinline__ void warp_histogram_add(std::uint32_t* warp_row, std::uint32_t bucket,
                                                   bool valid, int bits, std::uint32_t active) {
  std::uint32_t peers = match_bucket(bucket, bits, active);
  if (valid && static_cast<int>(lane_id()) == leader_of(peers))
    warp_row[bucket] += static_cast<std::uint32_t>(__popc(peers));
  __syncwarp();  // the next window's leader for this bucket may be another lane
}

}  // namespace detail
}  // namespace multisplit
