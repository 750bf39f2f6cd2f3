// strategy::phast on the host (see phast.hpp): the hierarchy, the CPU sweep with the cutoff and the
// shortest-path tree, and the hand-over to the GPU engine.
//
// The tree on the CPU follows the rule of gpu/predecessors.cuh: a vertex with a tight in-arc that
// increases the distance takes the lowest such tail (these parents can never close a cycle); the
// others are levelled by sweeps over tight arcs from vertices of a lower level (acyclic by the
// levels), which covers zero-weight cycles. Tight: exact for integer distances; within the
// validator's relative 1e-5 for real ones, since PHAST adds shortcut weights (float sums of several
// arcs) and a real distance may differ from every in-arc's sum in the last bits.
#include "sssp/phast.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <sys/stat.h>

#include "sssp/contraction_hierarchy.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/elapsed.hpp"
#include "sssp/hierarchy_file.hpp"
#include "sssp/phast_engine.hpp"
#include "sssp/shortest_path_tree.hpp"

namespace deltasplit::sssp::detail {

namespace {

// Whether a distance that does not fit is an error: not when the cutoff lies below the largest
// distance (the vertex is beyond the cutoff, so unreachable in the result).
template <class Distance>
bool overflow_matters(double cutoff) {
  return cutoff_distance<Distance>(cutoff) == cutoff_distance<Distance>(std::numeric_limits<double>::infinity());
}

template <class Policy>
void clear_beyond(typename Policy::distance* dist, vertex_t n, double cutoff) {
  if (std::isinf(cutoff)) return;
  const auto limit = cutoff_distance<typename Policy::distance>(cutoff);
  for (vertex_t v = 0; v < n; ++v)
    if (dist[v] > limit) dist[v] = Policy::infinity;
}

// The hierarchy of g: from opts.hierarchy_file when it exists, else contracted here (and written
// there when a file is named). `loaded` says which. A file that appears while the contraction runs
// (another process building the same hierarchy) is left as it is, and must be this graph's too.
template <class Weight>
contraction_hierarchy<Weight> obtain_hierarchy(const csr_view& g, const options& opts, bool& loaded) {
  const std::string& path = opts.hierarchy_file;
  loaded = false;
  if (path.empty()) return build_contraction_hierarchy<Weight>(g, opts.threads, opts.progress);
  const graph_fingerprint fingerprint = fingerprint_of(g);
  // Anything at the path (a dangling link included) is read, never built over.
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 || errno != ENOENT) {
    contraction_hierarchy<Weight> ch = read_hierarchy<Weight>(path, fingerprint);
    ch.one_based = g.one_based;
    loaded = true;
    return ch;
  }
  contraction_hierarchy<Weight> ch = build_contraction_hierarchy<Weight>(g, opts.threads, opts.progress);
  if (!write_hierarchy(path, ch, fingerprint)) read_hierarchy<Weight>(path, fingerprint);
  return ch;
}

}  // namespace

void check_hierarchy_file(const options& opts) {
  if (!opts.hierarchy_file.empty() && opts.how != strategy::phast)
    throw std::invalid_argument(std::string("a hierarchy file (") + opts.hierarchy_file +
                                ") is for strategy 'phast'; strategy '" + strategy_name(opts.how) +
                                "' builds no contraction hierarchy");
}

struct phast::sweep {
  virtual ~sweep() = default;
  virtual statistics run_into(vertex_t source, const options& opts, const output_buffers& out) = 0;
  virtual void cpu_row(unsigned member, vertex_t source, double cutoff, void* row) = 0;
  virtual void cpu_rows(unsigned member, const vertex_t* sources, std::size_t count, double cutoff,
                        void* const* rows) = 0;
  virtual void set_cpu_members(unsigned members) = 0;
  virtual void pairs(const vertex_t* from, const vertex_t* to, std::size_t count, void* out, unsigned threads) const = 0;
  virtual bool from_file() const = 0;
  std::unique_ptr<phast_engine> gpu;
};

namespace {

template <class Weight>
struct typed_sweep final : phast::sweep {
  using policy = distance_policy<Weight, Weight>;
  typed_sweep(const csr_view& graph, const options& opts, bool on_gpu)
      : g(graph), ch(obtain_hierarchy<Weight>(graph, opts, loaded)) {
    if (on_gpu) gpu = make_phast_engine(g, ch, opts);
    set_cpu_members(1);
  }

  // On the device when the sweeps run there (a warp a pair); the pairs it leaves, and every pair
  // of a hierarchy with a core, on the host threads.
  void pairs(const vertex_t* from, const vertex_t* to, std::size_t count, void* out, unsigned threads) const override {
    Weight* dist = static_cast<Weight*>(out);
    std::vector<std::size_t> left;
    if (gpu) {
      check_pair_vertices(ch.num_vertices, ch.one_based, from, to, count);
      if (gpu->pairs(from, to, count, dist, left)) {
        if (left.empty()) return;
        std::vector<vertex_t> f(left.size()), t(left.size());
        std::vector<Weight> d(left.size());
        for (std::size_t i = 0; i < left.size(); ++i) f[i] = from[left[i]], t[i] = to[left[i]];
        pair_distances(ch, f.data(), t.data(), left.size(), d.data(), threads);
        for (std::size_t i = 0; i < left.size(); ++i) dist[left[i]] = d[i];
        return;
      }
    }
    pair_distances(ch, from, to, count, dist, threads);
  }

  statistics run_into(vertex_t source, const options& opts, const output_buffers& out) override {
    if (gpu) return gpu->run_into(source, opts, out);
    if (out.space == memory_space::device)
      throw std::invalid_argument("run_into: output buffers in device memory need the GPU; this PHAST solver runs on the CPU");
    Weight* dist = distances_in<Weight>(out);
    const auto start = std::chrono::steady_clock::now();
    phast_cpu(ch, *searches.front(), source, dist, overflow_matters<Weight>(opts.cutoff));
    statistics st;
    st.milliseconds = ms_since(start);
    clear_beyond<policy>(dist, g.num_vertices, opts.cutoff);
    if (out.predecessors) tree_from_sweep(g, policy(weights_in<Weight>(g)), source, dist, out.predecessors);
    st.strategy = "phast";
    st.device = "cpu (1 thread)";
    st.iterations = ch.num_levels();
    st.edges_relaxed = ch.down_sources.size();
    st.vertices_processed = g.num_vertices;
    return st;
  }

  void cpu_row(unsigned member, vertex_t source, double cutoff, void* row) override {
    Weight* dist = static_cast<Weight*>(row);
    phast_cpu(ch, *searches.at(member), source, dist, overflow_matters<Weight>(cutoff));
    clear_beyond<policy>(dist, g.num_vertices, cutoff);
  }

  void cpu_rows(unsigned member, const vertex_t* sources, std::size_t count, double cutoff,
                void* const* rows) override {
    Weight* outs[phast_group];
    for (std::size_t i = 0; i < count && i < phast_group; ++i) outs[i] = static_cast<Weight*>(rows[i]);
    phast_cpu_group(ch, *searches.at(member), sources, count, outs, overflow_matters<Weight>(cutoff));
    for (std::size_t i = 0; i < count; ++i) clear_beyond<policy>(outs[i], g.num_vertices, cutoff);
  }

  bool from_file() const override { return loaded; }

  void set_cpu_members(unsigned members) override {
    while (searches.size() < members) searches.push_back(std::make_unique<upward_search<Weight>>(ch));
  }

  csr_view g;
  bool loaded = false;
  contraction_hierarchy<Weight> ch;
  std::vector<std::unique_ptr<upward_search<Weight>>> searches;
};

}  // namespace

phast::phast(const csr_view& g, const options& opts, bool gpu) {
  if (g.space != memory_space::host)
    throw std::invalid_argument("strategy 'phast' contracts the graph on the host; it cannot read a graph in device memory");
  const distance_type type = distance_type_for(g, opts.real_type);
  // float64 through shortcuts would re-associate the sums, so its distances would not be the
  // left-to-right sums every other solver gives: refused.
  if (type == distance_type::float64)
    throw std::invalid_argument("strategy 'phast' computes uint32, uint64 and float32 distances; this graph's "
                                "distances are float64, which a sum through a shortcut would not give exactly (ask "
                                "for float32 distances: dtype=numpy.float32 in Python, --precision single, "
                                "options::real_type; or another strategy for exact float64)");
  const auto start = std::chrono::steady_clock::now();
  if (type == distance_type::uint64) {
    // Integer weights whose paths may pass 2^32 - 2: a hierarchy of 64-bit weights (32-bit weights
    // widened into one).
    csr_view wide = g;
    if (!g.wide()) {
      widened_.assign(g.int_weights.begin(), g.int_weights.end());
      wide.width = graph::weight_width::wide;
      wide.int_weights = {};
      wide.uint64_weights = span<std::uint64_t>(widened_.data(), widened_.size());
    }
    sweep_ = std::make_unique<typed_sweep<std::uint64_t>>(wide, opts, gpu);
  } else if (g.kind == graph::weight_kind::integer) {
    sweep_ = std::make_unique<typed_sweep<std::uint32_t>>(g, opts, gpu);
  } else {
    sweep_ = std::make_unique<typed_sweep<float>>(g, opts, gpu);
  }
  setup_ms_ = ms_since(start);
  setup_ = sweep_->from_file() ? "loaded" : "built";
  file_ = opts.hierarchy_file;
}

phast::~phast() = default;

bool phast::on_gpu() const { return sweep_->gpu != nullptr; }

statistics phast::run_into(vertex_t source, const options& opts, const output_buffers& out) {
  statistics st = sweep_->run_into(source, opts, out);
  st.setup_ms = setup_ms_;
  st.setup = setup_;
  return st;
}

many_sources_engine* phast::batches() const { return sweep_->gpu.get(); }

void phast::cpu_row(unsigned member, vertex_t source, double cutoff, void* row) {
  sweep_->cpu_row(member, source, cutoff, row);
}

void phast::set_cpu_members(unsigned members) { sweep_->set_cpu_members(members); }

void phast::cpu_rows(unsigned member, const vertex_t* sources, std::size_t count, double cutoff, void* const* rows) {
  sweep_->cpu_rows(member, sources, count, cutoff, rows);
}

void phast::pairs(const vertex_t* from, const vertex_t* to, std::size_t count, void* out, unsigned threads) const {
  sweep_->pairs(from, to, count, out, threads);
}

}  // namespace deltasplit::sssp::detail
