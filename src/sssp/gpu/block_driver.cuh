// The block driver: a whole delta-stepping solve in one thread block, with block barriers only.
//
// Why (issue 9): a road solve is a chain of ~1,500 (USA-road-d.NY) to ~2,600 (road-FLA) dependent
// light iterations of a few hundred vertices each. The step loop runs them in a 16-SM cluster at
// ~3.3 us an iteration (cluster barriers, hash-set deduplication, filing through the frontier
// manager); the partitioned driver spreads them over every SM and waits on mail between regions
// (bench/results/sssp_roads.md). The hope here: an iteration costs only its chain of memory round
// trips (each frontier vertex's row, the atomicMin on each target) and one barrier. One block runs
// Near-Far (Davidson et al., IPDPS 2014, as seed 000 describes it in Section 7.2: a near set below
// the current bucket bound, a far pile above it) with nothing else on that chain:
//   - the near set lives in shared memory, two queues of (vertex, distance at push) in turn, with
//     three counters in rotation so that an iteration ends at ONE block barrier;
//   - an entry whose vertex has since dropped below its pushed distance is stale and skipped (its
//     newer entry relaxes it), which removes duplicates without hash sets or stamps;
//   - the far pile (global memory) keeps (vertex, distance) too; once the near set is empty, one
//     pass drops its stale entries, moves those of the next non-empty bucket into the near set and
//     compacts the rest into the other pile. The next bucket is the lowest bucket pushed to the
//     far pile since the last pass or kept by it: a lower bound of the live entries' buckets, so a
//     pass may find nothing live there and run again (exact either way);
//   - distances are read through L2 (ld.global.cg): a block's atomics act in L2, and its own L1
//     could otherwise serve a stale, larger distance to the liveness test.
// A near queue that fills spills to the far pile, and the next pass takes the same bucket again.
// A far pile that fills drops the entry and flags `capacity_exceeded`; the block stops at the end
// of that bucket, and the caller doubles the piles and solves again. Distances are Dijkstra's: a
// vertex is queued only when its distance strictly drops, every queued entry is relaxed unless a
// smaller entry of its vertex was queued after it, and a bucket ends only when its near set is
// empty, so every distance below the bound is final when the bound moves (Meyer and Sanders).
//
// Measured (H100, bench/results/block_driver.md): exact on every bundled graph and sanitizer-clean.
// ncu of one NY solve: most warps wait at the barrier for the few that walk the near set, whose
// chain of loads and atomics is the iteration; up to 4 lanes per near-set vertex (Lanes) make a
// road vertex's row one round of it: 4.0 us an iteration on NY, not the hoped-for fraction of a
// microsecond, so one source still runs slower than on the step loop (NY 5.77 against 5.30 ms)
// and the engine never picks it for one source. Many sources are where it pays: the same kernel
// solves one source per block, each block in its own distance row with its own far piles, four
// blocks per SM, no block waiting on another (many_sources.cu, the automatic engine on roads):
// 1,000 NY sources in 36 ms, all 264,346 in 9.0 s, 11-15x the vertex-major batches on roads.
//
// Every strategy runs the same Near-Far here (no frontier manager files anything);
// statistics::driver says so.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "deltasplit/graph/csr.hpp"
#include "sssp/gpu/batch_rows.cuh"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/distance.cuh"
#include "sssp/gpu/queue_slot.cuh"

namespace deltasplit::sssp::gpu {

using graph::edge_t;
using graph::vertex_t;

// Tuning constants of the block driver, in one place (bench/results/block_driver.md has every run).
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
};

// Dynamic shared memory of block_solve<Distance, Q>: two near queues of Q entries.
constexpr std::size_t block_driver_shared_bytes(std::uint32_t Q) { return 2 * std::size_t{Q} * sizeof(uint2); }

// What one block's solve reports (device memory, one per block).
struct block_outcome {
  unsigned long long edges_relaxed, vertices_processed;
  std::uint32_t iterations, buckets, passes, max_frontier, max_far;
  std::uint32_t respills;            // passes that took the same bucket again: its near set had filled
  std::uint32_t overflowed;          // a distance sum was dropped (distance.cuh)
  std::uint32_t capacity_exceeded;   // the far pile filled: the solve stopped, grow and solve again
};

template <class Distance>
struct block_view {
  using weight = typename distance_ops<Distance>::weight;
  const edge_t* offsets;
  const vertex_t* targets;
  const weight* weights;
  vertex_t num_vertices;
  bucket_of_distance<Distance> bucket;
  std::uint32_t last_bucket;   // no_bucket, or the cutoff's bucket: nothing past it is taken
  Distance* dist;              // row b of block b: dist + b * row_stride
  std::size_t row_stride;
  uint2* far_piles;            // block b: two piles of far_capacity entries from far_piles + 2 * b * far_capacity
  std::uint32_t far_capacity;
  block_outcome* outcome;      // one per block
};

namespace detail_block {

// A distance read through L2 (ld.global.cg), past the block's own L1.
template <class Distance>
__device__ __forceinline__ Distance read_l2(const Distance* p) {
  return distance_from_bits<Distance>(__ldcg(reinterpret_cast<const std::uint32_t*>(p)));
}

}  // namespace detail_block

// Block b solves sources[b], or single_source when sources is null (see the file comment). Any
// blockDim.x up to block_driver_tuning::threads; block_driver_shared_bytes(Q) of dynamic shared
// memory; at most Lanes (1, 2 or 4) threads per near-set vertex. The distances must be infinity
// beforehand (fill_infinity).
template <class Distance, std::uint32_t Q = block_driver_tuning::near_capacity,
          unsigned Lanes = block_driver_tuning::row_lanes>
__global__ void __launch_bounds__(block_driver_tuning::threads)
    block_solve(block_view<Distance> v, const vertex_t* sources, vertex_t single_source) {
  static_assert(Lanes == 1 || Lanes == 2 || Lanes == 4, "lanes per near-set vertex: 1, 2 or 4");
  using ops = distance_ops<Distance>;
  using namespace detail_block;
  constexpr std::uint32_t none = no_bucket;
  extern __shared__ uint2 near_queue[];  // [2][Q]
  __shared__ std::uint32_t near_count[3];
  __shared__ std::uint32_t far_count, kept_count, far_min, kept_min, spilled, next_spilled;
  __shared__ std::uint32_t stop_flags;  // 1: overflowed (continue), 2: capacity exceeded (stop)
  __shared__ unsigned long long edges_total, vertices_total;

  const unsigned tid = threadIdx.x;
  Distance* dist = v.dist + blockIdx.x * v.row_stride;
  // The block's two far piles, pile p at piles + p * far_capacity (arithmetic, not an array of two
  // pointers: indexed at run time, such an array lives in local memory, a 16-byte stack frame).
  uint2* const piles = v.far_piles + 2 * std::size_t{blockIdx.x} * v.far_capacity;
  const vertex_t source = sources ? sources[blockIdx.x] : single_source;
  const std::uint32_t last = v.last_bucket;

  if (tid == 0) {
    near_count[0] = 1;
    near_count[1] = near_count[2] = 0;
    near_queue[0] = make_uint2(source, distance_bits(Distance{0}));
    dist[source] = Distance{0};
    far_count = kept_count = 0;
    far_min = kept_min = none;
    spilled = next_spilled = 0;
    stop_flags = 0;
    edges_total = vertices_total = 0;
  }
  __syncthreads();

  unsigned long long edges = 0, vertices = 0;
  std::uint32_t iterations = 0, buckets = 1, passes = 0, max_frontier = 1, max_far = 0, respills = 0;
  unsigned it = 0;    // iterations so far: the queue is it % 2, the counter it % 3
  unsigned pile = 0;  // the far pile in use
  std::uint32_t cur = 0;

  // Files an improved vertex u at distance d, of bucket b: into the near set when b is the current
  // bucket (or below), else onto the far pile; a full near set spills to the far pile.
  auto file = [&](vertex_t u, Distance d, std::uint32_t b, unsigned next_queue, std::uint32_t* next_count) {
    if (b <= cur) {
      const std::uint32_t slot = queue_slot(next_count);
      if (slot < Q) {
        near_queue[next_queue * Q + slot] = make_uint2(u, distance_bits(d));
        return;
      }
      spilled = 1;
    }
    const std::uint32_t slot = queue_slot(&far_count);
    if (slot < v.far_capacity) {
      piles[pile * std::size_t{v.far_capacity} + slot] = make_uint2(u, distance_bits(d));
      if (b > cur) atomicMin(&far_min, b);
    } else {
      atomicOr(&stop_flags, 2u);
    }
  };

  while (true) {
    // --- the near set: light iterations of the current bucket, one block barrier each ---
    while (true) {
      // A full far pile (stop_flags & 2) ends the solve only after the bucket: a flag read here
      // could be set by a faster thread of this same iteration, and the block must agree.
      const std::uint32_t count = min(near_count[it % 3], Q);
      if (count == 0) break;
      const unsigned q = it % 2, next_queue = q ^ 1;
      std::uint32_t* next_count = &near_count[(it + 1) % 3];
      if (tid == 0) near_count[(it + 2) % 3] = 0;  // read last iteration, filled next iteration
      // Each near-set vertex gets `lanes` adjacent threads, which take its arcs in turn: a row of
      // up to lanes * arc_batch arcs is one round of loads and atomics (Lanes, halved until the
      // near set fits the block; block_driver_tuning::row_lanes).
      unsigned shift = Lanes == 4 ? 2 : Lanes == 2 ? 1 : 0;  // lanes = 1 << shift
      while (shift > 0 && (count << shift) > blockDim.x) --shift;
      const unsigned lanes = 1u << shift, lane = tid & (lanes - 1);
      for (std::uint32_t i = tid >> shift; i < count; i += blockDim.x >> shift) {
        const uint2 entry = near_queue[q * Q + i];
        const vertex_t x = entry.x;
        const Distance d = distance_from_bits<Distance>(entry.y);
        const edge_t begin = __ldg(&v.offsets[x]), end = __ldg(&v.offsets[x + 1]);
        if (read_l2(&dist[x]) < d) continue;  // stale: a newer, smaller entry of x was queued
        if (lane == 0) {
          ++vertices;
          edges += end - begin;
        }
        for (edge_t e = begin + lane; e < end; e += lanes * block_driver_tuning::arc_batch) {
          constexpr unsigned B = block_driver_tuning::arc_batch;
          vertex_t u[B];
          Distance nd[B], old[B];
          std::uint32_t nb[B];  // the bucket of nd
          bool ok[B];
#pragma unroll
          for (unsigned j = 0; j < B; ++j) {
            const edge_t a = e + j * lanes;  // this lane's j-th arc of the round
            ok[j] = a < end;
            if (ok[j]) {
              u[j] = __ldg(&v.targets[a]);
              const auto w = __ldg(&v.weights[a]);
              if (!ops::extend(d, w, nd[j])) {
                ok[j] = false;
                atomicOr(&stop_flags, 1u);
              }
            }
          }
#pragma unroll
          for (unsigned j = 0; j < B; ++j) {
            if (ok[j]) nb[j] = v.bucket(nd[j]);
            if (ok[j] && nb[j] <= last)
              old[j] = ops::atomic_min(&dist[u[j]], nd[j]);
            else
              ok[j] = false;
          }
#pragma unroll
          for (unsigned j = 0; j < B; ++j)
            if (ok[j] && nd[j] < old[j]) file(u[j], nd[j], nb[j], next_queue, next_count);
        }
      }
      __syncthreads();
      ++it;
      ++iterations;
      max_frontier = max(max_frontier, count);
    }
    if (stop_flags & 2u) break;

    // --- the far pile: the next bucket, one pass ---
    const std::uint32_t next = spilled ? cur : min(far_min, kept_min);
    const std::uint32_t total = min(far_count, v.far_capacity);
    max_far = max(max_far, total);
    if (next == none || next > last || total == 0) break;
    __syncthreads();  // every thread has read spilled, far_min, kept_min and far_count
    if (next != cur)  // only a spill takes the same bucket again (every other candidate lies above cur)
      ++buckets;
    else
      ++respills;
    cur = next;
    if (tid == 0) {
      kept_count = 0;
      kept_min = none;
      far_min = none;
      next_spilled = 0;
    }
    __syncthreads();
    const unsigned q = it % 2;
    std::uint32_t* near_next = &near_count[it % 3];  // empty: the near loop ended on it
    const uint2* from = piles + pile * std::size_t{v.far_capacity};
    uint2* to = piles + (pile ^ 1) * std::size_t{v.far_capacity};
    for (std::uint32_t i = tid; i < total; i += blockDim.x) {
      const uint2 entry = __ldcg(&from[i]);
      const Distance d = distance_from_bits<Distance>(entry.y);
      if (read_l2(&dist[entry.x]) != d) continue;  // stale: a smaller distance was filed since
      const std::uint32_t b = v.bucket(d);
      if (b <= cur) {
        const std::uint32_t slot = queue_slot(near_next);
        if (slot < Q) {
          near_queue[q * Q + slot] = entry;
          continue;
        }
        next_spilled = 1;
      }
      const std::uint32_t slot = queue_slot(&kept_count);
      to[slot] = entry;  // at most total entries: fits
      if (b > cur) atomicMin(&kept_min, b);
    }
    __syncthreads();
    pile ^= 1;
    ++passes;
    if (tid == 0) {
      far_count = kept_count;
      spilled = next_spilled;
    }
    __syncthreads();
  }

  atomicAdd(&edges_total, edges);
  atomicAdd(&vertices_total, vertices);
  __syncthreads();
  if (tid == 0) {
    block_outcome o{};
    o.edges_relaxed = edges_total;
    o.vertices_processed = vertices_total;
    o.iterations = iterations;
    o.buckets = buckets;
    o.passes = passes;
    o.max_frontier = max_frontier;
    o.max_far = max_far;
    o.respills = respills;
    o.overflowed = (stop_flags & 1u) ? 1u : 0u;
    o.capacity_exceeded = (stop_flags & 2u) ? 1u : 0u;
    v.outcome[blockIdx.x] = o;
  }
}

// One run of the block driver on stream: the distances of `blocks` rows (v.row_stride apart) filled
// with infinity by fill_blocks blocks, then block_solve<Distance, Q, Lanes> with `blocks` blocks of `threads`
// threads (block b from sources[b], or single_source when sources is null), timed from start to
// stop; the blocks' outcomes copied into `outcomes` (host memory). Returns the milliseconds, the
// fill included. The caller sets the kernel's shared-memory limit where Q needs more than 48 KB.
template <class Distance, std::uint32_t Q, unsigned Lanes>
float run_block_solve(const block_view<Distance>& v, const vertex_t* sources, vertex_t single_source,
                      std::uint32_t blocks, unsigned threads, unsigned fill_blocks, cudaStream_t stream,
                      cudaEvent_t start, cudaEvent_t stop, block_outcome* outcomes) {
  DS_CUDA(cudaEventRecord(start, stream));
  fill_infinity<Distance><<<fill_blocks, 256, 0, stream>>>(v.dist, std::size_t{blocks} * v.row_stride);
  DS_CUDA_LAUNCH("fill_infinity");
  block_solve<Distance, Q, Lanes><<<blocks, threads, block_driver_shared_bytes(Q), stream>>>(v, sources, single_source);
  DS_CUDA_LAUNCH("block_solve");
  DS_CUDA(cudaEventRecord(stop, stream));
  DS_CUDA(cudaMemcpyAsync(outcomes, v.outcome, blocks * sizeof(block_outcome), cudaMemcpyDeviceToHost, stream));
  DS_CUDA(cudaStreamSynchronize(stream));
  float ms = 0;
  DS_CUDA(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

}  // namespace deltasplit::sssp::gpu
