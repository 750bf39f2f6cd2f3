// The frontier managers the engine can run, each the one delta-stepping loop (delta_stepping.cuh)
// instantiated with its filing policy, compiled in its own translation unit:
//   atomic filing (Near-Far with K = 1; the workfront sweep with K = 1 and no priority) in engine.cu,
//   sort-based Bucketing in bucketing.cu, Multisplit-SSSP in multisplit_sssp.cu.
#pragma once

#include <memory>

#include "sssp/gpu/delta_stepping.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_atomic_manager();
template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_bucketing_manager();
template <class Distance>
std::unique_ptr<frontier_manager<Distance>> make_multisplit_manager();

}  // namespace deltasplit::sssp::gpu
