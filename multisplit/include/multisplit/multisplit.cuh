// multisplit: stable GPU multisplit of 32-bit keys or key-value pairs into m buckets.
// Reference: Ashkiani, Davidson, Meyer, Owens, "GPU Multisplit: an extended study of a parallel
// algorithm", ACM TOPC 4(1), 2017 (shared/seeds/000). CUDA + CUB only; usable without the rest
// of deltasplit.
//
// CUB-style two-phase use: call once with temp == nullptr to get temp_bytes, allocate, call
// again. Stream-ordered; no synchronisation and no allocation inside a call.
//
// THIS FILE IS THE CONTRACT the rest of deltasplit codes against (signatures below).
// Definitions: device_multisplit.cuh. Bucket functions: bucket_functions.cuh; checked mode:
// checked_buckets.cuh. Built on multisplit: radix_sort.cuh, histogram.cuh.
//
// Limits: num_items < 2^32 (offsets are 32-bit); num_buckets >= 1; m <= 256 for DMS, WMS and
// BMS, m <= 65,536 for the large method; scan_split needs m == 2; the baselines need the item
// count on the host. A call outside these returns cudaErrorInvalidValue and launches nothing.
// Bucket ids >= m are clamped to m - 1 by every method (never an out-of-bounds write).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace multisplit {

enum class method {
  automatic,         // chosen from measured crossovers (see dispatch policy)
  direct,            // DMS: warp-granularity histograms, no reordering
  warp,              // WMS: warp-level local offsets + in-warp reordering
  block,             // BMS: block-level local offsets + in-block reordering
  large,             // many buckets (m > 256, up to at least 12,288; any m)
  reduced_bit_sort,  // baseline: bucket ids + cub::DeviceRadixSort
  scan_split,        // baseline: scan-based split, m == 2 only
};
// Printable name: "automatic", "DMS", "WMS", "BMS", "large", "reduced-bit sort", "scan split".
inline const char* method_name(method how);

// Number of items known on the host.
template <class Key, class BucketFn>
cudaError_t split_keys(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                       std::size_t num_items, std::uint32_t num_buckets, BucketFn bucket_of,
                       std::uint32_t* bucket_offsets = nullptr,  // device, num_buckets + 1 entries
                       cudaStream_t stream = 0, method how = method::automatic);

template <class Key, class Value, class BucketFn>
cudaError_t split_pairs(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, std::size_t num_items,
                        std::uint32_t num_buckets, BucketFn bucket_of,
                        std::uint32_t* bucket_offsets = nullptr, cudaStream_t stream = 0,
                        method how = method::automatic);

// Number of items read on the device when the kernels run, for loops that keep their control
// on the GPU (the SSSP solver): no host round-trip to learn n. max_items bounds the launch
// sizes and the temporary storage.
struct device_count {
  const std::uint32_t* num_items;
  std::size_t max_items;
};

template <class Key, class BucketFn>
cudaError_t split_keys(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                       device_count num_items, std::uint32_t num_buckets, BucketFn bucket_of,
                       std::uint32_t* bucket_offsets = nullptr, cudaStream_t stream = 0,
                       method how = method::automatic);

// The device_count form for a caller whose bucket count has a compile-time bound (ceil(log2 m)
// <= MaxBucketBits <= 8) and that takes the automatic method: only the kernels such calls can
// reach are compiled into the caller (the SSSP solver files into at most 65 buckets: 7 bits).
// A larger m returns cudaErrorInvalidValue.
template <int MaxBucketBits, class Key, class BucketFn>
cudaError_t split_keys_bounded(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                               device_count num_items, std::uint32_t num_buckets, BucketFn bucket_of,
                               std::uint32_t* bucket_offsets = nullptr, cudaStream_t stream = 0);
// Key-value form of the device_count overload.
template <class Key, class Value, class BucketFn>
cudaError_t split_pairs(void* temp, std::size_t& temp_bytes, const Key* keys_in, Key* keys_out,
                        const Value* values_in, Value* values_out, device_count num_items,
                        std::uint32_t num_buckets, BucketFn bucket_of,
                        std::uint32_t* bucket_offsets = nullptr, cudaStream_t stream = 0,
                        method how = method::automatic);

}  // namespace multisplit

#include "multisplit/bucket_functions.cuh"
#include "multisplit/checked_buckets.cuh"
#include "multisplit/device_multisplit.cuh"
