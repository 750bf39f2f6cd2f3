// Distances on the device, with the same arithmetic as the CPU references
// (sssp/distance_policy.hpp) so results compare exactly:
//   integer weights: 32-bit unsigned distances, sums formed in 64 bits; a sum above 2^32 - 2 is
//     dropped and flagged (2^32 - 1 is infinity), and the engine then looks for a vertex whose
//     true distance does not fit (distance_overflow);
//   real weights: float or double distances (distance_type float32, float64), one addition per
//     arc in the distance type; a sum that rounds to +inf is dropped and flagged the same way;
//   uint64 distances (64-bit weights, or 32-bit ones widened on the host): a sum above 2^64 - 2
//     is dropped and flagged as in 32 bits.
// atomicMin on floats and doubles uses their bit patterns: for non-negative values (weights are
// checked non-negative) the order of the patterns as signed integers is the order of the values.
// The one-source drivers and the many-source engines run all four; PHAST's sweeps and pair query
// uint32, float and uint64.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <cuda_runtime.h>

#include "deltasplit/sssp.hpp"
#include "sssp/distance_policy.hpp"

namespace deltasplit::sssp::gpu {

template <class Distance>
struct distance_ops;

template <>
struct distance_ops<std::uint32_t> {
  using distance = std::uint32_t;
  using weight = std::uint32_t;
  static constexpr distance infinity = 0xFFFFFFFFu;
  __device__ static bool extend(distance d, weight w, distance& out) {
    std::uint64_t sum = std::uint64_t{d} + w;
    if (sum > 0xFFFFFFFEull) return false;
    out = static_cast<distance>(sum);
    return true;
  }
  __device__ static distance atomic_min(distance* p, distance v) { return atomicMin(p, v); }
};

template <>
struct distance_ops<float> {
  using distance = float;
  using weight = float;
  static constexpr distance infinity = __builtin_huge_valf();
  __device__ static bool extend(distance d, weight w, distance& out) {
    float sum = d + w;
    if (!isfinite(sum)) return false;
    out = sum;
    return true;
  }
  __device__ static distance atomic_min(distance* p, distance v) {
    return __int_as_float(atomicMin(reinterpret_cast<int*>(p), __float_as_int(v)));
  }
};

template <>
struct distance_ops<double> {
  using distance = double;
  using weight = double;  // a graph's float weights are widened on the host (exact)
  static constexpr distance infinity = __builtin_huge_val();
  __device__ static bool extend(distance d, weight w, distance& out) {
    double sum = d + w;
    if (!isfinite(sum)) return false;
    out = sum;
    return true;
  }
  __device__ static distance atomic_min(distance* p, distance v) {
    return __longlong_as_double(atomicMin(reinterpret_cast<long long*>(p), __double_as_longlong(v)));
  }
};

template <>
struct distance_ops<std::uint64_t> {
  using distance = std::uint64_t;
  using weight = std::uint64_t;
  static constexpr distance infinity = ~std::uint64_t{0};
  __device__ static bool extend(distance d, weight w, distance& out) {
    if (d == infinity || w > infinity - 1 - d) return false;  // past 2^64 - 2
    out = d + w;
    return true;
  }
  __device__ static distance atomic_min(distance* p, distance v) {
    return atomicMin(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  }
};

// The unsigned word of a distance's width, whose order is the distances' order (non-negative
// floats and doubles: their bit patterns), and the conversions both ways: for queues that keep a
// distance beside a vertex, and for minima taken with integer atomics or warp reductions.
template <class Distance>
using distance_word = std::conditional_t<sizeof(Distance) == 8, unsigned long long, std::uint32_t>;

__host__ __device__ inline std::uint32_t distance_bits(std::uint32_t d) { return d; }
__host__ __device__ inline unsigned long long distance_bits(std::uint64_t d) { return d; }
__device__ inline std::uint32_t distance_bits(float d) { return __float_as_uint(d); }
__device__ inline unsigned long long distance_bits(double d) {
  return static_cast<unsigned long long>(__double_as_longlong(d));
}
template <class Distance>
__device__ inline Distance distance_from_bits(distance_word<Distance> b) {
  if constexpr (std::is_same_v<Distance, float>)
    return __uint_as_float(b);
  else if constexpr (std::is_same_v<Distance, double>)
    return __longlong_as_double(static_cast<long long>(b));
  else
    return b;
}

// The least word over the warp's 32 lanes (all active), on every lane.
__device__ inline std::uint32_t warp_min_word(std::uint32_t w) { return __reduce_min_sync(0xFFFFFFFFu, w); }
__device__ inline unsigned long long warp_min_word(unsigned long long w) {
  for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
    const unsigned long long other = __shfl_xor_sync(0xFFFFFFFFu, w, lane_mask);
    w = other < w ? other : w;
  }
  return w;
}

// The weights of a graph and the distances of output buffers, of the kind Distance. A float64
// solve of float weights reads them widened (device_csr); weights_of gives the double weights of
// a wide graph only.
template <class Distance>
span<typename distance_ops<Distance>::weight> weights_of(const csr_view& g) {
  if constexpr (std::is_same_v<Distance, float>)
    return g.real_weights;
  else if constexpr (std::is_same_v<Distance, double>)
    return g.float64_weights;
  else if constexpr (std::is_same_v<Distance, std::uint64_t>)
    return g.uint64_weights;
  else
    return g.int_weights;
}

template <class Distance>
Distance* distances_of(const output_buffers& out) {
  if constexpr (std::is_same_v<Distance, float>)
    return out.real_distances;
  else if constexpr (std::is_same_v<Distance, double>)
    return out.float64_distances;
  else if constexpr (std::is_same_v<Distance, std::uint64_t>)
    return out.uint64_distances;
  else
    return out.int_distances;
}

// A distance cutoff as a distance (distance_policy.hpp): the largest one not beyond it.
using sssp::detail::cutoff_distance;

// Delta-stepping's bucket of a tentative distance: floor(d / delta) (Meyer and Sanders).
// Monotone in d, which is all the loop relies on. A delta of "infinity" (integer: 2^32 - 1,
// real: +inf) puts every finite distance in bucket 0: the Bellman-Ford-style workfront sweep.
// Bucket ids stay below no_bucket, the mark for "not filed".
inline constexpr std::uint32_t no_bucket = 0xFFFFFFFFu;

template <class Distance>
struct bucket_of_distance;

template <>
struct bucket_of_distance<std::uint32_t> {
  std::uint32_t delta;  // >= 1
  __host__ __device__ std::uint32_t operator()(std::uint32_t d) const { return d / delta; }
  // No distance of bucket b is below this (b * delta).
  __host__ __device__ std::uint32_t lower_bound(std::uint32_t b) const {
    const std::uint64_t low = std::uint64_t{b} * delta;
    return low < 0xFFFFFFFFull ? static_cast<std::uint32_t>(low) : 0xFFFFFFFFu;
  }
};

template <>
struct bucket_of_distance<float> {
  float delta;  // > 0, may be +inf
  __host__ __device__ std::uint32_t operator()(float d) const {
    float q = floorf(d / delta);
    return q >= 4.0e9f ? 4000000000u : static_cast<std::uint32_t>(q);
  }
  // No distance of bucket b is below this: b * delta less a margin far above the float rounding of
  // d / delta and of the product (a bound, not the edge: it only has to stay below).
  __host__ __device__ float lower_bound(std::uint32_t b) const {
    return b == 0 ? 0.0f : static_cast<float>(b) * delta * 0.9999f;
  }
};

// uint64: the quotient capped as for real distances (a delta may be small against distances past
// 2^32 buckets); every distance from the cap's bucket on shares it, which the loop only needs to be
// monotone.
template <>
struct bucket_of_distance<std::uint64_t> {
  static constexpr std::uint32_t cap = 4000000000u;  // the largest bucket: every distance from cap * delta on
  std::uint64_t delta;  // >= 1
  __host__ __device__ std::uint32_t operator()(std::uint64_t d) const {
    const std::uint64_t q = d / delta;
    return q >= cap ? cap : static_cast<std::uint32_t>(q);
  }
  // No distance of bucket b is below this (b * delta, or the largest distance where that passes it).
  __host__ __device__ std::uint64_t lower_bound(std::uint32_t b) const {
    return b != 0 && delta > ~std::uint64_t{0} / b ? ~std::uint64_t{0} : std::uint64_t{b} * delta;
  }
};

template <>
struct bucket_of_distance<double> {
  double delta;  // > 0, may be +inf
  __host__ __device__ std::uint32_t operator()(double d) const {
    double q = floor(d / delta);
    return q >= 4.0e9 ? 4000000000u : static_cast<std::uint32_t>(q);
  }
  // As for float: a bound below every distance of bucket b, with a margin far above the rounding.
  __host__ __device__ double lower_bound(std::uint32_t b) const {
    return b == 0 ? 0.0 : static_cast<double>(b) * delta * 0.9999;
  }
};

// The buckets of a width given as a double (options.tune.delta, or an automatic width): integer
// widths are floor(delta), at least 1 and at most 2^32 - 2 (uint32; 2^32 - 1 is the workfront's
// "every distance in bucket 0") or 2^63 (uint64); a real width is delta in the distance type, and
// `invalid` where that is not a positive finite number (each caller says what stands in then).
template <class Distance>
bucket_of_distance<Distance> bucket_of_width(double delta, Distance invalid) {
  if constexpr (std::is_same_v<Distance, std::uint64_t>) {
    const double r = std::floor(delta);
    return {r < 1 ? 1u : r >= 9223372036854775808.0 ? std::uint64_t{1} << 63 : static_cast<std::uint64_t>(r)};
  } else if constexpr (std::is_floating_point_v<Distance>) {
    Distance d = static_cast<Distance>(delta);
    if (!(d > 0) || !std::isfinite(d)) d = invalid;
    return {d};
  } else {
    const double r = std::floor(delta);
    return {r < 1 ? 1u : r > 4294967294.0 ? 0xFFFFFFFEu : static_cast<std::uint32_t>(r)};
  }
}

}  // namespace deltasplit::sssp::gpu
