// The GPU seams (gpu_engine.hpp, many_sources_engine.hpp, phast_engine.hpp) in a build without the
// CUDA solver: the documented CPU-only configuration (no CUDA compiler found). gpu_available()
// says why, device automatic falls back to the CPU solvers (delta-stepping, Dijkstra per source,
// PHAST's CPU sweep), and device gpu, or a direct call of a seam, fails with this reason.
#include <stdexcept>

#include "sssp/gpu_engine.hpp"
#include "sssp/many_sources_engine.hpp"
#include "sssp/phast_engine.hpp"

namespace deltasplit::sssp::detail {

namespace {
constexpr const char* reason = "deltasplit was built without CUDA (CPU-only build)";
}

bool cuda_device_usable(std::string* why_not) {
  if (why_not) *why_not = reason;
  return false;
}

std::unique_ptr<gpu_engine> make_gpu_engine(const csr_view&, const options&, bool) { throw std::runtime_error(reason); }

std::unique_ptr<many_sources_engine> make_many_sources_engine(const graph::csr&, distance_type, const options&) {
  throw std::runtime_error(reason);
}

std::unique_ptr<phast_engine> make_phast_engine(const csr_view&, const contraction_hierarchy<std::uint32_t>&,
                                                const options&) {
  throw std::runtime_error(reason);
}

std::unique_ptr<phast_engine> make_phast_engine(const csr_view&, const contraction_hierarchy<std::uint64_t>&,
                                                const options&) {
  throw std::runtime_error(reason);
}

std::unique_ptr<phast_engine> make_phast_engine(const csr_view&, const contraction_hierarchy<float>&, const options&) {
  throw std::runtime_error(reason);
}

}  // namespace deltasplit::sssp::detail
