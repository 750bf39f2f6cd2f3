// The partitioned driver's watchdog (src/sssp/gpu/partitioned/partitioned_driver.cuh, partitioned_watchdog):
// a message the protocol loses must end the solve with std::runtime_error naming the wait, not
// leave the GPU spinning. Each test plants a fault in every solve of one driver (a mailbox entry
// counted and never written, as in the ninth session's hang; or a count that never returns to
// zero), checks that the solve throws that wait's message soon after the limit, and that the same
// driver's next solve, without the fault, matches Dijkstra vertex by vertex. The driver is made
// directly (the engine always runs it with the fault off and the default limit). Small enough for
// compute-sanitizer (the Small in their names).
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <cuda_runtime.h>

#include "common/gpu.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/gpu/partitioned/partitioned_driver.cuh"

namespace {

namespace sssp = deltasplit::sssp;
namespace graph = deltasplit::graph;
namespace gpu = deltasplit::sssp::gpu;
using graph::vertex_t;

// What a driver's solve() takes besides the source and the buckets: a stream, two events, device distances.
struct solve_fixture {
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  std::uint32_t* dist = nullptr;
  void open(vertex_t n) {
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
    ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dist, sizeof(std::uint32_t) * n), cudaSuccess);
  }
  ~solve_fixture() {
    cudaFree(dist);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }
};

// A 48 x 48 grid (about 17 vertices a region on 132 SMs: every solve sends mail across regions),
// integer weights, solved from a corner, with a limit of 50 ms. The message names the wait and its
// length: named_ms (the limit, or twice it for the round's count).
void expect_fault_is_caught(gpu::partitioned_fault fault, const std::string& names_the_wait, double named_ms) {
  graph::grid_params gp;
  gp.rows = 48, gp.cols = 48;
  const graph::csr g = graph::generate_grid(gp);
  ASSERT_EQ(g.kind, graph::weight_kind::integer);
  const sssp::csr_view view = g;
  solve_fixture f;
  ASSERT_NO_FATAL_FAILURE(f.open(g.num_vertices));
  const gpu::device_csr<std::uint32_t> on_device(view, f.stream);
  auto driver = gpu::make_partitioned_driver<std::uint32_t>(view, on_device, {f.stream, f.start, f.stop, 0});
  ASSERT_NE(driver, nullptr);
  const vertex_t source = 0;
  const gpu::bucket_of_distance<std::uint32_t> bucket{1000};
  const sssp::result want = sssp::dijkstra(g, source);

  gpu::partitioned_watchdog dog;
  dog.stall_limit_ms = 50;
  dog.fault = fault;
  driver->set_watchdog(dog);
  for (int run = 0; run < 2; ++run) {  // twice: a stalled solve leaves nothing behind for the next
    const auto began = std::chrono::steady_clock::now();
    std::string message;
    try {
      driver->solve(source, bucket, f.dist, f.stream, f.start, f.stop);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    const double waited = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
    EXPECT_NE(message.find("the partitioned driver stalled"), std::string::npos) << "run " << run << ": " << message;
    EXPECT_NE(message.find(names_the_wait), std::string::npos) << message;
    EXPECT_NE(message.find("over " + std::to_string(static_cast<int>(named_ms)) + " ms"), std::string::npos) << message;
    EXPECT_GE(waited, named_ms);  // the limit is a wait with nothing moving, measured on the GPU's clock
    EXPECT_LT(waited, 60000.0);  // and the blocks leave after it (well within, even under a sanitizer)
  }

  driver->set_watchdog(gpu::partitioned_watchdog{});  // the default: no fault
  for (int run = 0; run < 3; ++run) {
    const gpu::partitioned_outcome out = driver->solve(source, bucket, f.dist, f.stream, f.start, f.stop);
    std::vector<std::uint32_t> got(g.num_vertices);
    ASSERT_EQ(cudaMemcpy(got.data(), f.dist, sizeof(std::uint32_t) * got.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(got, want.int_distances) << "run " << run << " after the stalls";
    EXPECT_GT(out.rounds, 0u);
  }
}

TEST(PartitionedWatchdog, SmallLostMailThrowsAndTheNextSolveIsExact) {
  DELTASPLIT_REQUIRE_GPU();
  expect_fault_is_caught(gpu::partitioned_fault::lost_mail, "waited on a mailbox entry", 50);
}

TEST(PartitionedWatchdog, SmallLostCountThrowsAndTheNextSolveIsExact) {
  DELTASPLIT_REQUIRE_GPU();
  expect_fault_is_caught(gpu::partitioned_fault::lost_count, "count of outstanding work", 100);
}

}  // namespace
