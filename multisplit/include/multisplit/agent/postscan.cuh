// Postscan (seed 000, Sections 4 and 5; seed 001's downsweep). Block g walks its even share of
// tiles in order, carrying per bucket the global position of its next item (its column of the
// scanned H). For each tile:
//   A. local offsets: each warp ranks its windows with ballots (warp_local_offsets.cuh); the
//      running count per bucket lives in a register of lane b mod 32 (m <= 64) or, beyond, in
//      the warp's private shared counters: every lane reads its bucket's count and every peer
//      writes the same advanced count (no leader to find, no shuffle of its count).
//   B. block offsets: counts are scanned across warps and buckets (block_bucket_offsets.cuh);
//      the carried positions advance by the tile's totals.
//   C. scatter, by the policy's reorder scope:
//      DMS (none)  - each item is stored from registers to its final position;
//      WMS (warp)  - each warp groups its items by bucket in shared memory, then stores runs;
//      BMS (block) - the tile is grouped by bucket in shared memory, then stored in long runs
//                    (Section 5.4: reordering for coalesced writes).
// Values, when present, reach C with their keys: loaded with them, or, under a late-values
// policy, once A has ranked the keys.
//
// Barriers: two per tile for DMS and WMS (after A, after B), three for BMS (and after its
// shared-memory scatter), plus cub::BlockScan's beyond 64 buckets. Nothing else is needed
// between tiles: the bucket counters are warp-private rows that the next tile's A rewrites
// (m <= 64) or, beyond, that their own warp clears in A (DMS, WMS) or that B clears behind a
// barrier (BMS, whose B reads them anyway), and every other shared array written in
// tile t + 1 is last read in tile t before a barrier of tile t + 1 (base, staged
// items) or by its own warp only (rows, WMS starts and segments: one __syncwarp).
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "multisplit/block/block_bucket_offsets.cuh"
#include "multisplit/checked_buckets.cuh"
#include "multisplit/detail/load_window.cuh"
#include "multisplit/detail/no_value.cuh"
#include "multisplit/detail/policy.cuh"
#include "multisplit/detail/stage_splitters.cuh"
#include "multisplit/detail/tile_range.cuh"
#include "multisplit/warp/warp_bucket_offsets.cuh"
#include "multisplit/warp/warp_local_offsets.cuh"

namespace multisplit {
namespace detail {

template <class Policy, class Key, class Value>
struct postscan_storage {
  static constexpr bool reorders = Policy::scope != reorder_scope::none;
  static constexpr int staged = reorders ? Policy::tile_items : 1;
  static constexpr bool warp_scope = Policy::scope == reorder_scope::warp;
  static constexpr bool block_scope = Policy::scope == reorder_scope::block;
  static constexpr int warp_rows = warp_scope ? Policy::warps : 1;

  static constexpr int wms_buckets = warp_scope ? static_cast<int>(max_warp_buckets) : 1;
  static constexpr int bms_buckets = block_scope ? static_cast<int>(max_warp_buckets) : 1;

  std::uint32_t warp_counts[Policy::warps][Policy::count_columns];
  // BMS: per warp and bucket, where the warp's items of the bucket land in the grouped tile, less
  // (bucket << 16) (see ranked_item); per bucket, its output position less its grouped-tile one.
  std::uint32_t lands[block_scope ? Policy::warps : 1][block_scope ? Policy::count_columns : 1];
  std::uint32_t shift[bms_buckets];
  std::uint32_t warp_starts[warp_rows][wms_buckets];  // WMS: bucket starts in a warp's run
  std::uint32_t carry[max_warp_buckets];  // global position of this block's next item per bucket
  std::uint32_t base[wms_buckets];        // WMS: where this tile's bucket b lands
  Key keys[staged];
  Value values[has_values<Value> ? staged : 1];
  // The bucket of each staged item: WMS finds its run with it, BMS its output shift. A byte, not
  // the output position: the staging stores scatter over the tile and conflict in shared-memory
  // banks (about 3.5 ways for 256 uniform buckets), while the stores' reads of the grouped tile
  // are consecutive and find few distinct buckets per window (ncu: the 256-bucket postscan waits
  // mostly on shared memory, short scoreboard and MIO throttle).
  std::uint8_t buckets[staged];
  typename block_bucket_offsets<Policy>::temp_storage scan;
  splitter_stage stage_area;
};

// An item's bucket and its rank among its warp's items of that bucket, packed in one word:
// bucket << 16 | rank (bucket < 2^8, rank < warp_items <= 2^13). Items, values and these words
// are the per-item state that lives across a tile's barriers, so they set the kernel's
// registers (occupancy). The layout saves integer instructions in the scatter (the postscan is
// bound by integer issue): a row entry for bucket b stored less b << 16 gives entry + word =
// entry's position + rank with no unpacking, and the entry's byte offset in a row of 4-byte
// entries is word >> 14 (the rank's bits fall off).
struct ranked_item {
  std::uint32_t word;
  static constexpr int bucket_shift = 16;
  __device__ __forceinline__ static ranked_item of(std::uint32_t bucket, std::uint32_t rank) {
    return {(bucket << bucket_shift) + rank};
  }
  __device__ __forceinline__ std::uint32_t bucket() const { return word >> bucket_shift; }
  __device__ __forceinline__ std::uint32_t rank() const { return word & ((1u << bucket_shift) - 1); }
  // The entry of this item's bucket in a row of 4-byte entries.
  __device__ __forceinline__ std::uint32_t in(const std::uint32_t* row) const {
    constexpr int shift = bucket_shift - 2;
    return *reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const unsigned char*>(row) + (word >> shift));
  }
};

// Selector: a launch shape, or one per architecture (policy.cuh).
template <class Selector, class Key, class Value, class BucketFn>
__global__ void __launch_bounds__(active_policy<Selector>::threads, active_policy<Selector>::min_blocks)
    postscan_kernel(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                    item_count count, std::uint32_t num_buckets, BucketFn bucket_of,
                    const std::uint32_t* scanned, const std::uint32_t* single_bucket) {
  using Policy = active_policy<Selector>;
  using storage_t = postscan_storage<Policy, Key, Value>;
  using offsets_t = block_bucket_offsets<Policy>;
  constexpr bool pairs = has_values<Value>;
  constexpr int per_thread = offsets_t::per_thread;
  // BMS with shared counters walks the counts once more in B, after the bucket scan, where it
  // forms the warps' prefixes and clears the rows, so A needs no clearing loop.
  constexpr bool reset_rows = Policy::scope == reorder_scope::block && !Policy::register_counters;
  extern __shared__ __align__(16) unsigned char shared_bytes[];  // sizeof(storage_t), dynamic:
  storage_t& s = *reinterpret_cast<storage_t*>(shared_bytes);     // large tiles pass 48 KiB

  static_assert(Policy::warp_items <= (1 << 13), "ranks must leave ranked_item's bucket bits clear");
  const std::uint32_t n = count.get();
  const tile_range range = even_share(n, Policy::tile_items);
  if (*single_bucket) {  // early exit: the order cannot change, so copy this block's range
    const std::uint64_t end = min(static_cast<std::uint64_t>(range.end) * Policy::tile_items,
                                  static_cast<std::uint64_t>(n));
    for (std::uint64_t i = static_cast<std::uint64_t>(range.begin) * Policy::tile_items + threadIdx.x;
         i < end; i += Policy::threads) {
      keys_out[i] = keys_in[i];
      if constexpr (pairs) values_out[i] = values_in[i];
    }
    return;
  }

  auto fn = stage(bucket_of, s.stage_area);
  for (std::uint32_t b = threadIdx.x; b < num_buckets; b += Policy::threads)
    s.carry[b] = scanned[static_cast<std::size_t>(b) * gridDim.x + blockIdx.x];
  if constexpr (reset_rows)
    for (int j = static_cast<int>(threadIdx.x); j < Policy::warps * Policy::count_columns; j += Policy::threads)
      (&s.warp_counts[0][0])[j] = 0;
  __syncthreads();

  const int warp = static_cast<int>(threadIdx.x / 32);
  const unsigned lane = lane_id();
  const lane_flips flips = lane_flips::make();
  std::uint32_t* row = s.warp_counts[warp];
  // The next tile's items are loaded into k and v as soon as the current tile no longer needs
  // them there (after the scatter into shared memory), so the loads overlap the stores; under a
  // late-values policy the values wait until A has ranked the tile's keys (C is the first to
  // need them).
  constexpr bool early_values = pairs && !Policy::late_values;
  Key k[Policy::windows];
  Value v[Policy::windows];
  auto load_tile = [&](std::uint32_t tile) {
    const std::uint64_t first = first_item<Policy>(tile, warp, lane);
    const bool full = static_cast<std::uint64_t>(tile + 1) * Policy::tile_items <= n;
    load_windows<Policy>(keys_in, first, n, full, k);
    if constexpr (early_values) load_windows<Policy>(values_in, first, n, full, v);
  };
  // One tile; Full: every window is whole (all but a block's last tile), so no lane checks.
  auto process = [&](std::uint32_t tile, auto full_tile) {
    constexpr bool full = decltype(full_tile)::value;
    const std::uint64_t first = first_item<Policy>(tile, warp, lane);
    const bool more = tile + 1 < range.end;
    auto valid = [&](int i) { return full || first + 32 * i < n; };
    ranked_item item[Policy::windows];

    // A. local offsets within the warp's windows, in input order.
    if constexpr (Policy::register_counters) {
      constexpr int counters = Policy::lane_counters;
      std::uint32_t mine[counters];  // lane j: items of bucket j + 32 c in the windows so far
#pragma unroll
      for (int c = 0; c < counters; ++c) mine[c] = 0;
#pragma unroll
      for (int i = 0; i < Policy::windows; ++i) {
        const std::uint32_t active = full ? 0xffffffffu : __ballot_sync(0xffffffffu, valid(i));
        const std::uint32_t b = valid(i) ? evaluate(fn, k[i], num_buckets, false) : 0;
        const window_match<counters> w = match_window<Policy::bucket_bits, counters>(b, active, flips);
        // Bucket b's count before this window: lane b mod 32's counter b / 32 (a shuffle reads
        // only the low five bits of its lane index).
        std::uint32_t before = __shfl_sync(0xffffffffu, mine[0], b);
        if constexpr (counters == 2) {
          const std::uint32_t upper = __shfl_sync(0xffffffffu, mine[1], b);
          if (b >> lane_bucket_bits) before = upper;
        }
        item[i] = ranked_item::of(b, before + local_offset(w.peers));
#pragma unroll
        for (int c = 0; c < counters; ++c) mine[c] += static_cast<std::uint32_t>(__popc(w.lane_bucket[c]));
      }
#pragma unroll
      for (int c = 0; c < counters; ++c)
        if (lane + 32 * c < num_buckets) row[lane + 32 * c] = mine[c];
      __syncwarp();
    } else {
      if constexpr (!reset_rows) {
        for (std::uint32_t j = lane; j < num_buckets; j += 32) row[j] = 0;
        __syncwarp();
      }
      // Every lane reads its bucket's count and every peer writes the same new count: no leader
      // to find and no shuffle of its count. A lane outside `active` has bucket 0 and, as peers,
      // the active lanes of bucket 0, so it too writes their count (or the old one when none).
#pragma unroll
      for (int i = 0; i < Policy::windows; ++i) {
        const std::uint32_t active = full ? 0xffffffffu : __ballot_sync(0xffffffffu, valid(i));
        const std::uint32_t b = valid(i) ? evaluate(fn, k[i], num_buckets, false) : 0;
        const std::uint32_t peers = match_bucket<Policy::bucket_bits>(b, active, flips);
        const std::uint32_t before = row[b];
        __syncwarp();  // every lane has read before any writes
        row[b] = before + static_cast<std::uint32_t>(__popc(peers));
        item[i] = ranked_item::of(b, before + local_offset(peers));
        __syncwarp();
      }
    }
    if constexpr (pairs && !early_values) load_windows<Policy>(values_in, first, n, full, v);
    if constexpr (Policy::scope == reorder_scope::warp)
      warp_bucket_offsets(row, s.warp_starts[warp], num_buckets);
    __syncthreads();

    // B. block offsets; the carried positions move past this tile. DMS and BMS fold where the
    // tile's bucket lands (DMS: its global position; BMS: its start in the grouped tile) into
    // every warp's entry, less b << 16, so the scatter finds an item's place with one lookup and
    // one add: entry + item word (ranked_item). BMS keeps, per bucket, the global position less
    // the grouped-tile one (shift), for its store loop.
    {
      std::uint32_t totals[per_thread], starts[per_thread];
      offsets_t::template compute<!reset_rows>(s.scan, s.warp_counts, num_buckets, totals, starts);
#pragma unroll
      for (int j = 0; j < per_thread; ++j) {
        const std::uint32_t bucket = threadIdx.x * per_thread + j;
        if (bucket < num_buckets) {
          const std::uint32_t at = s.carry[bucket];
          s.carry[bucket] = at + totals[j];
          if constexpr (Policy::scope == reorder_scope::warp) {
            s.base[bucket] = at;
          } else if constexpr (Policy::scope == reorder_scope::none) {
            const std::uint32_t lands = at - (bucket << ranked_item::bucket_shift);
#pragma unroll
            for (int w = 0; w < Policy::warps; ++w) s.warp_counts[w][bucket] += lands;
          } else {
            s.shift[bucket] = at - starts[j];
            std::uint32_t lands = starts[j] - (bucket << ranked_item::bucket_shift);
#pragma unroll
            for (int w = 0; w < Policy::warps; ++w) {
              if constexpr (reset_rows) {  // the counts are still there: walk them, clearing
                const std::uint32_t count = s.warp_counts[w][bucket];
                s.warp_counts[w][bucket] = 0;
                s.lands[w][bucket] = lands;
                lands += count;
              } else {  // the counts were replaced by the warps' prefixes
                s.lands[w][bucket] = s.warp_counts[w][bucket] + lands;
              }
            }
          }
        }
      }
    }
    __syncthreads();

    // C. scatter.
    if constexpr (Policy::scope == reorder_scope::none) {
#pragma unroll
      for (int i = 0; i < Policy::windows; ++i) {
        if (valid(i)) {
          const std::uint32_t pos = item[i].in(row) + item[i].word;
          keys_out[pos] = k[i];
          if constexpr (pairs) values_out[pos] = v[i];
        }
      }
      if (more) load_tile(tile + 1);
    } else if constexpr (Policy::scope == reorder_scope::warp) {
      const int seg = warp * Policy::warp_items;
#pragma unroll
      for (int i = 0; i < Policy::windows; ++i) {
        if (valid(i)) {
          const std::uint32_t b = item[i].bucket();
          const std::uint32_t p = seg + s.warp_starts[warp][b] + item[i].rank();
          s.keys[p] = k[i];
          if constexpr (pairs) s.values[p] = v[i];
          s.buckets[p] = static_cast<std::uint8_t>(b);
        }
      }
      if (more) load_tile(tile + 1);
      __syncwarp();
      const std::uint64_t seg_first = static_cast<std::uint64_t>(tile) * Policy::tile_items + seg;
      const int seg_items = seg_first >= n ? 0
                            : static_cast<int>(min(static_cast<std::uint64_t>(Policy::warp_items),
                                                   n - seg_first));
      for (int j = static_cast<int>(lane); j < seg_items; j += 32) {
        const std::uint32_t bucket = s.buckets[seg + j];
        const std::uint32_t pos = s.base[bucket] + row[bucket] + (j - s.warp_starts[warp][bucket]);
        keys_out[pos] = s.keys[seg + j];
        if constexpr (pairs) values_out[pos] = s.values[seg + j];
      }
    } else {
#pragma unroll
      for (int i = 0; i < Policy::windows; ++i) {
        if (valid(i)) {
          const std::uint32_t p = item[i].in(s.lands[warp]) + item[i].word;
          s.keys[p] = k[i];
          if constexpr (pairs) s.values[p] = v[i];
          s.buckets[p] = static_cast<std::uint8_t>(item[i].bucket());
        }
      }
      if (more) load_tile(tile + 1);
      __syncthreads();
      auto store = [&](int j) {  // staged item j to its final position
        const std::uint32_t pos = j + s.shift[s.buckets[j]];
        keys_out[pos] = s.keys[j];
        if constexpr (pairs) values_out[pos] = s.values[j];
      };
      if constexpr (full) {  // unrolled: a thread's Windows stores are independent, all in flight at once
#pragma unroll
        for (int r = 0; r < Policy::windows; ++r) store(r * Policy::threads + static_cast<int>(threadIdx.x));
      } else {
        const int tile_items = static_cast<int>(n - static_cast<std::uint64_t>(tile) * Policy::tile_items);
        for (int j = static_cast<int>(threadIdx.x); j < tile_items; j += Policy::threads) store(j);
      }
    }
    __syncwarp();  // this warp's lanes are done with its row before the next tile rewrites it
  };
  if (range.begin < range.end) load_tile(range.begin);
  for (std::uint32_t tile = range.begin; tile < range.end; ++tile) {
    if (static_cast<std::uint64_t>(tile + 1) * Policy::tile_items <= n)
      process(tile, std::true_type{});
    else
      process(tile, std::false_type{});
  }
}

}  // namespace detail
}  // namespace multisplit
