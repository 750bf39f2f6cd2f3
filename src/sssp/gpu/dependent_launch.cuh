// Programmatic dependent launch (CUDA C++ Programming Guide, "Programmatic Dependent Launch and
// Synchronization"; sm_90 and later) for the step loop's chain of kernels (grid_step.cuh,
// cluster_driver.cuh). Each kernel of a step reads the counters its predecessor wrote, so in
// plain stream order each one is placed on the SMs only once the predecessor has drained: a few
// microseconds a kernel, a dozen kernels a step, most of them with little or nothing to do on a
// given step. Launched with programmatic stream serialization, a kernel's blocks are placed while
// its predecessor still runs and wait, at their first instruction, for the predecessor to complete
// and its memory to be visible (await_predecessor); then they let their own successor be placed.
// Nothing a kernel does precedes that wait, so every kernel still sees all that its predecessors
// wrote, as in stream order; only the placement overlaps. A kernel launched without the attribute
// (the managers' filing kernels, cub's) waits in plain stream order, and the wait of a kernel
// launched without a programmatic predecessor returns at once.
// Measured (H100 80GB HBM3, 2026-11-28, one binary with and without the attribute in alternation,
// step loop, near-far, median of 10 sources x 5 solves, two passes), plain / chained, ms:
// Kronecker 20 4.15-4.19 / 4.13, Graph500 scale 17 1.39-1.40 / 1.34, Graph500 scale 20 edge factor
// 32 5.35 / 5.30-5.33, soc-slashdot0902 0.95 / 0.91-0.92, cit-HepPh 1.53-1.54 / 1.51-1.52,
// USA-road-d.NY 5.00-5.03 / 4.99-5.01: 1-4% where a solve is many short steps. Kronecker 25 ran
// 1-2% slower with this and cluster_settle_limit together (bench/RESULTS.md, not separated).
// What it holds: a successor's blocks stay on the SMs while they wait, so while small_frontier runs
// (the cluster, for as long as frontiers stay small) relax_grid's blocks occupy the other SMs'
// thread slots, which work on other streams would otherwise get. Letting the cluster's successor be
// placed only at the cluster's end would free them; not measured yet.
#pragma once

#include <cuda_runtime.h>

#include "sssp/gpu/cuda_check.cuh"

namespace deltasplit::sssp::gpu {

// The first statement of every kernel that launch_chained may launch.
__device__ __forceinline__ void await_predecessor() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Whether launches may overlap the predecessor's drain: a device of compute capability 9.0 or
// later running code compiled for it (code built for an older architecture and JIT-compiled has no
// wait in its kernels), as `probe`, any kernel of the chain, says.
template <class Kernel>
bool chained_launch_available(Kernel probe) {
  int device = 0, major = 0;
  DS_CUDA(cudaGetDevice(&device));
  DS_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  cudaFuncAttributes attributes{};
  DS_CUDA(cudaFuncGetAttributes(&attributes, probe));
  return major >= 9 && attributes.ptxVersion >= 90 && attributes.binaryVersion >= 90;
}

// Launches kernel<<<grid, block, 0, stream>>>(args...), with programmatic stream serialization when
// `chained` (the kernel must begin with await_predecessor).
template <class... Params, class... Args>
void launch_chained(void (*kernel)(Params...), unsigned grid, unsigned block, cudaStream_t stream, bool chained,
                    Args... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = chained ? 1 : 0;
  DS_CUDA(cudaLaunchKernelEx(&config, kernel, args...));
}

}  // namespace deltasplit::sssp::gpu
