// The engine's graph layout (src/sssp/gpu/device_csr.cuh): a view in device memory is sorted on the
// device into exactly what the host sort (rows_by_weight.hpp) gives the same arrays in host memory:
// every row by weight, equal weights by target, -0.0 among the zeros, empty rows kept.
// Rows with many ties, unsorted rows, a row longer than a radix tile. Skips without a GPU.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/gpu/device_csr.cuh"

namespace {

namespace sssp = deltasplit::sssp;
namespace graph = deltasplit::graph;
namespace gpu = deltasplit::sssp::gpu;
using graph::edge_t;
using graph::vertex_t;

template <class T>
T* to_device(const std::vector<T>& host) {
  T* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, sizeof(T) * (host.size() + 1)), cudaSuccess);
  if (!host.empty()) EXPECT_EQ(cudaMemcpy(p, host.data(), sizeof(T) * host.size(), cudaMemcpyHostToDevice), cudaSuccess);
  return p;
}

template <class T>
std::vector<T> to_host(const T* p, std::size_t count) {
  std::vector<T> host(count);
  if (count) EXPECT_EQ(cudaMemcpy(host.data(), p, sizeof(T) * count, cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

// Arrays of a graph with `rows` rows: degrees from 0 (empty rows) to `longest`, weights drawn from
// a few values (ties), -0.0 among the real ones.
struct arrays {
  std::vector<edge_t> offsets{0};
  std::vector<vertex_t> targets;
  std::vector<std::uint32_t> ints;
  std::vector<float> reals;
};

arrays draw(vertex_t rows, std::uint32_t longest, std::uint32_t seed) {
  std::mt19937 rng(seed);
  arrays a;
  for (vertex_t v = 0; v < rows; ++v) {
    const std::uint32_t degree = v == 1 ? longest : rng() % 9;  // row 1 spans several radix tiles
    for (std::uint32_t i = 0; i < degree; ++i) {
      a.targets.push_back(rng() % rows);
      const std::uint32_t w = rng() % 5;
      a.ints.push_back(w == 4 ? 4000000000u : w);
      a.reals.push_back(w == 0 ? (rng() % 2 ? -0.0f : 0.0f) : static_cast<float>(w) * 0.25f);
    }
    a.offsets.push_back(a.targets.size());
  }
  return a;
}

template <class Distance>
void expect_device_sort_equals_host_sort(const arrays& a, vertex_t rows) {
  sssp::csr_view host;
  host.num_vertices = rows;
  host.offsets = {const_cast<edge_t*>(a.offsets.data()), a.offsets.size()};
  host.targets = {const_cast<vertex_t*>(a.targets.data()), a.targets.size()};
  host.int_weights = {const_cast<std::uint32_t*>(a.ints.data()), a.ints.size()};
  host.real_weights = {const_cast<float*>(a.reals.data()), a.reals.size()};
  host.kind = std::is_same_v<Distance, float> ? graph::weight_kind::real : graph::weight_kind::integer;
  edge_t* offsets = to_device(a.offsets);
  vertex_t* targets = to_device(a.targets);
  std::uint32_t* ints = to_device(a.ints);
  float* reals = to_device(a.reals);
  sssp::csr_view device = host;
  device.offsets = {offsets, a.offsets.size()};
  device.targets = {targets, a.targets.size()};
  device.int_weights = {ints, a.ints.size()};
  device.real_weights = {reals, a.reals.size()};
  device.space = sssp::memory_space::device;
  {
    const gpu::device_csr<Distance> want(host, nullptr), got(device, nullptr);
    const std::size_t m = a.targets.size();
    EXPECT_EQ(to_host(got.offsets(), rows + 1), to_host(want.offsets(), rows + 1));
    EXPECT_EQ(to_host(got.targets(), m), to_host(want.targets(), m));
    EXPECT_EQ(to_host(got.weights(), m), to_host(want.weights(), m));  // -0.0 == +0.0: parallel arcs may swap
  }
  cudaFree(offsets);
  cudaFree(targets);
  cudaFree(ints);
  cudaFree(reals);
}

}  // namespace

TEST(DeviceLayout, DeviceSortEqualsTheHostSort) {
  DELTASPLIT_REQUIRE_GPU();
  for (const vertex_t rows : {vertex_t{1}, vertex_t{2}, vertex_t{700}, vertex_t{70000}}) {
    SCOPED_TRACE(std::to_string(rows) + " rows");
    const arrays a = draw(rows, rows > 1 ? 20000 : 0, rows);
    expect_device_sort_equals_host_sort<std::uint32_t>(a, rows);
    expect_device_sort_equals_host_sort<float>(a, rows);
  }
}
