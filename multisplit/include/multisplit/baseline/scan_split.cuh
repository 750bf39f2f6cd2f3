// Baseline: scan-based split for two buckets (seed 000, Section 3.1 and Table 3). Flag the items
// of bucket 1, exclusive-scan the flags (cub::DeviceScan), then item i goes to i - ones_before(i)
// when in bucket 0 and to zeros + ones_before(i) when in bucket 1. Stable; host item count.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "multisplit/baseline/reduced_bit_sort.cuh"
#include "multisplit/checked_buckets.cuh"
#include "multisplit/detail/no_value.cuh"
#include "multisplit/detail/temp_storage.cuh"

namespace multisplit {
namespace detail {

template <class Key, class BucketFn>
__global__ void split_flags_kernel(const Key* keys, std::uint32_t n, BucketFn bucket_of,
                                   std::uint32_t* flags) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    flags[i] = evaluate(bucket_of, keys[i], 2u, true);
}

template <class Key, class Value>
__global__ void split_scatter_kernel(const Key* keys_in, Key* keys_out, const Value* values_in,
                                     Value* values_out, std::uint32_t n, const std::uint32_t* flags,
                                     const std::uint32_t* ones_before, std::uint32_t* bucket_offsets) {
  const std::uint32_t zeros = n - (ones_before[n - 1] + flags[n - 1]);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (first == 0 && bucket_offsets) {
    bucket_offsets[0] = 0;
    bucket_offsets[1] = zeros;
    bucket_offsets[2] = n;
  }
  for (std::size_t i = first; i < n; i += stride) {
    const std::uint32_t before = ones_before[i];
    const std::size_t pos = flags[i] ? zeros + before : i - before;
    keys_out[pos] = keys_in[i];
    if constexpr (has_values<Value>) values_out[pos] = values_in[i];
  }
}

template <class Key, class Value, class BucketFn>
cudaError_t dispatch_scan_split(void* temp, std::size_t& temp_bytes, const Key* keys_in,
                                Key* keys_out, const Value* values_in, Value* values_out,
                                std::size_t num_items, std::uint32_t num_buckets,
                                BucketFn bucket_of, std::uint32_t* bucket_offsets,
                                cudaStream_t stream) {
  if (num_buckets != 2 || num_items > 0x7fffffffu) return cudaErrorInvalidValue;
  const int n = static_cast<int>(num_items);
  std::size_t scan_bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<const std::uint32_t*>(nullptr),
                                static_cast<std::uint32_t*>(nullptr), n, stream);
  temp_carver carve(temp);
  std::uint32_t* flags = carve.take<std::uint32_t>(num_items);
  std::uint32_t* ones_before = carve.take<std::uint32_t>(num_items);
  void* scan_temp = carve.take<unsigned char>(scan_bytes);
  cudaError_t status;
  if (!size_or_check(temp, temp_bytes, carve.bytes(), status)) return status;
  if (n == 0) {
    if (bucket_offsets) return cudaMemsetAsync(bucket_offsets, 0, 3 * sizeof(std::uint32_t), stream);
    return cudaSuccess;
  }
  const std::uint32_t grid = elementwise_grid(num_items);
  split_flags_kernel<<<grid, label_threads, 0, stream>>>(keys_in, static_cast<std::uint32_t>(n),
                                                         bucket_of, flags);
  status = cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, flags, ones_before, n, stream);
  if (status != cudaSuccess) return status;
  split_scatter_kernel<<<grid, label_threads, 0, stream>>>(keys_in, keys_out, values_in, values_out,
                                                           static_cast<std::uint32_t>(n), flags,
                                                           ones_before, bucket_offsets);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace multisplit
