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
  virtual result run(vertex_t source, const options& opts) = 0;
  virtual std::string device_name() const = 0;
};

// Uploads g. Throws std::runtime_error with the bytes needed and available when the device
// memory does not suffice, and when no device can be used.
std::unique_ptr<gpu_engine> make_gpu_engine(const graph::csr& g, const options& opts);

// True when a CUDA device can be used; else the reason.
bool cuda_device_usable(std::string* why_not);

}  // namespace deltasplit::sssp::detail
