// Scan (seed 000, Section 4, "scan"; seed 001's top-level scan): one exclusive prefix sum over
// the bucket-major count matrix H[m][blocks]. Entry (b, g) becomes the global position of block
// g's first item of bucket b; entry (b, 0) is bucket b's offset. With a fixed grid H has only
// m * blocks entries, so one thread block scans it. The same kernel detects the early exit of
// seed 001 (Section 5): when one bucket holds every item, postscan only copies.
#pragma once

#include <cstdint>

#include <cub/block/block_scan.cuh>
#include <cuda_runtime.h>

#include "multisplit/detail/tile_range.cuh"

namespace multisplit {
namespace detail {

constexpr int scan_threads = 1024;

// Launched with one block of Threads threads. columns: the prescan's grid size. offsets: m + 1 entries of
// temporary storage; user_offsets: the caller's copy, or null.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    scan_kernel(std::uint32_t* histograms, std::uint32_t num_buckets, std::uint32_t columns,
                item_count count, std::uint32_t* offsets, std::uint32_t* user_offsets,
                std::uint32_t* single_bucket) {
  using block_scan = cub::BlockScan<std::uint32_t, Threads>;
  __shared__ typename block_scan::TempStorage scan_storage;
  const std::uint32_t total = num_buckets * columns;
  const std::uint32_t chunk = (total + Threads - 1) / Threads;
  const std::uint32_t begin = min(total, threadIdx.x * chunk);
  const std::uint32_t end = min(total, begin + chunk);

  std::uint32_t sum = 0;
  for (std::uint32_t i = begin; i < end; ++i) sum += histograms[i];
  std::uint32_t running;
  block_scan(scan_storage).ExclusiveSum(sum, running);
  for (std::uint32_t i = begin; i < end; ++i) {
    const std::uint32_t c = histograms[i];
    histograms[i] = running;
    if (i % columns == 0) {
      offsets[i / columns] = running;
      if (user_offsets) user_offsets[i / columns] = running;
    }
    running += c;
  }
  const std::uint32_t n = count.get();
  if (threadIdx.x == 0) {
    offsets[num_buckets] = n;
    if (user_offsets) user_offsets[num_buckets] = n;
  }
  __syncthreads();  // makes this block's writes to offsets visible to all its threads

  bool alone = false;
  for (std::uint32_t b = threadIdx.x; b < num_buckets; b += Threads)
    alone = alone || (n > 0 && offsets[b + 1] - offsets[b] == n);
  const int any_alone = __syncthreads_or(alone);
  if (threadIdx.x == 0) *single_bucket = any_alone ? 1u : 0u;
}

}  // namespace detail
}  // namespace multisplit
