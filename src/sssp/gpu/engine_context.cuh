// What every GPU engine holds for its lifetime (engine.cu: one source; many_sources.cu: batched
// delta-stepping; phast.cu: PHAST): the device it was made on with that device's name and
// multiprocessor count, the stream its work goes on (the caller's, or a non-blocking one of its
// own), the start and stop events that time its solves, and pinned host memory that device
// counters and flags are copied into. An engine derives from engine_context, so these outlive the
// engine's own device arrays and are released once, here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <cuda_runtime.h>

#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_memory.cuh"

namespace deltasplit::sssp::gpu {

// An owned CUDA event; converts to cudaEvent_t where the runtime takes one.
class cuda_event {
 public:
  explicit cuda_event(unsigned flags = cudaEventDefault) { DS_CUDA(cudaEventCreateWithFlags(&event_, flags)); }
  ~cuda_event() {
    if (event_) cudaEventDestroy(event_);
  }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  operator cudaEvent_t() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// An owned non-blocking CUDA stream; converts to cudaStream_t where the runtime takes one.
class cuda_stream {
 public:
  cuda_stream() { DS_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~cuda_stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class engine_context {
 protected:
  // caller_stream: options::stream, or nullptr for a stream of the engine's own. pinned_bytes:
  // the pinned host memory the engine reads its device words through (pinned<T>()).
  engine_context(cudaStream_t caller_stream, std::size_t pinned_bytes) {
    cudaDeviceProp prop{};
    DS_CUDA(cudaGetDevice(&device_));
    DS_CUDA(cudaGetDeviceProperties(&prop, device_));
    name_ = prop.name;
    multiprocessors_ = static_cast<unsigned>(prop.multiProcessorCount);
    pinned_.get(pinned_bytes);
    if (!caller_stream) own_stream_.emplace();
    stream_ = caller_stream ? caller_stream : static_cast<cudaStream_t>(*own_stream_);
  }
  ~engine_context() = default;
  engine_context(const engine_context&) = delete;
  engine_context& operator=(const engine_context&) = delete;

  template <class T>
  T* pinned() const {
    return static_cast<T*>(pinned_.data());
  }
  // Milliseconds from start_ to stop_, waiting for stop_.
  float elapsed_ms() const {
    float ms = 0;
    DS_CUDA(cudaEventSynchronize(stop_));
    DS_CUDA(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

  int device_ = 0;
  std::string name_;
  unsigned multiprocessors_ = 0;
  cudaStream_t stream_ = nullptr;  // the caller's (options::stream) or own_stream_
  cuda_event start_, stop_;

 private:
  std::optional<cuda_stream> own_stream_;  // when the caller gives none
  pinned_buffer pinned_;
};

}  // namespace deltasplit::sssp::gpu
