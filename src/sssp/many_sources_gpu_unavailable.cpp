// The many-source GPU seam (many_sources_engine.hpp) in a build without the CUDA solver: the API
// never asks for it there (gpu_available() is false), and a direct call says why.
#include <stdexcept>

#include "sssp/many_sources_engine.hpp"

namespace deltasplit::sssp::detail {

std::unique_ptr<many_sources_engine> make_many_sources_engine(const graph::csr&, distance_type, const options&) {
  throw std::runtime_error("deltasplit was built without CUDA (CPU-only build)");
}

}  // namespace deltasplit::sssp::detail
