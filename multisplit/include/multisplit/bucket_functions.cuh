// Bucket identifiers: callables key -> bucket id in [0, m), usable on host and device.
// Seed 000, Section 6 ("Bucket identification"): delta-buckets f(u) = floor(u / delta), identity
// buckets f(u) = u (Section 7.1), bit fields f(u) = (u >> k) & (2^r - 1) (Section 7.1, the
// multisplit radix sort), even bins and splitter (range) buckets found by binary search over
// sorted splitters (Section 7.3). Any user lambda or functor works the same way; ids >= m are
// clamped to m - 1 by every method (see checked_buckets.cuh to count them).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace multisplit {

// f(u) = floor(u / delta): equal-width buckets partitioning the key domain.
struct delta_buckets {
  std::uint32_t delta;
  __host__ __device__ std::uint32_t operator()(std::uint32_t key) const { return key / delta; }
};

// f(u) = u: each key is its own bucket id (multisplit equals a stable sort on ceil(log2 m) bits).
struct identity_buckets {
  __host__ __device__ std::uint32_t operator()(std::uint32_t key) const { return key; }
};

// f(u) = (u >> shift) & (2^bits - 1): one radix digit, the bucket function of a sort pass.
struct bit_field_buckets {
  std::uint32_t shift;
  std::uint32_t bits;
  __host__ __device__ std::uint32_t operator()(std::uint32_t key) const {
    return (key >> shift) & ((1u << bits) - 1u);
  }
};

// Even bins over [lower, upper): bin = floor((x - lower) * m / (upper - lower)); samples outside
// the range fall in the first or last bin (the clamp). Section 7.3's "Even Histogram".
template <class Sample>
struct even_bins {
  Sample lower;
  Sample upper;
  std::uint32_t num_bins;
  __host__ __device__ std::uint32_t operator()(Sample x) const {
    if (!(x > lower)) return 0;  // also catches NaN for floating-point samples
    double scaled = (static_cast<double>(x) - static_cast<double>(lower)) * num_bins /
                    (static_cast<double>(upper) - static_cast<double>(lower));
    return scaled >= num_bins ? num_bins - 1 : static_cast<std::uint32_t>(scaled);
  }
};

// Range buckets: splitters s_0 < s_1 < ... < s_{m-2} (device memory, m - 1 of them); bucket j
// holds keys with s_{j-1} <= key < s_j (bucket 0: key < s_0; bucket m-1: key >= s_{m-2}).
// One upper-bound binary search per key (Section 7.3's "Range Histogram", seed 004's splitters).
// The kernels copy up to max_staged splitters into shared memory first (see stage_splitters).
template <class Key>
struct splitter_buckets {
  const Key* splitters;
  std::uint32_t num_splitters;  // m - 1
  __host__ __device__ std::uint32_t operator()(Key key) const {
    std::uint32_t lo = 0, hi = num_splitters;
    while (lo < hi) {
      std::uint32_t mid = (lo + hi) / 2;
      if (splitters[mid] <= key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
};

}  // namespace multisplit
