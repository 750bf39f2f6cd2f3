// Every CUDA call of the GPU solver goes through check(): a failure becomes a cuda_error (a
// std::runtime_error naming the call site and the CUDA error, with the error code for the few
// callers that handle one kind of failure), never a crash or a silently wrong answer.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

namespace deltasplit::sssp::gpu {

class cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

inline void check(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a sticky launch error so the next call reports its own
  throw cuda_error(err, std::string("CUDA error in ") + what + " (" + file + ":" + std::to_string(line) +
                            "): " + cudaGetErrorString(err));
}

}  // namespace deltasplit::sssp::gpu

#define DS_CUDA(call) ::deltasplit::sssp::gpu::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: the launch's own error (bad configuration, missing image).
#define DS_CUDA_LAUNCH(name) ::deltasplit::sssp::gpu::check(cudaGetLastError(), name, __FILE__, __LINE__)
