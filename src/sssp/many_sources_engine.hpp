// Internal seam between the many-source API (many_sources.cpp) and the GPU engines that solve lists
// of sources batch by batch: batched delta-stepping (src/sssp/gpu/many_sources/many_sources.cu), which owns the
// device copy of one graph, and PHAST (src/sssp/gpu/phast/phast.cu, through phast_engine.hpp), which owns
// the device copy of one contraction hierarchy. Also the making of a block, which the CPU rows
// (many_sources.cpp) share with them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/many_sources.hpp"
#include "sssp/distance_policy.hpp"

namespace deltasplit::sssp::detail {

// Arcs one warp walks for an item before it hands the rest of a high-degree vertex out as chunks.
inline constexpr std::uint32_t many_sources_split_degree = 64;
// An item (vertex, 32 sources) with at least this many lanes to relax is walked by a warp, one
// arc read for all its lanes; with fewer, each lane is a thread's task (bench/results/many_sources.md).
inline constexpr std::uint32_t many_sources_warp_lanes = 8;
// Chunks one iteration can file for a batch of k sources: each group of 32 lanes files at most
// one chunk per split_degree arcs.
inline std::size_t many_sources_chunk_capacity(std::uint64_t arcs, std::uint32_t k) {
  return (arcs / many_sources_split_degree + 1) * (k / 32);
}
// Device bytes of one batch of k sources (a multiple of 32) with `columns` targets in distances of
// distance_bytes (4 or 8); the engine allocates exactly these (the formula is documented in
// many_sources.hpp).
std::size_t many_sources_batch_bytes(const graph::csr& g, std::uint32_t k, std::size_t columns,
                                     std::size_t distance_bytes);

class many_sources_engine {
 public:
  virtual ~many_sources_engine() = default;
  // sources and targets are checked; targets empty = all vertices; k a multiple of 32. Vertices
  // farther than opts.cutoff read unreachable; opts.tune.delta is delta-stepping's bucket width (0 =
  // auto); mopts: device_blocks, and delta-stepping's warp_lanes.
  // rows: null, or (targets empty, device blocks) the caller's device memory for every source's
  // row, which an engine may solve into (many_sources::run_into).
  virtual void run(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, std::uint32_t k,
                   const options& opts, const many_source_options& mopts, const block_consumer& consume,
                   void* rows = nullptr) = 0;
  // The row summaries (many_sources::summarize_rows) of every source with every vertex a target,
  // reduced on the device in batches of k, into out's vectors (sized and typed by the caller).
  // False, doing nothing, when the engine does not reduce on the device (the caller reduces
  // run()'s host blocks then).
  virtual bool summarize_rows(const std::vector<vertex_t>& sources, std::uint32_t k, const options& opts,
                              row_summaries& out) {
    (void)sources, (void)k, (void)opts, (void)out;
    return false;
  }
  // Device bytes of one batch of k sources with `columns` targets (what the engine allocates for it).
  virtual std::size_t batch_bytes(std::uint32_t k, std::size_t columns) const = 0;
  // Free device memory, counting what the engine's batch buffers hold as free (they are reused).
  virtual std::size_t free_bytes() const = 0;
  virtual std::string device_name() const = 0;
  // How the batches are solved: "vertex-major", "block" (one thread block per source) or "phast".
  virtual std::string method() const = 0;
};

// The block of one batch: `rows` rows from sources[first] on, `columns` columns, the batch's
// figures (distance_block); the distances are set by the caller (set_distances).
inline distance_block batch_block(const std::vector<vertex_t>& sources, std::size_t first, std::size_t rows,
                                  std::size_t columns, distance_type type, double milliseconds,
                                  std::uint64_t iterations = 0, double delta = 0) {
  distance_block b;
  b.first_row = first;
  b.rows = rows;
  b.columns = columns;
  b.sources = sources.data() + first;
  b.type = type;
  b.milliseconds = milliseconds;
  b.iterations = iterations;
  b.delta = delta;
  return b;
}

// The GPU engines' blocks: the 32-bit type of the graph's kind.
inline distance_block batch_block(const std::vector<vertex_t>& sources, std::size_t first, std::size_t rows,
                                  std::size_t columns, graph::weight_kind kind, double milliseconds,
                                  std::uint64_t iterations = 0, double delta = 0) {
  return batch_block(sources, first, rows, columns, narrow_type(kind), milliseconds, iterations, delta);
}

// Points the block at its row-major distances: the pointer of Distance's type.
template <class Distance>
void set_distances(distance_block& b, const Distance* rows) {
  distances_in<Distance>(b) = rows;
}

// The batched delta-stepping engine in distances of `type` (uint32, float32 or float64; a float64
// solve of float weights reads them widened): uploads g; throws std::runtime_error when no device
// can be used or the graph does not fit. One thread block per source (block_driver.cuh) instead
// of the vertex-major batch when opts.tune.driver is gpu_driver::block, or automatic and the
// graph's mean out-degree is below block_driver_tuning::rows_below_degree; its far piles start at
// opts.tune.queue_capacity entries (0: automatic).
std::unique_ptr<many_sources_engine> make_many_sources_engine(const graph::csr& g, distance_type type,
                                                              const options& opts);

}  // namespace deltasplit::sssp::detail
