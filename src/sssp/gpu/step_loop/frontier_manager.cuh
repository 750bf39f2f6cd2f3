// The frontier managers (seed 000, Section 7.2.1 and 7.2.2): the part of the delta-stepping loop
// where Near-Far, sort-based Bucketing and Multisplit-SSSP differ, namely how the vertices of
// to_file are filed into the window's buckets and the far pile (window_filing.cuh gives the keys).
// The loop itself (delta_stepping.cuh and the kernels it launches) is compiled once, in engine.cu,
// and calls a manager through this interface; each manager lives in its own translation unit with
// only its own kernels: atomic filing (Near-Far, workfront) in engine.cu, Bucketing in
// bucketing_filing.cu, Multisplit-SSSP in multisplit_filing.cu.
#pragma once

#include <cstdint>
#include <memory>

#include <cuda_runtime.h>

#include "sssp/gpu/step_loop/frontier_state.cuh"


namespace deltasplit::sssp::gpu {

// What a launch of the grid-stride kernels looks like on this device.
struct launch_shape {
  unsigned blocks;
  unsigned threads;
};

template <class Distance>
class frontier_manager {
 public:
  virtual ~frontier_manager() = default;
  // True when the filing reads its item count on the device (no host round trip), so that whole
  // steps can be captured into a CUDA graph and replayed.
  virtual bool device_sized() const = 0;
  // Sizes the manager's temporary storage for the view's capacities and K.
  virtual void prepare(const loop_view<Distance>& view) = 0;
  // Queues the filing of to_file (ctl->file_count items) on stream.
  virtual void file(const loop_view<Distance>& s, const launch_shape& shape, cudaStream_t stream) = 0;
};

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_atomic_manager();
template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_bucketing_manager();
template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_multisplit_manager();

// Appends the items of `split`, already split by key into K + 1 segments with offsets[0 .. K + 2)
// (offsets[K + 1] = items), to the window's buckets and the far pile (window_filing.cuh).
// Compiled once, in engine.cu, for both distance types.
template <class Distance>
void launch_file_segments(const loop_view<Distance>& s, const vertex_t* split, const std::uint32_t* offsets,
                          const launch_shape& shape, cudaStream_t stream);

}  // namespace deltasplit::sssp::gpu
