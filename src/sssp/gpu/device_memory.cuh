// Device allocations of the GPU solver. Before allocating, the engine asks for all of its bytes
// at once through reserve(), so that a graph too large for the device is refused with the bytes
// needed and the bytes available (cudaMemGetInfo) instead of failing half-way. pinned_buffer: page-locked
// host memory, for copies that overlap the device's work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include <cuda_runtime.h>

#include "sssp/gpu/cuda_check.cuh"

namespace deltasplit::sssp::gpu {

inline std::string mib(std::size_t bytes) {
  return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

// Throws when `bytes` more device memory is not available, saying what it was for.
inline void reserve(std::size_t bytes, const std::string& what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  DS_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes)
    throw std::runtime_error("GPU out of memory: " + what + " needs " + mib(bytes) + " (" + std::to_string(bytes) +
                             " bytes) but only " + mib(free_bytes) + " of " + mib(total_bytes) + " are available");
}

// Device memory free now, plus `reusable` bytes that the caller holds and would release before it
// allocates again (an engine's batch buffers).
inline std::size_t free_bytes_with(std::size_t reusable) {
  std::size_t free_bytes = 0, total_bytes = 0;
  DS_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes + reusable;
}

// An owning device array; moves, never copies.
template <class T>
class device_array {
 public:
  device_array() = default;
  device_array(std::size_t count, const char* what) : count_(count) {
    if (count == 0) return;
    cudaError_t err = cudaMalloc(&ptr_, count * sizeof(T));
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      reserve(count * sizeof(T), what);  // reports the sizes
      throw std::runtime_error(std::string("GPU out of memory allocating ") + what);
    }
    DS_CUDA(err);
  }
  ~device_array() {
    if (ptr_) cudaFree(ptr_);
  }
  device_array(device_array&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  device_array& operator=(device_array&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

class pinned_buffer {
 public:
  pinned_buffer() = default;
  ~pinned_buffer() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  // At least `bytes` of pinned host memory (the contents are not kept when it grows).
  void* get(std::size_t bytes) {
    if (bytes <= bytes_) return ptr_;
    if (ptr_) cudaFreeHost(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
    if (cudaMallocHost(&ptr_, bytes) != cudaSuccess) {
      cudaGetLastError();
      ptr_ = nullptr;
      throw std::runtime_error("out of pinned host memory: a buffer of " + mib(bytes) + " (" + std::to_string(bytes) +
                               " bytes) does not fit; choose a smaller batch size");
    }
    bytes_ = bytes;
    return ptr_;
  }
  void* data() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace deltasplit::sssp::gpu
