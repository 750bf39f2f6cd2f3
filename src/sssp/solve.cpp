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
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "deltasplit/sssp.hpp"
#include "sssp/delta_stepping_cpu.hpp"
#include "sssp/gpu_engine.hpp"
#include "sssp/graph_check.hpp"
#include "sssp/phast.hpp"

namespace deltasplit::sssp {

bool gpu_available(std::string* why_not) { return detail::cuda_device_usable(why_not); }

struct solver::impl {
  impl(const csr_view& graph, const options& o) : g(graph), opts(o) {}
  csr_view g;
  options opts;
  bool gpu_side = false;  // the solver runs on the GPU (fixed when built)
  std::unique_ptr<detail::gpu_engine> gpu;
  std::unique_ptr<detail::delta_stepping_cpu> cpu;
  std::unique_ptr<detail::phast> phast;  // strategy phast: the hierarchy, built on first use
};

csr_view::csr_view(const graph::csr& g)
    : num_vertices(g.num_vertices),
      offsets(g.offsets),
      targets(g.targets),
      kind(g.kind),
      int_weights(g.int_weights),
      real_weights(g.real_weights),
      one_based(g.origin.one_based),
      symmetric(g.origin.symmetric) {}

namespace {
void check_options(const options& o) {
  strategy_name(o.how);  // throws on a value outside the enum
  if (std::isnan(o.delta) || o.delta < 0 || std::isinf(o.delta))
    throw std::invalid_argument("delta must be a positive number, or 0 for auto; got " + std::to_string(o.delta));
  if (o.buckets == 0) throw std::invalid_argument("the number of buckets must be at least 1");
  if (o.light != light_phase::automatic && o.light != light_phase::block && o.light != light_phase::cluster)
    throw std::invalid_argument("light phase: expected automatic, block or cluster");
  if (o.cluster_blocks != 0 && o.cluster_blocks != 1 && o.cluster_blocks != 8 && o.cluster_blocks != 16)
    throw std::invalid_argument("cluster blocks must be 0 (automatic), 1, 8 or 16; got " +
                                std::to_string(o.cluster_blocks));
  heavy_relaxation_name(o.heavy);  // throws on a value outside the enum
  if (o.light == light_phase::block && o.cluster_blocks == 1)
    throw std::invalid_argument("the block-by-block light phase needs a cluster of at least 4 blocks, not 1");
  if (std::isnan(o.cutoff) || o.cutoff < 0)
    throw std::invalid_argument("the distance cutoff must be >= 0 (or +inf for none); got " + std::to_string(o.cutoff));
  detail::check_hierarchy_file(o);  // a hierarchy file goes with strategy phast only
}

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

solver::solver(const graph::csr& g, const options& opts) : solver(csr_view(g), opts) {}

solver::solver(const csr_view& g, const options& opts) : impl_(std::make_unique<impl>(g, opts)) {
  check_options(opts);
  const bool device_graph = g.space == memory_space::device;
  if (!device_graph) detail::check_graph(g);  // a device view is checked on the device by the engine
  if (opts.how == strategy::phast) {
    std::string why_not;
    impl_->gpu_side = opts.device != device_kind::cpu && gpu_available(&why_not);
    if (opts.device == device_kind::gpu && !impl_->gpu_side)
      throw std::runtime_error("strategy 'phast' with device gpu needs a GPU: " + why_not);
    impl_->phast = std::make_unique<detail::phast>(g, opts, impl_->gpu_side);
    return;
  }
  if (!is_gpu_strategy(opts.how)) {
    if (opts.device == device_kind::gpu)
      throw std::invalid_argument(std::string("strategy '") + strategy_name(opts.how) +
                                  "' runs on the CPU; it cannot be combined with device gpu");
    if (device_graph)
      throw std::invalid_argument(std::string("strategy '") + strategy_name(opts.how) +
                                  "' runs on the CPU; it cannot read a graph in device memory");
    if (opts.how == strategy::delta_stepping_cpu) impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(g, opts.threads);
    return;
  }
  std::string why_not;
  bool usable = opts.device != device_kind::cpu && gpu_available(&why_not);
  if (device_graph && !usable)
    throw std::invalid_argument("a graph in device memory needs the GPU solver" +
                                (opts.device == device_kind::cpu ? std::string(" (device cpu was asked for)")
                                                                 : ": " + why_not));
  if (opts.device == device_kind::gpu && !usable)
    throw std::runtime_error(std::string("strategy '") + strategy_name(opts.how) + "' needs a GPU: " + why_not);
  impl_->gpu_side = usable;
  if (usable)
    impl_->gpu = detail::make_gpu_engine(g, opts);
  else
    impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(g, opts.threads);
}

solver::~solver() = default;
solver::solver(solver&&) noexcept = default;
solver& solver::operator=(solver&&) noexcept = default;

void solver::set_options(const options& o) {
  check_options(o);
  const options& was = impl_->opts;
  if (o.device != was.device || o.stream != was.stream || o.threads != was.threads)
    throw std::invalid_argument("set_options: device, stream and threads are fixed when a solver is built");
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
    impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(impl_->g, o.threads);
  impl_->opts = o;
}

const options& solver::settings() const { return impl_->opts; }
bool solver::on_gpu() const { return impl_->gpu_side; }

result solver::run(vertex_t source) {
  const csr_view& g = impl_->g;
  detail::check_source(g, source);
  result r;
  r.kind = g.kind;
  output_buffers out;
  if (g.kind == graph::weight_kind::integer) {
    r.int_distances.resize(g.num_vertices);
    out.int_distances = r.int_distances.data();
  } else {
    r.real_distances.resize(g.num_vertices);
    out.real_distances = r.real_distances.data();
  }
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
  const bool integer = g.kind == graph::weight_kind::integer;
  if (g.num_vertices && (integer ? out.int_distances == nullptr : out.real_distances == nullptr))
    throw std::invalid_argument(std::string("run_into: the graph has ") + (integer ? "integer" : "real") +
                                " weights; output_buffers." + (integer ? "int_distances" : "real_distances") +
                                " must point to " + std::to_string(g.num_vertices) + " entries");
  if (o.how == strategy::phast) return impl_->phast->run_into(source, o, out);
  if (impl_->gpu) {
    statistics st = impl_->gpu->run_into(source, o, out);
    if (st.strategy.empty()) st.strategy = strategy_name(o.how);
    if (st.device.empty()) st.device = impl_->gpu->device_name();
    return st;
  }
  if (out.space == memory_space::device)
    throw std::invalid_argument("run_into: output buffers in device memory need the GPU solver; this one runs on the CPU");
  const bool tree = out.predecessors != nullptr;
  result r = o.how == strategy::dijkstra ? dijkstra(g, source, tree) : impl_->cpu->run(source, o.delta, tree, o.cutoff);
  if (integer) {
    clear_beyond(r.int_distances, r.predecessors, o.cutoff, int_infinity);
    copy_out(r.int_distances, out.int_distances);
  } else {
    clear_beyond(r.real_distances, r.predecessors, o.cutoff, std::numeric_limits<float>::infinity());
    copy_out(r.real_distances, out.real_distances);
  }
  if (tree) copy_out(r.predecessors, out.predecessors);
  return r.stats;
}

result solve(const csr_view& g, vertex_t source, const options& opts) { return solver(g, opts).run(source); }

}  // namespace deltasplit::sssp
