// Sort-based Bucketing (Davidson et al. 2014; seed 000, Section 7.2.1): the window's vertices are
// filed by sorting them on their bucket key with cub::DeviceRadixSort (only the key's
// ceil(log2(K + 1)) bits). CUB sizes its launches from an item count on the host, so this manager
// reads the count back once per step: the round trip is part of what the baseline costs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include <cub/device/device_radix_sort.cuh>

#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/step_loop/frontier_manager.cuh"
#include "sssp/gpu/step_loop/vertex_filing.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
__global__ void bucket_keys(loop_view<Distance> s, std::uint32_t n, std::uint8_t* keys) {
  const window_key<Distance> key = key_of(s);
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    keys[i] = static_cast<std::uint8_t>(key(s.to_file[i]));
}

// Segment offsets of n > 0 sorted keys over `buckets` keys: offsets[k] = first index with key >= k,
// offsets[buckets] = n.
inline __global__ void offsets_of_sorted(const std::uint8_t* keys, std::uint32_t n, std::uint32_t buckets,
                                         std::uint32_t* offsets) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint32_t k = keys[i];
    for (std::uint32_t j = i == 0 ? 0 : keys[i - 1] + 1u; j <= k; ++j) offsets[j] = i;
    if (i == n - 1)
      for (std::uint32_t j = k + 1; j <= buckets; ++j) offsets[j] = n;
  }
}

template <class Distance>
class bucketing_filing final : public frontier_manager<Distance> {
 public:
  bool device_sized() const override { return false; }

  void prepare(const loop_view<Distance>& s) override {
    if (values_.size() >= s.queue_capacity) return;
    const std::size_t n = s.queue_capacity;
    if (n > 0x7FFFFFFFu) throw std::length_error("sort-based bucketing handles at most 2^31 - 1 queued vertices");
    keys_in_ = device_array<std::uint8_t>(n, "the bucket keys");
    keys_out_ = device_array<std::uint8_t>(n, "the sorted bucket keys");
    values_ = device_array<vertex_t>(n, "the sorted vertices");
    offsets_ = device_array<std::uint32_t>(max_window_buckets + 2, "the bucket offsets");
    std::size_t bytes = 0;
    DS_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in_.get(), keys_out_.get(), s.to_file, values_.get(),
                                            static_cast<int>(n), 0, 7));
    temp_ = device_array<unsigned char>(bytes ? bytes : 1, "the radix sort temporary storage");
    temp_bytes_ = bytes;
    if (!count_) DS_CUDA(cudaMallocHost(&count_, sizeof *count_));
  }
  ~bucketing_filing() override {
    if (count_) cudaFreeHost(count_);
  }
  bucketing_filing() = default;
  bucketing_filing(const bucketing_filing&) = delete;
  bucketing_filing& operator=(const bucketing_filing&) = delete;

  void file(const loop_view<Distance>& s, const launch_shape& shape, cudaStream_t stream) override {
    DS_CUDA(cudaMemcpyAsync(count_, &s.ctl->file_count, sizeof *count_, cudaMemcpyDeviceToHost, stream));
    DS_CUDA(cudaStreamSynchronize(stream));
    const std::uint32_t n = *count_;
    if (n == 0) return;
    const std::uint32_t buckets = s.window_buckets + 1;
    int bits = 1;
    while ((1u << bits) < buckets) ++bits;
    bucket_keys<<<shape.blocks, shape.threads, 0, stream>>>(s, n, keys_in_.get());
    DS_CUDA_LAUNCH("bucket_keys");
    std::size_t bytes = temp_bytes_;
    DS_CUDA(cub::DeviceRadixSort::SortPairs(temp_.get(), bytes, keys_in_.get(), keys_out_.get(), s.to_file,
                                            values_.get(), static_cast<int>(n), 0, bits, stream));
    offsets_of_sorted<<<shape.blocks, shape.threads, 0, stream>>>(keys_out_.get(), n, buckets, offsets_.get());
    DS_CUDA_LAUNCH("offsets_of_sorted");
    launch_file_segments(s, values_.get(), offsets_.get(), shape, stream);
  }

 private:
  device_array<std::uint8_t> keys_in_, keys_out_;
  device_array<vertex_t> values_;
  device_array<std::uint32_t> offsets_;
  device_array<unsigned char> temp_;
  std::size_t temp_bytes_ = 0;
  std::uint32_t* count_ = nullptr;
};

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_bucketing_manager() {
  return std::make_unique<bucketing_filing<Distance>>();
}

template std::unique_ptr<frontier_manager<std::uint32_t>> make_bucketing_manager<std::uint32_t>();
template std::unique_ptr<frontier_manager<float>> make_bucketing_manager<float>();
template std::unique_ptr<frontier_manager<double>> make_bucketing_manager<double>();
template std::unique_ptr<frontier_manager<std::uint64_t>> make_bucketing_manager<std::uint64_t>();

}  // namespace deltasplit::sssp::gpu
