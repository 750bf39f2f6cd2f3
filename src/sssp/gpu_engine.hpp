// Internal seam between the host-side API (solve.cpp) and the CUDA solver (src/sssp/gpu/).
// An engine owns the device copy of one graph and answers many sources.
#pragma once

#include <memory>
#include <string>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp::detail {

class gpu_engine {
 public:
  virtual ~gpu_engine() = default;
  // Solves from source into out (host or device buffers; see sssp.hpp), honouring opts.cutoff.
  virtual statistics run_into(vertex_t source, const options& opts, const output_buffers& out) = 0;
  virtual std::string device_name() const = 0;
};

// Uploads g (a host view), or copies a device view's rows on the device, on opts.stream when set.
// Throws std::runtime_error with the bytes needed and available when the device memory does not
// suffice, and when no device can be used; std::invalid_argument for a malformed device view.
// The distances: uint32 for 32-bit integer weights, uint64 for 64-bit ones or with wide_integers
// (32-bit weights whose paths pass 2^32 - 2; host graphs only), float32 or float64
// (opts.real_type) for real ones.
std::unique_ptr<gpu_engine> make_gpu_engine(const csr_view& g, const options& opts, bool wide_integers = false);

// True when a CUDA device can be used; else the reason.
bool cuda_device_usable(std::string* why_not);

}  // namespace deltasplit::sssp::detail
