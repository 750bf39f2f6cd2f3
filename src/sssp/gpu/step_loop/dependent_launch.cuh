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
// of every kernel placed each successor's blocks on the SMs while the predecessor ran, where they
// held thread slots that other streams' work would get, and it bought nothing over the trigger
// implied by the blocks' exit. Chaining gains on solves of many short steps and is within the
// runs' spread on long ones (bench/results/loop_tuning.md, "Programmatic dependent launch").
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
