// Multisplit-SSSP: the delta-stepping loop with multisplit_filing (see multisplit_filing.cuh).
#include "sssp/gpu/frontier_managers.cuh"
#include "sssp/gpu/multisplit_filing.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_multisplit_manager() {
  return std::make_unique<manager_for<Distance, multisplit_filing>>();
}

template std::unique_ptr<frontier_manager<std::uint32_t>> make_multisplit_manager<std::uint32_t>();
template std::unique_ptr<frontier_manager<float>> make_multisplit_manager<float>();

}  // namespace deltasplit::sssp::gpu
