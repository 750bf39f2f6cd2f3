// The public C++ API of deltasplit: single-source shortest paths on a CSR graph, on the GPU
// (delta-stepping with a choice of frontier manager, or PHAST on a contraction hierarchy) or on
// the CPU. Host C++ only: a program
// that embeds the solver needs no CUDA headers (a CUDA stream is passed as an opaque pointer).
//
//   auto g = deltasplit::graph::read_graph("roads.mtx.gz");
//   deltasplit::sssp::solver s(g, {});          // uploads the graph once
//   auto r = s.run(0);                          // r.distance(v), r.reached(v), r.stats
//
// Pipelines that hold their graph as arrays (host or device memory) build the solver on a
// csr_view (csr_view.hpp) and write results into their own buffers with run_into().
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "deltasplit/csr_view.hpp"
#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/progress.hpp"

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
  // Contraction hierarchy + PHAST (Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011): the
  // solver contracts the graph once when it is built (seconds on a road network,
  // bench/results/phast.md; stats.setup_ms; options::hierarchy_file keeps it in a file for later runs), then every
  // source is an upward search on the host and one sweep over the vertices level by level: on
  // the GPU when one is usable (device automatic or gpu), else on the CPU. For many queries on one road network; graphs
  // without hierarchy (social, R-MAT) leave a large uncontracted core and gain nothing.
  phast,
};
const char* strategy_name(strategy s);          // "near-far", "bucketing", ... as on the CLI
strategy strategy_from_name(const std::string& name);  // throws std::invalid_argument
// Every strategy's name: those that run on the GPU when one is usable (the four above and phast),
// then cpu and dijkstra.
std::vector<std::string> strategy_names();
bool is_gpu_strategy(strategy s);  // the delta-stepping strategies of the GPU engine (not phast)
bool runs_on_gpu(strategy s);      // on the GPU when one is usable: is_gpu_strategy, and phast
std::vector<std::string> gpu_strategy_names();  // strategy_names() of those that runs_on_gpu

enum class device_kind { automatic, gpu, cpu };

// The type distances are computed and returned in. Exact in the input's own type:
// - integer weights: uint32 when no simple path can exceed 2^32 - 2, else uint64 (an overflow
//   error only past 2^64 - 2). The bound: the sum over the vertices of each row's heaviest arc, less
//   the smallest of these terms (a simple path has at most n - 1 arcs, each leaving another
//   vertex), which is at most max weight x (n - 1). Wide integer graphs (weights past 2^32 - 1,
//   csr_view) are uint64.
// - real weights: float64 by default, float32 only when asked (options::real_type). A path's
//   length is its left-to-right sum in the distance type (float32 of weights rounded to float, as
//   on the GPU; float64 of the weights as given: scipy's and NetworkX's results bit for bit).
// The one-source GPU engine computes all four types on every driver, and the many-source
// delta-stepping batches too (many_sources.hpp): uint64 in 64-bit integers, exact up to 2^64 - 2.
// One source of 32-bit weights with uint64 distances is solved in 32 bits first and widened when
// no distance passes 2^32 - 2, else again in 64 bits (stats.note says which). PHAST computes
// uint32, float32 and uint64 (on a hierarchy of 64-bit weights), on the GPU or the CPU; it refuses
// float64 (std::invalid_argument): sums through shortcuts are not the left-to-right sums above.
enum class distance_type : std::uint8_t { uint32, uint64, float32, float64 };
const char* distance_type_name(distance_type t);                 // "uint32", "uint64", "float32", "float64"
distance_type distance_type_from_name(const std::string& name);  // throws std::invalid_argument
bool is_wide(distance_type t);                                   // uint64 or float64
// The type a solve of g runs in, by the rule above (host views; reads every weight once).
distance_type distance_type_for(const csr_view& g, distance_type real_type = distance_type::float64);

// How the GPU runs the light iterations of a small frontier inside its thread-block cluster:
// block by block (each block iterates on its share with no cluster barrier until the bucket's
// work is done), cluster-synchronously (one cluster barrier per iteration), or automatic: block
// by block below a mean out-degree of 6 (road networks, meshes), cluster-synchronous above.
enum class light_phase { automatic, block, cluster };

// How the GPU step loop relaxes the heavy arcs (w >= delta) of a finished bucket (Meyer and
// Sanders, Section 2). push: every vertex settled in the bucket relaxes its heavy out-arcs. pull:
// every vertex still outside the settled buckets looks, in its own row (sorted by weight), at the
// arcs light enough to improve it, w < d(v) - (the bucket's lower bound), and takes the best of
// them; the graph must be undirected (csr_view::symmetric: its rows are also its in-arcs) and
// the pass reads every vertex's distance once. On a dense power-law graph the first buckets settle
// the hubs, whose heavy arcs are most of the graph, while the vertices left to improve have few
// arcs light enough to matter: direction-optimising delta-stepping (Chakaravarthy, Checconi,
// Murali, Petrini and Sabharwal, IEEE TPDS 2017, "push and pull" of long edges; Beamer, Asanovic
// and Patterson, SC 2012, for breadth-first search). automatic: pull on undirected graphs for a
// pass whose settled vertices hold more heavy arcs than the vertices not yet settled plus one arc's
// worth per vertex (loop_tuning::pull_pays), push otherwise. The step loop only; pull on a graph
// not marked undirected is std::invalid_argument. statistics::heavy_pulls counts the pull passes.
enum class heavy_relaxation { automatic, push, pull };
const char* heavy_relaxation_name(heavy_relaxation h);                 // "auto", "push", "pull"
heavy_relaxation heavy_relaxation_from_name(const std::string& name);  // throws std::invalid_argument

// Which GPU loop runs a solve. steps: the step loop (one cluster for small frontiers, the grid for
// large ones); partitioned: every SM owns a region of the graph, relaxes it on chip and sends
// offers to the other regions' owners (src/sssp/gpu/partitioned/partitioned_driver.cu); block: the whole solve
// is Near-Far in one thread block with one block barrier per light iteration
// (src/sssp/gpu/near_far/block_driver.cuh; many_sources runs one such block per source); wide: the same
// Near-Far over every block of a cooperative grid (one block per SM), one grid barrier per light
// iteration (block_driver.cuh); automatic: partitioned on sparse graphs (mean out-degree below 6:
// road networks, meshes) and small ones (fewer than 10,000 arcs per SM) whose regions keep their
// distances and arcs in shared memory, wide on the sparse graphs whose regions do not (large grids
// and road networks), when no cutoff is set,
// none of light, cluster_blocks, queue_capacity and heavy is set (they are the step loop's) and the graph
// is in host memory; steps otherwise. The partitioned driver builds its regions once, on its first
// run (statistics::setup_ms), and, like the wide driver, uses three times the automatic delta
// (twelve times on graphs whose regions average at most 400 vertices: partition_tuning::delta_scale
// in the tuning.cuh of each driver's folder under src/sssp/gpu/).
// Every strategy runs the partitioned, block and wide drivers the same way: they file no vertex
// through a frontier manager, and statistics::driver says so. many_sources takes partitioned and
// wide as steps (its vertex-major batch).
enum class gpu_driver { automatic, steps, partitioned, block, wide };
const char* driver_name(gpu_driver d);                 // "auto", "steps", "partitioned", "block", "wide"
gpu_driver driver_from_name(const std::string& name);  // throws std::invalid_argument
std::vector<std::string> driver_names();               // every driver's name, in the order above

// Tuning: how fast, never which distances (docs/strategies.md, "Tuning options"; the CLI's tuning
// group, Python's tune=). The defaults choose by graph and device; every value gives the same
// distances, and the statistics name what ran.
struct tuning {
  // Bucket width; 0 = auto: a rule of the graph's mean arc weight and mean out-degree, one for the
  // CPU and one for the GPU, each fitted to its own measurements (src/sssp/bucket_width.cpp); on
  // the GPU times the loop's multiple (the drivers' above; the step loop's on mean out-degrees
  // above 16 on graphs of fewer than 2^22 vertices, loop_tuning::step_delta_scale in
  // src/sssp/gpu/*/tuning.cuh). Integer graphs round a width down to an integer >= 1; every
  // width is bounded.
  // stats.delta reports the width used.
  double delta = 0;
  std::uint32_t buckets = 10;           // K, for bucketing and multisplit
  // GPU small-frontier modes (docs/strategies.md, "Tuning options"); the defaults choose by graph and device.
  light_phase light = light_phase::automatic;
  // Blocks of the small-frontier cluster: 0 = automatic (16 where the GPU can place a cluster of
  // 16, else 8; 1 where the build has no clusters), or 16, 8 or 1. block by block needs >= 4.
  std::uint32_t cluster_blocks = 0;
  // GPU work queues' initial entries (0: 2n + 1024). A solve that overflows one doubles them and
  // runs again (stats.queue_growths counts it), so any value gives the same distances.
  std::uint32_t queue_capacity = 0;
  // GPU step loop: how a finished bucket's heavy arcs are relaxed (heavy_relaxation above).
  heavy_relaxation heavy = heavy_relaxation::automatic;

  // GPU strategies only: the driver (gpu_driver above; statistics::driver names what ran).
  gpu_driver driver = gpu_driver::automatic;
};

struct options {
  // What to solve, where, and how exactly.
  strategy how = strategy::multisplit;  // used when the run is on the GPU
  device_kind device = device_kind::automatic;  // automatic: GPU when present, else CPU
  // Real weights: the distances' type, float64 (exact in double; on the GPU the step loop) or
  // float32 (weights rounded to float; every GPU driver). Integer weights ignore it (distance_type).
  distance_type real_type = distance_type::float64;
  bool predecessors = false;            // also return a shortest-path tree
  unsigned threads = 0;                 // CPU delta-stepping threads; 0 = all hardware threads (a
                                        // small graph runs on one; stats.device says)
  // Distance cutoff (scipy's `limit`): the solve stops once the bucket it would take next lies past
  // the cutoff's bucket, and every vertex farther than the cutoff is reported unreachable (no
  // predecessor). Distances up to the cutoff are exact. +inf: none. Must be >= 0.
  double cutoff = std::numeric_limits<double>::infinity();
  // The caller's CUDA stream (a cudaStream_t, passed opaquely so this header needs no CUDA), or
  // nullptr for a stream of the solver's own. The GPU solver queues all of its work (upload, solve,
  // copies into device or host buffers) on it, so the solve starts after work the caller queued
  // there before (e.g. the kernels that filled a device graph), and run()/run_into() return once
  // that work is complete (the loop reads a flag from the device per batch of steps). The stream
  // must outlive the solver. Ignored on the CPU.
  void* stream = nullptr;
  // strategy phast only (any other strategy: std::invalid_argument): a file that keeps the
  // contraction hierarchy between runs, so a pipeline pays the contraction once. When the file
  // exists it is loaded (cost: reading it, about the graph's size again, plus one hash over the
  // graph and one over the file and a check of its arrays: tens of milliseconds on road-FLA where
  // building takes seconds; bench/results/phast.md) and must be the hierarchy of this very graph:
  // a file of another graph, another weight kind, or a damaged or foreign file is a
  // graph::input_error naming the file and what is wrong, never a silent rebuild (remove it or
  // choose another path). When it does not exist the hierarchy is built and written there
  // (a temporary file beside it, linked into place only if the path is still free: an existing
  // file is never replaced). stats.setup says which ("loaded" or "built"). Empty: built, not kept.
  std::string hierarchy_file;
  // Progress of phast's contraction, for a caller that shows it (the deltasplit program does on a
  // terminal); the library never prints. Stage "contracting": vertices contracted of the graph's,
  // after each round, on the thread that builds the hierarchy (the solver's or many_sources'
  // constructor, or a set_options that switches to phast), and never after that call returns, so
  // the callback need not outlive it; done == total once the hierarchy is built (the uncontracted
  // core counts as done). Empty: none.
  graph::progress_fn progress;

  // GPU: also fill stats.relax_ms and stats.frontier_ms. They come from a second, instrumented
  // solve (every step launched alone, with events between its halves), run after the timed one:
  // it costs about one more solve and does not change stats.milliseconds (docs/strategies.md, "Phase times").
  // The CPU solver measures its phases inline and always reports them.
  bool phase_times = false;

  // How fast, never which distances.
  tuning tune;
};

struct statistics {
  // What ran: the CPU solver ("cpu", "dijkstra"), "phast", or on the GPU the frontier manager
  // ("multisplit", ...) when the step loop ran, which files work through it; empty when another
  // GPU driver ran (driver names it: the partitioned and Near-Far drivers keep no manager).
  std::string strategy;
  std::string device;          // GPU name or "cpu (N threads)"
  std::string distance_type;   // the type the distances ran in: "uint32", "uint64", "float32", "float64"
  std::string note;            // why the solve ran where it did when that is not what was asked; else empty
  // GPU: the driver that ran and its own figures ("steps", "partitioned: ..." with its rounds,
  // "wide: ...", "block: ..."); "steps (automatic: ...)" names the options that kept the automatic
  // choice on the step loop where the graph alone would take another driver.
  std::string driver;
  double milliseconds = 0;     // solve time, graph upload excluded (phast: upward search + sweep)
  // One-off work the solver did, not in milliseconds: phast's contraction hierarchy, built (the
  // contraction, and writing options::hierarchy_file when one is named) or loaded from
  // options::hierarchy_file, and its upload to the GPU; the partitioned driver's owner regions
  // (host bisection and the reordered graph derived on the device, on its first run). Reported on every run
  // that uses them. 0 otherwise.
  double setup_ms = 0;
  // phast: "built" or "loaded"; partitioned: "regions built" (or, once, "regions built, not used":
  // the automatic driver built the regions on the host, found one too large for shared memory,
  // put nothing on the device and took the step loop); else empty
  std::string setup;
  double relax_ms = 0;         // time in relaxation (GPU: only with options::phase_times)
  double frontier_ms = 0;      // time in frontier management (filing, splitting, compaction), idem
  double delta = 0;            // bucket width used
  std::uint64_t iterations = 0;
  std::uint64_t edges_relaxed = 0;        // arcs relaxed; a pulled settle pass counts the arcs it looked at
  std::uint64_t vertices_processed = 0;   // work items taken from the frontier
  std::uint64_t max_queue = 0;            // largest work queue
  std::uint32_t queue_growths = 0;         // GPU: solves run again because a work queue was too small
  std::uint32_t cluster_blocks = 0;        // GPU: blocks of the small-frontier cluster used
  bool block_light_phase = false;          // GPU: small frontiers' light iterations ran block by block
  std::uint32_t heavy_pulls = 0;           // GPU step loop: buckets whose heavy arcs were pulled (heavy_relaxation)
};

// Unreachable, in the integer distance types (all ones); the real types use +inf.
inline constexpr std::uint32_t int_infinity = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint64_t uint64_infinity = std::numeric_limits<std::uint64_t>::max();

// Distances in one of four vectors, the one of `type` (the 32-bit ones keep their first names).
struct result {
  distance_type type = distance_type::uint32;
  std::vector<std::uint32_t> int_distances;     // uint32; int_infinity when unreachable
  std::vector<float> real_distances;            // float32; +inf when unreachable
  std::vector<std::uint64_t> uint64_distances;  // uint64; uint64_infinity when unreachable
  std::vector<double> float64_distances;        // float64; +inf when unreachable
  std::vector<vertex_t> predecessors;        // empty unless asked; invalid_vertex for the source and unreached
  statistics stats;

  std::size_t size() const;
  bool reached(vertex_t v) const;
  double distance(vertex_t v) const;  // +inf when unreachable (uint64 past 2^53: rounded)
  std::size_t num_reached() const;
};

// Caller-provided destinations of run_into(): num_vertices entries each, in host memory or (GPU
// solver only) device memory. The distances of the solve's type (distance_type_for(g,
// options::real_type); int_infinity, uint64_infinity or +inf when unreachable); predecessors only
// when not null (invalid_vertex for the source and unreached).
struct output_buffers {
  memory_space space = memory_space::host;
  std::uint32_t* int_distances = nullptr;     // uint32
  float* real_distances = nullptr;            // float32
  std::uint64_t* uint64_distances = nullptr;  // uint64
  double* float64_distances = nullptr;        // float64
  vertex_t* predecessors = nullptr;
};

// Thrown when a shortest distance does not fit its type: above 2^32 - 2 or 2^64 - 2 for integer
// weights (uint32 is chosen only where it cannot happen), or rounding to +inf for real weights.
// Longer paths that are not shortest never trigger it.
class distance_overflow : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

// True when a CUDA device can be used; otherwise why not (no device, no driver, CPU-only build).
bool gpu_available(std::string* why_not = nullptr);

// Solves from several sources reusing one uploaded graph (GPU) or thread pool (CPU).
//
// Graph: a graph::csr (kept by reference) or a csr_view (its arrays are not copied by the view);
// either must outlive the solver, so a solver cannot be built from a temporary csr (deleted
// overload). The constructor checks the graph (offsets, targets, weights finite and non-negative:
// std::invalid_argument) and the options; run() throws std::out_of_range for a source that is not
// a vertex. A view in device memory needs the GPU solver (std::invalid_argument otherwise).
//
// Dispatch: a GPU strategy runs on the GPU when device is gpu, or automatic and gpu_available();
// otherwise (device cpu, or no GPU) CPU delta-stepping runs and stats.strategy is "cpu". device gpu
// without a usable GPU throws std::runtime_error with the reason; the CPU strategies with device
// gpu throw invalid_argument.
// phast sweeps on the GPU under the same rule and on the CPU otherwise (stats.strategy "phast"
// either way, stats.device says where); it needs a graph in host memory.
//
// Costs. Construction on the GPU: one upload of the graph (host views) or one device-to-device
// pass (device views: the engine keeps its own copy of targets and weights with every row sorted
// by weight, which its light/heavy split needs; 8 bytes per arc), plus O(n) work buffers; the check
// reads every array once. On the CPU: O(n) workspace, no copy of the graph. run(): the solve plus a
// copy of n distances into new host vectors; run_into(): the solve plus one copy of n distances
// (and n predecessors) into the caller's buffers, device to device where they are device memory;
// the CPU solvers compute into their own vectors and copy them out once.
// phast: the constructor contracts the graph (seconds on a road network, once per solver,
// stats.setup_ms; bench/results/phast.md), or loads the hierarchy from options::hierarchy_file
// (tens of milliseconds), and on the GPU uploads it (about the size of the graph again); each run
// is an upward search on the host and one sweep. Its predecessors come from a pass over the
// original graph's arcs after the sweep.
//
// Thread-safety: a solver is not thread-safe (run() reuses its buffers); use one solver per
// thread. Several solvers may share one graph (read only). On the GPU each solver runs on its own
// stream unless options.stream names one.
class solver {
 public:
  solver(const graph::csr& g, const options& opts);
  solver(graph::csr&&, const options&) = delete;  // the solver would outlive its graph
  solver(const csr_view& g, const options& opts);
  ~solver();
  solver(solver&&) noexcept;
  solver& operator=(solver&&) noexcept;
  result run(vertex_t source);
  // Writes the distances (and predecessors when out.predecessors is set) into out; returns the
  // statistics. Throws std::invalid_argument for missing or wrongly placed buffers.
  statistics run_into(vertex_t source, const output_buffers& out);
  // Changes the strategy, delta, buckets, predecessors and cutoff of later runs without a new
  // upload (the GPU engine answers any of its strategies on the one copy of the graph). device,
  // stream and threads are fixed when the solver is built (std::invalid_argument), and a solver
  // on the GPU takes GPU strategies and phast only. Switching to phast builds the hierarchy then
  // (once, or loads it from hierarchy_file; on the GPU when the solver is there); a later
  // hierarchy_file other than the one the hierarchy came from loads (or builds and writes) the
  // hierarchy again from that file, and an empty one keeps the hierarchy there is. Switching from
  // phast to a delta-stepping strategy uploads the graph for it then (once).
  void set_options(const options& opts);
  const options& settings() const;
  bool on_gpu() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// One source, one call (a solver built and dropped).
result solve(const csr_view& g, vertex_t source, const options& opts = {});

// The oracle: binary-heap Dijkstra, one thread, in distance_type_for(g, real_type). Arcs are added
// one at a time in the distance type (float32: as on the GPU); CPU delta-stepping reproduces its
// distances bit for bit.
result dijkstra(const csr_view& g, vertex_t source, bool predecessors = false,
                distance_type real_type = distance_type::float64);

// Checks r against Dijkstra vertex by vertex, and its predecessor tree when present
// (dist[v] == dist[parent] + w(parent, v), rooted at the source), Dijkstra run in the result's
// type. Integer and float64 distances must be equal; float32 ones may differ by a relative 1e-5
// (a GPU may associate float sums differently), and infinite ones must agree exactly.
// check_predecessors checks the tree alone.
struct validation {
  bool ok = true;
  std::uint64_t mismatches = 0;
  std::string message;  // first few differences when !ok
};
validation validate(const csr_view& g, vertex_t source, const result& r);
// The same against distances already computed by dijkstra(g, source), for checking several
// results from one source without running the oracle each time.
validation validate(const csr_view& g, vertex_t source, const result& r, const result& oracle);
validation check_predecessors(const csr_view& g, vertex_t source, const result& r);

}  // namespace deltasplit::sssp
