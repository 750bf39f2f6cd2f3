// Checked mode: count the keys whose user bucket id is out of range (>= m).
// Every method clamps ids to m - 1 (one min per key), so a wrong bucket function can never
// write outside the output; wrapping it in checked_buckets additionally counts the offending
// keys into a device counter (added to, not reset: zero it before the call). Each key is
// counted once per call: the methods evaluate the function several times per key but count
// only in one designated evaluation (the prescan or the labelling).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace multisplit {

template <class BucketFn>
struct checked_buckets {
  BucketFn inner;
  unsigned long long* out_of_range;  // device counter
};

template <class BucketFn>
checked_buckets<BucketFn> checked(BucketFn fn, unsigned long long* out_of_range) {
  return checked_buckets<BucketFn>{fn, out_of_range};
}

namespace detail {

// The bucket id the methods use: min(f(key), m - 1). `counting` marks the one evaluation per
// key that reports out-of-range ids for checked_buckets.
template <class BucketFn, class Key>
__device__ __forceinline__ std::uint32_t evaluate(const BucketFn& fn, const Key& key,
                                                  std::uint32_t m, bool /*counting*/) {
  return min(static_cast<std::uint32_t>(fn(key)), m - 1);  // one min instruction
}

template <class BucketFn, class Key>
__device__ __forceinline__ std::uint32_t evaluate(const checked_buckets<BucketFn>& fn,
                                                  const Key& key, std::uint32_t m, bool counting) {
  std::uint32_t b = static_cast<std::uint32_t>(fn.inner(key));
  if (b < m) return b;
  if (counting) atomicAdd(fn.out_of_range, 1ull);
  return m - 1;
}

}  // namespace detail
}  // namespace multisplit
