// Tuning as data: the launch shape of each warp-level method (seed 000, Section 5: DMS, WMS and
// BMS differ in how far items are localized and reordered before the scatter), and the method
// chosen when the caller asks for method::automatic. The measurements that justify each number
// are in bench/results/multisplit.md (sm_90), linked from each choice.
//
// Shapes are chosen per GPU architecture: the measured table (policy_for) serves the
// architecture it was measured on (sm_90), a conservative table (portable_policy_for) every
// other. The device code of a kernel picks its shape from __CUDA_ARCH__ (active_policy); the
// host picks the same one at run time from the architecture of the code that runs on the
// current device (dispatch_multisplit.cuh), so grid, tile and shared-memory sizes agree.
#pragma once

#include <cstdint>
#include <type_traits>

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

// Bucket counts up to 2^6 = 64 keep each bucket's running count in a register: bucket b in lane
// b mod 32, each lane holding 2^(bits - 5) counters (seed 000, Section 5.7: a thread in charge
// of ceil(m / 32) buckets); beyond, in per-warp shared counters (warp_local_offsets.cuh). The
// second counter per lane costs one ballot-free AND, a popcount and a shuffle per window, far
// less than the shared counters' per-window load, store and two __syncwarp.
constexpr int lane_bucket_bits = 5;  // one counter per lane: 32 buckets
constexpr int max_register_bucket_bits = 6;

// The prescan counts with ballots for 2 buckets and with shared-memory atomics on warp-private
// rows beyond. Ballots cost about 2 SM cycles each on sm_90, one per bucket bit and window of 32
// keys; an atomic costs one per key but conflicts when keys of one window share a bucket, which
// ballots avoid. At m = 8 a uniform window puts about 4 keys on each address and the atomics
// still run at copy speed (as with no conflicts at m = 256), so m = 3, 4 (8 per address) take
// atomics too rather than two ballots a window (not measured yet); m = 2 (16 per address) keeps
// one ballot. The prescan's timings: bench/results/multisplit.md, "The prescan: ballots or
// shared-memory atomics".
constexpr int max_prescan_ballot_bits = 1;

// The architectures with a table of their own. sm90: compute capability 9.x (Hopper);
// portable: every other, including the ones after sm_90 (not measured; consumer parts of later
// generations have 100 KB of shared memory per SM, less than the sm_90 shapes take).
enum class arch_class { portable, sm90 };

constexpr arch_class arch_class_of(int arch) {  // arch: __CUDA_ARCH__ form, 900 for sm_90
  return arch >= 900 && arch < 1000 ? arch_class::sm90 : arch_class::portable;
}

#ifdef __CUDA_ARCH__
constexpr int compiled_arch = __CUDA_ARCH__;
#else
constexpr int compiled_arch = 0;  // host pass: kernel bodies are not run here
#endif

// A tile is threads * windows items; warp w of the block owns windows
// [w * windows, (w + 1) * windows), each window 32 consecutive items (one per lane).
// BucketBits: the largest ceil(log2 m) the policy serves (<= max_register_bucket_bits: the
// register counters, lane_counters per lane; otherwise the shared counters).
// MinBlocks: the postscan's __launch_bounds__ minimum, which makes ptxas keep its registers
// within 64K / (Threads * MinBlocks) (0: no bound).
// LateValues: pairs load a tile's values once its keys are ranked, rather than with its keys
// while the previous tile is stored.
template <reorder_scope Scope, int Threads, int Windows, int BlocksPerSm, int BucketBits, int MinBlocks = 0,
          bool LateValues = false>
struct multisplit_policy {
  static constexpr reorder_scope scope = Scope;
  static constexpr int threads = Threads;
  static constexpr int warps = Threads / 32;
  static constexpr int windows = Windows;
  static constexpr int warp_items = Windows * 32;
  static constexpr int tile_items = Threads * Windows;
  static constexpr int blocks_per_sm = BlocksPerSm;  // upper bound; occupancy may lower it
  static constexpr int min_blocks = MinBlocks;
  static constexpr int bucket_bits = BucketBits;
  static constexpr bool late_values = LateValues;
  static constexpr bool register_counters = BucketBits <= max_register_bucket_bits;
  // Columns of the per-warp count rows: the register policies write at most 64 buckets.
  static constexpr int count_columns = register_counters ? 32 << (BucketBits > lane_bucket_bits ? 1 : 0)
                                                         : static_cast<int>(max_warp_buckets);
  static constexpr int lane_counters = BucketBits <= lane_bucket_bits ? 1 : 1 << (BucketBits - lane_bucket_bits);
  // A policy is its own selector: the same shape on every architecture (the benchmark's variants).
  template <arch_class>
  using on = multisplit_policy;
};

// A selector: the measured shape on sm_90, the conservative one elsewhere. Kernels are templated
// on the selector, so each architecture's code is compiled with its own shape.
template <class Tuned, class Portable>
struct by_arch {
  static_assert(Tuned::bucket_bits == Portable::bucket_bits && Tuned::scope == Portable::scope,
                "one selector serves one range of bucket counts");
  static constexpr int bucket_bits = Tuned::bucket_bits;
  template <arch_class A>
  using on = std::conditional_t<A == arch_class::sm90, Tuned, Portable>;
};

// The shape a kernel's device code runs with.
template <class Selector>
using active_policy = typename Selector::template on<arch_class_of(compiled_arch)>;

// The measured launch shapes, as tile threads x windows under a bound of resident blocks (BMS,
// the total of the three stages at n = 2^28 against every other shape tried, over rounds 1 to 5
// of bench/results/multisplit.md; the tables: "The measured launch shapes"). The postscan is
// bound by integer issue (ncu: the ALU pipe is the busiest), so the longer tile wins where it
// halves the per-tile work per item (block scan, barriers, the warp-0 bucket scan) without
// losing occupancy to registers: 256 x 16 under a 4-block bound for keys up to 32 buckets, and
// for pairs, whose tile carries twice the bytes. With 256 buckets a pair tile of 512 x 16 gives
// each bucket 32 items per tile (runs of 128 bytes for keys and for values). DMS and WMS were
// measured only at 256 x 8. The shared-counter BMS keeps its output places per bucket rather
// than per warp and bucket (split lands in agent/postscan.cuh), so a key tile of 512 x 16 fits
// two blocks to an SM. Values loaded after ranking (late) win where ranking is short (register
// counters) and lose behind the long shared-counter ranking; under a 2-block bound a pair tile of
// 512 x 16 spills. BMS stages each item's bucket as a byte instead of its output position (the
// scattered staging stores conflicted in shared-memory banks, the top stalls under ncu). So keys
// take 512 x 16 under a 2-block bound from 65 buckets and pairs 512 x 16 from 5 bits (for 5-bit
// pairs a draw with 256 x 16 over the policy's range).
template <reorder_scope Scope, bool Pairs>
struct sm90_policy_for {
  static constexpr bool block = Scope == reorder_scope::block;
  static constexpr int few_windows = block ? 16 : 8;
  // Key-only tiles: BMS's 16 windows fit 64 registers (4 resident blocks of 256), DMS's and WMS's
  // 8 windows 48 (5 blocks); heavier bucket functions spill a little under these bounds (even_bins'
  // double arithmetic, splitters). Pair tiles would spill under them; unbounded, a BMS pair tile
  // of 256 x 16 takes 80-128 registers and one of 512 x 16 117-128 (one block per SM).
  static constexpr int few_min_blocks = Pairs ? 0 : block ? 4 : 5;
  static constexpr int some_min_blocks = Pairs ? 0 : block ? 3 : 5;
  // Up to 4 buckets the same shape with two ballots per window: the register-counter policies
  // take ballots for every bucket bit the policy serves (no per-ballot test of m), so m <= 4
  // has a policy of its own rather than five ballots.
  using tiny_buckets = multisplit_policy<Scope, 256, few_windows, 8, 2, few_min_blocks>;
  // BMS pairs from 5 bits: 512 x 16 (bench/results/multisplit.md, round 5).
  using few_buckets = std::conditional_t<block && Pairs, multisplit_policy<Scope, 512, 16, 4, lane_bucket_bits>,
                                         multisplit_policy<Scope, 256, few_windows, 8, lane_bucket_bits, few_min_blocks>>;
  // 33..64 buckets: the m <= 32 shape with two register counters per lane (faster than 512 x 8
  // with shared counters for keys); BMS pairs load their values late there.
  using some_buckets = std::conditional_t<
      block && Pairs, multisplit_policy<Scope, 512, 16, 4, max_register_bucket_bits, 0, true>,
      multisplit_policy<Scope, 256, few_windows, 8, max_register_bucket_bits, some_min_blocks>>;
  static constexpr int many_windows = block ? 16 : 8;
  // Shared counters: 65..128 buckets take seven ballots per window, 129..256 eight (the bits are
  // the policy's, so no ballot is tested against ceil(log2 m) at run time). BMS keys under a
  // 2-block bound.
  static constexpr int many_min_blocks = block && !Pairs ? 2 : 0;
  using more_buckets = multisplit_policy<Scope, 512, many_windows, 4, max_bucket_bits - 1, many_min_blocks>;
  using many_buckets = multisplit_policy<Scope, 512, many_windows, 4, max_bucket_bits, many_min_blocks>;
};

// The conservative shape, for architectures without measurements: 256 threads x 8 windows for every
// method and bucket count (the 256 x 8 rows of round 1's launch-shape table in
// bench/results/multisplit.md: close to the best shape measured there), with no register bound and
// values loaded with their keys. Its postscan stays under the 48 KB of shared memory that every
// architecture gives without opting in (checked in dispatch_multisplit.cuh), and its occupancy is
// found at run time.
template <reorder_scope Scope, bool Pairs>
struct portable_policy_for {
  template <int BucketBits>
  using shape = multisplit_policy<Scope, 256, 8, 8, BucketBits>;
  using tiny_buckets = shape<2>;
  using few_buckets = shape<lane_bucket_bits>;
  using some_buckets = shape<max_register_bucket_bits>;
  using more_buckets = shape<max_bucket_bits - 1>;
  using many_buckets = shape<max_bucket_bits>;
};

// The selectors dispatch uses, one per range of bucket counts.
template <reorder_scope Scope, bool Pairs>
struct policy_for {
  using sm90 = sm90_policy_for<Scope, Pairs>;
  using portable = portable_policy_for<Scope, Pairs>;
  using tiny_buckets = by_arch<typename sm90::tiny_buckets, typename portable::tiny_buckets>;
  using few_buckets = by_arch<typename sm90::few_buckets, typename portable::few_buckets>;
  using some_buckets = by_arch<typename sm90::some_buckets, typename portable::some_buckets>;
  using more_buckets = by_arch<typename sm90::more_buckets, typename portable::more_buckets>;
  using many_buckets = by_arch<typename sm90::many_buckets, typename portable::many_buckets>;
};

}  // namespace detail
}  // namespace multisplit
