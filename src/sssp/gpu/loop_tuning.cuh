// The tuning constants of the GPU delta-stepping loop, in one place, each with the measurement
// that chose it (H200, sm_90, 132 SMs) or, where none was recorded, the commit that set it and
// why. Sizes that follow from these (the hash sets, the shared-memory layout) are derived where
// they are laid out (cluster_driver.cuh) and checked there by static_assert.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::sssp::gpu {

struct loop_tuning {
  // --- the grid-wide step (grid_step.cuh) ---
  // Launch shape of the grid-stride kernels: 4 blocks of 256 threads per SM. Not measured against
  // other shapes (2df63cf, the first engine); the kernels' per-warp scratch is sized from
  // grid_threads at compile time, so the shape can change here alone.
  static constexpr unsigned grid_threads = 256;
  static constexpr unsigned grid_blocks_per_sm = 4;
  // A vertex of degree above warp_degree is relaxed in chunks of chunk_arcs arcs, one warp per
  // chunk (R-MAT hubs spread over every SM); smaller rows are gathered 32 at a time by one warp.
  // warp_degree is the warp width; chunk_arcs not measured against other sizes (2df63cf).
  static constexpr std::uint32_t warp_degree = 32;
  static constexpr std::uint32_t chunk_arcs = 256;
  // Arcs a lane of the grid's relax_chunk loads, reads and relaxes at once (a lane's share of a
  // chunk is chunk_arcs / 32 = 8). H100, 2026-11-28, against one arc at a time, same call: Kronecker
  // 20 (near-far, 10 sources x 5, validated) 3.91-3.94 against 4.05-4.06 ms, Kronecker 23 (3
  // sources x 3) 25.17-25.50 against 25.56-25.86. At 4 the chunk kernels use 64 registers, the most
  // that keeps grid_blocks_per_sm blocks of grid_threads on an SM, so 8 was not tried.
  static constexpr std::uint32_t chunk_batch = 4;
  // Arcs a lane of the grid's warp gather (relax_grid, settle_grid) relaxes at once, as chunk_batch
  // for the chunks. H200, 2026-11-28, the CLI, near-far, one call, two passes, at 4 / 2 / 1: Kronecker
  // 20 (10 sources x 5, validated) 3.59-3.60 / 3.61 / 3.64-3.65 ms; soc-slashdot0902 0.68-0.70 /
  // 0.68-0.70 / 0.67; cit-HepPh and USA-road-d.NY equal (0.28, 1.78-1.80; the cluster takes most of
  // their steps); Kronecker 25 (3 sources x 3, one pass) 86.91 at 4, 86.71 at 1. At 4 relax_grid
  // uses 64 registers (48 at 1), no spills.
  static constexpr std::uint32_t warp_gather_batch = 4;

  // --- pulled heavy arcs (grid_step.cuh, relaxation.cuh; sssp::heavy_relaxation) ---
  // A settle pass pulls when its settled vertices hold more heavy arcs (what a push relaxes) than
  // the vertices not settled yet (at most what a pull looks at: a vertex reads the arcs of its row
  // light enough to improve it, all of them only while it is unreached) plus one arc's worth for
  // each vertex (the pass reads every vertex's distance). The settled vertices' heavy arcs are
  // counted by the light iterations that process them, the grid's warp gather and the cluster's
  // block gather (not the block-by-block light phase of sparse graphs), and the cluster's own
  // settle passes are not subtracted from the rest: both only lean the rule to pushing.
  // Where it pays, counted on the host (the exact bucket sequence of delta-stepping, distances
  // from Dijkstra, rows sorted by weight; Graph500 R-MAT undirected, weights [0, 1000], source 1):
  //   Kronecker 20 at delta 106: bucket 0 settles 317,128 of the 646,295 reached vertices, whose
  //     heavy arcs are 26.9 M of the graph's 31.4 M arcs; a pull there looks at 1.11 M arcs (1.10 M
  //     of them the whole heavy rows of vertices still unreached). Every later bucket pushes fewer
  //     than 0.62 M. Heavy arcs over the solve: 28.1 M pushed, 1.13 M with the cheaper side per bucket.
  //   Kronecker 22 at delta 65: bucket 0's push 113.3 M of 128.3 M arcs, its pull 6.31 M; over the
  //     solve 120.0 M pushed against 6.45 M (light arcs 8.3 M either way).
  // The rule's figures on the H200 are in bench/RESULTS.md.
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
  // launches keep the GPU ahead of the host's replay calls (37b6c1b: fewer no-op steps past
  // convergence than 16).
  static constexpr unsigned steps_per_graph = 4;

  // --- the step loop's automatic width (engine.cu) ---
  // gpu_auto_width (sssp/bucket_width.cpp) bends Near-Far's 32 w / d by 4 / d from d = 4 on; on
  // denser graphs of fewer than dense_vertices vertices the step loop runs best with wider buckets
  // than that: it takes the rule times (d / dense_degree)^dense_bend above dense_degree (x1.50 at
  // d = 30, x2.3 at d = 58).
  // gpu_delta_bench, H100, 2026-11-27, R-MAT undirected, weights [0, 1000], near-far, median of 10
  // sources (5 solves each), ms at the rule's width x1 / x1.5 / x2 / x3 / x4:
  //   mean degree 15 (rule right): Graph500 scale 20 edge factor 8, 3.65-3.72 / 4.30-4.31 / 4.63-4.67 /
  //     5.83-5.96 / 5.99-6.07; scale 21 edge factor 8, 8.41-8.44 / 8.97-9.01 / 10.49-10.55 (x2.5
  //     11.29); edge factor 4 (d 7.8), 3.81-3.84 / 3.94-4.02 / 3.95-4.04: flat.
  //   mean degree 28-31 (the bend's x1.5): Graph500 scale 18 2.19-2.27 / 2.01 / 1.98-1.99 / 1.82-1.84
  //     / 1.96-1.98; paper preset scale 18 2.32-2.37 / 1.96-1.98 / 1.92 / 1.78 / 1.87-1.88; Graph500
  //     scale 17 1.74-1.78 / 1.60 / 1.50-1.52 / 1.41-1.42 / 1.43-1.46; Kronecker 20 (Graph500 scale
  //     20) from the CLI's 10 sources (--random-sources 10 --seed 7) 5.15-5.35 / 4.84-4.85 / 5.21-5.22
  //     (x2.5 5.43-5.47; the CLI itself: 5.05-5.09 / 4.57-4.61 / 5.01-5.05), from another 10 sources
  //     5.27-5.46 / 5.36-5.40 / 5.29-5.30; paper preset scale 20 5.00-5.14 / 4.67-4.70 / 4.46 / 4.48-
  //     4.50 / 5.45-5.47; Graph500 scale 22 13.79-14.05 / 13.82-13.99 / 15.43-15.52 / 13.49-13.64 /
  //     16.36-16.69, paper preset scale 22 19.03-19.27 / 17.65-17.66 / 17.41-17.43 / 19.09-19.10 /
  //     20.48-20.57 (5 sources x 3 solves). x1.5 is never slower there and the smaller graphs gain
  //     more further out, the largest less or nothing: the bend gives x1.5 at d = 30.
  //   mean degree 58 (Graph500 scale 20 edge factor 32): 8.06-8.24 / 7.15-7.17 / 6.26-6.29 /
  //     5.67-5.73 / 5.58-5.63: the bend gives x2.3.
  // With the bend (same H100, one call): Kronecker 20 (the CLI, 10 sources validated, 2 passes)
  // 4.59 / 4.62 ms against 5.09 / 5.08 without it and ed73620's 5.01 / 5.01; Kronecker 25
  // (gpu_delta_bench, 3 sources x 3 solves) 91.95 / 91.51 at its 100 against 103.14 / 102.53 at 65.
  // Only below dense_vertices vertices: on larger graphs the frontiers fill the GPU at the rule's
  // width, and wider buckets only add work. H200, 2026-11-28, the CLI (near-far / multisplit /
  // bucketing, K = 10), ms at the rule's width against the bend's: Kronecker 25 (33.5M vertices,
  // d 31.2; 3 sources x 3 solves; 65 against 100) multisplit 73.3 against 78.9 (ed73620 at 65:
  // 75.1-75.6), bucketing 73.7 against 78.9, near-far 86.8 against 86.2-87.0; Kronecker 20 (1M
  // vertices, d 31.5; 10 sources x 5 validated, two passes; 64, near the rule's 70, against 106)
  // multisplit 4.49-4.58 against 3.94-3.95, bucketing 5.47-5.48 against 4.60-4.63, near-far
  // 4.04-4.05 against 3.57-3.58; Graph500 scale 22 (4.2M vertices; H100, above) flat. So the bend
  // stops at 2^22 vertices.
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
  // in block rank 0, the hash sets twice as large over the blocks). Set with the cluster loop
  // (04f88ef, 3cad0b2) as what one block's shared memory holds; not measured against other sizes.
  static constexpr std::uint32_t small_frontier_limit = 8192;
  // One block per SM, all its threads sharing a slice of the frontier's arcs (relax_block_gather).
  static constexpr unsigned small_frontier_threads = 1024;
  // Blocks of the cluster: 16 (non-portable) where the GPU can place it, else the portable 8.
  // b3687b4, NY / FLA near-far, source 1, cluster-synchronous: 8 blocks 11.60 / 20.75 ms,
  // 16: 12.21 / 20.98, 4: 11.81 / 23.12, 2: 12.76 / 28.63, 1: 14.60 / 39.13. f0ed55a, with the
  // block-by-block light phase, 16 against 8 in one run: FLA 9.87 vs 11.10 ms, NY 5.63 vs 5.75,
  // slashdot 0.98 vs 1.06 (bench/results/sssp.md).
  static constexpr std::uint32_t wide_cluster_blocks = 16;
  static constexpr std::uint32_t portable_cluster_blocks = 8;
  // Heavy arcs of up to settle_limit processed vertices, and filing of up to block_file_limit
  // vertices, stay in the cluster; larger batches go to the grid (3cad0b2, 4fa154c; not measured).
  static constexpr std::uint32_t settle_limit = 4 * small_frontier_limit;
  // On denser graphs the cluster keeps fewer of them: about settle_arcs arcs' worth, so that a bucket's
  // heavy arcs (most of a dense graph's arcs) reach every SM instead of the cluster's 16. The
  // cluster's limit on processed vertices is settle_arcs / mean out-degree, at most settle_limit
  // (roads, mean out-degree up to 3, keep it). Step loop (--driver steps), near-far, median of 10
  // sources x 5 solves, two passes, H100, 2026-11-28, ms at a limit of 32768 / 8192 / 4096 / 2048 /
  // 1024 / 512 / 0 vertices (ef: Graph500 R-MAT's edge factor, 16 where not given):
  //   Kronecker 20 (d 30)       4.60 / 4.06-4.12 / 4.09-4.19 / 4.15-4.17 / 4.14-4.18 / 4.17-4.18 / 4.21-4.29
  //   Graph500 17 (d 28.5)      1.48-1.50 / 1.41 / 1.39-1.41 / 1.41-1.42 / 1.41-1.42 / 1.42 / 1.47-1.48
  //   Graph500 20 ef 32 (d 58)  5.80-5.83 / 5.38-5.41 / 5.31-5.37 / 5.32-5.35 / 5.40-5.41 / 5.38-5.39 / 5.58-5.60
  //   Graph500 20 ef 8 (d 15)   3.52-3.54 / 3.47-3.50 / 3.46-3.48 / 3.46-3.49 / 3.46-3.53 / 3.45-3.49 / 3.46-3.55
  //   Graph500 20 ef 4 (d 7.8)  3.74 / 3.76-3.78 / 3.74-3.82 / 3.76-3.78 / 3.77-3.83 / 3.77-3.79 / 3.72-3.75
  //   soc-slashdot0902 (d 11.5) 0.97-0.98 / 0.95 / 0.95-0.97 / 0.96 / 0.95-0.97 / 1.01 / 0.99-1.01
  //   cit-HepPh (d 12.2)        1.53 / 1.53 / 1.53 / 1.53 / 1.77-1.79 / 1.85 / 2.18
  //   USA-road-d.NY (d 2.8)     5.04-5.05 / 5.18-5.21 / 5.27-5.28 / 5.36-5.37 / 5.40-5.41 / 5.40-5.42 / 5.43
  //   road-FLA (d 2.5)          9.62-9.67 / 9.79-9.83 / 9.78-9.87 / 9.81-9.89 / 9.93-10.01 / 9.90-9.96 / 9.90-9.94
  //   chicago-regional (d 3.0)  0.88-0.89 / 0.88-0.89 / 0.88 / 0.93-0.95 / 0.93 / 0.92-0.93 / 0.97-0.98
  // Dense graphs gain 5-11% from about 100,000 arcs' worth (Kronecker 20 3,300 vertices, edge
  // factor 32 1,700) and lose little below it; roads lose 1.5-3% at any lower limit and
  // cit-HepPh below 2,048. Lowering small_frontier_limit the same way (the cluster's light
  // iterations) lost everywhere: Kronecker 20 4.84-4.91 at 512 light vertices (H100, same day).
  static constexpr double settle_arcs = 3.0 * settle_limit;
  static std::uint32_t cluster_settle_limit(double mean_degree) {
    const double vertices = mean_degree > 1 ? settle_arcs / mean_degree : settle_arcs;
    return vertices >= settle_limit ? settle_limit : static_cast<std::uint32_t>(vertices);
  }
  static constexpr std::uint32_t block_file_limit = 4 * small_frontier_limit;
  // A far pile up to this size is re-filed by the cluster itself (two passes of a few batches per
  // thread); above it the grid's far_pile_min and gather cost less (5f99355: 8192).
  static constexpr std::uint32_t block_refile_limit = small_frontier_limit;
  // Vertices a thread files or takes at once, their loads issued before any is looked at (3cad0b2).
  static constexpr std::uint32_t filing_batch = 2;
  // The block-wide gather (relaxation.cuh): up to block_tile vertices per pass, each thread
  // issuing gather_batch arcs' loads and atomics before it looks at any; rows longer than
  // block_hub_arcs go to the chunk list. gather_batch 3 -> 2 in 9e4afa8: at 3 the float kernel
  // spilled at the 64 registers that 1024 threads per SM allow (ptxas); block_tile not measured.
  static constexpr std::uint32_t block_tile = 2048;
  static constexpr std::uint32_t gather_batch = 2;
  static constexpr graph::edge_t block_hub_arcs = graph::edge_t{1} << 20;

  // --- the block-local light phase (block_local_light.cuh) ---
  // The automatic light-phase mode runs the light iterations block by block below this mean
  // out-degree, cluster-synchronously from it on. c7fdeb0 (8-block clusters, near-far, median of
  // 10 sources, same run): NY (2.8) 11.3 -> 5.8 ms and FLA (2.5) 18.7 -> 11.1 ms block by block;
  // slashdot (11.5) 1.04 -> 1.21, Kronecker 20 (30) 3.74 -> 4.01, the paper's R-MAT (9.5)
  // 3.56 -> 3.65, slower, cit-HepPh (12.2) 1.15 -> 0.97. With 16 blocks (dc2db26) the dense graphs
  // lost only 0.7-1.4% block by block and cit-HepPh gained 17% (bench/results/sssp.md).
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
  // frontiers (tens of arcs per block) stay local (c7fdeb0; not measured against other values).
  static constexpr std::uint64_t local_spread_arcs = 4 * small_frontier_threads;
};

// The partitioned driver's constants (partitioned_driver.cu), each with the measurement that chose
// it: median of 10 sources of each source's median of 5 solves, every solve validated, against the
// earlier binary and the step loop in the same call (bench/results/sssp_roads.md). All on an
// H100 80GB HBM3 (the device tool served the H200 kind with H100s on 2026-11-27).
struct partition_tuning {
  // One block of 1,024 threads per SM (132 regions: then 30 worker warps and 2 postman warps) against
  // two of 512 (264 regions, 14 worker warps): NY 2.75-2.78 ms against 2.86-2.88, FLA 4.39-4.42
  // against 4.57-4.58 (H100, 2026-11-27: three calls, each with both). Fewer, larger regions
  // mean fewer mail hops on a wave's way across the map; racecheck, memcheck and synccheck clean
  // on the Small* tests. Smaller blocks lose: 2 of 256 (264 regions, 6 worker warps) 3.16 / 5.73;
  // with one postman warp, 4 of 256 (528 regions) 3.46 / 7.21 (FLA's regions no longer kept their
  // arcs on chip), 8 of 128 (1,056 regions) 3.89 / 8.72.
  static constexpr unsigned blocks_per_sm = 1;
  // Two postman warps (one sends the outbox, one takes the mail) against one that does both:
  // NY 3.13 against 3.31 ms, FLA 4.79 against 4.96 (2 blocks of 512; delta x2: 2.87 / 3.03 and
  // 4.56 / 4.67). Idle postmen and an idle worker 0 spin on shared words: sleeping 32 ns between
  // looks changed nothing (NY 2.86-2.87, FLA 4.58-4.59 either way). Two sender warps (which
  // claim up to 32 outbox entries each, so a batch in flight does not hold up the next) and the
  // receiver, 29 worker warps, against one sender and 30: NY 2.06-2.08 ms against 2.14-2.15, FLA
  // 3.30 against 3.46, chicago-regional 0.42 against 0.44-0.45 (H100, same call, two runs each);
  // three senders and 28 workers: NY 2.05-2.06, FLA 3.31-3.32, chicago 0.41-0.42 (no better).
  // A block is `threads` threads: the receiver warp, sender_warps (or dense_sender_warps) senders,
  // the rest workers.
  static constexpr unsigned threads = 1024;
  static constexpr unsigned sender_warps = 2;
  // Regions that cut at least dense_cut of the graph's arcs (denser graphs: social, citation,
  // R-MAT; road regions cut 2.6-22.5%) get dense_sender_warps senders instead: there the workers
  // wait on a full outbox and the senders set the pace. H100, 2026-11-27 (eighth session), the
  // partitioned driver forced, 10 sources x 3 runs; senders 2 / 5 / 9 / 13 / 17 (workers 29 / 26 /
  // 22 / 18 / 14), ms: soc-slashdot0902 1.28-1.29 / 0.78-0.82 / 0.74-0.75 / 0.70 / 0.71 (step loop
  // 0.97-0.99), cit-HepPh 0.66-0.68 / 0.48 / 0.46 / 0.45 / 0.47, email-Enron 0.56-0.57 / 0.42 /
  // 0.40-0.42 / 0.42 / 0.44, R-MAT 16 F16 1.35-1.41 / 1.01-1.05 / 0.99-1.00 / 0.93 / 1.07, R-MAT 16
  // u8 - / - / 0.85 / 0.88 / 0.86, R-MAT 18 F4 - / - / 1.06 / 1.01 / 1.02; the road graphs lose
  // workers' time with more senders: NY 1.78 / 1.77-1.78 / 1.81-1.83 / 1.89 / 2.01, FLA 2.98-3.06 /
  // 3.00-3.02 / 3.11-3.13 / 3.33 / 3.60, chicago-regional 0.38 / 0.37-0.38 / 0.37 (two calls; the
  // rows with fewer figures were measured in one). Nine senders: within 5% of the best on every
  // dense graph, with more workers than thirteen.
  static constexpr unsigned dense_sender_warps = 9;
  static constexpr double dense_cut = 0.5;
  // Vertices one local iteration takes at most (the rest waits for the next); a road region has
  // tens in flight. Not measured against other sizes.
  static constexpr std::uint32_t frontier = 512;
  // Threads that share a frontier vertex's row (a road row has 2-4 arcs): its arcs' shared-memory
  // round trips overlap instead of following one another (step 6 of sssp_roads.md, with the
  // bisection: NY 8.60 -> 7.19 ms together). 2 / 4 / 8 lanes (2 blocks of 512): NY 3.29 / 2.87 /
  // 2.96 ms, FLA 4.93 / 4.59 / 5.28.
  static constexpr std::uint32_t lanes = 4;
  // The shared ring from the workers to the sender: offers to other regions (a worker whose slot
  // is still full waits for the sender). Not measured against other sizes. The one-atomic push
  // (an 8-byte slot reserved by one atomicAdd, instead of a room counter, a tail and two words,
  // and sends from the worker when full): NY 2.59-2.60 ms against 2.77-2.79, FLA 4.25-4.27 against
  // 4.43-4.48; with the books kept off thread 0 too, 2.51 and 4.19-4.20 (H100, same call). The
  // receiver improves its mail itself (no ring back to the workers; warp-wide takes of the near
  // set): NY 2.16 against 2.51, FLA 3.54 against 4.23, chicago-regional 0.45 against 0.56.
  static constexpr std::uint32_t outbox = 256;
  // Dynamic shared memory a block may use: 222 KB of an SM's 227 KB over its blocks (the rest is
  // the static shared memory and the per-block reservation).
  static constexpr std::size_t shared_budget = 222 * 1024 / blocks_per_sm;
  // Regions are balanced by the bytes their owner keeps on chip (owner_regions.hpp): a vertex's
  // distance and row offset, 6 bytes an arc (target and a 16-bit weight).
  static constexpr std::uint64_t region_vertex_bytes = 8, region_arc_bytes = 6;
  // The automatic delta (bucket_width.cpp, fitted to the step loop) times this. x1 / x2 / x4:
  // NY 3.20 / 2.93 / 2.90 ms, FLA 4.85 / 4.57 / 5.00 (one postman warp, same call); x2 with two
  // postman warps: NY 2.87, FLA 4.56. One block of 1,024 per SM, delta x0.25 / x0.5 / x1 / x2
  // (same call): NY 4.84 / 3.70 / 3.00 / 2.75 ms; FLA (x0.125 first) 9.52 / 6.76 / 5.26 / 4.54 / 4.39.
  // The kernel of 364eff6 (two sender warps), 2026-11-27 sixth session, H100: x1.5 / x2 / x2.5 / x3 /
  // x4 (--delta, 10 sources x 3 runs, one call): NY 2.10 / 2.06-2.08 / 2.05 / 2.01 / 2.01 ms (27 /
  // 20 / 16 / 14 / 10 rounds), FLA x1.5 / x2 / x2.5 / x3: 3.41 / 3.31-3.32 / 3.30 / 3.32. Then x3
  // against x2 (10 sources x 5 runs, two runs each in alternation; two calls): NY 1.98-1.99 against
  // 2.06-2.07 (multisplit 1.99 against 2.06), FLA 3.33-3.36 against 3.31-3.33, chicago-regional
  // 0.40-0.41 against 0.42. Fewer rounds pay on NY (a round's end costs ~5 us: the idle detection
  // ~1, the far pass and the grid barrier ~2.7, the next bound's read and the far-to-near pass ~1.1;
  // globaltimer probes, 20 rounds on NY) and cost FLA under 1% in re-relaxation. With the seventh
  // session's shorter iteration (e541047's kernel but for the keeper's wake), x2.5 / x3 / x3.5 / x4
  // / x5: NY 1.81 / 1.76-1.77 / 1.84 / 1.80 / 1.83 ms, FLA 2.99 / 3.00-3.01 / 2.92 / 3.02 / 3.23
  // (one run each beside x3's two): three stays.
  static constexpr double auto_delta_scale = 3.0;
  // ... and this multiple where the mean region holds at most small_region_vertices vertices
  // (delta_scale, below). A block relaxes a small region's whole near set in an iteration or
  // two, so wider buckets cost it re-relaxations it runs in iterations it takes anyway, while a
  // round's end (the slowest block's tail, the idle detection, the grid barrier) costs 20-30 us on
  // these graphs. H100, 2026-11-27 ninth session, main ff39685, `--driver partitioned --delta`
  // at x3 / x6 / x12 / x24 the step loop's automatic delta, 10 sources x 3 runs, validated, one
  // call each (mean region = vertices / 132 blocks; ms, rounds at x3 -> x12):
  //   at most 300 a region, all gain or stay even: chesapeake (39 regions of 1) 0.039 / 0.039 /
  //     0.041 / 0.039; R-MAT 12 F16 (31) 0.157 / 0.151 / 0.150 / 0.148; chicago-regional (98)
  //     0.378 / 0.350 / 0.309 / 0.306 (3.4 -> 1 rounds); 128 x 128 grid (124) 0.407 / 0.380 /
  //     0.358 / 0.347; R-MAT 14 F8 (124) 0.227 / 0.225 / 0.226 / 0.228; cit-HepPh (261) 0.469 /
  //     0.391 / 0.300 / 0.314 (9.1 -> 2.7 rounds); email-Enron (278) 0.435 / 0.429 / 0.419 / 0.431;
  //   495-993 a region, even within noise at x12 (x6 gains 0-5% on grids, loses 3% on R-MAT):
  //     256 x 256 grid (496) 0.745 / 0.706 / 0.734 / 0.730, kept 0.8 (495) 0.739 / 0.722 / 0.747 /
  //     0.736; R-MAT 16 F16 (496) 1.073 / 1.101 / 1.094 / 1.100, u8 (496) 0.903 / 0.927 / 0.921 /
  //     0.919; soc-slashdot0902 (622) 0.731 / 0.714 / 0.701 / 0.714; 362 x 362 grid (993) 1.038 /
  //     1.014 / 1.088 / 1.200;
  //   larger regions lose: 512 x 512 grid (1,986) 1.405 / 1.401 / 1.662 / 1.885; USA-road-d.NY
  //     (2,003) 1.816 / 1.896 / 1.899 / 1.958; R-MAT 18 F4 (1,986; one round at any width) 1.057 /
  //     1.051 / 1.056 / 1.044; road-FLA (8,109) 3.107 / 3.286 / 3.307 / 3.533.
  // A rule that widened the buckets during a solve, doubling the width after a round that took
  // few vertices (under 16, 64 or 128 per block) or ran a short chain (under 32 or 64 busiest-block
  // iterations), got cit-HepPh only to 0.34-0.38 ms and chicago-regional nothing (its first rounds
  // are not short): the size of a region, known before the solve, tells more.
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
  // bucket; this driver solves everything). Same call, partitioned against the step loop:
  // USA-road-d.NY (2.8) 2.87 against 5.01 ms, road-FLA (2.5) 4.56 against 9.60, chicago-regional
  // 0.73 against 0.89, cit-HepPh (12.2) 1.15 against 1.53, soc-slashdot0902 (11.5) 1.15 against
  // 0.97; the 4000 x 4000 grid (regions in global memory) 93.7 against 92.5 ms. The threshold is
  // the light-phase rule's (block_light_below_degree): only sparse graphs were measured enough.
  // With e541047's kernel (H100, same call): cit-HepPh 0.66 against 1.51-1.54, email-Enron (10.0)
  // 0.55 against 0.74, but soc-slashdot0902 1.27 against 0.97; the regions cut 82-94% of all three
  // graphs' arcs, so neither the degree nor the cut tells them apart (sssp_roads.md). The size does:
  // see automatic_arcs_per_sm.
  static constexpr double automatic_below_degree = 6.0;
  // ... and on a graph of any degree with fewer arcs than this per SM (regions on chip, as above).
  // On denser graphs most arcs cross regions and the driver's time is its senders' (a block's
  // sending and mail grow with its region's arcs), while the step loop's time on a small graph is
  // a floor of a few hundred iterations. H100 (132 SMs), 10 sources x 3 runs, partitioned against
  // the step loop in one call, ratio (arcs; R-MAT `generate rmat --scale S --edge-factor F
  // [--undirected]`, graph500 preset):
  //   with two sender warps (c3b3c91): every graph up to 426k arcs won (R-MAT 12, 15-97k arcs,
  //     0.45-0.50; R-MAT 14 0.55-0.87; R-MAT 16 F4, 253k, 0.88; email-Enron, 368k, 0.74;
  //     cit-HepPh, 422k, 0.44), 494k even (R-MAT 16 F8 and u4: 1.03-1.04), 870k and more lost
  //     (soc-slashdot0902 1.30, R-MAT 16 F16 1.31, u8 1.25, u16 1.51; R-MAT 18 1.5-6.5): a line of
  //     3,500 a SM (c0eca33);
  //   with dense_sender_warps (nine) where the regions cut most arcs (eighth session): soc-slashdot0902
  //     (870k) 0.74 against 0.99, R-MAT 16 F16 (956k) 0.99 / 1.08, u8 (955k) 0.85 / 1.07, R-MAT 18
  //     F4 (1.02M) 1.06 / 1.30; R-MAT 16 u16 (1.82M) 1.50 / 1.56 (even); R-MAT 18 u4 and F8 (2.02M
  //     each) 1.93 / 1.26 and 1.69 / 1.18 (lost). The line falls between 1.02M arcs and 1.82M
  //     (7,700-13,800 a SM); 10,000 keeps every clear win and leaves the even one to the step loop.
  // Only 132-SM GPUs were measured; per SM because a block's senders carry its region's share of
  // the cut arcs.
  static constexpr double automatic_arcs_per_sm = 10000;
};

// Tuning constants of the block and wide drivers (block_driver.cuh; bench/results/block_driver.md and
// sssp_roads.md have every run).
struct block_driver_tuning {
  // One source: one block of 1024 threads, the most a block may have, so a road frontier of a few
  // hundred to a few thousand vertices is one pass of the block; near-set entries per queue (two
  // queues of 8-byte entries: 128 KB of shared memory). Not swept for one source: the driver
  // loses to the step loop on every graph measured (H100: NY 7.19 against 5.04 ms).
  static constexpr unsigned threads = 1024;
  static constexpr std::uint32_t near_capacity = 8192;
  // Many sources, one block each: blocks of 256 threads with near queues of 2048 entries (32 KB),
  // four blocks per SM. H100, 1,000 random sources, the same kernel (64 registers at most at every
  // size): NY 69.4 / 45.6 / 35.1 ms with 1024 / 512 / 256 threads a block (1 / 2 / 4 blocks per
  // SM), road-FLA 175.7 / 158.9 / 166.7 ms: 256 wins on NY by 23% and loses 5% on FLA.
  static constexpr unsigned rows_threads = 256;
  static constexpr std::uint32_t rows_near_capacity = 2048;
  // Far-pile entries a block starts with when it solves one of many sources: n / 16 + 1024 (the
  // largest piles seen: NY n / 80, FLA n / 92, the 4000 x 4000 grid n / 650); a batch that fills
  // one doubles them and runs again.
  static constexpr std::uint32_t rows_far_divisor = 16;
  // The automatic many-source engine (options::driver automatic) is one block per source below
  // this mean out-degree, the vertex-major batch from it on. H100, 2026-11-26, 1,000 random sources,
  // gpu-reduce (bench/results/block_driver.md): one block per source against the vertex-major batch
  // NY (mean degree 2.8) 36 against 528 ms, road-FLA (2.5) 168 against 1,843, chicago-regional
  // (2.9) all-pairs 40 against 250 (H200, 2dfbc2c); soc-slashdot0902 (11.5) 293 against 170 (H200,
  // 2dfbc2c), Kronecker 20 (30) 10,205 against 2,999 (H200, 2dfbc2c): a power-law graph's wide
  // frontiers fill one block and read every arc once per source, where the vertex-major batch
  // reads it once for 32. The same cut as loop_tuning::block_light_below_degree.
  static constexpr double rows_below_degree = 6.0;
  // Arcs whose loads and atomics a thread issues before it looks at any of their results (not
  // measured against other values).
  static constexpr unsigned arc_batch = 4;
  // Lanes per near-set vertex, at most (block_solve's Lanes): row_lanes while the near set has at
  // most a row_lanes-th of the block's threads, halved until it fits, so that every arc of a road
  // vertex is one round of loads and atomics. ncu of one NY solve (H100, 1024 threads, one lane a
  // vertex): 69% of the warps' samples wait at the block barrier for the few warps that walk the
  // near set, and those wait 43% of their samples on global loads and atomics, a second round of
  // arc_batch arcs for every vertex of degree 5 or more. Measured in one lease (H100, 2026-11-26,
  // bench/results/block_driver.md), one lane against row_lanes = 4: one source NY 7.24 -> 5.82 ms,
  // road-FLA 16.73 -> 15.00 ms (median of 10 sources); one block per source (256 threads, 1,000
  // sources) NY 34.7 -> 33.5 ms but road-FLA 165.1 -> 178.0 ms: four blocks an SM hide each
  // other's latency, and idle lanes cost issue slots. Hence one lane a vertex for many sources,
  // fixed at compile time: a lane count read at run time (a division per near iteration, 64
  // registers) cost road-FLA's 1,000 sources 180 ms against the 165 of the kernel without lanes.
  static constexpr unsigned row_lanes = 4;
  static constexpr unsigned rows_lanes = 1;
  // The wide driver (wide_solve: this Near-Far over every block of a cooperative grid, `threads`
  // threads a block, one block per SM) uses this many times the automatic delta. H100, 2026-11-27,
  // median of 3 sources (bench/results/sssp_roads.md), the delta as a multiple of the automatic
  // one, 1 / 2 / 3 / 4 / 6 / 8: the 4000 x 4000 grid 41.7 / 38.1 / 38.2 / 39.6 / 44.1 / 49.6 ms; and
  // forced on the road graphs (median of 10; there automatic takes the partitioned driver),
  // 1 / 2 / 3 / 4: USA-road-d.NY 5.52 / 4.89 / 4.64 / 4.39, road-FLA 8.58 / 7.61 / 7.23 / 7.02.
  // Three: the grid's best within noise, and most of what wider buckets give the roads.
  static constexpr double wide_auto_delta_scale = 3.0;
};

}  // namespace deltasplit::sssp::gpu
