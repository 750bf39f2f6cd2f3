// The step loop driver (step_loop.cuh): the loop's work buffers, their regrowth, the light-arc
// split, the frontier managers, and one solve of delta_stepping.cuh per run. The one translation
// unit that compiles the loop's kernels.
//
// Rows are sorted by weight (device_csr.cuh), so light_end[] (the end of a vertex's light arcs)
// is computed on the device once per delta (a binary search per vertex) and kept while delta stays
// the same.
//
// Queue capacities: the frontier holds each vertex at most once (stamps), the other queues can hold
// a vertex once per bucket it drops into; they start at 2n + 1024 (or tuning::queue_capacity) and,
// should a solve overflow one (control::capacity_exceeded), double and the solve runs again, so no
// input is ever truncated; driver_outcome::queue_growths says how often that happened.
//
// The small-frontier kernel's attributes and cluster size are set up for the engine's device
// (small_frontier_blocks), not once per process.
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "sssp/gpu/step_loop/delta_stepping.cuh"
#include "sssp/gpu/engine_context.cuh"
#include "sssp/gpu/step_loop/frontier_manager.cuh"
#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/gpu/step_loop/step_loop.cuh"
#include "sssp/gpu/step_loop/window_filing.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_atomic_manager() {
  return std::make_unique<atomic_filing<Distance>>();
}
template std::unique_ptr<frontier_manager<std::uint32_t>> make_atomic_manager<std::uint32_t>();
template std::unique_ptr<frontier_manager<float>> make_atomic_manager<float>();
template std::unique_ptr<frontier_manager<double>> make_atomic_manager<double>();
template std::unique_ptr<frontier_manager<std::uint64_t>> make_atomic_manager<std::uint64_t>();
template void launch_file_segments<std::uint32_t>(const loop_view<std::uint32_t>&, const vertex_t*,
                                                  const std::uint32_t*, const launch_shape&, cudaStream_t);
template void launch_file_segments<float>(const loop_view<float>&, const vertex_t*, const std::uint32_t*,
                                          const launch_shape&, cudaStream_t);
template void launch_file_segments<double>(const loop_view<double>&, const vertex_t*, const std::uint32_t*,
                                           const launch_shape&, cudaStream_t);
template void launch_file_segments<std::uint64_t>(const loop_view<std::uint64_t>&, const vertex_t*,
                                                  const std::uint32_t*, const launch_shape&, cudaStream_t);

namespace {

// Small frontiers' light iterations: as tuning::light says; automatic is block by block below a
// mean out-degree of loop_tuning::block_light_below_degree (the measurements are there).
bool block_light_phase(sssp::light_phase mode, std::uint64_t vertices, std::uint64_t arcs) {
  if (mode != sssp::light_phase::automatic) return mode == sssp::light_phase::block;
  return static_cast<double>(arcs) < loop_tuning::block_light_below_degree * static_cast<double>(vertices);
}

// light_end[v] for every vertex, and the number of heavy arcs added to *heavy_arcs (the automatic
// heavy-arc rule's total).
template <class Weight>
__global__ void split_light_arcs(const edge_t* offsets, const Weight* weights, vertex_t n, Weight delta,
                                 edge_t* light_end, unsigned long long* heavy_arcs) {
  unsigned long long heavy = 0;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    edge_t lo = offsets[v], hi = offsets[v + 1];
    const edge_t end = hi;
    while (lo < hi) {  // first arc with weight >= delta
      edge_t mid = lo + (hi - lo) / 2;
      if (detail::light_arc(weights[mid], delta))
        lo = mid + 1;
      else
        hi = mid;
    }
    light_end[v] = lo;
    heavy += end - lo;
  }
  for (unsigned o = 16; o > 0; o >>= 1) heavy += __shfl_down_sync(0xFFFFFFFFu, heavy, o);
  if ((threadIdx.x & 31u) == 0 && heavy) atomicAdd(heavy_arcs, heavy);
}

// K, the window's buckets: tuning::buckets for the managers that keep a window (Bucketing,
// Multisplit-SSSP), one for the others.
std::uint32_t window_buckets(const options& opts) {
  const bool bucketed = opts.how == strategy::bucketing || opts.how == strategy::multisplit;
  return bucketed ? opts.tune.buckets : 1;
}

std::uint32_t chunk_capacity(std::uint32_t queue, edge_t m) { return capped(queue + m / loop_tuning::chunk_arcs + 1); }

template <class Distance>
class step_loop final : public step_loop_driver<Distance> {
  using weight = typename distance_ops<Distance>::weight;

 public:
  step_loop(const device_csr<Distance>& graph, const driver_context& ctx, const options& opts)
      : graph_(graph), ctx_(ctx), n_(graph.num_vertices()), m_(graph.num_arcs()) {
    shape_ = launch_shape{ctx.multiprocessors * loop_tuning::grid_blocks_per_sm, loop_tuning::grid_threads};
    chained_ = compiled_for_sm90(relax_grid<Distance>);
    host_words_ = static_cast<std::uint32_t*>(pinned_.get(3 * sizeof(std::uint32_t)));
    set_up_cluster(opts);
    const std::uint32_t one = std::max<std::uint32_t>(n_, 1);
    light_end_ = device_array<edge_t>(one, "the light-arc split");
    heavy_total_ = device_array<unsigned long long>(1, "the heavy-arc count");
    settled_tag_ = device_array<std::uint32_t>(one, "the settled tags");
    settled_ = device_array<vertex_t>(one, "the settled vertices");
    stamp_ = device_array<std::uint32_t>(n_, "the iteration stamps");
    filed_ = device_array<std::uint32_t>(n_, "the filed buckets");
    ctl_ = device_array<control>(1, "the loop control");
    // Every byte of the control is defined from its allocation on: the host reads it whole
    // (read_control), whichever fields the solve's steps wrote.
    DS_CUDA(cudaMemsetAsync(ctl_.get(), 0, sizeof(control), ctx_.stream));
    frontier_[0] = device_array<vertex_t>(one, "the frontier");
    frontier_[1] = device_array<vertex_t>(one, "the frontier");
    allocate_queues(opts.tune.queue_capacity ? opts.tune.queue_capacity : initial_queue_capacity(n_), 1);
    DS_CUDA(cudaStreamSynchronize(ctx_.stream));
  }

  void configure(const options& opts) override {
    if (window_buckets(opts) == 0 || window_buckets(opts) > max_window_buckets)
      throw std::invalid_argument("the number of buckets must be between 1 and " + std::to_string(max_window_buckets) +
                                  "; got " + std::to_string(window_buckets(opts)));
    set_up_cluster(opts);
  }

  // The step loop's multiple of the automatic width: loop_tuning::step_delta_scale on dense graphs.
  double auto_delta_scale() const override {
    return loop_tuning::step_delta_scale(graph_.statistics().mean_degree, n_);
  }

  driver_outcome solve(const solve_request<Distance>& request) override {
    const options& opts = request.opts;
    const std::uint32_t K = window_buckets(opts);
    frontier_manager<Distance>& manager = manager_for_strategy(opts.how);
    if (K > queued_buckets_) allocate_queues(queue_capacity_, K);
    split_at(request.bucket.delta);
    const bool block_light = block_light_phase(opts.tune.light, n_, m_);
    const heavy_mode heavy = heavy_mode_of(opts.tune.heavy);
    loop_outcome out;
    std::uint32_t growths = 0;
    while (true) {
      solve_context<Distance> ctx = context(request, K, block_light, heavy);
      manager.prepare(ctx.view);
      out = gpu::solve(ctx, manager, request.source, opts.phase_times);
      if (!out.final.capacity_exceeded) break;
      // Doubling from any start reaches 2^31 entries in at most 31 rounds.
      if (queue_capacity_ >= 0x7FFFFFF0u) throw std::runtime_error("GPU delta-stepping: work queues exceed 2^31 entries");
      allocate_queues(capped(std::uint64_t{queue_capacity_} * 2), std::max(K, queued_buckets_));
      ++growths;
    }
    driver_outcome o;
    o.milliseconds = out.milliseconds;
    o.relax_ms = out.relax_ms;
    o.frontier_ms = out.frontier_ms;
    o.overflowed = out.final.overflowed;
    o.iterations = out.final.iteration;
    o.edges_relaxed = out.final.edges_relaxed;
    o.vertices_processed = out.final.vertices_processed;
    o.max_queue = out.final.max_frontier;
    o.queue_growths = growths;
    o.cluster_blocks = cluster_blocks_;
    o.block_light_phase = block_light && cluster_blocks_ >= loop_tuning::local_min_blocks;
    o.heavy_pulls = out.final.heavy_pulls;
    o.description = "steps";
    return o;
  }

 private:
  // The small-frontier cluster on the engine's device, for the size options asks for (checked
  // once per size). The block-by-block light phase needs local_min_blocks blocks.
  void set_up_cluster(const options& opts) {
    if (!cluster_set_up_ || opts.tune.cluster_blocks != requested_blocks_) {
      cluster_blocks_ = small_frontier_blocks<Distance>(opts.tune.cluster_blocks);
      requested_blocks_ = opts.tune.cluster_blocks;
      cluster_set_up_ = true;
    }
    if (opts.tune.light == sssp::light_phase::block && cluster_blocks_ < loop_tuning::local_min_blocks)
      throw std::runtime_error("the block-by-block light phase needs a small-frontier cluster of at least " +
                               std::to_string(loop_tuning::local_min_blocks) + " blocks; this one has " +
                               std::to_string(cluster_blocks_));
  }

  void allocate_queues(std::uint32_t queue, std::uint32_t K) {
    to_file_ = {};
    far_pile_ = {};
    bucket_queues_ = {};
    chunks_ = {};
    reserve(std::size_t{queue} * 4 * (2 + K) + std::size_t{chunk_capacity(queue, m_)} * sizeof(uint2),
            "the solver's work queues");
    to_file_ = device_array<vertex_t>(queue, "the queue to file");
    far_pile_ = device_array<vertex_t>(queue, "the far pile");
    bucket_queues_ = device_array<vertex_t>(std::size_t{queue} * K, "the window's buckets");
    chunks_ = device_array<uint2>(chunk_capacity(queue, m_), "the chunks of large vertices");
    queue_capacity_ = queue;
    queued_buckets_ = K;
    ++generation_;
  }

  void split_at(weight delta) {
    if (light_split_valid_ && light_split_delta_ == delta) return;
    unsigned blocks = std::min<unsigned>(shape_.blocks, (n_ + 255) / 256 + 1);
    unsigned long long total = 0;
    DS_CUDA(cudaMemsetAsync(heavy_total_.get(), 0, sizeof(unsigned long long), ctx_.stream));
    split_light_arcs<<<blocks, 256, 0, ctx_.stream>>>(graph_.offsets(), graph_.weights(), n_, delta, light_end_.get(),
                                                      heavy_total_.get());
    DS_CUDA_LAUNCH("split_light_arcs");
    DS_CUDA(cudaMemcpyAsync(&total, heavy_total_.get(), sizeof total, cudaMemcpyDeviceToHost, ctx_.stream));
    DS_CUDA(cudaStreamSynchronize(ctx_.stream));
    heavy_arcs_ = total;
    light_split_valid_ = true;
    light_split_delta_ = delta;
  }

  // The settle pass's mode (frontier_state.cuh): push on a graph not marked undirected.
  heavy_mode heavy_mode_of(heavy_relaxation h) const {
    if (!graph_.symmetric() || h == heavy_relaxation::push) return heavy_push;
    return h == heavy_relaxation::pull ? heavy_pull : heavy_automatic;
  }

  solve_context<Distance> context(const solve_request<Distance>& request, std::uint32_t K, bool block_light,
                                  heavy_mode heavy) {
    loop_view<Distance> v{};
    v.offsets = graph_.offsets();
    v.targets = graph_.targets();
    v.weights = graph_.weights();
    v.dist = request.dist;
    v.stamp = stamp_.get();
    v.filed = filed_.get();
    v.ctl = ctl_.get();
    v.frontier[0] = frontier_[0].get();
    v.frontier[1] = frontier_[1].get();
    v.to_file = to_file_.get();
    v.far_pile = far_pile_.get();
    v.bucket_queues = bucket_queues_.get();
    v.chunks = chunks_.get();
    v.light_end = light_end_.get();
    v.settled_tag = settled_tag_.get();
    v.settled = settled_.get();
    v.num_vertices = n_;
    v.frontier_capacity = std::max<std::uint32_t>(n_, 1);
    v.queue_capacity = queue_capacity_;
    v.chunk_capacity = chunk_capacity(queue_capacity_, m_);
    v.window_buckets = K;
    v.block_light = block_light ? 1u : 0u;
    v.cluster_settle_limit = loop_tuning::cluster_settle_limit(graph_.statistics().mean_degree);
    v.bucket = request.bucket;
    v.last_bucket = request.last_bucket;
    v.heavy_mode = heavy;
    v.heavy_arcs = heavy_arcs_;
    solve_context<Distance> ctx{};
    ctx.view = v;
    ctx.stream = ctx_.stream;
    ctx.shape = shape_;
    ctx.cluster_blocks = cluster_blocks_;
    ctx.chained = chained_;
    ctx.graph = &graph_exec_;
    double delta_bits = static_cast<double>(request.bucket.delta);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &delta_bits, sizeof bits);
    ctx.graph_key = std::string(strategy_name(request.opts.how)) + "/" + std::to_string(K) + "/" +
                    std::to_string(bits) + "/" + std::to_string(generation_) + "/" + std::to_string(cluster_blocks_) +
                    "/" + std::to_string(v.block_light) + "/" + std::to_string(request.last_bucket) + "/" +
                    std::to_string(heavy) + "/" + std::to_string(reinterpret_cast<std::uintptr_t>(request.dist));
    ctx.done_flags = host_words_;
    ctx.flag_ready[0] = flag_ready_[0];
    ctx.flag_ready[1] = flag_ready_[1];
    ctx.start = ctx_.start;
    ctx.stop = ctx_.stop;
    ctx.max_steps = 8 * (std::uint64_t{n_} + m_) + 10000;
    return ctx;
  }

  frontier_manager<Distance>& manager_for_strategy(strategy how) {
    switch (how) {
      case strategy::near_far:
      case strategy::workfront:
        if (!atomic_) atomic_ = make_atomic_manager<Distance>();
        return *atomic_;
      case strategy::bucketing:
        if (!bucketing_) bucketing_ = make_bucketing_manager<Distance>();
        return *bucketing_;
      case strategy::multisplit:
        if (!multisplit_) multisplit_ = make_multisplit_manager<Distance>();
        return *multisplit_;
      default:
        throw std::invalid_argument(std::string("strategy '") + strategy_name(how) + "' does not run on the GPU");
    }
  }

  const device_csr<Distance>& graph_;
  driver_context ctx_;
  std::uint32_t n_;
  edge_t m_;
  std::uint32_t cluster_blocks_ = 1, requested_blocks_ = 0;  // see configure
  bool chained_ = false;  // the step's kernels launched by launch_chained: code for sm_90 (dependent_launch.cuh)
  bool cluster_set_up_ = false;
  launch_shape shape_{};
  cuda_event flag_ready_[2] = {cuda_event(cudaEventDisableTiming), cuda_event(cudaEventDisableTiming)};
  pinned_buffer pinned_;
  std::uint32_t* host_words_ = nullptr;  // two done flags, the sweep flag
  device_array<std::uint32_t> stamp_, filed_;
  device_array<control> ctl_;
  device_array<vertex_t> frontier_[2];
  device_array<vertex_t> to_file_, far_pile_, bucket_queues_;
  device_array<uint2> chunks_;
  device_array<edge_t> light_end_;
  device_array<unsigned long long> heavy_total_;  // split_light_arcs' count
  unsigned long long heavy_arcs_ = 0;             // heavy arcs at light_split_delta_
  device_array<std::uint32_t> settled_tag_;
  device_array<vertex_t> settled_;
  bool light_split_valid_ = false;
  weight light_split_delta_{};
  std::uint32_t queue_capacity_ = 0, queued_buckets_ = 0;
  std::uint64_t generation_ = 0;
  step_graph graph_exec_;
  std::unique_ptr<frontier_manager<Distance>> atomic_, bucketing_, multisplit_;
};

}  // namespace

std::size_t step_loop_bytes(vertex_t n, edge_t m, std::uint32_t queue, std::uint32_t K, std::size_t distance_bytes) {
  if (queue == 0) queue = initial_queue_capacity(n);
  return std::size_t{n} * (distance_bytes + 7 * 4 + sizeof(edge_t)) + std::size_t{queue} * 4 * (3 + K) +
         std::size_t{chunk_capacity(queue, m)} * sizeof(uint2) + (1u << 20);
}

template <class Distance>
std::unique_ptr<step_loop_driver<Distance>> make_step_loop(const device_csr<Distance>& graph, const driver_context& ctx,
                                                           const options& opts) {
  return std::make_unique<step_loop<Distance>>(graph, ctx, opts);
}

template std::unique_ptr<step_loop_driver<std::uint32_t>> make_step_loop(const device_csr<std::uint32_t>&,
                                                                         const driver_context&, const options&);
template std::unique_ptr<step_loop_driver<float>> make_step_loop(const device_csr<float>&, const driver_context&,
                                                                 const options&);
template std::unique_ptr<step_loop_driver<double>> make_step_loop(const device_csr<double>&, const driver_context&,
                                                                  const options&);
template std::unique_ptr<step_loop_driver<std::uint64_t>> make_step_loop(const device_csr<std::uint64_t>&,
                                                                         const driver_context&, const options&);

}  // namespace deltasplit::sssp::gpu
