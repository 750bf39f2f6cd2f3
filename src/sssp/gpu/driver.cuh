// The seam between the one-source engine (engine.cu) and its drivers: the loops that take one
// source to converged distances on the device. Each lives in its own folder with its own state and
// its own tuning:
//   step_loop/     the delta-stepping step loop, with the paper's frontier managers (strategy)
//   partitioned/   every SM owning a region of the graph (owner regions, shared-memory distances)
//   near_far/      Near-Far in one block (block) or over a cooperative grid (wide)
// The engine uploads the graph once (device_csr.cuh), chooses a driver for each run, hands it a
// solve_request and turns its driver_outcome into statistics. A driver writes the distances into
// the request's array and leaves the cutoff, the overflow check and the tree to the engine.
#pragma once

#include <cstdint>
#include <string>

#include <cuda_runtime.h>

#include "deltasplit/sssp.hpp"
#include "sssp/gpu/distance.cuh"

namespace deltasplit::sssp::gpu {

// What every driver of an engine shares: the engine's stream (options::stream or the engine's
// own), the events that time a solve, and the device's multiprocessors.
struct driver_context {
  cudaStream_t stream;
  cudaEvent_t start, stop;
  unsigned multiprocessors;
};

template <class Distance>
struct solve_request {
  vertex_t source;
  bucket_of_distance<Distance> bucket;  // delta: tuning::delta or the automatic width times auto_delta_scale()
  std::uint32_t last_bucket;            // the cutoff's bucket; no_bucket without a cutoff
  const options& opts;                  // the user's choices and the tuning of this run
  Distance* dist;                       // num_vertices entries of device memory, the engine's
};

// A driver's account of one solve (statistics, sssp.hpp); a figure a driver does not keep stays 0.
struct driver_outcome {
  double milliseconds = 0;  // the solve, distance initialisation included
  double relax_ms = 0, frontier_ms = 0;  // options::phase_times (the step loop)
  bool overflowed = false;  // a sum did not fit the distance type and was dropped
  std::uint64_t iterations = 0, edges_relaxed = 0, vertices_processed = 0, max_queue = 0;
  std::uint32_t queue_growths = 0;
  std::uint32_t cluster_blocks = 0;  // the step loop's small-frontier cluster
  bool block_light_phase = false;
  std::uint32_t heavy_pulls = 0;
  std::string description;  // statistics::driver: the driver's name and its own figures
};

// A work queue's entries, capped below 2^32 - 16 (vertex ids and counters stay 32-bit).
inline std::uint32_t capped(std::uint64_t x) { return x > 0xFFFFFFF0ull ? 0xFFFFFFF0u : static_cast<std::uint32_t>(x); }

// Where the queues of a solve start (tuning::queue_capacity 0): 2n + 1024 entries. A queue that
// fills doubles and the solve runs again (driver_outcome::queue_growths), so no input is truncated.
inline std::uint32_t initial_queue_capacity(vertex_t n) { return capped(2 * std::uint64_t{n} + 1024); }

template <class Distance>
class one_source_driver {
 public:
  virtual ~one_source_driver() = default;
  // The multiple of the automatic bucket width (sssp/bucket_width.cpp) this driver runs at.
  virtual double auto_delta_scale() const = 0;
  // Solves from request.source into request.dist on the engine's stream; throws std::runtime_error
  // for what the device cannot do (memory, a launch), std::invalid_argument for options it cannot
  // honour.
  virtual driver_outcome solve(const solve_request<Distance>& request) = 0;
};

}  // namespace deltasplit::sssp::gpu
