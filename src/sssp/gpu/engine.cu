// The GPU engine behind sssp::solver (the seam in sssp/gpu_engine.hpp): it holds the graph's one
// device copy (shared_device_csr, device_csr.cuh), keeps one array of distances, and answers any number of sources, each by the
// driver (driver.cuh) that options name or the automatic rule below chooses. After a driver's
// solve the engine clears what lies past a cutoff, names a vertex whose distance overflowed, copies
// the distances out, draws the shortest-path tree, and turns the driver's outcome into statistics.
//
// Delta when options.tune.delta == 0 (auto): gpu_auto_width (sssp/bucket_width.cpp, with the measurements
// that chose it), from the graph statistics that the CPU solver's rule reads too, times the chosen
// driver's multiple (one_source_driver::auto_delta_scale).
//
// Distances: uint32 or uint64 (integer weights; uint64 where a path may pass 2^32 - 2: make_gpu_engine),
// float32 or float64 (real weights; distance.cuh). Every driver runs all four (the partitioned
// driver's 64-bit outbox needs sm_90; the wide and block drivers' 64-bit queue entries are 16
// bytes: near_far/block_driver.cuh).
//
// The engine belongs to the device that was current when it was made: run() makes that device
// current for its calls, and every copy and launch of the engine and its drivers goes on one
// stream (options::stream, or the engine's own).
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "sssp/bucket_width.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/gpu/device_csr.cuh"
#include "sssp/gpu/driver.cuh"
#include "sssp/gpu/engine_context.cuh"
#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/gpu/partitioned/tuning.cuh"
#include "sssp/gpu/near_far/tuning.cuh"
#include "sssp/gpu/near_far/near_far.cuh"
#include "sssp/gpu/partitioned/partitioned_driver.cuh"
#include "sssp/gpu/predecessors.cuh"
#include "sssp/gpu/step_loop/step_loop.cuh"
#include "sssp/gpu_engine.hpp"

namespace deltasplit::sssp::gpu {

// Vertices past the cutoff become unreachable (options::cutoff): the solve stopped before their
// buckets, so their distances are tentative or infinite.
template <class Distance>
__global__ void clear_beyond(Distance* dist, vertex_t n, Distance cutoff) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    if (dist[v] > cutoff) dist[v] = distance_ops<Distance>::infinity;
}

namespace {

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

bool runs_on_the_gpu(strategy how) {
  return how == strategy::near_far || how == strategy::workfront || how == strategy::bucketing ||
         how == strategy::multisplit;
}

}  // namespace

template <class Distance>
class engine final : public detail::gpu_engine, private engine_context {
  static constexpr bool wide_distances = sizeof(Distance) == 8;

 public:
  engine(const csr_view& g, const options& opts, cudaStream_t caller_stream)
      : engine_context(caller_stream, sizeof(std::uint32_t)), g_(g), n_(g.num_vertices), m_(g.num_arcs()),
        sparse_(static_cast<double>(m_) < partition_tuning::automatic_below_degree * static_cast<double>(n_)),
        few_arcs_(static_cast<double>(m_) < partition_tuning::automatic_arcs_per_sm * multiprocessors_) {
    graph_ = shared_device_csr<Distance>(g, stream_);  // an upload unless the graph's other engines made one
    reserve(step_loop_bytes(n_, m_, opts.tune.queue_capacity, 1, sizeof(Distance)),
            "the solver's work buffers (a graph of " + std::to_string(n_) + " vertices, " + std::to_string(m_) +
                " arcs)");
    dist_ = device_array<Distance>(n_, "the distances");
    word_ = device_array<std::uint32_t>(1, "a flag");
    steps_ = make_step_loop<Distance>(*graph_, context(), opts);
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

  std::string device_name() const override { return name_; }

  statistics run_into(vertex_t source, const options& opts, const output_buffers& buffers) override {
    const current_device on_engine_device(device_);
    steps_->configure(opts);
    if (!runs_on_the_gpu(opts.how))
      throw std::invalid_argument(std::string("strategy '") + strategy_name(opts.how) + "' does not run on the GPU");
    if (opts.tune.heavy == heavy_relaxation::pull && !graph_->symmetric())
      throw std::invalid_argument("heavy arcs pulled (heavy pull) need an undirected graph: a row must also be the "
                                  "vertex's in-arcs (csr_view::symmetric)");
    const chosen_driver chosen = choose_driver(opts);
    one_source_driver<Distance>& driver = driver_for(chosen);
    const bucket_of_distance<Distance> bucket = bucket_width(opts, driver.auto_delta_scale());
    const std::uint32_t last = last_bucket(opts.cutoff, bucket);
    const driver_outcome out = driver.solve(solve_request<Distance>{source, bucket, last, opts, dist_.get()});

    const unsigned blocks = std::min<unsigned>(grid_blocks(), (n_ + 255) / 256 + 1);
    if (last != no_bucket) {
      clear_beyond<<<blocks, 256, 0, stream_>>>(dist_.get(), n_, cutoff_distance<Distance>(opts.cutoff));
      DS_CUDA_LAUNCH("clear_beyond");
    }
    if (out.overflowed && !detail::cutoff_below_overflow<Distance>(opts.cutoff)) {
      DS_CUDA(cudaMemsetAsync(word_.get(), 0xFF, sizeof(vertex_t), stream_));
      find_overflowed<<<blocks, 256, 0, stream_>>>(graph_->offsets(), graph_->targets(), dist_.get(), n_, word_.get());
      DS_CUDA_LAUNCH("find_overflowed");
      vertex_t v = graph::invalid_vertex;
      DS_CUDA(cudaMemcpyAsync(&v, word_.get(), sizeof v, cudaMemcpyDeviceToHost, stream_));
      DS_CUDA(cudaStreamSynchronize(stream_));
      if (v != graph::invalid_vertex) detail::throw_overflow(g_, source, v, detail::type_of<Distance>());
    }
    if (n_) DS_CUDA(cudaMemcpyAsync(distances_of<Distance>(buffers), dist_.get(), n_ * sizeof(Distance),
                                    cudaMemcpyDefault, stream_));
    if (buffers.predecessors) tree(source, buffers.predecessors);
    DS_CUDA(cudaStreamSynchronize(stream_));

    statistics st;
    // What ran is what is reported: the frontier manager only where it filed the work (the step
    // loop); the driver always, and why the automatic rule kept the step loop when an option did.
    st.strategy = chosen == chosen_driver::steps ? strategy_name(opts.how) : "";
    st.device = name_;
    st.milliseconds = out.milliseconds;
    st.relax_ms = out.relax_ms;
    st.frontier_ms = out.frontier_ms;
    st.delta = opts.how == strategy::workfront ? std::numeric_limits<double>::infinity() : static_cast<double>(bucket.delta);
    st.iterations = out.iterations;
    st.edges_relaxed = out.edges_relaxed;
    st.vertices_processed = out.vertices_processed;
    st.max_queue = out.max_queue;
    st.queue_growths = out.queue_growths;
    st.cluster_blocks = out.cluster_blocks;
    st.block_light_phase = out.block_light_phase;
    st.heavy_pulls = out.heavy_pulls;
    st.driver = out.description + kept_on_the_step_loop(chosen, opts);
    if (chosen == chosen_driver::partitioned) {  // the owner regions, built once per solver (as phast reports its hierarchy)
      st.setup_ms = regions_built_ms_;
      st.setup = "regions built";
    } else if (declined_setup_ms_ > 0) {  // built by this run's automatic choice, then not used
      st.setup_ms = declined_setup_ms_;
      st.setup = "regions built, not used";
      declined_setup_ms_ = 0;
    }
    return st;
  }

 private:
  enum class chosen_driver { steps, partitioned, wide, block };

  driver_context context() const { return driver_context{stream_, start_, stop_, multiprocessors_}; }
  unsigned grid_blocks() const { return multiprocessors_ * loop_tuning::grid_blocks_per_sm; }

  // The driver a run takes (an empty graph takes the step loop, which returns at once): the one
  // options.tune.driver names, or with automatic (and nothing that kept_by names): the partitioned driver when
  // its regions keep on chip what automatic_layout asks, on a sparse graph (mean out-degree below
  // partition_tuning::automatic_below_degree) or one of fewer arcs than
  // partition_tuning::automatic_arcs_per_sm per SM; else the wide driver on a sparse graph, and
  // the step loop otherwise.
  //   - The partitioned driver (partitioned_driver.cu): on road graphs about a third of the step
  //     loop's time, on denser graphs below the arcs line faster too (partition_tuning; the
  //     measurements in bench/results/loop_tuning.md and sssp_roads.md). A graph in device memory
  //     cannot take it (its regions are cut on the host).
  //   - The block driver (near_far/) runs only when asked for: for one source it is slower than
  //     the step loop on every graph measured, road, grid and social
  //     (bench/results/block_driver.md). Its place is many sources, one block each
  //     (many_sources.cu).
  //   - The wide driver (near_far/: the block driver's Near-Far over every block of a cooperative
  //     grid, one grid barrier an iteration) takes the sparse graphs whose regions are too large
  //     for the partitioned driver, where it beats the step loop (block_driver_tuning::wide_auto_delta_scale;
  //     bench/results/sssp_roads.md). Where the GPU cannot launch it cooperatively, automatic
  //     takes the step loop and a forced run throws.
  chosen_driver choose_driver(const options& opts) {
    if (n_ == 0) return chosen_driver::steps;
    switch (opts.tune.driver) {
      case gpu_driver::steps: return chosen_driver::steps;
      case gpu_driver::block: return chosen_driver::block;
      case gpu_driver::wide: return chosen_driver::wide;
      case gpu_driver::partitioned:
        if (g_.space == memory_space::device)
          throw std::invalid_argument("the partitioned driver reads the graph from host memory; a graph in device "
                                      "memory takes the step loop (driver steps)");
        build_regions(region_layout::anywhere);
        return chosen_driver::partitioned;
      case gpu_driver::automatic: break;
    }
    if (!kept_by(opts).empty()) return chosen_driver::steps;
    if ((sparse_ || few_arcs_) && automatic_partitioned()) return chosen_driver::partitioned;
    return sparse_ && wide_launchable() ? chosen_driver::wide : chosen_driver::steps;
  }

  one_source_driver<Distance>& driver_for(chosen_driver chosen) {
    switch (chosen) {
      case chosen_driver::partitioned: return *partitioned_;
      case chosen_driver::wide:
        if (!wide_) wide_ = make_near_far<Distance>(*graph_, context(), near_far_grid::wide);
        return *wide_;
      case chosen_driver::block:
        if (!block_) block_ = make_near_far<Distance>(*graph_, context(), near_far_grid::block);
        return *block_;
      case chosen_driver::steps: break;
    }
    return *steps_;
  }

  // What the automatic rule needs the regions to keep on chip before it takes the partitioned
  // driver (partition_tuning): on a graph of few arcs, distances and arcs; on a sparse graph,
  // distances where the mean region is small enough for the wide driver to lose
  // (automatic_global_arcs_region_vertices), else distances and arcs. The same in 64 bits, where
  // fewer regions' distances fit.
  region_layout automatic_layout() const {
    if (!sparse_) return region_layout::on_chip;
    const double mean_region = static_cast<double>(n_) / static_cast<double>(partition_tuning::regions(n_, multiprocessors_));
    return mean_region <= partition_tuning::automatic_global_arcs_region_vertices ? region_layout::distances_on_chip
                                                                                   : region_layout::on_chip;
  }

  // The partitioned driver for an automatic run on a sparse or small graph, when its regions keep
  // on chip what automatic_layout asks. Its owner regions are built on its first run (host work,
  // and the reordered graph derived on the device) and kept by the solver; every run on them reports what building
  // them took (setup_ms, "regions built"). Regions that the automatic choice built and then found
  // too large for shared memory are reported once, by that run ("regions built, not used"), and
  // not built again.
  bool automatic_partitioned() {
    const region_layout need = automatic_layout();
    if (regions_unusable_ || !partition_may_fit_on_chip(n_, m_, multiprocessors_, sizeof(Distance) / 4, need))
      return false;
    try {
      build_regions(need);
    } catch (const std::runtime_error&) {  // the driver's blocks cannot all be resident on this GPU
      (void)cudaGetLastError();
      regions_unusable_ = true;
      return false;
    }
    if (partitioned_ && partitioned_->keeps(need)) return true;
    // A region's distances or arcs do not fit after all (the size check is of the mean region): the
    // regions this run cut were declined (host work, nothing on the device) and this run reports them. A
    // driver an earlier forced run built (regions in global memory) stays for the forced runs.
    if (!partitioned_) declined_setup_ms_ = regions_built_ms_;
    regions_unusable_ = true;
    return false;
  }

  // What keeps the automatic choice on the step loop, as the summary names it: a graph in device
  // memory, a cutoff, or one of the step loop's own options (a light-phase mode, a cluster size,
  // a queue size, a heavy-arc mode); empty when nothing does.
  std::string kept_by(const options& opts) const {
    std::string why;
    const auto add = [&why](const char* reason) { why += (why.empty() ? "" : ", ") + std::string(reason); };
    if (g_.space == memory_space::device) add("a graph in device memory");
    if (!std::isinf(opts.cutoff)) add("a cutoff");
    if (opts.tune.light != light_phase::automatic) add("a light-phase mode");
    if (opts.tune.cluster_blocks != 0) add("a cluster size");
    if (opts.tune.queue_capacity != 0) add("a queue capacity");
    if (opts.tune.heavy != heavy_relaxation::automatic) add("a heavy-arc mode");
    return why;
  }

  // " (automatic: ...)" when the automatic rule took the step loop only because kept_by names
  // something, on a graph that would take another driver without; else nothing.
  std::string kept_on_the_step_loop(chosen_driver chosen, const options& opts) const {
    if (chosen != chosen_driver::steps || opts.tune.driver != gpu_driver::automatic || n_ == 0) return "";
    if (!sparse_ && !few_arcs_) return "";  // the step loop by the graph alone
    const std::string why = kept_by(opts);
    if (why.empty()) return "";  // the other drivers could not run or their regions did not fit
    return " (automatic: the step loop, kept by " + why + "; this graph takes another driver without)";
  }

  // Builds the owner regions (once per solver) and, unless a region cannot keep on chip what
  // `required` names (then partitioned_ stays empty), derives the reordered graph from graph_.
  void build_regions(region_layout required) {
    if (partitioned_) return;
    const auto begin = std::chrono::steady_clock::now();
    partitioned_ = make_partitioned_driver<Distance>(g_, *graph_, context(), required);
    regions_built_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  }

  // Whether the wide driver's grid can be launched cooperatively here (asked once).
  bool wide_launchable() {
    if (!wide_launchable_) wide_launchable_ = gpu::wide_launchable<Distance>(multiprocessors_);
    return *wide_launchable_;
  }

  // The bucket width: options.tune.delta, or the automatic width times auto_scale (the driver's).
  bucket_of_distance<Distance> bucket_width(const options& opts, double auto_scale) const {
    constexpr bool wide_integers = std::is_same_v<Distance, std::uint64_t>;
    double delta = opts.tune.delta > 0 ? opts.tune.delta
                                       : detail::gpu_auto_width(graph_->statistics(), g_.kind, wide_integers) * auto_scale;
    if (opts.how == strategy::workfront) return {distance_ops<Distance>::infinity};  // every finite distance in bucket 0
    return bucket_of_width<Distance>(delta, opts.tune.delta > 0 ? std::numeric_limits<Distance>::max() : Distance(1));
  }

  // The cutoff's bucket (cutoff_distance, distance_policy.hpp), past which the loop stops; no_bucket
  // when there is no cutoff below the largest distance.
  static std::uint32_t last_bucket(double cutoff, bucket_of_distance<Distance> bucket) {
    if (std::isinf(cutoff)) return no_bucket;
    const std::uint32_t b = bucket(cutoff_distance<Distance>(cutoff));
    return b == no_bucket ? no_bucket - 1 : b;
  }

  // The shortest-path tree of the distances just solved (predecessors.cuh) into `tree`.
  void tree(vertex_t source, vertex_t* out) {
    if (!parent_.get()) {
      parent_ = device_array<vertex_t>(std::max<std::uint32_t>(n_, 1), "the predecessor tree");
      level_ = device_array<std::uint32_t>(std::max<std::uint32_t>(n_, 1), "the predecessor levels");
      if constexpr (wide_distances)
        closest_ = device_array<distance_word<Distance>>(std::max<std::uint32_t>(n_, 1), "the predecessor distances");
    }
    distance_word<Distance>* closest;
    if constexpr (wide_distances)
      closest = closest_.get();
    else
      closest = level_.get();  // 32-bit words: the levels' storage serves (predecessors.cuh)
    tree_arcs<Distance> v{};
    v.offsets = graph_->offsets();
    v.targets = graph_->targets();
    v.weights = graph_->weights();
    v.dist = dist_.get();
    v.num_vertices = n_;
    shortest_path_tree(v, source, parent_.get(), level_.get(), closest, word_.get(), pinned<std::uint32_t>(), grid_blocks(),
                       stream_, out);
  }

  csr_view g_;
  std::uint32_t n_;
  edge_t m_;
  // The automatic rule's view of the graph: mean out-degree below
  // partition_tuning::automatic_below_degree, fewer arcs than automatic_arcs_per_sm per SM.
  bool sparse_, few_arcs_;
  std::shared_ptr<const device_csr<Distance>> graph_;  // shared with the graph's other engines
  device_array<Distance> dist_;
  device_array<vertex_t> parent_;
  device_array<std::uint32_t> level_, word_;
  device_array<distance_word<Distance>> closest_;  // 64-bit distances only (tree)
  std::unique_ptr<step_loop_driver<Distance>> steps_;
  std::unique_ptr<one_source_driver<Distance>> wide_, block_;  // made on first use
  std::optional<bool> wide_launchable_;
  std::unique_ptr<partitioned_driver<Distance>> partitioned_;  // made on first use
  double regions_built_ms_ = 0;    // what building partitioned_ took (host)
  bool regions_unusable_ = false;  // automatic: the partitioned driver cannot run on this GPU, or its regions do not fit
  double declined_setup_ms_ = 0;   // regions built and not used, not yet reported by a run
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
  err = cudaFuncGetAttributes(&attributes, gpu::clear_beyond<std::uint32_t>);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (why_not) *why_not = std::string("this build has no code for the CUDA device: ") + cudaGetErrorString(err);
    return false;
  }
  return true;
}

std::unique_ptr<gpu_engine> make_gpu_engine(const csr_view& g, const options& opts, bool wide_integers) {
  std::string why_not;
  if (!cuda_device_usable(&why_not)) throw std::runtime_error(why_not);
  if (g.num_vertices >= 0xFFFFFFF0u)
    throw std::length_error("the GPU solver handles graphs of fewer than 2^32 - 16 vertices");
  cudaStream_t stream = static_cast<cudaStream_t>(opts.stream);
  if (g.kind == graph::weight_kind::integer && (wide_integers || g.wide())) {
    if (g.space == memory_space::device) throw std::invalid_argument("a graph in device memory is solved in 32 bits");
    return std::make_unique<gpu::engine<std::uint64_t>>(g, opts, stream);
  }
  if (g.kind == graph::weight_kind::integer) return std::make_unique<gpu::engine<std::uint32_t>>(g, opts, stream);
  if (opts.real_type == distance_type::float64) return std::make_unique<gpu::engine<double>>(g, opts, stream);
  return std::make_unique<gpu::engine<float>>(g, opts, stream);
}

}  // namespace deltasplit::sssp::detail
