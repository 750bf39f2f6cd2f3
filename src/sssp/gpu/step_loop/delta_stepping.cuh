// The delta-stepping loop on the GPU, host side (Meyer and Sanders, J. Algorithms 2003; Davidson
// et al., IPDPS 2014; seed 000, Section 7.2): one loop for every frontier manager, which decides
// only how vertices are filed into buckets (frontier_manager.cuh). Compiled in engine.cu alone, so
// the loop's kernels are compiled once.
//
// Control stays on the device: a step (grid_step.cuh, cluster_driver.cuh) reads every size from
// device counters, so the host queues steps without reading anything back. Device-sized managers
// (Near-Far, Multisplit-SSSP, workfront) capture loop_tuning::steps_per_graph steps once into a
// CUDA graph and replay it; the host looks at the `done` flag of the previous replay while the
// next one runs, so the GPU never waits on the host and at most two replays of no-op steps run
// past convergence. On sm_90 and later the step's own kernels are launched chained (programmatic
// dependent launch, dependent_launch.cuh): each is launched once its predecessor's blocks have
// exited and waits for the predecessor's completion at its first instruction. The sort-based
// Bucketing manager needs the item count on the host for cub::DeviceRadixSort and reads it once
// per step (the cost of that baseline, as in Davidson et al.).
//
// Timing: cudaEvents around the solve (initialisation included, graph upload excluded). With
// options::phase_times, a second pass (phase_timed_solve) launches the same steps one by one with
// events between the managing half (the manager's filing, far_pile_min, plan, gather: frontier_ms)
// and the relaxing half (small_frontier, relax_grid, relax_chunks, end_step, the settle kernels and
// close_step: relax_ms; the filing of improved vertices into the next frontier, to_file and the far
// pile is fused into relaxation). The timed pass carries no instrumentation.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "sssp/gpu/step_loop/cluster_driver.cuh"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/step_loop/dependent_launch.cuh"
#include "sssp/gpu/step_loop/frontier_manager.cuh"
#include "sssp/gpu/step_loop/grid_step.cuh"
#include "sssp/gpu/step_loop/tuning.cuh"

namespace deltasplit::sssp::gpu {

// A captured batch of steps, reused while the key (manager, buffers, delta, K, modes) stays the same.
struct step_graph {
  cudaGraphExec_t exec = nullptr;
  std::string key;
  void reset() {
    if (exec) cudaGraphExecDestroy(exec);
    exec = nullptr;
    key.clear();
  }
  ~step_graph() { reset(); }
};

// What the engine lends one solve.
template <class Distance>
struct solve_context {
  loop_view<Distance> view;
  cudaStream_t stream;
  launch_shape shape;
  std::uint32_t cluster_blocks;     // of small_frontier (small_frontier_blocks)
  bool chained;                     // the step's kernels launched by launch_chained (dependent_launch.cuh)
  step_graph* graph;
  std::string graph_key;            // identifies the view, modes and manager the graph was captured for
  std::uint32_t* done_flags;        // pinned host memory, 2 entries
  cudaEvent_t flag_ready[2];
  cudaEvent_t start, stop;
  std::uint64_t max_steps;          // a bound no correct solve reaches: past it, stop and report
};

struct loop_outcome {
  double milliseconds = 0;
  double relax_ms = 0;
  double frontier_ms = 0;
  control final{};
};

// small_frontier as one cluster of `blocks` blocks (one per SM of a GPC), or one plain block;
// chained: with programmatic stream serialization (dependent_launch.cuh).
inline cudaLaunchConfig_t small_frontier_launch(cudaStream_t stream, std::uint32_t blocks, bool chained,
                                                cudaLaunchAttribute (&attributes)[2]) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(loop_tuning::small_frontier_threads);
  config.dynamicSmemBytes = small_frontier_shared_bytes;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = 0;
  if (blocks > 1) {
    cudaLaunchAttribute& cluster = attributes[config.numAttrs++];
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = blocks;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
  }
  if (chained) attributes[config.numAttrs++] = chained_attribute();
  return config;
}

// Prepares small_frontier on the current device and returns the blocks of its cluster. Function
// attributes and occupancy belong to a device, so the engine calls this for its own device (once
// per engine and requested size, before any stream capture). requested: 0 for automatic, or 16, 8
// or 1. Automatic is one block where the kernel was compiled for a GPU older than sm_90 (its PTX
// version: no clusters), else 16 where the device can place a cluster of 16 (a non-portable size;
// cudaOccupancyMaxActiveClusters), else the portable 8 (loop_tuning has the measurements). A
// requested size the build or the device cannot run is a std::runtime_error.
template <class Distance>
std::uint32_t small_frontier_blocks(std::uint32_t requested) {
  DS_CUDA(cudaFuncSetAttribute(small_frontier<Distance>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(small_frontier_shared_bytes)));
  if (!compiled_for_sm90(small_frontier<Distance>)) {
    if (requested > 1)
      throw std::runtime_error("a small-frontier cluster of " + std::to_string(requested) +
                               " blocks needs code for sm_90 or later; this build runs one block");
    return 1;
  }
  if (requested == 1 || requested == loop_tuning::portable_cluster_blocks) return requested;
  DS_CUDA(cudaFuncSetAttribute(small_frontier<Distance>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchAttribute launch_attributes[2]{};
  const cudaLaunchConfig_t config =
      small_frontier_launch(nullptr, loop_tuning::wide_cluster_blocks, false, launch_attributes);
  int clusters = 0;
  const cudaError_t err = cudaOccupancyMaxActiveClusters(&clusters, small_frontier<Distance>, &config);
  if (err != cudaSuccess) cudaGetLastError();  // not placeable: an answer, not a failure
  const bool wide = err == cudaSuccess && clusters >= 1;
  if (requested == loop_tuning::wide_cluster_blocks && !wide)
    throw std::runtime_error("this GPU cannot place a small-frontier cluster of " +
                             std::to_string(loop_tuning::wide_cluster_blocks) + " blocks");
  return wide ? loop_tuning::wide_cluster_blocks : loop_tuning::portable_cluster_blocks;
}

// The managing half of a step: the manager files to_file, then the next bucket is picked and
// gathered (grid_step.cuh).
template <class Distance>
void enqueue_managing(const solve_context<Distance>& ctx, frontier_manager<Distance>& manager) {
  const loop_view<Distance>& s = ctx.view;
  const launch_shape& shape = ctx.shape;
  manager.file(s, shape, ctx.stream);
  launch_chained(far_pile_min<Distance>, shape.blocks, shape.threads, ctx.stream, ctx.chained, s);
  launch_chained(plan<Distance>, 1, 1, ctx.stream, ctx.chained, s);
  launch_chained(gather<Distance>, shape.blocks, shape.threads, ctx.stream, ctx.chained, s);
}

// The relaxing half: the cluster takes a small frontier, the grid kernels a large one.
template <class Distance>
void enqueue_relaxing(const solve_context<Distance>& ctx) {
  const loop_view<Distance>& s = ctx.view;
  const launch_shape& shape = ctx.shape;
  cudaStream_t stream = ctx.stream;
  const bool chained = ctx.chained;
  cudaLaunchAttribute attributes[2]{};
  const cudaLaunchConfig_t config = small_frontier_launch(stream, ctx.cluster_blocks, chained, attributes);
  DS_CUDA(cudaLaunchKernelEx(&config, small_frontier<Distance>, s));
  launch_chained(relax_grid<Distance>, shape.blocks, shape.threads, stream, chained, s);
  launch_chained(relax_chunks<Distance>, shape.blocks, shape.threads, stream, chained, s);
  launch_chained(end_step<Distance>, 1, 1, stream, chained, s);
  launch_chained(settle_grid<Distance>, shape.blocks, shape.threads, stream, chained, s);
  launch_chained(settle_chunks<Distance>, shape.blocks, shape.threads, stream, chained, s);
  launch_chained(close_step<Distance>, 1, 1, stream, chained, s);
}

template <class Distance>
void enqueue_step(const solve_context<Distance>& ctx, frontier_manager<Distance>& manager) {
  enqueue_managing(ctx, manager);
  enqueue_relaxing(ctx);
}

// The errors by which stream capture or graph instantiation says that it cannot take these calls;
// the loop then queues the steps directly. Any other error is a real failure and propagates.
inline bool capture_refused(cudaError_t err) {
  switch (err) {
    case cudaErrorStreamCaptureUnsupported:
    case cudaErrorStreamCaptureInvalidated:
    case cudaErrorStreamCaptureMerge:
    case cudaErrorStreamCaptureUnmatched:
    case cudaErrorStreamCaptureUnjoined:
    case cudaErrorStreamCaptureIsolation:
    case cudaErrorStreamCaptureImplicit:
    case cudaErrorStreamCaptureWrongThread:
    case cudaErrorCapturedEvent:
    case cudaErrorNotSupported:
      return true;
    default:
      return false;
  }
}

// Ends a capture that is being abandoned, dropping whatever it recorded.
inline void abandon_capture(cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  cudaStreamEndCapture(stream, &graph);
  if (graph) cudaGraphDestroy(graph);
  cudaGetLastError();
}

// Captures steps_per_graph steps into ctx.graph unless it already holds them. False when capture
// refuses the manager's calls (capture_refused); the loop then queues steps directly.
template <class Distance>
bool capture_steps(solve_context<Distance>& ctx, frontier_manager<Distance>& manager) {
  if (ctx.graph->exec && ctx.graph->key == ctx.graph_key) return true;
  ctx.graph->reset();
  DS_CUDA(cudaStreamBeginCapture(ctx.stream, cudaStreamCaptureModeThreadLocal));
  try {
    for (unsigned i = 0; i < loop_tuning::steps_per_graph; ++i) enqueue_step(ctx, manager);
  } catch (const cuda_error& e) {
    abandon_capture(ctx.stream);
    if (capture_refused(e.code())) return false;
    throw;
  } catch (...) {
    abandon_capture(ctx.stream);
    throw;
  }
  cudaGraph_t graph = nullptr;
  cudaError_t err = cudaStreamEndCapture(ctx.stream, &graph);
  if (err == cudaSuccess) {
    err = cudaGraphInstantiate(&ctx.graph->exec, graph, 0);
    if (err != cudaSuccess) ctx.graph->exec = nullptr;
  }
  if (graph) cudaGraphDestroy(graph);
  if (err != cudaSuccess) {
    if (!capture_refused(err)) DS_CUDA(err);  // throws
    cudaGetLastError();
    return false;
  }
  ctx.graph->key = ctx.graph_key;
  return true;
}

template <class Distance>
void launch_init(const solve_context<Distance>& ctx, vertex_t source) {
  unsigned blocks = (ctx.view.num_vertices + 255) / 256;
  if (blocks > ctx.shape.blocks) blocks = ctx.shape.blocks;
  if (blocks == 0) blocks = 1;
  init_solve<<<blocks, 256, 0, ctx.stream>>>(ctx.view, source);
  DS_CUDA_LAUNCH("init_solve");
}

inline control read_control(const control* ctl, cudaStream_t stream) {
  control c{};
  DS_CUDA(cudaMemcpyAsync(&c, ctl, sizeof c, cudaMemcpyDeviceToHost, stream));
  DS_CUDA(cudaStreamSynchronize(stream));
  return c;
}

[[noreturn]] inline void no_convergence(std::uint64_t steps) {
  throw std::runtime_error("GPU delta-stepping did not converge within " + std::to_string(steps) +
                           " steps (internal error)");
}

// The timed solve.
template <class Distance>
loop_outcome timed_solve(solve_context<Distance>& ctx, frontier_manager<Distance>& manager, vertex_t source) {
  const bool graphs = manager.device_sized() && capture_steps(ctx, manager);
  const std::uint64_t per_batch = graphs ? loop_tuning::steps_per_graph : 1;
  DS_CUDA(cudaEventRecord(ctx.start, ctx.stream));
  launch_init(ctx, source);
  for (std::uint64_t batch = 0;; ++batch) {
    if (graphs)
      DS_CUDA(cudaGraphLaunch(ctx.graph->exec, ctx.stream));
    else
      enqueue_step(ctx, manager);
    const unsigned slot = batch & 1u;
    DS_CUDA(cudaMemcpyAsync(&ctx.done_flags[slot], &ctx.view.ctl->done, sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                            ctx.stream));
    DS_CUDA(cudaEventRecord(ctx.flag_ready[slot], ctx.stream));
    if (batch > 0) {
      DS_CUDA(cudaEventSynchronize(ctx.flag_ready[slot ^ 1u]));
      if (ctx.done_flags[slot ^ 1u]) break;
    }
    if (batch * per_batch > ctx.max_steps) no_convergence(batch * per_batch);
  }
  DS_CUDA(cudaEventRecord(ctx.stop, ctx.stream));
  DS_CUDA(cudaEventSynchronize(ctx.stop));
  loop_outcome out;
  float ms = 0;
  DS_CUDA(cudaEventElapsedTime(&ms, ctx.start, ctx.stop));
  out.milliseconds = ms;
  out.final = read_control(ctx.view.ctl, ctx.stream);
  return out;
}

// The instrumented pass of options::phase_times: the same steps, one by one, with events around
// the two halves, adding to out's relax_ms and frontier_ms.
template <class Distance>
void phase_timed_solve(solve_context<Distance>& ctx, frontier_manager<Distance>& manager, vertex_t source,
                       loop_outcome& out) {
  constexpr unsigned batch = 32;
  std::vector<cudaEvent_t> events(3 * batch);
  for (auto& e : events) DS_CUDA(cudaEventCreate(&e));
  struct destroy {
    std::vector<cudaEvent_t>& ev;
    ~destroy() {
      for (auto e : ev) cudaEventDestroy(e);
    }
  } guard{events};
  launch_init(ctx, source);
  double relax = 0, frontier = 0;
  for (std::uint64_t steps = 0;; steps += batch) {
    for (unsigned i = 0; i < batch; ++i) {
      DS_CUDA(cudaEventRecord(events[3 * i], ctx.stream));
      enqueue_managing(ctx, manager);
      DS_CUDA(cudaEventRecord(events[3 * i + 1], ctx.stream));
      enqueue_relaxing(ctx);
      DS_CUDA(cudaEventRecord(events[3 * i + 2], ctx.stream));
    }
    DS_CUDA(cudaMemcpyAsync(&ctx.done_flags[0], &ctx.view.ctl->done, sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                            ctx.stream));
    DS_CUDA(cudaStreamSynchronize(ctx.stream));
    for (unsigned i = 0; i < batch; ++i) {
      float a = 0, b = 0;
      DS_CUDA(cudaEventElapsedTime(&a, events[3 * i], events[3 * i + 1]));
      DS_CUDA(cudaEventElapsedTime(&b, events[3 * i + 1], events[3 * i + 2]));
      frontier += a;
      relax += b;
    }
    if (ctx.done_flags[0]) break;
    if (steps > ctx.max_steps) no_convergence(steps);
  }
  out.relax_ms = relax;
  out.frontier_ms = frontier;
}

// One solve from source: the timed pass, then the instrumented one when phase times are asked
// for (and the timed pass did not overflow a queue: the engine grows it and solves again).
template <class Distance>
loop_outcome solve(solve_context<Distance>& ctx, frontier_manager<Distance>& manager, vertex_t source,
                   bool phase_times) {
  loop_outcome out = timed_solve(ctx, manager, source);
  if (phase_times && !out.final.capacity_exceeded) phase_timed_solve(ctx, manager, source, out);
  return out;
}

}  // namespace deltasplit::sssp::gpu
