// The GPU engine behind sssp::solver (the seam in sssp/gpu_engine.hpp): it uploads one graph,
// allocates the loop's work buffers once, and answers any number of sources with any strategy.
//
// Delta when options.delta == 0 (auto): gpu_auto_width (sssp/bucket_width.cpp, with the measurements
// that chose it), from the graph statistics that the CPU solver's rule reads too, times the chosen
// loop's multiple (loop_tuning.cuh: the step loop's on mean out-degrees above 16, the drivers').
//
// Rows are sorted by weight on upload, so that the light arcs of a vertex (w < delta, light_arc in
// sssp/bucket_width.hpp) are a prefix of its row; light_end[] is computed on the device once per
// delta (a binary search per vertex) and kept while delta stays the same.
//
// Queue capacities: the frontier holds each vertex at most once (stamps), the other queues can hold
// a vertex once per bucket it drops into; they start at 2n + 1024 (or options::queue_capacity) and,
// should a solve overflow one (control::capacity_exceeded), double and the solve runs again, so no
// input is ever truncated; stats.queue_growths says how often that happened.
//
// The engine belongs to the device that was current when it was made: run() makes that device
// current for its calls, and the small-frontier kernel's attributes and cluster size are set up
// for it (small_frontier_blocks), not once per process.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sssp/bucket_width.hpp"
#include "sssp/rows_by_weight.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/gpu/device_graph.cuh"
#include "sssp/gpu/batch_rows.cuh"
#include "sssp/gpu/block_driver.cuh"
#include "sssp/gpu/delta_stepping.cuh"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/engine_context.cuh"
#include "sssp/gpu/frontier_manager.cuh"
#include "sssp/gpu/loop_tuning.cuh"
#include "sssp/gpu/partitioned_driver.cuh"
#include "sssp/gpu/predecessors.cuh"
#include "sssp/gpu/window_filing.cuh"
#include "sssp/gpu_engine.hpp"

namespace deltasplit::sssp::gpu {

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_atomic_manager() {
  return std::make_unique<atomic_filing<Distance>>();
}
template std::unique_ptr<frontier_manager<std::uint32_t>> make_atomic_manager<std::uint32_t>();
template std::unique_ptr<frontier_manager<float>> make_atomic_manager<float>();
template void launch_file_segments<std::uint32_t>(const loop_view<std::uint32_t>&, const vertex_t*,
                                                  const std::uint32_t*, const launch_shape&, cudaStream_t);
template void launch_file_segments<float>(const loop_view<float>&, const vertex_t*, const std::uint32_t*,
                                          const launch_shape&, cudaStream_t);

namespace {

// Small frontiers' light iterations: as options::light says; automatic is block by block below a
// mean out-degree of loop_tuning::block_light_below_degree (the measurements are there).
bool block_light_phase(sssp::light_phase mode, std::uint64_t vertices, std::uint64_t arcs) {
  if (mode != sssp::light_phase::automatic) return mode == sssp::light_phase::block;
  return static_cast<double>(arcs) < loop_tuning::block_light_below_degree * static_cast<double>(vertices);
}

// Makes a device current for one scope and restores the caller's afterwards.
class current_device {
 public:
  explicit current_device(int device) {
    DS_CUDA(cudaGetDevice(&previous_));
    if (previous_ != device) DS_CUDA(cudaSetDevice(device));
  }
  ~current_device() {
    int now = previous_;
    cudaGetDevice(&now);
    if (now != previous_) cudaSetDevice(previous_);
  }
  current_device(const current_device&) = delete;
  current_device& operator=(const current_device&) = delete;

 private:
  int previous_ = 0;
};

template <class T>
void upload(device_array<T>& dst, span<T> src, cudaStream_t stream) {
  if (!src.empty()) DS_CUDA(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyDefault, stream));
}

// Vertices past the cutoff become unreachable (options::cutoff): the solve stopped before their
// buckets, so their distances are tentative or infinite.
template <class Distance>
__global__ void clear_beyond(Distance* dist, vertex_t n, Distance cutoff) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    if (dist[v] > cutoff) dist[v] = distance_ops<Distance>::infinity;
}

// The lowest vertex that an arc from a reached vertex leads to while it stays unreached (the
// device form of detail::overflowed_vertex): after a converged solve only a dropped sum leaves one.
template <class Distance>
__global__ void find_overflowed(const edge_t* offsets, const vertex_t* targets, const Distance* dist, vertex_t n,
                                vertex_t* found) {
  for (vertex_t u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += gridDim.x * blockDim.x) {
    if (dist[u] == distance_ops<Distance>::infinity) continue;
    for (edge_t e = offsets[u]; e < offsets[u + 1]; ++e)
      if (dist[targets[e]] == distance_ops<Distance>::infinity) atomicMin(found, targets[e]);
  }
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

// A figure of the partitioned driver's profile, to three significant digits.
std::string decimal(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

std::uint32_t capped(std::uint64_t x) {
  return x > 0xFFFFFFF0ull ? 0xFFFFFFF0u : static_cast<std::uint32_t>(x);
}

}  // namespace

template <class Distance>
class engine final : public detail::gpu_engine, private engine_context {
  using weight = typename distance_ops<Distance>::weight;

 public:
  engine(const csr_view& g, const options& opts, cudaStream_t caller_stream)
      : engine_context(caller_stream, 4 * sizeof(std::uint32_t) + sizeof(block_outcome)), g_(g), n_(g.num_vertices),
        m_(g.num_arcs()) {
    shape_ = launch_shape{multiprocessors_ * loop_tuning::grid_blocks_per_sm, loop_tuning::grid_threads};
    chained_ = compiled_for_sm90(relax_grid<Distance>);
    set_up_small_frontiers(opts);
    const std::uint32_t queue = opts.queue_capacity ? opts.queue_capacity : initial_queue_capacity();
    reserve(graph_bytes() + work_bytes(queue, 1), "the graph (" + std::to_string(n_) + " vertices, " +
                                                     std::to_string(m_) + " arcs) and the solver's work buffers");
    offsets_ = device_array<edge_t>(g.offsets.size(), "the CSR offsets");
    targets_ = device_array<vertex_t>(m_, "the CSR targets");
    weights_ = device_array<weight>(m_, "the arc weights");
    double total = 0;
    if (g.space == memory_space::device) {
      const span<weight> w = weights_of<Distance>(g);
      check_device_graph(g, w.data(), w.size(), stream_);
      upload(offsets_, g.offsets, stream_);
      sort_rows_by_weight(g, w.data(), targets_.get(), weights_.get(), stream_);
      total = weight_sum(w.data(), m_, stream_);
    } else {
      std::vector<vertex_t> targets;
      std::vector<weight> weights;
      detail::rows_by_weight(g, weights_of<Distance>(g), targets, weights);
      upload(offsets_, g.offsets, stream_);
      upload(targets_, span<vertex_t>(targets), stream_);
      upload(weights_, span<weight>(weights), stream_);
      DS_CUDA(cudaStreamSynchronize(stream_));
    }
    light_end_ = device_array<edge_t>(std::max<std::uint32_t>(n_, 1), "the light-arc split");
    heavy_total_ = device_array<unsigned long long>(1, "the heavy-arc count");
    settled_tag_ = device_array<std::uint32_t>(std::max<std::uint32_t>(n_, 1), "the settled tags");
    settled_ = device_array<vertex_t>(std::max<std::uint32_t>(n_, 1), "the settled vertices");
    dist_ = device_array<Distance>(n_, "the distances");
    stamp_ = device_array<std::uint32_t>(n_, "the iteration stamps");
    filed_ = device_array<std::uint32_t>(n_, "the filed buckets");
    ctl_ = device_array<control>(1, "the loop control");
    // Every byte of the control is defined from its allocation on: the host reads it whole
    // (read_control), whichever fields the solve's steps wrote.
    DS_CUDA(cudaMemsetAsync(ctl_.get(), 0, sizeof(control), stream_));
    frontier_[0] = device_array<vertex_t>(std::max<std::uint32_t>(n_, 1), "the frontier");
    frontier_[1] = device_array<vertex_t>(std::max<std::uint32_t>(n_, 1), "the frontier");
    word_ = device_array<std::uint32_t>(1, "a flag");
    allocate_queues(queue, 1);
    if (g.space == memory_space::device) {  // measured on the device above; the GPU rule reads no max
      statistics_.vertices = n_;
      statistics_.arcs = m_;
      statistics_.mean_weight = m_ ? total / static_cast<double>(m_) : 0;
      statistics_.mean_degree = n_ ? static_cast<double>(m_) / n_ : 0;
    } else {
      statistics_ = detail::measure(g);
    }
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

  std::string device_name() const override { return name_; }

  statistics run_into(vertex_t source, const options& opts, const output_buffers& buffers) override {
    const current_device on_engine_device(device_);
    set_up_small_frontiers(opts);
    const bool bucketed = opts.how == strategy::bucketing || opts.how == strategy::multisplit;
    const std::uint32_t K = bucketed ? opts.buckets : 1;
    if (K == 0 || K > max_window_buckets)
      throw std::invalid_argument("the number of buckets must be between 1 and " + std::to_string(max_window_buckets) +
                                  "; got " + std::to_string(K));
    if (opts.heavy == heavy_relaxation::pull && !g_.symmetric)
      throw std::invalid_argument("heavy arcs pulled (heavy pull) need an undirected graph: a row must also be the "
                                  "vertex's in-arcs (csr_view::symmetric)");
    // --- the driver: the partitioned, wide or block driver, or the step loop below. ---
    const chosen_loop loop = choose_loop(opts);
    const bool partitioned = loop == chosen_loop::partitioned;
    const bool wide = loop == chosen_loop::wide;
    // The automatic width's multiple for the loop that runs (loop_tuning.cuh); the block driver none.
    const double auto_scale =
        partitioned                  ? partition_tuning::delta_scale(n_, multiprocessors_)
        : wide                       ? block_driver_tuning::wide_auto_delta_scale
        : loop == chosen_loop::steps ? loop_tuning::step_delta_scale(statistics_.mean_degree, n_)
                                     : 1.0;
    const bucket_of_distance<Distance> bucket = bucket_width(opts, auto_scale);
    const std::uint32_t last = last_bucket(opts.cutoff, bucket);
    loop_outcome out;
    std::string driver = "steps";
    partitioned_outcome regions{};
    if (partitioned) {
      regions = partitioned_->solve(source, bucket, dist_.get(), stream_, start_, stop_);
      out.milliseconds = regions.milliseconds;
      out.final.overflowed = regions.overflowed;
      driver = partitioned_->describe() + "; " + std::to_string(regions.rounds) + " rounds, " +
               std::to_string(regions.buckets) + " buckets; a block's ms (mean): mail " + decimal(regions.phase_ms[0]) +
               ", local " + decimal(regions.phase_ms[1]) + " (" + decimal(regions.iterations_per_block) +
               " iterations, " + decimal(regions.fixpoints_per_block) + " fixpoints), sending " +
               decimal(regions.phase_ms[2]) + ", idle " + decimal(regions.phase_ms[3]) + ", grid barriers " +
               decimal(regions.phase_ms[4]);
    }
    const bool near_far_driver = wide || loop == chosen_loop::block;
    block_outcome blk{};
    std::uint32_t growths = 0;
    if (near_far_driver) {
      out.milliseconds = solve_near_far(source, bucket, last, opts.queue_capacity, wide, blk, growths);
      out.final.overflowed = blk.overflowed;
      driver = (wide ? "wide: near-far over " + std::to_string(*wide_blocks_) + " blocks of "
                     : std::string("block: near-far in one block of ")) +
               std::to_string(block_driver_tuning::threads) + " threads; " + std::to_string(blk.buckets) +
               " buckets, " + std::to_string(blk.passes) + " far-pile passes (" + std::to_string(blk.respills) +
               " again after a full near set), far pile " + std::to_string(blk.max_far) + " at most";
    }
    // --- end of the driver hook ---
    frontier_manager<Distance>& manager = manager_for_strategy(opts.how);
    if (!partitioned && !near_far_driver) {  // the step loop's queues and light-arc split
      if (K > queued_buckets_) allocate_queues(queue_capacity_, K);
      split_at(bucket.delta);
    }

    const bool block_light = block_light_phase(opts.light, n_, m_);
    const heavy_mode heavy = heavy_mode_of(opts.heavy);
    while (!partitioned && !near_far_driver) {
      solve_context<Distance> ctx = context(K, bucket, opts.how, block_light, last, heavy);
      manager.prepare(ctx.view);
      out = solve(ctx, manager, source, opts.phase_times);
      if (!out.final.capacity_exceeded) break;
      // Doubling from any start reaches 2^31 entries in at most 31 rounds.
      if (queue_capacity_ >= 0x7FFFFFF0u) throw std::runtime_error("GPU delta-stepping: work queues exceed 2^31 entries");
      allocate_queues(capped(std::uint64_t{queue_capacity_} * 2), std::max(K, queued_buckets_));
      ++growths;
    }

    const unsigned blocks = std::min<unsigned>(shape_.blocks, (n_ + 255) / 256 + 1);
    if (last != no_bucket) {
      clear_beyond<<<blocks, 256, 0, stream_>>>(dist_.get(), n_, cutoff_distance<Distance>(opts.cutoff));
      DS_CUDA_LAUNCH("clear_beyond");
    }
    if (out.final.overflowed && !detail::cutoff_below_overflow(g_.kind, opts.cutoff)) {
      DS_CUDA(cudaMemsetAsync(word_.get(), 0xFF, sizeof(vertex_t), stream_));
      find_overflowed<<<blocks, 256, 0, stream_>>>(offsets_.get(), targets_.get(), dist_.get(), n_, word_.get());
      DS_CUDA_LAUNCH("find_overflowed");
      vertex_t v = graph::invalid_vertex;
      DS_CUDA(cudaMemcpyAsync(&v, word_.get(), sizeof v, cudaMemcpyDeviceToHost, stream_));
      DS_CUDA(cudaStreamSynchronize(stream_));
      if (v != graph::invalid_vertex) detail::throw_overflow(g_, source, v);
    }
    if (n_) DS_CUDA(cudaMemcpyAsync(distances_of<Distance>(buffers), dist_.get(), n_ * sizeof(Distance),
                                    cudaMemcpyDefault, stream_));
    if (buffers.predecessors) {
      if (!parent_.get()) {
        parent_ = device_array<vertex_t>(std::max<std::uint32_t>(n_, 1), "the predecessor tree");
        level_ = device_array<std::uint32_t>(std::max<std::uint32_t>(n_, 1), "the predecessor levels");
      }
      shortest_path_tree(context(K, bucket, opts.how, block_light, last, heavy).view, source, parent_.get(), level_.get(),
                         word_.get(), host_words_ + 2, shape_.blocks, stream_, buffers.predecessors);
    }
    DS_CUDA(cudaStreamSynchronize(stream_));
    statistics st;
    st.strategy = strategy_name(opts.how);
    st.device = name_;
    st.milliseconds = out.milliseconds;
    st.relax_ms = out.relax_ms;
    st.frontier_ms = out.frontier_ms;
    st.delta = opts.how == strategy::workfront ? std::numeric_limits<double>::infinity() : static_cast<double>(bucket.delta);
    st.iterations = out.final.iteration;
    st.edges_relaxed = out.final.edges_relaxed;
    st.vertices_processed = out.final.vertices_processed;
    st.max_queue = out.final.max_frontier;
    st.queue_growths = growths;
    st.cluster_blocks = cluster_blocks_;
    st.block_light_phase = block_light && cluster_blocks_ >= loop_tuning::local_min_blocks;
    st.heavy_pulls = out.final.heavy_pulls;
    st.driver = driver;
    if (partitioned) {  // the owner regions, built once per solver (as phast reports its hierarchy)
      st.setup_ms = regions_built_ms_;
      st.setup = "regions built";
    } else if (declined_setup_ms_ > 0) {  // built by this run's automatic choice, then not used
      st.setup_ms = declined_setup_ms_;
      st.setup = "regions built, not used";
      declined_setup_ms_ = 0;
    }
    if (partitioned || near_far_driver) {  // no cluster, no manager; the driver's own figures
      // partitioned: iterations are the most local iterations one block ran in a round, summed over rounds
      st.iterations = partitioned ? regions.chain : blk.iterations;
      st.edges_relaxed = partitioned ? regions.edges_relaxed : blk.edges_relaxed;
      st.vertices_processed = partitioned ? regions.vertices_processed : blk.vertices_processed;
      st.max_queue = partitioned ? regions.max_frontier : blk.max_frontier;
      st.cluster_blocks = 0;
      st.block_light_phase = false;
      st.heavy_pulls = 0;
      st.relax_ms = st.frontier_ms = 0;
    }
    return st;
  }

 private:
  // The small-frontier cluster on this engine's device, for the size options asks for (checked
  // once per engine and size). The block-by-block light phase needs local_min_blocks blocks.
  void set_up_small_frontiers(const options& opts) {
    if (!cluster_set_up_ || opts.cluster_blocks != requested_blocks_) {
      cluster_blocks_ = small_frontier_blocks<Distance>(opts.cluster_blocks);
      requested_blocks_ = opts.cluster_blocks;
      cluster_set_up_ = true;
    }
    if (opts.light == sssp::light_phase::block && cluster_blocks_ < loop_tuning::local_min_blocks)
      throw std::runtime_error("the block-by-block light phase needs a small-frontier cluster of at least " +
                               std::to_string(loop_tuning::local_min_blocks) + " blocks; this one has " +
                               std::to_string(cluster_blocks_));
  }

  enum class chosen_loop { steps, partitioned, wide, block };

  // The loop a run takes (an empty graph takes the step loop, which returns at once): the driver
  // options.driver names, or with automatic (and automatic_options): the partitioned driver when
  // its regions fit on chip, on a sparse graph (mean out-degree below
  // partition_tuning::automatic_below_degree) or one of fewer arcs than
  // partition_tuning::automatic_arcs_per_sm per SM; else the wide driver on a sparse graph, and the
  // step loop otherwise.
  //   - The partitioned driver (partitioned_driver.cu): on road graphs about a third of the step
  //     loop's time, on denser graphs below the arcs line faster too (partition_tuning; the
  //     measurements in bench/results/loop_tuning.md and sssp_roads.md). A graph in device memory
  //     cannot take it (its regions are cut on the host).
  //   - The block driver (block_driver.cuh) runs only when asked for: for one source it is slower
  //     than the step loop on every graph measured, road, grid and social
  //     (bench/results/block_driver.md). Its place is many sources, one block each
  //     (many_sources.cu).
  //   - The wide driver (block_driver.cuh: the block driver's Near-Far over every block of a
  //     cooperative grid, one grid barrier an iteration) takes the sparse graphs whose regions do not
  //     fit on chip, where it beats the step loop (block_driver_tuning::wide_auto_delta_scale;
  //     bench/results/sssp_roads.md). Where the GPU cannot launch it cooperatively,
  //     automatic takes the step loop and a forced run throws.
  chosen_loop choose_loop(const options& opts) {
    if (n_ == 0) return chosen_loop::steps;
    switch (opts.driver) {
      case gpu_driver::steps: return chosen_loop::steps;
      case gpu_driver::block: return chosen_loop::block;
      case gpu_driver::wide: return chosen_loop::wide;
      case gpu_driver::partitioned:
        if (g_.space == memory_space::device)
          throw std::invalid_argument("the partitioned driver reads the graph from host memory; a graph in device "
                                      "memory takes the step loop (driver steps)");
        build_regions(false);
        return chosen_loop::partitioned;
      case gpu_driver::automatic: break;
    }
    if (!automatic_options(opts)) return chosen_loop::steps;
    const bool sparse = static_cast<double>(m_) < partition_tuning::automatic_below_degree * static_cast<double>(n_);
    const bool few_arcs = static_cast<double>(m_) < partition_tuning::automatic_arcs_per_sm * multiprocessors_;
    if ((sparse || few_arcs) && automatic_partitioned()) return chosen_loop::partitioned;
    return sparse && wide_launchable() ? chosen_loop::wide : chosen_loop::steps;
  }

  // The partitioned driver for an automatic run on a sparse or small graph, when its regions keep their
  // distances and arcs in shared memory. Its owner regions are built on its first
  // run (host work and an upload) and kept by the solver; every run on them reports what building
  // them took (setup_ms, "regions built"). Regions that the automatic choice built and then found
  // too large for shared memory are reported once, by that run ("regions built, not used"), and
  // not built again.
  bool automatic_partitioned() {
    if (regions_unusable_ || !partition_may_fit_on_chip(n_, m_, multiprocessors_)) return false;
    try {
      build_regions(true);
    } catch (const std::runtime_error&) {  // the driver's blocks cannot all be resident on this GPU
      (void)cudaGetLastError();
      regions_unusable_ = true;
      return false;
    }
    if (partitioned_ && partitioned_->on_chip()) return true;
    // A region's distances or arcs do not fit after all (the size check is of the mean region): the
    // regions this run cut were declined (host work, nothing uploaded) and this run reports them. A
    // driver an earlier forced run built (regions in global memory) stays for the forced runs.
    if (!partitioned_) declined_setup_ms_ = regions_built_ms_;
    regions_unusable_ = true;
    return false;
  }

  // Whether the automatic choice may leave the step loop: options.driver automatic on a graph in
  // host memory, and none of the step loop's own options (a cutoff, a light-phase mode, a cluster
  // size, a queue size, a heavy-arc mode) set.
  bool automatic_options(const options& opts) const {
    return opts.driver == gpu_driver::automatic && g_.space != memory_space::device && std::isinf(opts.cutoff) &&
           opts.light == light_phase::automatic && opts.cluster_blocks == 0 && opts.queue_capacity == 0 &&
           opts.heavy == heavy_relaxation::automatic;
  }

  // Builds the owner regions (once per solver) and, unless require_on_chip finds a region too large
  // for shared memory (then partitioned_ stays empty), uploads the reordered graph.
  void build_regions(bool require_on_chip) {
    if (partitioned_) return;
    const auto begin = std::chrono::steady_clock::now();
    partitioned_ = make_partitioned_driver<Distance>(g_, weights_of<Distance>(g_), require_on_chip);
    regions_built_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  }

  // Sizes the wide driver's grid on first use; false when the GPU cannot launch it cooperatively.
  bool wide_launchable() {
    if (!wide_blocks_) wide_blocks_ = wide_solve_blocks<Distance, block_driver_tuning::row_lanes>(multiprocessors_);
    return *wide_blocks_ > 0;
  }

  // One Near-Far solve, in one block (the block driver) or over the whole grid (wide); returns its
  // milliseconds (the distance fill included, as the step loop's initialisation is). The far piles
  // start at queue_capacity entries (options::queue_capacity; 0: 2n + 1024) on first use; one that
  // fills doubles them and the solve runs again (growths). The wide driver's near queues hold
  // queue_capacity entries each, or n + 512: a near set that fills spills to the far pile, as the
  // block driver's does, so they never grow.
  double solve_near_far(vertex_t source, bucket_of_distance<Distance> bucket, std::uint32_t last,
                        std::uint32_t queue_capacity, bool wide, block_outcome& blk, std::uint32_t& growths) {
    if (wide && !wide_books_.get()) {
      if (!wide_launchable()) throw std::runtime_error("the wide driver needs a GPU that launches cooperative kernels");
      wide_books_ = device_array<near_far_books>(1, "the wide driver's books");
    }
    if (!wide && !block_shared_set_) {  // the block driver's near queues: 128 KB of shared memory
      DS_CUDA(cudaFuncSetAttribute(block_solve<Distance, block_driver_tuning::near_capacity, block_driver_tuning::row_lanes>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(block_driver_shared_bytes(block_driver_tuning::near_capacity))));
      block_shared_set_ = true;
    }
    if (!block_outcome_.get()) block_outcome_ = device_array<block_outcome>(1, "the block driver's outcome");
    if (block_far_capacity() == 0) grow_block_piles(queue_capacity ? queue_capacity : initial_queue_capacity());
    auto* host = reinterpret_cast<block_outcome*>(pinned<unsigned char>() + 4 * sizeof(std::uint32_t));
    const unsigned fill_blocks = std::min<unsigned>(shape_.blocks, (n_ + 255) / 256 + 1);
    const std::uint32_t near_capacity = queue_capacity ? queue_capacity : capped(std::uint64_t{n_} + 512);
    if (wide && wide_near_.size() != 2 * std::size_t{near_capacity}) {
      wide_near_ = {};
      reserve(2 * std::size_t{near_capacity} * sizeof(uint4), "the wide driver's near queues");
      wide_near_ = device_array<uint4>(2 * std::size_t{near_capacity}, "the wide driver's near queues");
    }
    while (true) {
      const block_view<Distance> v{offsets_.get(), targets_.get(), weights_.get(), n_,          bucket,
                                   last,           dist_.get(),     n_,          block_piles_.get(), block_far_capacity(),
                                   block_outcome_.get(), m_};
      const double ms =
          wide ? run_wide_solve<Distance, block_driver_tuning::row_lanes>(v, wide_books_.get(), wide_near_.get(),
                                                                          near_capacity, source, *wide_blocks_,
                                                                          fill_blocks, stream_, start_, stop_, host)
               : run_block_solve<Distance, block_driver_tuning::near_capacity, block_driver_tuning::row_lanes>(
                     v, nullptr, source, 1, block_driver_tuning::threads, fill_blocks, stream_, start_, stop_, host);
      blk = *host;
      if (!blk.capacity_exceeded) return ms;
      if (block_far_capacity() >= 0x7FFFFFF0u) throw std::runtime_error("GPU block driver: far piles exceed 2^31 entries");
      grow_block_piles(capped(std::uint64_t{block_far_capacity()} * 2));
      ++growths;
    }
  }

  void grow_block_piles(std::uint32_t capacity) {
    block_piles_ = {};
    reserve(2 * std::size_t{capacity} * sizeof(uint2), "the block driver's far piles");
    block_piles_ = device_array<uint2>(2 * std::size_t{capacity}, "the block driver's far piles");
  }

  // Entries of each of the two far piles (0 before the first solve).
  std::uint32_t block_far_capacity() const { return static_cast<std::uint32_t>(block_piles_.size() / 2); }

  std::uint32_t initial_queue_capacity() const { return capped(2 * std::uint64_t{n_} + 1024); }
  std::uint32_t chunk_capacity(std::uint32_t queue) const { return capped(queue + m_ / loop_tuning::chunk_arcs + 1); }

  std::size_t graph_bytes() const {
    return (std::size_t{n_} + 1) * sizeof(edge_t) + m_ * (sizeof(vertex_t) + sizeof(weight));
  }
  std::size_t work_bytes(std::uint32_t queue, std::uint32_t K) const {
    return std::size_t{n_} * (sizeof(Distance) + 7 * 4 + sizeof(edge_t)) + std::size_t{queue} * 4 * (3 + K) +
           std::size_t{chunk_capacity(queue)} * sizeof(uint2) + (1u << 20);
  }

  void allocate_queues(std::uint32_t queue, std::uint32_t K) {
    to_file_ = {};
    far_pile_ = {};
    bucket_queues_ = {};
    chunks_ = {};
    reserve(std::size_t{queue} * 4 * (2 + K) + std::size_t{chunk_capacity(queue)} * sizeof(uint2),
            "the solver's work queues");
    to_file_ = device_array<vertex_t>(queue, "the queue to file");
    far_pile_ = device_array<vertex_t>(queue, "the far pile");
    bucket_queues_ = device_array<vertex_t>(std::size_t{queue} * K, "the window's buckets");
    chunks_ = device_array<uint2>(chunk_capacity(queue), "the chunks of large vertices");
    queue_capacity_ = queue;
    queued_buckets_ = K;
    ++generation_;
  }

  void split_at(weight delta) {
    if (light_split_valid_ && light_split_delta_ == delta) return;
    unsigned blocks = std::min<unsigned>(shape_.blocks, (n_ + 255) / 256 + 1);
    unsigned long long total = 0;
    DS_CUDA(cudaMemsetAsync(heavy_total_.get(), 0, sizeof(unsigned long long), stream_));
    split_light_arcs<<<blocks, 256, 0, stream_>>>(offsets_.get(), weights_.get(), n_, delta, light_end_.get(),
                                                  heavy_total_.get());
    DS_CUDA_LAUNCH("split_light_arcs");
    DS_CUDA(cudaMemcpyAsync(&total, heavy_total_.get(), sizeof total, cudaMemcpyDeviceToHost, stream_));
    DS_CUDA(cudaStreamSynchronize(stream_));
    heavy_arcs_ = total;
    light_split_valid_ = true;
    light_split_delta_ = delta;
  }

  // The bucket width: options.delta, or the automatic width times auto_scale (the partitioned
  // driver's partition_tuning::delta_scale, the wide driver's multiple, the step loop's
  // loop_tuning::step_delta_scale on dense graphs).
  bucket_of_distance<Distance> bucket_width(const options& opts, double auto_scale) const {
    const auto kind = std::is_same_v<Distance, float> ? graph::weight_kind::real : graph::weight_kind::integer;
    double delta = opts.delta > 0 ? opts.delta : detail::gpu_auto_width(statistics_, kind) * auto_scale;
    if constexpr (std::is_same_v<Distance, float>) {
      if (opts.how == strategy::workfront) return {std::numeric_limits<float>::infinity()};
      float d = static_cast<float>(delta);
      if (!(d > 0) || !std::isfinite(d)) d = opts.delta > 0 ? std::numeric_limits<float>::max() : 1.0f;
      return {d};
    } else {
      if (opts.how == strategy::workfront) return {0xFFFFFFFFu};
      double r = std::floor(delta);
      return {r < 1 ? 1u : r > 4294967294.0 ? 0xFFFFFFFEu : static_cast<std::uint32_t>(r)};
    }
  }

  // The cutoff's bucket (cutoff_distance, distance_policy.hpp), past which the loop stops; no_bucket
  // when there is no cutoff below the largest distance.
  static std::uint32_t last_bucket(double cutoff, bucket_of_distance<Distance> bucket) {
    if (std::isinf(cutoff)) return no_bucket;
    const std::uint32_t b = bucket(cutoff_distance<Distance>(cutoff));
    return b == no_bucket ? no_bucket - 1 : b;
  }

  // The settle pass's mode (frontier_state.cuh): push on a graph not marked undirected.
  heavy_mode heavy_mode_of(heavy_relaxation h) const {
    if (!g_.symmetric || h == heavy_relaxation::push) return heavy_push;
    return h == heavy_relaxation::pull ? heavy_pull : heavy_automatic;
  }

  solve_context<Distance> context(std::uint32_t K, bucket_of_distance<Distance> bucket, strategy how, bool block_light,
                                  std::uint32_t last, heavy_mode heavy) {
    loop_view<Distance> v{};
    v.offsets = offsets_.get();
    v.targets = targets_.get();
    v.weights = weights_.get();
    v.dist = dist_.get();
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
    v.chunk_capacity = chunk_capacity(queue_capacity_);
    v.window_buckets = K;
    v.block_light = block_light ? 1u : 0u;
    v.cluster_settle_limit = loop_tuning::cluster_settle_limit(statistics_.mean_degree);
    v.bucket = bucket;
    v.last_bucket = last;
    v.heavy_mode = heavy;
    v.heavy_arcs = heavy_arcs_;
    solve_context<Distance> ctx{};
    ctx.view = v;
    ctx.stream = stream_;
    ctx.shape = shape_;
    ctx.cluster_blocks = cluster_blocks_;
    ctx.chained = chained_;
    ctx.graph = &graph_;
    double delta_bits = static_cast<double>(bucket.delta);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &delta_bits, sizeof bits);
    ctx.graph_key = std::string(strategy_name(how)) + "/" + std::to_string(K) + "/" + std::to_string(bits) + "/" +
                    std::to_string(generation_) + "/" + std::to_string(cluster_blocks_) + "/" +
                    std::to_string(v.block_light) + "/" + std::to_string(last) + "/" + std::to_string(heavy);
    ctx.done_flags = host_words_;
    ctx.flag_ready[0] = flag_ready_[0];
    ctx.flag_ready[1] = flag_ready_[1];
    ctx.start = start_;
    ctx.stop = stop_;
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

  csr_view g_;
  std::uint32_t n_;
  edge_t m_;
  std::uint32_t cluster_blocks_ = 1, requested_blocks_ = 0;  // see set_up_small_frontiers
  bool chained_ = false;  // the step's kernels launched by launch_chained: code for sm_90 (dependent_launch.cuh)
  bool cluster_set_up_ = false;
  launch_shape shape_{};
  cuda_event flag_ready_[2] = {cuda_event(cudaEventDisableTiming), cuda_event(cudaEventDisableTiming)};
  std::uint32_t* const host_words_ = pinned<std::uint32_t>();  // two done flags, the sweep flag
  device_array<edge_t> offsets_;
  device_array<vertex_t> targets_;
  device_array<weight> weights_;
  device_array<Distance> dist_;
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
  device_array<vertex_t> parent_;
  device_array<std::uint32_t> level_, word_;
  std::uint32_t queue_capacity_ = 0, queued_buckets_ = 0;
  std::uint64_t generation_ = 0;
  step_graph graph_;
  std::unique_ptr<frontier_manager<Distance>> atomic_, bucketing_, multisplit_;
  detail::graph_statistics statistics_;
  std::unique_ptr<partitioned_driver<Distance>> partitioned_;  // made on first use (driver hook)
  double regions_built_ms_ = 0;    // what building partitioned_ took (host)
  bool regions_unusable_ = false;  // automatic: the partitioned driver cannot run on this GPU, or its regions do not fit
  double declined_setup_ms_ = 0;   // regions built and not used, not yet reported by a run
  bool block_shared_set_ = false;  // block_solve's shared-memory limit raised (the block driver's first run)
  device_array<block_outcome> block_outcome_;
  device_array<uint2> block_piles_;
  device_array<uint4> wide_near_;                // the wide driver's two near queues
  device_array<near_far_books> wide_books_;
  std::optional<unsigned> wide_blocks_;          // the wide driver's grid, on first use (0: cannot launch)
};

}  // namespace deltasplit::sssp::gpu

namespace deltasplit::sssp::detail {

bool cuda_device_usable(std::string* why_not) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (why_not)  // without any driver the runtime reports an "insufficient" one: say what it means
      *why_not = err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice
                     ? std::string("no CUDA driver or device on this machine (") + cudaGetErrorString(err) + ")"
                     : std::string("no usable CUDA device: ") + cudaGetErrorString(err);
    return false;
  }
  if (count == 0) {
    if (why_not) *why_not = "no CUDA device found";
    return false;
  }
  cudaFuncAttributes attributes{};
  err = cudaFuncGetAttributes(&attributes, gpu::plan<std::uint32_t>);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (why_not) *why_not = std::string("this build has no code for the CUDA device: ") + cudaGetErrorString(err);
    return false;
  }
  return true;
}

std::unique_ptr<gpu_engine> make_gpu_engine(const csr_view& g, const options& opts) {
  std::string why_not;
  if (!cuda_device_usable(&why_not)) throw std::runtime_error(why_not);
  if (g.num_vertices >= 0xFFFFFFF0u)
    throw std::length_error("the GPU solver handles graphs of fewer than 2^32 - 16 vertices");
  cudaStream_t stream = static_cast<cudaStream_t>(opts.stream);
  if (g.kind == graph::weight_kind::integer) return std::make_unique<gpu::engine<std::uint32_t>>(g, opts, stream);
  return std::make_unique<gpu::engine<float>>(g, opts, stream);
}

}  // namespace deltasplit::sssp::detail
