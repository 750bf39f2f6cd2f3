// Multisplit-SSSP (seed 000, Section 7.2.2): the window's vertices are split into their K + 1
// buckets by the multisplit core, reading the item count on the device (multisplit::device_count),
// so the whole step stays in the captured CUDA graph.
#pragma once

#include <cstddef>
#include <cstdint>

#include <multisplit/multisplit.cuh>

#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/window_filing.cuh"

namespace deltasplit::sssp::gpu {

class multisplit_filing {
 public:
  static constexpr bool device_sized = true;

  template <class Distance>
  void prepare(const loop_view<Distance>& s) {
    if (split_.size() >= s.queue_capacity && buckets_ == s.window_buckets) return;
    std::size_t bytes = 0;
    DS_CUDA(call(nullptr, bytes, s, nullptr));
    split_ = device_array<vertex_t>(s.queue_capacity, "the multisplit output");
    offsets_ = device_array<std::uint32_t>(max_window_buckets + 2, "the bucket offsets");
    temp_ = device_array<unsigned char>(bytes ? bytes : 1, "the multisplit temporary storage");
    temp_bytes_ = bytes;
    buckets_ = s.window_buckets;
  }

  template <class Distance>
  void file(const loop_view<Distance>& s, const launch_shape& shape, cudaStream_t stream) {
    std::size_t bytes = temp_bytes_;
    DS_CUDA(call(temp_.get(), bytes, s, stream));
    launch_file_segments(s, split_.get(), offsets_.get(), shape, stream);
  }

 private:
  template <class Distance>
  cudaError_t call(void* temp, std::size_t& bytes, const loop_view<Distance>& s, cudaStream_t stream) {
    return multisplit::split_keys(temp, bytes, s.to_file, split_.get(),
                                  multisplit::device_count{&s.ctl->file_count, s.queue_capacity},
                                  s.window_buckets + 1, key_of(s), offsets_.get(), stream);
  }

  device_array<vertex_t> split_;
  device_array<std::uint32_t> offsets_;
  device_array<unsigned char> temp_;
  std::size_t temp_bytes_ = 0;
  std::uint32_t buckets_ = 0;
};

}  // namespace deltasplit::sssp::gpu
