// The public calls of multisplit.cuh: argument checks, the automatic choice of method, and the
// hand-off to each method's dispatch. See multisplit.cuh for the contract.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <cuda_runtime.h>

#include "multisplit/baseline/reduced_bit_sort.cuh"
#include "multisplit/baseline/scan_split.cuh"
#include "multisplit/detail/large_multisplit.cuh"
#include "multisplit/detail/no_value.cuh"
#include "multisplit/detail/policy.cuh"
#include "multisplit/dispatch/dispatch_multisplit.cuh"

namespace multisplit {

inline const char* method_name(method how) {
  switch (how) {
    case method::automatic: return "automatic";
    case method::direct: return "DMS";
    case method::warp: return "WMS";
    case method::block: return "BMS";
    case method::large: return "large";
    case method::reduced_bit_sort: return "reduced-bit sort";
    case method::scan_split: return "scan split";
  }
  return "unknown";
}

namespace detail {

// method::automatic: BMS for every bucket count up to 256, the large method beyond. DMS saves
// BMS's shared-memory round trip with few buckets, but with BMS's tiles of 16 windows and its
// ranking free of per-ballot tests of m, BMS ties DMS at m = 2 and is faster from m = 4 on. WMS
// is never the fastest on sm_90 (as on the paper's GTX 1080, Section 6.2); DMS and WMS stay
// selectable. The timings: bench/results/multisplit.md, "The automatic method".
inline method choose_method(std::uint32_t num_buckets, bool /*pairs*/) {
  if (num_buckets > max_warp_buckets) return method::large;
  return method::block;
}

// One method, chosen at compile time: a caller that knows its method (the SSSP solver, the tests
// of one method) compiles only that method's kernels.
template <method How, class Key, class Value, class BucketFn>
cudaError_t dispatch_method(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                            const Value* values_in, Value* values_out, item_count count,
                            std::size_t max_items, std::uint32_t num_buckets, BucketFn bucket_of,
                            std::uint32_t* bucket_offsets, cudaStream_t stream) {
  static_assert(How != method::automatic, "dispatch_split resolves method::automatic");
  if (max_items > std::numeric_limits<std::uint32_t>::max() || num_buckets == 0)
    return cudaErrorInvalidValue;
  const bool host_count = count.device == nullptr;
  const bool counting = true;
  if constexpr (How == method::direct) {
    return dispatch_warp_method<reorder_scope::none>(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                                     count, max_items, num_buckets, bucket_of, counting,
                                                     bucket_offsets, stream);
  } else if constexpr (How == method::warp) {
    return dispatch_warp_method<reorder_scope::warp>(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                                     count, max_items, num_buckets, bucket_of, counting,
                                                     bucket_offsets, stream);
  } else if constexpr (How == method::block) {
    return dispatch_warp_method<reorder_scope::block>(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                                      count, max_items, num_buckets, bucket_of, counting,
                                                      bucket_offsets, stream);
  } else if constexpr (How == method::large) {
    return dispatch_large(temp, temp_bytes, keys_in, keys_out, values_in, values_out, count, max_items,
                          num_buckets, bucket_of, bucket_offsets, stream);
  } else if constexpr (How == method::reduced_bit_sort) {
    if (!host_count) return cudaErrorInvalidValue;
    return dispatch_reduced_bit_sort(temp, temp_bytes, keys_in, keys_out, values_in, values_out, max_items,
                                     num_buckets, bucket_of, bucket_offsets, stream);
  } else {
    static_assert(How == method::scan_split, "every method is dispatched");
    if (!host_count) return cudaErrorInvalidValue;
    return dispatch_scan_split(temp, temp_bytes, keys_in, keys_out, values_in, values_out, max_items,
                               num_buckets, bucket_of, bucket_offsets, stream);
  }
}

template <class Key, class Value, class BucketFn>
cudaError_t dispatch_split(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                           const Value* values_in, Value* values_out, item_count count,
                           std::size_t max_items, std::uint32_t num_buckets, BucketFn bucket_of,
                           std::uint32_t* bucket_offsets, cudaStream_t stream, method how) {
  if (how == method::automatic) how = choose_method(num_buckets, has_values<Value>);
  const auto call = [&](auto chosen) {
    return dispatch_method<decltype(chosen)::value>(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                                    count, max_items, num_buckets, bucket_of, bucket_offsets,
                                                    stream);
  };
  switch (how) {
    case method::direct: return call(std::integral_constant<method, method::direct>{});
    case method::warp: return call(std::integral_constant<method, method::warp>{});
    case method::block: return call(std::integral_constant<method, method::block>{});
    case method::large: return call(std::integral_constant<method, method::large>{});
    case method::reduced_bit_sort: return call(std::integral_constant<method, method::reduced_bit_sort>{});
    case method::scan_split: return call(std::integral_constant<method, method::scan_split>{});
    case method::automatic: break;
  }
  return cudaErrorInvalidValue;
}

inline item_count host_items(std::size_t n) {
  return item_count{nullptr, static_cast<std::uint32_t>(n)};
}

// max_items beyond 32 bits is refused by dispatch_method before anything reads the bound.
inline item_count device_items(device_count n) {
  return item_count{n.num_items, static_cast<std::uint32_t>(n.max_items), n.overflow};
}

}  // namespace detail

template <class Key, class BucketFn>
cudaError_t split_keys(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                       std::size_t num_items, std::uint32_t num_buckets, BucketFn bucket_of,
                       std::uint32_t* bucket_offsets, cudaStream_t stream, method how) {
  using detail::no_value;
  return detail::dispatch_split(temp, temp_bytes, keys_in, keys_out,
                                static_cast<const no_value*>(nullptr), static_cast<no_value*>(nullptr),
                                detail::host_items(num_items), num_items, num_buckets, bucket_of,
                                bucket_offsets, stream, how);
}

template <class Key, class Value, class BucketFn>
cudaError_t split_pairs(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t num_items,
                        std::uint32_t num_buckets, BucketFn bucket_of,
                        std::uint32_t* bucket_offsets, cudaStream_t stream, method how) {
  static_assert(sizeof(Value) == 4, "values are 32-bit");
  return detail::dispatch_split(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                detail::host_items(num_items), num_items, num_buckets, bucket_of,
                                bucket_offsets, stream, how);
}

template <class Key, class BucketFn>
cudaError_t split_keys(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                       device_count num_items, std::uint32_t num_buckets, BucketFn bucket_of,
                       std::uint32_t* bucket_offsets, cudaStream_t stream, method how) {
  using detail::no_value;
  if (num_items.num_items == nullptr) return cudaErrorInvalidValue;
  return detail::dispatch_split(temp, temp_bytes, keys_in, keys_out,
                                static_cast<const no_value*>(nullptr), static_cast<no_value*>(nullptr),
                                detail::device_items(num_items), num_items.max_items,
                                num_buckets, bucket_of, bucket_offsets, stream, how);
}

template <int MaxBucketBits, class Key, class BucketFn>
cudaError_t split_keys_bounded(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                               device_count num_items, std::uint32_t num_buckets, BucketFn bucket_of,
                               std::uint32_t* bucket_offsets, cudaStream_t stream) {
  static_assert(MaxBucketBits >= 1 && MaxBucketBits <= detail::max_bucket_bits, "at most 256 buckets");
  using detail::no_value;
  if (num_items.num_items == nullptr || num_items.max_items > std::numeric_limits<std::uint32_t>::max() ||
      num_buckets == 0 || num_buckets > detail::max_warp_buckets)
    return cudaErrorInvalidValue;
  // The automatic method for these bucket counts (choose_method): BMS.
  return detail::dispatch_warp_method<detail::reorder_scope::block, MaxBucketBits>(
      temp, temp_bytes, keys_in, keys_out, static_cast<const no_value*>(nullptr), static_cast<no_value*>(nullptr),
      detail::device_items(num_items), num_items.max_items, num_buckets, bucket_of, true, bucket_offsets,
      stream);
}

template <class Key, class Value, class BucketFn>
cudaError_t split_pairs(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, device_count num_items,
                        std::uint32_t num_buckets, BucketFn bucket_of,
                        std::uint32_t* bucket_offsets, cudaStream_t stream, method how) {
  static_assert(sizeof(Value) == 4, "values are 32-bit");
  if (num_items.num_items == nullptr) return cudaErrorInvalidValue;
  return detail::dispatch_split(temp, temp_bytes, keys_in, keys_out, values_in, values_out,
                                detail::device_items(num_items), num_items.max_items,
                                num_buckets, bucket_of, bucket_offsets, stream, how);
}

}  // namespace multisplit
