// Many-source shortest paths (deltasplit/many_sources.hpp): the checks, the batch size, the
// dispatch to the GPU engine (sssp/gpu/many_sources/many_sources.cu) or the CPU fallback, the OD table and the
// row validator.
//
// CPU fallback: one binary-heap Dijkstra per source, the sources of a batch shared out over the
// threads of one team (sources are independent, so this scales with the threads; the
// multi-threaded delta-stepping solver would split one source's work instead, which pays only when
// there are fewer sources than threads). Rows are Dijkstra's distances bit for bit; each search
// stops at opts.cutoff (dijkstra_row).
//
// opts.how == phast (sssp/phast.hpp): the hierarchy is built (or loaded from opts.hierarchy_file)
// with the object; on the GPU the sources go in PHAST batches (sssp/gpu/phast/phast.cu), on the CPU each
// thread sweeps phast_group sources at a time (phast_cpu_group). Vertices farther than opts.cutoff read
// unreachable.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "deltasplit/many_sources.hpp"
#include "sssp/contraction_hierarchy.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/graph_check.hpp"
#include "sssp/many_sources_engine.hpp"
#include "sssp/phast.hpp"
#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp {

namespace {

void check_cutoff(double cutoff) {
  if (std::isnan(cutoff) || cutoff < 0)
    throw std::invalid_argument("the distance cutoff must be >= 0 (or +inf for none); got " + std::to_string(cutoff));
}

// The automatic batch size: at most this many sources. The size matters little while it covers the
// sources (bench/results/many_sources.md, batch sizes of call 1), and a batch pays its iterations
// (about 3,000 on NY) once, so the many-source runs take the largest batch that memory allows, up
// to 4096 (all NY sources: 65 batches). 4096 was not compared with 1024 on the same code.
constexpr std::uint32_t max_auto_batch = 4096;
// Row summaries on PHAST's GPU batches (no rows, so no output block): at most this many sources a
// batch; 8192 beat 4096 on all pairs of USA-road-d.NY (bench/results/phast.md, "All pairs reduced
// in the engine").
constexpr std::uint32_t max_auto_summary_batch = 8192;
// Sources per batch on the CPU: the host block and the rows of one round of the threads.
constexpr std::uint32_t cpu_batch = 256;
// A thread's PHAST group distances (num_vertices x phast_group) at most this many bytes: road-FLA's
// are 34 MB (uint32), a 24-million-vertex road network's 768 MB a thread, where one source a sweep
// (about 13 bytes a vertex a thread) is kept instead.
constexpr std::uint64_t phast_group_bytes = std::uint64_t{256} << 20;

// One row's summary (row_summaries): its entries that are finite and at most the cutoff, in order;
// integer sums in 64 bits (wrapped: one passed 2^64 - 1), real ones in double.
template <class D>
struct row_summary {
  using value = std::conditional_t<std::is_integral_v<D>, std::uint64_t, double>;
  std::uint64_t reached = 0;
  value sum = 0, farthest = 0;
  bool wrapped = false;
};

template <class D>
row_summary<D> summarize_row(const D* row, std::size_t n, double cutoff) {
  const D bound = detail::cutoff_distance<D>(cutoff);  // infinity lies above it
  row_summary<D> r;
  for (std::size_t v = 0; v < n; ++v) {
    const D x = row[v];
    if (x > bound) continue;
    ++r.reached;
    const typename row_summary<D>::value next = r.sum + x;
    if constexpr (std::is_integral_v<D>) r.wrapped |= next < r.sum;
    r.sum = next;
    r.farthest = std::max<typename row_summary<D>::value>(r.farthest, x);
  }
  return r;
}

std::uint32_t round_up_32(std::uint64_t x) { return static_cast<std::uint32_t>(std::min<std::uint64_t>((x + 31) / 32 * 32, 0xFFFFFFE0u)); }

void check_vertices(const graph::csr& g, const std::vector<vertex_t>& ids, const char* what) {
  for (vertex_t v : ids)
    if (v >= g.num_vertices)
      throw std::out_of_range(std::string(what) + " " + std::to_string(v) + " is not a vertex (the graph has " +
                              std::to_string(g.num_vertices) + " vertices)");
}

// g with its double weights rounded to float: the graph of a float32 solve on wide real weights
// (a copy: the GPU engines keep a reference to a graph::csr).
graph::csr narrowed_copy(const graph::csr& g) {
  graph::csr n;
  n.num_vertices = g.num_vertices;
  n.offsets = g.offsets;
  n.targets = g.targets;
  n.kind = g.kind;
  n.real_weights.assign(g.float64_weights.begin(), g.float64_weights.end());
  n.origin = g.origin;
  return n;
}

}  // namespace

namespace detail {

std::size_t many_sources_batch_bytes(const graph::csr& g, std::uint32_t k, std::size_t columns,
                                     std::size_t distance_bytes) {
  const std::size_t cells = std::size_t{g.num_vertices} * k;
  return cells * distance_bytes    // distances
         + cells / 32 * 44         // per item: dirty, stamp, far mark, 3 near, 2 far, 1 wide queue slots, a lane task
         + many_sources_chunk_capacity(g.num_arcs(), k) * 16  // chunks of high-degree vertices
         + std::size_t{k} * columns * distance_bytes;         // the row-major output block
}

}  // namespace detail

struct many_sources::impl {
  impl(const graph::csr& graph, const options& o, const many_source_options& m) : g(&graph), opts(o), mopts(m) {}
  const graph::csr* g;  // the caller's graph, or `narrowed`
  graph::csr narrowed;  // float32 on wide real weights (narrowed_copy)
  distance_type type = distance_type::uint32;
  options opts;
  many_source_options mopts;
  std::unique_ptr<detail::many_sources_engine> gpu;  // batched delta-stepping
  std::unique_ptr<detail::thread_pool> pool;
  std::unique_ptr<detail::phast> phast;  // opts.how == phast
  // The GPU engine that solves the batches (delta-stepping's or phast's); null on the CPU.
  detail::many_sources_engine* batches() const { return gpu ? gpu.get() : phast ? phast->batches() : nullptr; }

  // many_sources::batch_size with the automatic size at most `most`.
  std::uint32_t batch_size(const many_sources& ms, std::size_t sources, std::size_t targets, std::uint32_t most) const;

  // rows_given: the caller's host rows (every vertex a target), solved into in place; else null.
  void run_cpu(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, const block_consumer& consume,
               void* rows_given = nullptr);
  template <class Distance>
  void run_cpu_typed(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets,
                     const block_consumer& consume, Distance* rows_given);
};

many_sources::many_sources(const graph::csr& g, const options& opts, const many_source_options& mopts)
    : impl_(std::make_unique<impl>(g, opts, mopts)) {
  if (std::isnan(opts.tune.delta) || opts.tune.delta < 0 || std::isinf(opts.tune.delta))
    throw std::invalid_argument("delta must be a positive number, or 0 for auto; got " + std::to_string(opts.tune.delta));
  detail::check_graph(g);
  if (opts.real_type != distance_type::float32 && opts.real_type != distance_type::float64)
    throw std::invalid_argument("options::real_type must be float32 or float64");
  const distance_type type = impl_->type = distance_type_for(g, opts.real_type);
  if (type == distance_type::float32 && g.wide()) {
    impl_->narrowed = narrowed_copy(g);
    impl_->g = &impl_->narrowed;
  }
  // Every distance type runs on the GPU's engines (uint64 in 64 bits throughout).
  std::string why_not;
  const bool usable = opts.device != device_kind::cpu && gpu_available(&why_not);
  if (opts.device == device_kind::gpu && !usable) throw std::runtime_error("many-source shortest paths on the GPU: " + why_not);
  if (mopts.device_blocks && !usable)
    throw std::invalid_argument("device blocks need the GPU" + (why_not.empty() ? std::string() : ": " + why_not));
  check_cutoff(opts.cutoff);
  detail::check_hierarchy_file(opts);
  const graph::csr& solved = *impl_->g;
  if (opts.how == strategy::phast) {
    impl_->phast = std::make_unique<detail::phast>(solved, opts, usable && g.num_vertices > 0);
    if (impl_->phast->on_gpu()) return;
  } else if (usable && g.num_vertices > 0) {
    impl_->gpu = detail::make_many_sources_engine(solved, type, opts);
    return;
  }
  impl_->pool = std::make_unique<detail::thread_pool>(opts.threads);
  if (impl_->phast) impl_->phast->set_cpu_members(impl_->pool->size());
}

many_sources::~many_sources() = default;
many_sources::many_sources(many_sources&&) noexcept = default;
many_sources& many_sources::operator=(many_sources&&) noexcept = default;

bool many_sources::on_gpu() const { return impl_->batches() != nullptr; }

void many_sources::set_cutoff(double cutoff) {
  check_cutoff(cutoff);
  impl_->opts.cutoff = cutoff;
}

double many_sources::setup_ms() const { return impl_->phast ? impl_->phast->setup_ms() : 0; }

std::string many_sources::setup() const { return impl_->phast ? impl_->phast->setup() : std::string(); }

distance_type many_sources::type() const { return impl_->type; }

void many_sources::pair_distances(const vertex_t* from, const vertex_t* to, std::size_t count, void* out) const {
  if (!impl_->phast) throw std::invalid_argument("pair_distances needs strategy phast (its contraction hierarchy)");
  if (impl_->type == distance_type::float64)
    throw std::invalid_argument("pair_distances: the hierarchy's distances are uint32, uint64 or float32; this graph's "
                                "are float64");
  impl_->phast->pairs(from, to, count, out, impl_->opts.threads);
}

std::string many_sources::method() const {
  if (on_gpu()) return impl_->batches()->method();
  return impl_->phast ? "phast" : "dijkstra";
}

std::string many_sources::device_name() const {
  if (on_gpu()) return impl_->batches()->device_name();
  return "cpu (" + std::to_string(impl_->pool->size()) + " threads)";
}

std::size_t many_sources::batch_bytes(std::uint32_t k, std::size_t targets) const {
  const std::size_t columns = targets ? targets : impl_->g->num_vertices;
  return on_gpu() ? impl_->batches()->batch_bytes(round_up_32(k), columns) : 0;
}

std::uint32_t many_sources::batch_size(std::size_t sources, std::size_t targets) const {
  return impl_->batch_size(*this, sources, targets, max_auto_batch);
}

std::uint32_t many_sources::impl::batch_size(const many_sources& ms, std::size_t sources, std::size_t targets,
                                             std::uint32_t most) const {
  const std::uint32_t wanted = mopts.batch_size;
  if (!ms.on_gpu()) return wanted ? wanted : cpu_batch;
  if (wanted) return round_up_32(wanted);
  // Items (vertex, group of 32 sources) are numbered in 32 bits.
  const std::uint64_t by_items = (std::uint64_t{0xFFFFFFFFu} / std::max<std::uint64_t>(g->num_vertices, 1)) * 32;
  std::uint32_t k = std::min<std::uint32_t>({most, round_up_32(std::max<std::size_t>(sources, 1)),
                                             static_cast<std::uint32_t>(std::min<std::uint64_t>(by_items, most))});
  k = std::max<std::uint32_t>(k / 32 * 32, 32);
  const std::size_t budget = batches()->free_bytes() / 2;
  while (k > 32 && ms.batch_bytes(k, targets) > budget) k -= 32;
  return k;
}

void many_sources::run(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets,
                       const block_consumer& consume) {
  const graph::csr& g = *impl_->g;
  check_vertices(g, sources, "source");
  check_vertices(g, targets, "target");
  if (sources.empty()) return;
  if (!on_gpu()) return impl_->run_cpu(sources, targets, consume);
  const std::uint32_t k = batch_size(sources.size(), targets.size());
  if (impl_->gpu && (std::uint64_t{g.num_vertices} * k) / 32 > 0xFFFFFFFFull)
    throw std::runtime_error("a batch of " + std::to_string(k) + " sources on " + std::to_string(g.num_vertices) +
                             " vertices has more than 2^32 (vertex, 32-source group) items; choose a smaller batch size");
  impl_->batches()->run(sources, targets, k, impl_->opts, impl_->mopts, consume);
}

void many_sources::run_into(const std::vector<vertex_t>& sources, void* rows, const block_consumer& consume) {
  const graph::csr& g = *impl_->g;
  check_vertices(g, sources, "source");
  if (sources.empty()) return;
  // Rows of the solve's own type on the device: the batches may solve into them; on the CPU, rows in
  // host memory, which each row is solved into. The GPU's host blocks have nothing to solve into.
  if (rows && !on_gpu()) return impl_->run_cpu(sources, {}, consume, rows);
  if (!rows || !impl_->mopts.device_blocks) return run(sources, {}, consume);
  const std::uint32_t k = batch_size(sources.size(), 0);
  if (impl_->gpu && (std::uint64_t{g.num_vertices} * k) / 32 > 0xFFFFFFFFull)
    throw std::runtime_error("a batch of " + std::to_string(k) + " sources on " + std::to_string(g.num_vertices) +
                             " vertices has more than 2^32 (vertex, 32-source group) items; choose a smaller batch size");
  impl_->batches()->run(sources, {}, k, impl_->opts, impl_->mopts, consume, rows);
}

row_summaries many_sources::summarize_rows(const std::vector<vertex_t>& sources) {
  const graph::csr& g = *impl_->g;
  check_vertices(g, sources, "source");
  const auto start = std::chrono::steady_clock::now();
  row_summaries s;
  s.type = impl_->type;
  const std::size_t count = sources.size();
  const bool integral = s.type == distance_type::uint32 || s.type == distance_type::uint64;
  s.reached.assign(count, 0);
  if (integral) {
    s.int_sums.assign(count, 0);
    s.int_farthest.assign(count, 0);
  } else {
    s.real_sums.assign(count, 0);
    s.real_farthest.assign(count, 0);
  }
  if (count == 0) return s;
  // One target column: what a batch needs besides its distances is its summaries' few entries.
  const std::uint32_t k = on_gpu() ? impl_->batch_size(*this, count, 1, max_auto_summary_batch) : 0;
  if (on_gpu() && impl_->batches()->summarize_rows(sources, k, impl_->opts, s)) {
    s.batch_size = k;
    s.batches = (count + k - 1) / k;
  } else {
    // Host blocks, each row reduced in vertex order.
    s.batch_size = batch_size(count, 0);
    const block_consumer reduce = [&](const distance_block& b) {
      s.batches += b.first_row % s.batch_size == 0;  // a batch's first block
      detail::with_distance_type(b.type, [&](auto d) {
        using D = decltype(d);
        const D* rows = detail::distances_in<D>(b);
        for (std::size_t r = 0; r < b.rows; ++r) {
          const row_summary<D> one = summarize_row(rows + r * b.columns, b.columns, impl_->opts.cutoff);
          if (one.wrapped)
            throw std::overflow_error("the sum of the distances from vertex " + std::to_string(b.sources[r]) +
                                      " passes 2^64 - 1");
          const std::size_t i = b.first_row + r;
          s.reached[i] = one.reached;
          if constexpr (std::is_integral_v<D>) {
            s.int_sums[i] = one.sum;
            s.int_farthest[i] = one.farthest;
          } else {
            s.real_sums[i] = one.sum;
            s.real_farthest[i] = one.farthest;
          }
        }
      });
    };
    const bool device_blocks = std::exchange(impl_->mopts.device_blocks, false);
    try {
      run(sources, {}, reduce);
    } catch (...) {
      impl_->mopts.device_blocks = device_blocks;
      throw;
    }
    impl_->mopts.device_blocks = device_blocks;
  }
  s.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return s;
}

void many_sources::impl::run_cpu(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets,
                                 const block_consumer& consume, void* rows_given) {
  detail::with_distance_type(type, [&](auto d) {
    using D = decltype(d);
    run_cpu_typed<D>(sources, targets, consume, targets.empty() ? static_cast<D*>(rows_given) : nullptr);
  });
}

template <class Distance>
void many_sources::impl::run_cpu_typed(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets,
                                       const block_consumer& consume, Distance* rows_given) {
  const graph::csr& solved = *g;
  const std::size_t columns = targets.empty() ? solved.num_vertices : targets.size();
  const std::size_t k = mopts.batch_size ? mopts.batch_size : cpu_batch;
  std::vector<Distance> block;
  // PHAST sweeps phast_group sources at a time (one pass over the hierarchy for the group) where
  // a thread's group distances fit phast_group_bytes, else one, as the other solvers do.
  const bool grouped =
      phast && std::uint64_t{solved.num_vertices} * detail::phast_group * sizeof(Distance) <= phast_group_bytes;
  const std::size_t group = grouped ? detail::phast_group : 1;
  // A subset of targets: each member's whole rows, from which the targets are picked.
  std::vector<std::vector<Distance>> rows_by_member(targets.empty() ? 0 : pool->size(),
                                                    std::vector<Distance>(group * solved.num_vertices));
  for (std::size_t first = 0; first < sources.size(); first += k) {
    const std::size_t rows = std::min(k, sources.size() - first);
    // The batch's rows: the caller's (solved in place: no block of our own, no copy), else ours.
    if (!rows_given) block.resize(rows * columns);
    Distance* const batch = rows_given ? rows_given + first * columns : block.data();
    const auto start = std::chrono::steady_clock::now();
    std::atomic<std::size_t> next{0};
    pool->run([&](unsigned member) {
      for (std::size_t r; (r = next.fetch_add(group)) < rows;) {
        const std::size_t count = std::min(group, rows - r);
        // Where each row is solved: in place when every vertex is a column, else a whole row of
        // the member's.
        void* into[detail::phast_group];
        for (std::size_t i = 0; i < count; ++i)
          into[i] = targets.empty() ? batch + (r + i) * columns
                                    : rows_by_member[member].data() + i * std::size_t{solved.num_vertices};
        if (grouped)
          phast->cpu_rows(member, sources.data() + first + r, count, opts.cutoff, into);
        else if (phast)
          phast->cpu_row(member, sources[first + r], opts.cutoff, into[0]);
        else
          detail::dijkstra_row(solved, sources[first + r], type, opts.cutoff, static_cast<Distance*>(into[0]));
        if (targets.empty()) continue;
        for (std::size_t i = 0; i < count; ++i) {
          const Distance* whole = static_cast<const Distance*>(into[i]);
          Distance* row = batch + (r + i) * columns;
          for (std::size_t t = 0; t < columns; ++t) row[t] = whole[targets[t]];
        }
      }
    });
    distance_block b = detail::batch_block(
        sources, first, rows, columns, type,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    detail::set_distances(b, batch);
    consume(b);
  }
}

double distance_table::at(std::size_t row, std::size_t column) const {
  const std::size_t i = row * columns + column;
  return detail::with_distance_type(type, [&](auto d) {
    using D = decltype(d);
    const D x = detail::distances_in<D>(*this)[i];
    return x == detail::distance_limits<D>::infinity ? std::numeric_limits<double>::infinity() : double(x);
  });
}

distance_table od_table(const graph::csr& g, const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets,
                        const options& opts, const many_source_options& mopts) {
  if (mopts.device_blocks) throw std::invalid_argument("od_table returns host memory; device_blocks must be false");
  distance_table t;
  t.rows = sources.size();
  t.columns = targets.empty() ? g.num_vertices : targets.size();
  many_sources ms(g, opts, mopts);
  t.type = ms.type();
  detail::with_distance_type(t.type, [&](auto d) {
    using D = decltype(d);
    auto& cells = detail::distances_in<D>(t);
    cells.resize(t.rows * t.columns);
    const auto take = [&](const distance_block& b) {
      const D* rows = detail::distances_in<D>(b);
      D* to = cells.data() + b.first_row * t.columns;
      if (rows != to) std::copy(rows, rows + b.rows * b.columns, to);
    };
    // Every vertex a target: the CPU solves into the table's cells (run_into); the GPU's host
    // blocks are copied in.
    if (targets.empty())
      ms.run_into(sources, cells.data(), take);
    else
      ms.run(sources, targets, take);
  });
  return t;
}

namespace {

template <class Distance>
validation compare_row(const graph::csr& g, vertex_t source, const std::vector<vertex_t>& targets, const Distance* row) {
  detail::check_graph(g);
  const result oracle = detail::dijkstra_typed(g, source, false, detail::type_of<Distance>());
  const std::vector<Distance>& want = detail::distances_in<Distance>(oracle);
  validation v;
  std::ostringstream out;
  const std::size_t columns = targets.empty() ? g.num_vertices : targets.size();
  for (std::size_t t = 0; t < columns; ++t) {
    const vertex_t target = targets.empty() ? static_cast<vertex_t>(t) : targets[t];
    const Distance a = row[t], b = want[target];
    bool same = a == b;
    if constexpr (std::is_same_v<Distance, float>) {
      if (!std::isinf(a) && !std::isinf(b))
        same = std::fabs(double{a} - double{b}) <= 1e-5 * std::max(std::fabs(double{a}), std::fabs(double{b}));
    }
    if (same) continue;
    if (v.mismatches++ < 5)
      out << (v.mismatches > 1 ? "; " : "") << "source " << g.external_id(source) << " to vertex "
          << g.external_id(target) << ": " << double(a) << " (Dijkstra " << double(b) << ")";
  }
  v.ok = v.mismatches == 0;
  v.message = out.str();
  return v;
}

}  // namespace

validation validate_row(const graph::csr& g, vertex_t source, const std::vector<vertex_t>& targets,
                        const distance_block& block, std::size_t row) {
  if (block.on_device) throw std::invalid_argument("validate_row reads host blocks only");
  if (row >= block.rows) throw std::out_of_range("row " + std::to_string(row) + " of a block of " + std::to_string(block.rows));
  return detail::with_distance_type(block.type, [&](auto d) {
    using D = decltype(d);
    return compare_row(g, source, targets, detail::distances_in<D>(block) + row * block.columns);
  });
}

validation validate_summary(const graph::csr& g, vertex_t source, const row_summaries& s, std::size_t i,
                            double cutoff) {
  detail::check_graph(g);
  if (i >= s.reached.size())
    throw std::out_of_range("entry " + std::to_string(i) + " of " + std::to_string(s.reached.size()) + " summaries");
  return detail::with_distance_type(s.type, [&](auto d) {
    using D = decltype(d);
    using S = typename row_summary<D>::value;
    const result oracle = detail::dijkstra_typed(g, source, false, s.type);
    const std::vector<D>& row = detail::distances_in<D>(oracle);
    const row_summary<D> want = summarize_row(row.data(), row.size(), cutoff);
    const std::uint64_t reached = want.reached;
    const S sum = want.sum, top = want.farthest;
    S got_sum, got_top;
    if constexpr (std::is_integral_v<D>) {
      got_sum = s.int_sums.at(i), got_top = s.int_farthest.at(i);
    } else {
      got_sum = s.real_sums.at(i), got_top = s.real_farthest.at(i);
    }
    const double tolerance = std::is_same_v<D, float> ? 1e-5 : 1e-12;
    const auto same = [&](S a, S b) {
      if constexpr (std::is_integral_v<S>) return a == b;
      return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b));
    };
    validation v;
    std::ostringstream out;
    out << "source " << g.external_id(source) << ":";
    if (s.reached[i] != reached) ++v.mismatches, out << " reached " << s.reached[i] << " (Dijkstra " << reached << ")";
    if (!same(got_sum, sum)) ++v.mismatches, out << " sum " << got_sum << " (Dijkstra " << sum << ")";
    if (!same(got_top, top)) ++v.mismatches, out << " farthest " << got_top << " (Dijkstra " << top << ")";
    v.ok = v.mismatches == 0;
    if (!v.ok) v.message = out.str();
    return v;
  });
}

}  // namespace deltasplit::sssp
