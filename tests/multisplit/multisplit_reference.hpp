// Host references and inputs for the multisplit tests: a stable counting-sort multisplit (the
// oracle), the key distributions of seed 000 Section 6.4 (uniform, binomial B(m-1, 0.5),
// alpha-uniform with alpha = 0.25) plus the edge cases (one bucket, first and last only), and
// small CUDA helpers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

namespace multisplit_test {

#define MS_CUDA_OK(call) ASSERT_EQ(cudaSuccess, (call)) << cudaGetErrorString(cudaGetLastError())

enum class distribution { uniform, binomial, quarter_uniform, one_bucket, first_and_last };

inline const char* name(distribution d) {
  switch (d) {
    case distribution::uniform: return "uniform";
    case distribution::binomial: return "binomial";
    case distribution::quarter_uniform: return "0.25-uniform";
    case distribution::one_bucket: return "one-bucket";
    case distribution::first_and_last: return "first-and-last";
  }
  return "?";
}

constexpr distribution all_distributions[] = {distribution::uniform, distribution::binomial,
                                              distribution::quarter_uniform,
                                              distribution::one_bucket, distribution::first_and_last};

// Width of a delta bucket such that m buckets cover as much of the 32-bit domain as fits.
inline std::uint32_t delta_for(std::uint32_t m) { return 0xffffffffu / m; }

// Bucket ids drawn from distribution d over m buckets.
inline std::vector<std::uint32_t> draw_buckets(std::size_t n, std::uint32_t m, distribution d,
                                               std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> b(n);
  const std::uint32_t special = static_cast<std::uint32_t>(rng() % m);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    switch (d) {
      case distribution::uniform: b[i] = static_cast<std::uint32_t>(r % m); break;
      case distribution::binomial: {  // sum of m - 1 fair coins
        std::uint32_t ones = 0;
        for (std::uint32_t left = m - 1; left > 0;) {
          const std::uint32_t take = left < 64 ? left : 64;
          const std::uint64_t bits = rng();
          ones += static_cast<std::uint32_t>(
              __builtin_popcountll(take == 64 ? bits : bits & ((1ull << take) - 1)));
          left -= take;
        }
        b[i] = ones;
        break;
      }
      case distribution::quarter_uniform:
        b[i] = (r & 3) == 0 ? static_cast<std::uint32_t>((r >> 2) % m) : special;
        break;
      case distribution::one_bucket: b[i] = special; break;
      case distribution::first_and_last: b[i] = (r & 1) ? m - 1 : 0; break;
    }
  }
  return b;
}

// Keys whose delta bucket (key / delta_for(m)) is the drawn bucket, anywhere inside it.
inline std::vector<std::uint32_t> delta_keys(const std::vector<std::uint32_t>& buckets,
                                             std::uint32_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  const std::uint32_t delta = delta_for(m);
  std::vector<std::uint32_t> keys(buckets.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = buckets[i] * delta + static_cast<std::uint32_t>(rng() % delta);
  return keys;
}

// Stable multisplit on the host: counting sort by bucket. order[j] = input index of output j.
struct reference {
  std::vector<std::uint32_t> order;
  std::vector<std::uint32_t> offsets;  // m + 1
};

inline reference stable_multisplit(const std::vector<std::uint32_t>& buckets, std::uint32_t m) {
  reference r;
  r.offsets.assign(m + 1, 0);
  for (std::uint32_t b : buckets) ++r.offsets[b + 1];
  for (std::uint32_t b = 0; b < m; ++b) r.offsets[b + 1] += r.offsets[b];
  std::vector<std::uint32_t> next(r.offsets.begin(), r.offsets.end() - 1);
  r.order.resize(buckets.size());
  for (std::size_t i = 0; i < buckets.size(); ++i)
    r.order[next[buckets[i]]++] = static_cast<std::uint32_t>(i);
  return r;
}

// Device buffer that frees itself.
template <class T>
struct device_buffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  explicit device_buffer(std::size_t n) : count(n) {
    if (cudaMalloc(&ptr, (n ? n : 1) * sizeof(T)) != cudaSuccess) ptr = nullptr;
  }
  device_buffer(const std::vector<T>& host) : device_buffer(host.size()) {
    if (ptr && !host.empty()) cudaMemcpy(ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~device_buffer() { cudaFree(ptr); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  std::vector<T> to_host(std::size_t n) const {
    std::vector<T> h(n);
    if (n) cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
  }
  void fill_bytes(int byte) { cudaMemset(ptr, byte, (count ? count : 1) * sizeof(T)); }
};

// First position where two sequences differ, as a message (empty when equal).
template <class T>
std::string first_difference(const std::vector<T>& expected, const std::vector<T>& actual) {
  if (expected.size() != actual.size())
    return "sizes differ: " + std::to_string(expected.size()) + " vs " + std::to_string(actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (expected[i] != actual[i])
      return "at " + std::to_string(i) + ": expected " + std::to_string(expected[i]) + ", got " +
             std::to_string(actual[i]);
  return {};
}

}  // namespace multisplit_test
