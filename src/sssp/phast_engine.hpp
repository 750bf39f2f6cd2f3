// Internal seam between the host side of strategy::phast (sssp/phast.cpp: the hierarchy, the CPU
// sweep, the solver and many_sources dispatch) and the GPU sweep (sssp/gpu/phast/phast.cu). An engine
// holds the device copy of one contraction hierarchy and answers one source as the solver's GPU
// engines do (gpu_engine: run_into honours opts.cutoff and opts.predecessors; stats.setup_ms is
// left to the caller) and lists of sources in batches as many_sources' do (many_sources_engine;
// batch_bytes leaves out the upward searches' (cell, distance) pairs, 12 bytes each, which grow
// as a batch needs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sssp/contraction_hierarchy.hpp"
#include "sssp/gpu_engine.hpp"
#include "sssp/many_sources_engine.hpp"

namespace deltasplit::sssp::detail {

class phast_engine : public gpu_engine, public many_sources_engine {
 public:
  // The distances of the pairs (from[i], to[i]) (caller ids, checked by the caller) by the
  // hierarchy's bidirectional query on the device, a warp a pair (gpu/phast/pair_query.cuh), into
  // out: host memory, count entries of the hierarchy's distance type. The indices of the pairs it
  // leaves to the host (closures past the largest warp capacity; a sum that did not fit and no
  // meeting that did) are appended to `left`, their entries of out infinity. Returns false, doing
  // nothing, for a hierarchy the device does not query (a core, more levels than its sort keys
  // hold, a device without the shared memory of the largest capacity): the host answers every
  // pair then. Not for calls at once on one engine (its pair buffers are the engine's).
  virtual bool pairs(const vertex_t* from, const vertex_t* to, std::size_t count, void* out,
                     std::vector<std::size_t>& left) = 0;
};

// Uploads the hierarchy (sweep order, levels, down in-arcs) on opts.stream when set. g is the
// original graph, a host view (overflow checks and, when asked, the predecessor pass read it);
// g and ch must outlive the engine. `threads` run the batches' upward searches (0 = all hardware
// threads). Throws std::runtime_error when no device can be used or the hierarchy does not fit.
std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<std::uint32_t>& ch,
                                                const options& opts);
std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<std::uint64_t>& ch,
                                                const options& opts);
std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<float>& ch,
                                                const options& opts);

}  // namespace deltasplit::sssp::detail
