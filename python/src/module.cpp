// deltasplit._core: the Python binding of the C++ API (src/include/deltasplit/sssp.hpp and
// many_sources.hpp). The Python package (python/deltasplit/) converts and checks its inputs,
// allocates the outputs with the caller's array library (numpy, or cupy/torch for device memory)
// and hands their memory here through DLPack: solver::run_into writes one source's row in place,
// and many_sources' blocks are copied into the caller's rows (device to device on the batch's
// stream when the output is on the device).
// C++ exceptions reach Python with their message: std::invalid_argument as ValueError,
// std::out_of_range as IndexError, distance_overflow as OverflowError, graph::input_error as
// deltasplit.InputError (a ValueError), everything else as RuntimeError; negative_cycle is returned
// as a vertex (negative_weights_into).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "deltasplit/graph/error.hpp"
#include "deltasplit/graph/from_arrays.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/many_sources.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/negative_weights.hpp"
#include "network_reductions.hpp"

#if DELTASPLIT_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace nb = nanobind;
namespace ds = deltasplit;
using ds::graph::edge_t;
using ds::graph::vertex_t;

namespace {

using any_array = nb::ndarray<nb::ndim<1>, nb::c_contig>;

bool on_device(const any_array& a) { return a.device_type() == nb::device::cuda::value; }

template <class T>
const T* host_data(const any_array& a, const char* what) {
  if (on_device(a)) throw std::invalid_argument(std::string(what) + " must be in host memory here");
  if (a.dtype() != nb::dtype<T>()) throw std::invalid_argument(std::string(what) + " has the wrong dtype");
  return static_cast<const T*>(a.data());
}

ds::sssp::device_kind device_from_name(const std::string& device) {
  if (device == "gpu") return ds::sssp::device_kind::gpu;
  if (device == "cpu") return ds::sssp::device_kind::cpu;
  if (device == "auto") return ds::sssp::device_kind::automatic;
  throw std::invalid_argument("device must be 'auto', 'gpu' or 'cpu'; got '" + device + "'");
}

template <class T>
ds::graph::span<T> host_span(const any_array& a, const char* what) {
  return {host_data<T>(a, what), a.shape(0)};
}

// What a many-source solver is built with (many_sources keeps its options from construction; the
// cutoff is set per call, set_cutoff, so a new cutoff rebuilds nothing).
struct batch_settings {
  ds::sssp::device_kind device = ds::sssp::device_kind::automatic;
  bool phast = false;  // PHAST batches on a contraction hierarchy, else batched delta-stepping
  double delta = 0;
  double cutoff = std::numeric_limits<double>::infinity();  // not part of the solver's identity
  unsigned threads = 0;
  std::uint32_t batch_size = 0;
  bool device_blocks = false;
  std::string hierarchy;  // phast: options::hierarchy_file
  ds::sssp::gpu_driver driver = ds::sssp::gpu_driver::automatic;  // block: one thread block per source
  ds::sssp::distance_type real_type = ds::sssp::distance_type::float64;  // options::real_type
  bool operator==(const batch_settings& o) const {
    return device == o.device && phast == o.phast && delta == o.delta && threads == o.threads &&
           batch_size == o.batch_size && device_blocks == o.device_blocks && hierarchy == o.hierarchy &&
           driver == o.driver && real_type == o.real_type;
  }
};

// A graph as Python holds it: a cleaned host CSR it owns, or a view of device arrays it keeps
// alive, and up to two solvers on it (GPU and CPU), built on first use and retuned per call, plus
// (host graphs) the many-source solver of the last settings asked for.
class py_graph {
 public:
  explicit py_graph(ds::graph::csr&& g) : host_(std::make_unique<ds::graph::csr>(std::move(g))), view_(*host_) {}
  py_graph(const ds::sssp::csr_view& v, nb::object keep) : view_(v), keep_(std::move(keep)) {}

  const ds::sssp::csr_view& view() const { return view_; }
  bool device_graph() const { return view_.space == ds::sssp::memory_space::device; }

  // distance_type_for(view(), real): for integer weights on the host its bound is a pass over every
  // arc, so this graph's answer (its host arrays never change) is kept from the first call; every
  // sssp call asks it twice.
  ds::sssp::distance_type distance_type_for(ds::sssp::distance_type real) const {
    if (view_.kind == ds::graph::weight_kind::real || device_graph()) return ds::sssp::distance_type_for(view_, real);
    if (!integer_type_) integer_type_ = ds::sssp::distance_type_for(view_, real);
    return *integer_type_;
  }
  const ds::graph::provenance* origin() const { return host_ ? &host_->origin : nullptr; }

  // The solver for these options: the GPU one for a GPU strategy where a GPU is usable (or the
  // graph is on the device), else the CPU one. stream: a cudaStream_t as an integer, 0 for own.
  ds::sssp::solver& solver_for(ds::sssp::options o) {
    const bool gpu_strategy = ds::sssp::runs_on_gpu(o.how);
    std::string why_not;
    const bool gpu = gpu_strategy && o.device != ds::sssp::device_kind::cpu &&
                     (device_graph() || ds::sssp::gpu_available(&why_not));
    if (o.device == ds::sssp::device_kind::gpu && gpu_strategy && !gpu)
      throw std::runtime_error(std::string("device='gpu' but no GPU can be used: ") + why_not);
    std::unique_ptr<ds::sssp::solver>& slot = gpu ? gpu_ : cpu_;
    ds::sssp::options fixed = o;
    // Asked for the GPU, the GPU; chosen automatically, the solver's own rule (sssp.hpp).
    fixed.device = !gpu ? ds::sssp::device_kind::cpu
                        : o.device == ds::sssp::device_kind::gpu ? ds::sssp::device_kind::gpu
                                                                 : ds::sssp::device_kind::automatic;
    if (!gpu) fixed.stream = nullptr;
    // What a solver fixes when it is built (solver::set_options) makes a new one when it changes.
    if (slot && (slot->settings().stream != fixed.stream || slot->settings().real_type != fixed.real_type ||
                 slot->settings().threads != fixed.threads))
      slot.reset();
    if (!slot) {
      nb::gil_scoped_release release;
      slot = std::make_unique<ds::sssp::solver>(view_, fixed);
    } else {
      slot->set_options(fixed);
    }
    return *slot;
  }

  // many_sources takes a graph::csr (it reads the host arrays), so only host graphs have one. It is
  // kept while the settings (the cutoff aside) stay the same: building it puts the graph on the GPU
  // (the device copy this graph's one-source solver holds, when it has one: shared_device_csr).
  ds::sssp::many_sources& many_for(const batch_settings& b) {
    if (!host_)
      throw std::invalid_argument("the batched many-source solver needs a host graph (this one is in device memory)");
    if (!many_ || !(many_settings_ == b)) {
      many_.reset();
      ds::sssp::options o;
      o.device = b.device;
      if (b.phast) o.how = ds::sssp::strategy::phast;
      o.tune.delta = b.delta;
      o.cutoff = b.cutoff;
      o.threads = b.threads;
      o.hierarchy_file = b.hierarchy;
      o.tune.driver = b.driver;
      o.real_type = b.real_type;
      ds::sssp::many_source_options m;
      m.batch_size = b.batch_size;
      m.device_blocks = b.device_blocks;
      nb::gil_scoped_release release;
      many_ = std::make_unique<ds::sssp::many_sources>(*host_, o, m);
      many_settings_ = b;
    }
    many_->set_cutoff(b.cutoff);
    return *many_;
  }
  // many_for(b) for work that hands no blocks over (row summaries): the kept solver serves whatever
  // its device_blocks.
  ds::sssp::many_sources& many_for_any_blocks(batch_settings b) {
    if (many_) b.device_blocks = many_settings_.device_blocks;
    return many_for(b);
  }

 private:
  std::unique_ptr<ds::graph::csr> host_;
  ds::sssp::csr_view view_;
  nb::object keep_;  // the device arrays of a device view
  std::unique_ptr<ds::sssp::solver> gpu_, cpu_;
  std::unique_ptr<ds::sssp::many_sources> many_;
  batch_settings many_settings_;
  mutable std::optional<ds::sssp::distance_type> integer_type_;  // distance_type_for, integer host weights
};

// f(span) over host weights of one of the four types a graph stores (csr.hpp: uint32 and float
// narrow, uint64 and double wide).
template <class F>
py_graph with_weights(const any_array& weights, F&& f) {
  if (weights.dtype() == nb::dtype<float>()) return f(host_span<float>(weights, "weights"));
  if (weights.dtype() == nb::dtype<double>()) return f(host_span<double>(weights, "weights"));
  if (weights.dtype() == nb::dtype<std::uint64_t>()) return f(host_span<std::uint64_t>(weights, "weights"));
  if (weights.dtype() == nb::dtype<std::uint32_t>()) return f(host_span<std::uint32_t>(weights, "weights"));
  throw std::invalid_argument("weights must be uint32, uint64, float32 or float64");
}

// The numpy dtype of a distance type.
nb::dlpack::dtype dtype_of(ds::sssp::distance_type t) {
  switch (t) {
    case ds::sssp::distance_type::uint32: return nb::dtype<std::uint32_t>();
    case ds::sssp::distance_type::uint64: return nb::dtype<std::uint64_t>();
    case ds::sssp::distance_type::float32: return nb::dtype<float>();
    default: return nb::dtype<double>();
  }
}

// The type a solve of g runs in with real_type ("float32" or "float64") for real weights.
ds::sssp::distance_type solve_type(const py_graph& g, const std::string& real_type) {
  const ds::sssp::distance_type r = ds::sssp::distance_type_from_name(real_type);
  if (r != ds::sssp::distance_type::float32 && r != ds::sssp::distance_type::float64)
    throw std::invalid_argument("real_type must be 'float32' or 'float64'; got '" + real_type + "'");
  return g.distance_type_for(r);
}

py_graph from_csr_arrays(std::uint64_t n, const any_array& offsets, const any_array& targets, const any_array& weights,
                         bool symmetric, unsigned threads) {
  const vertex_t nv = static_cast<vertex_t>(n);
  auto off = host_span<edge_t>(offsets, "offsets");
  auto tgt = host_span<vertex_t>(targets, "targets");
  return with_weights(weights, [&](auto w) {
    nb::gil_scoped_release release;
    return py_graph(ds::graph::clean_csr(nv, off, tgt, w, symmetric, threads));
  });
}

py_graph from_arcs(std::uint64_t n, const any_array& src, const any_array& dst, const any_array& weights, bool symmetric,
                   unsigned threads) {
  const vertex_t nv = static_cast<vertex_t>(n);
  auto s = host_span<vertex_t>(src, "sources");
  auto d = host_span<vertex_t>(dst, "targets");
  return with_weights(weights, [&](auto w) {
    nb::gil_scoped_release release;
    return py_graph(ds::graph::clean_csr_from_arcs(nv, s, d, w, symmetric, threads));
  });
}

py_graph from_file(const std::string& path, std::uint64_t weight_seed, unsigned threads) {
  ds::graph::read_options o;
  o.weight_seed = weight_seed;
  o.threads = threads;
  nb::gil_scoped_release release;
  return py_graph(ds::graph::read_graph(path, o));
}

// Synthetic graphs as `deltasplit generate` makes them (graph/generators.hpp checks the parameters).
py_graph rmat(unsigned scale, double edge_factor, double a, double b, double c, double d, bool undirected,
              std::uint64_t seed, std::uint32_t weight_min, std::uint32_t weight_max) {
  ds::graph::rmat_params p;
  p.scale = scale;
  p.edge_factor = edge_factor;
  p.a = a, p.b = b, p.c = c, p.d = d;
  p.undirected = undirected;
  p.seed = seed;
  p.weight_min = weight_min;
  p.weight_max = weight_max;
  nb::gil_scoped_release release;
  return py_graph(ds::graph::generate_rmat(p));
}

py_graph grid(std::uint32_t rows, std::uint32_t cols, double keep, std::uint64_t seed, std::uint32_t weight_min,
              std::uint32_t weight_max) {
  nb::gil_scoped_release release;
  return py_graph(ds::graph::generate_grid({rows, cols, keep, seed, weight_min, weight_max}));
}

// A view of device arrays (offsets uint64, targets uint32, weights uint32 or float32), kept alive
// by `keep`; checked on the device when the first solver is built.
py_graph from_device(std::uint64_t n, const any_array& offsets, const any_array& targets, const any_array& weights,
                     nb::object keep) {
  if (!on_device(offsets) || !on_device(targets) || !on_device(weights))
    throw std::invalid_argument("from_device: offsets, targets and weights must all be CUDA device arrays");
  if (offsets.dtype() != nb::dtype<edge_t>() || targets.dtype() != nb::dtype<vertex_t>())
    throw std::invalid_argument("from_device: offsets must be uint64 and targets uint32");
  ds::sssp::csr_view v;
  v.num_vertices = static_cast<vertex_t>(n);
  v.offsets = {static_cast<const edge_t*>(offsets.data()), offsets.shape(0)};
  v.targets = {static_cast<const vertex_t*>(targets.data()), targets.shape(0)};
  if (weights.dtype() == nb::dtype<float>()) {
    v.kind = ds::graph::weight_kind::real;
    v.real_weights = {static_cast<const float*>(weights.data()), weights.shape(0)};
  } else if (weights.dtype() == nb::dtype<std::uint32_t>()) {
    v.kind = ds::graph::weight_kind::integer;
    v.int_weights = {static_cast<const std::uint32_t*>(weights.data()), weights.shape(0)};
  } else {
    throw std::invalid_argument("from_device: weights must be uint32 or float32");
  }
  v.space = ds::sssp::memory_space::device;
  return py_graph(v, std::move(keep));
}

nb::dict stats_dict(const ds::sssp::statistics& st) {
  nb::dict d;
  d["strategy"] = st.strategy;
  d["device"] = st.device;
  d["distance_type"] = st.distance_type;  // "uint32", "uint64", "float32" or "float64"
  d["note"] = st.note;
  d["driver"] = st.driver;
  d["milliseconds"] = st.milliseconds;
  d["relax_ms"] = st.relax_ms;
  d["frontier_ms"] = st.frontier_ms;
  d["delta"] = st.delta;
  d["iterations"] = st.iterations;
  d["edges_relaxed"] = st.edges_relaxed;
  d["vertices_processed"] = st.vertices_processed;
  d["max_queue"] = st.max_queue;
  d["setup_ms"] = st.setup_ms;
  d["setup"] = st.setup;
  d["heavy_pulls"] = st.heavy_pulls;  // the step loop's pulled settle passes (heavy_relaxation)
  return d;
}

// Solves from source into dist (and pred when given), arrays of num_vertices entries of the
// solve's distance type (solve_type) and uint32, all in host memory or all on the device.
// hierarchy: phast's options::hierarchy_file ("" for none).
nb::dict run_into(py_graph& g, std::uint64_t source, any_array dist, nb::object pred, const std::string& strategy,
                  const std::string& device, double delta, std::uint32_t buckets, double cutoff, unsigned threads,
                  std::uintptr_t stream, const std::string& hierarchy, const std::string& driver,
                  const std::string& real_type) {
  const ds::sssp::distance_type type = solve_type(g, real_type);
  ds::sssp::options o;
  o.real_type = ds::sssp::distance_type_from_name(real_type);
  o.how = ds::sssp::strategy_from_name(strategy);
  o.tune.driver = ds::sssp::driver_from_name(driver);
  o.device = device_from_name(device);
  o.tune.delta = delta;
  o.tune.buckets = buckets;
  o.cutoff = cutoff;
  o.threads = threads;
  o.stream = reinterpret_cast<void*>(stream);
  o.hierarchy_file = hierarchy;
  const std::uint64_t n = g.view().num_vertices;
  if (source >= n)
    throw std::out_of_range("source vertex " + std::to_string(source) + " is out of range: the graph has " +
                            std::to_string(n) + " vertices");
  ds::sssp::output_buffers out;
  out.space = on_device(dist) ? ds::sssp::memory_space::device : ds::sssp::memory_space::host;
  if (dist.shape(0) != n) throw std::invalid_argument("the distance buffer must have one entry per vertex");
  if (dist.dtype() != dtype_of(type))
    throw std::invalid_argument(std::string("this solve's distances are ") + ds::sssp::distance_type_name(type) +
                                ": the distance buffer must be of that dtype");
  switch (type) {
    case ds::sssp::distance_type::uint32: out.int_distances = static_cast<std::uint32_t*>(dist.data()); break;
    case ds::sssp::distance_type::uint64: out.uint64_distances = static_cast<std::uint64_t*>(dist.data()); break;
    case ds::sssp::distance_type::float32: out.real_distances = static_cast<float*>(dist.data()); break;
    default: out.float64_distances = static_cast<double*>(dist.data()); break;
  }
  if (!pred.is_none()) {
    auto p = nb::cast<any_array>(pred);
    if (p.shape(0) != n || p.dtype() != nb::dtype<vertex_t>() || on_device(p) != on_device(dist))
      throw std::invalid_argument("the predecessor buffer must be uint32, one entry per vertex, beside the distances");
    out.predecessors = static_cast<vertex_t*>(p.data());
  }
  o.predecessors = out.predecessors != nullptr;
  ds::sssp::solver& s = g.solver_for(o);
  ds::sssp::statistics st;
  {
    nb::gil_scoped_release release;
    st = s.run_into(static_cast<vertex_t>(source), out);
  }
  return stats_dict(st);
}

using matrix_array = nb::ndarray<nb::ndim<2>, nb::c_contig>;

std::vector<vertex_t> vertex_list(const any_array& a, const char* what) {
  const vertex_t* p = host_data<vertex_t>(a, what);
  return std::vector<vertex_t>(p, p + a.shape(0));
}

// One block's rows into the caller's rows, in the caller's element type: the graph's own (a plain
// copy) or float64 on the host (scipy's convention: INT_INFINITY becomes inf).
template <class From>
void copy_rows(const From* from, std::size_t cells, void* to, bool widen) {
  if (!widen) {
    std::memcpy(to, from, cells * sizeof(From));
    return;
  }
  double* out = static_cast<double*>(to);
  for (std::size_t i = 0; i < cells; ++i) {
    if constexpr (std::is_integral_v<From>)
      out[i] = from[i] == std::numeric_limits<From>::max() ? std::numeric_limits<double>::infinity() : double(from[i]);
    else
      out[i] = from[i];
  }
}

void copy_on_device(void* to, const void* from, std::size_t bytes, void* stream) {
#if DELTASPLIT_WITH_CUDA
  const cudaError_t e = cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(stream));
  if (e != cudaSuccess) throw std::runtime_error(std::string("copying distance rows on the device: ") + cudaGetErrorString(e));
#else
  (void)to, (void)from, (void)bytes, (void)stream;
  throw std::runtime_error("deltasplit was built without CUDA: no device blocks");
#endif
}

// Distances from every source to every target (all vertices when targets is None), vertices
// farther than cutoff unreachable, by the batched many-source solver (many_sources.hpp), into out:
// sources x columns, row-major, of the solve's distance type (solve_type), in host or device
// memory, or float64 in host memory (integer infinities become inf). A device output takes the GPU's blocks where they are
// (device_blocks) and copies them on the batch's stream, which the solver synchronizes before
// run() returns; with every vertex a target the block engine solves into its rows instead
// (many_sources::run_into), and there is nothing to copy.
// The pairs (sources[i], targets[i]) by the hierarchy's bidirectional query
// (many_sources::pair_distances) into out (host memory, the solve's distance type), with the phast
// solver of these settings, which builds (or loads) the hierarchy once and keeps it.
void pair_distances_into(py_graph& g, const any_array& sources, const any_array& targets, any_array out,
                         const std::string& device, unsigned threads, const std::string& hierarchy,
                         const std::string& real_type) {
  const ds::sssp::distance_type type = solve_type(g, real_type);
  const std::vector<vertex_t> from = vertex_list(sources, "sources"), to = vertex_list(targets, "targets");
  if (from.size() != to.size())
    throw std::invalid_argument(std::to_string(from.size()) + " sources for " + std::to_string(to.size()) + " targets");
  if (on_device(out) || out.shape(0) != from.size() || out.dtype() != dtype_of(type))
    throw std::invalid_argument(std::string("the pair distances must be a host array of ") + std::to_string(from.size()) +
                                " " + ds::sssp::distance_type_name(type) + " entries");
  batch_settings b;
  b.device = device_from_name(device);
  b.phast = true;
  b.threads = threads;
  b.hierarchy = hierarchy;
  b.real_type = ds::sssp::distance_type_from_name(real_type);
  ds::sssp::many_sources& ms = g.many_for(b);
  nb::gil_scoped_release release;
  ms.pair_distances(from.data(), to.data(), from.size(), out.data());
}

// What each source reaches within a finite cutoff (sssp::detail::reached_within: bounded Dijkstras
// on threads host threads): (offsets uint64, targets uint32, distances of the solve's type) numpy
// arrays, source i's vertices by id at offsets[i]..offsets[i + 1]. A host graph only.
nb::tuple reached_within(const py_graph& g, const any_array& sources, double cutoff, unsigned threads,
                         const std::string& real_type) {
  if (g.device_graph()) throw std::invalid_argument("reached_within: the graph is in device memory");
  const ds::sssp::distance_type type = solve_type(g, real_type);
  const std::vector<vertex_t> from = vertex_list(sources, "sources");
  ds::sssp::detail::reached_lists r;
  {
    nb::gil_scoped_release release;
    r = ds::sssp::detail::reached_within(g.view(), type, cutoff, from, threads);
  }
  const auto owned = [](auto&& v) {
    auto* data = new std::decay_t<decltype(v)>(std::move(v));
    nb::capsule owner(data, [](void* p) noexcept { delete static_cast<std::decay_t<decltype(v)>*>(p); });
    return std::make_pair(data, owner);
  };
  auto [offsets, o_owner] = owned(std::move(r.offsets));
  auto [targets, t_owner] = owned(std::move(r.targets));
  const std::size_t count = targets->size();
  auto [bytes, d_owner] = owned(std::move(r.distances));
  auto distances = [&](auto tag) {
    using T = decltype(tag);
    return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(reinterpret_cast<T*>(bytes->data()), {count}, d_owner));
  };
  nb::object d;
  switch (type) {
    case ds::sssp::distance_type::uint32: d = distances(std::uint32_t{}); break;
    case ds::sssp::distance_type::uint64: d = distances(std::uint64_t{}); break;
    case ds::sssp::distance_type::float32: d = distances(float{}); break;
    default: d = distances(double{}); break;
  }
  return nb::make_tuple(nb::ndarray<nb::numpy, std::uint64_t, nb::ndim<1>>(offsets->data(), {offsets->size()}, o_owner),
                        nb::ndarray<nb::numpy, vertex_t, nb::ndim<1>>(targets->data(), {count}, t_owner), d);
}

// A group of reached entries from the road layer (network_reductions.hpp): rows and columns int64,
// distances float64, host arrays of one length; row0 the group's first row.
ds::network::reached_entries reached_entries_of(const any_array& rows, const any_array& columns,
                                                const any_array& distances, std::int64_t row0, const char* what) {
  const std::size_t m = rows.shape(0);
  if (columns.shape(0) != m || distances.shape(0) != m)
    throw std::invalid_argument(std::string(what) + ": rows, columns and distances differ in length");
  return {m, host_data<std::int64_t>(rows, "rows"), host_data<std::int64_t>(columns, "columns"),
          host_data<double>(distances, "distances"), row0};
}

// deltasplit.network's accessibility sums on the host (network_reductions.hpp): rows, columns
// int64 and distances float64 of a group of reached entries in row order, row0 its first row;
// per_node (5, valued) and acc (radii, 6, n), float64, C order, acc added into.
void accumulate_reached(const any_array& rows, const any_array& columns, const any_array& distances, std::int64_t row0,
                        const matrix_array& per_node, const any_array& radii, int decay, nb::ndarray<nb::ndim<3>, nb::c_contig> acc,
                        unsigned threads) {
  const ds::network::reached_entries e = reached_entries_of(rows, columns, distances, row0, "accumulate_reached");
  if (per_node.shape(0) != 5 || per_node.dtype() != nb::dtype<double>() || acc.dtype() != nb::dtype<double>() ||
      acc.device_type() != nb::device::cpu::value || per_node.device_type() != nb::device::cpu::value)
    throw std::invalid_argument("accumulate_reached: per_node (5, valued) and acc (radii, 6, n) are float64 host arrays");
  const double* r = host_data<double>(radii, "radii");
  const std::vector<double> rad(r, r + radii.shape(0));
  if (acc.shape(0) != rad.size() || acc.shape(1) != 6)
    throw std::invalid_argument("accumulate_reached: acc must be (radii, 6, n)");
  nb::gil_scoped_release release;
  ds::network::accumulate_reached(e, static_cast<const double*>(per_node.data()), per_node.shape(1), rad, decay,
                                  static_cast<double*>(acc.data()), acc.shape(2), threads);
}

// deltasplit.network's nearest places on the host (network_reductions.hpp): a group of reached
// entries as accumulate_reached takes them; by_node, first and per_node int64 (valued node u's
// places are by_node[first[u] .. first[u] + per_node[u] - 1]); best_d (n, k) float64 and best_p
// (n, k) int64, C order, merged into.
void nearest_reached(const any_array& rows, const any_array& columns, const any_array& distances, std::int64_t row0,
                     const any_array& by_node, const any_array& first, const any_array& per_node, double radius,
                     matrix_array best_d, matrix_array best_p, unsigned threads) {
  const ds::network::reached_entries e = reached_entries_of(rows, columns, distances, row0, "nearest_reached");
  if (best_d.dtype() != nb::dtype<double>() || best_p.dtype() != nb::dtype<std::int64_t>() ||
      best_d.device_type() != nb::device::cpu::value || best_p.device_type() != nb::device::cpu::value ||
      best_d.shape(0) != best_p.shape(0) || best_d.shape(1) != best_p.shape(1) || best_d.shape(1) == 0)
    throw std::invalid_argument("nearest_reached: best_d (n, k) float64 and best_p (n, k) int64 host arrays, k >= 1");
  const std::size_t valued = first.shape(0);
  if (per_node.shape(0) != valued) throw std::invalid_argument("nearest_reached: first and per_node differ in length");
  const auto* places = host_data<std::int64_t>(by_node, "by_node");
  const auto* from = host_data<std::int64_t>(first, "first");
  const auto* count = host_data<std::int64_t>(per_node, "per_node");
  for (std::size_t u = 0; u < valued; ++u)
    if (from[u] < 0 || count[u] < 0 || static_cast<std::uint64_t>(from[u] + count[u]) > by_node.shape(0))
      throw std::invalid_argument("nearest_reached: the places of valued node " + std::to_string(u) +
                                  " lie outside by_node");
  nb::gil_scoped_release release;
  ds::network::nearest_reached(e, places, from, count, valued, radius, static_cast<double*>(best_d.data()),
                               static_cast<std::int64_t*>(best_p.data()), best_d.shape(0), best_d.shape(1), threads);
}

// The batched solver's settings from the binding's arguments (host blocks).
batch_settings settings_of(const std::string& device, bool phast, double delta, double cutoff, unsigned threads,
                           std::uint32_t batch_size, const std::string& hierarchy, const std::string& driver,
                           const std::string& real_type) {
  batch_settings b;
  b.device = device_from_name(device);
  b.phast = phast;
  b.delta = delta;
  b.cutoff = cutoff;
  b.threads = threads;
  b.batch_size = batch_size;
  b.hierarchy = hierarchy;
  b.driver = ds::sssp::driver_from_name(driver);
  b.real_type = ds::sssp::distance_type_from_name(real_type);
  return b;
}

nb::dict distance_matrix_into(py_graph& g, const any_array& sources, nb::object targets, matrix_array out,
                              const std::string& device, bool phast, double delta, double cutoff, unsigned threads,
                              std::uint32_t batch_size, const std::string& hierarchy, const std::string& driver,
                              const std::string& real_type) {
  const ds::sssp::distance_type type = solve_type(g, real_type);
  std::vector<vertex_t> from = vertex_list(sources, "sources");
  std::vector<vertex_t> to;
  if (!targets.is_none()) to = vertex_list(nb::cast<any_array>(targets), "targets");
  const std::size_t columns = targets.is_none() ? g.view().num_vertices : to.size();
  if (out.shape(0) != from.size() || out.shape(1) != columns)
    throw std::invalid_argument("the distance matrix must have shape (" + std::to_string(from.size()) + ", " +
                                std::to_string(columns) + "); got (" + std::to_string(out.shape(0)) + ", " +
                                std::to_string(out.shape(1)) + ")");
  const bool out_on_device = out.device_type() == nb::device::cuda::value;
  // float64 output of a 32-bit or uint64 solve: widened on the host (integer infinities become inf).
  const bool widen = out.dtype() == nb::dtype<double>() && type != ds::sssp::distance_type::float64;
  if (widen && out_on_device)
    throw std::invalid_argument(std::string("a float64 distance matrix of ") + ds::sssp::distance_type_name(type) +
                                " distances must be in host memory");
  if (!widen && out.dtype() != dtype_of(type))
    throw std::invalid_argument(std::string("this solve's distances are ") + ds::sssp::distance_type_name(type) +
                                ": the distance matrix must be of that dtype (or float64 on the host)");
  batch_settings b = settings_of(device, phast, delta, cutoff, threads, batch_size, hierarchy, driver, real_type);
  b.device_blocks = out_on_device;
  if (out_on_device && b.device == ds::sssp::device_kind::cpu)
    throw std::invalid_argument("device='cpu' writes host memory: the distance matrix is in device memory");
  ds::sssp::many_sources& ms = g.many_for(b);
  const std::size_t k = ms.batch_size(from.size(), to.size());
  const std::size_t value_bytes = type == ds::sssp::distance_type::uint32 || type == ds::sssp::distance_type::float32 ? 4 : 8;
  const std::size_t element = widen ? sizeof(double) : value_bytes;
  char* base = static_cast<char*>(out.data());
  std::size_t batches = 0, blocks = 0;
  std::uint64_t iterations = 0;
  double milliseconds = 0, delta_used = 0;
  {
    nb::gil_scoped_release release;
    const auto take = [&](const ds::sssp::distance_block& block) {
      // A batch's first block starts at a multiple of k (later blocks of a batch are its rows
      // beyond the host block size).
      batches += block.first_row % k == 0;
      ++blocks;
      milliseconds += block.milliseconds;
      iterations += block.iterations;
      if (block.delta) delta_used = block.delta;
      const std::size_t cells = block.rows * block.columns;
      void* rows = base + block.first_row * columns * element;
      auto deliver = [&](const auto* from) {
        if (block.on_device) {
          if (static_cast<const void*>(from) != rows) copy_on_device(rows, from, cells * sizeof(*from), block.stream);
        } else if (static_cast<const void*>(from) != rows) {
          copy_rows(from, cells, rows, widen);
        }
      };
      switch (block.type) {
        case ds::sssp::distance_type::uint32: deliver(block.int_distances); break;
        case ds::sssp::distance_type::uint64: deliver(block.uint64_distances); break;
        case ds::sssp::distance_type::float32: deliver(block.real_distances); break;
        default: deliver(block.float64_distances); break;
      }
    };
    // Every vertex a target, in out's own type: the GPU's block engine (out in device memory) and
    // the CPU (out in host memory) solve straight into out's rows.
    if (targets.is_none() && !widen && (out_on_device || !ms.on_gpu()))
      ms.run_into(from, out.data(), take);
    else
      ms.run(from, to, take);
  }
  nb::dict d;
  d["batched"] = true;
  d["device"] = ms.device_name();
  d["on_gpu"] = ms.on_gpu();
  // The GPU's batch engine: "block" (one thread block per source) or "vertex-major" (driver auto
  // picks by the graph's mean out-degree); empty for phast and on the CPU.
  d["driver"] = ms.on_gpu() && !phast ? ms.method() : "";
  d["batch_size"] = k;
  d["batches"] = batches;
  d["blocks"] = blocks;
  d["milliseconds"] = milliseconds;
  d["iterations"] = iterations;
  d["delta"] = delta_used;
  d["setup_ms"] = ms.setup_ms();
  d["setup"] = ms.setup();
  return d;
}

// Row summaries of the sources (many_sources::summarize_rows) by the batched many-source solver of
// these settings: (reached uint64, sums uint64 or float64, farthest uint64 or float64) numpy
// arrays, integer columns for integer distance types, and a dict: device, on_gpu, method,
// batch_size, batches, milliseconds, setup_ms, setup.
nb::tuple summarize_rows(py_graph& g, const any_array& sources, const std::string& device, bool phast, double delta,
                         double cutoff, unsigned threads, std::uint32_t batch_size, const std::string& hierarchy,
                         const std::string& driver, const std::string& real_type) {
  const std::vector<vertex_t> from = vertex_list(sources, "sources");
  ds::sssp::many_sources& ms =
      g.many_for_any_blocks(settings_of(device, phast, delta, cutoff, threads, batch_size, hierarchy, driver, real_type));
  auto* s = new ds::sssp::row_summaries();
  nb::capsule owner(s, [](void* p) noexcept { delete static_cast<ds::sssp::row_summaries*>(p); });
  {
    nb::gil_scoped_release release;
    *s = ms.summarize_rows(from);
  }
  const std::size_t count = from.size();
  const auto column = [&](auto& v) { return nb::cast(nb::ndarray<nb::numpy, std::remove_reference_t<decltype(v[0])>, nb::ndim<1>>(v.data(), {count}, owner)); };
  const bool integral = s->type == ds::sssp::distance_type::uint32 || s->type == ds::sssp::distance_type::uint64;
  nb::dict d;
  d["device"] = ms.device_name();
  d["on_gpu"] = ms.on_gpu();
  d["method"] = ms.method();
  d["batch_size"] = s->batch_size;
  d["batches"] = s->batches;
  d["milliseconds"] = s->milliseconds;
  d["setup_ms"] = ms.setup_ms();
  d["setup"] = ms.setup();
  return nb::make_tuple(column(s->reached), integral ? column(s->int_sums) : column(s->real_sums),
                        integral ? column(s->int_farthest) : column(s->real_farthest), d);
}

// Negative weights (sssp/negative_weights.hpp), apart from the Graph class: the rows of dist (and
// of pred when given), one per source, by "bellman_ford" (one label-correcting run per source) or
// "johnson" (potentials once, then Dijkstra per source on `threads` threads) on CSR arrays: offsets
// uint64, targets uint32, weights int64 or float64, dist of the weights' type (num_sources *
// num_vertices entries, unreachable = INT64_MAX or inf), pred uint32. Returns -1, or a vertex on a
// negative cycle (the Python layer raises scipy's NegativeCycleError naming it).
template <class W>
std::int64_t signed_rows(const std::string& method, const ds::sssp::signed_csr<W>& g, ds::graph::span<vertex_t> sources,
                         const any_array& dist, const nb::object& pred, unsigned threads) {
  const std::size_t cells = sources.size() * std::size_t{g.num_vertices};
  if (on_device(dist) || dist.dtype() != nb::dtype<W>() || dist.shape(0) != cells)
    throw std::invalid_argument("dist must hold one host row of the weights' type per source");
  W* rows = static_cast<W*>(dist.data());
  vertex_t* parents = nullptr;
  if (!pred.is_none()) {
    auto p = nb::cast<any_array>(pred);
    if (on_device(p) || p.dtype() != nb::dtype<vertex_t>() || p.shape(0) != cells)
      throw std::invalid_argument("pred must hold one host row of uint32 per source");
    parents = static_cast<vertex_t*>(p.data());
  }
  nb::gil_scoped_release release;
  try {
    if (method == "johnson") {
      ds::sssp::johnson(g, sources, rows, parents, threads);
    } else if (method == "bellman_ford") {
      for (std::size_t i = 0; i < sources.size(); ++i)
        ds::sssp::bellman_ford(g, sources[i], rows + i * g.num_vertices,
                               parents ? parents + i * g.num_vertices : nullptr);
    } else {
      throw std::invalid_argument("method must be 'bellman_ford' or 'johnson'; got '" + method + "'");
    }
  } catch (const ds::sssp::negative_cycle& e) {
    return e.vertex();
  }
  return -1;
}

std::int64_t negative_weights_into(const std::string& method, std::uint64_t n, const any_array& offsets,
                                   const any_array& targets, const any_array& weights, const any_array& sources,
                                   const any_array& dist, const nb::object& pred, unsigned threads) {
  if (n >= ds::graph::max_vertices) throw std::invalid_argument("too many vertices for 32-bit vertex ids");
  const auto off = host_span<edge_t>(offsets, "offsets");
  const auto tgt = host_span<vertex_t>(targets, "targets");
  const auto src = host_span<vertex_t>(sources, "sources");
  const auto num_vertices = static_cast<vertex_t>(n);
  if (weights.dtype() == nb::dtype<std::int64_t>())
    return signed_rows<std::int64_t>(method, {num_vertices, off, tgt, host_span<std::int64_t>(weights, "weights")},
                                     src, dist, pred, threads);
  return signed_rows<double>(method, {num_vertices, off, tgt, host_span<double>(weights, "weights")}, src, dist, pred,
                             threads);
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "deltasplit's C++ solvers (see the deltasplit package for the Python API)";
  nb::exception<ds::graph::input_error>(m, "InputError", PyExc_ValueError);
  nb::exception<ds::sssp::distance_overflow>(m, "DistanceOverflow", PyExc_OverflowError);

  m.def("gpu_available", [] {
    std::string why;
    bool ok = ds::sssp::gpu_available(&why);
    return std::make_pair(ok, ok ? std::string() : why);
  });
  m.attr("INT_INFINITY") = ds::sssp::int_infinity;
  m.attr("UINT64_INFINITY") = ds::sssp::uint64_infinity;
  m.attr("built_with_cuda") = bool(DELTASPLIT_WITH_CUDA);
  m.attr("NO_VERTEX") = ds::graph::invalid_vertex;
  // The names of the strategies and of the GPU loops, from the C++ tables: Python's STRATEGIES,
  // GPU_STRATEGIES and DRIVERS.
  const auto names = [](const std::vector<std::string>& from) {
    nb::list to;
    for (const std::string& name : from) to.append(nb::str(name.c_str()));
    return to;
  };
  m.attr("STRATEGIES") = names(ds::sssp::strategy_names());
  m.attr("GPU_STRATEGIES") = names(ds::sssp::gpu_strategy_names());
  m.attr("DRIVERS") = names(ds::sssp::driver_names());

  nb::class_<py_graph>(m, "Graph")
      .def_prop_ro("num_vertices", [](const py_graph& g) { return g.view().num_vertices; })
      .def_prop_ro("num_arcs", [](const py_graph& g) { return g.view().num_arcs(); })
      .def_prop_ro("weight_kind",
                   [](const py_graph& g) { return g.view().kind == ds::graph::weight_kind::integer ? "integer" : "real"; })
      .def_prop_ro("weight_type",
                   [](const py_graph& g) {
                     const auto& v = g.view();
                     if (v.kind == ds::graph::weight_kind::integer) return v.wide() ? "uint64" : "uint32";
                     return v.wide() ? "float64" : "float32";
                   })
      .def(
          "distance_type",
          [](const py_graph& g, const std::string& real_type) {
            return std::string(ds::sssp::distance_type_name(solve_type(g, real_type)));
          },
          nb::arg("real_type"))
      .def_prop_ro("on_device", &py_graph::device_graph)
      .def_prop_ro("one_based", [](const py_graph& g) { return g.view().one_based; })
      .def_prop_ro("origin",
                   [](const py_graph& g) {
                     nb::dict d;
                     if (const auto* o = g.origin()) {
                       d["path"] = o->path;
                       d["format"] = o->format;
                       d["symmetric"] = o->symmetric;
                       d["weights_generated"] = o->weights_generated;
                       d["entries_read"] = o->entries_read;
                       d["self_loops_dropped"] = o->self_loops_dropped;
                       d["duplicates_merged"] = o->duplicates_merged;
                     } else {
                       d["format"] = "device arrays";
                     }
                     return d;
                   })
      .def("arrays",
           [](const py_graph& g) {
             // Host graphs: the cleaned CSR as numpy arrays (copies).
             if (g.device_graph()) throw std::invalid_argument("arrays(): the graph is in device memory");
             const auto& v = g.view();
             auto copy = [](const auto& s) {
               using T = std::remove_const_t<std::remove_reference_t<decltype(s[0])>>;
               T* data = new T[s.size() ? s.size() : 1];
               std::copy(s.begin(), s.end(), data);
               nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
               return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {s.size()}, owner);
             };
             nb::object w = v.kind == ds::graph::weight_kind::integer
                                ? (v.wide() ? nb::cast(copy(v.uint64_weights)) : nb::cast(copy(v.int_weights)))
                                : (v.wide() ? nb::cast(copy(v.float64_weights)) : nb::cast(copy(v.real_weights)));
             return nb::make_tuple(copy(v.offsets), copy(v.targets), w);
           })
      .def("run_into", &run_into, nb::arg("source"), nb::arg("dist"), nb::arg("pred").none(), nb::arg("strategy"),
           nb::arg("device"), nb::arg("delta"), nb::arg("buckets"), nb::arg("cutoff"), nb::arg("threads"),
           nb::arg("stream"), nb::arg("hierarchy"), nb::arg("driver"), nb::arg("real_type") = "float64")
      .def("pair_distances_into", &pair_distances_into, nb::arg("sources"), nb::arg("targets"),
           nb::arg("out").noconvert(), nb::arg("device"), nb::arg("threads"), nb::arg("hierarchy"),
           nb::arg("real_type") = "float64")
      .def("reached_within", &reached_within, nb::arg("sources"), nb::arg("cutoff"), nb::arg("threads"),
           nb::arg("real_type") = "float64")
      .def("summarize_rows", &summarize_rows, nb::arg("sources"), nb::arg("device"), nb::arg("phast"), nb::arg("delta"),
           nb::arg("cutoff"), nb::arg("threads"), nb::arg("batch_size"), nb::arg("hierarchy"), nb::arg("driver"),
           nb::arg("real_type") = "float64")
      .def("distance_matrix_into", &distance_matrix_into, nb::arg("sources"), nb::arg("targets").none(),
           nb::arg("out").noconvert(), nb::arg("device"), nb::arg("phast"), nb::arg("delta"), nb::arg("cutoff"),
           nb::arg("threads"), nb::arg("batch_size"), nb::arg("hierarchy"), nb::arg("driver"),
           nb::arg("real_type") = "float64");

  m.def("from_csr_arrays", &from_csr_arrays, nb::arg("n"), nb::arg("offsets"), nb::arg("targets"), nb::arg("weights"),
        nb::arg("symmetric") = false, nb::arg("threads") = 0);
  m.def("from_arcs", &from_arcs, nb::arg("n"), nb::arg("src"), nb::arg("dst"), nb::arg("weights"),
        nb::arg("symmetric") = false, nb::arg("threads") = 0);
  m.def("from_file", &from_file, nb::arg("path"), nb::arg("weight_seed") = 1, nb::arg("threads") = 0);
  m.def("accumulate_reached", &accumulate_reached, nb::arg("rows"), nb::arg("columns"), nb::arg("distances"),
        nb::arg("row0"), nb::arg("per_node"), nb::arg("radii"), nb::arg("decay"), nb::arg("acc").noconvert(),
        nb::arg("threads") = 0);
  m.def("nearest_reached", &nearest_reached, nb::arg("rows"), nb::arg("columns"), nb::arg("distances"),
        nb::arg("row0"), nb::arg("by_node"), nb::arg("first"), nb::arg("per_node"), nb::arg("radius"),
        nb::arg("best_d").noconvert(), nb::arg("best_p").noconvert(), nb::arg("threads") = 0);
  m.def("rmat", &rmat, nb::arg("scale"), nb::arg("edge_factor"), nb::arg("a"), nb::arg("b"), nb::arg("c"),
        nb::arg("d"), nb::arg("undirected"), nb::arg("seed"),
        nb::arg("weight_min"), nb::arg("weight_max"));
  m.def("rmat_presets", [] {
    nb::dict presets;
    for (const ds::graph::rmat_preset& p : ds::graph::rmat_presets)
      presets[p.name] = nb::make_tuple(p.a, p.b, p.c, p.d);
    return presets;
  });
  m.def("grid", &grid, nb::arg("rows"), nb::arg("cols"), nb::arg("keep"), nb::arg("seed"), nb::arg("weight_min"),
        nb::arg("weight_max"));
  m.def("from_device", &from_device, nb::arg("n"), nb::arg("offsets"), nb::arg("targets"), nb::arg("weights"),
        nb::arg("keep"));

  m.def("negative_weights_into", &negative_weights_into, nb::arg("method"), nb::arg("n"), nb::arg("offsets"),
        nb::arg("targets"), nb::arg("weights"), nb::arg("sources"), nb::arg("dist").noconvert(),
        nb::arg("pred").none(), nb::arg("threads") = 0);
}
