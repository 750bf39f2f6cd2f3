// Every multisplit method against the host stable multisplit (multisplit_reference.hpp),
// element by element, keys and key-value pairs (value = input index, which checks stability),
// with the bucket offsets, over the sizes, bucket counts and distributions of seed 000 Section 6.
// Each input is generated and its reference computed once, then every method is checked on it.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "multisplit/multisplit.cuh"
#include "multisplit/multisplit_reference.hpp"

namespace {

using multisplit::method;
using namespace multisplit_test;

using block_policies = multisplit::detail::policy_for<multisplit::detail::reorder_scope::block, false>;
using pair_policies = multisplit::detail::policy_for<multisplit::detail::reorder_scope::block, true>;
constexpr std::uint32_t tile = block_policies::few_buckets::tile_items;       // m <= 64
constexpr std::uint32_t wide_tile = block_policies::many_buckets::tile_items;  // m > 64
constexpr std::uint32_t pair_tile = pair_policies::few_buckets::tile_items;   // BMS pairs, m <= 64

struct split_outcome {
  cudaError_t status = cudaSuccess;
  std::vector<std::uint32_t> keys, values, offsets;
};

// One call of the library: key-only or pairs, the item count on the host or on the device.
template <class BucketFn>
split_outcome run_split(const device_buffer<std::uint32_t>& keys, const device_buffer<std::uint32_t>& indices,
                        std::size_t n, std::uint32_t m, BucketFn fn, method how, bool pairs,
                        bool count_on_device) {
  split_outcome out;
  device_buffer<std::uint32_t> keys_out(n), values_out(n), offsets(m + 1), dev_n(1);
  offsets.fill_bytes(0xff);
  const std::uint32_t n32 = static_cast<std::uint32_t>(n);
  cudaMemcpy(dev_n.ptr, &n32, sizeof n32, cudaMemcpyHostToDevice);
  const multisplit::device_count dn{dev_n.ptr, n + 777};
  std::size_t bytes = 0;
  auto call = [&](void* temp) {
    if (pairs)
      return count_on_device
                 ? multisplit::split_pairs(temp, bytes, keys.ptr, keys_out.ptr, indices.ptr, values_out.ptr,
                                           dn, m, fn, offsets.ptr, 0, how)
                 : multisplit::split_pairs(temp, bytes, keys.ptr, keys_out.ptr, indices.ptr, values_out.ptr,
                                           n, m, fn, offsets.ptr, 0, how);
    return count_on_device
               ? multisplit::split_keys(temp, bytes, keys.ptr, keys_out.ptr, dn, m, fn, offsets.ptr, 0, how)
               : multisplit::split_keys(temp, bytes, keys.ptr, keys_out.ptr, n, m, fn, offsets.ptr, 0, how);
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

// The methods that solve a problem with m buckets, and whether each takes a device count.
std::vector<method> methods_for(std::uint32_t m) {
  if (m > multisplit::detail::max_warp_buckets)
    return {method::large, method::reduced_bit_sort, method::automatic};
  std::vector<method> all = {method::direct, method::warp, method::block, method::reduced_bit_sort,
                             method::automatic};
  if (m == 2) all.push_back(method::scan_split);
  return all;
}

bool takes_device_count(method how) {
  return how != method::reduced_bit_sort && how != method::scan_split;
}

// Checks every method on one input. device_counts: also run the device_count overloads.
template <class BucketFn>
void check_all_methods(const std::vector<std::uint32_t>& host_keys, const std::vector<std::uint32_t>& buckets,
                       std::uint32_t m, BucketFn fn, bool device_counts, const std::string& what) {
  const std::size_t n = host_keys.size();
  const reference ref = stable_multisplit(buckets, m);
  std::vector<std::uint32_t> expected_keys(n);
  for (std::size_t j = 0; j < n; ++j) expected_keys[j] = host_keys[ref.order[j]];
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  const device_buffer<std::uint32_t> keys(host_keys), indices(index);
  ASSERT_TRUE(n == 0 || (keys.ptr && indices.ptr));

  for (method how : methods_for(m)) {
    for (int variant = 0; variant < 4; ++variant) {
      const bool pairs = variant & 1, on_device = variant & 2;
      if (on_device && (!device_counts || !takes_device_count(how))) continue;
      const std::string label = what + " method=" + multisplit::method_name(how) +
                                (pairs ? " pairs" : " keys") + (on_device ? " device_count" : "");
      const split_outcome got = run_split(keys, indices, n, m, fn, how, pairs, on_device);
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
}

void check_delta_buckets(const std::vector<std::size_t>& sizes, const std::vector<std::uint32_t>& bucket_counts,
                         bool device_counts) {
  std::uint64_t seed = 1;
  for (std::size_t n : sizes)
    for (std::uint32_t m : bucket_counts)
      for (distribution d : all_distributions) {
        const std::vector<std::uint32_t> buckets = draw_buckets(n, m, d, ++seed);
        const std::vector<std::uint32_t> keys = delta_keys(buckets, m, seed);
        const std::string what = "n=" + std::to_string(n) + " m=" + std::to_string(m) + " " + name(d);
        check_all_methods(keys, buckets, m, multisplit::delta_buckets{delta_for(m)}, device_counts, what);
        if (::testing::Test::HasFatalFailure()) return;
      }
}

const std::vector<std::size_t> small_sizes = {0,        1,        31,            32,           33,
                                              tile - 1, tile + 1, wide_tile - 1, wide_tile + 1, pair_tile - 1,
                                              pair_tile + 1, (1u << 20) + 7};
// 33..64 buckets: two register counters per lane; 65 on: shared counters.
const std::vector<std::uint32_t> warp_bucket_counts = {1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 255, 256};
const std::vector<std::uint32_t> large_bucket_counts = {257, 1000, 4096, 12288};

TEST(Multisplit, WarpMethodsMatchHostReference) {
  DELTASPLIT_REQUIRE_GPU();
  check_delta_buckets(small_sizes, warp_bucket_counts, true);
}

TEST(Multisplit, LargeMethodMatchesHostReference) {
  DELTASPLIT_REQUIRE_GPU();
  check_delta_buckets(small_sizes, large_bucket_counts, true);
}

// Past 2^22 items every block of the fixed grid walks several tiles (a few blocks per SM, tiles
// of 2048 to 8192 items), so the positions carried between tiles and the counters, offsets and
// staging areas that one tile leaves for the next are checked under every distribution, for
// each counter scheme (one or two register counters per lane, shared counters).
TEST(Multisplit, BlocksWalkSeveralTilesUnderEveryDistribution) {
  DELTASPLIT_REQUIRE_GPU();
  check_delta_buckets({(std::size_t{1} << 22) + 5}, {3, 32, 64, 256}, false);
}

TEST(Multisplit, LargeInputsMatchHostReference) {
  DELTASPLIT_REQUIRE_GPU();
  std::uint64_t seed = 1000;
  for (std::uint32_t m : {2u, 32u, 64u, 256u, 12288u}) {
    const std::size_t n = std::size_t{1} << 25;
    const std::vector<std::uint32_t> buckets = draw_buckets(n, m, distribution::uniform, ++seed);
    const std::vector<std::uint32_t> keys = delta_keys(buckets, m, seed);
    check_all_methods(keys, buckets, m, multisplit::delta_buckets{delta_for(m)}, false,
                      "n=2^25 m=" + std::to_string(m));
    if (HasFatalFailure()) return;
  }
}

// Delta-buckets divide by multiplication inside the kernels (fast_division.cuh): exact for
// every divisor, checked at keys on both sides of every bucket boundary and at the domain's end.
TEST(Multisplit, DeltaBucketsDivideExactly) {
  DELTASPLIT_REQUIRE_GPU();
  for (std::uint32_t delta : {1u, 2u, 3u, 7u, 641u, 65537u, 0x7fffffffu, 0x80000001u, 0xfffffffeu, 0xffffffffu}) {
    const std::uint64_t span = std::uint64_t{delta} * 256;  // keys below span have ids < 256
    const std::uint32_t m = static_cast<std::uint32_t>(std::min<std::uint64_t>(256, (0xffffffffull / delta) + 1));
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
    check_all_methods(keys, buckets, m, multisplit::delta_buckets{delta}, false, "delta=" + std::to_string(delta));
    if (HasFatalFailure()) return;
  }
}

// Range buckets by binary search over splitters: staged in shared memory for m <= 256, read from
// global memory beyond.
TEST(Multisplit, SplitterBuckets) {
  DELTASPLIT_REQUIRE_GPU();
  for (std::uint32_t m : {2u, 17u, 256u, 1000u}) {
    const std::size_t n = 200000;
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
    check_all_methods(keys, buckets, m, multisplit::splitter_buckets<std::uint32_t>{dev_splitters.ptr, m - 1},
                      false, "splitters m=" + std::to_string(m));
    if (HasFatalFailure()) return;
  }
}

// Bucket ids >= m from the user's function land in bucket m - 1 (never a stray write), and the
// checked mode counts them exactly once per key whatever the method.
TEST(Multisplit, OutOfRangeIdsAreClampedAndCounted) {
  DELTASPLIT_REQUIRE_GPU();
  for (std::uint32_t m : {3u, 64u, 256u, 1000u}) {
    const std::size_t n = 100003;
    std::mt19937_64 rng(m);
    std::vector<std::uint32_t> keys(n), buckets(n);
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = static_cast<std::uint32_t>(rng() % (2 * m));  // identity buckets: half out of range
      buckets[i] = std::min(keys[i], m - 1);
      outside += keys[i] >= m;
    }
    check_all_methods(keys, buckets, m, multisplit::identity_buckets{}, false,
                      "clamped m=" + std::to_string(m));
    if (HasFatalFailure()) return;

    device_buffer<unsigned long long> counter(1);
    const auto checked = multisplit::checked(multisplit::identity_buckets{}, counter.ptr);
    const device_buffer<std::uint32_t> dev_keys(keys), indices(keys);
    for (method how : methods_for(m)) {
      for (bool pairs : {false, true}) {
        counter.fill_bytes(0);
        const split_outcome got = run_split(dev_keys, indices, n, m, checked, how, pairs, false);
        ASSERT_EQ(cudaSuccess, got.status) << multisplit::method_name(how);
        EXPECT_EQ(outside, counter.to_host(1)[0]) << "checked mode, m=" << m << " "
                                                  << multisplit::method_name(how) << (pairs ? " pairs" : "");
      }
    }
  }
}

// The device_count overload reads n when the kernels run: one temporary allocation, sized for
// max_items, serves a sequence of calls whose n changes on the device between them.
TEST(Multisplit, DeviceCountFollowsTheDevice) {
  DELTASPLIT_REQUIRE_GPU();
  const std::uint32_t m = 10;
  const std::size_t max_items = 50000;
  const std::vector<std::uint32_t> buckets = draw_buckets(max_items, m, distribution::uniform, 5);
  const std::vector<std::uint32_t> keys = delta_keys(buckets, m, 5);
  device_buffer<std::uint32_t> dev_keys(keys), out(max_items), offsets(m + 1), dev_n(1);
  const multisplit::delta_buckets fn{delta_for(m)};
  std::size_t bytes = 0;
  MS_CUDA_OK(multisplit::split_keys(nullptr, bytes, dev_keys.ptr, out.ptr,
                                    multisplit::device_count{dev_n.ptr, max_items}, m, fn, offsets.ptr));
  device_buffer<unsigned char> temp(bytes);
  for (std::uint32_t n : {50000u, 0u, 1u, 4097u, 123u, 49999u}) {
    MS_CUDA_OK(cudaMemcpy(dev_n.ptr, &n, sizeof n, cudaMemcpyHostToDevice));
    MS_CUDA_OK(multisplit::split_keys(temp.ptr, bytes, dev_keys.ptr, out.ptr,
                                      multisplit::device_count{dev_n.ptr, max_items}, m, fn, offsets.ptr));
    MS_CUDA_OK(cudaDeviceSynchronize());
    const std::vector<std::uint32_t> prefix(buckets.begin(), buckets.begin() + n);
    const reference ref = stable_multisplit(prefix, m);
    std::vector<std::uint32_t> expected(n);
    for (std::uint32_t j = 0; j < n; ++j) expected[j] = keys[ref.order[j]];
    EXPECT_EQ("", first_difference(expected, out.to_host(n))) << "n=" << n;
    EXPECT_EQ("", first_difference(ref.offsets, offsets.to_host(m + 1))) << "n=" << n;
  }
}

TEST(Multisplit, RejectsWhatItCannotDo) {
  DELTASPLIT_REQUIRE_GPU();
  device_buffer<std::uint32_t> keys(16), out(16), dev_n(1);
  const multisplit::identity_buckets fn;
  std::size_t bytes = 0;
  EXPECT_EQ(cudaErrorInvalidValue, multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 0u, fn));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 257u, fn, nullptr, 0, method::block));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 3u, fn, nullptr, 0, method::scan_split));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 70000u, fn, nullptr, 0, method::large));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, std::size_t{1} << 33, 4u, fn));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, multisplit::device_count{dev_n.ptr, 16}, 4u,
                                   fn, nullptr, 0, method::reduced_bit_sort));
  ASSERT_EQ(cudaSuccess, multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 4u, fn));
  std::size_t too_few = bytes - 1;
  device_buffer<unsigned char> temp(bytes);
  EXPECT_EQ(cudaErrorInvalidValue, multisplit::split_keys(temp.ptr, too_few, keys.ptr, out.ptr, 16, 4u, fn));
}

}  // namespace

// A user lambda that scatters neighbouring keys to unrelated buckets (no monotone structure).
// Outside the anonymous namespace and the TEST body: nvcc's extended lambdas need a named,
// accessible enclosing function.
void check_user_lambda(std::uint32_t m) {
  using namespace multisplit_test;
  const std::size_t n = 300000;
  const std::vector<std::uint32_t> keys = delta_keys(draw_buckets(n, 1, distribution::uniform, m), 1, m);
  auto hash = [m] __host__ __device__(std::uint32_t k) { return (k * 2654435761u >> 7) % m; };
  std::vector<std::uint32_t> buckets(n);
  for (std::size_t i = 0; i < n; ++i) buckets[i] = hash(keys[i]);
  check_all_methods(keys, buckets, m, hash, true, "lambda m=" + std::to_string(m));
}

TEST(Multisplit, UserLambdaBuckets) {
  DELTASPLIT_REQUIRE_GPU();
  for (std::uint32_t m : {5u, 100u, 256u, 3000u}) {
    check_user_lambda(m);
    if (HasFatalFailure()) return;
  }
}
