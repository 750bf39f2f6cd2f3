// Every CUDA call of the GPU solver goes through check(): a failure becomes a std::runtime_error
// naming the call site and the CUDA error, never a crash or a silently wrong answer.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

namespace deltasplit::sssp::gpu {

inline void check(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a sticky launch error so the next call reports its own
  throw std::runtime_error(std::string("CUDA error in ") + what + " (" + file + ":" + std::to_string(line) +
                           "): " + cudaGetErrorString(err));
}

}  // namespace deltasplit::sssp::gpu

#define DS_CUDA(call) ::deltasplit::sssp::gpu::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: the launch's own error (bad configuration, missing image).
#define DS_CUDA_LAUNCH(name) ::deltasplit::sssp::gpu::check(cudaGetLastError(), name, __FILE__, __LINE__)
