// Groups integers by range with multisplit, a bucket function written as a device lambda, and
// checks the result against a stable counting sort on the host. Built by the multisplit install
// test against an installed package; without a GPU it says so and succeeds. It calls the bounded
// form (at most 2^4 buckets, the item count on the device): only the kernels such a call can reach
// are compiled, about a third of split_keys' compile time, which compiles every method.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "multisplit/multisplit.cuh"

namespace {

bool ok(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  return false;
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: built against the multisplit package, not run\n");
    return 0;
  }
  const std::uint32_t n = 100000, m = 10;
  std::vector<std::uint32_t> keys(n);
  std::uint32_t x = 12345;
  for (auto& k : keys) k = (x = x * 1664525u + 1013904223u) % 1000;  // values 0..999
  auto range_of = [] __device__(std::uint32_t k) { return k / 100; };

  std::uint32_t *d_in = nullptr, *d_out = nullptr, *d_offsets = nullptr, *d_count = nullptr;
  void* d_temp = nullptr;
  std::size_t temp_bytes = 0;
  bool good = ok(cudaMalloc(&d_in, n * sizeof(std::uint32_t)), "cudaMalloc") &&
              ok(cudaMalloc(&d_out, n * sizeof(std::uint32_t)), "cudaMalloc") &&
              ok(cudaMalloc(&d_offsets, (m + 1) * sizeof(std::uint32_t)), "cudaMalloc") &&
              ok(cudaMalloc(&d_count, sizeof(std::uint32_t)), "cudaMalloc") &&
              ok(cudaMemcpy(d_in, keys.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice), "cudaMemcpy") &&
              ok(cudaMemcpy(d_count, &n, sizeof n, cudaMemcpyHostToDevice), "cudaMemcpy");
  const multisplit::device_count count{d_count, n};  // read on the device; n bounds the launches
  good = good &&
         ok(multisplit::split_keys_bounded<4>(nullptr, temp_bytes, d_in, d_out, count, m, range_of, d_offsets),
            "sizing") &&
         ok(cudaMalloc(&d_temp, temp_bytes), "cudaMalloc") &&
         ok(multisplit::split_keys_bounded<4>(d_temp, temp_bytes, d_in, d_out, count, m, range_of, d_offsets),
            "split_keys_bounded") &&
         ok(cudaDeviceSynchronize(), "split_keys_bounded (kernels)");
  std::vector<std::uint32_t> out(n), offsets(m + 1);
  good = good && ok(cudaMemcpy(out.data(), d_out, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost), "cudaMemcpy") &&
         ok(cudaMemcpy(offsets.data(), d_offsets, (m + 1) * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
            "cudaMemcpy");
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_offsets);
  cudaFree(d_count);
  cudaFree(d_temp);
  if (!good) return 1;

  std::vector<std::uint32_t> expected_offsets(m + 1, 0), next(m);
  for (std::uint32_t k : keys) ++expected_offsets[k / 100 + 1];
  for (std::uint32_t b = 0; b < m; ++b) expected_offsets[b + 1] += expected_offsets[b];
  std::vector<std::uint32_t> expected(n);
  for (std::uint32_t b = 0; b < m; ++b) next[b] = expected_offsets[b];
  for (std::uint32_t k : keys) expected[next[k / 100]++] = k;
  if (out != expected || offsets != expected_offsets) {
    std::fprintf(stderr, "multisplit result differs from the host's stable counting sort\n");
    return 1;
  }
  std::printf("split %u keys into %u ranges: matches the host's stable counting sort\n", n, m);
  return 0;
}
