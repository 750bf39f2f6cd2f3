// The block driver: a whole delta-stepping solve in one thread block, with block barriers only.
//
// Why: a road solve is a chain of thousands of dependent light iterations of a few hundred vertices
// each. The step loop runs them in a 16-SM cluster, each iteration paying cluster barriers,
// hash-set deduplication and filing through the frontier manager; the partitioned driver spreads
// them over every SM and waits on mail between regions (bench/results/sssp_roads.md). The hope
// here: an iteration costs only its chain of memory round trips (each frontier vertex's row, the
// atomicMin on each target) and one barrier. One block runs Near-Far (Davidson et al., IPDPS 2014,
// as seed 000 describes it in Section 7.2: a near set below the current bucket bound, a far pile
// above it) with nothing else on that chain:
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
// Exact on every bundled graph and sanitizer-clean. Profiled, most warps wait at the barrier for
// the few that walk the near set, whose chain of loads and atomics is the iteration; up to 4 lanes
// per near-set vertex (Lanes) make a road vertex's row one round of it. An iteration still costs
// microseconds, not the hoped-for fraction of one, so one source runs slower than on the step loop
// and the engine never picks it for one source. Many sources are where it pays: the same kernel
// solves one source per block, each block in its own distance row with its own far piles, four
// blocks per SM, no block waiting on another (many_sources.cu, the automatic engine on roads), an
// order of magnitude faster than the vertex-major batches on roads. Measurements:
// bench/results/block_driver.md.
//
// The wide driver (the whole GPU on graphs too large for the partitioned driver's on-chip
// regions) is the same Near-Far at the scope of a cooperative grid (wide_solve: one block of 1024
// threads per SM): the books and the near queues move to global memory, and an iteration ends at
// ONE grid barrier of the books' own (an arrival count beside the near-set counts, so the poll that
// ends the wait also reads the next near set's size). Three measured choices make it pay: ranks
// that go round the blocks a warp at a time, so that a near set of a few thousand vertices is
// spread over every SM rather than packed into the first few; near-set entries that carry their
// row's start, read by the queueing thread while its slot's atomic is in flight; the barrier's own
// poll instead of cooperative groups' grid sync and a separate read of the books. An iteration
// costs more than the block driver's (the barrier and the L2 round trips of the queues), but on
// the large grid its iterations spread over every SM instead of one 16-SM cluster, and it beats
// the step loop there; the engine runs it by default on sparse graphs whose regions do not fit on
// chip (engine.cu, use_wide_driver). Measurements: bench/results/block_driver.md ("Moved from
// block_driver.cuh's comments") and bench/results/sssp_roads.md.
//
// Distances: 32-bit (uint32, float) and 64-bit (uint64, float64). An entry keeps a distance's word
// (distance.cuh) beside its vertex: (vertex, word) in a uint2 for 32-bit distances, a ulonglong2 for 64-bit ones,
// whose near queues then hold half as many entries in the same shared memory. The wide driver's
// 32-bit entries also carry their row's start (below); its 64-bit ones do not (the taker reads it,
// as the block driver's does), so that they stay 16 bytes.
//
// Every strategy runs the same Near-Far here (no frontier manager files anything);
// statistics::driver says so.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "deltasplit/graph/csr.hpp"
#include "sssp/gpu/batch_rows.cuh"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/distance.cuh"
#include "sssp/gpu/near_far/tuning.cuh"
#include "sssp/gpu/queue_slot.cuh"

namespace deltasplit::sssp::gpu {

using graph::edge_t;
using graph::vertex_t;

// A far-pile entry, and the block driver's near-queue entry: (vertex, distance word).
template <class Distance>
using far_entry = std::conditional_t<sizeof(Distance) == 8, ulonglong2, uint2>;

template <class Distance>
__device__ __forceinline__ far_entry<Distance> make_far_entry(vertex_t u, distance_word<Distance> bits) {
  far_entry<Distance> e;
  e.x = u;
  e.y = bits;
  return e;
}

// The wide driver's near-queue entry: (vertex, distance word, row start low, high) for 32-bit
// distances, (vertex, distance word) for 64-bit ones.
template <class Distance>
using wide_entry = std::conditional_t<sizeof(Distance) == 8, ulonglong2, uint4>;

// Dynamic shared memory of block_solve<Distance, Q>: two near queues of Q entries.
template <class Distance>
constexpr std::size_t block_driver_shared_bytes(std::uint32_t Q) {
  return 2 * std::size_t{Q} * sizeof(far_entry<Distance>);
}

// Near-queue entries a block takes for the tuning's 32-bit count `narrow`: as many for 32-bit
// distances, half as many for 64-bit ones (the same shared memory, so the same blocks an SM).
template <class Distance>
constexpr std::uint32_t near_entries(std::uint32_t narrow) {
  return narrow / (sizeof(far_entry<Distance>) / sizeof(uint2));
}

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
  far_entry<Distance>* far_piles;  // block b: two piles of far_capacity entries from far_piles + 2 * b * far_capacity
  std::uint32_t far_capacity;
  block_outcome* outcome;      // one per block
  edge_t num_arcs = 0;         // the whole grid (wide_solve): the bound of its early arc loads
};

namespace detail_block {

// A distance read through L2 (ld.global.cg), past the block's own L1.
template <class Distance>
__device__ __forceinline__ Distance read_l2(const Distance* p) {
  return distance_from_bits<Distance>(__ldcg(reinterpret_cast<const distance_word<Distance>*>(p)));
}

}  // namespace detail_block

// A near-set entry as the relaxation reads it: the vertex, its distance when queued, its row's start.
template <class Distance>
struct near_item {
  vertex_t vertex;
  distance_word<Distance> bits;
  edge_t begin;
};

// Where one Near-Far solve keeps its books, and how its threads meet (near_far_solve, below).
struct alignas(16) near_far_books {
  std::uint32_t near_count[3];  // in rotation: this iteration's near set, the next one's, the one after
  std::uint32_t arrived;        // the whole grid: blocks arrived at its barriers (zeroed before the launch)
  // By far pile (the one in use, and the one a far-pile pass fills): entries, and whether a full
  // near set spilled into it. far_min: the lowest bucket pushed to the far pile since the last pass;
  // kept_min: the lowest bucket that pass kept.
  std::uint32_t pile_count[2], spilled[2], far_min, kept_min;
  std::uint32_t stop_flags;  // 1: overflowed (continue), 2: capacity exceeded (stop)
  unsigned long long edges_total, vertices_total;
};

// One thread block (block_solve): the books and the two near queues of Q entries in shared memory,
// block barriers; block b solves its own source in its own distance row and far piles.
template <class Distance, std::uint32_t Q>
struct block_scope {
  near_far_books* books;       // shared
  far_entry<Distance>* near;   // shared: [2][Q]
  static constexpr bool whole_grid = false;
  __device__ unsigned rank() const { return threadIdx.x; }
  __device__ unsigned size() const { return blockDim.x; }
  __device__ std::uint32_t capacity() const { return Q; }
  __device__ void sync() const { __syncthreads(); }
  __device__ void refresh() const {}
  // The books as of the last sync (and this thread's own writes since).
  __device__ const near_far_books& seen() const { return *books; }
  // A near-set entry is (vertex, distance bits); its row's start is read when it is taken.
  template <class View>
  __device__ edge_t row_start(const View&, vertex_t) const { return 0; }
  __device__ void put(std::size_t i, vertex_t u, distance_word<Distance> bits, edge_t) const {
    near[i] = make_far_entry<Distance>(u, bits);
  }
  template <class View>
  __device__ near_item<Distance> take(const View& v, std::size_t i) const {
    const far_entry<Distance> e = near[i];
    const auto u = static_cast<vertex_t>(e.x);
    return {u, e.y, __ldg(&v.offsets[u])};
  }
  __device__ void add_totals(unsigned long long edges, unsigned long long vertices) const {
    atomicAdd(&books->edges_total, edges);
    atomicAdd(&books->vertices_total, vertices);
  }
};

// The whole cooperative grid (wide_solve): the books and the near queues in global memory, every
// block of the GPU relaxing a slice of each near set, one grid barrier an iteration. The barrier is
// the books' own: thread 0 of each block adds its arrival to books.arrived and polls the books'
// first 16 bytes (the near-set counts beside the arrivals) until every block has arrived, then puts
// them in its block's shared memory: one L2 round trip a block both waits and learns the next near
// set's size (132 SMs' warps reading one L2 line would queue at one slice). refresh() reads the
// rest of the books (at a bucket's end).
template <class Distance>
struct grid_scope {
  static constexpr bool carries_rows = sizeof(Distance) == 4;  // wide_entry
  near_far_books* books;          // global
  near_far_books* copy;           // shared: the books as of the last sync (refresh)
  wide_entry<Distance>* near;     // global: [2][capacity]
  std::uint32_t near_capacity;
  unsigned long long* block_edges;  // shared: the block's sums for add_totals
  std::uint32_t* barriers;          // shared: barriers this block has passed
  static constexpr bool whole_grid = true;
  // Ranks go round the blocks a warp at a time (warp w of block b holds ranks (w * blocks + b) * 32
  // onwards), so a near set of a few thousand vertices is spread over every SM, not packed into the
  // first few blocks' load and atomic units.
  __device__ unsigned rank() const { return ((threadIdx.x >> 5) * gridDim.x + blockIdx.x) * 32 + (threadIdx.x & 31u); }
  __device__ unsigned size() const { return gridDim.x * blockDim.x; }
  __device__ std::uint32_t capacity() const { return near_capacity; }
  __device__ void sync() const {
    __syncthreads();
    if (threadIdx.x == 0) {
      const std::uint32_t target = (*barriers += 1) * gridDim.x;
      __threadfence();  // the block's writes before its arrival
      atomicAdd(&books->arrived, 1u);
      uint4 head;
      do {  // acquire: every block's writes before its arrival are seen by this block's next reads
        asm volatile("ld.acquire.gpu.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(head.x), "=r"(head.y), "=r"(head.z), "=r"(head.w)
                     : "l"(books)
                     : "memory");
      } while (static_cast<int>(head.w - target) < 0);
      copy->near_count[0] = head.x;
      copy->near_count[1] = head.y;
      copy->near_count[2] = head.z;
    }
    __syncthreads();
  }
  __device__ void refresh() const {
    __syncthreads();  // every thread has read the copy (the near-set count that ended the loop)
    if (threadIdx.x == 0) {
      const auto* from = reinterpret_cast<const std::uint32_t*>(books);
      auto* to = reinterpret_cast<std::uint32_t*>(copy);
      for (unsigned i = 0; i < sizeof(near_far_books) / 4; ++i) to[i] = __ldcg(from + i);
    }
    __syncthreads();
  }
  __device__ const near_far_books& seen() const { return *copy; }
  // A 32-bit near-set entry carries its row's start, read by the thread that queues it while its
  // slot's atomic is in flight: the taker loads the row's arcs without first waiting for the offsets.
  template <class View>
  __device__ edge_t row_start(const View& v, vertex_t u) const {
    if constexpr (carries_rows)
      return __ldg(&v.offsets[u]);
    else
      return 0;
  }
  __device__ void put(std::size_t i, vertex_t u, distance_word<Distance> bits, edge_t begin) const {
    if constexpr (carries_rows)
      near[i] = make_uint4(u, bits, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(begin >> 32));
    else
      near[i] = make_far_entry<Distance>(u, bits);
  }
  template <class View>
  __device__ near_item<Distance> take(const View& v, std::size_t i) const {
    const wide_entry<Distance> e = __ldcg(&near[i]);
    if constexpr (carries_rows) {
      return {e.x, e.y, e.z | (edge_t{e.w} << 32)};
    } else {
      const auto u = static_cast<vertex_t>(e.x);
      return {u, e.y, __ldg(&v.offsets[u])};
    }
  }
  __device__ void add_totals(unsigned long long edges, unsigned long long vertices) const {
    if (threadIdx.x == 0) block_edges[0] = block_edges[1] = 0;
    __syncthreads();
    for (unsigned o = 16; o > 0; o >>= 1) {
      edges += __shfl_down_sync(0xFFFFFFFFu, edges, o);
      vertices += __shfl_down_sync(0xFFFFFFFFu, vertices, o);
    }
    if ((threadIdx.x & 31u) == 0) {
      atomicAdd(&block_edges[0], edges);
      atomicAdd(&block_edges[1], vertices);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      atomicAdd(&books->edges_total, block_edges[0]);
      atomicAdd(&books->vertices_total, block_edges[1]);
    }
  }
};

// Near-Far from `source` (see the file comment) by the threads of Scope: one block, or the whole
// grid. Any number of threads; at most Lanes (1, 2 or 4) threads per near-set vertex. dist and the
// far piles are this solve's own (the caller's row); the distances must be infinity beforehand.
// Every thread of the scope returns; rank 0 has written *outcome.
template <class Distance, unsigned Lanes, class Scope>
__device__ __forceinline__ void near_far_solve(const Scope& sc, const block_view<Distance>& v, Distance* dist,
                                               far_entry<Distance>* const piles, vertex_t source, block_outcome* outcome) {
  static_assert(Lanes == 1 || Lanes == 2 || Lanes == 4, "lanes per near-set vertex: 1, 2 or 4");
  using ops = distance_ops<Distance>;
  using word = distance_word<Distance>;
  using namespace detail_block;
  constexpr std::uint32_t none = no_bucket;
  near_far_books& books = *sc.books;
  const unsigned tid = sc.rank(), threads = sc.size();
  const std::uint32_t Q = sc.capacity();
  const std::uint32_t last = v.last_bucket;

  if (tid == 0) {
    books.near_count[0] = 1;
    books.near_count[1] = books.near_count[2] = 0;
    sc.put(0, source, distance_bits(Distance{0}), sc.row_start(v, source));
    dist[source] = Distance{0};
    books.pile_count[0] = books.pile_count[1] = 0;
    books.far_min = books.kept_min = none;
    books.spilled[0] = books.spilled[1] = 0;
    books.stop_flags = 0;
    books.edges_total = books.vertices_total = 0;
  }
  sc.sync();

  unsigned long long edges = 0, vertices = 0;
  std::uint32_t iterations = 0, buckets = 1, passes = 0, max_frontier = 1, max_far = 0, respills = 0;
  unsigned it = 0;    // iterations so far: the queue is it % 2, the counter it % 3
  unsigned pile = 0;  // the far pile in use
  std::uint32_t cur = 0;

  // Queues u (distance bits db) in near queue `queue` through its count; false when the queue is
  // full (the caller spills u to a far pile). The row's start is read while the slot's atomic is in
  // flight.
  auto to_near = [&](vertex_t u, word db, unsigned queue, std::uint32_t* count) {
    const edge_t row = sc.row_start(v, u);
    const std::uint32_t slot = queue_slot(count);
    if (slot >= Q) return false;
    sc.put(queue * std::size_t{Q} + slot, u, db, row);
    return true;
  };

  // Files an improved vertex u at distance d, of bucket b: into the near set when b is the current
  // bucket (or below), else onto the far pile; a full near set spills to the far pile.
  auto file = [&](vertex_t u, Distance d, std::uint32_t b, unsigned next_queue, std::uint32_t* next_count) {
    if (b <= cur) {
      if (to_near(u, distance_bits(d), next_queue, next_count)) return;
      books.spilled[pile] = 1;
    }
    const std::uint32_t slot = queue_slot(&books.pile_count[pile]);
    if (slot < v.far_capacity) {
      piles[pile * std::size_t{v.far_capacity} + slot] = make_far_entry<Distance>(u, distance_bits(d));
      if (b > cur) atomicMin(&books.far_min, b);
    } else {
      atomicOr(&books.stop_flags, 2u);
    }
  };

  while (true) {
    // --- the near set: light iterations of the current bucket, one barrier each ---
    while (true) {
      // A full far pile (stop_flags & 2) ends the solve only after the bucket: a flag read here
      // could be set by a faster thread of this same iteration, and the threads must agree.
      const std::uint32_t count = min(sc.seen().near_count[it % 3], Q);
      if (count == 0) break;
      const unsigned q = it % 2, next_queue = q ^ 1;
      std::uint32_t* next_count = &books.near_count[(it + 1) % 3];
      if (tid == 0) books.near_count[(it + 2) % 3] = 0;  // read last iteration, filled next iteration
      // Each near-set vertex gets `lanes` adjacent threads, which take its arcs in turn: a row of
      // up to lanes * arc_batch arcs is one round of loads and atomics (Lanes, halved until the
      // near set fits the threads; block_driver_tuning::row_lanes).
      unsigned shift = Lanes == 4 ? 2 : Lanes == 2 ? 1 : 0;  // lanes = 1 << shift
      while (shift > 0 && (count << shift) > threads) --shift;
      const unsigned lanes = 1u << shift, lane = tid & (lanes - 1);
      for (std::uint32_t i = tid >> shift; i < count; i += threads >> shift) {
        const near_item<Distance> item = sc.take(v, q * std::size_t{Q} + i);
        const vertex_t x = item.vertex;
        const Distance d = distance_from_bits<Distance>(item.bits);
        const edge_t begin = item.begin, end = __ldg(&v.offsets[x + 1]);
        // The first round's arcs are loaded beside the row's end and the liveness test's distance:
        // up to the row's end where it came with the start (one thread block), up to the arc count
        // where the start came with the entry (the whole grid), so no load waits for another.
        constexpr unsigned B = block_driver_tuning::arc_batch;
        vertex_t u[B];
        typename block_view<Distance>::weight w[B];
        const auto load_round = [&](edge_t e, edge_t bound) {
#pragma unroll
          for (unsigned j = 0; j < B; ++j) {
            const edge_t a = e + j * lanes;  // this lane's j-th arc of the round
            if (a < bound) {
              u[j] = __ldg(&v.targets[a]);
              w[j] = __ldg(&v.weights[a]);
            }
          }
        };
        load_round(begin + lane, Scope::whole_grid ? v.num_arcs : end);
        if (read_l2(&dist[x]) < d) continue;  // stale: a newer, smaller entry of x was queued
        if (lane == 0) {
          ++vertices;
          edges += end - begin;
        }
        for (edge_t e = begin + lane; e < end;) {
          Distance nd[B], old[B];
          std::uint32_t nb[B];  // the bucket of nd
          bool ok[B];
#pragma unroll
          for (unsigned j = 0; j < B; ++j) {
            ok[j] = e + j * lanes < end;
            if (ok[j] && !ops::extend(d, w[j], nd[j])) {
              ok[j] = false;
              atomicOr(&books.stop_flags, 1u);
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
          e += lanes * B;
          if (e < end) load_round(e, end);
        }
      }
      sc.sync();
      ++it;
      ++iterations;
      max_frontier = max(max_frontier, count);
    }
    sc.refresh();
    if (sc.seen().stop_flags & 2u) break;

    // --- the far pile: the next bucket, one pass ---
    const near_far_books& now = sc.seen();
    const std::uint32_t next = now.spilled[pile] ? cur : min(now.far_min, now.kept_min);
    const std::uint32_t total = min(now.pile_count[pile], v.far_capacity);
    max_far = max(max_far, total);
    if (next == none || next > last || total == 0) break;
    sc.sync();  // every thread has read the books
    if (next != cur)  // only a spill takes the same bucket again (every other candidate lies above cur)
      ++buckets;
    else
      ++respills;
    cur = next;
    if (tid == 0) {  // the pile this pass fills
      books.pile_count[pile ^ 1] = 0;
      books.spilled[pile ^ 1] = 0;
      books.kept_min = none;
      books.far_min = none;
    }
    sc.sync();
    const unsigned q = it % 2;
    std::uint32_t* near_next = &books.near_count[it % 3];  // empty: the near loop ended on it
    const far_entry<Distance>* from = piles + pile * std::size_t{v.far_capacity};
    far_entry<Distance>* to = piles + (pile ^ 1) * std::size_t{v.far_capacity};
    for (std::uint32_t i = tid; i < total; i += threads) {
      const far_entry<Distance> entry = __ldcg(&from[i]);
      const auto x = static_cast<vertex_t>(entry.x);
      const Distance d = distance_from_bits<Distance>(entry.y);
      if (read_l2(&dist[x]) != d) continue;  // stale: a smaller distance was filed since
      const std::uint32_t b = v.bucket(d);
      if (b <= cur) {
        if (to_near(x, entry.y, q, near_next)) continue;
        books.spilled[pile ^ 1] = 1;
      }
      const std::uint32_t slot = queue_slot(&books.pile_count[pile ^ 1]);
      to[slot] = entry;  // at most total entries: fits
      if (b > cur) atomicMin(&books.kept_min, b);
    }
    sc.sync();
    pile ^= 1;
    ++passes;
  }

  sc.add_totals(edges, vertices);
  sc.sync();
  sc.refresh();
  if (tid == 0) {
    const near_far_books& end = sc.seen();
    block_outcome o{};
    o.edges_relaxed = end.edges_total;
    o.vertices_processed = end.vertices_total;
    o.iterations = iterations;
    o.buckets = buckets;
    o.passes = passes;
    o.max_frontier = max_frontier;
    o.max_far = max_far;
    o.respills = respills;
    o.overflowed = (end.stop_flags & 1u) ? 1u : 0u;
    o.capacity_exceeded = (end.stop_flags & 2u) ? 1u : 0u;
    *outcome = o;
  }
}

// Block b solves sources[b], or single_source when sources is null (see the file comment). Any
// blockDim.x up to block_driver_tuning::threads; block_driver_shared_bytes<Distance>(Q) of dynamic
// shared memory; at most Lanes (1, 2 or 4) threads per near-set vertex. The distances must be infinity
// beforehand (fill_infinity).
template <class Distance, std::uint32_t Q, unsigned Lanes>
__global__ void __launch_bounds__(block_driver_tuning::threads)
    block_solve(block_view<Distance> v, const vertex_t* sources, vertex_t single_source) {
  extern __shared__ __align__(16) unsigned char near_bytes[];
  far_entry<Distance>* const near_queue = reinterpret_cast<far_entry<Distance>*>(near_bytes);  // [2][Q]
  __shared__ near_far_books books;
  // The block's two far piles, pile p at piles + p * far_capacity (arithmetic, not an array of two
  // pointers: indexed at run time, such an array lives in local memory, a 16-byte stack frame).
  near_far_solve<Distance, Lanes>(block_scope<Distance, Q>{&books, near_queue}, v, v.dist + blockIdx.x * v.row_stride,
                                  v.far_piles + 2 * std::size_t{blockIdx.x} * v.far_capacity,
                                  sources ? sources[blockIdx.x] : single_source, v.outcome + blockIdx.x);
}

// The wide driver's kernel: one solve from `source` by every block of a cooperative grid (all
// resident), the books and near queues (2 x near_capacity entries) in global memory; row 0 of
// v.dist, the first two far piles, v.outcome[0].
template <class Distance, unsigned Lanes = block_driver_tuning::row_lanes>
__global__ void __launch_bounds__(block_driver_tuning::threads)
    wide_solve(block_view<Distance> v, near_far_books* books, wide_entry<Distance>* near, std::uint32_t near_capacity,
               vertex_t source) {
  __shared__ near_far_books copy;
  __shared__ unsigned long long block_edges[2];
  __shared__ std::uint32_t barriers;
  if (threadIdx.x == 0) barriers = 0;
  near_far_solve<Distance, Lanes>(grid_scope<Distance>{books, &copy, near, near_capacity, block_edges, &barriers}, v, v.dist,
                                  v.far_piles, source, v.outcome);
}

// The end of a timed run on stream (run_block_solve, run_wide_solve): records stop, copies `count`
// outcomes from the device to `to` (host memory), waits, and returns the milliseconds since start.
inline float finish_timed_run(const block_outcome* from, block_outcome* to, std::uint32_t count, cudaStream_t stream,
                              cudaEvent_t start, cudaEvent_t stop) {
  DS_CUDA(cudaEventRecord(stop, stream));
  DS_CUDA(cudaMemcpyAsync(to, from, count * sizeof(block_outcome), cudaMemcpyDeviceToHost, stream));
  DS_CUDA(cudaStreamSynchronize(stream));
  float ms = 0;
  DS_CUDA(cudaEventElapsedTime(&ms, start, stop));
  return ms;
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
  block_solve<Distance, Q, Lanes><<<blocks, threads, block_driver_shared_bytes<Distance>(Q), stream>>>(v, sources,
                                                                                                      single_source);
  DS_CUDA_LAUNCH("block_solve");
  return finish_timed_run(v.outcome, outcomes, blocks, stream, start, stop);
}

// The wide driver's grid: blocks of block_driver_tuning::threads, as many as can be resident at once
// (a cooperative launch needs them all resident) on the device's `sms` multiprocessors; 0 when the
// device cannot launch cooperatively.
template <class Distance, unsigned Lanes>
unsigned wide_solve_blocks(unsigned sms) {
  int device = 0, cooperative = 0, per_sm = 0;
  DS_CUDA(cudaGetDevice(&device));
  DS_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  DS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, wide_solve<Distance, Lanes>,
                                                        static_cast<int>(block_driver_tuning::threads), 0));
  return cooperative ? sms * static_cast<unsigned>(per_sm) : 0u;
}

// One run of the wide driver on stream: v.dist (num_vertices) filled with infinity, then
// wide_solve<Distance, Lanes> on `blocks` blocks (wide_solve_blocks), timed from start to stop; the
// outcome copied into *outcome (host memory). Returns the milliseconds, the fill included.
template <class Distance, unsigned Lanes>
float run_wide_solve(const block_view<Distance>& v, near_far_books* books, wide_entry<Distance>* near,
                     std::uint32_t near_capacity,
                     vertex_t source, unsigned blocks, unsigned fill_blocks, cudaStream_t stream, cudaEvent_t start,
                     cudaEvent_t stop, block_outcome* outcome) {
  DS_CUDA(cudaEventRecord(start, stream));
  fill_infinity<Distance><<<fill_blocks, 256, 0, stream>>>(v.dist, v.num_vertices);
  DS_CUDA_LAUNCH("fill_infinity");
  DS_CUDA(cudaMemsetAsync(books, 0, sizeof(near_far_books), stream));  // the barrier's arrivals
  void* args[] = {const_cast<block_view<Distance>*>(&v), &books, &near, &near_capacity, &source};
  DS_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(wide_solve<Distance, Lanes>), dim3(blocks),
                                      dim3(block_driver_tuning::threads), args, 0, stream));
  DS_CUDA_LAUNCH("wide_solve");
  return finish_timed_run(v.outcome, outcome, 1, stream, start, stop);
}

}  // namespace deltasplit::sssp::gpu
