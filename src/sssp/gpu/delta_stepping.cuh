// The delta-stepping loop on the GPU (Meyer and Sanders; Davidson et al. 2014; seed 000,
// Section 7.2): one loop for every frontier manager, which is its template parameter (Filing) and
// decides only how vertices are filed into buckets.
//
// Control stays on the device: a step (step_kernels.cuh) reads every size from device counters,
// so the host queues steps without reading anything back. Device-sized managers (Near-Far,
// Multisplit-SSSP, workfront) capture `steps_per_graph` steps once into a CUDA graph and replay it;
// the host looks at the `done` flag of the previous replay while the next one runs, so the GPU
// never waits on the host and at most two replays of no-op steps run past convergence. The sort-
// based Bucketing manager needs the item count on the host for cub::DeviceRadixSort and reads it
// once per step (the cost of that baseline, as in Davidson et al.).
//
// Timing: cudaEvents around the solve (initialisation included, graph upload excluded). Time in
// relaxation versus frontier management comes from a second, instrumented pass that launches the
// same steps one by one with events between the two halves of each step; the timed pass carries no
// instrumentation. relax_ms covers small_frontier, relax_grid, relax_chunks, end_step, the settle
// kernels and close_step (the filing of improved vertices into next frontier / to_file / far pile
// is fused into relaxation);
// frontier_ms covers the manager's filing, far_pile_min, plan and gather.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/window_filing.cuh"

namespace deltasplit::sssp::gpu {

// Short replays: up to two replays of no-op steps (a dozen launches each) run past convergence,
// and with the cluster-resident loop a road solve takes only a few steps; four steps of a few
// launches each still keep the GPU ahead of the host's replay calls.
inline constexpr unsigned steps_per_graph = 4;

// A captured batch of steps, reused while the key (manager, buffers, delta, K) stays the same.
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
  step_graph* graph;
  std::string graph_key;            // identifies the view and manager the graph was captured for
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

// small_frontier as one cluster of `blocks` blocks (one per SM of a GPC), or one plain block.
inline cudaLaunchConfig_t small_frontier_launch(cudaStream_t stream, std::uint32_t blocks,
                                                cudaLaunchAttribute& cluster) {
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = blocks;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(small_frontier_threads);
  config.dynamicSmemBytes = small_frontier_shared_bytes;
  config.stream = stream;
  config.attrs = &cluster;
  config.numAttrs = blocks > 1 ? 1 : 0;
  return config;
}

// Blocks of the small-frontier group (frontier_cluster.cuh): one block when the kernel was compiled
// for a GPU older than sm_90 (its PTX version); otherwise a cluster of 16 blocks, a non-portable
// size, where the GPU can place one (cudaOccupancyMaxActiveClusters), else the portable 8. On the
// H200 16 blocks took road-FLA from 11.1 to 9.9 ms, USA-road-d.NY from 5.75 to 5.63 ms and
// soc-slashdot0902 from 1.06 to 0.98 ms (near-far, same run). DELTASPLIT_CLUSTER_BLOCKS=8 forces 8.
// Called after the kernel's attributes are set (allow_small_frontier_queues).
template <class Distance>
bool small_frontier_has_clusters() {
  cudaFuncAttributes attributes{};
  DS_CUDA(cudaFuncGetAttributes(&attributes, small_frontier<Distance>));
  return attributes.ptxVersion >= 90;
}

template <class Distance>
std::uint32_t small_frontier_blocks() {
  static const std::uint32_t blocks = [] {
    if (!small_frontier_has_clusters<Distance>()) return 1u;
    const char* e = std::getenv("DELTASPLIT_CLUSTER_BLOCKS");
    if (e && std::atoi(e) == 8) return small_frontier_cluster;
    constexpr std::uint32_t wide = 2 * small_frontier_cluster;
    cudaLaunchAttribute cluster{};
    const cudaLaunchConfig_t config = small_frontier_launch(nullptr, wide, cluster);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, small_frontier<Distance>, &config) != cudaSuccess) {
      cudaGetLastError();  // not placeable: clear the error, take the portable size
      return small_frontier_cluster;
    }
    return clusters >= 1 ? wide : small_frontier_cluster;
  }();
  return blocks;
}

template <class Distance, class Filing>
void enqueue_step(const solve_context<Distance>& ctx, Filing& filing, cudaEvent_t between = nullptr) {
  const loop_view<Distance>& s = ctx.view;
  const launch_shape& shape = ctx.shape;
  cudaStream_t stream = ctx.stream;
  filing.file(s, shape, stream);
  far_pile_min<<<shape.blocks, shape.threads, 0, stream>>>(s);
  plan<<<1, 1, 0, stream>>>(s);
  gather<<<shape.blocks, shape.threads, 0, stream>>>(s);
  if (between) DS_CUDA(cudaEventRecord(between, stream));
  cudaLaunchAttribute cluster{};
  const cudaLaunchConfig_t config = small_frontier_launch(stream, small_frontier_blocks<Distance>(), cluster);
  DS_CUDA(cudaLaunchKernelEx(&config, small_frontier<Distance>, s));
  relax_grid<<<shape.blocks, shape.threads, 0, stream>>>(s);
  relax_chunks<<<shape.blocks, shape.threads, 0, stream>>>(s);
  end_step<<<1, 1, 0, stream>>>(s);
  settle_grid<<<shape.blocks, shape.threads, 0, stream>>>(s);
  settle_chunks<<<shape.blocks, shape.threads, 0, stream>>>(s);
  close_step<<<1, 1, 0, stream>>>(s);
  DS_CUDA_LAUNCH("delta-stepping step");
}

// small_frontier keeps its queues in more dynamic shared memory than a launch gets by default.
// nvcc gives each translation unit its own (internal) host stub of a kernel template, and the
// attribute belongs to the stub the call names; every frontier manager instantiates the loop in
// its own translation unit, so this function is a template on Filing too: an instantiation per
// unit, each naming that unit's kernel (a template on Distance alone would be merged by the linker
// and configure one unit's kernel only).
template <class Distance, class Filing>
void allow_small_frontier_queues() {
  DS_CUDA(cudaFuncSetAttribute(small_frontier<Distance>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(small_frontier_shared_bytes)));
  if (small_frontier_has_clusters<Distance>())
    DS_CUDA(cudaFuncSetAttribute(small_frontier<Distance>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  small_frontier_blocks<Distance>();  // learnt here, before any stream capture of the steps
}

// Captures steps_per_graph steps into ctx.graph unless it already holds them. False when the
// manager's calls cannot be captured; the loop then queues steps directly.
template <class Distance, class Filing>
bool capture_steps(solve_context<Distance>& ctx, Filing& filing) {
  if (ctx.graph->exec && ctx.graph->key == ctx.graph_key) return true;
  ctx.graph->reset();
  DS_CUDA(cudaStreamBeginCapture(ctx.stream, cudaStreamCaptureModeThreadLocal));
  bool queued = true;
  try {
    for (unsigned i = 0; i < steps_per_graph; ++i) enqueue_step(ctx, filing);
  } catch (const std::runtime_error&) {
    queued = false;
  }
  cudaGraph_t graph = nullptr;
  cudaError_t err = cudaStreamEndCapture(ctx.stream, &graph);
  if (!queued || err != cudaSuccess) {
    cudaGetLastError();
    if (graph) cudaGraphDestroy(graph);
    return false;
  }
  err = cudaGraphInstantiate(&ctx.graph->exec, graph, 0);
  cudaGraphDestroy(graph);
  if (err != cudaSuccess) {
    cudaGetLastError();
    ctx.graph->exec = nullptr;
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
template <class Distance, class Filing>
loop_outcome timed_solve(solve_context<Distance>& ctx, Filing& filing, vertex_t source) {
  allow_small_frontier_queues<Distance, Filing>();
  const bool graphs = Filing::device_sized && capture_steps(ctx, filing);
  const std::uint64_t per_batch = graphs ? steps_per_graph : 1;
  DS_CUDA(cudaEventRecord(ctx.start, ctx.stream));
  launch_init(ctx, source);
  for (std::uint64_t batch = 0;; ++batch) {
    if (graphs)
      DS_CUDA(cudaGraphLaunch(ctx.graph->exec, ctx.stream));
    else
      enqueue_step(ctx, filing);
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

// The instrumented pass: the same steps, one by one, with events around the two halves.
template <class Distance, class Filing>
void phase_times(solve_context<Distance>& ctx, Filing& filing, vertex_t source, loop_outcome& out) {
  allow_small_frontier_queues<Distance, Filing>();
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
      enqueue_step(ctx, filing, events[3 * i + 1]);
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

// A frontier manager as the engine holds it: the loop instantiated for one kind of filing.
template <class Distance>
class frontier_manager {
 public:
  virtual ~frontier_manager() = default;
  // Sizes the manager's temporary storage for the view's capacities and K.
  virtual void prepare(const loop_view<Distance>& view) = 0;
  virtual loop_outcome solve(solve_context<Distance>& ctx, vertex_t source, bool with_phase_times) = 0;
};

template <class Distance, class Filing>
class manager_for final : public frontier_manager<Distance> {
 public:
  void prepare(const loop_view<Distance>& view) override { filing_.prepare(view); }
  loop_outcome solve(solve_context<Distance>& ctx, vertex_t source, bool with_phase_times) override {
    loop_outcome out = timed_solve(ctx, filing_, source);
    if (with_phase_times && !out.final.capacity_exceeded) phase_times(ctx, filing_, source, out);
    return out;
  }

 private:
  Filing filing_;
};

}  // namespace deltasplit::sssp::gpu
