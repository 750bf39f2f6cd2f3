// Delta-buckets without a hardware division per key. Seed 000 (Section 7.1, Table 7 remarks)
// found the integer division of delta-buckets to cost up to 0.7x of BMS's throughput. The
// divisor is invariant for a call, so each thread derives once, when the kernel stages its
// bucket function, a 64-bit reciprocal: floor(u / d) = floor(u * c / 2^64) with c = ceil(2^64 / d),
// exact for every 32-bit u and d (Lemire, Kaser and Kurz, "Faster remainder by direct
// computation", Software: Practice and Experience 49(6), 2019, Theorem 1: 64 >= 32 + log2 d).
// With c = c_hi * 2^32 + c_lo that is the high word of u * c_hi + umulhi(u, c_lo): a
// multiply-high and one wide multiply-add, against Granlund and Montgomery's five operations
// (multiply-high, subtract, two shifts, add), in the postscan that is bound by integer issue.
// d = 1 (c = 2^64) does not fit; there c = 0 and u itself is added to the high word.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/bucket_functions.cuh"

namespace multisplit {
namespace detail {

struct divided_delta_buckets {
  std::uint32_t c_lo;
  std::uint32_t c_hi;
  std::uint32_t unit;  // ~0 for d = 1, else 0
  __host__ __device__ __forceinline__ std::uint32_t operator()(std::uint32_t key) const {
#ifdef __CUDA_ARCH__
    const std::uint32_t t = __umulhi(key, c_lo);
#else
    const std::uint32_t t = static_cast<std::uint32_t>((std::uint64_t{key} * c_lo) >> 32);
#endif
    const std::uint64_t addend = (std::uint64_t{key & unit} << 32) | t;
    return static_cast<std::uint32_t>((std::uint64_t{key} * c_hi + addend) >> 32);
  }
};

__host__ __device__ __forceinline__ divided_delta_buckets invariant_division(std::uint32_t d) {
  if (d <= 1) return {0u, 0u, ~0u};
  const std::uint64_t c = ~std::uint64_t{0} / d + 1;  // floor((2^64 - 1) / d) + 1 = ceil(2^64 / d)
  return {static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32), 0u};
}

}  // namespace detail
}  // namespace multisplit
