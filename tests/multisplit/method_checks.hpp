// The checks every multisplit method goes through, against the host stable multisplit
// (multisplit_reference.hpp), element by element, keys and key-value pairs (value = input index,
// which checks stability), with the bucket offsets, over the sizes, bucket counts and
// distributions of seed 000 Section 6. Each method's test file (direct_test.cu, warp_test.cu,
// block_test.cu, large_test.cu, baselines_test.cu, automatic_test.cu) instantiates them for its
// method alone: a method is called through detail::dispatch_method<How>, which compiles only its
// kernels, so a change to one method's tests rebuilds one file.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "common/test_size.hpp"
#include "multisplit/multisplit.cuh"
#include "multisplit/multisplit_reference.hpp"

namespace multisplit_test {

using multisplit::method;

// Tile sizes of the launch shapes, on sm_90 and elsewhere (the compute_80 build), for the
// tile-boundary sizes below.
using block_selectors = multisplit::detail::policy_for<multisplit::detail::reorder_scope::block, false>;
using pair_selectors = multisplit::detail::policy_for<multisplit::detail::reorder_scope::block, true>;
template <class Selector>
constexpr std::uint32_t sm90_tile = Selector::template on<multisplit::detail::arch_class::sm90>::tile_items;
template <class Selector>
constexpr std::uint32_t portable_tile = Selector::template on<multisplit::detail::arch_class::portable>::tile_items;
constexpr std::uint32_t tile = sm90_tile<block_selectors::few_buckets>;       // m <= 64
constexpr std::uint32_t wide_tile = sm90_tile<block_selectors::many_buckets>;  // m > 64
constexpr std::uint32_t pair_tile = sm90_tile<pair_selectors::few_buckets>;   // BMS pairs, m <= 64
constexpr std::uint32_t portable = portable_tile<block_selectors::many_buckets>;

struct split_outcome {
  cudaError_t status = cudaSuccess;
  std::vector<std::uint32_t> keys, values, offsets;
};

// One call of method How: key-only or pairs, the item count on the host or on the device.
// method::automatic goes through the public calls; every other method through
// detail::dispatch_method<How> (the public calls with a fixed method end there too).
template <method How, class Key, class Value, class BucketFn, class Count>
cudaError_t split(void* temp, std::size_t& bytes, const Key* keys_in, Key* keys_out, const Value* values_in,
                  Value* values_out, Count count, std::uint32_t m, BucketFn fn, std::uint32_t* offsets,
                  cudaStream_t stream = 0) {
  constexpr bool pairs = !std::is_same_v<Value, multisplit::detail::no_value>;
  constexpr bool on_device = std::is_same_v<Count, multisplit::device_count>;
  if constexpr (How == method::automatic) {
    if constexpr (pairs)
      return multisplit::split_pairs(temp, bytes, keys_in, keys_out, values_in, values_out, count, m, fn, offsets,
                                     stream);
    else
      return multisplit::split_keys(temp, bytes, keys_in, keys_out, count, m, fn, offsets, stream);
  } else if constexpr (on_device) {
    return multisplit::detail::dispatch_method<How>(temp, bytes, keys_in, keys_out, values_in, values_out,
                                                    multisplit::detail::device_items(count), count.max_items, m,
                                                    fn, offsets, stream);
  } else {
    return multisplit::detail::dispatch_method<How>(temp, bytes, keys_in, keys_out, values_in, values_out,
                                                    multisplit::detail::host_items(count), count, m, fn, offsets,
                                                    stream);
  }
}

template <method How, class BucketFn>
split_outcome run_split(const device_buffer<std::uint32_t>& keys, const device_buffer<std::uint32_t>& indices,
                        std::size_t n, std::uint32_t m, BucketFn fn, bool pairs, bool count_on_device) {
  using multisplit::detail::no_value;
  split_outcome out;
  device_buffer<std::uint32_t> keys_out(n), values_out(n), offsets(m + 1), dev_n(1);
  offsets.fill_bytes(0xff);
  const std::uint32_t n32 = static_cast<std::uint32_t>(n);
  cudaMemcpy(dev_n.ptr, &n32, sizeof n32, cudaMemcpyHostToDevice);
  const multisplit::device_count dn{dev_n.ptr, n + 777};
  std::size_t bytes = 0;
  auto call = [&](void* temp) {
    const no_value* no_in = nullptr;
    no_value* no_out = nullptr;
    if (pairs)
      return count_on_device
                 ? split<How>(temp, bytes, keys.ptr, keys_out.ptr, indices.ptr, values_out.ptr, dn, m, fn, offsets.ptr)
                 : split<How>(temp, bytes, keys.ptr, keys_out.ptr, indices.ptr, values_out.ptr, n, m, fn, offsets.ptr);
    return count_on_device ? split<How>(temp, bytes, keys.ptr, keys_out.ptr, no_in, no_out, dn, m, fn, offsets.ptr)
                           : split<How>(temp, bytes, keys.ptr, keys_out.ptr, no_in, no_out, n, m, fn, offsets.ptr);
  };
  out.status = call(nullptr);
  if (out.status != cudaSuccess) return out;
  device_buffer<unsigned char> temp(bytes);
  out.status = call(temp.ptr);
  if (out.status == cudaSuccess) out.status = cudaDeviceSynchronize();
  if (out.status != cudaSuccess) return out;
  out.keys = keys_out.to_host(n);
  if (pairs) out.values = values_out.to_host(n);
  out.offsets = offsets.to_host(m + 1);
  return out;
}

// Whether method How solves a problem with m buckets, and whether it takes a device count.
template <method How>
bool solves(std::uint32_t m) {
  switch (How) {
    case method::direct:
    case method::warp:
    case method::block: return m <= multisplit::detail::max_warp_buckets;
    case method::scan_split: return m == 2;
    default: return true;
  }
}

template <method How>
constexpr bool takes_device_count = How != method::reduced_bit_sort && How != method::scan_split;

// Checks method How on one input. device_counts: also run the device_count overloads.
template <method How, class BucketFn>
void check_method(const std::vector<std::uint32_t>& host_keys, const std::vector<std::uint32_t>& buckets,
                  std::uint32_t m, BucketFn fn, bool device_counts, const std::string& what) {
  if (!solves<How>(m)) return;
  const std::size_t n = host_keys.size();
  const reference ref = stable_multisplit(buckets, m);
  std::vector<std::uint32_t> expected_keys(n);
  for (std::size_t j = 0; j < n; ++j) expected_keys[j] = host_keys[ref.order[j]];
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  const device_buffer<std::uint32_t> keys(host_keys), indices(index);
  ASSERT_TRUE(n == 0 || (keys.ptr && indices.ptr));

  for (int variant = 0; variant < 4; ++variant) {
    const bool pairs = variant & 1, on_device = variant & 2;
    if (on_device && (!device_counts || !takes_device_count<How>)) continue;
    const std::string label = what + " method=" + multisplit::method_name(How) + (pairs ? " pairs" : " keys") +
                              (on_device ? " device_count" : "");
    const split_outcome got = run_split<How>(keys, indices, n, m, fn, pairs, on_device);
    ASSERT_EQ(cudaSuccess, got.status) << label << ": " << cudaGetErrorString(got.status);
    const std::string keys_diff = first_difference(expected_keys, got.keys);
    ASSERT_TRUE(keys_diff.empty()) << label << " keys " << keys_diff;
    if (pairs) {
      const std::string values_diff = first_difference(ref.order, got.values);
      ASSERT_TRUE(values_diff.empty()) << label << " values (input indices) " << values_diff;
    }
    const std::string offsets_diff = first_difference(ref.offsets, got.offsets);
    ASSERT_TRUE(offsets_diff.empty()) << label << " offsets " << offsets_diff;
  }
}

// Sizes: the edge cases and both sides of every tile size (sm_90's and the conservative shapes'),
// and, at full size, a million items. The small size (DELTASPLIT_TEST_SIZE=small, for the
// sanitizers) keeps the edge cases and the tile boundaries of the shapes that run.
inline std::vector<std::size_t> small_sizes() {
  std::vector<std::size_t> sizes = {0,        1,        31,            32,           33,
                                    tile - 1, tile + 1, wide_tile - 1, wide_tile + 1, pair_tile - 1,
                                    pair_tile + 1, portable - 1, portable + 1};
  if (!deltasplit_test::small_run()) sizes.push_back((1u << 20) + 7);
  return sizes;
}

// 33..64 buckets: two register counters per lane; 65 on: shared counters.
inline std::vector<std::uint32_t> warp_bucket_counts() {
  if (deltasplit_test::small_run()) return {1, 2, 3, 33, 65, 256};
  return {1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 255, 256};
}

inline std::vector<std::uint32_t> large_bucket_counts() {
  if (deltasplit_test::small_run()) return {257, 4096};
  return {257, 1000, 4096, 12288};
}

inline std::vector<distribution> distributions() {
  if (deltasplit_test::small_run()) return {distribution::uniform, distribution::first_and_last};
  return {std::begin(all_distributions), std::end(all_distributions)};
}

template <method How>
void check_delta_buckets(const std::vector<std::size_t>& sizes, const std::vector<std::uint32_t>& bucket_counts,
                         bool device_counts) {
  std::uint64_t seed = 1;
  for (std::size_t n : sizes)
    for (std::uint32_t m : bucket_counts)
      for (distribution d : distributions()) {
        ++seed;
        if (!solves<How>(m)) continue;
        const std::vector<std::uint32_t> buckets = draw_buckets(n, m, d, seed);
        const std::vector<std::uint32_t> keys = delta_keys(buckets, m, seed);
        const std::string what = "n=" + std::to_string(n) + " m=" + std::to_string(m) + " " + name(d);
        check_method<How>(keys, buckets, m, multisplit::delta_buckets{delta_for(m)}, device_counts, what);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

// Past 2^22 items every block of the fixed grid walks several tiles (a few blocks per SM, tiles
// of 2048 to 8192 items), so the positions carried between tiles and the counters, offsets and
// staging areas that one tile leaves for the next are checked under every distribution, for
// each counter scheme (one or two register counters per lane, shared counters). The small size
// takes 2^18 items: still several tiles per block on a GPU of 132 SMs.
template <method How>
void check_several_tiles_per_block() {
  const std::size_t n = deltasplit_test::small_run() ? (std::size_t{1} << 18) + 5 : (std::size_t{1} << 22) + 5;
  check_delta_buckets<How>({n}, {3, 32, 64, 256}, false);
}

template <method How>
void check_large_inputs(std::vector<std::uint32_t> bucket_counts) {
  if (deltasplit_test::small_run()) return;
  std::uint64_t seed = 1000;
  for (std::uint32_t m : bucket_counts) {
    ++seed;
    if (!solves<How>(m)) continue;
    const std::size_t n = std::size_t{1} << 25;
    const std::vector<std::uint32_t> buckets = draw_buckets(n, m, distribution::uniform, seed);
    const std::vector<std::uint32_t> keys = delta_keys(buckets, m, seed);
    check_method<How>(keys, buckets, m, multisplit::delta_buckets{delta_for(m)}, false,
                      "n=2^25 m=" + std::to_string(m));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Delta-buckets divide by multiplication inside the kernels (fast_division.cuh): exact for
// every divisor, checked at keys on both sides of every bucket boundary and at the domain's end.
template <method How>
void check_exact_division() {
  for (std::uint32_t delta : {1u, 2u, 3u, 7u, 641u, 65537u, 0x7fffffffu, 0x80000001u, 0xfffffffeu, 0xffffffffu}) {
    const std::uint64_t span = std::uint64_t{delta} * 256;  // keys below span have ids < 256
    const std::uint32_t m = static_cast<std::uint32_t>(std::min<std::uint64_t>(256, (0xffffffffull / delta) + 1));
    if (!solves<How>(m)) continue;
    std::vector<std::uint32_t> keys;
    std::mt19937_64 rng(delta);
    for (std::uint64_t b = 1; b < m; ++b)
      for (std::int64_t d : {-1, 0, 1}) keys.push_back(static_cast<std::uint32_t>(b * delta + d));
    while (keys.size() < 5000)
      keys.push_back(static_cast<std::uint32_t>(rng() % std::min<std::uint64_t>(span, 0x100000000ull)));
    keys.push_back(0xffffffffu);
    keys.push_back(0);
    std::vector<std::uint32_t> buckets(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) buckets[i] = std::min(keys[i] / delta, m - 1);
    check_method<How>(keys, buckets, m, multisplit::delta_buckets{delta}, false, "delta=" + std::to_string(delta));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Range buckets by binary search over splitters: staged in shared memory for m <= 256, read from
// global memory beyond.
template <method How>
void check_splitter_buckets() {
  for (std::uint32_t m : {2u, 17u, 256u, 1000u}) {
    if (!solves<How>(m)) continue;
    const std::size_t n = deltasplit_test::small_run() ? 20000 : 200000;
    std::vector<std::uint32_t> keys = delta_keys(draw_buckets(n, 1, distribution::uniform, 7 * m), 1, m);
    std::vector<std::uint32_t> splitters(m - 1);
    std::mt19937 rng(m);
    std::uint32_t at = 0;
    for (auto& s : splitters) s = at += 1 + rng() % (0xffffffffu / m);  // strictly increasing
    std::vector<std::uint32_t> buckets(n);
    for (std::size_t i = 0; i < n; ++i)
      buckets[i] = static_cast<std::uint32_t>(std::upper_bound(splitters.begin(), splitters.end(), keys[i]) -
                                              splitters.begin());
    const device_buffer<std::uint32_t> dev_splitters(splitters);
    check_method<How>(keys, buckets, m, multisplit::splitter_buckets<std::uint32_t>{dev_splitters.ptr, m - 1}, false,
                      "splitters m=" + std::to_string(m));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Bucket ids >= m from the user's function land in bucket m - 1 (never a stray write), and the
// checked mode counts them exactly once per key whatever the method.
template <method How>
void check_clamped_and_counted() {
  for (std::uint32_t m : {2u, 3u, 64u, 256u, 1000u}) {
    if (!solves<How>(m)) continue;
    const std::size_t n = deltasplit_test::small_run() ? 10003 : 100003;
    std::mt19937_64 rng(m);
    std::vector<std::uint32_t> keys(n), buckets(n);
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<std::uint32_t>(rng() % (2 * m));  // identity buckets: half out of range
      buckets[i] = std::min(keys[i], m - 1);
      outside += keys[i] >= m;
    }
    check_method<How>(keys, buckets, m, multisplit::identity_buckets{}, false, "clamped m=" + std::to_string(m));
    if (::testing::Test::HasFatalFailure()) return;

    device_buffer<unsigned long long> counter(1);
    const auto checked = multisplit::checked(multisplit::identity_buckets{}, counter.ptr);
    const device_buffer<std::uint32_t> dev_keys(keys), indices(keys);
    for (bool pairs : {false, true}) {
      counter.fill_bytes(0);
      const split_outcome got = run_split<How>(dev_keys, indices, n, m, checked, pairs, false);
      ASSERT_EQ(cudaSuccess, got.status) << multisplit::method_name(How);
      EXPECT_EQ(outside, counter.to_host(1)[0])
          << "checked mode, m=" << m << " " << multisplit::method_name(How) << (pairs ? " pairs" : "");
    }
  }
}

// A user lambda that scatters neighbouring keys to unrelated buckets (no monotone structure).
template <method How>
void check_user_lambda() {
  for (std::uint32_t m : {2u, 5u, 100u, 256u, 3000u}) {
    if (!solves<How>(m)) continue;
    const std::size_t n = deltasplit_test::small_run() ? 30000 : 300000;
    const std::vector<std::uint32_t> keys = delta_keys(draw_buckets(n, 1, distribution::uniform, m), 1, m);
    auto hash = [m] __host__ __device__(std::uint32_t k) { return (k * 2654435761u >> 7) % m; };
    std::vector<std::uint32_t> buckets(n);
    for (std::size_t i = 0; i < n; ++i) buckets[i] = hash(keys[i]);
    check_method<How>(keys, buckets, m, hash, true, "lambda m=" + std::to_string(m));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace multisplit_test

// The tests of delta-buckets (every size, bucket count and distribution); Suite names the method.
#define MULTISPLIT_DELTA_TESTS(Suite, How)                                                  \
  TEST(Suite, MatchesHostReference) {                                                       \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_delta_buckets<How>(multisplit_test::small_sizes(),               \
                                              multisplit_test::warp_bucket_counts(), true); \
  }                                                                                         \
  TEST(Suite, ManyBucketsMatchHostReference) {                                              \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_delta_buckets<How>(multisplit_test::small_sizes(),               \
                                              multisplit_test::large_bucket_counts(), true);\
  }                                                                                         \
  TEST(Suite, BlocksWalkSeveralTilesUnderEveryDistribution) {                               \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_several_tiles_per_block<How>();                                  \
  }                                                                                         \
  TEST(Suite, LargeInputsMatchHostReference) {                                              \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_large_inputs<How>({2u, 32u, 64u, 256u, 12288u});                 \
  }                                                                                         \
  TEST(Suite, DeltaBucketsDivideExactly) {                                                  \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_exact_division<How>();                                           \
  }

// The tests of the other bucket functions: splitters, out-of-range ids (checked mode), a lambda.
#define MULTISPLIT_FUNCTION_TESTS(Suite, How)                                               \
  TEST(Suite, SplitterBuckets) {                                                            \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_splitter_buckets<How>();                                         \
  }                                                                                         \
  TEST(Suite, OutOfRangeIdsAreClampedAndCounted) {                                          \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_clamped_and_counted<How>();                                      \
  }                                                                                         \
  TEST(Suite, UserLambdaBuckets) {                                                          \
    DELTASPLIT_REQUIRE_GPU();                                                               \
    multisplit_test::check_user_lambda<How>();                                              \
  }

// Every test, for a method that a caller picks by name.
#define MULTISPLIT_METHOD_TESTS(Suite, How) \
  MULTISPLIT_DELTA_TESTS(Suite, How)        \
  MULTISPLIT_FUNCTION_TESTS(Suite, How)
