// The two primitives built on multisplit (seed 000, Section 7): the radix sort against
// std::stable_sort (values = input index, so stability is checked), including banded keys that
// trigger the early exit, and the histogram (even and range bins) against a host count.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "multisplit/histogram.cuh"
#include "multisplit/multisplit_reference.hpp"
#include "multisplit/radix_sort.cuh"

namespace {

using namespace multisplit_test;

std::vector<std::uint32_t> random_keys(std::size_t n, std::uint32_t mask, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng()) & mask;
  return keys;
}

void check_sort(const std::vector<std::uint32_t>& keys, int begin_bit, int end_bit, int radix_bits,
                const std::string& what) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  const std::uint32_t field =
      end_bit - begin_bit == 32 ? 0xffffffffu : ((1u << (end_bit - begin_bit)) - 1u) << begin_bit;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return (keys[a] & field) < (keys[b] & field); });
  std::vector<std::uint32_t> expected(n);
  for (std::size_t j = 0; j < n; ++j) expected[j] = keys[order[j]];
  if (begin_bit == 0 && end_bit == 32) {
    std::vector<std::uint32_t> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ("", first_difference(sorted, expected)) << "reference disagrees with std::sort";
  }

  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  const device_buffer<std::uint32_t> in(keys), values_in(index);
  device_buffer<std::uint32_t> out(n), values_out(n);
  for (bool pairs : {false, true}) {
    std::size_t bytes = 0;
    auto call = [&](void* temp) {
      return pairs ? multisplit::sort_pairs(temp, bytes, in.ptr, out.ptr, values_in.ptr, values_out.ptr, n,
                                            begin_bit, end_bit, 0, radix_bits)
                   : multisplit::sort_keys(temp, bytes, in.ptr, out.ptr, n, begin_bit, end_bit, 0, radix_bits);
    };
    MS_CUDA_OK(call(nullptr));
    device_buffer<unsigned char> temp(bytes);
    MS_CUDA_OK(call(temp.ptr));
    MS_CUDA_OK(cudaDeviceSynchronize());
    EXPECT_EQ("", first_difference(expected, out.to_host(n))) << what << (pairs ? " pairs" : " keys");
    if (pairs) EXPECT_EQ("", first_difference(order, values_out.to_host(n))) << what << " values";
  }
}

TEST(MultisplitSort, MatchesStdSort) {
  DELTASPLIT_REQUIRE_GPU();
  std::uint64_t seed = 11;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{33}, std::size_t{2049},
                        (std::size_t{1} << 20) + 7})
    for (int radix_bits : {0, 4, 5, 7, 8}) {
      check_sort(random_keys(n, 0xffffffffu, ++seed), 0, 32, radix_bits,
                 "n=" + std::to_string(n) + " r=" + std::to_string(radix_bits));
      if (HasFatalFailure()) return;
    }
}

// Keys that differ only in bits 8..15: every other pass finds one digit and exits early.
TEST(MultisplitSort, BandedKeysExitEarly) {
  DELTASPLIT_REQUIRE_GPU();
  check_sort(random_keys(1 << 20, 0x0000ff00u, 3), 0, 32, 8, "banded");
}

TEST(MultisplitSort, BitRange) {
  DELTASPLIT_REQUIRE_GPU();
  check_sort(random_keys(100000, 0xffffffffu, 4), 3, 17, 6, "bits 3..17");
  check_sort(random_keys(1000, 0xffffffffu, 5), 9, 9, 6, "no bits");
}

template <class BinFn>
void check_histogram(const device_buffer<float>& samples, std::size_t n, const std::vector<std::uint32_t>& expected,
                     BinFn bin_of, const std::string& what) {
  const std::uint32_t bins = static_cast<std::uint32_t>(expected.size());
  device_buffer<std::uint32_t> counts(bins);
  std::size_t bytes = 0;
  MS_CUDA_OK(multisplit::histogram(nullptr, bytes, samples.ptr, n, bins, bin_of, counts.ptr));
  device_buffer<unsigned char> temp(bytes);
  MS_CUDA_OK(multisplit::histogram(temp.ptr, bytes, samples.ptr, n, bins, bin_of, counts.ptr));
  MS_CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ("", first_difference(expected, counts.to_host(bins))) << what;
}

TEST(MultisplitHistogram, EvenAndRangeBinsMatchHostCount) {
  DELTASPLIT_REQUIRE_GPU();
  for (std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{2047}, (std::size_t{1} << 21) + 3}) {
    std::mt19937 rng(static_cast<unsigned>(n));
    std::uniform_real_distribution<float> uniform(0.0f, 1024.0f);
    std::vector<float> samples(n);
    for (auto& x : samples) x = uniform(rng);
    const device_buffer<float> dev_samples(samples);
    for (std::uint32_t bins : {1u, 2u, 7u, 64u, 256u}) {
      const std::string what = "n=" + std::to_string(n) + " bins=" + std::to_string(bins);
      const multisplit::even_bins<float> even{0.0f, 1024.0f, bins};
      std::vector<std::uint32_t> expected(bins, 0);
      for (float x : samples) ++expected[even(x)];
      check_histogram(dev_samples, n, expected, even, what + " even");

      std::vector<float> splitters(bins - 1);
      for (auto& x : splitters) x = uniform(rng);
      std::sort(splitters.begin(), splitters.end());
      splitters.erase(std::unique(splitters.begin(), splitters.end()), splitters.end());
      std::fill(expected.begin(), expected.end(), 0u);
      for (float x : samples)
        ++expected[static_cast<std::size_t>(std::upper_bound(splitters.begin(), splitters.end(), x) -
                                            splitters.begin())];
      const device_buffer<float> dev_splitters(splitters);
      check_histogram(dev_samples, n, expected,
                      multisplit::splitter_buckets<float>{dev_splitters.ptr,
                                                          static_cast<std::uint32_t>(splitters.size())},
                      what + " range");
      if (HasFailure()) return;
    }
  }
}

}  // namespace
