// Radix sort built on multisplit (seed 000, Section 7.1): least-significant-digit passes, each a
// stable block-level multisplit (BMS) over r-bit bit-field buckets f_k(u) = (u >> kr) & (2^r - 1).
// A pass whose keys all share one digit exits early (seed 001, Section 5): postscan learns it
// from the scanned counts and only copies. Keys are 32-bit unsigned; values 32-bit.
//
// Two-phase temporary storage as everywhere in multisplit/: one alternate key (and value)
// buffer plus one pass's counts.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/bucket_functions.cuh"
#include "multisplit/detail/no_value.cuh"
#include "multisplit/detail/temp_storage.cuh"
#include "multisplit/dispatch/dispatch_multisplit.cuh"

namespace multisplit {
namespace detail {

// Bits per pass when the caller passes 0 (the timings: bench/results/multisplit.md, "Radix sort
// bits per pass"). Keys: 4 passes of 256 buckets beat more, cheaper passes; pairs move twice the
// bytes per pass, where 128 buckets' shorter runs per tile (and fewer of them) do better.
constexpr int default_radix_bits_keys = 8;
constexpr int default_radix_bits_pairs = 7;

template <class Value>
cudaError_t dispatch_radix_sort(void* temp, std::size_t& temp_bytes, const std::uint32_t* keys_in,
                                std::uint32_t* keys_out, const Value* values_in, Value* values_out,
                                std::size_t num_items, int begin_bit, int end_bit, cudaStream_t stream,
                                int radix_bits) {
  if (radix_bits == 0) radix_bits = has_values<Value> ? default_radix_bits_pairs : default_radix_bits_keys;
  if (num_items > 0xffffffffu || begin_bit < 0 || end_bit > 32 || begin_bit > end_bit || radix_bits < 1 ||
      radix_bits > max_bucket_bits)
    return cudaErrorInvalidValue;
  const int passes = (end_bit - begin_bit + radix_bits - 1) / radix_bits;
  const item_count count{nullptr, static_cast<std::uint32_t>(num_items)};
  // Passes may differ in bucket count (the last may have fewer bits) and so in launch shape:
  // the shared temporary storage is the largest any pass needs.
  std::size_t pass_bytes = 0;
  cudaError_t status = cudaSuccess;
  for (int pass = 0; pass < passes; ++pass) {
    const int bits = std::min(radix_bits, end_bit - begin_bit - pass * radix_bits);
    std::size_t bytes = 0;
    status = dispatch_warp_method<reorder_scope::block>(nullptr, bytes, keys_in, keys_out, values_in, values_out,
                                                        count, num_items, 1u << bits,
                                                        bit_field_buckets{0, static_cast<std::uint32_t>(bits)},
                                                        false, nullptr, stream);
    if (status != cudaSuccess) return status;
    pass_bytes = std::max(pass_bytes, bytes);
  }
  temp_carver carve(temp);
  std::uint32_t* keys_alt = carve.take<std::uint32_t>(num_items);
  Value* values_alt = has_values<Value> ? carve.take<Value>(num_items) : nullptr;
  void* pass_temp = carve.take<unsigned char>(pass_bytes);
  if (!size_or_check(temp, temp_bytes, carve.bytes(), status)) return status;

  if (passes == 0) {
    status = cudaMemcpyAsync(keys_out, keys_in, num_items * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice,
                             stream);
    if (status == cudaSuccess && has_values<Value>)
      status = cudaMemcpyAsync(values_out, values_in, num_items * sizeof(Value), cudaMemcpyDeviceToDevice,
                               stream);
    return status;
  }
  const std::uint32_t* keys_src = keys_in;
  const Value* values_src = values_in;
  for (int pass = 0; pass < passes; ++pass) {
    const bool to_out = (passes - 1 - pass) % 2 == 0;  // the last pass always lands in *_out
    std::uint32_t* keys_dst = to_out ? keys_out : keys_alt;
    Value* values_dst = to_out ? values_out : values_alt;
    const int shift = begin_bit + pass * radix_bits;
    const int bits = std::min(radix_bits, end_bit - shift);
    status = dispatch_warp_method<reorder_scope::block>(
        pass_temp, pass_bytes, keys_src, keys_dst, values_src, values_dst, count, num_items, 1u << bits,
        bit_field_buckets{static_cast<std::uint32_t>(shift), static_cast<std::uint32_t>(bits)}, false,
        nullptr, stream);
    if (status != cudaSuccess) return status;
    keys_src = keys_dst;
    values_src = values_dst;
  }
  return cudaSuccess;
}

}  // namespace detail

// Sorts keys ascending by bits [begin_bit, end_bit); stable. radix_bits: bits per multisplit
// pass, 1..8, 0 for the measured default.
inline cudaError_t sort_keys(void* temp, std::size_t& temp_bytes, const std::uint32_t* keys_in,
                             std::uint32_t* keys_out, std::size_t num_items, int begin_bit = 0,
                             int end_bit = 32, cudaStream_t stream = 0, int radix_bits = 0) {
  return detail::dispatch_radix_sort(temp, temp_bytes, keys_in, keys_out,
                                     static_cast<const detail::no_value*>(nullptr),
                                     static_cast<detail::no_value*>(nullptr), num_items, begin_bit, end_bit,
                                     stream, radix_bits);
}

template <class Value>
cudaError_t sort_pairs(void* temp, std::size_t& temp_bytes, const std::uint32_t* keys_in,
                       std::uint32_t* keys_out, const Value* values_in, Value* values_out,
                       std::size_t num_items, int begin_bit = 0, int end_bit = 32, cudaStream_t stream = 0,
                       int radix_bits = 0) {
  static_assert(sizeof(Value) == 4, "values are 32-bit");
  return detail::dispatch_radix_sort(temp, temp_bytes, keys_in, keys_out, values_in, values_out, num_items,
                                     begin_bit, end_bit, stream, radix_bits);
}

}  // namespace multisplit
