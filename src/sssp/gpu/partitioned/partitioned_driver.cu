// The partitioned driver: delta-stepping (Meyer and Sanders) with every SM owning part of the graph.
//
// Why: a road solve is thousands of dependent relaxation iterations over a few hundred vertices
// each; the step loop (delta_stepping.cuh) runs them in one 16-SM cluster, a few microseconds per
// iteration, while the other SMs wait (bench/results/sssp.md). Here every block of a persistent
// cooperative grid (tuning::blocks_per_sm per SM, all resident) OWNS one region of the graph
// (owner_regions.hpp: recursive breadth-first bisection, renumbered to a contiguous id range on
// the device, results mapped back to the caller's ids) and is the only writer of its vertices' distances.
// A block is two roles, which never wait on each other's barriers:
//   - the workers (the block's first warps, named barrier 1) run the dependent chains inside the
//     region on chip. Its distances and rows (row offsets and targets in 32 bits, or in 16 bits
//     where the 32-bit rows leave weights off chip; weights in 16 or 32 bits where every weight
//     fits: of every arc, or of as many as fit, the rest read from global memory) live in shared
//     memory when the region fits (tuning::shared_budget), else in global memory. Pending
//     vertices are bits of two shared bitmaps, filed when their distance drops: the near set
//     (bucket at most the current bound: delta-stepping's current bucket, Meyer and Sanders,
//     Section 2) and the far set (above it). A local iteration takes the near set (a bitmap read,
//     no distance compared; a lane reserves its word's bits with one atomic and places them) and relaxes
//     every arc of its vertices from their distances then, tuning::lanes threads per row; an arc
//     into another region becomes an offer in a slot of a shared outbox ring (one atomic reserves
//     it; a worker whose slot no sender has emptied yet waits for it, and the senders never wait
//     on the workers). The workers iterate, two barriers an iteration, until the near set is
//     empty and nothing was delivered since they last looked, then go idle. An iteration's
//     critical path is its longest chain of shared-memory operations between the barriers; one
//     worker at the far end keeps the books (the deliveries seen, the fixpoint test);
//   - the postman warps (the last receives; before it tuning::sender_warps send, or
//     tuning::dense_sender_warps where the regions cut most arcs, as on social graphs) move offers
//     between regions through global memory (L2) while the workers iterate. A sender claims up to
//     32 outbox entries (a compare-and-swap on the claimed count, so the other sender takes the
//     next ones while these are in flight) and sends them: atomicMin into the target's offer
//     word; the sender that fills an empty word queues the vertex in its owner's mailbox ring (one
//     entry per fill; a ring has mailbox_slack more entries than its region has vertices: see
//     make_offer), later senders only lower it. The receiver polls its region's mailbox, empties
//     each offer word by an exchange and improves the vertex itself (the same atomics as the
//     workers': the distance, then its bit in the near or far set), then counts a delivery, waking
//     the workers when idle. One shared word (deliveries << 1 | idle) makes "idle" a
//     compare-and-swap that fails when anything was delivered since the workers last looked;
//   - a round is one bucket bound. It ends when no block is at work and no offer is queued (one
//     counter, outstanding: blocks at work plus offers queued; a sender counts an offer before it
//     queues it and while its block is counted; a receiver counts its block at work again before
//     it takes mail, and uncounts it only when its workers are idle and its outbox is sent), then
//     one grid barrier (cooperative groups), where the blocks agree on the next bound: the lowest
//     bucket of any far set. Far vertices at or below the new bound move to the near set.
// Work is that of delta-stepping with buckets of width delta, except that a vertex relaxes its
// heavy arcs each time it is taken (no light/heavy split) and that regions converge on their own,
// in the order their mail arrives. A vertex is filed only when its distance strictly drops, so
// zero-weight cycles end; when every block is idle and no offer is queued, no arc can lower any
// distance: the distances are Dijkstra's (integer sums exact; float sums one addition per arc, as
// everywhere in this solver). Each SM owns a locality-ordered part of the graph and runs its
// dependent chains in shared memory, exchanging only boundary distances through L2; the persistent
// blocks with their own work lists follow ADDS (Wang, Fussell and Lin, PPoPP 2021) in spirit, but
// ownership replaces ADDS's shared work queues and the bucket bound is exact. The waits on other
// blocks (a mailbox or outbox entry counted and not yet written, the round's count reaching zero)
// have a watchdog (partitioned_watchdog, stall_watch): a wait with nothing moving past its limit
// marks the solve stalled, every block leaves at the round's end and the host throws. Its cost is
// within noise of no watchdog (bench/results/sssp_roads.md).
//
// Choices: buckets three times the automatic delta (partition_tuning::auto_delta_scale: a
// round's end costs more than the re-relaxations of wider buckets), twelve times on graphs of
// small regions (partition_tuning::delta_scale); engine.cu chooses this driver by default on
// sparse or small graphs whose regions fit on chip (partition_tuning::automatic_below_degree,
// automatic_arcs_per_sm). The critical path is the busiest block's chain of local iterations,
// round by round (the summed per-round maxima times an iteration's latency make the whole
// solve), so what shortens an iteration or lets mail land without one pays in proportion: offers
// leave as they are made instead of at a local fixpoint, the receiver improves its mail itself,
// and the take, the round's end and the keeper's wake are kept off every iteration's chain (the
// receiver's offer words and one plain read of the round's end instead of an atomic a worker).
// Tried and not kept, because they did not shorten that chain: one fewer L2 round trip a mail
// hop, workers without barriers, one warp running small iterations alone, one barrier a pass with
// each warp relaxing the words it empties, votes for the next bound at every fixpoint instead of
// the round's grid barrier. The measurements of each step: bench/results/sssp_roads.md, and the
// constants' in bench/results/loop_tuning.md ("The partitioned driver").
#include "sssp/gpu/partitioned/partitioned_driver.cuh"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <cooperative_groups.h>

#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/partitioned/tuning.cuh"
#include "sssp/gpu/partitioned/owner_regions.hpp"
#include "sssp/gpu/step_loop/dependent_launch.cuh"

namespace deltasplit::sssp::gpu {

namespace cg = cooperative_groups;

// The constants that shape this driver (block shape, postman warps, rings, shared budget, the
// automatic delta's scale) are partition_tuning's (tuning.cuh), with the measurements.
using tuning = partition_tuning;
static_assert(tuning::threads % 32 == 0 && tuning::sender_warps >= 1 &&
                  tuning::sender_warps + 2 <= tuning::threads / 32 &&
                  tuning::dense_sender_warps + 2 <= tuning::threads / 32,
              "a block: at least one worker warp, one sender warp and the receiver");

// The receiver takes its mail a warp at a time: up to mailbox_slack entries a batch, each lane
// waiting for its own entry to be written, and moves on only when the whole batch is taken. Region
// b's ring holds its vertices' count plus mailbox_slack entries, from begin[b] + mailbox_slack * b.
constexpr std::uint32_t mailbox_slack = 32;
static_assert(mailbox_slack == 32, "a batch of mail is one entry a lane of the receiver's warp");
__host__ __device__ inline std::uint32_t mailbox_ring(const vertex_t* begin, std::uint32_t b) {
  return begin[b + 1] - begin[b] + mailbox_slack;
}
__host__ __device__ inline std::uint64_t mailbox_at(const vertex_t* begin, std::uint32_t b) {
  return std::uint64_t{begin[b]} + std::uint64_t{mailbox_slack} * b;
}

struct partitioned_control {
  std::uint32_t next_bucket[3];  // per round, three slots in rotation: the lowest bucket pending or offered
  std::uint32_t longest[3];      // per round: the most local iterations one block ran
  std::uint32_t overflowed;      // a distance sum was dropped (distance.cuh)
  std::uint32_t rounds, buckets, max_frontier;
  std::uint32_t outstanding[2];  // by round parity: blocks at work plus offers queued and not yet taken
  std::uint32_t stalled;         // the watchdog: the first stalled wait (stall_cause), 0 while none
  std::uint32_t stalled_round;   // the round it stalled in
  unsigned long long chain, edges, vertices;
  // The profile, summed over blocks (SM clocks): the receiver taking and improving mail, the
  // keeper in local iterations, the senders sending offers (every sender warp's time), the keeper idle
  // (and the round's end), grid barriers (the postmen's time overlaps the workers'); local
  // iterations with work, and idle periods (fixpoints: the near set empty and nothing delivered).
  unsigned long long cycles[5], iterations, fixpoints;
};

template <class Distance>
struct partitioned_view {
  using weight = typename distance_ops<Distance>::weight;
  const edge_t* offsets;  // the reordered graph (new ids)
  const vertex_t* targets;
  const weight* weights;
  // The same weights in 16 bits when all fit (integer weights), else in 32 bits when all fit
  // (64-bit integer weights), else null.
  const std::uint16_t* weights16;
  const std::uint32_t* weights32;
  // 64-bit weights of few distinct values (partition_tuning::weight_table_entries), where their
  // own width leaves some off chip: those values, sorted by bit pattern (table_size of them), and
  // each arc's 16-bit index into them; the regions keep the table and the indices on chip. Else null.
  const weight* weight_table;
  const std::uint16_t* weight_index;
  std::uint32_t table_size;
  const vertex_t* begin;  // parts + 1: region b is [begin[b], begin[b + 1])
  const std::uint32_t* weights_on_chip;  // per region: its first arcs whose weights it keeps on chip
  // Narrow rows (partition_shared_words): each arc's 16-bit target, and region b's distinct targets
  // in other regions, cut_begin[b] to cut_begin[b + 1] of cut_targets; null with 32-bit rows.
  const std::uint16_t* targets16;
  const vertex_t* cut_targets;
  const std::uint32_t* cut_begin;
  Distance* dist;         // new ids; written by the owner only
  Distance* offer;        // new ids; the best offer not yet taken by the owner, infinity when none
  // Region b's ring: mailbox_ring(begin, b) entries from mailbox_at(begin, b); queued vertex + 1, 0 when free.
  vertex_t* mailbox;
  std::uint32_t* mailbox_tail;  // per region: entries ever queued (the ring position is this modulo its size)
  partitioned_control* ctl;
  std::uint32_t parts;
  std::uint32_t words;      // bitmap words (near or far) of the largest region
  bucket_of_distance<Distance> bucket;
  std::uint64_t stall_ns;   // the watchdog's limit (partitioned_watchdog)
};

// The waits the watchdog names (partitioned_control::stalled).
enum stall_cause : std::uint32_t {
  stall_none,
  stall_mail,      // the receiver, on a mailbox entry its sender counted
  stall_round,     // the receiver, idle, on the round's outstanding work reaching zero
  stall_outbox,    // a sender, on an outbox entry a worker reserved
};

__device__ inline std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One wait's watchdog (partitioned_watchdog): every 1,024 spins it reads the GPU's clock (and
// whether another wait stalled: then this one gives up at once, so every block reaches the
// round's end); expired() is true once the wait has lasted past the limit or the solve stalled.
// Waits that end at their first look never read the clock.
struct stall_watch {
  std::uint64_t since = 0;
  std::uint32_t spins = 0;
  __device__ bool expired(std::uint64_t limit_ns, const std::uint32_t* stalled) {
    if (++spins % 1024u) return false;
    if (*reinterpret_cast<const volatile std::uint32_t*>(stalled)) return true;
    const std::uint64_t now = global_ns();
    if (since == 0) since = now;
    return now - since > limit_ns;
  }
  __device__ void restart() { since = 0, spins = 0; }
};

// Marks the solve stalled (the first cause stays); every block leaves at the round's end.
__device__ inline void mark_stalled(partitioned_control* ctl, stall_cause why, std::uint32_t round) {
  if (atomicCAS(&ctl->stalled, 0u, static_cast<std::uint32_t>(why)) == 0u) atomicExch(&ctl->stalled_round, round);
}

// The wait on the round's count has this many times the limit, so that where an entry was lost,
// its own wait (take_written) names it first (the kernel, and the host's message).
constexpr std::uint32_t round_stall_factor = 2;

// An outbox entry: an offer's distance and its target + 1, all zero when free. For 32-bit
// distances one 64-bit word, (distance bits << 32) | (target + 1); for 64-bit distances 16 bytes,
// written and taken by 128-bit atomics (sm_90 and later; partitioned_engine refuses older code).
template <std::size_t DistanceBytes>
struct outbox_entry {
  using word = unsigned long long;
  template <class Distance>
  __device__ static word pack(Distance d, vertex_t t) {
    return static_cast<word>(distance_bits(d)) << 32 | (t + 1);
  }
  __device__ static vertex_t target(word w) { return static_cast<vertex_t>(w) - 1; }
  template <class Distance>
  __device__ static Distance distance(word w) {
    return distance_from_bits<Distance>(static_cast<std::uint32_t>(w >> 32));
  }
};
struct alignas(16) wide_offer {
  unsigned long long bits, target;  // the distance's bits; target + 1 (0: free)
};
template <>
struct outbox_entry<8> {
  using word = wide_offer;
  template <class Distance>
  __device__ static word pack(Distance d, vertex_t t) {
    return {distance_bits(d), std::uint64_t{t} + 1};
  }
  __device__ static vertex_t target(word w) { return static_cast<vertex_t>(w.target - 1); }
  template <class Distance>
  __device__ static Distance distance(word w) {
    return distance_from_bits<Distance>(w.bits);
  }
};
__device__ __forceinline__ bool is_free(std::uint32_t w) { return w == 0; }
__device__ __forceinline__ bool is_free(unsigned long long w) { return w == 0; }
__device__ __forceinline__ bool is_free(const wide_offer& w) { return w.target == 0; }

// The 16-byte exchanges of wide_offer entries exist from sm_90 on; code for older GPUs (the
// compute_80 PTX build) traps there, and partitioned_engine never launches it.
__device__ __forceinline__ wide_offer exchange(wide_offer* p, wide_offer v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return atomicExch(p, v);
#else
  __trap();
  return v;
#endif
}
__device__ __forceinline__ wide_offer compare_exchange(wide_offer* p, wide_offer expected, wide_offer v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return atomicCAS(p, expected, v);
#else
  __trap();
  return v;
#endif
}
template <class Word>
__device__ __forceinline__ Word exchange(Word* p, Word v) {
  return atomicExch(p, v);
}
template <class Word>
__device__ __forceinline__ Word compare_exchange(Word* p, Word expected, Word v) {
  return atomicCAS(p, expected, v);
}

// Takes the entry at p once its writer, which reserved or counted it, has written it (not free),
// leaving a free entry behind; past the watchdog's limit marks the solve stalled with `why` and
// returns a free entry.
template <class Word>
__device__ __forceinline__ Word take_written(Word* p, std::uint64_t limit_ns, partitioned_control* ctl, stall_cause why,
                             std::uint32_t round) {
  Word w;
  stall_watch watch;
  while (is_free(w = exchange(p, Word{}))) {
    if (watch.expired(limit_ns, &ctl->stalled)) {
      mark_stalled(ctl, why, round);
      break;
    }
  }
  return w;
}

// Dynamic shared memory of a block, in 4-byte words: the outbox (8-byte entries, 16-byte ones for
// 64-bit distances, first for their alignment), the near and far bitmaps, the local frontier
// (vertex ids), the region bounds, then (SharedDist) the region's distances, then (SharedArcs) its
// rows, then (shared_weights) the weights of all its arcs, weight_bytes each (2, 4 or 8).
// distance_words: 1, or 2 for 64-bit distances; 8-byte distances and weights each also take a word
// of padding for their alignment. The rows are 32-bit row offsets and targets, or (narrow) 16-bit
// ones: the region's `cuts` distinct targets in other regions first (32-bit ids), then 16-bit row
// offsets and 16-bit targets (below `vertices`, the region's own; from it, an entry of the cuts),
// rounded up to a word (narrow_rows_fit says when a region can take them). With a weight table
// (table_words: its 8-byte entries and a word of padding), the table comes before the weights,
// which are then its 16-bit indices (weight_bytes 2).
inline std::size_t partition_shared_words(std::uint32_t words, std::uint32_t parts, std::uint32_t vertices,
                                          std::uint32_t arcs, bool shared_dist, bool shared_arcs, bool shared_weights,
                                          std::uint32_t weight_bytes, std::uint32_t distance_words = 1,
                                          bool narrow = false, std::uint32_t cuts = 0, std::uint32_t table_words = 0) {
  const std::size_t pad = distance_words - 1;
  std::size_t w = 2 * std::size_t{words} + tuning::frontier + 2 * distance_words * tuning::outbox + parts + 1;
  if (shared_dist) w += pad + std::size_t{distance_words} * vertices;
  if (shared_arcs) {
    w += narrow ? cuts + (std::size_t{vertices} + 1 + arcs + 1) / 2 : std::size_t{vertices} + 1 + arcs;
    if (shared_weights)
      w += table_words + (weight_bytes == 2   ? (std::size_t{arcs} + 1) / 2
                          : weight_bytes == 4 ? arcs
                                              : 1 + 2 * std::size_t{arcs});
  }
  return w;
}

// Whether a region of these vertices, arcs and distinct targets in other regions can take narrow
// rows: its row offsets (0 to arcs) and its targets (own vertices, then the cuts' entries) in 16 bits.
inline bool narrow_rows_fit(std::uint64_t vertices, std::uint64_t arcs, std::uint64_t cuts) {
  return arcs <= 0xFFFFu && vertices + cuts <= 0x10000u;
}

// The shared words of a weight table of `entries` 8-byte values, with a word of padding for their
// alignment (partition_shared_words); none without a table.
inline std::uint32_t weight_table_words(std::uint32_t entries) { return entries ? 1 + 2 * entries : 0; }

// How many arcs' weights of weight_bytes fit in `room` shared words after a region's targets.
inline std::uint32_t weights_that_fit(std::size_t room, std::uint32_t arcs, std::uint32_t weight_bytes) {
  const std::size_t fit = weight_bytes == 2 ? 2 * room : weight_bytes == 4 ? room : room > 1 ? (room - 1) / 2 : 0;
  return static_cast<std::uint32_t>(std::min<std::size_t>(fit, arcs));
}

// The dynamic shared memory a block may use on the current device (tuning::shared_budget).
static std::size_t shared_budget_here() {
  int device = 0, optin = 0;
  DS_CUDA(cudaGetDevice(&device));
  DS_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const auto limit = static_cast<std::size_t>(optin);
  return std::min(tuning::shared_budget, limit > tuning::shared_reserve ? limit - tuning::shared_reserve : 0);
}

// p rounded up to the alignment of T (8-byte distances and weights in the shared words), by
// stepping over whole words from p: the result stays derived from the shared array, so the
// compiler keeps shared-memory instructions for it (LDS, ATOMS). Rounding the address as an integer
// makes a generic pointer, and every access through it a generic one: a 64-bit atomicMin then
// tries the generic atomic, asks the address's space and only then runs the shared-memory loop.
template <class T>
__device__ __forceinline__ T* aligned_for(std::uint32_t* p) {
  static_assert(alignof(T) % alignof(std::uint32_t) == 0 || alignof(T) < alignof(std::uint32_t));
  if constexpr (alignof(T) <= alignof(std::uint32_t)) {
    return reinterpret_cast<T*>(p);  // the shared words' own alignment
  } else {
    constexpr std::uintptr_t words = alignof(T) / sizeof(std::uint32_t);
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p) / sizeof(std::uint32_t);
    return reinterpret_cast<T*>(p + (words - at % words) % words);
  }
}

// Sets up a solve. A planted fault (partitioned_watchdog, the watchdog's tests) is set up here, so
// that the solve kernel carries no test branch: lost_mail starts each region's mailbox with one
// entry counted in its tail and in round 0's outstanding work and never written (an offer lost as
// the undersized ring below once lost one); lost_count counts one more block at work in round 0
// than there are.
template <class Distance>
__global__ void reset_partitioned(partitioned_view<Distance> s, vertex_t n, vertex_t source, partitioned_fault fault) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    s.dist[v] = v == source ? Distance(0) : distance_ops<Distance>::infinity;
    s.offer[v] = distance_ops<Distance>::infinity;
  }
  const std::uint64_t entries = std::uint64_t{n} + std::uint64_t{mailbox_slack} * s.parts;
  for (std::uint64_t v = blockIdx.x * blockDim.x + threadIdx.x; v < entries; v += stride) s.mailbox[v] = 0;
  const std::uint32_t lost = fault == partitioned_fault::lost_mail ? 1u : 0u;  // entries a region
  for (std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < s.parts; b += stride) s.mailbox_tail[b] = lost;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    partitioned_control c{};
    for (auto& b : c.next_bucket) b = no_bucket;
    c.outstanding[0] = s.parts + lost * s.parts;  // round 0: every block at work (and the lost entries)
    if (fault == partitioned_fault::lost_count) ++c.outstanding[0];
    *s.ctl = c;
  }
}

// "Is distance d in a bucket at most the bound?": for integer distances d < (bound + 1) * delta,
// without the division of bucket_of_distance (64-bit division is a long instruction sequence on the
// GPU, and improve() asks at every improvement); for real distances the bucket itself.
template <class Distance>
struct near_bound;

template <>
struct near_bound<std::uint32_t> {
  std::uint64_t below;
  __device__ near_bound(bucket_of_distance<std::uint32_t> b, std::uint32_t bound)
      : below((std::uint64_t{bound} + 1) * b.delta) {}
  __device__ bool operator()(std::uint32_t d) const { return d < below; }
};

template <class Distance>
struct bucket_near_bound {
  bucket_of_distance<Distance> bucket;
  std::uint32_t bound;
  __device__ bucket_near_bound(bucket_of_distance<Distance> b, std::uint32_t k) : bucket(b), bound(k) {}
  __device__ bool operator()(Distance d) const { return bucket(d) <= bound; }
};
template <>
struct near_bound<float> : bucket_near_bound<float> {
  using bucket_near_bound<float>::bucket_near_bound;
};
template <>
struct near_bound<double> : bucket_near_bound<double> {
  using bucket_near_bound<double>::bucket_near_bound;
};
// uint64: the bucket is capped (bucket_of_distance), so from the cap's bucket on every distance is
// near; below it, d / delta <= bound exactly when d < (bound + 1) * delta, saturated at 2^64 - 1
// (the distances asked about are finite, at most 2^64 - 2).
template <>
struct near_bound<std::uint64_t> {
  std::uint64_t below;
  __device__ near_bound(bucket_of_distance<std::uint64_t> b, std::uint32_t bound) {
    const std::uint64_t k = std::uint64_t{bound} + 1;
    below = bound >= bucket_of_distance<std::uint64_t>::cap || b.delta > ~std::uint64_t{0} / k ? ~std::uint64_t{0}
                                                                                                 : k * b.delta;
  }
  __device__ bool operator()(std::uint64_t d) const { return d < below; }
};

// The region's distances: shared memory (SharedDist) or the global array, which its owner alone
// writes. improve() lowers one and, when it dropped, marks it pending: in the near set when its
// bucket is at most the bound, else in the far set. With SharedDist the global copy (the senders'
// filter) is written by a plain store at each improvement, so it may lag behind; it is never below
// the owner's value, so it only lets through offers that cannot help. publish() writes the exact
// distances at the end of the solve.
template <class Distance, bool SharedDist>
struct owned_distances {
  Distance* local;   // shared, region-relative (SharedDist)
  Distance* global;  // new ids
  vertex_t lo, owned;
  std::uint32_t* near;
  std::uint32_t* far;
  __device__ Distance load(vertex_t u) const { return SharedDist ? local[u] : __ldcg(&global[lo + u]); }
  __device__ void improve(vertex_t u, Distance d, const near_bound<Distance>& is_near) const {
    using ops = distance_ops<Distance>;
    if (!(d < ops::atomic_min(SharedDist ? &local[u] : &global[lo + u], d))) return;
    if (SharedDist) global[lo + u] = d;
    atomicOr(&(is_near(d) ? near : far)[u >> 5], 1u << (u & 31u));
  }
  __device__ void publish() const {  // the whole block, after its last barrier
    if constexpr (SharedDist) {
      for (vertex_t u = threadIdx.x; u < owned; u += blockDim.x) global[lo + u] = local[u];
    }
  }
};

// The region's arcs: a copy in shared memory (SharedArcs: its rows, 32-bit or (Narrow) 16-bit, see
// partition_shared_words, and the weights of its first `on_chip` arcs in their narrowest copy, the
// rest read from global memory: every arc's where they all fit; with a weight table (Table), the
// table and the arcs' places in it) or the reordered CSR in global memory.
template <class Distance, bool SharedArcs, bool Narrow, bool Table>
struct region_arcs {
  using weight = typename distance_ops<Distance>::weight;
  // An arc's index: region-relative and 32-bit in shared memory (the engine keeps a region's arcs
  // there only below 2^32), global otherwise; 32-bit arithmetic shortens a relaxation's chain.
  using arc = std::conditional_t<SharedArcs, std::uint32_t, edge_t>;
  const partitioned_view<Distance>* s;
  vertex_t lo;
  vertex_t owned;
  edge_t base;                     // the region's first arc
  const std::uint32_t* offsets;    // shared (SharedArcs, 32-bit rows)
  const vertex_t* targets;
  const std::uint16_t* offsets16;  // shared (SharedArcs, Narrow)
  const std::uint16_t* targets16;
  const vertex_t* cut;             // shared (Narrow): the targets from owned on
  const weight* weights;           // shared, in the weights' own type (when neither below)
  const std::uint16_t* weights16;  // shared, or null (as the view's; with a table, the indices)
  const std::uint32_t* weights32;
  const weight* table;             // shared: the view's weight_table (Table)
  std::uint32_t on_chip;           // arcs whose weights are in shared memory (SharedArcs)
  __device__ void row(vertex_t u, arc& first, arc& last) const {
    if constexpr (SharedArcs && Narrow) {
      first = offsets16[u];
      last = offsets16[u + 1];
    } else if constexpr (SharedArcs) {
      first = offsets[u];
      last = offsets[u + 1];
    } else {
      first = __ldg(&s->offsets[lo + u]);
      last = __ldg(&s->offsets[lo + u + 1]);
    }
  }
  __device__ vertex_t target(arc a) const {
    if constexpr (SharedArcs && Narrow) {
      const std::uint32_t t = targets16[a];
      return t < owned ? lo + t : cut[t - owned];
    } else if constexpr (SharedArcs) {
      return targets[a];
    }
    return __ldg(&s->targets[a]);
  }
  __device__ weight weight_of(arc a) const {
    if constexpr (SharedArcs) {
      constexpr bool wide = sizeof(weight) == 8;  // only 64-bit weights have a 32-bit copy or a table
      if (a < on_chip) {
        if constexpr (Table) return table[weights16[a]];
        if (weights16) return static_cast<weight>(weights16[a]);
        if (wide && weights32) return static_cast<weight>(weights32[a]);
        return weights[a];
      }
      const edge_t g = base + a;
      if (s->weights16) return static_cast<weight>(__ldg(&s->weights16[g]));
      if (wide && s->weights32) return static_cast<weight>(__ldg(&s->weights32[g]));
      return __ldg(&s->weights[g]);
    }
    return __ldg(&s->weights[a]);
  }
};

__device__ inline std::uint32_t owner_of(const vertex_t* begin, std::uint32_t parts, vertex_t v) {
  std::uint32_t a = 0, b = parts - 1;  // the last region with begin <= v
  while (a < b) {
    const std::uint32_t mid = (a + b + 1) >> 1;
    if (begin[mid] <= v)
      a = mid;
    else
      b = mid - 1;
  }
  return a;
}

// The best offer for a vertex, leaving none (infinity) behind.
template <class Distance>
__device__ __forceinline__ Distance take_offer(Distance* p) {
  if constexpr (sizeof(Distance) == 8) {
    const unsigned long long none = distance_bits(distance_ops<Distance>::infinity);
    return distance_from_bits<Distance>(atomicExch(reinterpret_cast<unsigned long long*>(p), none));
  } else {
    return atomicExch(p, distance_ops<Distance>::infinity);
  }
}

// An offer of distance d to vertex t of another region: lowers t's offer word and, if this sender
// filled the empty word, queues t in its owner's mailbox ring. The queued offer counts as
// outstanding work of the round (parity p) until its owner takes it; it is counted before it is
// queued, while the sending block is itself still counted as at work, so the count cannot touch
// zero in between. Two live entries never share a slot of the ring: a vertex has at most one entry
// not yet taken (its offer word is filled again only after its owner took the entry and emptied
// the word), and the entries from the receiver's oldest one not taken to the tail are those (at
// most the region's vertices) and the ones its current batch took (fewer than mailbox_slack), since
// it takes no entry past its batch. (A ring of exactly the region's vertices lets a sender
// overwrite an entry whose taker waits on an earlier slow writer: an offer lost and the receiver
// waiting forever, rarely, on graphs of small, heavily mailed regions.)
template <class Distance>
__device__ void make_offer(const partitioned_view<Distance>& s, const vertex_t* begin, std::uint32_t p, vertex_t t,
                           Distance d) {
  using ops = distance_ops<Distance>;
  if (!(d < __ldcg(&s.dist[t]))) return;
  const Distance old = ops::atomic_min(&s.offer[t], d);
  if (old != ops::infinity) return;  // lowered a queued offer, or none
  const std::uint32_t owner = owner_of(begin, s.parts, t);
  atomicAdd(&s.ctl->outstanding[p], 1u);
  const std::uint32_t queued = atomicAdd(&s.mailbox_tail[owner], 1u);
  atomicExch(&s.mailbox[mailbox_at(begin, owner) + queued % mailbox_ring(begin, owner)], t + 1);
}

__device__ inline std::uint32_t volatile_load(const std::uint32_t* p) {
  return *reinterpret_cast<const volatile std::uint32_t*>(p);
}

// Named barrier 1: the worker warps only (the postman warps never wait on the workers' iterations).
__device__ inline void workers_sync(std::uint32_t workers) {
  asm volatile("bar.sync 1, %0;" ::"r"(workers) : "memory");
}

// The words both roles use while both run (delivery, round_over and the outbox's counts in shared
// memory; mailbox_tail and outstanding in global memory) follow one rule:
//   - every write is an atomic, with a fence before it where it publishes earlier writes;
//   - a read is shared_read (an atomic: the value the next atomic on that word acts on, ordered with
//     the fences beside it) unless it is one of two kinds, read by volatile_load (one transaction a
//     warp):
//       a flag that only turns on within a round (round_over) read after a barrier that already
//       ordered it after its write (the workers, after the keeper saw the delivery that follows it);
//       a count polled until it moves, where a stale value only delays the reader (mailbox_tail,
//       whose entries are then waited on one by one; outstanding, zero only when every block is).
// The keeper's and the senders' waits poll with shared_read (the senders polling with plain loads
// measured equal: bench/results/sssp_roads.md).
__device__ inline std::uint32_t shared_read(std::uint32_t* p) { return atomicOr(p, 0u); }
__device__ inline int shared_read(int* p) { return atomicOr(p, 0); }

// Lane 0 evaluates f() and the whole warp gets its value (the postmen's looks at shared and global
// words: one access a warp, not 32).
template <class F>
__device__ inline auto from_lane0(F f) -> decltype(f()) {
  using value = decltype(f());
  using word = std::conditional_t<std::is_same_v<value, bool>, int, value>;
  word v{};
  if ((threadIdx.x & 31u) == 0) v = static_cast<word>(f());
  return static_cast<value>(__shfl_sync(0xFFFFFFFFu, v, 0));
}

// Each warp of the block takes bitmap words warp, warp + warps, ...: f(w, bits) for each nonzero
// word, warp-uniform (the round's-end passes over the far set, between block barriers).
template <class F>
__device__ inline void for_far_words(const std::uint32_t* far, std::uint32_t words, F f) {
  for (std::uint32_t w = threadIdx.x >> 5; w < words; w += blockDim.x >> 5) {
    const std::uint32_t bits = far[w];
    if (bits) f(w, bits);
  }
}

// SenderWarps: tuning::sender_warps or dense_sender_warps (the host picks by the regions' cut). A
// template argument because the worker count is on every iteration's chain (loop strides, the
// barrier's count, the keeper): read from the view at run time, it was measurably slower on the
// road graphs (bench/results/sssp_roads.md, "Moved from the partitioned driver's comments").
template <class Distance, bool SharedDist, bool SharedArcs, bool Narrow, unsigned SenderWarps, bool Table>
__global__ void __launch_bounds__(tuning::threads, tuning::blocks_per_sm)
    partitioned_solve(partitioned_view<Distance> s, vertex_t source) {
  using ops = distance_ops<Distance>;
  using weight = typename ops::weight;
  extern __shared__ __align__(16) std::uint32_t shared_words[];
  // The outbox: offers to other regions (outbox_entry), free when zero.
  using offer_entry = outbox_entry<sizeof(Distance)>;
  using offer_word = typename offer_entry::word;
  offer_word* const outbox = reinterpret_cast<offer_word*>(shared_words);
  std::uint32_t* const near = reinterpret_cast<std::uint32_t*>(outbox + tuning::outbox);  // pending at or below the bound
  std::uint32_t* const far = near + s.words;  // pending above it (stale bits dropped at each round's end)
  vertex_t* const frontier = far + s.words;
  vertex_t* const begin = frontier + tuning::frontier;
  Distance* const region_d = aligned_for<Distance>(begin + s.parts + 1);
  // delivery: (mail deliveries, modulo 2^31) << 1 | workers idle. One word, so that the workers
  // go idle only if nothing was delivered since they last looked (a compare-and-swap).
  // taken: the near-set vertices a pass takes, by pass parity.
  __shared__ std::uint32_t taken[2], delivery, round_over, next_bucket;
  // The outbox's counts: entries reserved by the workers, claimed by a sender, sent (all modulo 2^32).
  __shared__ std::uint32_t out_tail, out_sent, out_claimed;
  __shared__ unsigned long long relaxed;
  cg::grid_group grid = cg::this_grid();
  const std::uint32_t tid = threadIdx.x, part = blockIdx.x, threads = blockDim.x;
  const std::uint32_t lane = tid & 31u, warp = tid >> 5;
  constexpr std::uint32_t workers = tuning::threads - 32 * (SenderWarps + 1);  // then the senders, the receiver
  const bool postman = tid >= workers;
  // The worker that keeps the passes' books (looks at the deliveries, detects a fixpoint,
  // counts): lane 0 of the last worker warp, which the relaxation (from the first worker up)
  // reaches last.
  constexpr std::uint32_t keeper = workers - 32;
  std::uint32_t seen = 0;  // the keeper: deliveries seen before the take
  const vertex_t lo = s.begin[part], owned = s.begin[part + 1] - lo;
  const std::uint32_t words = (owned + 31) / 32;
  const owned_distances<Distance, SharedDist> own{region_d, s.dist, lo, owned, near, far};
  const edge_t base = s.offsets[lo];
  const std::uint32_t count = SharedArcs ? static_cast<std::uint32_t>(s.offsets[lo + owned] - base) : 0;
  // The region's own layout after its distances (regions differ in vertices and arcs): its rows
  // (32-bit: offsets, targets; narrow: the cuts, 16-bit offsets and targets, to a word), its weights.
  const std::uint32_t cut_at = Narrow ? s.cut_begin[part] : 0, cuts = Narrow ? s.cut_begin[part + 1] - cut_at : 0;
  std::uint32_t* const region_rows = reinterpret_cast<std::uint32_t*>(region_d + (SharedDist ? owned : 0));
  std::uint32_t* const region_offsets = region_rows;
  vertex_t* const region_targets = region_offsets + owned + 1;
  vertex_t* const region_cut = region_rows;
  std::uint16_t* const region_offsets16 = reinterpret_cast<std::uint16_t*>(region_rows + cuts);
  std::uint16_t* const region_targets16 = region_offsets16 + owned + 1;
  std::uint32_t* const region_weights_at = Narrow ? region_rows + cuts + (owned + 1 + count + 1) / 2 : region_targets + count;
  weight* const region_weights = aligned_for<weight>(region_weights_at);
  // With a weight table: the table (8-byte entries, aligned), then the arcs' 16-bit indices.
  weight* const region_table = Table ? region_weights : nullptr;
  std::uint16_t* const region_weights16 = reinterpret_cast<std::uint16_t*>(
      Table ? static_cast<void*>(region_weights + s.table_size) : static_cast<void*>(region_weights_at));
  std::uint32_t* const region_weights32 = region_weights_at;
  const std::uint32_t on_chip = SharedArcs ? s.weights_on_chip[part] : 0;
  const region_arcs<Distance, SharedArcs, Narrow, Table> arcs{&s,
                                                       lo,
                                                       owned,
                                                       base,
                                                       region_offsets,
                                                       region_targets,
                                                       region_offsets16,
                                                       region_targets16,
                                                       region_cut,
                                                       region_weights,
                                                       s.weights16 || Table ? region_weights16 : nullptr,
                                                       s.weights32 ? region_weights32 : nullptr,
                                                       region_table,
                                                       on_chip};
  for (std::uint32_t i = tid; i <= s.parts; i += threads) begin[i] = s.begin[i];
  for (std::uint32_t i = tid; i < words; i += threads) near[i] = far[i] = 0;
  for (std::uint32_t i = tid; i < tuning::outbox; i += threads) outbox[i] = offer_word{};
  if (SharedDist)
    for (std::uint32_t i = tid; i < owned; i += threads) region_d[i] = ops::infinity;
  if constexpr (SharedArcs && Narrow) {  // the region's rows, copied once per solve
    for (std::uint32_t i = tid; i < cuts; i += threads) region_cut[i] = s.cut_targets[cut_at + i];
    for (std::uint32_t i = tid; i <= owned; i += threads)
      region_offsets16[i] = static_cast<std::uint16_t>(s.offsets[lo + i] - base);
    for (std::uint32_t i = tid; i < count; i += threads) region_targets16[i] = s.targets16[base + i];
  } else if constexpr (SharedArcs) {
    for (std::uint32_t i = tid; i <= owned; i += threads) region_offsets[i] = static_cast<std::uint32_t>(s.offsets[lo + i] - base);
    for (std::uint32_t i = tid; i < count; i += threads) region_targets[i] = s.targets[base + i];
  }
  if constexpr (SharedArcs) {
    if (Table) {
      for (std::uint32_t i = tid; i < s.table_size; i += threads) region_table[i] = s.weight_table[i];
      for (std::uint32_t i = tid; i < on_chip; i += threads) region_weights16[i] = s.weight_index[base + i];
    } else if (s.weights16)
      for (std::uint32_t i = tid; i < on_chip; i += threads) region_weights16[i] = s.weights16[base + i];
    else if (s.weights32)
      for (std::uint32_t i = tid; i < on_chip; i += threads) region_weights32[i] = s.weights32[base + i];
    else
      for (std::uint32_t i = tid; i < on_chip; i += threads) region_weights[i] = s.weights[base + i];
  }
  if (tid == 0) {
    out_tail = out_sent = out_claimed = 0;
    relaxed = 0;
    delivery = 0;
  }
  __syncthreads();
  if (tid == 0 && source - lo < owned) {
    if (SharedDist) region_d[source - lo] = Distance(0);
    near[(source - lo) >> 5] = 1u << ((source - lo) & 31u);
  }
  std::uint64_t my_arcs = 0;
  std::uint32_t current = 0;  // the bound: vertices of buckets <= current are taken
  // Lane-uniform: the receiver's mailbox entries taken, its ring's size and first entry.
  const std::uint32_t ring = mailbox_ring(s.begin, part);
  const std::uint64_t ring_at = mailbox_at(s.begin, part);
  std::uint32_t mail_head = 0;
  // The block's books, in shared memory (registers are the relaxation's): entries 0-4 the
  // profile's cycles (partitioned_control::cycles), then iterations, fixpoints, vertices taken and
  // the largest frontier, each written by one thread (the keeper, or a postman's lane 0 for 0 and 2).
  __shared__ unsigned long long books[9];
  unsigned long long* const cycles = books;
  unsigned long long& iterations = books[5];
  unsigned long long& fixpoints = books[6];
  unsigned long long& processed = books[7];
  unsigned long long& largest = books[8];
  if (tid == 0)
    for (auto& b : books) b = 0;
  long long clock = clock64();  // the keeper's laps
  const auto lap = [&](int phase) {
    const long long now = clock64();
    cycles[phase] += static_cast<unsigned long long>(now - clock);
    clock = now;
  };
  for (std::uint32_t round = 0;; ++round) {
    const std::uint32_t slot = round % 3, p = round & 1u;
    if (part == 0 && tid == 0) {  // the next round's words, last read before the previous grid barrier
      const std::uint32_t z = (round + 1) % 3;
      s.ctl->next_bucket[z] = no_bucket;
      s.ctl->longest[z] = 0;
      s.ctl->outstanding[p ^ 1u] = s.parts;
    }
    if (tid == 0) {
      round_over = 0;
      next_bucket = no_bucket;
    }
    __syncthreads();
    std::uint32_t k = 0;  // local iterations with work this round (every worker counts them)
    const near_bound<Distance> is_near(s.bucket, current);
    if (!postman) {
      // --- the workers: local iterations over the near set; idle when it is empty ---
      if (tid == keeper) {
        seen = shared_read(&delivery) >> 1;
        taken[0] = taken[1] = 0;
      }
      workers_sync(workers);
      for (std::uint32_t pass = 0;; ++pass) {
        const std::uint32_t c = pass & 1u;
        // Take the near set (up to tuning::frontier vertices; the rest waits): each lane looks at
        // one word (a warp at 32 words at a time), reserves the frontier room of its bits with one
        // shared atomic and places them. (A scan over the lanes and one atomic a warp puts six
        // shuffles on every iteration's chain.) The receiver may set bits meanwhile: a take clears
        // only its own.
        for (std::uint32_t w0 = warp * 32; w0 < words; w0 += workers) {
          const std::uint32_t w = w0 + lane;
          const std::uint32_t bits = w < words ? near[w] : 0;
          if (bits == 0) continue;
          std::uint32_t at = atomicAdd(&taken[c], __popc(bits));
          if (at < tuning::frontier) {
            std::uint32_t take = bits;
            while (at + __popc(take) > tuning::frontier) take &= ~(1u << (31 - __clz(take)));
            atomicAnd(&near[w], ~take);
            for (; take; take &= take - 1, ++at) frontier[at] = w * 32 + __ffs(take) - 1;
          }
        }
        workers_sync(workers);
        const std::uint32_t n = min(taken[c], tuning::frontier);
        if (tid == keeper) taken[c ^ 1u] = 0;  // the next pass's counter (every worker read it last pass)
        if (n == 0) {  // a local fixpoint: idle unless the receiver delivered since the keeper looked
          if (tid == keeper) {
            lap(1);
            const std::uint32_t quiet = seen << 1;
            __threadfence_block();  // the iterations' outbox entries before "idle"
            std::uint32_t now = atomicCAS(&delivery, quiet, quiet | 1u);
            if (now == quiet) {  // idle until the word changes: a delivery (the receiver clears the
              fixpoints += 1;    // idle bit after it, off this wake's path) or the round's end
              while ((now = shared_read(&delivery)) == (quiet | 1u)) {
              }
            }
            lap(3);
            seen = now >> 1;
          }
          workers_sync(workers);
          // A plain read, one broadcast a warp: the receiver set it before it changed the delivery
          // word the keeper saw before this barrier. (An atomic read by every worker, 928 on one
          // word, queues on each wake.)
          if (volatile_load(&round_over)) break;
          continue;
        }
        k += 1;
        if (tid == keeper) {
          processed += n;
          largest = max(largest, static_cast<unsigned long long>(n));
        }
        // The relaxation: tuning::lanes threads a vertex, from the first worker up.
        for (std::uint32_t i = tid; i < n * tuning::lanes; i += workers) {
          const vertex_t u = frontier[i / tuning::lanes];
          const Distance du = own.load(u);  // its distance now (lowered since the take: relaxed again later)
          const std::uint32_t l = i % tuning::lanes;
          typename region_arcs<Distance, SharedArcs, Narrow, Table>::arc first, last;
          arcs.row(u, first, last);
          if (l == 0) my_arcs += last - first;
          for (auto a = first + l; a < last; a += tuning::lanes) {
            const vertex_t t = arcs.target(a);
            Distance nd;
            if (!ops::extend(du, arcs.weight_of(a), nd)) {
              s.ctl->overflowed = 1;
              continue;
            }
            const vertex_t tl = t - lo;
            if (tl < owned) {
              own.improve(tl, nd, is_near);
            } else {  // to the senders: a slot of the outbox, written once a sender has emptied it
              const std::uint32_t at = atomicAdd(&out_tail, 1u) % tuning::outbox;
              const offer_word offer = offer_entry::pack(nd, t);
              while (!is_free(compare_exchange(&outbox[at], offer_word{}, offer))) {
              }
            }
          }
        }
        // Offers the receiver improved before this look are in the near set the next take sees.
        if (tid == keeper) seen = shared_read(&delivery) >> 1;
        workers_sync(workers);
      }
      if (tid == keeper) {
        lap(1);
        iterations += k;
      }
    } else {
      // --- the postmen: the senders send the outbox; the receiver takes the mail and tells when the block is idle ---
      if (warp < tuning::threads / 32 - 1) {  // a sender: until the receiver says the round is over
        for (;;) {
          std::uint32_t from = 0, m = 0;  // the entries this sender claims
          if (lane == 0) {
            const std::uint32_t claimed = shared_read(&out_claimed), tail = shared_read(&out_tail);
            if (tail != claimed) {
              m = min(tail - claimed, 32u);
              if (atomicCAS(&out_claimed, claimed, claimed + m) == claimed)
                from = claimed;
              else
                m = 0;
            }
          }
          m = __shfl_sync(0xFFFFFFFFu, m, 0);
          from = __shfl_sync(0xFFFFFFFFu, from, 0);
          if (m == 0) {
            if (from_lane0([&] { return shared_read(&round_over); })) break;
            continue;
          }
          const long long t0 = clock64();
          if (lane < m) {
            const std::uint32_t at = (from + lane) % tuning::outbox;
            // reserved by a worker, written a moment later
            const offer_word offer = take_written(&outbox[at], s.stall_ns, s.ctl, stall_outbox, round);
            if (!is_free(offer))
              make_offer(s, begin, p, offer_entry::target(offer), offer_entry::template distance<Distance>(offer));
          }
          __syncwarp();
          if (lane == 0) {
            __threadfence();  // the offers are counted before the receiver may stop counting the block
            atomicAdd(&out_sent, m);
            atomicAdd(&cycles[2], static_cast<unsigned long long>(clock64() - t0));
          }
        }
      } else {  // the receiver
        bool at_work = true;  // this block is counted in outstanding[p]
        std::uint32_t left = 0;  // outstanding[p] at the last idle look (the watchdog's "nothing moved")
        stall_watch watch;      // lane 0's
        for (;;) {
          const std::uint32_t mail_end = from_lane0([&] { return volatile_load(&s.mailbox_tail[part]); });
          if (mail_end != mail_head) {
            const long long t0 = clock64();
            const std::uint32_t m = min(mail_end - mail_head, mailbox_slack);
            if (!at_work) {
              if (lane == 0) atomicAdd(&s.ctl->outstanding[p], 1u);  // at work again before the offers are taken
              at_work = true;
            }
            if (lane < m) {
              std::uint32_t* const entry = &s.mailbox[ring_at + (mail_head + lane) % ring];
              // counted by its sender, written a moment later
              const std::uint32_t queued = take_written(entry, s.stall_ns, s.ctl, stall_mail, round);
              if (queued) {
                const vertex_t v = queued - 1;
                own.improve(v - lo, take_offer(&s.offer[v]), is_near);
              }
            }
            __syncwarp();
            mail_head += m;
            if (lane == 0) {
              __threadfence_block();  // the improvements before "delivered"
              const std::uint32_t old = atomicAdd(&delivery, 2 * m);  // delivered; wakes idle workers
              if (old & 1u) atomicAnd(&delivery, ~1u);
              atomicSub(&s.ctl->outstanding[p], m);  // taken; the block is at work
              cycles[0] += static_cast<unsigned long long>(clock64() - t0);
            }
            continue;
          }
          // Idle when the workers are (they have taken every delivery: a delivery after they
          // went idle woke them) and the outbox is empty; the round is over when every block is.
          const bool quiet = from_lane0([&] {
            return (shared_read(&delivery) & 1u) != 0 && shared_read(&out_tail) == shared_read(&out_sent);
          });
          if (!quiet) continue;
          if (at_work) {
            __threadfence();  // the offers sent are counted before this block stops counting itself
            if (lane == 0) atomicSub(&s.ctl->outstanding[p], 1u);
            at_work = false;
          }
          // The round ends when no block is at work and no offer queued, or when the solve
          // stalled: this block's part is done (idle, outbox sent), the others' ends at their look.
          const bool over = from_lane0([&] {
            const std::uint32_t now = volatile_load(&s.ctl->outstanding[p]);
            if (now == 0) return true;
            if (now != left) {
              left = now;
              watch.restart();
              return false;
            }
            if (!watch.expired(round_stall_factor * s.stall_ns, &s.ctl->stalled)) return false;
            mark_stalled(s.ctl, stall_round, round);
            return true;
          });
          if (over) {
            if (lane == 0) {
              atomicExch(&round_over, 1u);
              __threadfence_block();
              atomicAnd(&delivery, ~1u);
            }
            break;
          }
        }
      }
    }
    __syncthreads();
    // The round's end: far bits at or below the bound are stale (their vertices were taken in the
    // near set this round); the lowest bucket of the rest is this block's vote for the next bound.
    std::uint32_t mine = no_bucket;
    for_far_words(far, words, [&](std::uint32_t w, std::uint32_t bits) {
      bool stale = false;
      if ((bits >> lane) & 1u) {
        const std::uint32_t b = s.bucket(own.load(w * 32 + lane));
        stale = b <= current;
        if (!stale) mine = min(mine, b);
      }
      const std::uint32_t drop = __ballot_sync(0xFFFFFFFFu, stale);
      if (lane == 0 && drop) far[w] = bits & ~drop;
    });
    mine = __reduce_min_sync(0xFFFFFFFFu, mine);
    if (lane == 0 && mine != no_bucket) atomicMin(&next_bucket, mine);
    if (tid == keeper) lap(3);
    __syncthreads();
    if (tid == 0) {
      if (next_bucket != no_bucket) atomicMin(&s.ctl->next_bucket[slot], next_bucket);
      atomicMax(&s.ctl->longest[slot], k);
    }
    grid.sync();
    // Both loads issued before either is used (the stall's look costs no round trip of its own).
    const std::uint32_t lowest = __ldcg(&s.ctl->next_bucket[slot]);
    const std::uint32_t stalled = __ldcg(&s.ctl->stalled);
    if (stalled) break;  // set before its block reached the barrier: every block sees it
    if (part == 0 && tid == 0) {
      s.ctl->rounds += 1;
      s.ctl->chain += __ldcg(&s.ctl->longest[slot]);
      if (lowest != no_bucket && lowest > current) s.ctl->buckets += 1;
    }
    if (tid == keeper) lap(4);
    if (lowest == no_bucket) break;
    if (lowest > current) current = lowest;
    // The next round's near set: far vertices now at or below the bound.
    const near_bound<Distance> now_near(s.bucket, current);
    for_far_words(far, words, [&](std::uint32_t w, std::uint32_t bits) {
      const bool go = ((bits >> lane) & 1u) && now_near(own.load(w * 32 + lane));
      const std::uint32_t move = __ballot_sync(0xFFFFFFFFu, go);
      if (lane == 0 && move) {
        far[w] = bits & ~move;
        near[w] |= move;
      }
    });
  }
  own.publish();  // the exact distances (the senders' copy may lag)
  unsigned long long mine_arcs = my_arcs;
  for (std::uint32_t o = 16; o > 0; o >>= 1) mine_arcs += __shfl_down_sync(0xFFFFFFFFu, mine_arcs, o);
  if (lane == 0 && mine_arcs) atomicAdd(&relaxed, mine_arcs);
  __syncthreads();
  if (tid == 0) {
    for (int i = 0; i < 5; ++i) atomicAdd(&s.ctl->cycles[i], cycles[i]);
    atomicAdd(&s.ctl->edges, relaxed);
    atomicAdd(&s.ctl->vertices, processed);
    atomicMax(&s.ctl->max_frontier, static_cast<std::uint32_t>(largest));
    atomicAdd(&s.ctl->iterations, iterations);
    atomicAdd(&s.ctl->fixpoints, fixpoints);

  }
}

template <class Distance>
__global__ void to_caller_ids(const Distance* dist, const vertex_t* old_of_new, vertex_t n, Distance* out) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) out[old_of_new[v]] = dist[v];
}

// The first k of 0..count - 1 for which below(k) is false, where below is true then false along
// them (a binary search of a sorted list).
template <class Below>
__device__ std::uint32_t first_not_below(std::uint32_t count, Below below) {
  std::uint32_t first = 0;
  while (count > 0) {
    const std::uint32_t half = count / 2;
    if (below(first + half)) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return first;
}

// The regions' copy of the graph is derived on the device from the engine's (device_csr: one upload
// per graph; the host sends the regions' order and their row offsets, never arcs), in two passes.
// The new id of each caller's id (a scatter of old_of_new),
__global__ void invert_order(const vertex_t* old_of_new, vertex_t n, vertex_t* new_of_old) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (vertex_t x = blockIdx.x * blockDim.x + threadIdx.x; x < n; x += stride) new_of_old[old_of_new[x]] = x;
}

// then each new row, a warp a row: the caller's row of the same vertex in its order (by weight),
// its targets renamed, its weights also in 16 or 32 bits where every weight fits (weights16,
// weights32, else null) or as their places in a weight table (index: table's entries sorted by bit
// pattern, every weight among them; else null).
template <class Weight>
__global__ void reorder_rows(const edge_t* offsets, const vertex_t* targets, const Weight* weights,
                             const vertex_t* old_of_new, const vertex_t* new_of_old, const edge_t* new_offsets,
                             vertex_t n, vertex_t* new_targets, Weight* new_weights, std::uint16_t* weights16,
                             std::uint32_t* weights32, const Weight* table, std::uint32_t table_size,
                             std::uint16_t* index) {
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * blockDim.x / 32;
  for (std::uint64_t x = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32; x < n; x += warps) {
    const vertex_t u = old_of_new[x];
    const edge_t from = offsets[u], to = new_offsets[x], length = offsets[u + 1] - from;
    for (edge_t i = lane; i < length; i += 32) {
      const Weight w = weights[from + i];
      new_targets[to + i] = new_of_old[targets[from + i]];
      new_weights[to + i] = w;
      if (weights16) weights16[to + i] = static_cast<std::uint16_t>(w);
      if (weights32) weights32[to + i] = static_cast<std::uint32_t>(w);
      if (index)  // w's own entry
        index[to + i] = static_cast<std::uint16_t>(
            first_not_below(table_size, [&](std::uint32_t k) { return distance_bits(table[k]) < distance_bits(w); }));
    }
  }
}

// and, for narrow rows, each arc's 16-bit target (partition_shared_words), a block a region: its
// own vertices' offset from the region's first, else the region's vertex count plus the target's
// place in the region's sorted cuts.
__global__ void narrow_targets(const vertex_t* begin, const edge_t* offsets, const vertex_t* targets,
                               const vertex_t* cut_targets, const std::uint32_t* cut_begin, std::uint16_t* targets16) {
  const std::uint32_t b = blockIdx.x;
  const vertex_t lo = begin[b], owned = begin[b + 1] - lo;
  const vertex_t* const cut = cut_targets + cut_begin[b];
  const std::uint32_t cuts = cut_begin[b + 1] - cut_begin[b];
  for (edge_t a = offsets[lo] + threadIdx.x; a < offsets[lo + owned]; a += blockDim.x) {
    const vertex_t t = targets[a];
    std::uint32_t k = t - lo;
    if (k >= owned)  // t is one of the cuts
      k = owned + first_not_below(cuts, [&](std::uint32_t c) { return cut[c] < t; });
    targets16[a] = static_cast<std::uint16_t>(k);
  }
}

// A kernel's dynamic shared-memory allowance (cudaFuncAttributeMaxDynamicSharedMemorySize) belongs to
// the function on the current device, not to an engine, and every engine of the process with the
// same kernel shape shares it: a graph of smaller regions, set up after one of larger regions,
// lowered it below what the other launches with ("too many blocks in cooperative launch"). So the
// allowance is set again for each launch, and the setting and the launch (or the occupancy query
// that reads it) hold one lock, so that engines on other threads do not interleave.
std::mutex& allowance_lock() {
  static std::mutex lock;
  return lock;
}

// The distinct values of a graph's 64-bit weights (Weight: uint64, or double of real weights,
// widened where they are float), sorted by bit pattern, when there are at most `most` of them;
// else none. One pass over the arcs with a set of bit patterns, left at the first value past `most`.
template <class Weight>
std::vector<Weight> few_distinct_weights(const csr_view& g, std::uint32_t most) {
  static_assert(sizeof(Weight) == sizeof(std::uint64_t));
  int shift = 64;  // the set's slots: the smallest power of two of at least 4 * most
  while ((std::uint64_t{1} << (64 - shift)) < 4 * std::uint64_t{most}) --shift;
  const std::uint64_t mask = (std::uint64_t{1} << (64 - shift)) - 1;
  std::vector<std::uint64_t> slot(mask + 1);
  std::vector<std::uint8_t> used(mask + 1, 0);
  std::vector<std::uint64_t> found;
  const auto add = [&](Weight w) {
    std::uint64_t bits;
    std::memcpy(&bits, &w, sizeof bits);
    std::uint64_t i = (bits * 0x9E3779B97F4A7C15ull) >> shift;  // Fibonacci hashing
    while (used[i] && slot[i] != bits) i = (i + 1) & mask;
    if (used[i]) return true;
    if (found.size() == most) return false;
    used[i] = 1, slot[i] = bits;
    found.push_back(bits);
    return true;
  };
  bool few = true;
  if constexpr (std::is_integral_v<Weight>) {
    for (std::size_t a = 0; few && a < g.uint64_weights.size(); ++a) few = add(g.uint64_weights[a]);
  } else {
    for (std::size_t a = 0; few && a < g.float64_weights.size(); ++a) few = add(g.float64_weights[a]);
    for (std::size_t a = 0; few && a < g.real_weights.size(); ++a) few = add(static_cast<Weight>(g.real_weights[a]));
  }
  if (!few) return {};
  std::sort(found.begin(), found.end());
  std::vector<Weight> table(found.size());
  std::memcpy(table.data(), found.data(), found.size() * sizeof(Weight));
  return table;
}

template <class Distance>
class partitioned_engine final : public partitioned_driver<Distance> {
  using weight = typename distance_ops<Distance>::weight;

 public:
  // A graph whose regions do not all keep on chip what `required` names is left unbuilt after the
  // regions are cut (declined(): nothing allocated, nothing uploaded).
  partitioned_engine(const csr_view& g, const device_csr<Distance>& graph, const driver_context& ctx,
                     region_layout required)
      : n_(g.num_vertices), ctx_(ctx), arcs_(g.num_arcs()) {
    int device = 0;
    DS_CUDA(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    DS_CUDA(cudaGetDeviceProperties(&prop, device));
    sms_ = static_cast<std::uint32_t>(prop.multiProcessorCount);
    DS_CUDA(cudaDeviceGetAttribute(&clock_khz_, cudaDevAttrClockRate, device));
    parts_ = static_cast<std::uint32_t>(tuning::regions(n_, sms_));
    const owner_regions regions = grow_owner_regions(g, parts_, tuning::region_vertex_bytes, tuning::region_arc_bytes);
    std::uint32_t largest = 0;
    edge_t most_arcs = 0;
    std::vector<std::pair<std::uint32_t, edge_t>> sizes(parts_);  // vertices and arcs of each region
    for (std::uint32_t b = 0; b < parts_; ++b) {
      edge_t arcs = 0;
      for (vertex_t x = regions.begin[b]; x < regions.begin[b + 1]; ++x) arcs += g.degree(regions.old_of_new[x]);
      sizes[b] = {regions.begin[b + 1] - regions.begin[b], arcs};
      largest = std::max(largest, sizes[b].first);
      most_arcs = std::max(most_arcs, arcs);
    }
    words_ = (largest + 31) / 32;
    // Integer weights are kept in the narrowest of 16, 32 and their own bits that holds them all.
    // (The host graph's own weights: 32-bit ones, which 64-bit distances also solve, or 64-bit.)
    weight_bytes_ = sizeof(weight);
    if constexpr (std::is_integral_v<weight>) {
      std::uint64_t most = 0;
      for (std::uint32_t w : g.int_weights) most = std::max<std::uint64_t>(most, w);
      for (std::uint64_t w : g.uint64_weights) most = std::max(most, w);
      weight_bytes_ = most <= 0xFFFFu ? 2 : most <= 0xFFFFFFFFu || sizeof(weight) == 4 ? 4 : 8;
    }
    // The most a block can keep on chip: distances and arcs with all their weights; else
    // distances, arcs and the weights of as many arcs as fit in the budget (a region's first
    // ones; the rest read from global memory); else distances; else neither. The rows are 32-bit
    // where those keep every weight on chip, else narrow (16-bit, partition_shared_words) where
    // every region can take them and they keep more weights on chip: narrow rows cost each arc
    // into another region a second shared-memory read.
    constexpr std::uint32_t distance_words = sizeof(Distance) / 4;
    const std::size_t budget = shared_budget_here();
    std::vector<std::uint32_t> cuts(parts_, 0);  // each region's distinct targets in other regions
    // A weight's bytes on chip: with a weight table of `table` entries its 16-bit place, else itself.
    const auto bytes_on_chip = [&](std::uint32_t table) { return table ? 2u : weight_bytes_; };
    const auto words_of = [&](std::uint32_t b, bool dist, bool arcs, bool weights, bool narrow, std::uint32_t table) {
      return partition_shared_words(words_, parts_, sizes[b].first,
                                    static_cast<std::uint32_t>(std::min<edge_t>(sizes[b].second, 0xFFFFFFFFu)), dist,
                                    arcs, weights, bytes_on_chip(table), distance_words, narrow, cuts[b],
                                    weight_table_words(table));
    };
    struct layout {
      bool dist = false, arcs = false, all_weights = false;
      std::size_t bytes = 0;
      std::vector<std::uint32_t> on_chip;  // per region: its first arcs whose weights it keeps on chip
      edge_t on_chip_total = 0;
    };
    const auto plan = [&](bool narrow, std::uint32_t table) {
      const auto bytes = [&](bool dist, bool arcs, bool weights) {
        std::size_t most = 0;
        for (std::uint32_t b = 0; b < parts_; ++b)
          most = std::max(most, 4 * words_of(b, dist, arcs, weights, narrow, table));
        return most;
      };
      layout l;
      l.dist = bytes(true, false, false) <= budget;
      l.arcs = most_arcs < 0xFFFFFFFFu && bytes(true, true, false) <= budget;
      l.all_weights = l.arcs && bytes(true, true, true) <= budget;
      l.bytes = l.arcs && !l.all_weights ? budget : bytes(l.dist, l.arcs, true);
      l.on_chip.assign(parts_, 0);
      if (l.arcs)
        for (std::uint32_t b = 0; b < parts_; ++b) {
          const auto arcs = static_cast<std::uint32_t>(sizes[b].second);
          const std::size_t room = budget / 4 - words_of(b, true, true, false, narrow, table);
          const std::size_t table_words = weight_table_words(table);
          l.on_chip[b] = l.all_weights        ? arcs
                         : room > table_words ? weights_that_fit(room - table_words, arcs, bytes_on_chip(table))
                                              : 0;
          l.on_chip_total += l.on_chip[b];
        }
      return l;
    };
    layout chosen = plan(false, 0);
    // One pass over the arcs: those between regions (they choose the senders, below) and, where
    // narrow rows may take the place of 32-bit ones, each region's cuts: its distinct targets in
    // other regions, sorted (new ids; each arc's 16-bit target is found on the device,
    // narrow_targets), until a region's narrow rows do not fit (then none are used).
    edge_t cut = 0;
    std::vector<vertex_t> cut_targets;
    std::vector<std::uint32_t> cut_begin(parts_ + 1, 0);
    bool fit = !chosen.all_weights && most_arcs <= 0xFFFFu;
    for (std::uint32_t b = 0; b < parts_; ++b) {
      const vertex_t lo = regions.begin[b], owned = regions.begin[b + 1] - lo;
      const std::size_t first = cut_targets.size();
      for (vertex_t x = lo; x < regions.begin[b + 1]; ++x) {
        const vertex_t u = regions.old_of_new[x];
        for (edge_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
          const vertex_t t = regions.new_of_old[g.targets[a]];
          if (t - lo < owned) continue;
          ++cut;
          if (fit) cut_targets.push_back(t);
        }
      }
      if (!fit) continue;
      std::sort(cut_targets.begin() + first, cut_targets.end());
      cut_targets.erase(std::unique(cut_targets.begin() + first, cut_targets.end()), cut_targets.end());
      cuts[b] = static_cast<std::uint32_t>(cut_targets.size() - first);
      cut_begin[b + 1] = static_cast<std::uint32_t>(cut_targets.size());
      fit = fit && narrow_rows_fit(owned, sizes[b].second, cuts[b]);
    }
    if (fit) {
      layout narrow = plan(true, 0);
      if (narrow.arcs && (!chosen.arcs || narrow.on_chip_total > chosen.on_chip_total)) {
        chosen = std::move(narrow);
        narrow_ = true;
      }
    }
    // 64-bit weights that do not all fit in their own width, of at most weight_table_entries
    // distinct values: the table with the rows that keep the most weights on chip (32-bit rows
    // where those keep them all).
    std::vector<weight> table;
    if constexpr (sizeof(weight) == 8) {
      if (weight_bytes_ == 8 && chosen.arcs && !chosen.all_weights)
        table = few_distinct_weights<weight>(g, tuning::weight_table_entries);
      if (!table.empty()) {
        const auto entries = static_cast<std::uint32_t>(table.size());
        layout wide_rows = plan(false, entries);
        layout best = plan(fit, entries);
        bool narrow = fit;
        if (wide_rows.all_weights || !best.arcs) best = std::move(wide_rows), narrow = false;
        if (best.arcs && best.on_chip_total > chosen.on_chip_total) {
          chosen = std::move(best);
          narrow_ = narrow;
          table_size_ = entries;
        } else {
          table = {};
        }
      }
    }
    if (!narrow_) cut_targets = {};
    shared_dist_ = chosen.dist;
    shared_arcs_ = chosen.arcs;
    all_weights_ = chosen.all_weights;
    shared_bytes_ = chosen.bytes;
    weights_on_chip_total_ = chosen.on_chip_total;
    const std::vector<std::uint32_t>& on_chip = chosen.on_chip;
    if (!keeps(required)) return;  // declined: no kernel chosen, nothing uploaded
    // The new rows' offsets, from the host graph.
    const edge_t m = g.num_arcs();
    std::vector<edge_t> offsets(std::uint64_t{n_} + 1, 0);
    for (vertex_t x = 0; x < n_; ++x) offsets[x + 1] = offsets[x] + g.degree(regions.old_of_new[x]);
    // (A graph without arcs sends nothing: two.)
    sender_warps_ = m > 0 && static_cast<double>(cut) >= tuning::dense_cut * static_cast<double>(m)
                        ? tuning::dense_sender_warps
                        : tuning::sender_warps;
    const auto pick = [&](auto senders) -> void (*)(partitioned_view<Distance>, vertex_t) {
      constexpr unsigned S = decltype(senders)::value;
      if constexpr (sizeof(weight) == 8) {  // a table only with the arcs on chip
        if (table_size_)
          return narrow_ ? partitioned_solve<Distance, true, true, true, S, true>
                         : partitioned_solve<Distance, true, true, false, S, true>;
      }
      return shared_arcs_ && narrow_ ? partitioned_solve<Distance, true, true, true, S, false>
             : shared_arcs_          ? partitioned_solve<Distance, true, true, false, S, false>
             : shared_dist_          ? partitioned_solve<Distance, true, false, false, S, false>
                                     : partitioned_solve<Distance, false, false, false, S, false>;
    };
    kernel_ = sender_warps_ == tuning::dense_sender_warps
                  ? pick(std::integral_constant<unsigned, tuning::dense_sender_warps>{})
                  : pick(std::integral_constant<unsigned, tuning::sender_warps>{});
    if constexpr (sizeof(Distance) == 8) {
      if (!compiled_for_sm90(kernel_))  // the outbox's 16-byte entries take sm_90's 128-bit atomics
        throw std::runtime_error("the partitioned driver's 64-bit distances need code for sm_90 or later");
    }
    int per_sm = 0;
    {
      std::lock_guard<std::mutex> hold(allowance_lock());
      DS_CUDA(cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes_)));
      DS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_, tuning::threads, shared_bytes_));
    }
    if (static_cast<std::uint64_t>(per_sm) * sms_ < parts_)
      throw std::runtime_error("the partitioned driver cannot keep its " + std::to_string(parts_) +
                               " blocks resident on this GPU (" + std::to_string(per_sm) + " per SM)");
    offsets_ = device_array<edge_t>(std::uint64_t{n_} + 1, "the reordered CSR offsets");
    targets_ = device_array<vertex_t>(std::max<edge_t>(m, 1), "the reordered CSR targets");
    weights_ = device_array<weight>(std::max<edge_t>(m, 1), "the reordered arc weights");
    if (weight_bytes_ == 2 && m) weights16_ = device_array<std::uint16_t>(m, "the 16-bit arc weights");
    if (weight_bytes_ == 4 && sizeof(weight) == 8 && m) weights32_ = device_array<std::uint32_t>(m, "the 32-bit arc weights");
    if (table_size_) {
      weight_table_ = device_array<weight>(table_size_, "the weight table");
      weight_index_ = device_array<std::uint16_t>(m, "the arcs' places in the weight table");
    }
    begin_ = device_array<vertex_t>(parts_ + 1, "the owner regions");
    weights_on_chip_ = device_array<std::uint32_t>(parts_, "the regions' weights on chip");
    if (narrow_) {
      targets16_ = device_array<std::uint16_t>(std::max<edge_t>(m, 1), "the 16-bit arc targets");
      cut_targets_ = device_array<vertex_t>(std::max<std::size_t>(cut_targets.size(), 1), "the regions' cut targets");
      cut_begin_ = device_array<std::uint32_t>(parts_ + 1, "the regions' cut lists");
    }
    old_of_new_ = device_array<vertex_t>(n_, "the caller ids of the regions' vertices");
    dist_ = device_array<Distance>(n_, "the regions' distances");
    offer_ = device_array<Distance>(n_, "the offers");
    mailbox_ = device_array<vertex_t>(std::uint64_t{n_} + std::uint64_t{mailbox_slack} * parts_, "the mailboxes");
    mailbox_tail_ = device_array<std::uint32_t>(parts_, "the mailbox tails");
    ctl_ = device_array<partitioned_control>(1, "the partitioned driver's control");
    const cudaStream_t stream = ctx.stream;
    DS_CUDA(cudaMemcpyAsync(begin_.get(), regions.begin.data(), (parts_ + 1) * sizeof(vertex_t), cudaMemcpyHostToDevice,
                            stream));
    DS_CUDA(cudaMemcpyAsync(weights_on_chip_.get(), on_chip.data(), parts_ * sizeof(std::uint32_t),
                            cudaMemcpyHostToDevice, stream));
    DS_CUDA(cudaMemcpyAsync(old_of_new_.get(), regions.old_of_new.data(), n_ * sizeof(vertex_t),
                            cudaMemcpyHostToDevice, stream));
    if (table_size_)
      DS_CUDA(cudaMemcpyAsync(weight_table_.get(), table.data(), table_size_ * sizeof(weight), cudaMemcpyHostToDevice,
                              stream));
    if (narrow_) {
      DS_CUDA(cudaMemcpyAsync(cut_targets_.get(), cut_targets.data(), cut_targets.size() * sizeof(vertex_t),
                              cudaMemcpyHostToDevice, stream));
      DS_CUDA(cudaMemcpyAsync(cut_begin_.get(), cut_begin.data(), cut_begin.size() * sizeof(std::uint32_t),
                              cudaMemcpyHostToDevice, stream));
    }
    DS_CUDA(cudaMemcpyAsync(offsets_.get(), offsets.data(), offsets.size() * sizeof(edge_t), cudaMemcpyHostToDevice,
                            stream));
    reorder_graph(graph, stream);
    DS_CUDA(cudaStreamSynchronize(stream));  // the host regions and offsets go out of scope
    new_of_old_ = regions.new_of_old;
  }

  partitioned_outcome solve(vertex_t source, bucket_of_distance<Distance> bucket, Distance* dist, cudaStream_t stream,
                            cudaEvent_t start, cudaEvent_t stop) override {
    partitioned_view<Distance> s{};
    s.offsets = offsets_.get();
    s.targets = targets_.get();
    s.weights = weights_.get();
    s.weights16 = weights16_.get();
    s.weights32 = weights32_.get();
    s.weight_table = weight_table_.get();
    s.weight_index = weight_index_.get();
    s.table_size = table_size_;
    s.begin = begin_.get();
    s.weights_on_chip = weights_on_chip_.get();
    s.targets16 = targets16_.get();
    s.cut_targets = cut_targets_.get();
    s.cut_begin = cut_begin_.get();
    s.dist = dist_.get();
    s.offer = offer_.get();
    s.mailbox = mailbox_.get();
    s.mailbox_tail = mailbox_tail_.get();
    s.ctl = ctl_.get();
    s.parts = parts_;
    s.words = words_;
    s.bucket = bucket;
    s.stall_ns = static_cast<std::uint64_t>(std::max(0.0, watchdog_.stall_limit_ms) * 1e6);
    vertex_t from = new_of_old_[source];
    const unsigned spread = std::max(1u, std::min(sms_ * 4, (n_ + 255) / 256));
    DS_CUDA(cudaEventRecord(start, stream));
    reset_partitioned<<<spread, 256, 0, stream>>>(s, n_, from, watchdog_.fault);
    DS_CUDA_LAUNCH("reset_partitioned");
    void* args[] = {&s, &from};
    {
      std::lock_guard<std::mutex> hold(allowance_lock());
      DS_CUDA(cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes_)));
      DS_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel_), dim3(parts_), dim3(tuning::threads),
                                          args, shared_bytes_, stream));
    }
    to_caller_ids<<<spread, 256, 0, stream>>>(dist_.get(), old_of_new_.get(), n_, dist);
    DS_CUDA_LAUNCH("to_caller_ids");
    DS_CUDA(cudaEventRecord(stop, stream));
    partitioned_control c{};
    DS_CUDA(cudaMemcpyAsync(&c, ctl_.get(), sizeof c, cudaMemcpyDeviceToHost, stream));
    DS_CUDA(cudaStreamSynchronize(stream));
    if (c.stalled != stall_none) throw std::runtime_error(stall_message(c));
    float ms = 0;
    DS_CUDA(cudaEventElapsedTime(&ms, start, stop));
    partitioned_outcome out;
    out.milliseconds = ms;
    out.rounds = c.rounds;
    out.buckets = c.buckets + 1;
    out.chain = c.chain;
    out.edges_relaxed = c.edges;
    out.vertices_processed = c.vertices;
    out.max_frontier = c.max_frontier;
    out.overflowed = c.overflowed != 0;
    const double per_block_ms = 1.0 / (static_cast<double>(clock_khz_) * parts_);
    for (int i = 0; i < 5; ++i) out.phase_ms[i] = static_cast<double>(c.cycles[i]) * per_block_ms;
    out.iterations_per_block = static_cast<double>(c.iterations) / parts_;
    out.fixpoints_per_block = static_cast<double>(c.fixpoints) / parts_;
    return out;
  }

  // The driver's multiple of the automatic width (partition_tuning::delta_scale).
  double auto_delta_scale() const override { return tuning::delta_scale(n_, sms_); }

  // One solve for the engine: the figures of statistics, and the driver's profile in its description.
  driver_outcome solve(const solve_request<Distance>& request) override {
    const partitioned_outcome p =
        solve(request.source, request.bucket, request.dist, ctx_.stream, ctx_.start, ctx_.stop);
    driver_outcome o;
    o.milliseconds = p.milliseconds;
    o.overflowed = p.overflowed;
    o.iterations = p.chain;  // the most local iterations one block ran in a round, summed over rounds
    o.edges_relaxed = p.edges_relaxed;
    o.vertices_processed = p.vertices_processed;
    o.max_queue = p.max_frontier;
    o.description = describe() + "; " + std::to_string(p.rounds) + " rounds, " + std::to_string(p.buckets) +
                    " buckets; a block's ms (mean): mail " + decimal(p.phase_ms[0]) + ", local " +
                    decimal(p.phase_ms[1]) + " (" + decimal(p.iterations_per_block) + " iterations, " +
                    decimal(p.fixpoints_per_block) + " fixpoints), sending " + decimal(p.phase_ms[2]) + ", idle " +
                    decimal(p.phase_ms[3]) + ", grid barriers " + decimal(p.phase_ms[4]);
    return o;
  }

  void set_watchdog(const partitioned_watchdog& w) override { watchdog_ = w; }
  bool keeps(region_layout need) const override {
    switch (need) {
      case region_layout::on_chip: return shared_dist_ && all_weights_;
      case region_layout::distances_on_chip: return shared_dist_;
      case region_layout::anywhere: break;
    }
    return true;
  }
  bool declined() const { return kernel_ == nullptr; }

  // The reordered CSR from the engine's device copy (invert_order, reorder_rows), on the stream;
  // old_of_new_ and offsets_ are on their way to the device already.
  void reorder_graph(const device_csr<Distance>& graph, cudaStream_t stream) {
    const unsigned spread = std::max(1u, std::min(sms_ * 4, (n_ + 255) / 256));
    device_array<vertex_t> new_of_old(n_, "the regions' ids of the caller's vertices");
    invert_order<<<spread, 256, 0, stream>>>(old_of_new_.get(), n_, new_of_old.get());
    DS_CUDA_LAUNCH("invert_order");
    if (graph.num_arcs() > 0) {
      const unsigned rows = std::max(1u, std::min(sms_ * 8, (n_ + 7) / 8));  // 256 threads: 8 rows a block
      reorder_rows<<<rows, 256, 0, stream>>>(graph.offsets(), graph.targets(), graph.weights(), old_of_new_.get(),
                                             new_of_old.get(), offsets_.get(), n_, targets_.get(), weights_.get(),
                                             weights16_.get(), weights32_.get(), weight_table_.get(), table_size_,
                                             weight_index_.get());
      DS_CUDA_LAUNCH("reorder_rows");
      if (narrow_) {
        narrow_targets<<<parts_, 256, 0, stream>>>(begin_.get(), offsets_.get(), targets_.get(), cut_targets_.get(),
                                                   cut_begin_.get(), targets16_.get());
        DS_CUDA_LAUNCH("narrow_targets");
      }
    }
    DS_CUDA(cudaStreamSynchronize(stream));  // new_of_old goes out of scope
  }

  std::string describe() const override {
    return "partitioned: " + std::to_string(parts_) + " blocks of " + std::to_string(tuning::threads) + " threads (" +
           std::to_string(sender_warps_) + " sender warps) on " + std::to_string(sms_) +
           " SMs, distances in " + (shared_dist_ ? "shared" : "global") + " memory, arcs in " +
           (shared_arcs_ ? "shared" : "global") + " memory" + weights_where();
  }

 private:
  std::string stall_message(const partitioned_control& c) const {
    const char* wait = c.stalled == stall_mail    ? "a region's receiver waited on a mailbox entry that its sender "
                                                    "counted and never wrote"
                       : c.stalled == stall_round ? "the round's count of outstanding work stayed above zero "
                                                    "with nothing moving"
                                                  : "a sender waited on an outbox entry that a worker reserved and "
                                                    "never wrote";
    const double limit = watchdog_.stall_limit_ms * (c.stalled == stall_round ? round_stall_factor : 1);
    return "the partitioned driver stalled in round " + std::to_string(c.stalled_round) + ": " + wait +
           " for over " + std::to_string(static_cast<long long>(limit)) +
           " ms (a message between regions was lost: a bug in deltasplit; please report the graph, the source "
           "and the options). No distances were returned.";
  }

  // With the arcs on chip: narrow rows where they are, their weights' width there (or their
  // table's) and, where only some fit, how many.
  std::string weights_where() const {
    if (!shared_arcs_) return "";
    const std::string rows = narrow_ ? "16-bit row offsets and targets; " : "";
    const std::string bits = std::to_string(8 * weight_bytes_) + "-bit weights";
    const std::string table =
        table_size_ ? ", as 16-bit places in a table of their " + std::to_string(table_size_) + " values" : "";
    if (all_weights_) return " (" + rows + bits + table + ")";
    return " (" + rows + "the " + bits + " of " + std::to_string(weights_on_chip_total_) + " of " +
           std::to_string(arcs_) + " arcs" + table + "; the rest in global memory)";
  }

  // A figure of the profile, to three significant digits.
  static std::string decimal(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", x);
    return text;
  }

  vertex_t n_;
  driver_context ctx_;
  partitioned_watchdog watchdog_;
  std::uint32_t sms_ = 0, parts_ = 0, words_ = 0, sender_warps_ = tuning::sender_warps;
  int clock_khz_ = 1;
  bool shared_dist_ = false, shared_arcs_ = false, all_weights_ = false;
  bool narrow_ = false;  // the arcs on chip in narrow rows (partition_shared_words)
  std::uint32_t weight_bytes_ = 4;  // of the weights' narrowest copy (2, 4 or 8)
  std::uint32_t table_size_ = 0;    // entries of the weight table, or 0 (partitioned_view::weight_table)
  edge_t arcs_ = 0, weights_on_chip_total_ = 0;  // the graph's arcs; those whose weights are on chip
  std::size_t shared_bytes_ = 0;
  void (*kernel_)(partitioned_view<Distance>, vertex_t) = nullptr;
  device_array<edge_t> offsets_;
  device_array<vertex_t> targets_;
  device_array<weight> weights_;
  device_array<std::uint16_t> weights16_;
  device_array<std::uint32_t> weights32_;
  device_array<weight> weight_table_;
  device_array<std::uint16_t> weight_index_;
  device_array<vertex_t> begin_, old_of_new_;
  device_array<std::uint32_t> weights_on_chip_;
  device_array<std::uint16_t> targets16_;  // narrow rows only (the view's)
  device_array<vertex_t> cut_targets_;
  device_array<std::uint32_t> cut_begin_;
  device_array<Distance> dist_, offer_;
  device_array<vertex_t> mailbox_;
  device_array<std::uint32_t> mailbox_tail_;
  device_array<partitioned_control> ctl_;
  std::vector<vertex_t> new_of_old_;
};

bool partition_may_fit_on_chip(vertex_t n, edge_t m, unsigned sms, std::uint32_t distance_words, region_layout need) {
  // The mean region in the layout the engine checks (partition_shared_words), with 16-bit weights
  // (the narrowest any distance type has) and in narrow rows without cuts where it can take them
  // (the least either layout takes): the largest region is at least the mean, and its weights
  // and rows at least that wide, so a graph that fails this cannot keep every region on chip.
  if (need == region_layout::anywhere) return true;
  const std::uint64_t parts = tuning::regions(n, sms);
  if (sms == 0 || n == 0) return false;
  const std::uint64_t vertices = (std::uint64_t{n} + parts - 1) / parts, arcs = (m + parts - 1) / parts;
  if (arcs >= 0xFFFFFFFFu) return false;
  const std::size_t words = partition_shared_words(static_cast<std::uint32_t>((vertices + 31) / 32), static_cast<std::uint32_t>(parts),
                                                   static_cast<std::uint32_t>(vertices), static_cast<std::uint32_t>(arcs), true,
                                                   need == region_layout::on_chip, true, 2, distance_words,
                                                   narrow_rows_fit(vertices, arcs, 0));
  return 4 * words <= shared_budget_here();
}

template <class Distance>
std::unique_ptr<partitioned_driver<Distance>> make_partitioned_driver(
    const csr_view& g, const device_csr<Distance>& graph, const driver_context& ctx, region_layout required) {
  auto engine = std::make_unique<partitioned_engine<Distance>>(g, graph, ctx, required);
  if (engine->declined()) return nullptr;
  return engine;
}

template std::unique_ptr<partitioned_driver<std::uint32_t>> make_partitioned_driver<std::uint32_t>(
    const csr_view&, const device_csr<std::uint32_t>&, const driver_context&, region_layout);
template std::unique_ptr<partitioned_driver<float>> make_partitioned_driver<float>(const csr_view&,
                                                                                   const device_csr<float>&,
                                                                                   const driver_context&, region_layout);
template std::unique_ptr<partitioned_driver<double>> make_partitioned_driver<double>(const csr_view&,
                                                                                     const device_csr<double>&,
                                                                                     const driver_context&, region_layout);
template std::unique_ptr<partitioned_driver<std::uint64_t>> make_partitioned_driver<std::uint64_t>(
    const csr_view&, const device_csr<std::uint64_t>&, const driver_context&, region_layout);

}  // namespace deltasplit::sssp::gpu
