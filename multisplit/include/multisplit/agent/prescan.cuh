// Prescan (seed 000, Section 4, "pre-scan"; seed 001's upsweep): each block counts, per bucket,
// the items of its even share of tiles with warp histograms (warp_histogram.cuh), then writes one column
// of the bucket-major count matrix H[m][blocks]. Bucket-major order makes one exclusive scan
// over H give every block the global position of its first item of every bucket.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "multisplit/checked_buckets.cuh"
#include "multisplit/detail/load_window.cuh"
#include "multisplit/detail/policy.cuh"
#include "multisplit/detail/stage_splitters.cuh"
#include "multisplit/detail/tile_range.cuh"
#include "multisplit/warp/warp_histogram.cuh"

namespace multisplit {
namespace detail {

// counting: this is the evaluation that reports out-of-range bucket ids (checked mode).
// Selector: a launch shape, or one per architecture (policy.cuh).
template <class Selector, class Key, class BucketFn>
__global__ void __launch_bounds__(active_policy<Selector>::threads)
    prescan_kernel(const Key* keys, item_count count, std::uint32_t num_buckets, int bits,
                   BucketFn bucket_of, bool counting, std::uint32_t* histograms) {
  using Policy = active_policy<Selector>;
  __shared__ std::uint32_t warp_counts[Policy::warps][max_warp_buckets];
  __shared__ splitter_stage stage_area;
  auto fn = stage(bucket_of, stage_area);
  for (int i = threadIdx.x; i < Policy::warps * static_cast<int>(max_warp_buckets); i += Policy::threads)
    (&warp_counts[0][0])[i] = 0;
  __syncthreads();

  const std::uint32_t n = count.get();
  const tile_range range = even_share(n, Policy::tile_items);
  const int warp = static_cast<int>(threadIdx.x / 32);
  const unsigned lane = lane_id();
  std::uint32_t* row = warp_counts[warp];
  // Calls count(bucket, valid, active) for every window of this block's tiles, in order.
  auto each_window = [&](auto&& count) {
    for (std::uint32_t tile = range.begin; tile < range.end; ++tile) {
      const std::uint64_t first = first_item<Policy>(tile, warp, lane);
      const bool full = static_cast<std::uint64_t>(tile + 1) * Policy::tile_items <= n;
      Key items[Policy::windows];
      load_windows<Policy>(keys, first, n, full, items);
#pragma unroll
      for (int i = 0; i < Policy::windows; ++i) {
        const bool valid = full || first + 32 * i < n;
        const std::uint32_t active = full ? 0xffffffffu : __ballot_sync(0xffffffffu, valid);
        count(valid ? evaluate(fn, items[i], num_buckets, counting) : 0u, valid, active);
      }
    }
  };
  if (bits <= max_prescan_ballot_bits) {
    std::uint32_t mine = 0;
    const lane_flips flips = lane_flips::make();
    each_window([&](std::uint32_t b, bool, std::uint32_t active) {
      mine += warp_histogram_lane_count<max_prescan_ballot_bits>(b, active, flips);
    });
    if (lane < num_buckets) row[lane] = mine;
  } else {
    each_window([&](std::uint32_t b, bool valid, std::uint32_t) {
      if (valid) warp_histogram_atomic_add(row, b);
    });
  }
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < num_buckets; b += Policy::threads) {
    std::uint32_t total = 0;
#pragma unroll
    for (int w = 0; w < Policy::warps; ++w) total += warp_counts[w][b];
    histograms[static_cast<std::size_t>(b) * gridDim.x + blockIdx.x] = total;
  }
}

}  // namespace detail
}  // namespace multisplit
