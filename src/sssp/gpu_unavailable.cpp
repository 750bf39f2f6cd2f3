// The GPU seam (gpu_engine.hpp) in a build without the CUDA solver: the documented CPU-only
// configuration (no CUDA compiler found). gpu_available() says why, device automatic falls back
// to CPU delta-stepping, and device gpu fails with this reason.
#include <stdexcept>

#include "sssp/gpu_engine.hpp"

namespace deltasplit::sssp::detail {

namespace {
constexpr const char* reason = "deltasplit was built without CUDA (CPU-only build)";
}

bool cuda_device_usable(std::string* why_not) {
  if (why_not) *why_not = reason;
  return false;
}

std::unique_ptr<gpu_engine> make_gpu_engine(const csr_view&, const options&, bool) { throw std::runtime_error(reason); }

}  // namespace deltasplit::sssp::detail
