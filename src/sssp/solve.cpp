// The public entry points: where a solve runs (GPU engine, CPU delta-stepping or Dijkstra) and
// the checks that make a bad graph, source or option an exception rather than a wrong answer.
//
// Dispatch: a GPU strategy runs on the GPU when options.device is gpu, or automatic and a device
// is usable; otherwise (device cpu, or automatic without a GPU) the CPU delta-stepping solver
// runs in its place and stats.strategy says "cpu". device gpu without a usable device throws
// with the reason. The CPU strategies (cpu, dijkstra) always run on the CPU; asking for them
// with device gpu is a contradiction and throws.
#include <cmath>
#include <stdexcept>
#include <string>

#include "deltasplit/sssp.hpp"
#include "sssp/delta_stepping_cpu.hpp"
#include "sssp/gpu_engine.hpp"
#include "sssp/graph_check.hpp"

namespace deltasplit::sssp {

bool gpu_available(std::string* why_not) { return detail::cuda_device_usable(why_not); }

struct solver::impl {
  impl(const graph::csr& graph, const options& o) : g(graph), opts(o) {}
  const graph::csr& g;
  options opts;
  std::unique_ptr<detail::gpu_engine> gpu;
  std::unique_ptr<detail::delta_stepping_cpu> cpu;
};

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
  if (o.light == light_phase::block && o.cluster_blocks == 1)
    throw std::invalid_argument("the block-by-block light phase needs a cluster of at least 4 blocks, not 1");
}
}  // namespace

solver::solver(const graph::csr& g, const options& opts) : impl_(std::make_unique<impl>(g, opts)) {
  check_options(opts);
  detail::check_graph(g);
  if (!is_gpu_strategy(opts.how)) {
    if (opts.device == device_kind::gpu)
      throw std::invalid_argument(std::string("strategy '") + strategy_name(opts.how) +
                                  "' runs on the CPU; it cannot be combined with device gpu");
    if (opts.how == strategy::delta_stepping_cpu) impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(g, opts.threads);
    return;
  }
  std::string why_not;
  bool usable = opts.device != device_kind::cpu && gpu_available(&why_not);
  if (opts.device == device_kind::gpu && !usable)
    throw std::runtime_error(std::string("strategy '") + strategy_name(opts.how) + "' needs a GPU: " + why_not);
  if (usable)
    impl_->gpu = detail::make_gpu_engine(g, opts);
  else
    impl_->cpu = std::make_unique<detail::delta_stepping_cpu>(g, opts.threads);
}

solver::~solver() = default;
solver::solver(solver&&) noexcept = default;
solver& solver::operator=(solver&&) noexcept = default;

const options& solver::settings() const { return impl_->opts; }
bool solver::on_gpu() const { return impl_->gpu != nullptr; }

result solver::run(vertex_t source) {
  const graph::csr& g = impl_->g;
  detail::check_source(g, source);
  if (impl_->gpu) {
    result r = impl_->gpu->run(source, impl_->opts);
    if (r.stats.strategy.empty()) r.stats.strategy = strategy_name(impl_->opts.how);
    if (r.stats.device.empty()) r.stats.device = impl_->gpu->device_name();
    return r;
  }
  if (impl_->cpu) return impl_->cpu->run(source, impl_->opts.delta, impl_->opts.predecessors);
  return dijkstra(g, source, impl_->opts.predecessors);
}

result solve(const graph::csr& g, vertex_t source, const options& opts) { return solver(g, opts).run(source); }

}  // namespace deltasplit::sssp
