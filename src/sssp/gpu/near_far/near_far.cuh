// The Near-Far drivers of one source (block_driver.cuh has the kernels and the design): the block
// driver solves in one thread block (its place is many sources, one block each), the wide driver
// over every block of a cooperative grid with one grid barrier an iteration (sparse graphs whose
// regions do not fit on chip). near_far.cu holds both.
#pragma once

#include <memory>

#include "sssp/gpu/device_csr.cuh"
#include "sssp/gpu/driver.cuh"

namespace deltasplit::sssp::gpu {

enum class near_far_grid { block, wide };

// Whether the wide driver can run on the current device (a cooperative launch of its grid).
template <class Distance>
bool wide_launchable(unsigned multiprocessors);

// The far piles start at tuning::queue_capacity entries (0: 2n + 1024) on first use; a pile that
// fills doubles them and the solve runs again (driver_outcome::queue_growths). The wide driver's
// near queues hold queue_capacity entries each, or n + 512: a near set that fills spills to the far
// pile, as the block driver's does, so they never grow. Throws std::runtime_error for a wide driver
// the GPU cannot launch cooperatively.
template <class Distance>
std::unique_ptr<one_source_driver<Distance>> make_near_far(const device_csr<Distance>& graph, const driver_context& ctx,
                                                           near_far_grid grid);

}  // namespace deltasplit::sssp::gpu
