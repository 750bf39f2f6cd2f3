// Many-source shortest paths on the GPU: the batched solver (sssp::many_sources) against the
// one-source loop (sssp::solver, the graph uploaded once, one source after another), in the same
// run, in sources per second and distances per second (sources x targets / wall time).
//
// Modes per graph:
//   loop          sssp::solver::run per source (default strategy), distances copied to the host
//   gpu-reduce    batches handed over as device blocks; a kernel on the batch's stream folds every
//                 distance into a checksum (count and sum of finite distances): nothing leaves the
//                 GPU, as in a pipeline that reduces there
//   host-blocks   batches copied into host memory (what the CLI's --matrix writes from)
// Sampled rows of every batched run are checked against Dijkstra, and the gpu-reduce checksum of a
// run equals the checksum of the same rows computed on the host from the host-blocks run (integer
// graphs). Graphs: USA-road-d.NY (1,000 random sources; all 264,346 in id order streamed to the
// reduction, stopped after --all-limit seconds),
// road-FLA (1,000), chicago-regional (all-pairs), soc-slashdot0902 and Kronecker scale 20
// (1,000 each; generated as sssp_bench does). Sweeps on NY: batch size and bucket width.
// --driver sets the GPU batch engine of every batched mode (options::driver): auto (one thread
// block per source on graphs of mean out-degree below 6, block_driver.cuh, else the vertex-major
// batch), block or steps (the vertex-major batch); the mode column says "block per source" where
// the blocks ran.
// --phast adds PHAST's batches (strategy phast) on NY (1,000 random and all sources) and FLA
// (1,000), one hierarchy per graph built once: its build time is the `setup ms` column, outside
// `wall ms` (the total is the sum).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/many_sources.hpp"
#include "deltasplit/sssp.hpp"

namespace {

using namespace deltasplit;
using graph::vertex_t;

#define BENCH_CUDA(call)                                                                     \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) throw std::runtime_error(std::string(#call) + ": " + cudaGetErrorString(e_)); \
  } while (0)

struct checksum {
  unsigned long long finite = 0, sum = 0;
};

// Count and sum (integer graphs; the integer part for real ones) of the finite distances.
template <class Distance>
__global__ void fold(const Distance* d, std::size_t count, checksum* out) {
  unsigned long long finite = 0, sum = 0;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
    const Distance x = d[i];
    if constexpr (std::is_same_v<Distance, float>) {
      if (isfinite(x)) ++finite, sum += static_cast<unsigned long long>(x);
    } else {
      if (x != 0xFFFFFFFFu) ++finite, sum += x;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    finite += __shfl_xor_sync(0xFFFFFFFFu, finite, o);
    sum += __shfl_xor_sync(0xFFFFFFFFu, sum, o);
  }
  if ((threadIdx.x & 31) == 0 && finite) {
    atomicAdd(&out->finite, finite);
    atomicAdd(&out->sum, sum);
  }
}

struct measured {
  std::string graph, mode, order = "random";
  std::string method;  // the batched solver's engine (many_sources::method); empty for the loop
  std::size_t sources = 0, targets = 0, done = 0;
  std::uint32_t k = 0;
  double delta = 0, wall_ms = 0, solve_ms = 0, setup_ms = 0;
  std::uint64_t iterations = 0, batches = 0;
  std::size_t checked = 0, wrong = 0;
  checksum sum;
  double sources_per_s() const { return done / (wall_ms / 1e3); }
  double distances_per_s() const { return double(done) * double(targets) / (wall_ms / 1e3); }
};

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct stop_early {};

// --driver: the GPU batch engine of every batched mode.
sssp::gpu_driver batch_driver = sssp::gpu_driver::automatic;

// A batched solver handing over device blocks.
sssp::many_sources reducing_solver(const graph::csr& g, sssp::many_source_options mo, double delta,
                                   sssp::strategy how = sssp::strategy::multisplit) {
  sssp::options o;
  o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  o.device = sssp::device_kind::gpu;
  o.tune.driver = batch_driver;
  o.tune.delta = delta;
  o.how = how;
  mo.device_blocks = true;
  return sssp::many_sources(g, o, mo);
}

// Batched with device blocks folded on the GPU; stops after limit_s (the rate is what counts).
measured gpu_reduce(const graph::csr& g, sssp::many_sources& ms, const std::vector<vertex_t>& sources, double limit_s,
                    std::size_t validate_rows) {
  measured m;
  m.method = ms.method();
  m.setup_ms = ms.setup_ms();
  m.sources = sources.size();
  m.targets = g.num_vertices;
  m.k = ms.batch_size(sources.size(), 0);
  checksum* sum = nullptr;
  BENCH_CUDA(cudaMalloc(&sum, sizeof(checksum)));
  BENCH_CUDA(cudaMemset(sum, 0, sizeof(checksum)));
  const std::size_t stride = std::max<std::size_t>(1, sources.size() / std::max<std::size_t>(validate_rows, 1));
  std::vector<std::uint32_t> row_int(g.num_vertices);
  std::vector<float> row_real(g.num_vertices);
  double check_ms = 0;
  const double start = now_ms();
  try {
    ms.run(sources, {}, [&](const sssp::distance_block& b) {
      auto stream = static_cast<cudaStream_t>(b.stream);
      const double t0 = now_ms();
      const std::size_t cells = b.rows * b.columns;
      if (b.int_distances)
        fold<<<528, 256, 0, stream>>>(b.int_distances, cells, sum);
      else
        fold<<<528, 256, 0, stream>>>(b.real_distances, cells, sum);
      BENCH_CUDA(cudaGetLastError());
      for (std::size_t r = 0; r < b.rows && validate_rows; ++r) {
        if ((b.first_row + r) % stride != 0 || m.checked >= validate_rows) continue;
        sssp::distance_block one = b;
        one.rows = 1;
        one.on_device = false;
        if (b.int_distances) {
          BENCH_CUDA(cudaMemcpyAsync(row_int.data(), b.int_distances + r * b.columns, b.columns * 4, cudaMemcpyDeviceToHost, stream));
          one.int_distances = row_int.data();
        } else {
          BENCH_CUDA(cudaMemcpyAsync(row_real.data(), b.real_distances + r * b.columns, b.columns * 4, cudaMemcpyDeviceToHost, stream));
          one.real_distances = row_real.data();
        }
        BENCH_CUDA(cudaStreamSynchronize(stream));
        ++m.checked;
        m.wrong += !sssp::validate_row(g, b.sources[r], {}, one, 0).ok;
      }
      check_ms += now_ms() - t0;  // validation is not the product's work (it also waits for the fold)
      m.done += b.rows;
      m.solve_ms += b.milliseconds;
      m.iterations += b.iterations;
      m.delta = b.delta;
      ++m.batches;
      if ((now_ms() - start) / 1e3 > limit_s && m.done < sources.size()) throw stop_early{};
    });
  } catch (const stop_early&) {
  }
  BENCH_CUDA(cudaDeviceSynchronize());
  m.wall_ms = now_ms() - start - check_ms;
  BENCH_CUDA(cudaMemcpy(&m.sum, sum, sizeof(checksum), cudaMemcpyDeviceToHost));
  BENCH_CUDA(cudaFree(sum));
  return m;
}

// Batched with host blocks; the checksum is formed on the host after the clock stops.
measured host_blocks(const graph::csr& g, const std::vector<vertex_t>& sources, std::size_t validate_rows) {
  sssp::options o;
  o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  o.device = sssp::device_kind::gpu;
  o.tune.driver = batch_driver;
  sssp::many_sources ms(g, o);
  measured m;
  m.method = ms.method();
  m.mode = "host-blocks";
  m.sources = sources.size();
  m.targets = g.num_vertices;
  m.k = ms.batch_size(sources.size(), 0);
  const std::size_t stride = std::max<std::size_t>(1, sources.size() / std::max<std::size_t>(validate_rows, 1));
  double check_ms = 0;
  const double start = now_ms();
  ms.run(sources, {}, [&](const sssp::distance_block& b) {
    const double t0 = now_ms();
    for (std::size_t r = 0; r < b.rows; ++r) {
      if ((b.first_row + r) % stride == 0 && m.checked < validate_rows) {
        ++m.checked;
        m.wrong += !sssp::validate_row(g, b.sources[r], {}, b, r).ok;
      }
    }
    for (std::size_t i = 0; i < b.rows * b.columns; ++i) {
      if (b.int_distances) {
        if (b.int_distances[i] != sssp::int_infinity) ++m.sum.finite, m.sum.sum += b.int_distances[i];
      } else if (std::isfinite(b.real_distances[i])) {
        ++m.sum.finite, m.sum.sum += static_cast<unsigned long long>(b.real_distances[i]);
      }
    }
    m.done += b.rows;
    m.solve_ms += b.milliseconds;
    m.iterations += b.iterations;
    m.delta = b.delta;
    m.batches += b.first_row % m.k == 0;  // a batch may arrive in several host blocks
    check_ms += now_ms() - t0;  // validation and checksum are not the product's work
  });
  m.wall_ms = now_ms() - start - check_ms;
  return m;
}

measured loop(const graph::csr& g, const std::vector<vertex_t>& sources) {
  sssp::options o;
  o.real_type = sssp::distance_type::float32;  // the GPU engine's type for real weights
  o.device = sssp::device_kind::gpu;
  sssp::solver s(g, o);
  s.run(sources.front());  // warm-up
  measured m;
  m.mode = "loop (" + std::string(sssp::strategy_name(o.how)) + ")";
  m.sources = m.done = sources.size();
  m.targets = g.num_vertices;
  m.k = 1;
  const double start = now_ms();
  for (vertex_t v : sources) {
    sssp::result r = s.run(v);
    m.solve_ms += r.stats.milliseconds;
    m.iterations += r.stats.iterations;
    m.delta = r.stats.delta;
  }
  m.wall_ms = now_ms() - start;
  return m;
}

std::vector<vertex_t> random_sources(const graph::csr& g, std::size_t count, std::uint64_t seed) {
  std::vector<vertex_t> with_arcs;
  for (vertex_t v = 0; v < g.num_vertices; ++v)
    if (g.degree(v) > 0) with_arcs.push_back(v);
  std::mt19937_64 rng(seed);
  std::shuffle(with_arcs.begin(), with_arcs.end(), rng);
  with_arcs.resize(std::min(count, with_arcs.size()));
  return with_arcs;
}

struct table {
  std::vector<measured> rows;
  std::string md_path, csv_path;
  void add(measured m, const std::string& graph) {
    m.graph = graph;
    if (m.method == "block") m.mode += ", block per source";
    std::fprintf(stderr, "%-18s %-22s %-7s %7zu/%-7zu k %5u delta %10.6g  %10.2f ms (setup %.0f ms)  %12.1f src/s  %.3e dist/s  it %llu  valid %zu/%zu\n",
                 graph.c_str(), m.mode.c_str(), m.order.c_str(), m.done, m.sources, m.k, m.delta, m.wall_ms, m.setup_ms,
                 m.sources_per_s(), m.distances_per_s(), static_cast<unsigned long long>(m.iterations),
                 m.checked - m.wrong, m.checked);
    rows.push_back(m);
    write();
  }
  void write() const {
    std::ofstream csv(csv_path);
    csv << "graph,mode,order,sources,done,targets,k,delta,wall_ms,solve_ms,setup_ms,sources_per_s,distances_per_s,iterations,"
           "batches,rows_checked,rows_wrong,finite,sum\n";
    for (const measured& m : rows)
      csv << m.graph << ",\"" << m.mode << "\"," << m.order << "," << m.sources << "," << m.done << "," << m.targets << ","
          << m.k << "," << m.delta << "," << m.wall_ms << "," << m.solve_ms << "," << m.setup_ms << "," << m.sources_per_s() << ","
          << m.distances_per_s() << "," << m.iterations << "," << m.batches << "," << m.checked << "," << m.wrong << ","
          << m.sum.finite << "," << m.sum.sum << "\n";
    std::ofstream md(md_path);
    md << "| graph | mode | sources | batch k | delta | wall ms | setup ms | sources/s | distances/s | vs loop | iterations/batch | rows valid |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const measured& m : rows) {
      double loop_rate = 0;
      for (const measured& l : rows)
        if (l.graph == m.graph && l.k == 1) loop_rate = l.sources_per_s();
      md << "| " << m.graph << " | " << m.mode << (m.order == "random" ? "" : " (" + m.order + " order)") << " | "
         << m.done << (m.done < m.sources ? " of " + std::to_string(m.sources) : "") << " | " << m.k << " | " << m.delta
         << " | " << m.wall_ms << " | " << (m.setup_ms > 0 ? std::to_string(m.setup_ms) : "-") << " | " << m.sources_per_s() << " | " << m.distances_per_s() << " | "
         << (loop_rate > 0 ? m.sources_per_s() / loop_rate : 0) << "x | "
         << (m.batches ? m.iterations / m.batches : m.iterations / std::max<std::size_t>(m.done, 1)) << " | "
         << (m.checked ? std::to_string(m.checked - m.wrong) + "/" + std::to_string(m.checked) : "-") << " |\n";
    }
  }
};

double median_of(std::vector<measured>& runs) {
  std::sort(runs.begin(), runs.end(), [](const measured& a, const measured& b) { return a.wall_ms < b.wall_ms; });
  return runs[runs.size() / 2].wall_ms;
}

// The median of `reps` gpu-reduce runs of ms (all runs must agree on the checksum).
measured gpu_median(const graph::csr& g, sssp::many_sources& ms, const std::vector<vertex_t>& sources, unsigned reps,
                    const std::string& mode, std::size_t validate = 10) {
  std::vector<measured> runs;
  for (unsigned r = 0; r < reps; ++r) runs.push_back(gpu_reduce(g, ms, sources, 1e9, r == 0 ? validate : 0));
  std::size_t checked = runs.front().checked, wrong = runs.front().wrong;
  for (const measured& m : runs)
    if (m.sum.finite != runs.front().sum.finite || m.sum.sum != runs.front().sum.sum) ++wrong;
  median_of(runs);
  measured m = runs[runs.size() / 2];
  m.mode = mode;
  m.checked = checked;
  m.wrong = wrong;
  return m;
}

measured gpu_median(const graph::csr& g, const std::vector<vertex_t>& sources, std::uint32_t k, double delta, unsigned reps,
                    const std::string& mode, std::size_t validate = 10, std::uint32_t warp_lanes = 0) {
  sssp::many_source_options mo;
  mo.batch_size = k;
  mo.warp_lanes = warp_lanes;
  sssp::many_sources ms = reducing_solver(g, mo, delta);
  return gpu_median(g, ms, sources, reps, mode, validate);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = ".", datasets = "datasets";
  double all_limit_s = 30;
  std::size_t loop_sources = 100;
  unsigned reps = 3;
  bool phast = false;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--out") out = next();
    else if (a == "--datasets") datasets = next();
    else if (a == "--graph") only.push_back(next());
    else if (a == "--all-limit") all_limit_s = std::stod(next());
    else if (a == "--loop-sources") loop_sources = std::stoul(next());
    else if (a == "--reps") reps = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--phast") phast = true;
    else if (a == "--driver") batch_driver = sssp::driver_from_name(next());
    else {
      std::fprintf(stderr, "usage: many_sources_bench [--out DIR] [--datasets DIR] [--graph NAME]... [--all-limit S] "
                           "[--loop-sources N] [--reps R] [--phast] [--driver auto|steps|block]\n");
      return a == "--help" ? 0 : 2;
    }
  }
  table t;
  t.md_path = out + "/many_sources_bench.md";
  t.csv_path = out + "/many_sources_bench.csv";
  auto wanted = [&](const std::string& name) { return only.empty() || std::find(only.begin(), only.end(), name) != only.end(); };
  auto load = [&](const std::string& file) {
    const double t0 = now_ms();
    graph::csr g = graph::read_graph(datasets + "/" + file);
    std::fprintf(stderr, "%s: %u vertices, %llu arcs, loaded in %.0f ms\n", file.c_str(), g.num_vertices,
                 static_cast<unsigned long long>(g.num_arcs()), now_ms() - t0);
    return g;
  };
  // --phast: batched delta-stepping against PHAST's batches, gpu-reduce, on the roads.
  auto against_phast = [&](const std::string& name, const graph::csr& g, bool all) {
    const std::vector<vertex_t> sources = random_sources(g, 1000, 1);
    t.add(gpu_median(g, sources, 0, 0, reps, "gpu-reduce"), name);
    sssp::many_sources ms = reducing_solver(g, {}, 0, sssp::strategy::phast);
    measured m = gpu_median(g, ms, sources, reps, "gpu-reduce, phast");
    if (m.sum.finite != t.rows.back().sum.finite || m.sum.sum != t.rows.back().sum.sum) ++m.wrong;  // as delta-stepping's
    t.add(m, name);
    if (!all) return;
    std::vector<vertex_t> every(g.num_vertices);
    std::iota(every.begin(), every.end(), 0);
    measured a = gpu_reduce(g, ms, every, 1e9, 5);
    a.mode = "gpu-reduce, phast, all sources";
    a.order = "id";
    t.add(a, name);
    sssp::many_sources delta_stepping = reducing_solver(g, {}, 0);
    measured d = gpu_reduce(g, delta_stepping, every, all_limit_s, 5);
    d.mode = "gpu-reduce, all sources";
    d.order = "id";
    t.add(d, name);
  };
  if (phast) {
    if (wanted("USA-road-d.NY")) against_phast("USA-road-d.NY", load("USA-road-d.NY.gr.gz"), true);
    if (wanted("road-FLA")) against_phast("road-FLA", load("road-FLA.mtx.gz"), false);
  }

  // One graph: the loop on a sample, gpu-reduce and host-blocks on `count` random sources.
  auto standard = [&](const std::string& name, const graph::csr& g, std::size_t count, std::vector<double> factors,
                      std::vector<std::uint32_t> warp_lanes) {
    const std::vector<vertex_t> sources = random_sources(g, count, 1);
    const std::vector<vertex_t> sample(sources.begin(), sources.begin() + std::min(loop_sources, sources.size()));
    t.add(loop(g, sample), name);
    t.add(gpu_median(g, sources, 0, 0, reps, "gpu-reduce"), name);
    const measured d = t.rows.back();
    for (double f : factors)
      t.add(gpu_median(g, sources, 0, d.delta * f, 1, "gpu-reduce, delta x" + std::to_string(f).substr(0, 4), 3), name);
    for (std::uint32_t w : warp_lanes)
      t.add(gpu_median(g, sources, 0, 0, 1, "gpu-reduce, warp_lanes " + std::to_string(w), 3, w), name);
    measured h = host_blocks(g, sources, 10);
    if (g.kind == graph::weight_kind::integer && (h.sum.finite != d.sum.finite || h.sum.sum != d.sum.sum)) ++h.wrong;
    t.add(h, name);
    return sources;
  };

  if (wanted("USA-road-d.NY") && !phast) {
    const graph::csr g = load("USA-road-d.NY.gr.gz");
    const std::vector<vertex_t> sources = standard("USA-road-d.NY", g, 1000, {0.5, 2.0}, {33u, 1u, 4u, 16u});
    for (std::uint32_t k : {256u}) t.add(gpu_median(g, sources, k, 0, 1, "gpu-reduce, k set", 3), "USA-road-d.NY");
    std::vector<vertex_t> all(g.num_vertices);
    std::iota(all.begin(), all.end(), 0);
    sssp::many_sources ms = reducing_solver(g, {}, 0);
    measured a = gpu_reduce(g, ms, all, all_limit_s, 5);
    a.mode = "gpu-reduce, all sources";
    a.order = "id";
    t.add(a, "USA-road-d.NY");
  }
  if (wanted("road-FLA") && !phast) {
    const graph::csr g = load("road-FLA.mtx.gz");
    standard("road-FLA", g, 1000, {2.0}, {33u});
  }
  if (wanted("chicago-regional") && !phast) {
    const graph::csr g = load("chicago-regional.mtx.gz");
    const std::vector<vertex_t> sample = random_sources(g, loop_sources, 1);
    t.add(loop(g, sample), "chicago-regional");
    std::vector<vertex_t> all(g.num_vertices);
    std::iota(all.begin(), all.end(), 0);
    measured a = gpu_median(g, all, 0, 0, reps, "gpu-reduce, all-pairs");
    a.order = "id";
    t.add(a, "chicago-regional");
    measured h = host_blocks(g, all, 10);
    h.mode = "host-blocks, all-pairs";
    h.order = "id";
    t.add(h, "chicago-regional");
  }
  if (wanted("soc-slashdot0902") && !phast) {
    const graph::csr g = load("soc-slashdot0902.mtx.gz");
    standard("soc-slashdot0902", g, 1000, {4.0}, {33u, 1u});
  }
  if (wanted("kron-20") && !phast) {
    graph::rmat_params k20;  // as sssp_bench: Graph500 parameters, edge factor 16, undirected, weights 1..255
    k20.scale = 20, k20.edge_factor = 16, k20.undirected = true, k20.seed = 1;
    k20.weight_min = 1, k20.weight_max = 255;
    const double t0 = now_ms();
    const graph::csr g = graph::generate_rmat(k20);
    std::fprintf(stderr, "kron-20: %u vertices, %llu arcs, generated in %.0f ms\n", g.num_vertices,
                 static_cast<unsigned long long>(g.num_arcs()), now_ms() - t0);
    standard("kron-20", g, 1000, {8.0}, {33u, 1u});
  }
  std::size_t wrong = 0;
  for (const measured& m : t.rows) wrong += m.wrong;
  std::fprintf(stderr, "%s\n", wrong ? "SOME ROWS WRONG" : "all checked rows match Dijkstra");
  return wrong ? 1 : 0;
}
