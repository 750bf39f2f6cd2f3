// The hierarchy's bidirectional query on the GPU, one warp a pair (included by phast.cu only), and
// by its steps 1-3 over the up arcs alone the upward searches of PHAST's batches (batch_upward).
//
// A pair (s, t) is answered as the host's query answers it (pair_distances,
// contraction_hierarchy.hpp): the distance is the least d_up(s, x) + d_down(x, t) over the
// positions x that the upward search from s and the backward search from t both reach. The host
// runs two Dijkstras that meet; a warp has no cheap heap, so it computes the same minimum by the
// hierarchy's levels instead:
//   1. the closure of s over the up arcs and of t over the down in-arcs, breadth first (which
//      positions, no distances yet), into a hash table in the warp's shared memory;
//   2. the closure's positions sorted by level, deepest first: every up arc and every down in-arc
//      leads to a strictly higher level (contraction_hierarchy.hpp), so this order is a topological
//      order of both searches' arcs;
//   3. the arcs relaxed in that order, one level group at a time (a warp barrier between groups):
//      each position's two distances are final when its group comes, so one pass gives the exact
//      upward and backward distances over the closures, the minima of what the Dijkstras settle;
//   4. the minimum over the positions both reach.
// Road hierarchies keep these closures to a few hundred positions (bench/results/phast.md, "Pairs
// on the GPU"), so a pair costs shared-memory operations and reads of its closures' arcs, and no
// global write but its answer.
//
// Sums that do not fit (integer sums past 2^32 - 2 or 2^64 - 2, real ones that round to +inf) are
// dropped, as the sweep drops them; they decide nothing unless the pair's distance itself does not
// fit, so a pair with a dropped sum and no meeting that fits is handed back, as is a pair whose closures
// pass the warp's capacity. The host answers those (and reports an overflow as every solver does).
// Hierarchies with a core are not queried here (the core's arcs go both ways: no level order).
#pragma once

#include <cstdint>

#include "deltasplit/csr_view.hpp"
#include "sssp/gpu/distance.cuh"

namespace deltasplit::sssp::gpu {

// One direction of the hierarchy's arcs by sweep position (device pointers): the arcs of position
// p are offsets[p] .. offsets[p + 1], with their other ends (positions) and weights. The up arcs
// lead to their heads; the down in-arcs (the sweep's) come from their tails.
template <class Distance>
struct hierarchy_arcs {
  using weight = typename distance_ops<Distance>::weight;
  const edge_t* offsets;
  const vertex_t* ends;
  const weight* weights;
};

// The hierarchy's arrays a pair query reads (sssp/contraction_hierarchy.hpp).
template <class Distance>
struct pair_hierarchy {
  hierarchy_arcs<Distance> up, down;
  const vertex_t* level_offsets;
  std::uint32_t levels;
  const vertex_t* position_of;
};

inline constexpr std::uint32_t pair_warps_per_block = 2;
inline constexpr std::uint32_t pair_empty_key = 0xFFFFFFFFu;
inline constexpr std::uint32_t pair_full = 0xFFFFFFFEu;  // the hash table had no free slot

// Shared-memory bytes a warp takes at a capacity of `capacity` positions: a hash table of twice
// as many slots (key, distance from s, distance to t) and two lists of `capacity` words.
template <class Distance>
constexpr std::size_t pair_warp_bytes(std::uint32_t capacity) {
  return std::size_t{capacity} * (2 * 4 + 2 * 2 * sizeof(Distance) + 2 * 4);
}

// The slot of position p, inserting it; `inserted` says whether it was new. pair_full when the
// table has no room.
__device__ inline std::uint32_t pair_slot_insert(std::uint32_t* keys, vertex_t p, std::uint32_t shift,
                                                 std::uint32_t mask, bool& inserted) {
  std::uint32_t s = (p * 2654435761u) >> shift;
  for (std::uint32_t probe = 0; probe <= mask; ++probe, s = (s + 1) & mask) {
    const std::uint32_t old = atomicCAS(&keys[s], pair_empty_key, p);
    if (old == pair_empty_key || old == p) {
      inserted = old == pair_empty_key;
      return s;
    }
  }
  inserted = false;
  return pair_full;
}

// The slot of a position known to be in the table (no insertions run meanwhile).
__device__ inline std::uint32_t pair_slot_find(const std::uint32_t* keys, vertex_t p, std::uint32_t shift,
                                               std::uint32_t mask) {
  std::uint32_t s = (p * 2654435761u) >> shift;
  while (keys[s] != p) s = (s + 1) & mask;
  return s;
}

// The arcs of up to 32 items, one a lane (`count` arcs from `begin`; 0 for none), walked by the
// whole warp 32 arcs at a time, so that an item with hundreds of arcs (the top of a road
// hierarchy) does not leave 31 lanes idle: job(the owning lane's value, arc) for every arc.
template <class Value, class Job>
__device__ void pair_warp_arcs(edge_t begin, std::uint32_t count, Value value, const Job& job) {
  const std::uint32_t lane = threadIdx.x % 32;
  std::uint32_t end = count;  // inclusive prefix sums over the lanes
  for (std::uint32_t offset = 1; offset < 32; offset *= 2) {
    const std::uint32_t before = __shfl_up_sync(0xFFFFFFFFu, end, offset);
    if (lane >= offset) end += before;
  }
  const std::uint32_t total = __shfl_sync(0xFFFFFFFFu, end, 31);
  for (std::uint32_t base = 0; base < total; base += 32) {
    const std::uint32_t e = base + lane;
    std::uint32_t owner = 0;  // the first lane whose prefix passes e
    for (std::uint32_t step = 16; step > 0; step /= 2)
      if (__shfl_sync(0xFFFFFFFFu, end, owner + step - 1) <= e) owner += step;
    const std::uint32_t first = __shfl_sync(0xFFFFFFFFu, end - count, owner);
    const edge_t arcs = __shfl_sync(0xFFFFFFFFu, begin, owner);
    const Value v = __shfl_sync(0xFFFFFFFFu, value, owner);
    if (e < total) job(v, arcs + (e - first));
  }
}

// Breadth-first closure by the warp over `arcs`: list[0 .. *tail) are slots; each is taken once,
// its arcs' other ends offered to visit(end), which returns a slot to append, pair_empty_key for
// none, or pair_full. False when the list would pass `capacity` or the table is full.
template <class Distance, class Visit>
__device__ bool pair_closure(const hierarchy_arcs<Distance>& arcs, const std::uint32_t* keys, std::uint32_t* list,
                             std::uint32_t* tail, std::uint32_t capacity, const Visit& visit) {
  const std::uint32_t lane = threadIdx.x % 32;
  std::uint32_t head = 0, end = __shfl_sync(0xFFFFFFFFu, *tail, 0);
  while (head < end) {
    bool over = false;
    const bool mine = head + lane < end;
    const vertex_t p = mine ? keys[list[head + lane]] : 0;
    const edge_t begin = mine ? arcs.offsets[p] : 0;
    pair_warp_arcs(begin, mine ? static_cast<std::uint32_t>(arcs.offsets[p + 1] - begin) : 0u, 0u,
                   [&](std::uint32_t, edge_t a) {
                     const std::uint32_t x = visit(arcs.ends[a]);
                     if (x == pair_empty_key) return;
                     const std::uint32_t at = x == pair_full ? capacity : atomicAdd(tail, 1u);
                     if (at < capacity)
                       list[at] = x;
                     else
                       over = true;
                   });
    if (__any_sync(0xFFFFFFFFu, over)) return false;
    head = min(head + 32, end);
    __syncwarp();
    end = __shfl_sync(0xFFFFFFFFu, *tail, 0);
  }
  return true;
}

// Step 1's upward half: s into the empty table at distance 0, then its closure over the up arcs,
// its slots the items (*item_tail of them). False as pair_closure.
template <class Distance>
__device__ bool pair_upward_closure(const pair_hierarchy<Distance>& h, vertex_t s, std::uint32_t* keys, Distance* df,
                                    std::uint32_t* items, std::uint32_t* item_tail, std::uint32_t capacity,
                                    std::uint32_t shift, std::uint32_t mask) {
  bool inserted;
  if (threadIdx.x % 32 == 0) {
    const std::uint32_t x = pair_slot_insert(keys, s, shift, mask, inserted);
    items[0] = x;
    df[x] = 0;
    *item_tail = 1;
  }
  __syncwarp();
  return pair_closure(h.up, keys, items, item_tail, capacity, [&](vertex_t q) {
    const std::uint32_t x = pair_slot_insert(keys, q, shift, mask, inserted);
    return x == pair_full ? pair_full : inserted ? x : pair_empty_key;
  });
}

// The level of position p (level_offsets[l] <= p < level_offsets[l + 1]).
__device__ inline std::uint32_t pair_level_of(const vertex_t* level_offsets, std::uint32_t levels, vertex_t p) {
  std::uint32_t lo = 0, hi = levels;  // level_offsets[lo] <= p < level_offsets[hi]
  while (hi - lo > 1) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (level_offsets[mid] <= p) lo = mid; else hi = mid;
  }
  return lo;
}

// The closure's items (slots) turned into sort keys (deepest level first, then slot) and sorted,
// padded to a power of two with ~0: every up arc and every down in-arc leads to a strictly higher
// level, so this order is a topological order of both.
template <class Distance>
__device__ void pair_sort_by_level(const pair_hierarchy<Distance>& h, const std::uint32_t* keys, std::uint32_t* items,
                                   std::uint32_t n_items, std::uint32_t slot_bits) {
  const std::uint32_t lane = threadIdx.x % 32;
  std::uint32_t padded = 1;
  while (padded < n_items) padded *= 2;
  for (std::uint32_t k = lane; k < padded; k += 32) {
    const std::uint32_t level = k < n_items ? pair_level_of(h.level_offsets, h.levels, keys[items[k]]) : 0;
    items[k] = k < n_items ? ((h.levels - 1 - level) << slot_bits) | items[k] : ~0u;
  }
  __syncwarp();
  for (std::uint32_t size = 2; size <= padded; size *= 2)
    for (std::uint32_t stride = size / 2; stride > 0; stride /= 2) {
      for (std::uint32_t k = lane; k < padded; k += 32) {
        const std::uint32_t partner = k ^ stride;
        if (partner > k) {
          const std::uint32_t a = items[k], b = items[partner];
          if (((k & size) == 0) == (a > b)) items[k] = b, items[partner] = a;
        }
      }
      __syncwarp();
    }
}

// The sorted items a level group at a time: job(mine, slot, position) on every lane (mine: the
// lane holds an item of the group), a warp barrier after each group, so that a position's
// distances are final when its group comes.
template <class Job>
__device__ void pair_by_level_groups(const std::uint32_t* items, std::uint32_t n_items, const std::uint32_t* keys,
                                     std::uint32_t slot_bits, std::uint32_t mask, const Job& job) {
  const std::uint32_t lane = threadIdx.x % 32;
  for (std::uint32_t first = 0; first < n_items;) {
    const std::uint32_t group = items[first] >> slot_bits;
    const std::uint32_t k = first + lane;
    const bool mine = k < n_items && (items[k] >> slot_bits) == group;
    const std::uint32_t x = mine ? items[k] & mask : 0;
    job(mine, x, mine ? keys[x] : vertex_t{0});
    first += __popc(__ballot_sync(0xFFFFFFFFu, mine));
    __syncwarp();
  }
}

// Position p's arcs (the whole warp, pair_warp_arcs) relaxed from distance d (infinity: none)
// into side, the table's distances of their other ends; a sum that does not fit sets dropped.
template <class Distance>
__device__ void pair_relax(const hierarchy_arcs<Distance>& arcs, vertex_t p, Distance d, const std::uint32_t* keys,
                           std::uint32_t shift, std::uint32_t mask, Distance* side, bool& dropped) {
  using ops = distance_ops<Distance>;
  const edge_t begin = d != ops::infinity ? arcs.offsets[p] : 0;
  pair_warp_arcs(begin, d != ops::infinity ? static_cast<std::uint32_t>(arcs.offsets[p + 1] - begin) : 0u, d,
                 [&](Distance from, edge_t a) {
                   Distance sum;
                   if (ops::extend(from, arcs.weights[a], sum))
                     ops::atomic_min(&side[pair_slot_find(keys, arcs.ends[a], shift, mask)], sum);
                   else
                     dropped = true;
                 });
}

// Pairs jobs[0 .. count) (indices into from, to and out; all of them when jobs is null), a warp
// a pair, with tables of 2 * 2^capacity_log2 slots. Writes out[i] for the pairs it answers and
// appends the others to redo (redo[0] the count, the indices after it).
template <class Distance>
__global__ void __launch_bounds__(pair_warps_per_block * 32)
    pair_queries(pair_hierarchy<Distance> h, const vertex_t* from, const vertex_t* to, const std::uint32_t* jobs,
                 std::uint32_t count, std::uint32_t capacity_log2, Distance* out, std::uint32_t* redo) {
  using ops = distance_ops<Distance>;
  using word = distance_word<Distance>;
  constexpr Distance inf = ops::infinity;
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::uint32_t capacity = 1u << capacity_log2, slots = 2 * capacity, mask = slots - 1;
  const std::uint32_t slot_bits = capacity_log2 + 1, shift = 32 - slot_bits;
  extern __shared__ std::uint32_t pair_shared[];
  __shared__ std::uint32_t tails[pair_warps_per_block][2];
  std::uint32_t* keys = pair_shared + std::size_t{warp} * (pair_warp_bytes<Distance>(capacity) / 4);
  Distance* df = reinterpret_cast<Distance*>(keys + slots);  // from s, over up arcs
  Distance* db = df + slots;                                 // to t, over down in-arcs
  std::uint32_t* items = reinterpret_cast<std::uint32_t*>(db + slots);  // the union's slots, later sort keys
  std::uint32_t* queue = items + capacity;                               // the backward closure's slots
  std::uint32_t* const item_tail = &tails[warp][0];
  std::uint32_t* const queue_tail = &tails[warp][1];
  const auto clear_all = [&] {
    __syncwarp();  // the lanes' last reads of the table are done (a vote orders no memory)
    for (std::uint32_t i = lane; i < slots; i += 32) keys[i] = pair_empty_key, df[i] = inf, db[i] = inf;
    __syncwarp();
  };
  clear_all();
  const std::uint32_t warps = gridDim.x * (blockDim.x / 32);
  for (std::uint32_t job = blockIdx.x * (blockDim.x / 32) + warp; job < count; job += warps) {
    const std::uint32_t i = jobs ? jobs[job] : job;
    const vertex_t s = h.position_of[from[i]], t = h.position_of[to[i]];
    bool inserted;
    // 1. The closures. s's slots are the items; t's go to the queue, and to the items when new.
    bool ok = pair_upward_closure(h, s, keys, df, items, item_tail, capacity, shift, mask);
    // The backward closure marks its slots with db = 0 (then back to infinity): a slot of s's
    // closure is already in the table but not yet in t's.
    const auto enter_backward = [&](vertex_t q) -> std::uint32_t {
      const std::uint32_t x = pair_slot_insert(keys, q, shift, mask, inserted);
      if (x == pair_full) return pair_full;
      if (inserted) {
        const std::uint32_t at = atomicAdd(item_tail, 1u);
        if (at >= capacity) return pair_full;
        items[at] = x;
      }
      const word was = atomicCAS(reinterpret_cast<word*>(&db[x]), distance_bits(inf), distance_bits(Distance{0}));
      return was == distance_bits(inf) ? x : pair_empty_key;
    };
    if (ok) {
      if (lane == 0) {
        const std::uint32_t x = enter_backward(t);
        queue[0] = x;
        *queue_tail = x == pair_full ? capacity + 1 : 1;
      }
      __syncwarp();
      ok = __shfl_sync(0xFFFFFFFFu, *queue_tail, 0) <= capacity && __shfl_sync(0xFFFFFFFFu, *item_tail, 0) <= capacity;
      if (ok) ok = pair_closure(h.down, keys, queue, queue_tail, capacity, enter_backward);
      ok = ok && __shfl_sync(0xFFFFFFFFu, *item_tail, 0) <= capacity;
    }
    if (!ok) {
      clear_all();
      if (lane == 0) redo[1 + atomicAdd(redo, 1u)] = i, out[i] = inf;  // the host's answer replaces it
      continue;
    }
    const std::uint32_t n_items = __shfl_sync(0xFFFFFFFFu, *item_tail, 0);
    const std::uint32_t in_queue = __shfl_sync(0xFFFFFFFFu, *queue_tail, 0);
    for (std::uint32_t k = lane; k < in_queue; k += 32) db[queue[k]] = inf;
    __syncwarp();
    if (lane == 0) db[queue[0]] = 0;  // t
    // 2. Sort keys: (deepest level first, slot).
    pair_sort_by_level(h, keys, items, n_items, slot_bits);
    // 3. The arcs, a level group at a time: from s over the up arcs into df, to t over the down
    // in-arcs into db. A dropped sum is remembered (see the file's comment).
    bool dropped = false;
    pair_by_level_groups(items, n_items, keys, slot_bits, mask, [&](bool mine, std::uint32_t x, vertex_t p) {
      pair_relax(h.up, p, mine ? df[x] : inf, keys, shift, mask, df, dropped);
      pair_relax(h.down, p, mine ? db[x] : inf, keys, shift, mask, db, dropped);
    });
    // 4. The meeting.
    Distance best = inf;
    for (std::uint32_t k = lane; k < n_items; k += 32) {
      const std::uint32_t x = items[k] & mask;
      if (df[x] == inf || db[x] == inf) continue;
      Distance sum;
      if (ops::extend(df[x], db[x], sum))
        best = sum < best ? sum : best;
      else
        dropped = true;
    }
    best = distance_from_bits<Distance>(warp_min_word(distance_bits(best)));
    dropped = __any_sync(0xFFFFFFFFu, dropped);
    if (lane == 0) {
      if (best == inf && dropped) redo[1 + atomicAdd(redo, 1u)] = i;
      out[i] = best;
    }
    __syncwarp();
    for (std::uint32_t k = lane; k < n_items; k += 32) {
      const std::uint32_t x = items[k] & mask;
      keys[x] = pair_empty_key, df[x] = inf, db[x] = inf;
    }
    __syncwarp();
  }
}

// A batch cell's seed bit (phast.cu, sweep_level_batch): bit cell % 32 of word cell / 32, one word
// for each position's group of 32 sources.
__device__ inline void mark_seed(std::uint32_t* seeds, std::size_t cell) {
  atomicOr(seeds + cell / 32, 1u << (cell % 32));
}

// The upward searches of a batch of PHAST sweeps (phast.cu), a warp a source: jobs[0 .. count)
// (rows of the batch; all of them when jobs is null), source sources[row]. Steps 1-3 of the pair
// query over the up arcs alone give the upward distances of the source's closure, the minima the
// host's upward search settles; they are written into the batch's vertex-major cells
// dist[position * k + row], each with its seed bit (phast.cu: bit row % 32 of word
// (position * k + row) / 32 of seeds, cleared before). A source whose closure passes the
// capacity, or with a dropped sum, writes nothing and is appended to redo (redo[0] the count):
// the host searches it.
template <class Distance>
__global__ void __launch_bounds__(pair_warps_per_block * 32)
    batch_upward(pair_hierarchy<Distance> h, const vertex_t* sources, const std::uint32_t* jobs, std::uint32_t count,
                 std::uint32_t capacity_log2, std::uint32_t k, Distance* dist, std::uint32_t* seeds,
                 std::uint32_t* redo) {
  constexpr Distance inf = distance_ops<Distance>::infinity;
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::uint32_t capacity = 1u << capacity_log2, slots = 2 * capacity, mask = slots - 1;
  const std::uint32_t slot_bits = capacity_log2 + 1, shift = 32 - slot_bits;
  extern __shared__ std::uint32_t pair_shared[];
  __shared__ std::uint32_t tails[pair_warps_per_block];
  // The pair query's layout (pair_warp_bytes): keys, distances from s, (unused), the items.
  std::uint32_t* keys = pair_shared + std::size_t{warp} * (pair_warp_bytes<Distance>(capacity) / 4);
  Distance* df = reinterpret_cast<Distance*>(keys + slots);
  std::uint32_t* items = reinterpret_cast<std::uint32_t*>(df + 2 * slots);
  std::uint32_t* const item_tail = &tails[warp];
  for (std::uint32_t i = lane; i < slots; i += 32) keys[i] = pair_empty_key, df[i] = inf;
  __syncwarp();
  const std::uint32_t warps = gridDim.x * (blockDim.x / 32);
  for (std::uint32_t job = blockIdx.x * (blockDim.x / 32) + warp; job < count; job += warps) {
    const std::uint32_t row = jobs ? jobs[job] : job;
    const vertex_t s = h.position_of[sources[row]];
    bool ok = pair_upward_closure(h, s, keys, df, items, item_tail, capacity, shift, mask);
    // The slots in the table, for the clearing below: the items, or the whole table when the
    // closure stopped short (its list may have missed a slot it inserted).
    std::uint32_t n_items = min(__shfl_sync(0xFFFFFFFFu, *item_tail, 0), capacity);
    bool dropped = false;
    if (ok) {
      pair_sort_by_level(h, keys, items, n_items, slot_bits);
      pair_by_level_groups(items, n_items, keys, slot_bits, mask, [&](bool mine, std::uint32_t x, vertex_t p) {
        pair_relax(h.up, p, mine ? df[x] : inf, keys, shift, mask, df, dropped);
      });
      dropped = __any_sync(0xFFFFFFFFu, dropped);
      if (!dropped)
        for (std::uint32_t i = lane; i < n_items; i += 32) {
          const std::uint32_t x = items[i] & mask;
          const std::size_t cell = std::size_t{keys[x]} * k + row;
          dist[cell] = df[x];
          mark_seed(seeds, cell);
        }
    }
    if (!ok || dropped) {
      if (lane == 0) redo[1 + atomicAdd(redo, 1u)] = row;
    }
    __syncwarp();
    if (ok) {
      for (std::uint32_t i = lane; i < n_items; i += 32) {
        const std::uint32_t x = items[i] & mask;
        keys[x] = pair_empty_key, df[x] = inf;
      }
    } else {
      for (std::uint32_t i = lane; i < slots; i += 32) keys[i] = pair_empty_key, df[i] = inf;
    }
    __syncwarp();
  }
}

}  // namespace deltasplit::sssp::gpu
