// The PHAST GPU seam (phast_engine.hpp) in a build without the CUDA solver: strategy phast never
// asks for it there (gpu_available() is false) and sweeps on the CPU; a direct call says why.
#include <stdexcept>

#include "sssp/phast_engine.hpp"

namespace deltasplit::sssp::detail {

namespace {
constexpr const char* reason = "deltasplit was built without CUDA (CPU-only build)";
}

std::unique_ptr<phast_engine> make_phast_engine(const csr_view&, const contraction_hierarchy<std::uint32_t>&,
                                                const options&) {
  throw std::runtime_error(reason);
}

std::unique_ptr<phast_engine> make_phast_engine(const csr_view&, const contraction_hierarchy<float>&, const options&) {
  throw std::runtime_error(reason);
}

}  // namespace deltasplit::sssp::detail
