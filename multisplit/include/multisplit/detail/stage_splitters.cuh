// Staging a bucket function: each kernel calls stage() once per block, before its first
// __syncthreads, and uses what it returns. Splitter (range) buckets search their splitters in
// shared memory (seed 000, Section 7.3: ceil(log2 m) dependent lookups per key must not each be
// a global load); delta-buckets trade the division for a multiply (fast_division.cuh); checked
// functors stage what they wrap; every other functor passes through unchanged.
#pragma once

#include <cstdint>

#include "multisplit/bucket_functions.cuh"
#include "multisplit/checked_buckets.cuh"
#include "multisplit/detail/fast_division.cuh"

namespace multisplit {
namespace detail {

// Shared memory a kernel reserves for staged splitters: up to 255 splitters (m <= 256) of
// 8 bytes; more splitters (the large-bucket method) stay in global memory, behind L1.
constexpr int max_staged_splitters = 255;
struct alignas(8) splitter_stage {
  unsigned char bytes[max_staged_splitters * 8];
};

template <class BucketFn>
__device__ __forceinline__ BucketFn stage(const BucketFn& fn, splitter_stage&) { return fn; }

__device__ __forceinline__ divided_delta_buckets stage(const delta_buckets& fn, splitter_stage&) {
  return invariant_division(fn.delta);
}

template <class Key>
__device__ __forceinline__ splitter_buckets<Key> stage(const splitter_buckets<Key>& fn,
                                                      splitter_stage& area) {
  static_assert(sizeof(Key) <= 8, "splitters are staged as at most 8-byte values");
  if (fn.num_splitters > static_cast<std::uint32_t>(max_staged_splitters)) return fn;
  Key* staged = reinterpret_cast<Key*>(area.bytes);
  for (std::uint32_t i = threadIdx.x; i < fn.num_splitters; i += blockDim.x) staged[i] = fn.splitters[i];
  return splitter_buckets<Key>{staged, fn.num_splitters};
}

template <class BucketFn>
__device__ __forceinline__ auto stage(const checked_buckets<BucketFn>& fn, splitter_stage& area)
    -> checked_buckets<decltype(stage(fn.inner, area))> {
  return {stage(fn.inner, area), fn.out_of_range};
}

}  // namespace detail
}  // namespace multisplit
