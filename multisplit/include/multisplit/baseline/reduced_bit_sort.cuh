// Baseline: reduced-bit sort (seed 000, Section 3.4). Label every key with its bucket id, sort
// (label, key) by the ceil(log2 m) label bits with cub::DeviceRadixSort (stable), and for pairs
// pack (key, value) into one 64-bit word before the sort and unpack after. Needs the item count
// on the host (CUB's sort does).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cub/device/device_radix_sort.cuh>
#include <cstring>

#include <cuda_runtime.h>

#include "multisplit/checked_buckets.cuh"
#include "multisplit/detail/bucket_boundaries.cuh"
#include "multisplit/detail/no_value.cuh"
#include "multisplit/detail/temp_storage.cuh"

namespace multisplit {
namespace detail {

constexpr int label_threads = 256;

// Labels (and, for pairs, packs) every item; the one evaluation that counts out-of-range ids.
template <class Key, class Value, class BucketFn>
__global__ void label_kernel(const Key* keys, const Value* values, std::uint32_t n,
                             std::uint32_t num_buckets, BucketFn bucket_of, std::uint32_t* labels,
                             std::uint64_t* packed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const Key k = keys[i];
    labels[i] = evaluate(bucket_of, k, num_buckets, true);
    if constexpr (has_values<Value>) {
      std::uint32_t kw, vw;
      memcpy(&kw, &k, 4);
      memcpy(&vw, &values[i], 4);
      packed[i] = (static_cast<std::uint64_t>(vw) << 32) | kw;
    }
  }
}

template <class Key, class Value>
__global__ void unpack_kernel(const std::uint64_t* packed, std::uint32_t n, Key* keys, Value* values) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint64_t p = packed[i];
    const std::uint32_t kw = static_cast<std::uint32_t>(p), vw = static_cast<std::uint32_t>(p >> 32);
    memcpy(&keys[i], &kw, 4);
    memcpy(&values[i], &vw, 4);
  }
}

struct sorted_label {
  const std::uint32_t* labels;
  __device__ std::uint32_t operator()(std::uint32_t i) const { return labels[i]; }
};

inline std::uint32_t elementwise_grid(std::size_t n) {
  return static_cast<std::uint32_t>(std::min<std::size_t>(65535, n / label_threads + 1));
}

template <class Key, class Value, class BucketFn>
cudaError_t dispatch_reduced_bit_sort(void* temp, std::size_t& temp_bytes, const Key* keys_in,
                                      Key* keys_out, const Value* values_in, Value* values_out,
                                      std::size_t num_items, std::uint32_t num_buckets,
                                      BucketFn bucket_of, std::uint32_t* bucket_offsets,
                                      cudaStream_t stream) {
  static_assert(sizeof(Key) == 4, "keys are 32-bit");
  constexpr bool pairs = has_values<Value>;
  if (num_buckets == 0 || num_items > 0x7fffffffu) return cudaErrorInvalidValue;
  const int n = static_cast<int>(num_items);
  const int bits = std::max(1, ceil_log2(num_buckets));  // CUB sorts at least one bit
  std::size_t sort_bytes = 0;
  if constexpr (pairs) {
    cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr),
                                    static_cast<std::uint32_t*>(nullptr),
                                    static_cast<const std::uint64_t*>(nullptr),
                                    static_cast<std::uint64_t*>(nullptr), n, 0, bits, stream);
  } else {
    cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr),
                                    static_cast<std::uint32_t*>(nullptr), keys_in, keys_out, n, 0,
                                    bits, stream);
  }
  temp_carver carve(temp);
  std::uint32_t* labels = carve.take<std::uint32_t>(num_items);
  std::uint32_t* labels_sorted = carve.take<std::uint32_t>(num_items);
  std::uint64_t* packed = pairs ? carve.take<std::uint64_t>(num_items) : nullptr;
  std::uint64_t* packed_sorted = pairs ? carve.take<std::uint64_t>(num_items) : nullptr;
  void* sort_temp = carve.take<unsigned char>(sort_bytes);
  cudaError_t status;
  if (!size_or_check(temp, temp_bytes, carve.bytes(), status)) return status;

  const std::uint32_t grid = elementwise_grid(num_items);
  label_kernel<<<grid, label_threads, 0, stream>>>(keys_in, values_in, static_cast<std::uint32_t>(n),
                                                   num_buckets, bucket_of, labels, packed);
  if (n > 0) {
    if constexpr (pairs) {
      status = cub::DeviceRadixSort::SortPairs(sort_temp, sort_bytes, labels, labels_sorted, packed,
                                               packed_sorted, n, 0, bits, stream);
      if (status != cudaSuccess) return status;
      unpack_kernel<<<grid, label_threads, 0, stream>>>(packed_sorted, static_cast<std::uint32_t>(n),
                                                        keys_out, values_out);
    } else {
      status = cub::DeviceRadixSort::SortPairs(sort_temp, sort_bytes, labels, labels_sorted, keys_in,
                                               keys_out, n, 0, bits, stream);
      if (status != cudaSuccess) return status;
    }
  }
  if (bucket_offsets)
    bucket_boundaries_kernel<<<boundaries_grid(num_items), boundaries_threads, 0, stream>>>(
        sorted_label{labels_sorted}, item_count{nullptr, static_cast<std::uint32_t>(n)}, num_buckets,
        bucket_offsets);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace multisplit
