// The partitioned driver's constants (partitioned_driver.cu), each with the choice it makes; the
// measurements that chose them (the partitioned driver against its earlier kernels and the step
// loop in the same call, every solve validated) are in bench/results/loop_tuning.md, section
// "The partitioned driver", and every run in bench/results/sssp_roads.md.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::sssp::gpu {

struct partition_tuning {
  // One block of 1,024 threads per SM (132 regions on 132 SMs: then 30 worker warps and 2 postman
  // warps) beats two of 512 and every smaller block: fewer, larger regions mean fewer mail hops
  // on a wave's way across the map (bench/results/loop_tuning.md#blocks_per_sm).
  static constexpr unsigned blocks_per_sm = 1;
  // Two postman warps (one sends the outbox, one takes the mail) beat one that does both; idle
  // postmen and an idle worker 0 spin on shared words (sleeping between looks changed nothing). Two
  // sender warps (which claim up to 32 outbox entries each, so a batch in flight does not hold up
  // the next) and the receiver beat one sender, and three are no better
  // (bench/results/loop_tuning.md#threads-sender_warps).
  // A block is `threads` threads: the receiver warp, sender_warps (or dense_sender_warps) senders,
  // the rest workers.
  static constexpr unsigned threads = 1024;
  static constexpr unsigned sender_warps = 2;
  // Regions that cut at least dense_cut of the graph's arcs (denser graphs: social, citation,
  // R-MAT; road regions cut far fewer) get dense_sender_warps senders instead: there the workers
  // wait on a full outbox and the senders set the pace. Nine senders are within noise of the best
  // on every dense graph measured while keeping more workers than thirteen; road graphs lose
  // workers' time with more senders (bench/results/loop_tuning.md#dense_sender_warps-dense_cut).
  static constexpr unsigned dense_sender_warps = 9;
  static constexpr double dense_cut = 0.5;
  // Vertices one local iteration takes at most (the rest waits for the next); a road region has
  // tens in flight. Not measured against other sizes.
  static constexpr std::uint32_t frontier = 512;
  // Threads that share a frontier vertex's row (a road row has 2-4 arcs): its arcs' shared-memory
  // round trips overlap instead of following one another. Four beat two and eight
  // (bench/results/loop_tuning.md#lanes).
  static constexpr std::uint32_t lanes = 4;
  // The shared ring from the workers to the sender: offers to other regions (a worker whose slot
  // is still full waits for the sender). Not measured against other sizes. A push reserves an
  // 8-byte slot with one atomicAdd (instead of a room counter, a tail and two words), and the
  // receiver improves its mail itself (no ring back to the workers; warp-wide takes of the near
  // set): both measured faster (bench/results/loop_tuning.md#outbox).
  static constexpr std::uint32_t outbox = 256;
  // Dynamic shared memory a block may use: 222 KB of an SM's 227 KB over its blocks (the rest,
  // shared_reserve, is the static shared memory and the per-block reservation); on a GPU whose
  // blocks may opt in to less, that limit less shared_reserve.
  static constexpr std::size_t shared_budget = 222 * 1024 / blocks_per_sm;
  static constexpr std::size_t shared_reserve = 5 * 1024;
  // Regions are balanced by the bytes their owner keeps on chip (owner_regions.hpp): a vertex's
  // distance and row offset, 6 bytes an arc (target and a 16-bit weight), in 32-bit rows. Narrow
  // rows (16-bit offsets and targets) keep the same balance; theirs was not measured.
  static constexpr std::uint64_t region_vertex_bytes = 8, region_arc_bytes = 6;
  // 64-bit weights (uint64 past 32 bits, float64) that leave some of a region's weights in global
  // memory, in their own width, are kept on chip as 16-bit places in a table of their distinct
  // values (8 bytes each, in every block's shared memory) when they take at most this many values
  // and the table keeps more weights on chip. 2048 values are 16 KB of a block's 222 KB; road-FLA's
  // weights take 1,001 (integers 0 to 1,000) and then all fit beside 64-bit distances
  // (bench/results/distance_width.md#a-table-of-the-weights-values). Larger tables were not
  // measured.
  static constexpr std::uint32_t weight_table_entries = 2048;
  // The automatic delta (bucket_width.cpp, fitted to the step loop) times this. Wider buckets mean
  // fewer rounds, and a round's end (the idle detection, the far pass and the grid barrier, the
  // next bound's read) costs more than the re-relaxations wider buckets add on road graphs; three
  // was the best or within noise of it on NY, FLA and chicago-regional
  // (bench/results/loop_tuning.md#auto_delta_scale).
  static constexpr double auto_delta_scale = 3.0;
  // ... and this multiple where the mean region holds at most small_region_vertices vertices
  // (delta_scale, below). A block relaxes a small region's whole near set in an iteration or
  // two, so wider buckets cost it re-relaxations it runs in iterations it takes anyway, while a
  // round's end (the slowest block's tail, the idle detection, the grid barrier) dominates on these
  // graphs. Graphs of at most 300 vertices a region gain or stay even at x12, of 495-993 stay even,
  // larger ones lose; a rule that widened the buckets during a solve did worse: the size of a
  // region, known before the solve, tells more
  // (bench/results/loop_tuning.md#small_region_delta_scale-small_region_vertices).
  static constexpr double small_region_delta_scale = 12.0;
  static constexpr double small_region_vertices = 400.0;
  // The driver's regions on a graph of n vertices on a GPU of `sms` SMs: one a block
  // (blocks_per_sm a SM), at most one a vertex, at least one.
  static constexpr std::uint64_t regions(std::uint64_t n, unsigned sms) {
    const std::uint64_t blocks = std::uint64_t{sms} * blocks_per_sm;
    const std::uint64_t r = n < blocks ? n : blocks;
    return r > 0 ? r : 1;
  }
  // The multiple of the automatic delta the driver's buckets take there.
  static constexpr double delta_scale(std::uint64_t n, unsigned sms) {
    return static_cast<double>(n) <= small_region_vertices * static_cast<double>(regions(n, sms))
               ? small_region_delta_scale
               : auto_delta_scale;
  }
  // options.tune.driver == automatic takes this driver below this mean out-degree, when the regions
  // keep their distances and arcs on chip and no cutoff is set (the step loop stops at the cutoff's
  // bucket; this driver solves everything). The threshold is the light-phase rule's
  // (block_light_below_degree): only sparse graphs were measured enough. On denser graphs the
  // regions cut most arcs, so neither the degree nor the cut tells a win from a loss; the size
  // does: see automatic_arcs_per_sm (bench/results/loop_tuning.md#automatic_below_degree).
  static constexpr double automatic_below_degree = 6.0;
  // ... and on a graph of any degree with fewer arcs than this per SM (regions on chip, as above).
  // On denser graphs most arcs cross regions and the driver's time is its senders' (a block's
  // sending and mail grow with its region's arcs), while the step loop's time on a small graph is
  // a floor of a few hundred iterations. Measured on R-MAT, social and citation graphs, the line
  // between the driver winning and losing falls between 7,700 and 13,800 arcs a SM; 10,000 keeps
  // every clear win and leaves the even case to the step loop
  // (bench/results/loop_tuning.md#automatic_arcs_per_sm). Only 132-SM GPUs were measured; per SM
  // because a block's senders carry its region's share of the cut arcs.
  static constexpr double automatic_arcs_per_sm = 10000;
  // A sparse graph whose regions keep their distances on chip but not their arcs takes this driver
  // (arcs read from global memory; or, where a region's row offsets and targets fit, those and the
  // weights of as many of its arcs as fit on chip, the rest read from global memory) when its mean
  // region holds at most this many vertices, else the wide driver. Against the wide driver this one won at 7.6K-15K vertices a region (road-FLA in
  // float32, grids of 1000 x 1000 and 1400 x 1400), tied at 30K (2000 x 2000) and lost at 51K
  // (2600 x 2600) (bench/results/distance_width.md: the forced drivers, and the automatic rule for
  // small regions). In 64 bits the same: with distances on chip it won at 15K (1400 x 1400), and
  // from 30K, where 64-bit distances no longer fit and stay in global memory, it lost (2000, 2300
  // and 2600 square; distance_width.md, the 64-bit drivers on grids).
  static constexpr double automatic_global_arcs_region_vertices = 16384;
};

}  // namespace deltasplit::sssp::gpu
