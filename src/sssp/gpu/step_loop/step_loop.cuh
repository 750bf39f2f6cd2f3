// The step loop (delta_stepping.cuh and the kernels it launches): delta-stepping one step at a
// time over the whole grid, small frontiers in a thread-block cluster, the window's buckets filed
// by the frontier manager that options::how names (Near-Far, Bucketing, Multisplit-SSSP,
// workfront). The driver every option of the loop (light, cluster_blocks, queue_capacity, heavy)
// and a cutoff run on; step_loop.cu compiles the loop's kernels, once.
#pragma once

#include <memory>

#include "sssp/gpu/device_csr.cuh"
#include "sssp/gpu/driver.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
class step_loop_driver : public one_source_driver<Distance> {
 public:
  // Takes the loop's options of the next solves, checked on every run whichever driver takes it:
  // the window's buckets (1 to max_window_buckets), the small-frontier cluster's size and the
  // light-phase mode (a block-by-block light phase needs a cluster of loop_tuning::local_min_blocks).
  virtual void configure(const options& opts) = 0;
};

// The device bytes of the loop's work buffers for a graph of n vertices and m arcs with queues of
// `queue` entries (0: initial_queue_capacity) and K window buckets, for the engine's reserve().
std::size_t step_loop_bytes(vertex_t n, edge_t m, std::uint32_t queue, std::uint32_t K, std::size_t distance_bytes);

// The loop's work buffers are allocated here, for tuning::queue_capacity (0: 2n + 1024) and one
// bucket; more buckets and longer queues when a solve needs them.
template <class Distance>
std::unique_ptr<step_loop_driver<Distance>> make_step_loop(const device_csr<Distance>& graph, const driver_context& ctx,
                                                           const options& opts);

}  // namespace deltasplit::sssp::gpu
