// A slot in an append-only queue for the calling thread, taken with one atomic per group of lanes
// that append to the same counter: shared by the loop's device queues (vertex_filing.cuh, push)
// and the block driver's near set and far piles (block_driver.cuh). Lanes are grouped by the
// counter, not merely by being active together: one call site may serve several counters (a
// lane's target queue depends on its data), and the compiler may merge calls on different counters
// into one. The common case, one counter for all active lanes, is recognised with a shuffle and a
// vote before paying for a match. The counter may be in global or shared memory.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace deltasplit::sssp::gpu {

__device__ inline std::uint32_t queue_slot(std::uint32_t* count) {
  const unsigned active = __activemask();
  const unsigned long long key = reinterpret_cast<unsigned long long>(count);
  const unsigned long long first_key = __shfl_sync(active, key, __ffs(active) - 1);
  const unsigned peers = __all_sync(active, key == first_key) ? active : __match_any_sync(active, key);
  const unsigned lane = threadIdx.x & 31u;
  const unsigned leader = static_cast<unsigned>(__ffs(peers)) - 1u;
  std::uint32_t base = 0;
  if (lane == leader) base = atomicAdd(count, static_cast<std::uint32_t>(__popc(peers)));
  return __shfl_sync(peers, base, static_cast<int>(leader)) +
         static_cast<std::uint32_t>(__popc(peers & ((1u << lane) - 1u)));
}

}  // namespace deltasplit::sssp::gpu
