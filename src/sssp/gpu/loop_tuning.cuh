// The tuning constants of the GPU delta-stepping loop and its drivers, in one place, each with
// the choice it makes and why. The measurements that chose them are in
// bench/results/loop_tuning.md, one section per constant (named after it). Sizes that follow from
// these (the hash sets, the shared-memory layout) are derived where they are laid out
// (cluster_driver.cuh) and checked there by static_assert.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::sssp::gpu {

struct loop_tuning {
  // --- the grid-wide step (grid_step.cuh) ---
  // Launch shape of the grid-stride kernels: 4 blocks of 256 threads per SM. Not measured against
  // other shapes; the kernels' per-warp scratch is sized from grid_threads at compile time, so the
  // shape can change here alone.
  static constexpr unsigned grid_threads = 256;
  static constexpr unsigned grid_blocks_per_sm = 4;
  // A vertex of degree above warp_degree is relaxed in chunks of chunk_arcs arcs, one warp per
  // chunk (R-MAT hubs spread over every SM); smaller rows are gathered 32 at a time by one warp.
  // warp_degree is the warp width; chunk_arcs not measured against other sizes.
  static constexpr std::uint32_t warp_degree = 32;
  static constexpr std::uint32_t chunk_arcs = 256;
  // Arcs a lane of the grid's relax_chunk loads, reads and relaxes at once (a lane's share of a
  // chunk is chunk_arcs / 32 = 8). Four beat one arc at a time on Kronecker graphs
  // (bench/results/loop_tuning.md#chunk_batch). At 4 the chunk kernels use 64 registers, the most
  // that keeps grid_blocks_per_sm blocks of grid_threads on an SM, so 8 was not tried.
  static constexpr std::uint32_t chunk_batch = 4;
  // Arcs a lane of the grid's warp gather (relax_grid, settle_grid) relaxes at once, as chunk_batch
  // for the chunks. Four is a little faster than one or two on Kronecker 20 and equal elsewhere
  // (bench/results/loop_tuning.md#warp_gather_batch); at 4 relax_grid uses 64 registers, no spills.
  static constexpr std::uint32_t warp_gather_batch = 4;

  // --- pulled heavy arcs (grid_step.cuh, relaxation.cuh; sssp::heavy_relaxation) ---
  // A settle pass pulls when its settled vertices hold more heavy arcs (what a push relaxes) than
  // the vertices not settled yet (at most what a pull looks at: a vertex reads the arcs of its row
  // light enough to improve it, all of them only while it is unreached) plus one arc's worth for
  // each vertex (the pass reads every vertex's distance). The settled vertices' heavy arcs are
  // counted by the light iterations that process them, the grid's warp gather and the cluster's
  // block gather (not the block-by-block light phase of sparse graphs), and the cluster's own
  // settle passes are not subtracted from the rest: both only lean the rule to pushing. On a
  // power-law graph the first bucket settles the hubs, whose heavy arcs are most of the graph, so
  // that bucket pulls and the later ones push (arc counts and timings:
  // bench/results/loop_tuning.md#pull_pays).
  static constexpr bool pull_pays(unsigned long long push, unsigned long long not_settled,
                                  std::uint32_t vertices) {
    return push > not_settled + vertices;
  }
  // Arcs a thread of the pull reads of its vertex's row before it hands the rest to the chunk list
  // (chunk_arcs each, one warp a chunk, as the pushed hub rows); pull_batch of them at once, their
  // loads, then their sources' distance reads, issued together as in relax_arcs. Not measured
  // against other values: 32 is the warp gather's row size (warp_degree), 4 chunk_batch.
  static constexpr std::uint32_t pull_thread_arcs = 32;
  static constexpr std::uint32_t pull_batch = 4;

  // --- CUDA-graph replay (delta_stepping.cuh) ---
  // Steps per captured graph: up to two replays of no-op steps run past convergence, and a road
  // solve takes only a few steps once small frontiers run in the cluster; four steps of a dozen
  // launches keep the GPU ahead of the host's replay calls with fewer no-op steps past convergence
  // than 16.
  static constexpr unsigned steps_per_graph = 4;

  // --- the step loop's automatic width (engine.cu) ---
  // gpu_auto_width (sssp/bucket_width.cpp) bends Near-Far's 32 w / d by 4 / d from d = 4 on; on
  // denser graphs of fewer than dense_vertices vertices the step loop runs best with wider buckets
  // than that: it takes the rule times (d / dense_degree)^dense_bend above dense_degree (x1.50 at
  // d = 30, x2.3 at d = 58), the multiples a sweep of R-MAT graphs of mean degree 15, 30 and 58
  // found best (at degree 15 the rule's own width is best). Only below dense_vertices vertices: on
  // larger graphs the frontiers fill the GPU at the rule's width, and wider buckets only add work
  // (Kronecker 25 ran slower with the bend). The sweeps:
  // bench/results/loop_tuning.md#dense_degree-dense_bend-dense_vertices-step_delta_scale.
  // The other loops keep their own multiples of the rule (partition_tuning, block_driver_tuning).
  static constexpr double dense_degree = 16;
  static constexpr double dense_bend = 0.65;
  static constexpr std::uint64_t dense_vertices = std::uint64_t{1} << 22;
  static double step_delta_scale(double mean_degree, std::uint64_t vertices) {
    if (vertices >= dense_vertices || mean_degree <= dense_degree) return 1.0;
    return std::pow(mean_degree / dense_degree, dense_bend);
  }

  // --- the small-frontier cluster (cluster_driver.cuh) ---
  // Frontiers up to this size stay in the cluster (two shared-memory queues of this many vertices
  // in block rank 0, the hash sets twice as large over the blocks): what one block's shared memory
  // holds. Smaller limits lost (bench/results/loop_tuning.md#small_frontier_limit).
  static constexpr std::uint32_t small_frontier_limit = 8192;
  // One block per SM, all its threads sharing a slice of the frontier's arcs (relax_block_gather).
  static constexpr unsigned small_frontier_threads = 1024;
  // Blocks of the cluster: 16 (non-portable) where the GPU can place it, else the portable 8. With
  // the block-by-block light phase 16 beats 8 on the road and social graphs; fewer blocks lose
  // (bench/results/loop_tuning.md#wide_cluster_blocks-portable_cluster_blocks).
  static constexpr std::uint32_t wide_cluster_blocks = 16;
  static constexpr std::uint32_t portable_cluster_blocks = 8;
  // Heavy arcs of up to settle_limit processed vertices, and filing of up to block_file_limit
  // vertices, stay in the cluster; larger batches go to the grid (not measured).
  static constexpr std::uint32_t settle_limit = 4 * small_frontier_limit;
  // On denser graphs the cluster keeps fewer of them: about settle_arcs arcs' worth, so that a
  // bucket's heavy arcs (most of a dense graph's arcs) reach every SM instead of the cluster's 16.
  // The cluster's limit on processed vertices is settle_arcs / mean out-degree, at most
  // settle_limit (roads, mean out-degree up to 3, keep it). A sweep of the limit on the step loop:
  // dense graphs gain from about 100,000 arcs' worth and lose little below it, roads lose at any
  // lower limit (bench/results/loop_tuning.md#settle_arcs).
  static constexpr double settle_arcs = 3.0 * settle_limit;
  static std::uint32_t cluster_settle_limit(double mean_degree) {
    const double vertices = mean_degree > 1 ? settle_arcs / mean_degree : settle_arcs;
    return vertices >= settle_limit ? settle_limit : static_cast<std::uint32_t>(vertices);
  }
  static constexpr std::uint32_t block_file_limit = 4 * small_frontier_limit;
  // A far pile up to this size is re-filed by the cluster itself (two passes of a few batches per
  // thread); above it the grid's far_pile_min and gather cost less.
  static constexpr std::uint32_t block_refile_limit = small_frontier_limit;
  // Vertices a thread files or takes at once, their loads issued before any is looked at.
  static constexpr std::uint32_t filing_batch = 2;
  // The block-wide gather (relaxation.cuh): up to block_tile vertices per pass, each thread
  // issuing gather_batch arcs' loads and atomics before it looks at any; rows longer than
  // block_hub_arcs go to the chunk list. gather_batch is 2 because at 3 the float kernel spilled at
  // the 64 registers that 1024 threads per SM allow (ptxas); block_tile not measured.
  static constexpr std::uint32_t block_tile = 2048;
  static constexpr std::uint32_t gather_batch = 2;
  static constexpr graph::edge_t block_hub_arcs = graph::edge_t{1} << 20;

  // --- the block-local light phase (block_local_light.cuh) ---
  // The automatic light-phase mode runs the light iterations block by block below this mean
  // out-degree, cluster-synchronously from it on: block by block roughly halves the road graphs'
  // times and costs the denser graphs a little
  // (bench/results/loop_tuning.md#block_light_below_degree).
  static constexpr double block_light_below_degree = 6.0;
  // The block-local phase needs this many blocks: a cluster of b blocks keeps 2 * seen_set / b
  // words of the cluster's hash sets in each block, and from 4 blocks on the rest of the area
  // holds a block's own queues, sets and kept lists (checked in cluster_driver.cuh).
  static constexpr std::uint32_t local_min_blocks = 4;
  static constexpr std::uint32_t local_queue_limit = small_frontier_limit / local_min_blocks;
  static constexpr std::uint32_t local_set_size = 4096;
  static constexpr std::uint32_t local_kept_limit = 4096;  // each of local_sink's kept lists
  // A block whose iteration relaxed more arcs than this (four per thread) hands its frontier back
  // to the cluster after the next one: dense frontiers are shared by all blocks again, road
  // frontiers (tens of arcs per block) stay local (not measured against other values).
  static constexpr std::uint64_t local_spread_arcs = 4 * small_frontier_threads;
};

// The partitioned driver's constants (partitioned_driver.cu), each with the choice it makes; the
// measurements that chose them (the partitioned driver against its earlier kernels and the step
// loop in the same call, every solve validated) are in bench/results/loop_tuning.md, section
// "The partitioned driver", and every run in bench/results/sssp_roads.md.
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
  // Dynamic shared memory a block may use: 222 KB of an SM's 227 KB over its blocks (the rest is
  // the static shared memory and the per-block reservation).
  static constexpr std::size_t shared_budget = 222 * 1024 / blocks_per_sm;
  // Regions are balanced by the bytes their owner keeps on chip (owner_regions.hpp): a vertex's
  // distance and row offset, 6 bytes an arc (target and a 16-bit weight).
  static constexpr std::uint64_t region_vertex_bytes = 8, region_arc_bytes = 6;
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
  // options.driver == automatic takes this driver below this mean out-degree, when the regions
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
};

// Tuning constants of the block and wide drivers (block_driver.cuh); the measurements are in
// bench/results/loop_tuning.md, section "The block and wide drivers", and every run in
// bench/results/block_driver.md and sssp_roads.md.
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
  // The automatic many-source engine (options::driver automatic) is one block per source below
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
