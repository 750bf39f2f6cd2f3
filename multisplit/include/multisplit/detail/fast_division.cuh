// Delta-buckets without a hardware division per key. Seed 000 (Section 7.1, Table 7 remarks)
// found the integer division of delta-buckets to cost up to 0.7x of BMS's throughput. The
// divisor is invariant for a call, so each thread derives once, when the kernel stages its
// bucket function, the multiplier for division by an invariant integer (Granlund & Montgomery,
// PLDI 1994, Section 4): floor(u / d) = (t + ((u - t) >> s1)) >> s2 with t = umulhi(u, magic).
// Exact for every 32-bit u and every d >= 1.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/bucket_functions.cuh"

namespace multisplit {
namespace detail {

struct divided_delta_buckets {
  std::uint32_t magic;
  std::uint32_t shift1;
  std::uint32_t shift2;
  __device__ __forceinline__ std::uint32_t operator()(std::uint32_t key) const {
    const std::uint32_t t = __umulhi(key, magic);
    return (t + ((key - t) >> shift1)) >> shift2;
  }
};

__device__ __forceinline__ divided_delta_buckets invariant_division(std::uint32_t d) {
  const std::uint32_t l = d <= 1 ? 0u : 32u - static_cast<std::uint32_t>(__clz(d - 1));  // ceil(log2 d)
  const std::uint64_t magic = ((((std::uint64_t{1} << l) - d) << 32) / d) + 1;
  return {static_cast<std::uint32_t>(magic), l < 1 ? l : 1u, l > 1 ? l - 1 : 0u};
}

}  // namespace detail
}  // namespace multisplit
