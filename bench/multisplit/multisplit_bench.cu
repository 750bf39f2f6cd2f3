// multisplit_bench: seed 000's Tables 4, 5, 6, 7, 8 and 11 on the GPU in hand.
// Every figure is a median over repeated runs (cudaEvent timing, one warm-up first), reported as
// Gitems/s, as a fraction of multisplit's speed of light (12 bytes per key: read twice, write
// once; 20 bytes per pair) at the device-to-device copy bandwidth measured in the same run, and
// as a ratio to the CUB-based baseline measured in the same run.
//
// usage: multisplit_bench [--sizes 25,28] [--reps R] [--quick] [--csv FILE] [--md FILE]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include "multisplit/histogram.cuh"
#include "multisplit/multisplit.cuh"
#include "multisplit/radix_sort.cuh"

namespace {

using multisplit::method;

#define BENCH_CHECK(call)                                                                  \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// ---- inputs (generated on the device: a counter hash, so every run sees the same keys) ----

__host__ __device__ inline std::uint32_t mix(std::uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

enum class dist { uniform, quarter_uniform, binomial };
const char* dist_name(dist d) {
  return d == dist::uniform ? "uniform" : d == dist::binomial ? "binomial" : "0.25-uniform";
}

// Keys whose delta bucket (key / delta, delta = (2^32 - 1) / m) follows the distribution.
__global__ void delta_keys_kernel(std::uint32_t* keys, std::size_t n, std::uint32_t m, dist d, std::uint64_t seed) {
  const std::uint32_t delta = 0xffffffffu / m;
  const std::uint32_t special = mix(seed * 7 + 1) % m;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint64_t r = seed * 0x9e3779b97f4a7c15ull + i * 4;
    std::uint32_t b;
    if (d == dist::uniform) {
      b = mix(r) % m;
    } else if (d == dist::quarter_uniform) {
      const std::uint32_t h = mix(r);
      b = (h & 3) == 0 ? (h >> 2) % m : special;
    } else {
      b = 0;
      for (std::uint32_t left = m - 1, j = 0; left > 0; ++j) {
        const std::uint32_t take = left < 32 ? left : 32;
        const std::uint32_t bits = mix(r + 1 + j);
        b += __popc(take == 32 ? bits : bits & ((1u << take) - 1));
        left -= take;
      }
    }
    keys[i] = b * delta + mix(r + 3) % delta;
  }
}

__global__ void masked_keys_kernel(std::uint32_t* keys, std::size_t n, std::uint32_t mask, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    keys[i] = mix(seed * 0x9e3779b97f4a7c15ull + i) & mask;
}

__global__ void float_samples_kernel(float* x, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = static_cast<float>(mix(seed + i) >> 8) * (1024.0f / 16777216.0f);
}

// ---- timing ----

struct timer {
  cudaEvent_t start, stop, a, b;
  timer() {
    BENCH_CHECK(cudaEventCreate(&start)); BENCH_CHECK(cudaEventCreate(&stop));
    BENCH_CHECK(cudaEventCreate(&a)); BENCH_CHECK(cudaEventCreate(&b));
  }
};

struct timing {
  double ms = 0, prescan_ms = 0, scan_ms = 0, postscan_ms = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int reps = 7;

// Median time of run(); with stages, also the medians of the three stages of a warp method.
timing measure(timer& t, const std::function<void()>& run, bool stages = false) {
  run();
  BENCH_CHECK(cudaDeviceSynchronize());
  std::vector<double> total, pre, scan, post;
  for (int r = 0; r < reps; ++r) {
    BENCH_CHECK(cudaEventRecord(t.start));
    run();
    BENCH_CHECK(cudaEventRecord(t.stop));
    BENCH_CHECK(cudaEventSynchronize(t.stop));
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, t.start, t.stop));
    total.push_back(ms);
    if (stages) {
      float p = 0, s = 0;
      BENCH_CHECK(cudaEventElapsedTime(&p, t.start, t.a));
      BENCH_CHECK(cudaEventElapsedTime(&s, t.a, t.b));
      pre.push_back(p); scan.push_back(s); post.push_back(ms - p - s);
    }
  }
  BENCH_CHECK(cudaGetLastError());
  return timing{median(total), median(pre), median(scan), median(post)};
}

// ---- results ----

struct row {
  std::string table, what, kind, method, dist;
  std::size_t n;
  std::uint32_t m;
  timing t;
  double rate;         // Gitems/s
  double sol;          // fraction of speed of light
  double vs_baseline;  // speedup over the row's baseline (0: it is a baseline)
  std::string baseline;
  double copy_gbs;     // the copy bandwidth measured for this row's size
};

std::vector<row> rows;
double copy_gbs = 0;

void add(const std::string& table, const std::string& what, bool pairs, const std::string& how,
         const std::string& d, std::size_t n, std::uint32_t m, timing t, const std::string& baseline = "",
         double baseline_ms = 0) {
  row r{table, what, pairs ? "pairs" : "keys", how, d, n, m, t, 0, 0, 0, baseline, copy_gbs};
  r.rate = n / (t.ms * 1e6);
  const double bytes_per_item = pairs ? 20 : 12;
  r.sol = r.rate * bytes_per_item / copy_gbs;
  r.vs_baseline = baseline_ms > 0 ? baseline_ms / t.ms : 0;
  rows.push_back(r);
  std::printf("%-8s %-22s %-5s %-17s %-12s n=2^%-2d m=%-6u %9.3f ms %8.2f G/s %5.1f%% SoL", table.c_str(),
              what.c_str(), r.kind.c_str(), how.c_str(), d.c_str(), __builtin_ctzll(n), m, t.ms, r.rate, 100 * r.sol);
  if (r.vs_baseline > 0) std::printf("  %.2fx vs %s", r.vs_baseline, baseline.c_str());
  if (t.prescan_ms > 0) std::printf("  [pre %.3f scan %.3f post %.3f]", t.prescan_ms, t.scan_ms, t.postscan_ms);
  std::printf("\n");
  std::fflush(stdout);
}

// ---- workspace ----

struct workspace {
  std::size_t n;
  std::uint32_t *keys, *keys_out, *values, *values_out, *offsets;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  explicit workspace(std::size_t items) : n(items) {
    BENCH_CHECK(cudaMalloc(&keys, n * 4)); BENCH_CHECK(cudaMalloc(&keys_out, n * 4));
    BENCH_CHECK(cudaMalloc(&values, n * 4)); BENCH_CHECK(cudaMalloc(&values_out, n * 4));
    BENCH_CHECK(cudaMalloc(&offsets, 65537 * 4));
    masked_keys_kernel<<<1024, 256>>>(values, n, 0xffffffffu, 99);
  }
  void* need(std::size_t bytes) {
    if (bytes > temp_bytes) {
      BENCH_CHECK(cudaFree(temp));
      BENCH_CHECK(cudaMalloc(&temp, bytes));
      temp_bytes = bytes;
    }
    return temp;
  }
};

// Times one multisplit call (sizing first, outside the timing).
template <class BucketFn>
timing time_split(workspace& w, timer& t, bool pairs, std::uint32_t m, BucketFn fn, method how, bool stages) {
  std::size_t bytes = 0;
  auto call = [&](void* temp) {
    if (stages) {
      const multisplit::detail::stage_marks marks{t.a, t.b};
      const multisplit::detail::item_count count{nullptr, static_cast<std::uint32_t>(w.n)};
      using multisplit::detail::reorder_scope;
      const reorder_scope scope = how == method::direct ? reorder_scope::none
                                  : how == method::warp ? reorder_scope::warp : reorder_scope::block;
      auto go = [&](auto scope_tag) {
        constexpr reorder_scope s = decltype(scope_tag)::value;
        return pairs ? multisplit::detail::dispatch_warp_method<s>(temp, bytes, w.keys, w.keys_out, w.values,
                                                                  w.values_out, count, w.n, m, fn, true,
                                                                  w.offsets, 0, &marks)
                     : multisplit::detail::dispatch_warp_method<s>(
                           temp, bytes, w.keys, w.keys_out, static_cast<const multisplit::detail::no_value*>(nullptr),
                           static_cast<multisplit::detail::no_value*>(nullptr), count, w.n, m, fn, true, w.offsets, 0,
                           &marks);
      };
      if (scope == reorder_scope::none) return go(std::integral_constant<reorder_scope, reorder_scope::none>{});
      if (scope == reorder_scope::warp) return go(std::integral_constant<reorder_scope, reorder_scope::warp>{});
      return go(std::integral_constant<reorder_scope, reorder_scope::block>{});
    }
    return pairs ? multisplit::split_pairs(temp, bytes, w.keys, w.keys_out, w.values, w.values_out, w.n, m, fn,
                                           w.offsets, 0, how)
                 : multisplit::split_keys(temp, bytes, w.keys, w.keys_out, w.n, m, fn, w.offsets, 0, how);
  };
  BENCH_CHECK(call(nullptr));
  void* temp = w.need(bytes);
  return measure(t, [&] { BENCH_CHECK(call(temp)); }, stages);
}

// Table 4 (stages) and 5 (rates): delta buckets, uniform keys, m = 2, 4, ..., 256.
void tables_4_5(workspace& w, timer& t, const std::vector<std::uint32_t>& ms) {
  for (std::uint32_t m : ms) {
    delta_keys_kernel<<<1024, 256>>>(w.keys, w.n, m, dist::uniform, m);
    const multisplit::delta_buckets fn{0xffffffffu / m};
    for (bool pairs : {false, true}) {
      const timing rb = time_split(w, t, pairs, m, fn, method::reduced_bit_sort, false);
      add("5", "delta", pairs, "RB-sort", "uniform", w.n, m, rb);
      for (method how : {method::direct, method::warp, method::block})
        add("4/5", "delta", pairs, multisplit::method_name(how), "uniform", w.n, m,
            time_split(w, t, pairs, m, fn, how, true), "RB-sort", rb.ms);
      add("5", "delta", pairs, "automatic", "uniform", w.n, m, time_split(w, t, pairs, m, fn, method::automatic, false),
          "RB-sort", rb.ms);
      if (m == 2)
        add("3", "delta", pairs, "scan split", "uniform", w.n, m,
            time_split(w, t, pairs, m, fn, method::scan_split, false), "RB-sort", rb.ms);
    }
  }
}

// Section 6.3: more than 256 buckets.
void large_buckets(workspace& w, timer& t, const std::vector<std::uint32_t>& ms) {
  for (std::uint32_t m : ms) {
    delta_keys_kernel<<<1024, 256>>>(w.keys, w.n, m, dist::uniform, m);
    const multisplit::delta_buckets fn{0xffffffffu / m};
    for (bool pairs : {false, true}) {
      const timing rb = time_split(w, t, pairs, m, fn, method::reduced_bit_sort, false);
      add("large", "delta", pairs, "RB-sort", "uniform", w.n, m, rb);
      add("large", "delta", pairs, "large", "uniform", w.n, m, time_split(w, t, pairs, m, fn, method::large, false),
          "RB-sort", rb.ms);
    }
  }
}

// Table 6: m = 256, distributions.
void table_6(workspace& w, timer& t) {
  const std::uint32_t m = 256;
  const multisplit::delta_buckets fn{0xffffffffu / m};
  for (dist d : {dist::uniform, dist::quarter_uniform, dist::binomial}) {
    delta_keys_kernel<<<1024, 256>>>(w.keys, w.n, m, d, 5);
    for (bool pairs : {false, true}) {
      const timing rb = time_split(w, t, pairs, m, fn, method::reduced_bit_sort, false);
      add("6", "delta", pairs, "RB-sort", dist_name(d), w.n, m, rb);
      add("6", "delta", pairs, "automatic", dist_name(d), w.n, m,
          time_split(w, t, pairs, m, fn, method::automatic, false), "RB-sort", rb.ms);
    }
  }
}

// Table 7: identity buckets vs cub::DeviceRadixSort on the same bits.
void table_7(workspace& w, timer& t, int max_bits) {
  for (int bits = 1; bits <= max_bits; ++bits) {
    const std::uint32_t m = 1u << bits;
    masked_keys_kernel<<<1024, 256>>>(w.keys, w.n, m - 1, bits);
    for (bool pairs : {false, true}) {
      std::size_t bytes = 0;
      const int n = static_cast<int>(w.n);
      auto cub_sort = [&](void* temp) {
        return pairs ? cub::DeviceRadixSort::SortPairs(temp, bytes, w.keys, w.keys_out, w.values, w.values_out, n, 0, bits)
                     : cub::DeviceRadixSort::SortKeys(temp, bytes, w.keys, w.keys_out, n, 0, bits);
      };
      BENCH_CHECK(cub_sort(nullptr));
      void* temp = w.need(bytes);
      const timing cub_t = measure(t, [&] { BENCH_CHECK(cub_sort(temp)); });
      add("7", "identity", pairs, "CUB radix sort", "uniform", w.n, m, cub_t);
      for (method how : {method::direct, method::warp, method::block, method::automatic})
        add("7", "identity", pairs, multisplit::method_name(how), "uniform", w.n, m,
            time_split(w, t, pairs, m, multisplit::identity_buckets{}, how, false), "CUB radix sort", cub_t.ms);
    }
  }
}

// Table 8: the multisplit radix sort (r bits per pass) vs CUB's full 32-bit sort.
void table_8(workspace& w, timer& t) {
  masked_keys_kernel<<<1024, 256>>>(w.keys, w.n, 0xffffffffu, 8);
  for (bool pairs : {false, true}) {
    std::size_t bytes = 0;
    const int n = static_cast<int>(w.n);
    auto cub_sort = [&](void* temp) {
      return pairs ? cub::DeviceRadixSort::SortPairs(temp, bytes, w.keys, w.keys_out, w.values, w.values_out, n)
                   : cub::DeviceRadixSort::SortKeys(temp, bytes, w.keys, w.keys_out, n);
    };
    BENCH_CHECK(cub_sort(nullptr));
    void* temp = w.need(bytes);
    const timing cub_t = measure(t, [&] { BENCH_CHECK(cub_sort(temp)); });
    add("8", "sort", pairs, "CUB radix sort", "uniform", w.n, 0, cub_t);
    for (int r = 4; r <= 8; ++r) {
      auto ours = [&](void* tmp) {
        return pairs ? multisplit::sort_pairs(tmp, bytes, w.keys, w.keys_out, w.values, w.values_out, w.n, 0, 32, 0, r)
                     : multisplit::sort_keys(tmp, bytes, w.keys, w.keys_out, w.n, 0, 32, 0, r);
      };
      BENCH_CHECK(ours(nullptr));
      void* tmp = w.need(bytes);
      add("8", "sort r=" + std::to_string(r), pairs, "multisplit sort", "uniform", w.n, 1u << r,
          measure(t, [&] { BENCH_CHECK(ours(tmp)); }), "CUB radix sort", cub_t.ms);
    }
  }
}

// Table 11: histogram, even and range bins, floats in [0, 1024).
void table_11(workspace& w, timer& t, const std::vector<std::uint32_t>& ms) {
  float* x = reinterpret_cast<float*>(w.keys);
  float_samples_kernel<<<1024, 256>>>(x, w.n, 11);
  float* levels;
  BENCH_CHECK(cudaMalloc(&levels, 257 * sizeof(float)));
  for (std::uint32_t m : ms) {
    std::vector<float> host_levels(m + 1);
    for (std::uint32_t i = 0; i <= m; ++i) host_levels[i] = 1024.0f * i / m;
    for (std::uint32_t i = 1; i < m; ++i)  // range bins: random inner splitters, sorted
      host_levels[i] = static_cast<float>(mix(1000 + i) >> 8) * (1024.0f / 16777216.0f);
    std::sort(host_levels.begin() + 1, host_levels.end() - 1);
    BENCH_CHECK(cudaMemcpy(levels, host_levels.data(), (m + 1) * sizeof(float), cudaMemcpyHostToDevice));
    const int n = static_cast<int>(w.n);
    for (bool range : {false, true}) {
      std::size_t bytes = 0;
      auto cub_hist = [&](void* temp) {
        return range ? cub::DeviceHistogram::HistogramRange(temp, bytes, x, reinterpret_cast<int*>(w.offsets),
                                                            static_cast<int>(m + 1), levels, n)
                     : cub::DeviceHistogram::HistogramEven(temp, bytes, x, reinterpret_cast<int*>(w.offsets),
                                                           static_cast<int>(m + 1), 0.0f, 1024.0f, n);
      };
      BENCH_CHECK(cub_hist(nullptr));
      void* temp = w.need(bytes);
      const timing cub_t = measure(t, [&] { BENCH_CHECK(cub_hist(temp)); });
      auto ours = [&](void* tmp) {
        return range ? multisplit::histogram(tmp, bytes, x, w.n, m,
                                             multisplit::splitter_buckets<float>{levels + 1, m - 1}, w.offsets)
                     : multisplit::histogram(tmp, bytes, x, w.n, m, multisplit::even_bins<float>{0.0f, 1024.0f, m},
                                             w.offsets);
      };
      BENCH_CHECK(ours(nullptr));
      void* tmp = w.need(bytes);
      const std::string what = range ? "range histogram" : "even histogram";
      // A histogram reads each sample once: speed of light 4 bytes/sample; reported against 12 B
      // like every row, so the rate column is the one to read here.
      add("11", what, false, "CUB histogram", "uniform", w.n, m, cub_t);
      add("11", what, false, "multisplit hist", "uniform", w.n, m, measure(t, [&] { BENCH_CHECK(ours(tmp)); }),
          "CUB histogram", cub_t.ms);
    }
  }
  BENCH_CHECK(cudaFree(levels));
}

// One BMS multisplit of the workspace's keys (and values) by delta-buckets under Policy, as the
// dispatch launches it; temp = nullptr sizes `bytes`.
template <class Policy, bool Pairs>
cudaError_t launch_shape(workspace& w, std::uint32_t m, void* temp, std::size_t& bytes) {
  using multisplit::detail::no_value;
  const multisplit::delta_buckets fn{0xffffffffu / m};
  const multisplit::detail::item_count count{nullptr, static_cast<std::uint32_t>(w.n)};
  const int bits = multisplit::detail::ceil_log2(m);
  if constexpr (Pairs)
    return multisplit::detail::launch_warp_method<Policy>(temp, bytes, w.keys, w.keys_out, w.values, w.values_out,
                                                          count, w.n, m, bits, fn, true, w.offsets, 0, nullptr);
  else
    return multisplit::detail::launch_warp_method<Policy>(temp, bytes, w.keys, w.keys_out,
                                                          static_cast<const no_value*>(nullptr),
                                                          static_cast<no_value*>(nullptr), count, w.n, m, bits, fn,
                                                          true, w.offsets, 0, nullptr);
}

// Tuning table: BMS under other launch shapes (threads, windows per warp, block bound), the
// measurements behind detail::policy_for.
template <int Threads, int Windows, int BlocksPerSm, int BucketBits>
void tune_one(workspace& w, timer& t, std::uint32_t m, bool pairs, const timing& baseline) {
  using policy = multisplit::detail::multisplit_policy<multisplit::detail::reorder_scope::block, Threads, Windows,
                                                       BlocksPerSm, BucketBits>;
  std::size_t bytes = 0;
  auto call = [&](void* temp) {
    return pairs ? launch_shape<policy, true>(w, m, temp, bytes) : launch_shape<policy, false>(w, m, temp, bytes);
  };
  BENCH_CHECK(call(nullptr));
  void* temp = w.need(bytes);
  add("tune", "BMS " + std::to_string(Threads) + "x" + std::to_string(Windows) + " <=" + std::to_string(BlocksPerSm) +
                  "/SM",
      pairs, "BMS", "uniform", w.n, m, measure(t, [&] { BENCH_CHECK(call(temp)); }), "default BMS", baseline.ms);
}

// Launch shapes around the defaults, for m = 2 and 32 (register counters, one per lane) and
// 64 and 256 (shared counters: at m = 64 against the default's two register counters per lane).
template <int BucketBits>
void tune_shapes(workspace& w, timer& t, std::uint32_t m, bool pairs, const timing& base) {
  tune_one<256, 8, 8, BucketBits>(w, t, m, pairs, base);
  tune_one<256, 16, 8, BucketBits>(w, t, m, pairs, base);
  tune_one<512, 8, 4, BucketBits>(w, t, m, pairs, base);
  tune_one<128, 8, 16, BucketBits>(w, t, m, pairs, base);
}

void tuning(workspace& w, timer& t) {
  for (std::uint32_t m : {2u, 32u, 64u, 256u}) {
    delta_keys_kernel<<<1024, 256>>>(w.keys, w.n, m, dist::uniform, m);
    for (bool pairs : {false, true}) {
      const timing base = time_split(w, t, pairs, m, multisplit::delta_buckets{0xffffffffu / m}, method::block, false);
      add("tune", "BMS default", pairs, "BMS", "uniform", w.n, m, base);
      if (m <= 32)
        tune_shapes<multisplit::detail::lane_bucket_bits>(w, t, m, pairs, base);
      else
        tune_shapes<multisplit::detail::max_bucket_bits>(w, t, m, pairs, base);
    }
  }
}

// Variants: candidate postscan policies (rank scheme, key prefetch, shapes) against the default
// method, keys or pairs, each checked to produce exactly the default's output (both are stable).
__global__ void count_differences(const std::uint32_t* a, const std::uint32_t* b, std::size_t n,
                                  unsigned long long* diffs) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    if (a[i] != b[i]) atomicAdd(diffs, 1ull);
}

struct reference_output {
  std::uint32_t *keys = nullptr, *values = nullptr;
  unsigned long long* diffs = nullptr;
};

unsigned long long differences(workspace& w, reference_output& ref, bool pairs) {
  BENCH_CHECK(cudaMemset(ref.diffs, 0, sizeof(unsigned long long)));
  count_differences<<<1024, 256>>>(w.keys_out, ref.keys, w.n, ref.diffs);
  if (pairs) count_differences<<<1024, 256>>>(w.values_out, ref.values, w.n, ref.diffs);
  unsigned long long d = 0;
  BENCH_CHECK(cudaMemcpy(&d, ref.diffs, sizeof d, cudaMemcpyDeviceToHost));
  return d;
}

template <class Policy, bool Pairs>
void variant(workspace& w, timer& t, reference_output& ref, std::uint32_t m, const timing& base, const char* name) {
  std::size_t bytes = 0;
  auto call = [&](void* temp) { return launch_shape<Policy, Pairs>(w, m, temp, bytes); };
  BENCH_CHECK(call(nullptr));
  void* temp = w.need(bytes);
  BENCH_CHECK(cudaMemset(w.keys_out, 0, w.n * 4));
  const timing r = measure(t, [&] { BENCH_CHECK(call(temp)); });
  const unsigned long long d = differences(w, ref, Pairs);
  using value_t = std::conditional_t<Pairs, std::uint32_t, multisplit::detail::no_value>;
  cudaFuncAttributes attr{};
  BENCH_CHECK(cudaFuncGetAttributes(
      &attr, multisplit::detail::postscan_kernel<Policy, std::uint32_t, value_t, multisplit::delta_buckets>));
  int blocks = 0;
  BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, multisplit::detail::postscan_kernel<Policy, std::uint32_t, value_t, multisplit::delta_buckets>,
      Policy::threads, sizeof(multisplit::detail::postscan_storage<Policy, std::uint32_t, value_t>)));
  char info[96];
  std::snprintf(info, sizeof info, " [%d regs, %zu B local, %zu B smem, %d blocks/SM]", attr.numRegs,
                attr.localSizeBytes, sizeof(multisplit::detail::postscan_storage<Policy, std::uint32_t, value_t>),
                blocks);
  add("variant", std::string(name) + info + (d ? " WRONG" : ""), Pairs, "BMS", "uniform", w.n, m, r, "default", base.ms);
}

template <bool Pairs>
timing variant_base(workspace& w, timer& t, reference_output& ref, std::uint32_t m, method how) {
  delta_keys_kernel<<<1024, 256>>>(w.keys, w.n, m, dist::uniform, m);
  const timing base = time_split(w, t, Pairs, m, multisplit::delta_buckets{0xffffffffu / m}, how, false);
  add("variant", "default", Pairs, multisplit::method_name(how), "uniform", w.n, m, base);
  BENCH_CHECK(cudaMemcpy(ref.keys, w.keys_out, w.n * 4, cudaMemcpyDeviceToDevice));
  if (Pairs) BENCH_CHECK(cudaMemcpy(ref.values, w.values_out, w.n * 4, cudaMemcpyDeviceToDevice));
  return base;
}

// Shapes of the shared-counter policies, with the policy's bucket bits (7 for m = 128, 8 for 256).
template <int Bits>
void many_bucket_variants(workspace& w, timer& t, reference_output& ref, std::uint32_t m) {
  using namespace multisplit::detail;
  constexpr reorder_scope B = reorder_scope::block;
  const timing base = variant_base<false>(w, t, ref, m, method::block);
  variant<multisplit_policy<B, 512, 8, 4, Bits, 0>, false>(w, t, ref, m, base, "512x8");
  variant<multisplit_policy<B, 256, 16, 8, Bits, 3>, false>(w, t, ref, m, base, "256x16 min3");
  variant<multisplit_policy<B, 512, 16, 4, Bits, 0>, false>(w, t, ref, m, base, "512x16");
  variant<multisplit_policy<B, 384, 16, 2, Bits, 2>, false>(w, t, ref, m, base, "384x16 min2");
  variant<multisplit_policy<B, 1024, 8, 2, Bits, 0>, false>(w, t, ref, m, base, "1024x8");
}

void variants(workspace& w, timer& t) {
  using namespace multisplit::detail;
  constexpr reorder_scope B = reorder_scope::block;
  reference_output ref;
  BENCH_CHECK(cudaMalloc(&ref.keys, w.n * 4));
  BENCH_CHECK(cudaMalloc(&ref.values, w.n * 4));
  BENCH_CHECK(cudaMalloc(&ref.diffs, sizeof(unsigned long long)));
  for (std::uint32_t m : {2u, 4u}) {
    const timing base = variant_base<false>(w, t, ref, m, method::direct);
    variant<multisplit_policy<B, 256, 16, 8, 2, 4>, false>(w, t, ref, m, base, "BMS 256x16 min4");
    variant<multisplit_policy<B, 256, 8, 8, 2, 5>, false>(w, t, ref, m, base, "BMS 256x8 min5");
  }
  for (std::uint32_t m : {8u, 16u, 32u}) {
    const timing base = variant_base<false>(w, t, ref, m, method::block);
    variant<multisplit_policy<B, 256, 8, 8, 5, 5>, false>(w, t, ref, m, base, "256x8 min5");
    variant<multisplit_policy<B, 256, 16, 8, 5, 3>, false>(w, t, ref, m, base, "256x16 min3");
    variant<multisplit_policy<B, 512, 16, 4, 5, 2>, false>(w, t, ref, m, base, "512x16 min2");
  }
  {
    const std::uint32_t m = 64;
    const timing base = variant_base<false>(w, t, ref, m, method::block);
    variant<multisplit_policy<B, 256, 8, 8, 6, 4>, false>(w, t, ref, m, base, "256x8 min4");
    variant<multisplit_policy<B, 256, 16, 8, 6, 3>, false>(w, t, ref, m, base, "256x16 min3");
    variant<multisplit_policy<B, 512, 8, 4, 8, 0>, false>(w, t, ref, m, base, "512x8 shared");
  }
  many_bucket_variants<7>(w, t, ref, 128);
  many_bucket_variants<8>(w, t, ref, 256);
  for (std::uint32_t m : {8u, 16u, 32u}) {
    const timing base = variant_base<true>(w, t, ref, m, method::block);
    variant<multisplit_policy<B, 256, 16, 8, 5, 0>, true>(w, t, ref, m, base, "256x16");
    variant<multisplit_policy<B, 256, 16, 8, 5, 0, true>, true>(w, t, ref, m, base, "256x16 late values");
    variant<multisplit_policy<B, 512, 16, 4, 5, 0, true>, true>(w, t, ref, m, base, "512x16 late values");
  }
  {
    const std::uint32_t m = 64;
    const timing base = variant_base<true>(w, t, ref, m, method::block);
    variant<multisplit_policy<B, 256, 16, 8, 6, 0>, true>(w, t, ref, m, base, "256x16");
    variant<multisplit_policy<B, 512, 16, 4, 6, 0>, true>(w, t, ref, m, base, "512x16");
  }
  {
    const std::uint32_t m = 256;
    const timing base = variant_base<true>(w, t, ref, m, method::block);
    variant<multisplit_policy<B, 512, 16, 4, 8, 0, true>, true>(w, t, ref, m, base, "512x16 late values");
  }
  BENCH_CHECK(cudaFree(ref.keys));
  BENCH_CHECK(cudaFree(ref.values));
  BENCH_CHECK(cudaFree(ref.diffs));
}

double measure_copy(workspace& w, timer& t) {
  const timing c = measure(t, [&] {
    BENCH_CHECK(cudaMemcpyAsync(w.keys_out, w.keys, w.n * 4, cudaMemcpyDeviceToDevice));
  });
  return 2.0 * w.n * 4 / (c.ms * 1e6);  // GB/s, read + write
}

void write_outputs(const std::string& csv, const std::string& md) {
  if (!csv.empty()) {
    std::ofstream f(csv);
    f << "table,what,kind,method,distribution,n,m,ms,prescan_ms,scan_ms,postscan_ms,gitems_per_s,fraction_of_sol,"
         "baseline,speedup_vs_baseline,copy_gb_per_s\n";
    for (const row& r : rows)
      f << r.table << ',' << r.what << ',' << r.kind << ',' << r.method << ',' << r.dist << ',' << r.n << ','
        << r.m << ',' << r.t.ms << ',' << r.t.prescan_ms << ',' << r.t.scan_ms << ',' << r.t.postscan_ms << ','
        << r.rate << ',' << r.sol << ',' << r.baseline << ',' << r.vs_baseline << ',' << r.copy_gbs << '\n';
  }
  if (!md.empty()) {
    std::ofstream f(md);
    f << "| table | what | kind | method | dist | n | m | ms | pre/scan/post ms | G/s | SoL | vs baseline |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    char buf[512];
    for (const row& r : rows) {
      std::string stages = "";
      if (r.t.prescan_ms > 0) {
        std::snprintf(buf, sizeof buf, "%.3f / %.3f / %.3f", r.t.prescan_ms, r.t.scan_ms, r.t.postscan_ms);
        stages = buf;
      }
      std::string vs = "";
      if (r.vs_baseline > 0) {
        std::snprintf(buf, sizeof buf, "%.2fx %s", r.vs_baseline, r.baseline.c_str());
        vs = buf;
      }
      std::snprintf(buf, sizeof buf, "| %s | %s | %s | %s | %s | 2^%d | %u | %.3f | %s | %.2f | %.0f%% | %s |\n",
                    r.table.c_str(), r.what.c_str(), r.kind.c_str(), r.method.c_str(), r.dist.c_str(),
                    __builtin_ctzll(r.n), r.m, r.t.ms, stages.c_str(), r.rate, 100 * r.sol, vs.c_str());
      f << buf;
    }
  }
}

std::vector<int> parse_list(const std::string& s) {
  std::vector<int> v;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) v.push_back(std::atoi(item.c_str()));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {25, 28};
  std::string csv, md, only;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", a.c_str()); std::exit(2); }
      return argv[++i];
    };
    if (a == "--sizes") sizes = parse_list(next());
    else if (a == "--reps") reps = std::atoi(next().c_str());
    else if (a == "--quick") quick = true;
    else if (a == "--csv") csv = next();
    else if (a == "--md") md = next();
    else if (a == "--only") only = next();
    else { std::fprintf(stderr, "unknown argument %s\nusage: multisplit_bench [--sizes 25,28] [--reps R] [--quick] [--only 4,6,7,8,11,large,tune|profile] [--csv F] [--md F]\n", a.c_str()); return 2; }
  }
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  auto want = [&](const char* t) { return only.empty() || ("," + only + ",").find(std::string(",") + t + ",") != std::string::npos; };
  timer t;
  for (int log_n : sizes) {
    workspace w(std::size_t{1} << log_n);
    copy_gbs = measure_copy(w, t);
    std::printf("n = 2^%d, device-to-device copy %.1f GB/s: speed of light %.1f Gkeys/s, %.1f Gpairs/s\n", log_n,
                copy_gbs, copy_gbs / 12, copy_gbs / 20);
    const std::vector<std::uint32_t> small_m = quick ? std::vector<std::uint32_t>{2, 8, 32, 256}
                                                     : std::vector<std::uint32_t>{2, 4, 8, 16, 32, 64, 128, 256};
    const std::vector<std::uint32_t> large_m = quick ? std::vector<std::uint32_t>{257, 12288}
                                                     : std::vector<std::uint32_t>{257, 512, 1024, 2048, 4096, 8192, 12288};
    if (want("4")) tables_4_5(w, t, small_m);
    if (want("large")) large_buckets(w, t, large_m);
    if (want("6")) table_6(w, t);
    if (want("7")) table_7(w, t, 8);
    if (want("8")) table_8(w, t);
    if (want("11")) table_11(w, t, small_m);
    if (want("tune")) tuning(w, t);
    if (only == "variants") variants(w, t);
    if (only == "profile") {  // one BMS call per bucket count, for a profiler (ncu -k regex:scan)
      reps = 1;
      for (std::uint32_t m : {8u, 32u, 256u}) {
        delta_keys_kernel<<<1024, 256>>>(w.keys, w.n, m, dist::uniform, m);
        time_split(w, t, false, m, multisplit::delta_buckets{0xffffffffu / m}, method::block, false);
      }
    }
    BENCH_CHECK(cudaFree(w.temp));
    BENCH_CHECK(cudaFree(w.keys)); BENCH_CHECK(cudaFree(w.keys_out));
    BENCH_CHECK(cudaFree(w.values)); BENCH_CHECK(cudaFree(w.values_out)); BENCH_CHECK(cudaFree(w.offsets));
  }
  write_outputs(csv, md);
  return 0;
}
