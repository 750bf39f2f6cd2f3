// Sort-based Bucketing: the delta-stepping loop with bucketing_filing (see bucketing_filing.cuh).
#include "sssp/gpu/bucketing_filing.cuh"
#include "sssp/gpu/frontier_managers.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_bucketing_manager() {
  return std::make_unique<manager_for<Distance, bucketing_filing>>();
}

template std::unique_ptr<frontier_manager<std::uint32_t>> make_bucketing_manager<std::uint32_t>();
template std::unique_ptr<frontier_manager<float>> make_bucketing_manager<float>();

}  // namespace deltasplit::sssp::gpu
