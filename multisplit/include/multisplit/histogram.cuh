// Device histogram built on multisplit's prescan (seed 000, Section 7.3): warp histograms by
// ballots into private shared-memory rows, one column per block, then a sum over the columns.
// Any bucket identifier, in particular even_bins (Even Histogram) and splitter_buckets (Range
// Histogram, binary search over splitters staged in shared memory); up to 256 bins. Samples are
// any 4-byte type the bucket function takes (float for the paper's experiment).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/agent/prescan.cuh"
#include "multisplit/bucket_functions.cuh"
#include "multisplit/checked_buckets.cuh"
#include "multisplit/detail/policy.cuh"
#include "multisplit/detail/temp_storage.cuh"
#include "multisplit/dispatch/dispatch_multisplit.cuh"

namespace multisplit {
namespace detail {

// One warp per bin sums the bin's row of the count matrix.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    sum_columns_kernel(const std::uint32_t* histograms, std::uint32_t columns, std::uint32_t* counts) {
  const std::uint32_t bin = blockIdx.x;
  std::uint32_t sum = 0;
  for (std::uint32_t g = threadIdx.x; g < columns; g += Threads) sum += histograms[bin * columns + g];
#pragma unroll
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
  if (threadIdx.x == 0) counts[bin] = sum;
}

template <class Selector, class Sample, class BucketFn>
cudaError_t launch_histogram(void* temp, std::size_t& temp_bytes, const Sample* samples, std::size_t num_samples,
                             std::uint32_t num_bins, int bits, BucketFn bin_of, std::uint32_t* counts,
                             cudaStream_t stream) {
  return with_running_policy<Selector>([&](auto policy) {
    using Policy = decltype(policy);
    auto prescan = prescan_kernel<Selector, Sample, BucketFn>;
    const std::uint32_t grid = fixed_grid<Policy>(resident_blocks<Policy>(prescan), num_samples);
    temp_carver carve(temp);
    std::uint32_t* histograms = carve.take<std::uint32_t>(static_cast<std::size_t>(num_bins) * grid);
    cudaError_t status;
    if (!size_or_check(temp, temp_bytes, carve.bytes(), status)) return status;
    prescan<<<grid, Policy::threads, 0, stream>>>(samples, item_count{nullptr, static_cast<std::uint32_t>(num_samples)},
                                                  num_bins, bits, bin_of, true, histograms);
    sum_columns_kernel<32><<<num_bins, 32, 0, stream>>>(histograms, grid, counts);
    return cudaGetLastError();
  });
}

}  // namespace detail

// counts: num_bins entries, device; overwritten. Bin ids >= num_bins count in the last bin.
template <class Sample, class BucketFn>
cudaError_t histogram(void* temp, std::size_t& temp_bytes, const Sample* samples, std::size_t num_samples,
                      std::uint32_t num_bins, BucketFn bin_of, std::uint32_t* counts,
                      cudaStream_t stream = 0) {
  static_assert(sizeof(Sample) == 4, "samples are 4 bytes");
  if (num_samples > 0xffffffffu || num_bins == 0 || num_bins > detail::max_warp_buckets)
    return cudaErrorInvalidValue;
  const int bits = detail::ceil_log2(num_bins);
  using policies = detail::policy_for<detail::reorder_scope::block, false>;
  return bits <= policies::few_buckets::bucket_bits
             ? detail::launch_histogram<typename policies::few_buckets>(temp, temp_bytes, samples, num_samples,
                                                                       num_bins, bits, bin_of, counts, stream)
             : detail::launch_histogram<typename policies::many_buckets>(temp, temp_bytes, samples, num_samples,
                                                                        num_bins, bits, bin_of, counts, stream);
}

}  // namespace multisplit
