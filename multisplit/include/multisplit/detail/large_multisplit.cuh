// Multisplit for many buckets (256 < m <= 65,536, any m): two stable passes of the block-level
// method over the digits of the bucket id, least significant digit first - the radix-sort
// argument of seed 000, Section 7.1, applied to the bucket id instead of the key. Stability of
// each pass makes the result grouped by the full id and stable. Each pass moves 12 bytes per key
// (20 per pair) at m' <= 256 with coalesced runs and needs no shared memory beyond one pass's;
// seed 003's per-bin shared buffers need shared memory that grows with m. Offsets come from
// bucket_boundaries over the output. Measured at n = 2^28 on sm_90: faster than reduced-bit
// sort up to m = 2048 for keys and up to m = 12,288 for pairs; see bench/results/multisplit.md.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/checked_buckets.cuh"
#include "multisplit/detail/bucket_boundaries.cuh"
#include "multisplit/detail/stage_splitters.cuh"
#include "multisplit/detail/temp_storage.cuh"
#include "multisplit/dispatch/dispatch_multisplit.cuh"

namespace multisplit {
namespace detail {

constexpr std::uint32_t max_large_buckets = 65536;

// One digit of the (clamped) bucket id.
template <class BucketFn>
struct bucket_digit {
  BucketFn fn;
  std::uint32_t num_buckets;
  std::uint32_t shift;
  std::uint32_t mask;
};

template <class BucketFn, class Key>
__device__ __forceinline__ std::uint32_t evaluate(const bucket_digit<BucketFn>& digit,
                                                  const Key& key, std::uint32_t digit_buckets,
                                                  bool counting) {
  const std::uint32_t b = evaluate(digit.fn, key, digit.num_buckets, counting);
  const std::uint32_t d = (b >> digit.shift) & digit.mask;
  return d < digit_buckets ? d : digit_buckets - 1;
}

template <class BucketFn>
__device__ __forceinline__ auto stage(const bucket_digit<BucketFn>& digit, splitter_stage& area)
    -> bucket_digit<decltype(stage(digit.fn, area))> {
  return {stage(digit.fn, area), digit.num_buckets, digit.shift, digit.mask};
}

template <class BucketFn, class Key>
struct bucket_of_output {
  BucketFn fn;
  const Key* keys;
  std::uint32_t num_buckets;
  __device__ std::uint32_t operator()(std::uint32_t i) const {
    return evaluate(fn, keys[i], num_buckets, false);
  }
};

template <class BucketFn, class Key>
__device__ __forceinline__ auto stage(const bucket_of_output<BucketFn, Key>& at, splitter_stage& area)
    -> bucket_of_output<decltype(stage(at.fn, area)), Key> {
  return {stage(at.fn, area), at.keys, at.num_buckets};
}

template <class Key, class Value, class BucketFn>
cudaError_t dispatch_large(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                           const Value* values_in, Value* values_out, item_count count,
                           std::size_t max_items, std::uint32_t num_buckets, BucketFn bucket_of,
                           std::uint32_t* bucket_offsets, cudaStream_t stream) {
  if (num_buckets == 0 || num_buckets > max_large_buckets) return cudaErrorInvalidValue;
  // Digits of at most 8 bits (the warp-level methods), split evenly, except that the low digit
  // keeps to the register counters' 6 bits whenever the high digit still fits in 8: at 14 bits
  // (8193..16384 buckets) 6 + 8 rather than 7 + 7, so one of the two passes runs the faster
  // register-counter path (policy.cuh). Elsewhere the even split already has a digit <= 6 bits
  // or none can (at 13 and 15 bits the two digits merely trade sizes).
  const int bits = ceil_log2(num_buckets);
  const std::uint32_t low_bits = static_cast<std::uint32_t>(
      std::max(bits - max_bucket_bits, std::min(max_register_bucket_bits, (bits + 1) / 2)));
  const std::uint32_t low_buckets = 1u << low_bits;
  const std::uint32_t high_buckets = ((num_buckets - 1) >> low_bits) + 1;
  const bucket_digit<BucketFn> low{bucket_of, num_buckets, 0, low_buckets - 1};
  const bucket_digit<BucketFn> high{bucket_of, num_buckets, low_bits, 0xffffffffu};

  std::size_t pass_bytes[2] = {0, 0};
  dispatch_warp_method<reorder_scope::block>(nullptr, pass_bytes[0], keys_in, keys_out, values_in,
                                             values_out, count, max_items, low_buckets, low, true,
                                             nullptr, stream);
  dispatch_warp_method<reorder_scope::block>(nullptr, pass_bytes[1], keys_in, keys_out, values_in,
                                             values_out, count, max_items, high_buckets, high,
                                             false, nullptr, stream);
  std::size_t pass_temp_bytes = std::max(pass_bytes[0], pass_bytes[1]);
  temp_carver carve(temp);
  Key* keys_mid = carve.take<Key>(max_items);
  Value* values_mid = has_values<Value> ? carve.take<Value>(max_items) : nullptr;
  void* pass_temp = carve.take<unsigned char>(pass_temp_bytes);
  cudaError_t status;
  if (!size_or_check(temp, temp_bytes, carve.bytes(), status)) return status;

  status = dispatch_warp_method<reorder_scope::block>(pass_temp, pass_temp_bytes, keys_in, keys_mid,
                                                      values_in, values_mid, count, max_items,
                                                      low_buckets, low, true, nullptr, stream);
  if (status != cudaSuccess) return status;
  status = dispatch_warp_method<reorder_scope::block>(pass_temp, pass_temp_bytes, keys_mid, keys_out,
                                                      values_mid, values_out, count, max_items,
                                                      high_buckets, high, false, nullptr, stream);
  if (status != cudaSuccess || bucket_offsets == nullptr) return status;
  bucket_boundaries_kernel<<<boundaries_grid(max_items), boundaries_threads, 0, stream>>>(
      bucket_of_output<BucketFn, Key>{bucket_of, keys_out, num_buckets}, count, num_buckets,
      bucket_offsets);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace multisplit
