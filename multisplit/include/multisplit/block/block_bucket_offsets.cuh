// Block-level offsets of one tile (seed 000, Section 5.3, BMS "block-level local offsets"): once
// every warp has counted its windows per bucket, each bucket's counts are scanned across the
// warps (so warp w knows how many items of bucket b precede its own in the tile), and the tile
// totals are scanned across buckets (where bucket b starts when the tile is grouped by bucket).
#pragma once

#include <cstdint>

#include <cub/block/block_scan.cuh>
#include <cuda_runtime.h>

#include "multisplit/detail/policy.cuh"

namespace multisplit {
namespace detail {

template <class Policy>
struct block_bucket_offsets {
  static constexpr int per_thread =
      (static_cast<int>(max_warp_buckets) + Policy::threads - 1) / Policy::threads;
  using block_scan = cub::BlockScan<std::uint32_t, Policy::threads>;
  using temp_storage = typename block_scan::TempStorage;

  // warp_counts[w][b]: items of bucket b in warp w's windows; replaced by the exclusive prefix
  // over warps. Returns, for this thread's buckets b = threadIdx.x * per_thread + j, the tile
  // total (totals[j]) and the exclusive prefix of the totals over buckets (starts[j]).
  __device__ __forceinline__ static void compute(temp_storage& storage,
                                                 std::uint32_t (*warp_counts)[max_warp_buckets],
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
          warp_counts[w][b] = running;
          running += c;
        }
      }
      totals[j] = running;
    }
    block_scan(storage).ExclusiveSum(totals, starts);
  }
};

}  // namespace detail
}  // namespace multisplit
