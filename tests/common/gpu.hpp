// GPU tests skip, with the reason, where no CUDA device is present (CI); on the H200 they run.
#pragma once

#include <string>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

namespace deltasplit_test {

inline bool cuda_device_present(std::string* why_not) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    if (why_not) {
      // Without a driver at all the runtime reports an "insufficient" driver; say what it means.
      *why_not = err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice
                     ? std::string("no CUDA driver or device on this machine (") + cudaGetErrorString(err) + ")"
                     : std::string("CUDA unusable: ") + cudaGetErrorString(err);
    }
    cudaGetLastError();
    return false;
  }
  if (count == 0) {
    if (why_not) *why_not = "cudaGetDeviceCount found 0 devices";
    return false;
  }
  return true;
}

}  // namespace deltasplit_test

#define DELTASPLIT_REQUIRE_GPU()                                                   \
  do {                                                                             \
    std::string why_no_gpu_;                                                       \
    if (!::deltasplit_test::cuda_device_present(&why_no_gpu_))                     \
      GTEST_SKIP() << "no CUDA device: " << why_no_gpu_ << "; GPU tests run on a machine with one"; \
  } while (0)
