// Dispatch of the warp-level methods (DMS, WMS, BMS; m <= 256): picks the policy, sizes the
// fixed grid (a few resident blocks per SM, each with an even share of tiles), carves the
// temporary storage and launches prescan -> scan -> postscan on the caller's stream.
//
// Temporary storage: H[m][grid] and its scan, the m + 1 offsets, the early-exit flag, and
// cub::DeviceScan's own temporary storage.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "multisplit/agent/postscan.cuh"
#include "multisplit/agent/prescan.cuh"
#include "multisplit/agent/scan.cuh"
#include "multisplit/detail/no_value.cuh"
#include "multisplit/detail/policy.cuh"
#include "multisplit/detail/temp_storage.cuh"
#include "multisplit/detail/tile_range.cuh"

namespace multisplit {
namespace detail {

// Resident blocks of `kernel` per SM on the current device, at most the policy's bound; found
// once per kernel (the occupancy query does not synchronise, but it is not free). Also lifts
// the kernel's dynamic shared memory limit to shared_bytes.
template <class Policy, class Kernel>
std::uint32_t resident_blocks(Kernel kernel, std::size_t shared_bytes = 0) {
  static const std::uint32_t per_sm = [&] {
    int blocks = 0;
    if (shared_bytes > 0)
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes));
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, Policy::threads, shared_bytes) != cudaSuccess ||
        blocks < 1)
      blocks = 1;
    return static_cast<std::uint32_t>(std::min(blocks, Policy::blocks_per_sm));
  }();
  int device = 0, sms = 1;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return per_sm * static_cast<std::uint32_t>(sms);
}

// The fixed grid for up to max_items items: never more blocks than tiles, at least one.
template <class Policy>
std::uint32_t fixed_grid(std::uint32_t resident, std::size_t max_items) {
  const std::size_t tiles = (max_items + Policy::tile_items - 1) / Policy::tile_items;
  return static_cast<std::uint32_t>(std::max<std::size_t>(1, std::min<std::size_t>(resident, tiles)));
}

// Events recorded between the stages, for the benchmark's per-stage times (Table 4).
struct stage_marks {
  cudaEvent_t after_prescan;
  cudaEvent_t after_scan;
};

// One multisplit with a warp-level method. counting: whether this call's prescan reports
// out-of-range bucket ids (checked mode).
// One multisplit with a warp-level method under one launch shape (Policy serves bits).
template <class Policy, class Key, class Value, class BucketFn>
cudaError_t launch_warp_method(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                               const Value* values_in, Value* values_out, item_count count,
                               std::size_t max_items, std::uint32_t num_buckets, int bits,
                               BucketFn bucket_of, bool counting, std::uint32_t* bucket_offsets,
                               cudaStream_t stream, const stage_marks* marks) {
  static_assert(sizeof(Key) == 4, "keys are 32-bit");
  auto prescan = prescan_kernel<Policy, Key, BucketFn>;
  auto postscan = postscan_kernel<Policy, Key, Value, BucketFn>;
  constexpr std::size_t postscan_shared = sizeof(postscan_storage<Policy, Key, Value>);
  const std::uint32_t grid = fixed_grid<Policy>(resident_blocks<Policy>(postscan, postscan_shared), max_items);

  const std::uint32_t entries = num_buckets * grid;
  std::size_t scan_bytes = scan_temp_bytes(entries);
  temp_carver carve(temp);
  std::uint32_t* histograms = carve.take<std::uint32_t>(entries);
  std::uint32_t* scanned = carve.take<std::uint32_t>(entries);
  std::uint32_t* offsets = carve.take<std::uint32_t>(num_buckets + 1);
  std::uint32_t* single_bucket = carve.take<std::uint32_t>(1);
  void* scan_temp = carve.take<unsigned char>(scan_bytes);
  cudaError_t status;
  if (!size_or_check(temp, temp_bytes, carve.bytes(), status)) return status;

  prescan<<<grid, Policy::threads, 0, stream>>>(keys_in, count, num_buckets, bits, bucket_of,
                                                counting, histograms);
  if (marks) cudaEventRecord(marks->after_prescan, stream);
  status = cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, histograms, scanned,
                                         static_cast<int>(entries), stream);
  if (status != cudaSuccess) return status;
  bucket_offsets_kernel<offsets_threads><<<1, offsets_threads, 0, stream>>>(
      scanned, num_buckets, grid, count, offsets, bucket_offsets, single_bucket);
  if (marks) cudaEventRecord(marks->after_scan, stream);
  postscan<<<grid, Policy::threads, postscan_shared, stream>>>(keys_in, keys_out, values_in, values_out,
                                                               count, num_buckets, bucket_of,
                                                               scanned, single_bucket);
  return cudaGetLastError();
}

// One multisplit with a warp-level method, under the measured launch shape for its bucket
// count (policy_for). counting: whether this call's prescan reports out-of-range bucket ids
// (checked mode). MaxBucketBits bounds ceil(log2 m) at compile time: only the policies up to it
// are instantiated (split_keys_bounded), and a larger m is refused.
template <reorder_scope Scope, int MaxBucketBits = max_bucket_bits, class Key, class Value, class BucketFn>
cudaError_t dispatch_warp_method(void* temp, std::size_t& temp_bytes, const Key* keys_in,
                                 Key* keys_out, const Value* values_in, Value* values_out,
                                 item_count count, std::size_t max_items, std::uint32_t num_buckets,
                                 BucketFn bucket_of, bool counting, std::uint32_t* bucket_offsets,
                                 cudaStream_t stream, const stage_marks* marks = nullptr) {
  using policies = policy_for<Scope, has_values<Value>>;
  if (num_buckets == 0 || num_buckets > max_warp_buckets) return cudaErrorInvalidValue;
  const int bits = ceil_log2(num_buckets);
  if (bits > MaxBucketBits) return cudaErrorInvalidValue;
  // The policy whose bucket bits first cover ceil(log2 m) (policy.cuh).
  const auto launch = [&](auto policy) {
    return launch_warp_method<decltype(policy)>(temp, temp_bytes, keys_in, keys_out, values_in, values_out, count,
                                                max_items, num_buckets, bits, bucket_of, counting, bucket_offsets,
                                                stream, marks);
  };
  if (bits <= policies::tiny_buckets::bucket_bits) return launch(typename policies::tiny_buckets{});
  if constexpr (MaxBucketBits > policies::tiny_buckets::bucket_bits)
    if (bits <= policies::few_buckets::bucket_bits) return launch(typename policies::few_buckets{});
  if constexpr (MaxBucketBits > policies::few_buckets::bucket_bits)
    if (bits <= policies::some_buckets::bucket_bits) return launch(typename policies::some_buckets{});
  if constexpr (MaxBucketBits > policies::some_buckets::bucket_bits)
    if (bits <= policies::more_buckets::bucket_bits) return launch(typename policies::more_buckets{});
  if constexpr (MaxBucketBits > policies::more_buckets::bucket_bits) return launch(typename policies::many_buckets{});
  return cudaErrorInvalidValue;
}

}  // namespace detail
}  // namespace multisplit
