// The tuning constants of the step loop (step_loop/), each with the choice it makes and why (the
// partitioned and Near-Far drivers keep theirs in their folders' tuning.cuh). The measurements
// that chose them are in bench/results/loop_tuning.md, one section per constant (named after it). Sizes that follow from
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

}  // namespace deltasplit::sssp::gpu
