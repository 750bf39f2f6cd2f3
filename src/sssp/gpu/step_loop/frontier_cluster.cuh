// The group of blocks that runs small frontiers (cluster_driver.cuh). Compiled for Hopper (sm_90)
// or later it is a thread-block cluster: up to 16 blocks on as many SMs, sharing
// distributed shared memory and a hardware barrier. Compiled for an older GPU, where clusters do
// not exist, it is a single block and each operation below is the block's own; the host launches
// it accordingly (the engine's small_frontier_setup), so the one loop serves both.
#pragma once

#include <cstdint>

#include <cooperative_groups.h>

namespace deltasplit::sssp::gpu {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
struct frontier_cluster {
  __device__ std::uint32_t block_rank() const { return 0; }
  __device__ std::uint32_t num_blocks() const { return 1; }
  __device__ void sync() const { __syncthreads(); }
  template <class T>
  __device__ T* map_shared_rank(T* address, std::uint32_t) const {
    return address;
  }
};
#else
struct frontier_cluster {
  __device__ std::uint32_t block_rank() const { return cooperative_groups::this_cluster().block_rank(); }
  __device__ std::uint32_t num_blocks() const { return cooperative_groups::this_cluster().num_blocks(); }
  __device__ void sync() const { cooperative_groups::this_cluster().sync(); }
  template <class T>
  __device__ T* map_shared_rank(T* address, std::uint32_t rank) const {
    return cooperative_groups::this_cluster().map_shared_rank(address, rank);
  }
};
#endif

}  // namespace deltasplit::sssp::gpu
