// Multisplit-SSSP (seed 000, Section 7.2.2): the window's vertices are split into their K + 1
// buckets by the multisplit core, reading the item count on the device (multisplit::device_count),
// so the whole step stays in the captured CUDA graph.
#include <cstddef>
#include <cstdint>
#include <memory>

#include <multisplit/multisplit.cuh>

#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/step_loop/frontier_manager.cuh"
#include "sssp/gpu/step_loop/vertex_filing.cuh"

namespace deltasplit::sssp::gpu {

// The window's K + 1 <= max_window_buckets + 1 keys take this many bits, so only the multisplit
// kernels for up to 2^window_key_bits buckets are compiled here (8 of the 40 per key function).
constexpr int bits_for(std::uint32_t keys) {
  int bits = 0;
  while ((std::uint32_t{1} << bits) < keys) ++bits;
  return bits;
}
inline constexpr int window_key_bits = bits_for(max_window_buckets + 1);

template <class Distance>
class multisplit_filing final : public frontier_manager<Distance> {
 public:
  bool device_sized() const override { return true; }

  void prepare(const loop_view<Distance>& s) override {
    if (split_.size() >= s.queue_capacity && buckets_ == s.window_buckets) return;
    std::size_t bytes = 0;
    DS_CUDA(call(nullptr, bytes, s, nullptr));
    split_ = device_array<vertex_t>(s.queue_capacity, "the multisplit output");
    offsets_ = device_array<std::uint32_t>(max_window_buckets + 2, "the bucket offsets");
    temp_ = device_array<unsigned char>(bytes ? bytes : 1, "the multisplit temporary storage");
    temp_bytes_ = bytes;
    buckets_ = s.window_buckets;
  }

  void file(const loop_view<Distance>& s, const launch_shape& shape, cudaStream_t stream) override {
    std::size_t bytes = temp_bytes_;
    DS_CUDA(call(temp_.get(), bytes, s, stream));
    launch_file_segments(s, split_.get(), offsets_.get(), shape, stream);
  }

 private:
  cudaError_t call(void* temp, std::size_t& bytes, const loop_view<Distance>& s, cudaStream_t stream) {
    return multisplit::split_keys_bounded<window_key_bits>(
        temp, bytes, s.to_file, split_.get(), multisplit::device_count{&s.ctl->file_count, s.queue_capacity},
        s.window_buckets + 1, key_of(s), offsets_.get(), stream);
  }

  device_array<vertex_t> split_;
  device_array<std::uint32_t> offsets_;
  device_array<unsigned char> temp_;
  std::size_t temp_bytes_ = 0;
  std::uint32_t buckets_ = 0;
};

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_multisplit_manager() {
  return std::make_unique<multisplit_filing<Distance>>();
}

template std::unique_ptr<frontier_manager<std::uint32_t>> make_multisplit_manager<std::uint32_t>();
template std::unique_ptr<frontier_manager<float>> make_multisplit_manager<float>();
template std::unique_ptr<frontier_manager<double>> make_multisplit_manager<double>();
template std::unique_ptr<frontier_manager<std::uint64_t>> make_multisplit_manager<std::uint64_t>();

}  // namespace deltasplit::sssp::gpu
