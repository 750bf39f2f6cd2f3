// Block-level offsets of one tile (seed 000, Section 5.3, BMS "block-level local offsets"): once
// every warp has counted its windows per bucket, each bucket's counts are scanned across the
// warps (so warp w knows how many items of bucket b precede its own in the tile), and the tile
// totals are scanned across buckets (where bucket b starts when the tile is grouped by bucket).
//
// Up to 64 buckets (the register-counter policies) lane j of warp 0 takes the lane_counters
// buckets from j * lane_counters on, and the scan across buckets is five shuffles (Section
// 5.5.4 scans with __shfl_up rather than a block-wide scan): no cub::BlockScan, none of its
// barriers, and the other warps wait at one barrier only. Beyond 64 buckets every thread takes
// a bucket and cub::BlockScan scans the totals, in its warp-scans variant: one barrier instead
// of the raking variant's two, and fewer registers (Section 5.7 found CUB's block scan
// register-hungry too): with raking, BMS pairs at 512 x 8 need 90 registers (one resident
// block per SM), with warp scans 64 (two), no spills.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cub/block/block_scan.cuh>
#include <cuda_runtime.h>

#include "multisplit/detail/policy.cuh"

namespace multisplit {
namespace detail {

template <class Policy>
struct block_bucket_offsets {
  static constexpr bool one_warp = Policy::register_counters;
  static constexpr int per_thread = one_warp ? Policy::lane_counters
                                             : (static_cast<int>(max_warp_buckets) + Policy::threads - 1) /
                                                   Policy::threads;
  using block_scan = cub::BlockScan<std::uint32_t, Policy::threads, cub::BLOCK_SCAN_WARP_SCANS>;
  struct no_storage {};
  using temp_storage = std::conditional_t<one_warp, no_storage, typename block_scan::TempStorage>;

  // warp_counts[w][b]: items of bucket b in warp w's windows; replaced by the exclusive prefix
  // over warps, unless Prefixes is false: then they stay, for a caller that walks them once more
  // after the scan (the shared-counter BMS, which clears its rows on that walk). Returns, for
  // this thread's buckets b = threadIdx.x * per_thread + j, the tile total (totals[j]) and the
  // exclusive prefix of the totals over buckets (starts[j]); a thread past the last bucket gets
  // a zero total. Every thread of the block calls it.
  template <bool Prefixes = true>
  __device__ __forceinline__ static void compute(temp_storage& storage,
                                                 std::uint32_t (*warp_counts)[Policy::count_columns],
                                                 std::uint32_t num_buckets,
                                                 std::uint32_t (&totals)[per_thread],
                                                 std::uint32_t (&starts)[per_thread]) {
#pragma unroll
    for (int j = 0; j < per_thread; ++j) {
      const std::uint32_t b = threadIdx.x * per_thread + j;
      std::uint32_t running = 0;
      if (b < num_buckets) {
#pragma unroll
        for (int w = 0; w < Policy::warps; ++w) {
          const std::uint32_t c = warp_counts[w][b];
          if constexpr (Prefixes) warp_counts[w][b] = running;
          running += c;
        }
      }
      totals[j] = running;
    }
    if constexpr (one_warp) {
      (void)storage;
      std::uint32_t sum = 0;
#pragma unroll
      for (int j = 0; j < per_thread; ++j) sum += totals[j];
      std::uint32_t running = 0;
      if (threadIdx.x < 32) {  // warp 0 holds every bucket (num_buckets <= 32 * per_thread)
        std::uint32_t inclusive = sum;
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          const std::uint32_t up = __shfl_up_sync(0xffffffffu, inclusive, d);
          if (threadIdx.x >= static_cast<unsigned>(d)) inclusive += up;
        }
        running = inclusive - sum;
      }
#pragma unroll
      for (int j = 0; j < per_thread; ++j) {
        starts[j] = running;
        running += totals[j];
      }
    } else {
      block_scan(storage).ExclusiveSum(totals, starts);
    }
  }
};

}  // namespace detail
}  // namespace multisplit
