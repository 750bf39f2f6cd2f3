// The public entry points: where a solve runs (GPU engine, CPU delta-stepping or Dijkstra) and
// the checks that make a bad graph, source or option an exception rather than a wrong answer.
//
// Dispatch: a GPU strategy runs on the GPU when options.device is gpu, or automatic and a device
// is usable; otherwise (device cpu, or automatic without a GPU) the CPU delta-stepping solver
// runs in its place and stats.strategy says "cpu". device gpu without a usable device throws
// with the reason. The CPU strategies (cpu, dijkstra) always run on the CPU; asking for them
// with device gpu is a contradiction and throws. phast (sssp/phast.hpp) contracts the graph when
// the solver is built and sweeps on the GPU under the same rule as the GPU strategies, else on the
// CPU; the solver's side (GPU or CPU) is fixed when it is built.
//
// Distance types (sssp.hpp): the type is fixed when the solver is built (distance_type_for).
// float64 runs on the GPU engine (gpu/engine.cu) under the GPU strategies' rule above.
// uint64 runs on the GPU engine in 64 bits: 32-bit weights in uint32 first (widened when no
// distance passes 2^32 - 2; a solve that does pass it runs again in 64 bits, and so do the solver's
// later sources), 64-bit weights directly. PHAST runs uint32, uint64 and float32 on either side
// (float64 it refuses: phast.cpp). float32 on double weights solves on a
// copy of the weights rounded to float (what the GPU engine and PHAST read), made once per solver.
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "deltasplit/sssp.hpp"
#include "sssp/delta_stepping_cpu.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/gpu_engine.hpp"
#include "sssp/graph_check.hpp"
#include "sssp/phast.hpp"

namespace deltasplit::sssp {

bool gpu_available(std::string* why_not) { return detail::cuda_device_usable(why_not); }

struct solver::impl {
  impl(const csr_view& graph, const options& o) : g(graph), opts(o) {}
  csr_view g;  // the caller's graph, or its weights narrowed to float (narrowed)
  options opts;
  distance_type type = distance_type::uint32;
  std::vector<float> narrowed;
  bool gpu_side = false;  // the solver runs on the GPU (fixed when built)
  // uint64 distances of 32-bit integer weights: the GPU engine (gpu) is the 32-bit one, whose
  // solves go into `narrow` and are widened (run_into); a solve that passes 2^32 - 2 runs again on
  // `wide_gpu` (uint64 distances, made when first needed).
  bool widened() const { return type == distance_type::uint64 && !g.wide(); }
  std::vector<std::uint32_t> narrow;
  // A 32-bit solve of this graph passed 2^32 - 2: the graph's paths are long, so later sources go
  // to 64 bits directly instead of paying for a 32-bit attempt first (bench/results/distance_width.md).
  bool overflowed_before = false;
  std::unique_ptr<detail::gpu_engine> wide_gpu;
  std::unique_ptr<detail::gpu_engine> gpu;
  std::unique_ptr<detail::delta_stepping_cpu> cpu;
  std::unique_ptr<detail::phast> phast;  // strategy phast: the hierarchy, built on first use
};

csr_view::csr_view(const graph::csr& g)
    : num_vertices(g.num_vertices),
      offsets(g.offsets),
      targets(g.targets),
      kind(g.kind),
      width(g.width),
      int_weights(g.int_weights),
      real_weights(g.real_weights),
      uint64_weights(g.uint64_weights),
      float64_weights(g.float64_weights),
      one_based(g.origin.one_based),
      symmetric(g.origin.symmetric) {
  if (g.signed_weights)
    throw std::invalid_argument("a graph read with negative weights (read_options::negative_weights): these solvers "
                                "need non-negative weights; sssp/negative_weights.hpp solves it");
}

namespace {
void check_options(const options& o) {
  strategy_name(o.how);  // throws on a value outside the enum
  if (std::isnan(o.tune.delta) || o.tune.delta < 0 || std::isinf(o.tune.delta))
    throw std::invalid_argument("delta must be a positive number, or 0 for auto; got " + std::to_string(o.tune.delta));
  if (o.tune.buckets == 0) throw std::invalid_argument("the number of buckets must be at least 1");
  if (o.tune.light != light_phase::automatic && o.tune.light != light_phase::block && o.tune.light != light_phase::cluster)
    throw std::invalid_argument("light phase: expected automatic, block or cluster");
  if (o.tune.cluster_blocks != 0 && o.tune.cluster_blocks != 1 && o.tune.cluster_blocks != 8 && o.tune.cluster_blocks != 16)
    throw std::invalid_argument("cluster blocks must be 0 (automatic), 1, 8 or 16; got " +
                                std::to_string(o.tune.cluster_blocks));
  heavy_relaxation_name(o.tune.heavy);  // throws on a value outside the enum
  if (o.tune.light == light_phase::block && o.tune.cluster_blocks == 1)
    throw std::invalid_argument("the block-by-block light phase needs a cluster of at least 4 blocks, not 1");
  if (std::isnan(o.cutoff) || o.cutoff < 0)
    throw std::invalid_argument("the distance cutoff must be >= 0 (or +inf for none); got " + std::to_string(o.cutoff));
  if (o.real_type != distance_type::float32 && o.real_type != distance_type::float64)
    throw std::invalid_argument("options::real_type must be float32 or float64");
  detail::check_hierarchy_file(o);  // a hierarchy file goes with strategy phast only
}

const char* const widened_on_gpu = "solved on the GPU in 32 bits (no distance past 2^32 - 2) and widened to uint64";
const char* const past_32_bits = "a distance past 2^32 - 2: solved again on the GPU in 64 bits";
const char* const long_paths = "solved on the GPU in 64 bits (a distance of an earlier solve passed 2^32 - 2)";

// Vertices past the cutoff become unreachable (CPU results; the GPU engine does this on the device).
template <class Distance>
void clear_beyond(std::vector<Distance>& dist, std::vector<vertex_t>& parent, double cutoff, Distance infinity) {
  if (std::isinf(cutoff)) return;
  for (std::size_t v = 0; v < dist.size(); ++v)
    if (dist[v] != infinity && static_cast<double>(dist[v]) > cutoff) {
      dist[v] = infinity;
      if (!parent.empty()) parent[v] = graph::invalid_vertex;
    }
}

template <class T>
void copy_out(const std::vector<T>& from, T* to) {
  if (!from.empty()) std::memcpy(to, from.data(), from.size() * sizeof(T));
}
}  // namespace

namespace detail {

csr_view narrow_weights(const csr_view& g, std::vector<float>& storage) {
  storage.resize(g.float64_weights.size());
  for (std::size_t e = 0; e < storage.size(); ++e) storage[e] = static_cast<float>(g.float64_weights[e]);
  csr_view v = g;
  v.width = graph::weight_width::narrow;
  v.float64_weights = {};
  v.real_weights = span<float>(storage.data(), storage.size());
  return v;
}

}  // namespace detail

solver::solver(const graph::csr& g, const options& opts) : solver(csr_view(g), opts) {}

solver::solver(const csr_view& view, const options& opts) : impl_(std::make_unique<impl>(view, opts)) {
  check_options(opts);
  const bool device_graph = view.space == memory_space::device;
  if (!device_graph) detail::check_graph(view);  // a device view is checked on the device by the engine
  if (device_graph && view.kind == graph::weight_kind::real && opts.real_type != distance_type::float32)
    throw std::invalid_argument("a graph in device memory is solved on the GPU, in float32 for real weights: "
                                "set options::real_type to float32");
  const distance_type type = impl_->type = distance_type_for(view, opts.real_type);
  if (type == distance_type::float32 && view.wide()) impl_->g = detail::narrow_weights(view, impl_->narrowed);
  const csr_view& g = impl_->g;
  if (opts.how == strategy::phast) {
    std::string why_not;
    impl_->gpu_side = opts.device != device_kind::cpu && gpu_available(&why_not);
    if (opts.device == device_kind::gpu && !impl_->gpu_side)
      throw std::runtime_error("strategy 'phast' with device gpu needs a GPU: " + why_not);
    impl_->phast = std::make_unique<detail::phast>(g, opts, impl_->gpu_side);
    impl_->gpu_side = impl_->phast->on_gpu();
    return;
  }
  if (!is_gpu_strategy(opts.how)) {
    if (opts.device == device_kind::gpu)
      throw std::invalid_argument(std::string("strategy '") + strategy_name(opts.how) +
                                  "' runs on the CPU; it cannot be combined with device gpu");
    if (device_graph)
      throw std::invalid_argument(std::string("strategy '") + strategy_name(opts.how) +
                                  "' runs on the CPU; it cannot read a graph in device memory");
    if (opts.how == strategy::delta_stepping_cpu) impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(g, opts.threads, detail::cpu_tuning{}, opts.real_type);
    return;
  }
  // Integer weights of 32 bits whose paths might pass 2^32 - 2 by distance_type_for's bound, which
  // is loose on large graphs (the sum of the rows' heaviest arcs): the GPU engine solves them in 32
  // bits, where any distance past 2^32 - 2 is found exactly (distance_overflow, distance.cuh), and
  // the result is widened; only a solve that does pass it runs again in 64 bits (run_into). 64-bit
  // weights take the uint64 engine directly (make_gpu_engine).
  std::string why_not;
  bool usable = opts.device != device_kind::cpu && gpu_available(&why_not);
  if (device_graph && !usable)
    throw std::invalid_argument("a graph in device memory needs the GPU solver" +
                                (opts.device == device_kind::cpu ? std::string(" (device cpu was asked for)")
                                                                 : ": " + why_not));
  if (opts.device == device_kind::gpu && !usable)
    throw std::runtime_error(std::string("strategy '") + strategy_name(opts.how) + "' needs a GPU: " + why_not);
  impl_->gpu_side = usable;
  if (!is_wide(type)) detail::require_narrow(g, "the GPU engine");
  if (usable)
    impl_->gpu = detail::make_gpu_engine(g, opts);
  else
    impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(g, opts.threads, detail::cpu_tuning{}, opts.real_type);
}

solver::~solver() = default;
solver::solver(solver&&) noexcept = default;
solver& solver::operator=(solver&&) noexcept = default;

void solver::set_options(const options& o) {
  check_options(o);
  const options& was = impl_->opts;
  if (o.device != was.device || o.stream != was.stream || o.threads != was.threads || o.real_type != was.real_type)
    throw std::invalid_argument("set_options: device, stream, threads and real_type are fixed when a solver is built");
  const bool gpu_side = impl_->gpu_side;
  if (gpu_side && !runs_on_gpu(o.how))
    throw std::invalid_argument(std::string("set_options: this solver runs on the GPU; strategy '") +
                                strategy_name(o.how) + "' runs on the CPU");
  // phast: the hierarchy once, or again from another hierarchy file.
  if (o.how == strategy::phast &&
      (!impl_->phast || (!o.hierarchy_file.empty() && o.hierarchy_file != impl_->phast->hierarchy_file())))
    impl_->phast = std::make_unique<detail::phast>(impl_->g, o, gpu_side);
  if (gpu_side && is_gpu_strategy(o.how) && !impl_->gpu) impl_->gpu = detail::make_gpu_engine(impl_->g, o);
  if (!gpu_side && o.how != strategy::dijkstra && o.how != strategy::phast && !impl_->cpu)
    impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(impl_->g, o.threads, detail::cpu_tuning{}, o.real_type);
  impl_->opts = o;
}

const options& solver::settings() const { return impl_->opts; }
bool solver::on_gpu() const { return impl_->gpu_side; }

result solver::run(vertex_t source) {
  const csr_view& g = impl_->g;
  detail::check_source(g, source);
  result r;
  r.type = impl_->type;
  output_buffers out;
  detail::with_distance_type(r.type, [&](auto d) {
    using D = decltype(d);
    auto& dist = detail::distances_in<D>(r);
    dist.resize(g.num_vertices);
    detail::distances_in<D>(out) = dist.data();
  });
  if (impl_->opts.predecessors) {
    r.predecessors.resize(g.num_vertices);
    out.predecessors = r.predecessors.data();
  }
  r.stats = run_into(source, out);
  return r;
}

statistics solver::run_into(vertex_t source, const output_buffers& out) {
  const csr_view& g = impl_->g;
  const options& o = impl_->opts;
  detail::check_source(g, source);
  const distance_type type = impl_->type;
  const bool missing = detail::with_distance_type(type, [&](auto d) {
    return detail::distances_in<decltype(d)>(out) == nullptr;
  });
  if (g.num_vertices && missing) {
    static const char* const field[] = {"int_distances", "uint64_distances", "real_distances", "float64_distances"};
    throw std::invalid_argument(std::string("run_into: this solver's distances are ") + distance_type_name(type) +
                                "; output_buffers." + field[static_cast<int>(type)] + " must point to " +
                                std::to_string(g.num_vertices) + " entries");
  }
  if (o.how == strategy::phast) {
    statistics st = impl_->phast->run_into(source, o, out);
    st.distance_type = distance_type_name(type);
    return st;
  }
  if (impl_->gpu && !impl_->widened()) {
    // st.strategy is the frontier manager, or empty under a driver that keeps none (gpu/engine.cu).
    statistics st = impl_->gpu->run_into(source, o, out);
    if (st.device.empty()) st.device = impl_->gpu->device_name();
    st.distance_type = distance_type_name(type);
    return st;
  }
  // uint64 distances of 32-bit weights (widened): a 32-bit solve widened on the host, or, once a
  // solve passed 2^32 - 2 (and for device outputs, which the host does not widen), the uint64 engine.
  if (impl_->gpu && impl_->widened()) {
    const auto in_64_bits = [&](const char* note) {
      if (!impl_->wide_gpu) impl_->wide_gpu = detail::make_gpu_engine(g, o, true);
      statistics st = impl_->wide_gpu->run_into(source, o, out);
      if (st.device.empty()) st.device = impl_->wide_gpu->device_name();
      st.distance_type = distance_type_name(type);
      st.note = note;
      return st;
    };
    if (impl_->overflowed_before) return in_64_bits(long_paths);
    if (out.space == memory_space::device) return in_64_bits("");
    std::vector<std::uint32_t>& narrow = impl_->narrow;
    narrow.resize(g.num_vertices);
    output_buffers narrow_out = out;
    narrow_out.int_distances = narrow.data();
    narrow_out.uint64_distances = nullptr;
    try {
      statistics st = impl_->gpu->run_into(source, o, narrow_out);
      for (std::size_t v = 0; v < narrow.size(); ++v)
        out.uint64_distances[v] = narrow[v] == int_infinity ? uint64_infinity : narrow[v];
      if (st.device.empty()) st.device = impl_->gpu->device_name();
      st.distance_type = distance_type_name(type);
      st.note = widened_on_gpu;
      return st;
    } catch (const distance_overflow&) {
      impl_->overflowed_before = true;
      return in_64_bits(past_32_bits);
    }
  }
  if (out.space == memory_space::device)
    throw std::invalid_argument("run_into: output buffers in device memory need the GPU solver; this one runs on the CPU");
  const bool tree = out.predecessors != nullptr;
  result r = o.how == strategy::dijkstra ? detail::dijkstra_typed(g, source, tree, type)
                                         : impl_->cpu->run(source, o.tune.delta, tree, o.cutoff);
  detail::with_distance_type(type, [&](auto d) {
    using D = decltype(d);
    clear_beyond(detail::distances_in<D>(r), r.predecessors, o.cutoff, detail::distance_limits<D>::infinity);
    copy_out(detail::distances_in<D>(r), detail::distances_in<D>(out));
  });
  if (tree) copy_out(r.predecessors, out.predecessors);
  return r.stats;
}

result solve(const csr_view& g, vertex_t source, const options& opts) { return solver(g, opts).run(source); }

}  // namespace deltasplit::sssp
