// The partitioned driver: delta-stepping (Meyer and Sanders) on sparse graphs with every SM busy.
//
// Why: a road solve is thousands of dependent relaxation iterations over a few hundred vertices
// each; the step loop (delta_stepping.cuh) runs them in one 16-SM cluster at ~3 us per iteration
// while the other SMs wait (issue 9; bench/results/sssp.md). Here every block of a persistent
// cooperative grid (partition_blocks_per_sm per SM, all resident) OWNS one region of the graph
// (owner_regions.hpp: a breadth-first ball, renumbered to a contiguous id range at upload, results
// mapped back to the caller's ids) and is the only writer of its vertices' distances:
//   - its distances live in shared memory when its region fits (partition_shared_budget), else in
//     global memory written by it alone; a bitmap in shared memory marks its pending vertices;
//   - it runs the dependent chains inside its region at on-chip latency: a local iteration takes
//     the pending vertices whose bucket is at most the current bound (delta-stepping's current
//     bucket; Meyer and Sanders, Section 2) and relaxes all their arcs, one vertex per thread;
//     improved vertices of the region are marked pending again, and the block iterates with block
//     barriers only until nothing of its region lies at or below the bound (a local fixpoint);
//   - an arc into another region becomes an offer: atomicMin into the target's offer word in
//     global memory (L2); the sender that fills an empty word queues the vertex in its owner's
//     mailbox (one entry per fill, so a mailbox never holds more than its region), later improving
//     senders only lower the word. Owners take their mailboxes at the start of the next round,
//     emptying each word by an exchange;
//   - a round ends with one grid barrier (cooperative groups), where the blocks agree on the next
//     bound: the lowest bucket still pending anywhere or offered in the round. The bound stays while
//     offers into it are in flight and jumps over empty buckets, so the grid agrees once per round,
//     not once per iteration, and work stays that of delta-stepping with buckets of width delta,
//     except that a vertex relaxes its heavy arcs each time it is taken (no light/heavy split).
// A vertex is queued only when its distance strictly drops, so zero-weight cycles end; when every
// block is idle and no offer was made in a round, no arc can lower any distance: the distances are
// Dijkstra's (integer sums exact; float sums one addition per arc, as everywhere in this solver).
// This is the design issue 9 asks for ("each SM owns a locality-ordered part of the graph and runs
// its dependent chains in shared memory, exchanging only boundary distances through L2"); the
// persistent blocks with their own work lists follow ADDS (Wang, Fussell and Lin, PPoPP 2021) in
// spirit, but ownership replaces ADDS's shared work queues and the bucket bound is exact.
#include "sssp/gpu/partitioned_driver.cuh"

#include <algorithm>
#include <stdexcept>

#include <cooperative_groups.h>

#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/owner_regions.hpp"

namespace deltasplit::sssp::gpu {

namespace cg = cooperative_groups;

// Tuning constants (one place). Chosen on the H200 (bench/results/sssp_roads.md has the runs):
// 512 threads and 2 blocks per SM: 264 regions, each block's local frontier on a road is tens of
// vertices, so 16 warps per block leave a chain's barrier cheap while two blocks per SM overlap
// their chains. partition_frontier bounds one local iteration (more pending vertices wait for the
// next); partition_shared_budget is what a block may use with two blocks per SM (227 KB per SM).
inline constexpr unsigned partition_threads = 512;
inline constexpr unsigned partition_blocks_per_sm = 2;
inline constexpr std::uint32_t partition_frontier = 2048;
inline constexpr std::size_t partition_shared_budget = 110 * 1024;

struct partitioned_control {
  std::uint32_t next_bucket[3];  // per round, three slots in rotation: the lowest bucket pending or offered
  std::uint32_t longest[3];      // per round: the most local iterations one block ran
  std::uint32_t overflowed;      // a distance sum was dropped (distance.cuh)
  std::uint32_t mailbox_overrun; // internal error: a mailbox entry past its region
  std::uint32_t rounds, buckets, max_frontier;
  unsigned long long chain, edges, vertices;
};

template <class Distance>
struct partitioned_view {
  using weight = typename distance_ops<Distance>::weight;
  const edge_t* offsets;  // the reordered graph (new ids)
  const vertex_t* targets;
  const weight* weights;
  const vertex_t* begin;  // parts + 1: region b is [begin[b], begin[b + 1])
  Distance* dist;         // new ids; written by the owner only
  Distance* offer;        // new ids; the best offer not yet taken by the owner, infinity when none
  vertex_t* mailbox[2];   // by round parity; region b's entries at [begin[b], begin[b + 1])
  std::uint32_t* mailbox_count[2];  // per region
  partitioned_control* ctl;
  std::uint32_t parts;
  std::uint32_t words;  // pending-bitmap words of the largest region
  bucket_of_distance<Distance> bucket;
};

// Dynamic shared memory of a block: pending bitmap, local frontier (ids and distances), the region
// bounds, and (SharedDist) the region's distances. Every entry is 4 bytes.
template <class Distance>
std::size_t partition_shared_bytes(std::uint32_t words, std::uint32_t parts, std::uint32_t largest, bool shared) {
  return 4 * (std::size_t{words} + 2 * partition_frontier + parts + 1 + (shared ? largest : 0));
}

template <class Distance>
__global__ void reset_partitioned(partitioned_view<Distance> s, vertex_t n, vertex_t source) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    s.dist[v] = v == source ? Distance(0) : distance_ops<Distance>::infinity;
    s.offer[v] = distance_ops<Distance>::infinity;
  }
  for (std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < s.parts; b += stride)
    s.mailbox_count[0][b] = s.mailbox_count[1][b] = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    partitioned_control c{};
    for (auto& b : c.next_bucket) b = no_bucket;
    *s.ctl = c;
  }
}

// The region's distances: shared memory (SharedDist) or the global array, which its owner alone
// writes. improve() lowers one and says whether it dropped; the global copy follows (the senders'
// filter, and the result).
template <class Distance, bool SharedDist>
struct owned_distances {
  Distance* local;   // shared, region-relative (SharedDist)
  Distance* global;  // new ids
  vertex_t lo;
  __device__ Distance load(vertex_t u) const { return SharedDist ? local[u] : __ldcg(&global[lo + u]); }
  __device__ bool improve(vertex_t u, Distance d) const {
    using ops = distance_ops<Distance>;
    if (SharedDist) {
      if (!(d < ops::atomic_min(&local[u], d))) return false;
      ops::atomic_min(&global[lo + u], d);
      return true;
    }
    return d < ops::atomic_min(&global[lo + u], d);
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

template <class Distance, bool SharedDist>
__global__ void __launch_bounds__(partition_threads, partition_blocks_per_sm)
    partitioned_solve(partitioned_view<Distance> s, vertex_t source) {
  using ops = distance_ops<Distance>;
  extern __shared__ __align__(16) std::uint32_t shared_words[];
  std::uint32_t* const pending = shared_words;
  vertex_t* const frontier = pending + s.words;
  Distance* const frontier_d = reinterpret_cast<Distance*>(frontier + partition_frontier);
  vertex_t* const begin = reinterpret_cast<vertex_t*>(frontier_d + partition_frontier);
  Distance* const region_d = reinterpret_cast<Distance*>(begin + s.parts + 1);
  __shared__ std::uint32_t taken[2], next_bucket, largest;
  __shared__ unsigned long long relaxed, processed;
  cg::grid_group grid = cg::this_grid();
  const std::uint32_t tid = threadIdx.x, part = blockIdx.x, threads = blockDim.x;
  const vertex_t lo = s.begin[part], owned = s.begin[part + 1] - lo;
  const std::uint32_t words = (owned + 31) / 32;
  const owned_distances<Distance, SharedDist> own{region_d, s.dist, lo};
  for (std::uint32_t i = tid; i <= s.parts; i += threads) begin[i] = s.begin[i];
  for (std::uint32_t i = tid; i < words; i += threads) pending[i] = 0;
  if (SharedDist)
    for (std::uint32_t i = tid; i < owned; i += threads) region_d[i] = ops::infinity;
  if (tid == 0) {
    taken[0] = taken[1] = 0;
    next_bucket = no_bucket;
    largest = 0;
    relaxed = processed = 0;
  }
  __syncthreads();
  if (tid == 0 && source - lo < owned) {
    if (SharedDist) region_d[source - lo] = Distance(0);
    pending[(source - lo) >> 5] = 1u << ((source - lo) & 31u);
  }
  std::uint64_t my_arcs = 0;
  std::uint32_t current = 0;  // the bound: vertices of buckets <= current are taken
  for (std::uint32_t round = 0;; ++round) {
    const std::uint32_t slot = round % 3, out = round & 1u, in = out ^ 1u;
    // The offers queued for this region last round.
    if (round > 0) {
      const std::uint32_t arrived = __ldcg(&s.mailbox_count[in][part]);
      for (std::uint32_t i = tid; i < arrived; i += threads) {
        const vertex_t v = __ldcg(&s.mailbox[in][lo + i]);
        const Distance d = atomicExch(&s.offer[v], ops::infinity);
        if (own.improve(v - lo, d)) atomicOr(&pending[(v - lo) >> 5], 1u << ((v - lo) & 31u));
      }
    }
    __syncthreads();
    if (tid == 0 && round > 0) s.mailbox_count[in][part] = 0;  // refilled next round, after the grid barrier
    // Local iterations to the fixpoint below the bound.
    std::uint32_t k = 0;
    for (;; ++k) {
      const std::uint32_t c = k & 1u;
      for (std::uint32_t w = tid; w < words; w += threads) {
        const std::uint32_t bits = pending[w];
        std::uint32_t take = 0;
        for (std::uint32_t rest = bits; rest; rest &= rest - 1) {
          const std::uint32_t i = __ffs(rest) - 1;
          if (s.bucket(own.load(w * 32 + i)) <= current) take |= 1u << i;
        }
        if (!take) continue;
        const std::uint32_t want = __popc(take);
        std::uint32_t at = atomicAdd(&taken[c], want);
        if (at >= partition_frontier) continue;
        while (at + __popc(take) > partition_frontier) take &= ~(1u << (31 - __clz(take)));  // the rest waits
        pending[w] = bits & ~take;
        for (std::uint32_t rest = take; rest; rest &= rest - 1, ++at) {
          const vertex_t u = w * 32 + __ffs(rest) - 1;
          frontier[at] = u;
          frontier_d[at] = own.load(u);
        }
      }
      __syncthreads();
      const std::uint32_t n = min(taken[c], partition_frontier);
      if (tid == 0) taken[c ^ 1u] = 0;  // the next iteration's counter
      if (n == 0) break;
      if (tid == 0) {
        processed += n;
        if (n > largest) largest = n;
      }
      for (std::uint32_t i = tid; i < n; i += threads) {
        const vertex_t u = frontier[i];
        const Distance du = frontier_d[i];
        const edge_t first = __ldg(&s.offsets[lo + u]), last = __ldg(&s.offsets[lo + u + 1]);
        my_arcs += last - first;
        for (edge_t a = first; a < last; ++a) {
          const vertex_t t = __ldg(&s.targets[a]);
          Distance nd;
          if (!ops::extend(du, __ldg(&s.weights[a]), nd)) {
            s.ctl->overflowed = 1;
            continue;
          }
          const vertex_t tl = t - lo;
          if (tl < owned) {
            if (own.improve(tl, nd)) atomicOr(&pending[tl >> 5], 1u << (tl & 31u));
          } else if (nd < __ldcg(&s.dist[t])) {
            const Distance old = ops::atomic_min(&s.offer[t], nd);
            if (!(nd < old)) continue;
            atomicMin(&next_bucket, s.bucket(nd));
            if (old == ops::infinity) {  // this sender filled the word: queue it with its owner
              const std::uint32_t owner = owner_of(begin, s.parts, t);
              const std::uint32_t at = atomicAdd(&s.mailbox_count[out][owner], 1u);
              if (begin[owner] + at < begin[owner + 1])
                s.mailbox[out][begin[owner] + at] = t;
              else
                s.ctl->mailbox_overrun = 1;
            }
          }
        }
      }
      __syncthreads();
    }
    // The lowest bucket still pending in this region (all above the bound now).
    std::uint32_t mine = no_bucket;
    for (std::uint32_t w = tid; w < words; w += threads)
      for (std::uint32_t rest = pending[w]; rest; rest &= rest - 1) {
        const std::uint32_t b = s.bucket(own.load(w * 32 + __ffs(rest) - 1));
        if (b < mine) mine = b;
      }
    mine = __reduce_min_sync(0xFFFFFFFFu, mine);
    if ((tid & 31u) == 0 && mine != no_bucket) atomicMin(&next_bucket, mine);
    __syncthreads();
    if (tid == 0) {
      if (next_bucket != no_bucket) atomicMin(&s.ctl->next_bucket[slot], next_bucket);
      atomicMax(&s.ctl->longest[slot], k);
      next_bucket = no_bucket;
      if (part == 0) {  // the slot of the next round, last read before the previous grid barrier
        const std::uint32_t z = (round + 1) % 3;
        s.ctl->next_bucket[z] = no_bucket;
        s.ctl->longest[z] = 0;
      }
    }
    grid.sync();
    const std::uint32_t lowest = __ldcg(&s.ctl->next_bucket[slot]);
    if (part == 0 && tid == 0) {
      s.ctl->rounds += 1;
      s.ctl->chain += __ldcg(&s.ctl->longest[slot]);
      if (lowest != no_bucket && lowest > current) s.ctl->buckets += 1;
    }
    if (lowest == no_bucket) break;
    if (lowest > current) current = lowest;
  }
  unsigned long long arcs = my_arcs;
  for (std::uint32_t o = 16; o > 0; o >>= 1) arcs += __shfl_down_sync(0xFFFFFFFFu, arcs, o);
  if ((tid & 31u) == 0 && arcs) atomicAdd(&relaxed, arcs);
  __syncthreads();
  if (tid == 0) {
    atomicAdd(&s.ctl->edges, relaxed);
    atomicAdd(&s.ctl->vertices, processed);
    atomicMax(&s.ctl->max_frontier, largest);
  }
}

template <class Distance>
__global__ void to_caller_ids(const Distance* dist, const vertex_t* old_of_new, vertex_t n, Distance* out) {
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) out[old_of_new[v]] = dist[v];
}

template <class Distance>
class partitioned_engine final : public partitioned_driver<Distance> {
  using weight = typename distance_ops<Distance>::weight;

 public:
  partitioned_engine(const graph::csr& g, const std::vector<weight>& weights) : n_(g.num_vertices) {
    int device = 0;
    DS_CUDA(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    DS_CUDA(cudaGetDeviceProperties(&prop, device));
    sms_ = static_cast<std::uint32_t>(prop.multiProcessorCount);
    parts_ = std::max<std::uint32_t>(1, std::min<std::uint32_t>(sms_ * partition_blocks_per_sm, n_));
    const owner_regions regions = grow_owner_regions(g, parts_);
    std::uint32_t largest = 0;
    for (std::uint32_t b = 0; b < parts_; ++b) largest = std::max(largest, regions.begin[b + 1] - regions.begin[b]);
    words_ = (largest + 31) / 32;
    shared_ = partition_shared_bytes<Distance>(words_, parts_, largest, true) <= partition_shared_budget;
    shared_bytes_ = partition_shared_bytes<Distance>(words_, parts_, largest, shared_);
    kernel_ = shared_ ? partitioned_solve<Distance, true> : partitioned_solve<Distance, false>;
    DS_CUDA(cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes_)));
    int per_sm = 0;
    DS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_, partition_threads, shared_bytes_));
    if (static_cast<std::uint64_t>(per_sm) * sms_ < parts_)
      throw std::runtime_error("the partitioned driver cannot keep its " + std::to_string(parts_) +
                               " blocks resident on this GPU (" + std::to_string(per_sm) + " per SM)");
    // The reordered graph.
    const edge_t m = g.num_arcs();
    std::vector<edge_t> offsets(n_ + 1, 0);
    std::vector<vertex_t> targets(m);
    std::vector<weight> sorted(m);
    for (vertex_t x = 0; x < n_; ++x) {
      const vertex_t u = regions.old_of_new[x];
      edge_t o = offsets[x];
      for (edge_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a, ++o) {
        targets[o] = regions.new_of_old[g.targets[a]];
        sorted[o] = weights[a];
      }
      offsets[x + 1] = o;
    }
    offsets_ = device_array<edge_t>(offsets.size(), "the reordered CSR offsets");
    targets_ = device_array<vertex_t>(std::max<edge_t>(m, 1), "the reordered CSR targets");
    weights_ = device_array<weight>(std::max<edge_t>(m, 1), "the reordered arc weights");
    begin_ = device_array<vertex_t>(parts_ + 1, "the owner regions");
    old_of_new_ = device_array<vertex_t>(n_, "the caller ids of the regions' vertices");
    dist_ = device_array<Distance>(n_, "the regions' distances");
    offer_ = device_array<Distance>(n_, "the offers");
    mailbox_[0] = device_array<vertex_t>(n_, "the mailboxes");
    mailbox_[1] = device_array<vertex_t>(n_, "the mailboxes");
    mailbox_count_ = device_array<std::uint32_t>(2 * parts_, "the mailbox counts");
    ctl_ = device_array<partitioned_control>(1, "the partitioned driver's control");
    DS_CUDA(cudaMemcpy(offsets_.get(), offsets.data(), offsets.size() * sizeof(edge_t), cudaMemcpyHostToDevice));
    if (m) {
      DS_CUDA(cudaMemcpy(targets_.get(), targets.data(), m * sizeof(vertex_t), cudaMemcpyHostToDevice));
      DS_CUDA(cudaMemcpy(weights_.get(), sorted.data(), m * sizeof(weight), cudaMemcpyHostToDevice));
    }
    DS_CUDA(cudaMemcpy(begin_.get(), regions.begin.data(), (parts_ + 1) * sizeof(vertex_t), cudaMemcpyHostToDevice));
    DS_CUDA(cudaMemcpy(old_of_new_.get(), regions.old_of_new.data(), n_ * sizeof(vertex_t), cudaMemcpyHostToDevice));
    new_of_old_ = regions.new_of_old;
  }

  partitioned_outcome solve(vertex_t source, bucket_of_distance<Distance> bucket, Distance* dist, cudaStream_t stream,
                            cudaEvent_t start, cudaEvent_t stop) override {
    partitioned_view<Distance> s{};
    s.offsets = offsets_.get();
    s.targets = targets_.get();
    s.weights = weights_.get();
    s.begin = begin_.get();
    s.dist = dist_.get();
    s.offer = offer_.get();
    s.mailbox[0] = mailbox_[0].get();
    s.mailbox[1] = mailbox_[1].get();
    s.mailbox_count[0] = mailbox_count_.get();
    s.mailbox_count[1] = mailbox_count_.get() + parts_;
    s.ctl = ctl_.get();
    s.parts = parts_;
    s.words = words_;
    s.bucket = bucket;
    vertex_t from = new_of_old_[source];
    const unsigned spread = std::max(1u, std::min(sms_ * 4, (n_ + 255) / 256));
    DS_CUDA(cudaEventRecord(start, stream));
    reset_partitioned<<<spread, 256, 0, stream>>>(s, n_, from);
    DS_CUDA_LAUNCH("reset_partitioned");
    void* args[] = {&s, &from};
    DS_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel_), dim3(parts_), dim3(partition_threads),
                                        args, shared_bytes_, stream));
    to_caller_ids<<<spread, 256, 0, stream>>>(dist_.get(), old_of_new_.get(), n_, dist);
    DS_CUDA_LAUNCH("to_caller_ids");
    DS_CUDA(cudaEventRecord(stop, stream));
    partitioned_control c{};
    DS_CUDA(cudaMemcpyAsync(&c, ctl_.get(), sizeof c, cudaMemcpyDeviceToHost, stream));
    DS_CUDA(cudaStreamSynchronize(stream));
    if (c.mailbox_overrun) throw std::runtime_error("partitioned driver: a mailbox overran its region (internal error)");
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
    return out;
  }

  std::string describe() const override {
    return "partitioned: " + std::to_string(parts_) + " blocks of " + std::to_string(partition_threads) + " threads on " +
           std::to_string(sms_) + " SMs, distances in " + (shared_ ? "shared" : "global") + " memory";
  }

 private:
  vertex_t n_;
  std::uint32_t sms_ = 0, parts_ = 0, words_ = 0;
  bool shared_ = false;
  std::size_t shared_bytes_ = 0;
  void (*kernel_)(partitioned_view<Distance>, vertex_t) = nullptr;
  device_array<edge_t> offsets_;
  device_array<vertex_t> targets_;
  device_array<weight> weights_;
  device_array<vertex_t> begin_, old_of_new_;
  device_array<Distance> dist_, offer_;
  device_array<vertex_t> mailbox_[2];
  device_array<std::uint32_t> mailbox_count_;
  device_array<partitioned_control> ctl_;
  std::vector<vertex_t> new_of_old_;
};

template <class Distance>
std::unique_ptr<partitioned_driver<Distance>> make_partitioned_driver(
    const graph::csr& g, const std::vector<typename distance_ops<Distance>::weight>& weights) {
  return std::make_unique<partitioned_engine<Distance>>(g, weights);
}

template std::unique_ptr<partitioned_driver<std::uint32_t>> make_partitioned_driver<std::uint32_t>(
    const graph::csr&, const std::vector<std::uint32_t>&);
template std::unique_ptr<partitioned_driver<float>> make_partitioned_driver<float>(const graph::csr&,
                                                                                   const std::vector<float>&);

}  // namespace deltasplit::sssp::gpu
