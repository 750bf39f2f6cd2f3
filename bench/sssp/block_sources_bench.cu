// Many sources on the block driver's kernel alone (block_driver.cuh): one thread block per source,
// every block Near-Far for its own source in its own row of every vertex, launched directly on an
// uploaded graph, the way many_sources runs it with options::driver == block but without the
// library around it (no targets picked, no rows delivered). It measured the launch shapes
// (block_driver_tuning::rows_threads and rows_near_capacity) and the throughput figures of
// bench/results/block_driver.md.
//
//   block_sources_bench GRAPH DELTA K FAR_CAPACITY [THREADS]
//
// GRAPH a file read_graph takes (integer weights: unweighted files get [0, 1000] from seed 1, as
// the CLI's), DELTA the bucket width (the CLI prints the automatic one), K sources drawn at random
// (seed 7) and solved in one launch, FAR_CAPACITY entries per far pile, THREADS 1024, 512, 256 or
// 128 a block (near queues of 8192, 4096, 2048 or 1024 entries: 1, 2, 4 or 8 blocks per SM). Three launches, each timed with events
// (distance fill included); three rows (first, middle, last) compared with Dijkstra.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/gpu/near_far/block_driver.cuh"

namespace {

using namespace deltasplit;
using namespace deltasplit::sssp::gpu;

#define BENCH_CUDA(call)                                                                        \
  do {                                                                                          \
    const cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));                          \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

// One timed run (the library's run_block_solve: fill, solve, outcomes) with near queues of Q entries
// and, as the library sets them, row_lanes lanes per near-set vertex for one source, rows_lanes for many.
template <std::uint32_t Q, unsigned Lanes>
float launch_lanes(const block_view<std::uint32_t>& v, const vertex_t* sources, int k, unsigned threads,
                   cudaEvent_t start, cudaEvent_t stop, block_outcome* outcomes) {
  BENCH_CUDA(cudaFuncSetAttribute(block_solve<std::uint32_t, Q, Lanes>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(block_driver_shared_bytes<std::uint32_t>(Q))));
  return run_block_solve<std::uint32_t, Q, Lanes>(v, sources, 0, static_cast<std::uint32_t>(k), threads, 1024, nullptr,
                                                  start, stop, outcomes);
}

template <std::uint32_t Q>
float launch(const block_view<std::uint32_t>& v, const vertex_t* sources, int k, unsigned threads, cudaEvent_t start,
             cudaEvent_t stop, block_outcome* outcomes) {
  return k == 1 ? launch_lanes<Q, block_driver_tuning::row_lanes>(v, sources, k, threads, start, stop, outcomes)
                : launch_lanes<Q, block_driver_tuning::rows_lanes>(v, sources, k, threads, start, stop, outcomes);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: block_sources_bench GRAPH DELTA K FAR_CAPACITY [THREADS: 1024|512|256|128]\n");
    return 2;
  }
  const graph::csr g = graph::read_graph(argv[1]);
  if (g.kind != graph::weight_kind::integer) {
    std::fprintf(stderr, "block_sources_bench takes integer weights\n");
    return 2;
  }
  const std::uint32_t delta = static_cast<std::uint32_t>(std::atoll(argv[2]));
  const int k = std::atoi(argv[3]);
  const std::uint32_t capacity = static_cast<std::uint32_t>(std::atoll(argv[4]));
  const unsigned threads = argc > 5 ? static_cast<unsigned>(std::atoi(argv[5])) : 1024;
  if (delta == 0 || k <= 0 || capacity == 0 || (threads != 1024 && threads != 512 && threads != 256 && threads != 128)) {
    std::fprintf(stderr, "block_sources_bench: DELTA, K and FAR_CAPACITY must be positive, THREADS 1024, 512, 256 or 128\n");
    return 2;
  }
  const vertex_t n = g.num_vertices;
  const edge_t m = g.num_arcs();
  std::mt19937_64 rng(7);
  std::vector<vertex_t> sources(k);
  for (auto& s : sources) s = static_cast<vertex_t>(rng() % n);

  edge_t* offsets = nullptr;
  vertex_t *targets = nullptr, *d_sources = nullptr;
  std::uint32_t *weights = nullptr, *dist = nullptr;
  uint2* piles = nullptr;
  block_outcome* outcome = nullptr;
  BENCH_CUDA(cudaMalloc(&offsets, (std::size_t{n} + 1) * sizeof(edge_t)));
  BENCH_CUDA(cudaMalloc(&targets, m * sizeof(vertex_t)));
  BENCH_CUDA(cudaMalloc(&weights, m * sizeof(std::uint32_t)));
  BENCH_CUDA(cudaMalloc(&dist, std::size_t{n} * k * sizeof(std::uint32_t)));
  BENCH_CUDA(cudaMalloc(&piles, 2 * std::size_t{capacity} * k * sizeof(uint2)));
  BENCH_CUDA(cudaMalloc(&outcome, k * sizeof(block_outcome)));
  BENCH_CUDA(cudaMalloc(&d_sources, k * sizeof(vertex_t)));
  BENCH_CUDA(cudaMemcpy(offsets, g.offsets.data(), (std::size_t{n} + 1) * sizeof(edge_t), cudaMemcpyDefault));
  BENCH_CUDA(cudaMemcpy(targets, g.targets.data(), m * sizeof(vertex_t), cudaMemcpyDefault));
  BENCH_CUDA(cudaMemcpy(weights, g.int_weights.data(), m * sizeof(std::uint32_t), cudaMemcpyDefault));
  BENCH_CUDA(cudaMemcpy(d_sources, sources.data(), k * sizeof(vertex_t), cudaMemcpyDefault));

  block_view<std::uint32_t> v{offsets, targets, weights, n, {delta}, no_bucket, dist, n, piles, capacity, outcome};
  cudaEvent_t start, stop;
  BENCH_CUDA(cudaEventCreate(&start));
  BENCH_CUDA(cudaEventCreate(&stop));
  std::vector<block_outcome> o(k);
  for (int rep = 0; rep < 3; ++rep) {
    const float ms = threads == 1024 ? launch<block_driver_tuning::near_capacity>(v, d_sources, k, threads, start, stop, o.data())
                     : threads == 512 ? launch<4096>(v, d_sources, k, threads, start, stop, o.data())
                     : threads == 256 ? launch<2048>(v, d_sources, k, threads, start, stop, o.data())
                                      : launch<1024>(v, d_sources, k, threads, start, stop, o.data());
    int exceeded = 0;
    std::uint32_t longest = 0, largest_far = 0;
    unsigned long long buckets = 0, passes = 0, frontier = 0;
    for (const block_outcome& x : o) {
      exceeded += x.capacity_exceeded != 0;
      longest = std::max(longest, x.iterations);
      largest_far = std::max(largest_far, x.max_far);
      buckets += x.buckets, passes += x.passes, frontier += x.max_frontier;
    }
    // Per source, on average: buckets taken, far-pile passes, the largest near set.
    std::printf("%s k=%d threads=%u: %.2f ms, %.1f sources/s, %.3g distances/s, exceeded %d, max it %u, max far %u, "
                "mean buckets %.0f, passes %.0f, largest near set %.0f\n",
                argv[1], k, threads, ms, k / ms * 1e3, double(k) * n / ms * 1e3, exceeded, longest, largest_far,
                double(buckets) / k, double(passes) / k, double(frontier) / k);
  }
  std::vector<std::uint32_t> row(n);
  int differ = 0;
  for (int i : {0, k / 2, k - 1}) {
    BENCH_CUDA(cudaMemcpy(row.data(), dist + std::size_t{static_cast<unsigned>(i)} * n, n * sizeof(std::uint32_t),
                          cudaMemcpyDefault));
    differ += sssp::dijkstra(g, sources[i]).int_distances != row;
  }
  std::printf("validation: %d of 3 rows differ\n", differ);
  return differ ? 3 : 0;
}
