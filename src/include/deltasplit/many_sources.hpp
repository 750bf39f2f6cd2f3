// Many-source shortest paths: distance matrices and origin-destination tables. Host C++ only.
//
//   deltasplit::sssp::many_sources ms(g, {});               // uploads the graph once
//   ms.run(sources, {}, [&](const deltasplit::sssp::distance_block& b) {
//     // b.rows sources (b.sources[0..rows)), b.columns targets, row-major distances
//   });
//   auto table = deltasplit::sssp::od_table(g, sources, targets);   // all rows at once
//
// On the GPU the sources are solved in batches of k (a multiple of 32) at once: the batch's
// distances live vertex-major (dist[v * k + j] for source j of the batch), one delta-stepping
// bucket bound is shared by all of them, and a vertex whose sources improved together is walked
// by a warp, one arc read for all of them (src/sssp/gpu/many_sources/many_sources.cu). Without a GPU the
// sources are spread over CPU threads, one Dijkstra per source. Either way every row equals Dijkstra from its source
// (integer weights exactly, real weights within the validator's relative 1e-5).
// Distances come in distance_type_for(g, opts.real_type) (sssp.hpp); either GPU engine computes
// every type (uint64 in 64-bit integers); phast sweeps uint64 (GPU or CPU) and refuses float64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp {

struct many_source_options {
  // Sources solved together; 0 = automatic (see many_sources::batch_size). A given size is
  // rounded up to a multiple of 32 on the GPU; a batch that does not fit is refused with the
  // bytes needed and available (std::runtime_error), never a crash.
  std::uint32_t batch_size = 0;
  // Where the blocks handed to the consumer live: host memory, or device memory (GPU only; the
  // consumer receives the batch's CUDA stream and may enqueue work on it).
  bool device_blocks = false;
  // Tuning of the GPU relaxation, 0 = the measured default: an item (a vertex and 32 sources of
  // the batch) with at least this many sources to relax is walked by a warp (one arc read serves
  // them all), one with fewer by a thread per source. 33 = always a thread per source.
  std::uint32_t warp_lanes = 0;
};

// Rows of results: rows = sources, columns = targets, row-major. A device block holds a whole
// batch; a batch reaches the host in blocks of at most 64 MiB (rows are copied while the consumer
// reads the previous block). The pointers are valid only during the consumer call. On the device
// (device_blocks), `stream` is the cudaStream_t (as void*) on which the block was written; the
// solver's next work on it follows whatever the consumer enqueues there.
struct distance_block {
  std::size_t first_row = 0;          // index in the source list of the first row
  std::size_t rows = 0;
  std::size_t columns = 0;
  const vertex_t* sources = nullptr;  // rows ids (host memory)
  // The distances, rows x columns, in the pointer of `type` (sssp.hpp's distance_type; the GPU
  // engines deliver uint32, float32 and float64, phast's uint64 too): int_infinity,
  // uint64_infinity or +inf when unreachable.
  distance_type type = distance_type::uint32;
  const std::uint32_t* int_distances = nullptr;     // uint32
  const float* real_distances = nullptr;            // float32
  const std::uint64_t* uint64_distances = nullptr;  // uint64
  const double* float64_distances = nullptr;        // float64
  bool on_device = false;
  void* stream = nullptr;
  // The batch's figures, on its first block (0 on the others). GPU: solve time (output excluded;
  // phast: the wall clock since the batch before it, whose rows' gather and the next batch's upward
  // searches run beside its sweep) and relaxation iterations (phast: levels); CPU: wall time, no
  // iterations.
  double milliseconds = 0;
  std::uint64_t iterations = 0;
  double delta = 0;             // GPU bucket width used (0 on the CPU)
};

using block_consumer = std::function<void(const distance_block&)>;

// Per source, over the vertices it reaches (a finite distance, within the cutoff; the source
// itself included): how many, the sum of their distances and the largest (closeness, eccentricity,
// all pairs reduced). Integer distances (uint32, uint64) are summed exactly in 64 bits, a sum
// past 2^64 - 1 an std::overflow_error naming its source; real ones in double, in an order fixed
// by the engine (the same sums from run to run; within 1e-12 relative of another order's).
struct row_summaries {
  distance_type type = distance_type::uint32;
  std::vector<std::uint64_t> reached;
  std::vector<std::uint64_t> int_sums, int_farthest;  // integer types
  std::vector<double> real_sums, real_farthest;       // real types
  double milliseconds = 0;                            // wall time of the call
  std::uint32_t batch_size = 0;                       // sources a batch
  std::size_t batches = 0;
};

// Solves from lists of sources reusing one uploaded graph (GPU) or one thread team (CPU). Keeps a
// reference to g. Checks as sssp::solver does: the graph and options on construction
// (std::invalid_argument), every source and target before any work (std::out_of_range), device
// gpu without a usable GPU (std::runtime_error). opts.tune.delta sets the bucket width (0 = auto),
// opts.threads the CPU threads. opts.how: phast contracts the graph when the object is built
// (seconds on a road network; setup_ms()), or loads the hierarchy from opts.hierarchy_file (see
// options), and then solves PHAST batches on the GPU (each source an upward search on the host
// threads, then one sweep over the levels for the whole batch, k distances per vertex read
// together) or, without a GPU, sweeps of eight sources at a time on the CPU threads.
// Any other strategy runs the batched delta-stepping above (GPU) or Dijkstra per source (CPU).
// opts.tune.driver picks the GPU batch engine: gpu_driver::block runs one thread block per source
// (src/sssp/gpu/near_far/block_driver.cuh: Near-Far per source in its own row, several sources per SM;
// an order of magnitude faster than the vertex-major batch on road networks,
// bench/results/block_driver.md), steps (or
// partitioned, or wide: one-source drivers) the vertex-major batch above, and automatic the blocks on graphs of mean out-degree
// below 6 (roads, grids) and the vertex-major batch on denser ones, where one arc read serving 32
// sources wins (block_driver_tuning::rows_below_degree has the measurements), float64 batches
// always vertex-major; method() says which.
// Every strategy honours opts.cutoff (scipy's `limit`): the distances up to it equal Dijkstra's and
// every farther vertex reads unreachable; a batch stops once its bucket bound passes the cutoff, a
// Dijkstra once the next vertex lies past it (PHAST sweeps every level, then clears).
//
// Memory on the GPU, for n vertices, m arcs, batch size k and T targets (bytes):
//   graph       (n + 1) * 8 + m * 8 (float64 weights: m * 12)
//   per batch   n * k * D        the vertex-major distance block (D: 4, float64 8)
//             + n * k / 32 * 44  per 32 sources of a vertex: dirty bits, queue stamp, far mark,
//                                3 near-queue, 2 far-pile and 1 warp-queue slots, a lane task
//             + (m / 64 + 1) * k / 32 * 16   arcs of high-degree vertices handed out in chunks
//             + k * T * D        the row-major output block
// driver block instead: per batch k * (n + T) * 4 (every vertex's distance per source, the output
// block: none is allocated when every vertex is a target, the rows are handed over, but the
// automatic k counts one) + k * (2 * F * 8 + 48) (two far piles of F entries and an outcome per
// block; F = opts.tune.queue_capacity, else n / 16 + 1024; the piles double, and the batch runs again,
// when one fills, and a distance_block's milliseconds count every run).
// phast instead: the hierarchy (about the graph's size again) once, and per batch 2 * n * k * D (the
// vertex-major distances of a batch and of the next, whose upward searches run beside its sweep;
// one when the call is one batch) + k * T * D (the output block) + 12 bytes per vertex that the
// batch's upward searches settle on the host.
// plus two pinned host buffers of max(64 MiB, one row) for host blocks. The automatic k is the
// largest multiple of 32, at most 4096 and at most the number of sources rounded up to 32, whose
// batch takes at most half the free device memory (see batch_size).
class many_sources {
 public:
  many_sources(const graph::csr& g, const options& opts, const many_source_options& mopts = {});
  ~many_sources();
  many_sources(many_sources&&) noexcept;
  many_sources& operator=(many_sources&&) noexcept;

  // Calls consume with the rows in the order of the sources (one or more blocks per batch).
  // targets empty = all vertices in id order. Duplicate sources and targets are allowed.
  // Throws distance_overflow as solve does.
  void run(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, const block_consumer& consume);
  // The same, with every vertex a target, given the rows' memory: sources.size() x n distances of
  // type(), row-major, in device memory of the solver's device with device blocks
  // (many_source_options::device_blocks), in host memory on the CPU. The GPU's block engine
  // (method() "block") and the CPU solve each batch straight into its rows, so their blocks point
  // into `rows` (a consumer that would copy them has nothing to copy); the other engines hand over
  // blocks of their own, as run() does.
  void run_into(const std::vector<vertex_t>& sources, void* rows, const block_consumer& consume);

  // The row summaries of the sources (duplicates allowed) with every vertex a target, no rows
  // handed over: phast on the GPU reduces each batch where it lies, in place of its rows' gather
  // (bench/results/phast.md, "All pairs reduced in the engine"), with batches sized for one target
  // column (automatic: at most 8192 sources); every other engine reduces its host blocks as run()
  // delivers them. Checks and throws as run() does.
  row_summaries summarize_rows(const std::vector<vertex_t>& sources);

  // The cutoff of later runs (the rule of opts.cutoff: >= 0, +inf for none; std::invalid_argument
  // otherwise). Costs nothing: the uploaded graph and phast's hierarchy are kept.
  void set_cutoff(double cutoff);

  // The batch size run() would use for this many sources and targets (0 targets = all).
  std::uint32_t batch_size(std::size_t sources, std::size_t targets) const;
  // Device bytes of one batch of k sources with T targets (the formula above; 0 on the CPU).
  std::size_t batch_bytes(std::uint32_t k, std::size_t targets) const;
  bool on_gpu() const;
  std::string device_name() const;
  // How the batches are solved: on the GPU "vertex-major" (the shared-bound batch above), "block"
  // (one thread block per source) or "phast"; on the CPU "dijkstra" or "phast".
  std::string method() const;
  // Wall time of the one-off work done when the object was built: phast's contraction hierarchy,
  // built or loaded from opts.hierarchy_file (and its upload). 0 for the other strategies.
  double setup_ms() const;
  std::string setup() const;  // phast: "built" or "loaded" (statistics::setup); empty otherwise
  distance_type type() const;  // the blocks' distance type

  // strategy::phast only (std::invalid_argument otherwise): the distances of the pairs
  // (from[i], to[i]) without a sweep, by the hierarchy's bidirectional query (an upward search
  // from each end, meeting at the top; Geisberger et al. 2008): on the GPU, a warp a pair, when
  // the sweeps run there and the hierarchy has no core (road networks); otherwise, and for pairs
  // whose searches outgrow a warp's shared memory, on opts.threads host threads. Far cheaper than
  // rows when the pairs share few origins. out: host memory, count entries of type() (uint32 with
  // int_infinity, uint64 with uint64_infinity, float32 with +inf where unreachable). No cutoff. Throws
  // distance_overflow as run does and std::out_of_range for a vertex past the graph.
  void pair_distances(const vertex_t* from, const vertex_t* to, std::size_t count, void* out) const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Distances from each source to each target, rows in the order of sources, columns in the
// order of targets (empty = all vertices): sources.size() x columns, row-major.
struct distance_table {
  distance_type type = distance_type::uint32;
  std::size_t rows = 0, columns = 0;
  std::vector<std::uint32_t> int_distances;     // the vector of `type`, as in result
  std::vector<float> real_distances;
  std::vector<std::uint64_t> uint64_distances;
  std::vector<double> float64_distances;
  double at(std::size_t row, std::size_t column) const;  // +inf when unreachable
};
distance_table od_table(const graph::csr& g, const std::vector<vertex_t>& sources,
                        const std::vector<vertex_t>& targets, const options& opts = {},
                        const many_source_options& mopts = {});

// Checks one row (distances to `targets`, all vertices when empty) against Dijkstra from source
// in the block's type, with validate()'s rule (integers and float64 equal, float32 within a
// relative 1e-5, infinities exact).
validation validate_row(const graph::csr& g, vertex_t source, const std::vector<vertex_t>& targets,
                        const distance_block& block, std::size_t row);

// Checks entry i of s, the summaries of `source`'s row, against Dijkstra from source in s.type with
// the vertices past cutoff left out: counts and integer sums and maxima exactly, real ones within a
// relative 1e-12 (float32 distances: 1e-5, validate_row's rule); the message names the source.
validation validate_summary(const graph::csr& g, vertex_t source, const row_summaries& s, std::size_t i,
                           double cutoff = std::numeric_limits<double>::infinity());

}  // namespace deltasplit::sssp
