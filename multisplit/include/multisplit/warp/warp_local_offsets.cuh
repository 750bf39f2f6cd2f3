// Warp-wide local offsets by ballots (seed 000, Section 5.1-5.2). Each lane holds one item of a
// 32-item window with bucket id b < 2^bits. One ballot per bit of b: ANDing every ballot (or its
// complement where b has a 0 bit) leaves exactly the lanes whose item shares b - its peers. The
// local offset (items of the same bucket in lower lanes) is a popcount below the lane, and the
// highest peer, the leader, can publish the window's count for that bucket. The cost is
// ceil(log2 m) ballots per window whatever the distribution; no shared-memory atomics.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/detail/policy.cuh"

namespace multisplit {
namespace detail {

__device__ __forceinline__ std::uint32_t lanemask_lt() {
  std::uint32_t mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// Lanes in `active` whose bucket equals this lane's (this lane included when active). Every
// lane of the warp must call it with the same `bits` (warp-uniform).
__device__ __forceinline__ std::uint32_t match_bucket(std::uint32_t bucket, int bits,
                                                      std::uint32_t active) {
  std::uint32_t peers = active;
#pragma unroll
  for (int k = 0; k < max_bucket_bits; ++k) {
    if (k >= bits) break;
    std::uint32_t bit = (bucket >> k) & 1u;
    std::uint32_t ones = __ballot_sync(0xffffffffu, bit);
    peers &= bit ? ones : ~ones;
  }
  return peers;
}

// For m <= 32 the same ballots also give, to lane j, the window's items of bucket j: then
// each lane keeps bucket j's running count in a register and no shared counter is touched.
// With Counters = 2 (m <= 64) lane j also gets bucket j + 32's items: the ballot of bit 5
// splits the lanes of bucket j mod 32 into the two.
template <int Counters>
struct window_match {
  std::uint32_t peers;                  // lanes whose bucket equals this lane's
  std::uint32_t lane_bucket[Counters];  // lanes whose bucket is this lane's index + 32 c
};

template <int Counters>
__device__ __forceinline__ window_match<Counters> match_window(std::uint32_t bucket, int bits,
                                                               std::uint32_t active) {
  static_assert(Counters == 1 || Counters == 2, "one or two counters per lane (m <= 64)");
  const std::uint32_t lane = lane_id();
  std::uint32_t peers = active, low = active;
#pragma unroll
  for (int k = 0; k < lane_bucket_bits; ++k) {
    if (k >= bits) break;
    const std::uint32_t bit = (bucket >> k) & 1u;
    const std::uint32_t ones = __ballot_sync(0xffffffffu, bit);
    peers &= bit ? ones : ~ones;
    low &= ((lane >> k) & 1u) ? ones : ~ones;
  }
  window_match<Counters> w;
  w.lane_bucket[0] = low;
  if constexpr (Counters == 2) {
    w.lane_bucket[1] = 0;
    if (bits > lane_bucket_bits) {
      const std::uint32_t bit = (bucket >> lane_bucket_bits) & 1u;
      const std::uint32_t ones = __ballot_sync(0xffffffffu, bit);
      peers &= bit ? ones : ~ones;
      w.lane_bucket[0] = low & ~ones;
      w.lane_bucket[1] = low & ones;
    }
  }
  w.peers = peers;
  return w;
}

// The lane that speaks for a group of peers: the highest one.
__device__ __forceinline__ int leader_of(std::uint32_t peers) { return 31 - __clz(peers); }

// Items of the same bucket in lower lanes of the window.
__device__ __forceinline__ std::uint32_t local_offset(std::uint32_t peers) {
  return static_cast<std::uint32_t>(__popc(peers & lanemask_lt()));
}

}  // namespace detail
}  // namespace multisplit
