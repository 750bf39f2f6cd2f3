// The partitioned driver: delta-stepping with every SM owning a region of the graph (the
// whole-GPU design for road networks), one of the engine's drivers (driver.cuh; the engine's
// automatic choice is in engine.cu). partitioned_driver.cu has the design;
// bench/results/sssp_roads.md the measurements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "deltasplit/csr_view.hpp"
#include "deltasplit/graph/csr.hpp"
#include "sssp/gpu/device_csr.cuh"
#include "sssp/gpu/distance.cuh"
#include "sssp/gpu/driver.cuh"

namespace deltasplit::sssp::gpu {

using graph::edge_t;
using graph::vertex_t;

struct partitioned_outcome {
  double milliseconds = 0;      // the solve, distances mapped back to the caller's ids included
  std::uint64_t rounds = 0;     // grid-wide agreements (one grid barrier each)
  std::uint64_t buckets = 0;    // bucket bounds the solve went through
  std::uint64_t chain = 0;      // sum over rounds of the most local iterations one block ran
  std::uint64_t edges_relaxed = 0;
  std::uint64_t vertices_processed = 0;
  std::uint64_t max_frontier = 0;  // largest local frontier of one block
  bool overflowed = false;
  // Where a block's time goes (mean over blocks, from its SM clocks): the receiver taking mail,
  // the workers' local iterations, the senders sending offers, the workers idle, grid barriers
  // (mail and sending overlap the workers' time).
  double phase_ms[5] = {};
  double iterations_per_block = 0, fixpoints_per_block = 0;
};

// The driver's watchdog. Its blocks wait on one another without bound (a mailbox entry its
// sender counted and writes a moment later, the round's count of outstanding work reaching zero),
// so a message the protocol lost would leave the GPU spinning forever, as an undersized mailbox
// ring once did (partitioned_driver.cu, make_offer). Each such wait reads the GPU's clock every
// 1,024 spins; a wait past stall_limit_ms with nothing moving (twice that for the round's count,
// so that a lost entry's own wait names it) marks the solve stalled, every block leaves at the
// round's end, and solve() throws std::runtime_error naming the wait. The fault
// plants a lost message in every solve (tests only: it is how the watchdog is proved), set up by
// the solve's reset kernel, so the solve kernel has no test branch.
enum class partitioned_fault : std::uint32_t {
  none,
  lost_mail,   // each region's mailbox starts with one entry counted but never written
  lost_count,  // round 0 counts one block at work more than there are: its count never reaches zero
};
struct partitioned_watchdog {
  // Ten seconds, far past any wait of a correct solve: an entry is written instructions after it
  // is counted, and a round lasts as long as its blocks' work (a whole road solve takes
  // milliseconds); time-slicing with other processes suspends the whole context for
  // milliseconds at a time while the clock runs on. A limit, not a tuning: it costs nothing
  // until a wait passes it.
  double stall_limit_ms = 10'000;
  partitioned_fault fault = partitioned_fault::none;
};

// What a region keeps in its block's shared memory: the case the driver is for (on_chip: its
// distances and its arcs), its distances only (arcs read from global memory), or anything, down
// to neither (a forced run).
enum class region_layout { anywhere, distances_on_chip, on_chip };

template <class Distance>
class partitioned_driver : public one_source_driver<Distance> {
 public:
  using one_source_driver<Distance>::solve;  // the engine's solve (driver.cuh)
  // Solves from source (a caller id) with delta-stepping's buckets `bucket`; writes the caller-
  // ordered distances into dist (device, num_vertices entries). Times itself between start and stop.
  virtual partitioned_outcome solve(vertex_t source, bucket_of_distance<Distance> bucket, Distance* dist,
                                    cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop) = 0;
  // The watchdog of the next solves (partitioned_watchdog: its limit, a planted fault).
  virtual void set_watchdog(const partitioned_watchdog& w) = 0;
  // "partitioned: B blocks on S SMs, distances in shared memory" (statistics::driver).
  virtual std::string describe() const = 0;
  // Every region keeps in shared memory what `need` names.
  virtual bool keeps(region_layout need) const = 0;
};

// Whether g's regions could keep on chip what `need` names at all (the mean region within a
// block's shared-memory budget on a GPU of `sms` SMs): a check of sizes, before any region is
// built; always true for region_layout::anywhere. The regions' own layout decides (keeps()).
// distance_words: 2 for 64-bit distances.
bool partition_may_fit_on_chip(vertex_t n, edge_t m, unsigned sms, std::uint32_t distance_words, region_layout need);

// Cuts g (the host graph) into owner regions and derives its reordered copy on ctx.stream from
// graph, the engine's device copy of g (read only while this runs; uploaded are the regions, not
// arcs). A graph whose regions would not all keep on chip what `required` names gets nullptr,
// after the regions are built and before anything is allocated on the device. Throws
// std::runtime_error when the device cannot hold the graph or keep every block resident. Its
// solve() throws std::runtime_error when the watchdog finds it stalled (partitioned_watchdog).
template <class Distance>
std::unique_ptr<partitioned_driver<Distance>> make_partitioned_driver(
    const csr_view& g, const device_csr<Distance>& graph, const driver_context& ctx,
    region_layout required = region_layout::anywhere);

}  // namespace deltasplit::sssp::gpu
