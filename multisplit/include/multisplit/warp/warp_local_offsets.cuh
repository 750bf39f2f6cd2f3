// Warp-wide local offsets by ballots (seed 000, Section 5.1-5.2). Each lane holds one item of a
// 32-item window with bucket id b < 2^bits. One ballot per bit of b: ANDing every ballot (or its
// complement where b has a 0 bit) leaves exactly the lanes whose item shares b - its peers. The
// local offset (items of the same bucket in lower lanes) is a popcount below the lane, and the
// highest peer, the leader, can publish the window's count for that bucket. The cost is
// ceil(log2 m) ballots per window whatever the distribution; no shared-memory atomics. The low
// five ballots are combined per lane (lane j: the items of bucket j) and fetched by one shuffle,
// which saves an instruction per ballot: the postscan is bound by integer issue (ncu).
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

// Lane j's view of the low five ballots: ANDing ballot k where j has bit k set, and its
// complement where not, leaves the lanes whose bucket agrees with j in those bits - the items of
// bucket j when m <= 32. One mask per bit, made once per thread: flip[k] = ~0 where lane bit k
// is 0, so `low &= ones ^ flip[k]` is one instruction per ballot.
struct lane_flips {
  std::uint32_t flip[lane_bucket_bits];
  __device__ __forceinline__ static lane_flips make() {
    lane_flips f;
#pragma unroll
    for (int k = 0; k < lane_bucket_bits; ++k) f.flip[k] = ((lane_id() >> k) & 1u) - 1u;
    return f;
  }
};

// The ballot of bit k of every lane's bucket. Written in PTX so that the bit test is one
// predicate-setting LOP3 (nvcc otherwise shifts, masks and compares: three instructions).
template <int K>
__device__ __forceinline__ std::uint32_t ballot_bit(std::uint32_t bucket) {
  std::uint32_t ones;
  asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\tand.b32 t, %1, %2;\n\tsetp.ne.u32 p, t, 0;\n\t"
      "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
      : "=r"(ones)
      : "r"(bucket), "n"(1u << K));
  return ones;
}

// Lanes in `active` whose bucket agrees with this lane's index in the low min(Bits, 5) bits.
// Bits is the policy's bucket bits, known at compile time: a bucket below 2^bits has zeros
// above, so ballots past ceil(log2 m) only clear lanes >= m, which hold no bucket, and no
// per-ballot test of the bucket count (a compare and a branch) is needed.
template <int Bits>
__device__ __forceinline__ std::uint32_t lane_low_match(std::uint32_t bucket, std::uint32_t active,
                                                        const lane_flips& f) {
  std::uint32_t low = active;
  if constexpr (Bits > 0) low &= ballot_bit<0>(bucket) ^ f.flip[0];
  if constexpr (Bits > 1) low &= ballot_bit<1>(bucket) ^ f.flip[1];
  if constexpr (Bits > 2) low &= ballot_bit<2>(bucket) ^ f.flip[2];
  if constexpr (Bits > 3) low &= ballot_bit<3>(bucket) ^ f.flip[3];
  if constexpr (Bits > 4) low &= ballot_bit<4>(bucket) ^ f.flip[4];
  return low;
}

// Selects, of a ballot of bit K, the lanes that agree with this lane's bucket there.
template <int K>
__device__ __forceinline__ std::uint32_t agree_bit(std::uint32_t bucket) {
  const std::uint32_t ones = ballot_bit<K>(bucket);
  return (bucket >> K) & 1u ? ones : ~ones;
}

// Lanes in `active` whose bucket equals this lane's (this lane included when active), for the
// shared-counter policies (Bits = 7 or 8: the policy's bucket bits, fixed at compile time like
// lane_low_match's, so neither a test of ceil(log2 m) nor its predicated ballot is issued per
// window). The low five bits need no per-lane selection: lane (bucket mod 32) already holds the
// lanes that agree with it there (lane_low_match), so one shuffle fetches them (the shuffle
// reads only the low five bits of its lane index); each bit above costs a ballot and a
// selection.
template <int Bits>
__device__ __forceinline__ std::uint32_t match_bucket(std::uint32_t bucket, std::uint32_t active,
                                                      const lane_flips& f) {
  static_assert(Bits > max_register_bucket_bits && Bits <= max_bucket_bits, "the shared-counter policies");
  std::uint32_t peers = __shfl_sync(0xffffffffu, lane_low_match<lane_bucket_bits>(bucket, active, f), bucket);
  peers &= agree_bit<5>(bucket) & agree_bit<6>(bucket);
  if constexpr (Bits > 7) peers &= agree_bit<7>(bucket);
  return peers;
}

// Up to 64 buckets the same ballots give lane j the window's items of bucket j (and of bucket
// j + 32 with Counters = 2: the ballot of bit 5 splits lane j's matches in two), so each lane
// keeps those buckets' running counts in registers and no shared counter is touched.
template <int Counters>
struct window_match {
  std::uint32_t peers;                  // lanes whose bucket equals this lane's
  std::uint32_t lane_bucket[Counters];  // lanes whose bucket is this lane's index + 32 c
};

// Bits: the policy's bucket bits (<= 6); Counters = 2 exactly when Bits = 6.
template <int Bits, int Counters>
__device__ __forceinline__ window_match<Counters> match_window(std::uint32_t bucket, std::uint32_t active,
                                                               const lane_flips& f) {
  static_assert(Counters == 1 || Counters == 2, "one or two counters per lane (m <= 64)");
  const std::uint32_t low = lane_low_match<Bits>(bucket, active, f);
  window_match<Counters> w;
  w.peers = __shfl_sync(0xffffffffu, low, bucket);
  w.lane_bucket[0] = low;
  if constexpr (Counters == 2) {
    const std::uint32_t ones = ballot_bit<lane_bucket_bits>(bucket);
    w.peers &= bucket >> lane_bucket_bits ? ones : ~ones;
    w.lane_bucket[0] = low & ~ones;
    w.lane_bucket[1] = low & ones;
  }
  return w;
}

// Items of the same bucket in lower lanes of the window.
__device__ __forceinline__ std::uint32_t local_offset(std::uint32_t peers) {
  return static_cast<std::uint32_t>(__popc(peers & lanemask_lt()));
}

}  // namespace detail
}  // namespace multisplit
