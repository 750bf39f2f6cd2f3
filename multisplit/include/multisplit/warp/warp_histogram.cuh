// Warp histogram (seed 000, Section 5.1): a warp counts its windows into a private row of m
// counters. Two ways, chosen by bucket count (max_prescan_ballot_bits in policy.cuh):
//  - ballots (the paper's scheme): lane j counts bucket j in a register, a popcount of the
//    ANDed ballots per window, and writes its count once at the end; the cost is one ballot per
//    bucket bit and window, whatever the distribution;
//  - shared-memory atomics on the warp's own row: one per key; rows are never shared between
//    warps, so only keys of one window that share a bucket contend.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/warp/warp_local_offsets.cuh"

namespace multisplit {
namespace detail {

// Items of bucket lane_id() in one window of buckets below 2^Bits.
template <int Bits>
__device__ __forceinline__ std::uint32_t warp_histogram_lane_count(std::uint32_t bucket, std::uint32_t active,
                                                                   const lane_flips& f) {
  return static_cast<std::uint32_t>(__popc(lane_low_match<Bits>(bucket, active, f)));
}

// Adds one key to the warp's row.
__device__ __forceinline__ void warp_histogram_atomic_add(std::uint32_t* warp_row, std::uint32_t bucket) {
  atomicAdd(warp_row + bucket, 1u);
}

}  // namespace detail
}  // namespace multisplit
