// Dispatch of the warp-level methods (DMS, WMS, BMS; m <= 256): picks the policy, sizes the
// fixed grid (a few resident blocks per SM, each with an even share of tiles), carves the
// temporary storage and launches prescan -> scan -> postscan on the caller's stream.
//
// Temporary storage: H[m][grid] (scanned in place), the m + 1 offsets, the early-exit flag.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

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
// once per kernel (the occupancy query does not synchronise, but it is not free).
template <class Policy, class Kernel>
std::uint32_t resident_blocks(Kernel kernel) {
  static const std::uint32_t per_sm = [&] {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, Policy::threads, 0) != cudaSuccess ||
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
template <reorder_scope Scope, class Key, class Value, class BucketFn>
cudaError_t dispatch_warp_method(void* temp, std::size_t& temp_bytes, const Key* keys_in,
                                 Key* keys_out, const Value* values_in, Value* values_out,
                                 item_count count, std::size_t max_items, std::uint32_t num_buckets,
                                 BucketFn bucket_of, bool counting, std::uint32_t* bucket_offsets,
                                 cudaStream_t stream, const stage_marks* marks = nullptr) {
  using policy = typename policy_for<Scope, has_values<Value>>::type;
  static_assert(sizeof(Key) == 4, "keys are 32-bit");
  if (num_buckets == 0 || num_buckets > max_warp_buckets) return cudaErrorInvalidValue;
  auto prescan = prescan_kernel<policy, Key, BucketFn>;
  auto postscan = postscan_kernel<policy, Key, Value, BucketFn>;
  const std::uint32_t grid = fixed_grid<policy>(resident_blocks<policy>(postscan), max_items);

  temp_carver carve(temp);
  std::uint32_t* histograms = carve.take<std::uint32_t>(static_cast<std::size_t>(num_buckets) * grid);
  std::uint32_t* offsets = carve.take<std::uint32_t>(num_buckets + 1);
  std::uint32_t* single_bucket = carve.take<std::uint32_t>(1);
  cudaError_t status;
  if (!size_or_check(temp, temp_bytes, carve.bytes(), status)) return status;

  const int bits = ceil_log2(num_buckets);
  prescan<<<grid, policy::threads, 0, stream>>>(keys_in, count, num_buckets, bits, bucket_of,
                                                counting, histograms);
  if (marks) cudaEventRecord(marks->after_prescan, stream);
  scan_kernel<scan_threads><<<1, scan_threads, 0, stream>>>(histograms, num_buckets, grid, count, offsets,
                                              bucket_offsets, single_bucket);
  if (marks) cudaEventRecord(marks->after_scan, stream);
  postscan<<<grid, policy::threads, 0, stream>>>(keys_in, keys_out, values_in, values_out, count,
                                                 num_buckets, bits, bucket_of, histograms,
                                                 single_bucket);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace multisplit
