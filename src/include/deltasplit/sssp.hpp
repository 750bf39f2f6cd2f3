// The public C++ API of deltasplit: single-source shortest paths on a CSR graph, on the GPU
// (delta-stepping with a choice of frontier manager) or on the CPU. Host C++ only: a program
// that embeds the solver needs no CUDA headers.
//
//   auto g = deltasplit::graph::read_graph("roads.mtx.gz");
//   deltasplit::sssp::solver s(g, {});          // uploads the graph once
//   auto r = s.run(0);                          // r.distance(v), r.reached(v), r.stats
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::sssp {

using graph::edge_t;
using graph::vertex_t;

enum class strategy {
  near_far,     // GPU: near set + far pile with a growing threshold (Davidson et al. 2014)
  bucketing,    // GPU: K buckets of width delta filed by CUB radix sort on bucket ids
  multisplit,   // GPU: the same buckets filed by the multisplit core (Multisplit-SSSP)
  workfront,    // GPU: Bellman-Ford-style frontier sweep, no priority (baseline)
  delta_stepping_cpu,  // CPU: multi-threaded delta-stepping (fallback and baseline)
  dijkstra,     // CPU: binary-heap Dijkstra (the oracle)
};
const char* strategy_name(strategy s);          // "near-far", "bucketing", ... as on the CLI
strategy strategy_from_name(const std::string& name);  // throws std::invalid_argument
bool is_gpu_strategy(strategy s);

enum class device_kind { automatic, gpu, cpu };

// How the GPU runs the light iterations of a small frontier inside its thread-block cluster:
// block by block (each block iterates on its share with no cluster barrier until the bucket's
// work is done), cluster-synchronously (one cluster barrier per iteration), or automatic: block
// by block below a mean out-degree of 6 (road networks, meshes), cluster-synchronous above.
enum class light_phase { automatic, block, cluster };

// Which GPU loop runs a solve. steps: the step loop (one cluster for small frontiers, the grid for
// large ones); partitioned: every SM owns a region of the graph, relaxes it on chip and sends
// offers to the other regions' owners (src/sssp/gpu/partitioned_driver.cu); automatic: steps (the
// partitioned driver is still slower on the roads measured). Every strategy runs the partitioned
// driver the same way: it files no vertex through a frontier manager, and statistics::driver says so.
enum class gpu_driver { automatic, steps, partitioned };
const char* driver_name(gpu_driver d);                 // "auto", "steps", "partitioned"
gpu_driver driver_from_name(const std::string& name);  // throws std::invalid_argument

struct options {
  strategy how = strategy::multisplit;  // used when the run is on the GPU
  device_kind device = device_kind::automatic;  // automatic: GPU when present, else CPU
  // Bucket width; 0 = auto: a rule of the graph's mean arc weight and mean out-degree, one for the
  // CPU and one for the GPU, each fitted to its own measurements (src/sssp/bucket_width.cpp).
  // Integer graphs round a width down to an integer >= 1; every width is bounded.
  // stats.delta reports the width used.
  double delta = 0;
  std::uint32_t buckets = 10;           // K, for bucketing and multisplit
  bool predecessors = false;            // also return a shortest-path tree
  unsigned threads = 0;                 // CPU delta-stepping threads; 0 = all hardware threads (a
                                        // small graph runs on one; stats.device says)
  // GPU: also fill stats.relax_ms and stats.frontier_ms. They come from a second, instrumented
  // solve (every step launched alone, with events between its halves), run after the timed one:
  // it costs about one more solve and does not change stats.milliseconds (README: its cost).
  // The CPU solver measures its phases inline and always reports them.
  bool phase_times = false;
  // GPU small-frontier modes (README, "Strategies"); the defaults choose by graph and device.
  light_phase light = light_phase::automatic;
  // Blocks of the small-frontier cluster: 0 = automatic (16 where the GPU can place a cluster of
  // 16, else 8; 1 where the build has no clusters), or 16, 8 or 1. block by block needs >= 4.
  std::uint32_t cluster_blocks = 0;
  // GPU work queues' initial entries (0: 2n + 1024). A solve that overflows one doubles them and
  // runs again (stats.queue_growths counts it), so any value gives the same distances.
  std::uint32_t queue_capacity = 0;

  gpu_driver driver = gpu_driver::automatic;  // GPU strategies only
};

struct statistics {
  std::string strategy;        // name of what actually ran
  std::string device;          // GPU name or "cpu (N threads)"
  std::string driver;          // GPU: the loop that ran ("steps", or "partitioned: ..." with its rounds)
  double milliseconds = 0;     // solve time, graph upload excluded
  double relax_ms = 0;         // time in relaxation (GPU: only with options::phase_times)
  double frontier_ms = 0;      // time in frontier management (filing, splitting, compaction), idem
  double delta = 0;            // bucket width used
  std::uint64_t iterations = 0;
  std::uint64_t edges_relaxed = 0;
  std::uint64_t vertices_processed = 0;   // work items taken from the frontier
  std::uint64_t max_queue = 0;            // largest work queue
  std::uint32_t queue_growths = 0;         // GPU: solves run again because a work queue was too small
  std::uint32_t cluster_blocks = 0;        // GPU: blocks of the small-frontier cluster used
  bool block_light_phase = false;          // GPU: small frontiers' light iterations ran block by block
};

inline constexpr std::uint32_t int_infinity = std::numeric_limits<std::uint32_t>::max();

struct result {
  graph::weight_kind kind = graph::weight_kind::integer;
  std::vector<std::uint32_t> int_distances;  // kind == integer; int_infinity when unreachable
  std::vector<float> real_distances;         // kind == real; +inf when unreachable
  std::vector<vertex_t> predecessors;        // empty unless asked; invalid_vertex for the source and unreached
  statistics stats;

  std::size_t size() const { return kind == graph::weight_kind::integer ? int_distances.size() : real_distances.size(); }
  bool reached(vertex_t v) const;
  double distance(vertex_t v) const;  // +inf when unreachable
  std::size_t num_reached() const;
};

// Thrown when a shortest distance does not fit: above 2^32 - 2 for integer weights (sums are
// formed in 64 bits), or rounding to +inf for real weights. Longer paths that are not shortest
// never trigger it.
class distance_overflow : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

// True when a CUDA device can be used; otherwise why not (no device, no driver, CPU-only build).
bool gpu_available(std::string* why_not = nullptr);

// Solves from several sources reusing one uploaded graph (GPU) or thread pool (CPU). The solver
// keeps a reference to g, which must outlive it. The constructor checks the graph (offsets,
// targets, weights finite and non-negative: std::invalid_argument) and the options; run() throws
// std::out_of_range for a source that is not a vertex. Dispatch: a GPU strategy runs on the GPU
// when device is gpu, or automatic and gpu_available(); otherwise (device cpu, or no GPU) CPU
// delta-stepping runs and stats.strategy is "cpu". device gpu without a usable GPU throws
// std::runtime_error with the reason; the CPU strategies with device gpu throw invalid_argument.
class solver {
 public:
  solver(const graph::csr& g, const options& opts);
  ~solver();
  solver(solver&&) noexcept;
  solver& operator=(solver&&) noexcept;
  result run(vertex_t source);
  const options& settings() const;
  bool on_gpu() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// One source, one call (a solver built and dropped).
result solve(const graph::csr& g, vertex_t source, const options& opts = {});

// The oracle: binary-heap Dijkstra, one thread. Real weights are added in float, one arc at a
// time, as on the GPU; CPU delta-stepping reproduces its distances bit for bit.
result dijkstra(const graph::csr& g, vertex_t source, bool predecessors = false);

// Checks r against Dijkstra vertex by vertex, and its predecessor tree when present
// (dist[v] == dist[parent] + w(parent, v), rooted at the source). Integer distances must be
// equal; real distances may differ by a relative 1e-5 (a GPU may associate float sums
// differently), and infinite ones must agree exactly. check_predecessors checks the tree alone.
struct validation {
  bool ok = true;
  std::uint64_t mismatches = 0;
  std::string message;  // first few differences when !ok
};
validation validate(const graph::csr& g, vertex_t source, const result& r);
// The same against distances already computed by dijkstra(g, source), for checking several
// results from one source without running the oracle each time.
validation validate(const graph::csr& g, vertex_t source, const result& r, const result& oracle);
validation check_predecessors(const graph::csr& g, vertex_t source, const result& r);

}  // namespace deltasplit::sssp
