// Internal seam between the many-source API (many_sources.cpp) and its CUDA solver
// (src/sssp/gpu/many_sources.cu): an engine owns the device copy of one graph and solves lists of
// sources batch by batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/many_sources.hpp"

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
// Device bytes of one batch of k sources (a multiple of 32) with `columns` targets; the engine
// allocates exactly these (the formula is documented in many_sources.hpp).
std::size_t many_sources_batch_bytes(const graph::csr& g, std::uint32_t k, std::size_t columns);

class many_sources_engine {
 public:
  virtual ~many_sources_engine() = default;
  // sources and targets are checked; targets empty = all vertices; k a multiple of 32.
  virtual void run(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, std::uint32_t k,
                   const many_source_options& mopts, double delta, const block_consumer& consume) = 0;
  virtual std::size_t free_bytes() const = 0;
  virtual std::string device_name() const = 0;
};

// Uploads g; throws std::runtime_error when no device can be used or the graph does not fit.
std::unique_ptr<many_sources_engine> make_many_sources_engine(const graph::csr& g);

}  // namespace deltasplit::sssp::detail
