// Printed after `make test`: which GPU the tests labelled "gpu" ran on, or why they were skipped
// (ctest lists skipped tests but not gtest's reasons).
#include <cstdio>
#include <string>

#include "common/gpu.hpp"

int main() {
  std::string why;
  if (!deltasplit_test::cuda_device_present(&why)) {
    std::printf("GPU tests (ctest label 'gpu') were SKIPPED: %s.\n", why.c_str());
    return 0;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) == cudaSuccess)
    std::printf("GPU tests (ctest label 'gpu') ran on %s (sm_%d%d, %d SMs).\n", p.name, p.major, p.minor,
                p.multiProcessorCount);
  return 0;
}
