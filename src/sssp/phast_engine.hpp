// Internal seam between the host side of strategy::phast (sssp/phast.cpp: the hierarchy, the CPU
// sweep, the solver and many_sources dispatch) and the GPU sweep (sssp/gpu/phast.cu). An engine
// holds the device copy of one contraction hierarchy and answers one source (solver) or lists of
// sources in batches (many_sources).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "deltasplit/many_sources.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/contraction_hierarchy.hpp"

namespace deltasplit::sssp::detail {

class phast_engine {
 public:
  virtual ~phast_engine() = default;
  // One source into out (host or device buffers, see sssp.hpp), honouring opts.cutoff and
  // opts.predecessors (through out.predecessors). stats.setup_ms is left to the caller.
  virtual statistics run_into(vertex_t source, const options& opts, const output_buffers& out) = 0;
  // Sources (checked) in batches of k (a multiple of 32); targets empty = all vertices. Rows of
  // vertices farther than cutoff read unreachable.
  virtual void run(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, std::uint32_t k,
                   bool device_blocks, double cutoff, const block_consumer& consume) = 0;
  // Device bytes of one batch of k sources with `columns` targets (the engine allocates these,
  // plus the upward searches' (cell, distance) pairs, 12 bytes each, grown as a batch needs).
  virtual std::size_t batch_bytes(std::uint32_t k, std::size_t columns) const = 0;
  virtual std::size_t free_bytes() const = 0;
  virtual std::string device_name() const = 0;
};

// Uploads the hierarchy (sweep order, levels, down in-arcs) on opts.stream when set. g is the
// original graph, a host view (overflow checks and, when asked, the predecessor pass read it);
// g and ch must outlive the engine. `threads` run the batches' upward searches (0 = all hardware
// threads). Throws std::runtime_error when no device can be used or the hierarchy does not fit.
std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<std::uint32_t>& ch,
                                                const options& opts);
std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<float>& ch,
                                                const options& opts);

}  // namespace deltasplit::sssp::detail
