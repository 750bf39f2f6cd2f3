// Programmatic dependent launch (CUDA C++ Programming Guide, "Programmatic Dependent Launch and
// Synchronization"; sm_90 and later) for the step loop's chain of kernels (grid_step.cuh,
// cluster_driver.cuh). Each kernel of a step reads the counters its predecessor wrote, so in
// plain stream order each one is launched only once its predecessor has completed and its writes
// have been flushed: a few microseconds a kernel, a dozen kernels a step, most of them with little
// or nothing to do on a given step. Launched with programmatic stream serialization, a kernel may
// be launched as soon as every block of its predecessor has exited, and waits, at its first
// instruction, for the predecessor's completion and memory flush (await_predecessor); the launch
// overlaps the flush and the completion's round trip. Nothing a kernel does precedes that wait, so
// every kernel still sees all that its predecessors wrote, as in stream order. A kernel launched
// without the attribute (the managers' filing kernels, cub's) waits in plain stream order, and the
// wait of a kernel launched without a programmatic predecessor returns at once.
// No kernel triggers its successor early (griddepcontrol.launch_dependents): a trigger at the top
// of every kernel (d4a448f) placed each successor's blocks on the SMs while the predecessor ran,
// where they held thread slots that other streams' work would get, and it bought nothing over the
// trigger implied by the blocks' exit. Measured (H100 80GB HBM3, 2026-11-28, one binary, each mode
// in turn, median of 10 sources x 5 solves, two passes; Kronecker 25 6 sources x 3, three passes),
// plain stream order / chained, triggered at the top / chained, at the blocks' exit, ms:
//   Kronecker 20 (the CLI's sources)  4.36-4.37 / 4.23-4.27 / 4.28-4.30
//   Kronecker 20 (sources with arcs)  5.17-5.18 / 5.06-5.10 / 5.10-5.11
//   soc-slashdot0902 (--driver steps) 0.999-1.000 / 0.964-0.966 / 0.966-0.967
//   Kronecker 25                      94.2-95.1 / 95.4-95.6 / 94.7-95.5
// In an earlier call of the same day Kronecker 25 was 94.8-95.3 in plain order against 96.7-97.4
// triggered at the top. The gain is on solves of many short steps (also Graph500 17 1.39 -> 1.34,
// the twelfth session's first measurement, triggered at the top); on Kronecker 25's 87 long steps
// it is within the runs' spread.
#pragma once

#include <cuda_runtime.h>

#include "sssp/gpu/cuda_check.cuh"

namespace deltasplit::sssp::gpu {

// The first statement of every kernel that launch_chained may launch.
__device__ __forceinline__ void await_predecessor() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Whether `kernel` runs code compiled for sm_90 or later (its PTX version): code JIT-compiled from
// older PTX has neither thread-block clusters nor griddepcontrol, whatever the device.
template <class Kernel>
bool compiled_for_sm90(Kernel kernel) {
  cudaFuncAttributes attributes{};
  DS_CUDA(cudaFuncGetAttributes(&attributes, kernel));
  return attributes.ptxVersion >= 90;
}

// The launch attribute that lets a kernel be launched before its predecessor completes.
inline cudaLaunchAttribute chained_attribute() {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  return attribute;
}

// Launches kernel<<<grid, block, 0, stream>>>(args...), with programmatic stream serialization when
// `chained` (the kernel must begin with await_predecessor; chained only where compiled_for_sm90).
template <class... Params, class... Args>
void launch_chained(void (*kernel)(Params...), unsigned grid, unsigned block, cudaStream_t stream, bool chained,
                    Args... args) {
  cudaLaunchAttribute attribute = chained_attribute();
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = chained ? 1 : 0;
  DS_CUDA(cudaLaunchKernelEx(&config, kernel, args...));
}

}  // namespace deltasplit::sssp::gpu
