// The pipeline API on the GPU engine: graphs viewed in device memory (rows unsorted, parallel
// arcs) checked and answered on the device, results written into caller buffers in device and host
// memory, the distance cutoff (the loop stops past its bucket) for every strategy and both kinds of
// weight against Dijkstra with farther vertices cleared, the caller's stream, set_options, and
// malformed device graphs refused. Skips without a GPU.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "common/gpu.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/gpu/gpu_checks.hpp"
#include "sssp/test_graphs.hpp"

namespace {

namespace sssp = deltasplit::sssp;
namespace graph = deltasplit::graph;
using deltasplit_test::gpu_strategies;
using deltasplit_test::arc;
using deltasplit_test::make_csr;
using graph::edge_t;
using graph::vertex_t;

#define SKIP_WITHOUT_GPU()                                                     \
  do {                                                                         \
    std::string why;                                                           \
    if (!deltasplit_test::cuda_device_present(&why)) GTEST_SKIP() << why;      \
  } while (0)

template <class T>
struct device_buffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  explicit device_buffer(std::size_t n) : count(n) {
    if (cudaMalloc(&ptr, std::max<std::size_t>(n, 1) * sizeof(T)) != cudaSuccess) throw std::runtime_error("cudaMalloc");
  }
  device_buffer(const std::vector<T>& host) : device_buffer(host.size()) {
    if (!host.empty()) cudaMemcpy(ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~device_buffer() { cudaFree(ptr); }
  std::vector<T> to_host() const {
    std::vector<T> h(count);
    if (count) cudaMemcpy(h.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
};

// g's arrays with every row reversed and its first arc duplicated at a heavier weight: a device
// graph in the raw form a pipeline may hold (the solver relaxes every arc; the lightest wins).
struct raw_arrays {
  std::vector<edge_t> offsets;
  std::vector<vertex_t> targets;
  std::vector<std::uint32_t> ints;
  std::vector<float> reals;
};
raw_arrays messy(const graph::csr& g) {
  raw_arrays a;
  a.offsets.push_back(0);
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    for (edge_t e = g.offsets[v + 1]; e-- > g.offsets[v];) {
      a.targets.push_back(g.targets[e]);
      if (g.kind == graph::weight_kind::integer)
        a.ints.push_back(g.int_weights[e]);
      else
        a.reals.push_back(g.real_weights[e]);
    }
    if (g.degree(v) > 0) {
      const edge_t e = g.offsets[v];
      a.targets.push_back(g.targets[e]);
      if (g.kind == graph::weight_kind::integer)
        a.ints.push_back(g.int_weights[e] + 3);
      else
        a.reals.push_back(g.real_weights[e] + 3.0f);
    }
    a.offsets.push_back(a.targets.size());
  }
  return a;
}

sssp::options gpu_options(sssp::strategy how) {
  sssp::options o;
  o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  o.how = how;
  o.device = sssp::device_kind::gpu;
  return o;
}

// The expected answer with a cutoff: Dijkstra's distances, farther ones unreachable.
std::vector<double> expected(const graph::csr& g, vertex_t source, double cutoff) {
  sssp::result d = sssp::dijkstra(g, source);
  std::vector<double> out(g.num_vertices);
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    const double x = d.distance(v);
    out[v] = x <= cutoff ? x : std::numeric_limits<double>::infinity();
  }
  return out;
}

::testing::AssertionResult same(const std::vector<double>& want, const sssp::result& got) {
  for (vertex_t v = 0; v < want.size(); ++v) {
    const double a = want[v], b = got.distance(v);
    const bool ok = (std::isinf(a) || std::isinf(b)) ? a == b
                    : got.type == sssp::distance_type::uint32 ? a == b
                                                              : std::fabs(a - b) <= 1e-5 * std::max(a, b);
    if (!ok) return ::testing::AssertionFailure() << "vertex " << v << ": want " << a << ", got " << b;
  }
  return ::testing::AssertionSuccess();
}

std::vector<graph::csr> graphs() {
  std::vector<graph::csr> gs;
  gs.push_back(deltasplit_test::random_graph(3000, 20000, 5, 1000));
  gs.push_back(deltasplit_test::random_graph(3000, 20000, 6, 10, graph::weight_kind::real));
  gs.push_back(graph::read_graph(deltasplit_test::dataset_path("chesapeake.mtx")));
  return gs;
}

}  // namespace

TEST(GpuPipeline, DeviceViewsAndDeviceBuffersMatchDijkstra) {
  SKIP_WITHOUT_GPU();
  for (const graph::csr& g : graphs()) {
    raw_arrays raw = messy(g);
    device_buffer<edge_t> offsets(raw.offsets);
    device_buffer<vertex_t> targets(raw.targets);
    device_buffer<std::uint32_t> ints(raw.ints);
    device_buffer<float> reals(raw.reals);
    sssp::csr_view view;
    view.num_vertices = g.num_vertices;
    view.offsets = {offsets.ptr, raw.offsets.size()};
    view.targets = {targets.ptr, raw.targets.size()};
    view.kind = g.kind;
    view.int_weights = {ints.ptr, raw.ints.size()};
    view.real_weights = {reals.ptr, raw.reals.size()};
    view.space = sssp::memory_space::device;
    for (sssp::strategy how : gpu_strategies) {
      SCOPED_TRACE(std::string(sssp::strategy_name(how)) + ", " + std::to_string(g.num_vertices) + " vertices");
      sssp::solver s(view, gpu_options(how));
      ASSERT_TRUE(s.on_gpu());
      device_buffer<std::uint32_t> dint(g.num_vertices);
      device_buffer<float> dreal(g.num_vertices);
      device_buffer<vertex_t> dparent(g.num_vertices);
      for (vertex_t source : {vertex_t{0}, g.num_vertices / 2}) {
        sssp::output_buffers out;
        out.space = sssp::memory_space::device;
        out.int_distances = dint.ptr;
        out.real_distances = dreal.ptr;
        out.predecessors = dparent.ptr;
        sssp::statistics st = s.run_into(source, out);
        EXPECT_EQ(st.strategy, sssp::strategy_name(how));
        sssp::result r;
        r.type = g.kind == graph::weight_kind::integer ? sssp::distance_type::uint32 : sssp::distance_type::float32;
        if (g.kind == graph::weight_kind::integer)
          r.int_distances = dint.to_host();
        else
          r.real_distances = dreal.to_host();
        r.predecessors = dparent.to_host();
        EXPECT_TRUE(same(expected(g, source, std::numeric_limits<double>::infinity()), r));
        EXPECT_TRUE(sssp::check_predecessors(g, source, r).ok) << sssp::check_predecessors(g, source, r).message;
      }
    }
  }
}

TEST(GpuPipeline, CutoffStopsTheLoopAndClearsFartherVertices) {
  SKIP_WITHOUT_GPU();
  for (const graph::csr& g : graphs()) {
    sssp::result full = sssp::dijkstra(g, 1);
    std::vector<double> finite;
    for (vertex_t v = 0; v < g.num_vertices; ++v)
      if (full.reached(v)) finite.push_back(full.distance(v));
    std::sort(finite.begin(), finite.end());
    for (sssp::strategy how : gpu_strategies) {
      sssp::options o = gpu_options(how);
      o.predecessors = true;
      sssp::solver s(g, o);
      const sssp::result uncut = s.run(1);
      for (double cutoff : {0.0, finite[finite.size() / 5], finite[finite.size() / 2] + 0.25, finite.back()}) {
        SCOPED_TRACE(std::string(sssp::strategy_name(how)) + ", cutoff " + std::to_string(cutoff));
        o.cutoff = cutoff;
        s.set_options(o);
        sssp::result r = s.run(1);
        EXPECT_TRUE(same(expected(g, 1, cutoff), r));
        EXPECT_TRUE(sssp::check_predecessors(g, 1, r).ok) << sssp::check_predecessors(g, 1, r).message;
        if (how != sssp::strategy::workfront && cutoff < finite[finite.size() / 4]) {
          EXPECT_LT(r.stats.edges_relaxed, uncut.stats.edges_relaxed) << "the loop did not stop early";
        }
      }
    }
  }
}

TEST(GpuPipeline, CallersStreamAndHostBuffers) {
  SKIP_WITHOUT_GPU();
  graph::csr g = deltasplit_test::random_graph(5000, 40000, 9, 100);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  {
    sssp::options o = gpu_options(sssp::strategy::multisplit);
    o.stream = stream;
    sssp::solver s(g, o);
    std::vector<std::uint32_t> dist(g.num_vertices, 0);
    sssp::output_buffers out;
    out.int_distances = dist.data();
    s.run_into(4, out);
    EXPECT_EQ(dist, sssp::dijkstra(g, 4).int_distances);
    o.stream = nullptr;
    EXPECT_THROW(s.set_options(o), std::invalid_argument);
    EXPECT_THROW(s.set_options([] {
      sssp::options c;
      c.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
      c.how = sssp::strategy::dijkstra;
      return c;
    }()), std::invalid_argument);
  }
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  cudaStreamDestroy(stream);
}

// The GPU's tree takes the closest tight parent too (predecessors.cuh), as scipy's does.
TEST(GpuPipeline, PredecessorsTakeTheClosestParent) {
  SKIP_WITHOUT_GPU();
  for (graph::weight_kind kind : {graph::weight_kind::integer, graph::weight_kind::real})
    for (sssp::strategy how : gpu_strategies) {
      sssp::options o = gpu_options(how);
      o.predecessors = true;
      sssp::result r = sssp::solve(deltasplit_test::scipy_tie_graph(kind), 4, o);
      EXPECT_EQ(r.predecessors, deltasplit_test::scipy_tie_tree_of_4) << sssp::strategy_name(how);
    }
}

TEST(GpuPipeline, MalformedDeviceGraphsAreRefused) {
  SKIP_WITHOUT_GPU();
  auto attempt = [](std::vector<edge_t> off, std::vector<vertex_t> tgt, std::vector<float> w) -> std::string {
    device_buffer<edge_t> o(off);
    device_buffer<vertex_t> t(tgt);
    device_buffer<float> ww(w);
    sssp::csr_view v;
    v.num_vertices = static_cast<vertex_t>(off.size() - 1);
    v.offsets = {o.ptr, off.size()};
    v.targets = {t.ptr, tgt.size()};
    v.kind = graph::weight_kind::real;
    v.real_weights = {ww.ptr, w.size()};
    v.space = sssp::memory_space::device;
    try {
      sssp::solver s(v, gpu_options(sssp::strategy::near_far));
      return "";
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
  };
  EXPECT_EQ(attempt({0, 1, 2}, {1, 0}, {1.0f, 2.0f}), "");
  EXPECT_NE(attempt({0, 1, 2}, {1, 2}, {1.0f, 2.0f}).find("arc 1 leads to a vertex outside"), std::string::npos);
  EXPECT_NE(attempt({0, 2, 1, 2}, {1, 0}, {1.0f, 2.0f}).find("offsets decrease at vertex 1"), std::string::npos);
  EXPECT_NE(attempt({0, 1, 2}, {1, 0}, {1.0f, -2.0f}).find("arc 1 has a negative"), std::string::npos);
  EXPECT_NE(attempt({0, 1, 2}, {1, 0}, {1.0f, NAN}).find("arc 1 has a negative or non-finite"), std::string::npos);
  EXPECT_NE(attempt({1, 1, 2}, {1, 0}, {1.0f, 2.0f}).find("offsets[0]"), std::string::npos);
  EXPECT_NE(attempt({0, 1, 2}, {1, 0}, {1.0f}).find("1 weights for 2 arcs"), std::string::npos);
}

// Small enough for compute-sanitizer: a device view with a cutoff, device buffers and predecessors
// through every strategy.
TEST(GpuPipeline, SmallDeviceViewWithCutoff) {
  SKIP_WITHOUT_GPU();
  const graph::csr g = deltasplit_test::random_graph(300, 1500, 12, 40);
  raw_arrays raw = messy(g);
  device_buffer<edge_t> offsets(raw.offsets);
  device_buffer<vertex_t> targets(raw.targets);
  device_buffer<std::uint32_t> ints(raw.ints);
  sssp::csr_view view;
  view.num_vertices = g.num_vertices;
  view.offsets = {offsets.ptr, raw.offsets.size()};
  view.targets = {targets.ptr, raw.targets.size()};
  view.int_weights = {ints.ptr, raw.ints.size()};
  view.space = sssp::memory_space::device;
  for (sssp::strategy how : gpu_strategies) {
    SCOPED_TRACE(sssp::strategy_name(how));
    sssp::options o = gpu_options(how);
    o.cutoff = 60;
    sssp::solver s(view, o);
    device_buffer<std::uint32_t> dist(g.num_vertices);
    device_buffer<vertex_t> parent(g.num_vertices);
    sssp::output_buffers out;
    out.space = sssp::memory_space::device;
    out.int_distances = dist.ptr;
    out.predecessors = parent.ptr;
    s.run_into(0, out);
    sssp::result r;
    r.int_distances = dist.to_host();
    r.predecessors = parent.to_host();
    EXPECT_TRUE(same(expected(g, 0, 60), r));
    EXPECT_TRUE(sssp::check_predecessors(g, 0, r).ok);
  }
}
