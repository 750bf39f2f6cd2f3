// Tuning constants of the block and wide drivers (block_driver.cuh); the measurements are in
// bench/results/loop_tuning.md, section "The block and wide drivers", and every run in
// bench/results/block_driver.md and sssp_roads.md.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::sssp::gpu {

struct block_driver_tuning {
  // One source: one block of 1024 threads, the most a block may have, so a road frontier of a few
  // hundred to a few thousand vertices is one pass of the block; near-set entries per queue (two
  // queues of 8-byte entries: 128 KB of shared memory). Not swept for one source: the driver
  // loses to the step loop on every graph measured.
  static constexpr unsigned threads = 1024;
  static constexpr std::uint32_t near_capacity = 8192;
  // Many sources, one block each: blocks of 256 threads with near queues of 2048 entries (32 KB),
  // four blocks per SM: the best on NY and near it on road-FLA
  // (bench/results/loop_tuning.md#rows_threads-rows_near_capacity).
  static constexpr unsigned rows_threads = 256;
  static constexpr std::uint32_t rows_near_capacity = 2048;
  // Far-pile entries a block starts with when it solves one of many sources: n / 16 + 1024, well
  // above the largest piles seen (bench/results/loop_tuning.md#rows_far_divisor); a batch that
  // fills one doubles them and runs again.
  static constexpr std::uint32_t rows_far_divisor = 16;
  // The automatic many-source engine (tuning::driver automatic) is one block per source below
  // this mean out-degree, the vertex-major batch from it on: on road networks a block per source is
  // an order of magnitude faster, while a power-law graph's wide frontiers fill one block and read
  // every arc once per source, where the vertex-major batch reads it once for 32
  // (bench/results/loop_tuning.md#rows_below_degree). The same cut as
  // loop_tuning::block_light_below_degree.
  static constexpr double rows_below_degree = 6.0;
  // Arcs whose loads and atomics a thread issues before it looks at any of their results (not
  // measured against other values).
  static constexpr unsigned arc_batch = 4;
  // Lanes per near-set vertex, at most (block_solve's Lanes): row_lanes while the near set has at
  // most a row_lanes-th of the block's threads, halved until it fits, so that every arc of a road
  // vertex is one round of loads and atomics. With one lane a vertex most warps wait at the block
  // barrier for the few that walk the near set (ncu); four lanes make one source faster. For many
  // sources one lane a vertex: four blocks an SM hide each other's latency, and idle lanes cost
  // issue slots. Fixed at compile time: a lane count read at run time costs a division per near
  // iteration and registers (bench/results/loop_tuning.md#row_lanes-rows_lanes).
  static constexpr unsigned row_lanes = 4;
  static constexpr unsigned rows_lanes = 1;
  // The wide driver (wide_solve: this Near-Far over every block of a cooperative grid, `threads`
  // threads a block, one block per SM) uses this many times the automatic delta: three is the
  // 4000 x 4000 grid's best within noise and most of what wider buckets give the roads
  // (bench/results/loop_tuning.md#wide_auto_delta_scale).
  static constexpr double wide_auto_delta_scale = 3.0;
};

}  // namespace deltasplit::sssp::gpu
