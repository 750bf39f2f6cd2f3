// PHAST on the GPU (the engine behind strategy::phast, seam in sssp/phast_engine.hpp): GPHAST,
// Delling, Goldberg, Nowatzyk and Werneck, "PHAST: Hardware-accelerated shortest path trees"
// (IPDPS 2011 / JPDC 2013), Sections 3-5.
//
// The hierarchy (sssp/contraction_hierarchy.hpp) is uploaded once as it is: sweep positions
// (highest level first), level offsets, down in-arcs by position. A query is the upward search
// from its source on the host (a few hundred vertices on a road network), whose (position,
// distance) pairs are copied up and scattered, then the linear sweep: the levels in order, each
// position taking min(its upward distance, min over its down in-arcs q -> p of d(q) + w). All
// positions of one level are independent (Section 4), so a level is one parallel pass.
//
// One source (the solver): a thread per position. The top levels hold few vertices (a road
// network's level sizes fall by about half per level from the bottom), so the levels up to the
// first one larger than block_level_limit are swept by ONE block with block barriers between
// them (no launch per level), and the large bottom levels get a launch each. The upward distances
// live in their own array, infinity except where the search scattered them; the sweep reads each
// position's entry once and puts infinity back, so no fill is needed between queries.
//
// Many sources (many_sources): GPHAST's batches (Section 5): k sources (a multiple of 32) at once,
// distances vertex-major d[p * k + j], so a warp takes (position, group of 32 sources), reads each
// down arc once for its 32 lanes and their 32 distances of the arc's tail in one coalesced line.
// One launch per level. The batch's upward searches run on the device where the pair query's
// tables serve (batch_upward, pair_query.cuh: a warp a source, its closure's distances written
// straight into the batch's cells), else, and for the sources a closure too large hands back, on
// the host threads (their cells and distances copied up and scattered); on a road network the
// host's searches had taken more of a batch than its sweep (bench/results/phast.md, "PHAST batches
// on the GPU"). A cell the upward searches wrote has its seed bit set (a bit a cell, one word for
// each position's group of 32 sources), and the sweep reads a cell's upward distance only where
// its bit is set, so the batch's k x n cells are never filled with infinity: clearing the bits, a
// 32nd of the bytes, takes the fill's place. The batch's rows then leave through gather_rows
// (batch_rows.cuh), the targets' positions taking the place of the targets, or, for row
// summaries, the batch is reduced where it lies (summarize_chunks, summarize_columns) and no row
// leaves. Batches run in a pipeline: the next batch's seed bits and upward searches, and the last
// one's gather (or reduction), go on a second stream into a second buffer while the engine's
// stream sweeps (pipeline).
//
// Distances (distance.cuh): uint32 (integer sums in 64 bits, a sum above 2^32 - 2 dropped and
// flagged), uint64 (the hierarchy of 64-bit weights that integer graphs get when their paths may
// pass 2^32 - 2; a sum above 2^64 - 2 dropped and flagged) or float (a non-finite sum dropped and
// flagged). A dropped sum decides nothing unless some shortest distance does not fit: a vertex
// whose shortest distance fits is reached by an up-down path of the hierarchy whose every prefix
// fits, so its distance is exact; the ones whose distance does not fit end unreached. So after a
// flagged sweep (or an upward distance too large to scatter), the vertices are checked as every
// solver does (overflowed_vertex on the original graph, in caller ids): an arc from a reached to an
// unreached vertex is a distance that overflowed.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "sssp/distance_policy.hpp"
#include "sssp/gpu/batch_rows.cuh"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_csr.cuh"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/distance.cuh"
#include "sssp/gpu/engine_context.cuh"
#include "sssp/gpu/phast/pair_query.cuh"
#include "sssp/gpu/predecessors.cuh"
#include "sssp/gpu_engine.hpp"
#include "sssp/phast_engine.hpp"
#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp::gpu {

namespace {

// Tuning (one place; bench/results/phast.md, section GPU, has the measurements).
// The top levels up to the first level larger than this are swept by one block of
// block_sweep_threads threads, a block barrier between levels: most of a road hierarchy's levels
// are small, and one block sweeps them without a launch each; 4096 beats every level its own
// launch and a limit of 65536, at which one block also takes levels that a grid sweeps faster.
constexpr vertex_t block_level_limit = 4096;
constexpr unsigned block_sweep_threads = 1024;
constexpr unsigned sweep_threads = 256;          // one source: threads per block of a level launch
constexpr unsigned batch_warps_per_block = 8;    // many sources: warps per block of a level launch
constexpr std::uint32_t group_lanes = 32;
static_assert(group_lanes == 32, "a group's seed bits are one word (mark_seed)");
// Many sources: a warp sweeps a position for four groups of 32 sources at once, their loads
// independent, so a warp waits on four lines at a time; four beat one (one load chain a warp) and
// eight (fewer warps) at k = 4096 and 8192 (bench/results/phast.md, "PHAST batches in a pipeline,
// four groups a warp").
constexpr std::uint32_t sweep_groups = 4;
constexpr unsigned summary_threads = 256;  // row summaries: a thread a source of the batch
// Pairs (pair_query.cuh): a warp's capacity in positions, tried in turn; a pair whose closures
// pass one capacity goes to the next, past the last to the host. 2^9 holds almost every road-FLA
// pair at 16 KB a warp; 2^10 most of USA-road-d.NY's; 2^12 takes a block's shared memory for one
// warp (bench/results/phast.md, "Pairs on the GPU"). Pairs a launch takes at most.
constexpr std::uint32_t pair_capacity_log2[] = {9, 10, 12};
// A pair's sort keys hold (level, slot) in 32 bits: the largest table's slot bits leave this many
// levels (pair_query.cuh); deeper hierarchies are queried on the host.
constexpr std::uint32_t pair_max_levels = 1u << (32 - (pair_capacity_log2[2] + 1) - 1);
constexpr std::size_t pair_chunk = std::size_t{1} << 22;
// The engine's first pairs: if most of them pass the first capacity, later pairs start at the
// next (USA-road-d.NY's do). A call of fewer than pair_probe_least pairs decides nothing (a few
// pairs are no sample; the next call probes again).
constexpr std::size_t pair_probe = std::size_t{1} << 15;
constexpr std::size_t pair_probe_least = 1024;

// One source: min(best, d(q) + w over the down in-arcs q -> p). Infinite tails are skipped; a sum
// that does not fit is dropped and raises *overflowed.
template <class Distance>
__device__ Distance sweep_in_arcs(const hierarchy_arcs<Distance>& arcs, const Distance* dist, vertex_t p,
                                  Distance best, std::uint32_t* overflowed) {
  bool dropped = false;
  for (edge_t a = arcs.offsets[p], end = arcs.offsets[p + 1]; a < end; ++a) {
    const Distance dq = dist[arcs.ends[a]];
    if (dq == distance_ops<Distance>::infinity) continue;
    Distance sum;
    if (distance_ops<Distance>::extend(dq, arcs.weights[a], sum))
      best = sum < best ? sum : best;
    else
      dropped = true;
  }
  if (dropped) *overflowed = 1;
  return best;
}

// One source, position p: its upward distance (put back to infinity for the next query), then
// its down in-arcs.
template <class Distance>
__device__ void sweep_position(const hierarchy_arcs<Distance>& arcs, Distance* dist, Distance* upward, vertex_t p,
                               std::uint32_t* overflowed) {
  Distance best = upward[p];
  if (best != distance_ops<Distance>::infinity) upward[p] = distance_ops<Distance>::infinity;
  dist[p] = sweep_in_arcs(arcs, dist, p, best, overflowed);
}

// The upward pairs as copied up: word 0 the count c, then c positions, then c distances from the
// first word after them that is aligned for a distance.
template <class Distance>
__host__ __device__ constexpr std::size_t upward_distances_word(std::size_t count) {
  constexpr std::size_t words = sizeof(Distance) / 4;
  return (1 + count + words - 1) / words * words;
}

// The words of the upward pairs of up to n positions.
template <class Distance>
constexpr std::size_t pair_words(std::size_t n) {
  return upward_distances_word<Distance>(n) + n * (sizeof(Distance) / 4);
}

template <class Distance>
__device__ void scatter_upward(const std::uint32_t* pairs, Distance* upward) {
  const std::uint32_t count = pairs[0];
  const Distance* distances = reinterpret_cast<const Distance*>(pairs + upward_distances_word<Distance>(count));
  for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x) upward[pairs[1 + i]] = distances[i];
}

// One block: the scatter, then levels [0, top_levels) with a block barrier after each.
template <class Distance>
__global__ void __launch_bounds__(block_sweep_threads)
    sweep_top_levels(hierarchy_arcs<Distance> arcs, const vertex_t* level_offsets, std::uint32_t top_levels,
                     const std::uint32_t* pairs, Distance* dist, Distance* upward, std::uint32_t* overflowed) {
  scatter_upward(pairs, upward);
  __syncthreads();
  for (std::uint32_t level = 0; level < top_levels; ++level) {
    const vertex_t first = level_offsets[level], end = level_offsets[level + 1];
    for (vertex_t p = first + threadIdx.x; p < end; p += blockDim.x) sweep_position(arcs, dist, upward, p, overflowed);
    __syncthreads();
  }
}

template <class Distance>
__global__ void sweep_level(hierarchy_arcs<Distance> arcs, vertex_t first, vertex_t end, Distance* dist,
                            Distance* upward, std::uint32_t* overflowed) {
  const vertex_t p = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (p < end) sweep_position(arcs, dist, upward, p, overflowed);
}

// Many sources: a warp per (position, Groups groups of 32 lanes); lane j of group g is source
// 32 g + j. A cell starts from the source's upward distance where its seed bit says the batch's
// upward search wrote one, else from infinity; the seed bits of a position's groups are one word a
// group (bit j % 32 of word (p * k + j) / 32), read by the whole warp at once. The arc is the same
// address for all 32 lanes (one broadcast load, shared by the warp's groups), the tails' distances
// one line a group, the groups' loads independent of each other. Items run group by group (all the
// level's positions of the first groups, then of the next ...): the warps at work at once read a
// few groups' lines, at most n lines of 32 distances a group (34 MB for USA-road-d.NY in uint32),
// rather than whole rows of k distances of each tail; against position by position:
// bench/results/phast.md, "A batch's parts: upward searches, sweep, gather". A warp's last groups
// past k / 32 are idle. Eight blocks an SM for 4-byte distances (32 registers, a few bytes
// spilled), so that every warp slot holds one of the warps waiting on their loads: faster than
// the 38 registers and six blocks the compiler chose (bench/results/phast.md, "PHAST's batch sweep
// at full occupancy"); 8-byte distances keep their 46 registers (five blocks).
template <class Distance, std::uint32_t Groups>
__global__ void __launch_bounds__(batch_warps_per_block * group_lanes, sizeof(Distance) == 4 ? 8 : 5)
    sweep_level_batch(hierarchy_arcs<Distance> arcs, vertex_t first, vertex_t end, std::uint32_t k, Distance* dist,
                      const std::uint32_t* seeds, std::uint32_t* overflowed) {
  using ops = distance_ops<Distance>;
  const std::uint32_t groups = k / group_lanes, lane = threadIdx.x % group_lanes;
  const std::uint32_t size = end - first, quads = (groups + Groups - 1) / Groups;
  // Item i is (position i % size, quad i / size); a warp takes items warp, warp + warps, ...: its
  // first by one division, each next one by adding warps as (quads, positions), so that no 64-bit
  // division runs per item.
  const std::uint32_t warps = gridDim.x * (blockDim.x / group_lanes);
  const std::uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / group_lanes;
  const std::uint32_t step_quads = warps / size, step_at = warps % size;
  for (std::uint32_t quad = warp / size, at = warp % size; quad < quads;) {
    const vertex_t p = first + at;
    const std::uint32_t group = quad * Groups;
    const std::uint32_t mine = std::min(Groups, groups - group);  // the same for the whole warp
    const std::size_t cell = std::size_t{p} * k + group * group_lanes + lane;
    Distance* const cells = dist + cell;
    const std::uint32_t* const bits = seeds + cell / group_lanes;
    Distance best[Groups];
    for (std::uint32_t i = 0; i < Groups; ++i)
      best[i] = i < mine && (bits[i] >> lane & 1u) ? cells[i * group_lanes] : ops::infinity;
    bool dropped = false;
    for (edge_t a = arcs.offsets[p], stop = arcs.offsets[p + 1]; a < stop; ++a) {
      const Distance* const tails = dist + std::size_t{arcs.ends[a]} * k + group * group_lanes + lane;
      const auto w = arcs.weights[a];
      Distance dq[Groups];
      for (std::uint32_t i = 0; i < Groups; ++i) dq[i] = i < mine ? tails[i * group_lanes] : ops::infinity;
      for (std::uint32_t i = 0; i < Groups; ++i) {
        if (dq[i] == ops::infinity) continue;
        Distance sum;
        if (ops::extend(dq[i], w, sum))
          best[i] = sum < best[i] ? sum : best[i];
        else
          dropped = true;
      }
    }
    if (dropped) *overflowed = 1;
    for (std::uint32_t i = 0; i < mine; ++i) cells[i * group_lanes] = best[i];
    quad += step_quads;
    if (at >= size - step_at) {
      at -= size - step_at;
      ++quad;
    } else {
      at += step_at;
    }
  }
}

// The batch's upward distances: cell p * k + j gets the distance of source j at position p, and
// its seed bit (sweep_level_batch).
template <class Distance>
__global__ void scatter_batch(const std::uint64_t* cells, const Distance* distances, std::size_t count, Distance* dist,
                              std::uint32_t* seeds) {
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    dist[cells[i]] = distances[i];
    mark_seed(seeds, cells[i]);
  }
}

template <class T>
void upload(device_array<T>& dst, const std::vector<T>& src, cudaStream_t stream) {
  if (!src.empty()) DS_CUDA(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

// An upward distance as a Distance, or false when it does not fit (integer sums past 2^32 - 2 or
// 2^64 - 2; a real sum that rounded to +inf).
template <class Sum, class Distance>
bool fits(Sum sum, Distance& out) {
  if constexpr (std::is_same_v<Distance, float>) {
    if (!std::isfinite(sum)) return false;
    out = sum;
  } else {
    if (sum > detail::distance_limits<Distance>::max_finite) return false;
    out = static_cast<Distance>(sum);
  }
  return true;
}

template <class Distance>
class phast_gpu final : public detail::phast_engine, private engine_context {
  using weight = typename distance_ops<Distance>::weight;
  using hierarchy = detail::contraction_hierarchy<weight>;
  using sum = typename detail::upward_distances<weight>::sum;

 public:
  phast_gpu(const csr_view& g, const hierarchy& ch, const options& opts)
      : engine_context(static_cast<cudaStream_t>(opts.stream), host_word_count * sizeof(std::uint32_t)),
        g_(g),
        ch_(ch),
        n_(ch.num_vertices),
        levels_(ch.num_levels()),
        upward_(ch),
        threads_(opts.threads) {
    max_blocks_ = multiprocessors_ * (2048 / (batch_warps_per_block * group_lanes));
    int optin = 0;
    DS_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_));
    max_block_shared_ = static_cast<std::size_t>(optin) - sizeof(std::uint32_t) * 2 * pair_warps_per_block;
    const std::size_t arcs = ch.down_sources.size();
    reserve(ch.level_offsets.size() * 4 + ch.down_offsets.size() * sizeof(edge_t) + arcs * (4 + sizeof(weight)) +
                std::size_t{n_} * (3 * sizeof(Distance) + 4) + pair_words<Distance>(n_) * 4 + (1u << 20),
            "the contraction hierarchy (" + std::to_string(n_) + " vertices, " + std::to_string(arcs) +
                " down arcs) and the sweep's arrays");
    level_offsets_ = device_array<vertex_t>(ch.level_offsets.size(), "the level offsets");
    down_offsets_ = device_array<edge_t>(ch.down_offsets.size(), "the down in-arc offsets");
    down_sources_ = device_array<vertex_t>(arcs, "the down in-arcs' tails");
    down_weights_ = device_array<weight>(arcs, "the down in-arcs' weights");
    position_of_ = device_array<vertex_t>(n_, "the sweep positions");
    upload(level_offsets_, ch.level_offsets, stream_);
    upload(down_offsets_, ch.down_offsets, stream_);
    upload(down_sources_, ch.down_sources, stream_);
    upload(down_weights_, ch.down_weights, stream_);
    upload(position_of_, ch.position_of, stream_);
    dist_ = device_array<Distance>(n_, "the distances");
    upward_dist_ = device_array<Distance>(n_, "the upward distances");
    by_id_ = device_array<Distance>(n_, "the distances in caller ids");
    pairs_ = device_array<std::uint32_t>(pair_words<Distance>(n_), "the upward search's pairs");
    overflowed_ = device_array<std::uint32_t>(1, "the overflow flag");
    if (n_) {
      fill_infinity<<<(n_ + 255) / 256, 256, 0, stream_>>>(upward_dist_.get(), n_);
      DS_CUDA_LAUNCH("fill_infinity");
    }
    DS_CUDA(cudaMemsetAsync(overflowed_.get(), 0, sizeof(std::uint32_t), stream_));
    host_pairs_ = static_cast<std::uint32_t*>(pinned_pairs_.get(pair_words<Distance>(n_) * 4));
    top_levels_ = 0;
    while (top_levels_ < levels_ && level_size(top_levels_) <= block_level_limit) ++top_levels_;
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

  std::string device_name() const override { return name_; }
  std::string method() const override { return "phast"; }

  std::size_t free_bytes() const override { return free_bytes_with(batch_allocated_); }

  bool pairs(const vertex_t* from, const vertex_t* to, std::size_t count, void* out_void,
             std::vector<std::size_t>& left) override {
    if (!pair_query_usable()) return false;
    if (count == 0) return true;
    Distance* out = static_cast<Distance*>(out_void);
    if (!up_offsets_.get()) upload_up_arcs();
    const pair_hierarchy<Distance> h{{up_offsets_.get(), up_targets_.get(), up_weights_.get()}, view(),
                                     level_offsets_.get(), levels_, position_of_.get()};
    const std::size_t chunk = std::min(count, pair_chunk);
    if (pair_from_.size() < chunk) {
      pair_from_ = {}, pair_to_ = {}, pair_out_ = {}, pair_jobs_[0] = {}, pair_jobs_[1] = {};
      reserve(chunk * 5 * 4 + 8, "the pairs' ends, distances and lists (" + std::to_string(chunk) + " pairs)");
      pair_from_ = device_array<vertex_t>(chunk, "the pairs' sources");
      pair_to_ = device_array<vertex_t>(chunk, "the pairs' targets");
      pair_out_ = device_array<Distance>(chunk, "the pairs' distances");
      for (auto& jobs : pair_jobs_) jobs = device_array<std::uint32_t>(chunk + 1, "the pairs left by a pass");
    }
    std::vector<std::uint32_t> last;
    for (std::size_t first = 0, m = 0; first < count; first += m) {
      // The engine's first pairs are a probe of pair_probe: its first pass tells whether later
      // pairs should start at a larger capacity.
      m = std::min(count - first, start_decided_ ? chunk : pair_probe);
      DS_CUDA(cudaMemcpyAsync(pair_from_.get(), from + first, m * sizeof(vertex_t), cudaMemcpyHostToDevice, stream_));
      DS_CUDA(cudaMemcpyAsync(pair_to_.get(), to + first, m * sizeof(vertex_t), cudaMemcpyHostToDevice, stream_));
      // The first pass takes every pair; each later one the pairs the one before left (its list:
      // the count, then indices).
      std::uint32_t jobs = static_cast<std::uint32_t>(m);
      const std::size_t start = start_pass_;
      for (std::size_t pass = start; pass < std::size(pair_capacity_log2) && jobs > 0; ++pass) {
        const std::uint32_t capacity_log2 = pair_capacity_log2[pass];
        std::uint32_t* list = pair_jobs_[pass % 2].get();
        const std::uint32_t* previous = pass > start ? pair_jobs_[(pass + 1) % 2].get() + 1 : nullptr;
        const pair_launch& launch = pair_launch_for(pass);
        const unsigned warps = launch.warps;
        const unsigned blocks = static_cast<unsigned>(
            std::min<std::size_t>(std::size_t{launch.per_sm} * multiprocessors_, (jobs + warps - 1) / warps));
        DS_CUDA(cudaMemsetAsync(list, 0, sizeof(std::uint32_t), stream_));
        pair_queries<Distance><<<blocks, warps * 32, launch.bytes, stream_>>>(
            h, pair_from_.get(), pair_to_.get(), previous, jobs, capacity_log2, pair_out_.get(), list);
        DS_CUDA_LAUNCH("pair_queries");
        DS_CUDA(cudaMemcpyAsync(host_words_, list, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream_));
        DS_CUDA(cudaStreamSynchronize(stream_));
        const std::uint32_t given = jobs;
        jobs = host_words_[0];
        if (!start_decided_ && given >= pair_probe_least) {
          // Most pairs passing the first capacity: later pairs start at the next one.
          if (2 * std::uint64_t{jobs} > given && start_pass_ + 1 < std::size(pair_capacity_log2)) ++start_pass_;
          start_decided_ = true;
        }
        if (jobs > 0) {
          last.resize(jobs);
          DS_CUDA(cudaMemcpyAsync(last.data(), list + 1, jobs * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream_));
        }
      }
      DS_CUDA(cudaMemcpyAsync(out + first, pair_out_.get(), m * sizeof(Distance), cudaMemcpyDeviceToHost, stream_));
      DS_CUDA(cudaStreamSynchronize(stream_));
      for (std::uint32_t k = 0; k < jobs; ++k) left.push_back(first + last[k]);
    }
    return true;
  }

  // Two batch buffers with their seed bits (the pipeline's; a call of one batch allocates one) and
  // the output block.
  std::size_t batch_bytes(std::uint32_t k, std::size_t columns) const override {
    return 2 * buffer_bytes(k) + std::size_t{k} * columns * sizeof(Distance);
  }

  statistics run_into(vertex_t source, const options& opts, const output_buffers& out) override {
    const auto start = std::chrono::steady_clock::now();
    const detail::upward_distances<weight>& up = upward_.run(source);
    bool too_long = false;
    const std::uint32_t count = pack_pairs(up, too_long);
    const double search_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    DS_CUDA(cudaEventRecord(start_, stream_));
    DS_CUDA(cudaMemcpyAsync(pairs_.get(), host_pairs_, upward_distances_word<Distance>(count) * 4 + count * sizeof(Distance),
                            cudaMemcpyHostToDevice, stream_));
    const hierarchy_arcs<Distance> arcs = view();
    if (n_) {
      sweep_top_levels<<<1, block_sweep_threads, 0, stream_>>>(arcs, level_offsets_.get(), top_levels_, pairs_.get(),
                                                               dist_.get(), upward_dist_.get(), overflowed_.get());
      DS_CUDA_LAUNCH("sweep_top_levels");
    }
    for (std::uint32_t level = top_levels_; level < levels_; ++level) {
      const vertex_t first = ch_.level_offsets[level], end = ch_.level_offsets[level + 1];
      sweep_level<<<(end - first + sweep_threads - 1) / sweep_threads, sweep_threads, 0, stream_>>>(
          arcs, first, end, dist_.get(), upward_dist_.get(), overflowed_.get());
      DS_CUDA_LAUNCH("sweep_level");
    }
    DS_CUDA(cudaEventRecord(stop_, stream_));

    // The caller's order (out[v] = d[position_of[v]]), past the cutoff unreachable: straight into
    // device buffers, through by_id_ into host ones (and for the predecessor pass, which reads
    // distances in caller ids on the device).
    const bool device_out = out.space == memory_space::device;
    Distance* by_id = device_out ? distances_of<Distance>(out) : by_id_.get();
    if (n_) {
      gather_rows<<<gather_tiles(n_, 1), gather_threads(), 0, stream_>>>(
          dist_.get(), 1, position_of_.get(), n_, 1, cutoff_distance<Distance>(opts.cutoff), by_id);
      DS_CUDA_LAUNCH("gather_rows");
    }
    DS_CUDA(cudaMemcpyAsync(host_words_, overflowed_.get(), sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream_));
    DS_CUDA(cudaMemsetAsync(overflowed_.get(), 0, sizeof(std::uint32_t), stream_));
    if (!device_out && n_)
      DS_CUDA(cudaMemcpyAsync(distances_of<Distance>(out), by_id, n_ * sizeof(Distance), cudaMemcpyDeviceToHost, stream_));
    const float sweep_ms = elapsed_ms();
    DS_CUDA(cudaStreamSynchronize(stream_));
    if ((too_long || host_words_[0]) && !detail::cutoff_below_overflow<Distance>(opts.cutoff))
      check_overflow(source, device_out ? nullptr : distances_of<Distance>(out), by_id);
    if (out.predecessors) tree(source, by_id, out.predecessors);

    statistics st;
    st.strategy = "phast";
    st.device = name_;
    st.driver = "phast sweep: " + std::to_string(top_levels_) + " top levels in one block, " +
                std::to_string(levels_ - top_levels_) + " level launches; upward search " +
                std::to_string(count) + " vertices";
    st.milliseconds = search_ms + sweep_ms;
    st.iterations = levels_;
    st.edges_relaxed = ch_.down_sources.size();
    st.vertices_processed = n_;
    st.max_queue = count;
    return st;
  }

  // Batches in a pipeline over two streams and two batch buffers: the engine's stream sweeps batch
  // b while the search stream gathers batch b - 1's rows, fills the other buffer and runs batch
  // b + 1's upward searches into it (with the host's searches and their scatter), so a batch costs
  // about the larger of its sweep and the rest rather than their sum (bench/results/phast.md, "PHAST
  // batches in a pipeline"). Every target in the caller's device rows (rows_given): gathered
  // straight into them.
  void run(const std::vector<vertex_t>& sources, const std::vector<vertex_t>& targets, std::uint32_t k,
           const options& opts, const many_source_options& mopts, const block_consumer& consume,
           void* rows_given = nullptr) override {
    if (sources.empty()) return;
    const std::uint32_t columns = targets.empty() ? n_ : static_cast<std::uint32_t>(targets.size());
    allocate_batch(k, columns);
    Distance* const given = targets.empty() && mopts.device_blocks ? static_cast<Distance*>(rows_given) : nullptr;
    // The targets' sweep positions take the place of the targets in gather_rows. Their arrays, and
    // the upward searches' pair lists, are kept from call to call: a caller solving block after
    // block (a Dask worker) allocates nothing per block on the host.
    target_positions_.resize(columns);
    for (std::uint32_t t = 0; t < columns; ++t) target_positions_[t] = ch_.position_of[targets.empty() ? t : targets[t]];
    if (d_targets_.size() < columns) {
      d_targets_ = {};
      d_targets_ = device_array<vertex_t>(columns, "the targets' positions");
    }
    if (columns) DS_CUDA(cudaMemcpyAsync(d_targets_.get(), target_positions_.data(), columns * sizeof(vertex_t),
                                         cudaMemcpyHostToDevice, stream_));
    // Each swept batch's rows, gathered on the search stream (into the caller's rows when given)
    // and delivered.
    const Distance cutoff = cutoff_distance<Distance>(opts.cutoff);
    pipeline(sources, opts, [&](std::size_t first, std::uint32_t rows, int buffer, double ms) {
      Distance* const block = given ? given + first * columns : out_.get();
      if (columns) {
        gather_rows<<<gather_tiles(columns, rows), gather_threads(), 0, search_stream_>>>(
            batch_dist_[buffer].get(), k_, d_targets_.get(), columns, rows, cutoff, block);
        DS_CUDA_LAUNCH("gather_rows");
      }
      rows_out_.deliver(detail::batch_block(sources, first, rows, columns, detail::type_of<Distance>(), ms, levels_),
                        block, mopts.device_blocks, search_stream_, consume);
    });
  }

  // The same pipeline, each swept batch reduced where it lies on the search stream in place of its
  // gather (summarize_chunks and summarize_columns, batch_rows.cuh), the call's summaries copied
  // to the host at its end.
  bool summarize_rows(const std::vector<vertex_t>& sources, std::uint32_t k, const options& opts,
                      row_summaries& out) override {
    if (sources.empty()) return true;
    allocate_batch(k, 0);
    const std::uint32_t tiles = (k_ + summary_threads - 1) / summary_threads;
    const std::uint32_t chunks = static_cast<std::uint32_t>(
        std::clamp<std::size_t>(2 * std::size_t{max_blocks_} / tiles, 1, std::max<vertex_t>(n_, 1)));
    const std::size_t span = (std::size_t{n_} + chunks - 1) / chunks;
    allocate_summaries(std::size_t{chunks} * k_, sources.size());
    DS_CUDA(cudaMemsetAsync(overflow_row_.get(), 0xFF, sizeof(std::uint32_t), stream_));
    const Distance cutoff = cutoff_distance<Distance>(opts.cutoff);
    pipeline(sources, opts, [&](std::size_t first, std::uint32_t rows, int buffer, double) {
      summarize_chunks<<<dim3(chunks, tiles), summary_threads, 0, search_stream_>>>(
          batch_dist_[buffer].get(), k_, n_, span, rows, cutoff, first, partials_.reached.get(), partials_.sums.get(),
          partials_.farthest.get(), overflow_row_.get());
      DS_CUDA_LAUNCH("summarize_chunks");
      summarize_columns<<<(rows + summary_threads - 1) / summary_threads, summary_threads, 0, search_stream_>>>(
          chunks, k_, rows, partials_.reached.get(), partials_.sums.get(), partials_.farthest.get(), first,
          summaries_.reached.get(), summaries_.sums.get(), summaries_.farthest.get(), overflow_row_.get());
      DS_CUDA_LAUNCH("summarize_columns");
    });
    std::uint32_t overflow_row = 0;
    const std::size_t count = sources.size();
    DS_CUDA(cudaMemcpy(&overflow_row, overflow_row_.get(), sizeof overflow_row, cudaMemcpyDeviceToHost));
    if (overflow_row != 0xFFFFFFFFu)
      throw std::overflow_error("the sum of the distances from vertex " + std::to_string(sources[overflow_row]) +
                                " passes 2^64 - 1");
    DS_CUDA(cudaMemcpy(out.reached.data(), summaries_.reached.get(), count * 8, cudaMemcpyDeviceToHost));
    if constexpr (std::is_integral_v<Distance>) {
      DS_CUDA(cudaMemcpy(out.int_sums.data(), summaries_.sums.get(), count * 8, cudaMemcpyDeviceToHost));
      DS_CUDA(cudaMemcpy(out.int_farthest.data(), summaries_.farthest.get(), count * 8, cudaMemcpyDeviceToHost));
    } else {
      DS_CUDA(cudaMemcpy(out.real_sums.data(), summaries_.sums.get(), count * 8, cudaMemcpyDeviceToHost));
      DS_CUDA(cudaMemcpy(out.real_farthest.data(), summaries_.farthest.get(), count * 8, cudaMemcpyDeviceToHost));
    }
    return true;
  }

 private:
  vertex_t level_size(std::uint32_t level) const { return ch_.level_offsets[level + 1] - ch_.level_offsets[level]; }

  // The batches of sources in the pipeline (run): finish(first, rows, buffer, milliseconds)
  // enqueues the output of each swept batch on the search stream; its milliseconds are the wall
  // clock since the batch before it was finished (the first: since the call began), so the
  // batches' figures add up to the call's.
  template <class Finish>
  void pipeline(const std::vector<vertex_t>& sources, const options& opts, const Finish& finish) {
    const std::size_t batches = (sources.size() + k_ - 1) / k_;
    if (batches > 1) allocate_second_buffer();
    if (!pool_) pool_ = std::make_unique<detail::thread_pool>(threads_);
    while (searches_.size() < pool_->size()) searches_.push_back(std::make_unique<detail::upward_search<weight>>(ch_));
    member_cells_.resize(pool_->size());
    member_distances_.resize(pool_->size());
    const bool upward_on_device = pair_query_usable();
    if (upward_on_device && !up_offsets_.get()) upload_up_arcs();
    // The search stream starts after everything on the engine's stream (the uploads above, an
    // earlier call's sweeps).
    DS_CUDA(cudaEventRecord(begun_, stream_));
    DS_CUDA(cudaStreamWaitEvent(search_stream_, begun_, 0));
    batch_clock_ = std::chrono::steady_clock::now();
    prepare_batch(sources, 0, upward_on_device);
    for (std::size_t b = 0; b < batches; ++b) {
      sweep_batch(b % 2);
      if (b > 0) finish_batch(sources, (b - 1) * k_, opts, finish);
      if (b + 1 < batches) prepare_batch(sources, (b + 1) * k_, upward_on_device);
    }
    finish_batch(sources, (batches - 1) * k_, opts, finish);
    DS_CUDA(cudaStreamSynchronize(search_stream_));
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

  // On the search stream, into the buffer of the batch starting at sources[first]: its seed bits
  // cleared, the batch's upward searches (on the device where the pair query's tables serve, a
  // warp a source; the sources it hands back and all others on the host threads, their pairs
  // copied up and scattered); then ready_ of the buffer.
  void prepare_batch(const std::vector<vertex_t>& sources, std::size_t first, bool upward_on_device) {
    const int buffer = static_cast<int>((first / k_) % 2);
    Distance* const dist = batch_dist_[buffer].get();
    const std::uint32_t rows = static_cast<std::uint32_t>(std::min<std::size_t>(k_, sources.size() - first));
    std::uint32_t* const seeds = seeds_[buffer].get();
    DS_CUDA(cudaMemsetAsync(seeds, 0, seed_words(k_) * sizeof(std::uint32_t), search_stream_));
    host_rows_.clear();
    if (upward_on_device)
      upward_on_device_batch(sources.data() + first, rows, dist, seeds, host_rows_);
    else
      for (std::uint32_t j = 0; j < rows; ++j) host_rows_.push_back(j);
    DS_CUDA(cudaEventSynchronize(pairs_copied_));  // the last batch's pairs, pinned and on the device, scattered
    const std::size_t count = batch_pairs(sources.data() + first, host_rows_, too_long_[buffer]);
    if (count) {
      DS_CUDA(cudaMemcpyAsync(batch_cells_.get(), host_cells_, count * sizeof(std::uint64_t), cudaMemcpyHostToDevice,
                              search_stream_));
      DS_CUDA(cudaMemcpyAsync(batch_up_.get(), host_up_, count * sizeof(Distance), cudaMemcpyHostToDevice, search_stream_));
      scatter_batch<<<std::min<std::size_t>(max_blocks_, (count + 255) / 256), 256, 0, search_stream_>>>(
          batch_cells_.get(), batch_up_.get(), count, dist, seeds);
      DS_CUDA_LAUNCH("scatter_batch");
      DS_CUDA(cudaEventRecord(pairs_copied_, search_stream_));
    }
    DS_CUDA(cudaEventRecord(ready_[buffer], search_stream_));
  }

  // On the engine's stream, once the buffer is ready: the levels in order, a launch each; then the
  // overflow flag into the buffer's host word and swept_ of the buffer.
  void sweep_batch(int buffer) {
    DS_CUDA(cudaStreamWaitEvent(stream_, ready_[buffer], 0));
    const hierarchy_arcs<Distance> arcs = view();
    const unsigned threads = batch_warps_per_block * group_lanes;
    const std::uint32_t groups = k_ / group_lanes;
    for (std::uint32_t level = 0; level < levels_; ++level) {
      const vertex_t lo = ch_.level_offsets[level], hi = ch_.level_offsets[level + 1];
      const std::uint64_t warps = std::uint64_t{hi - lo} * ((groups + sweep_groups - 1) / sweep_groups);
      const unsigned blocks = static_cast<unsigned>(
          std::min<std::uint64_t>(max_blocks_, (warps + batch_warps_per_block - 1) / batch_warps_per_block));
      if (blocks == 0) continue;
      sweep_level_batch<Distance, sweep_groups>
          <<<blocks, threads, 0, stream_>>>(arcs, lo, hi, k_, batch_dist_[buffer].get(), seeds_[buffer].get(),
                                            overflowed_.get());
      DS_CUDA_LAUNCH("sweep_level_batch");
    }
    DS_CUDA(cudaMemcpyAsync(host_words_ + swept_flag_word + buffer, overflowed_.get(), sizeof(std::uint32_t),
                            cudaMemcpyDeviceToHost, stream_));
    DS_CUDA(cudaMemsetAsync(overflowed_.get(), 0, sizeof(std::uint32_t), stream_));
    DS_CUDA(cudaEventRecord(swept_[buffer], stream_));
  }

  // The batch starting at sources[first], once swept: the overflow check where a sum was dropped,
  // then its output (finish, as pipeline() describes).
  template <class Finish>
  void finish_batch(const std::vector<vertex_t>& sources, std::size_t first, const options& opts, const Finish& finish) {
    const int buffer = static_cast<int>((first / k_) % 2);
    const std::uint32_t rows = static_cast<std::uint32_t>(std::min<std::size_t>(k_, sources.size() - first));
    DS_CUDA(cudaEventSynchronize(swept_[buffer]));
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - batch_clock_).count();
    batch_clock_ = now;
    if ((too_long_[buffer] || host_words_[swept_flag_word + buffer]) && !detail::cutoff_below_overflow<Distance>(opts.cutoff))
      check_batch_overflow(sources.data() + first, rows, batch_dist_[buffer].get());
    finish(first, rows, buffer, ms);
  }

  hierarchy_arcs<Distance> view() const { return {down_offsets_.get(), down_sources_.get(), down_weights_.get()}; }

  // A pair pass's launch at capacity pair_capacity_log2[pass]: warps a block (two where two
  // tables fit a block's shared memory), its shared bytes, blocks an SM. Planned on first use for
  // every capacity: the kernel's shared-memory attribute is the largest (the same for every engine
  // of this distance type on the device, so no engine's setting shrinks another's).
  struct pair_launch {
    unsigned warps = 0;
    std::size_t bytes = 0;
    unsigned per_sm = 0;
  };
  using pair_plan = pair_launch[std::size(pair_capacity_log2)];
  const pair_launch& pair_launch_for(std::size_t pass) { return launch_for(pair_queries<Distance>, pair_launches_, pass); }
  const pair_launch& upward_launch_for(std::size_t pass) {
    return launch_for(batch_upward<Distance>, upward_launches_, pass);
  }
  // The plan of `kernel`, one of the two that take a warp's table a pair_warp_bytes (pair_query.cuh).
  template <class Kernel>
  const pair_launch& launch_for(Kernel kernel, pair_plan& plan, std::size_t pass) {
    if (!plan[0].warps) {
      std::size_t most = 0;
      for (std::size_t c = 0; c < std::size(pair_capacity_log2); ++c) {
        pair_launch& launch = plan[c];
        const std::size_t warp_bytes = pair_warp_bytes<Distance>(1u << pair_capacity_log2[c]);
        launch.warps = warp_bytes * pair_warps_per_block <= max_block_shared_ ? pair_warps_per_block : 1;
        launch.bytes = warp_bytes * launch.warps;
        most = std::max(most, launch.bytes);
      }
      DS_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(most)));
      for (pair_launch& launch : plan) {
        int per_sm = 0;
        DS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, launch.warps * 32, launch.bytes));
        launch.per_sm = static_cast<unsigned>(std::max(per_sm, 1));
      }
    }
    return plan[pass];
  }

  // The up arcs, which the pair queries and the batches' upward searches on the device read (a
  // single source's upward search runs on the host).
  void upload_up_arcs() {
    const std::size_t arcs = ch_.up_targets.size();
    reserve(ch_.up_offsets.size() * sizeof(edge_t) + arcs * (4 + sizeof(weight)),
            "the hierarchy's up arcs (" + std::to_string(arcs) + ")");
    up_offsets_ = device_array<edge_t>(ch_.up_offsets.size(), "the up arc offsets");
    up_targets_ = device_array<vertex_t>(arcs, "the up arcs' heads");
    up_weights_ = device_array<weight>(arcs, "the up arcs' weights");
    upload(up_offsets_, ch_.up_offsets, stream_);
    upload(up_targets_, ch_.up_targets, stream_);
    upload(up_weights_, ch_.up_weights, stream_);
  }

  // The upward search's pairs into the pinned words (count, positions, distances); returns the
  // count. A distance that does not fit is left out and sets too_long.
  std::uint32_t pack_pairs(const detail::upward_distances<weight>& up, bool& too_long) {
    std::uint32_t count = 0;
    const std::size_t settled = up.positions.size();
    Distance* distances = reinterpret_cast<Distance*>(host_pairs_ + upward_distances_word<Distance>(settled));
    for (std::size_t i = 0; i < settled; ++i) {
      Distance d;
      if (!fits(up.distances[i], d)) {
        too_long = true;
        continue;
      }
      host_pairs_[1 + count] = up.positions[i];
      distances[count++] = d;
    }
    // The distances start after the count positions (the kernel finds them there).
    if (count < settled)
      std::memmove(host_pairs_ + upward_distances_word<Distance>(count), distances, count * sizeof(Distance));
    host_pairs_[0] = count;
    return count;
  }

  // Whether the hierarchy takes the pair query's kernels: no core (its arcs go both ways), levels
  // that fit the sort keys, and the largest table within a block's shared memory.
  bool pair_query_usable() const {
    return ch_.core_size == 0 && levels_ < pair_max_levels &&
           pair_warp_bytes<Distance>(1u << pair_capacity_log2[std::size(pair_capacity_log2) - 1]) <= max_block_shared_;
  }

  // The upward searches of a batch's rows on the device (batch_upward), into the batch's cells,
  // each capacity in turn taking the rows the one before handed back; the rows the last hands back
  // go to `left` (for the host threads).
  void upward_on_device_batch(const vertex_t* sources, std::uint32_t rows, Distance* dist, std::uint32_t* seeds,
                              std::vector<std::uint32_t>& left) {
    if (batch_sources_.size() < k_) {
      batch_sources_ = {}, batch_jobs_[0] = {}, batch_jobs_[1] = {};
      reserve(std::size_t{k_} * 3 * 4 + 8, "a batch's sources and the rows its upward passes hand back");
      batch_sources_ = device_array<vertex_t>(k_, "a batch's sources");
      for (auto& jobs : batch_jobs_) jobs = device_array<std::uint32_t>(std::size_t{k_} + 1, "the rows a pass hands back");
    }
    DS_CUDA(cudaMemcpyAsync(batch_sources_.get(), sources, rows * sizeof(vertex_t), cudaMemcpyHostToDevice, search_stream_));
    const pair_hierarchy<Distance> h{{up_offsets_.get(), up_targets_.get(), up_weights_.get()}, view(),
                                     level_offsets_.get(), levels_, position_of_.get()};
    std::uint32_t jobs = rows;
    for (std::size_t pass = 0; pass < std::size(pair_capacity_log2) && jobs > 0; ++pass) {
      std::uint32_t* list = batch_jobs_[pass % 2].get();
      const std::uint32_t* previous = pass > 0 ? batch_jobs_[(pass + 1) % 2].get() + 1 : nullptr;
      const pair_launch& launch = upward_launch_for(pass);
      const unsigned blocks = static_cast<unsigned>(
          std::min<std::size_t>(std::size_t{launch.per_sm} * multiprocessors_, (jobs + launch.warps - 1) / launch.warps));
      DS_CUDA(cudaMemsetAsync(list, 0, sizeof(std::uint32_t), search_stream_));
      batch_upward<Distance><<<blocks, launch.warps * 32, launch.bytes, search_stream_>>>(
          h, batch_sources_.get(), previous, jobs, pair_capacity_log2[pass], k_, dist, seeds, list);
      DS_CUDA_LAUNCH("batch_upward");
      DS_CUDA(cudaMemcpyAsync(host_words_ + pass_count_word, list, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, search_stream_));
      DS_CUDA(cudaStreamSynchronize(search_stream_));
      jobs = host_words_[pass_count_word];
      if (jobs > 0 && pass + 1 == std::size(pair_capacity_log2)) {
        left.resize(jobs);
        DS_CUDA(cudaMemcpyAsync(left.data(), list + 1, jobs * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, search_stream_));
        DS_CUDA(cudaStreamSynchronize(search_stream_));
      }
    }
  }

  // The upward searches of a batch's rows `rows` on the host threads; their (cell, distance) pairs
  // into the pinned buffers. Returns the pair count.
  std::size_t batch_pairs(const vertex_t* sources, const std::vector<std::uint32_t>& rows, bool& too_long) {
    too_long = false;
    if (rows.empty()) return 0;
    const unsigned members = pool_->size();
    std::vector<std::vector<std::uint64_t>>& cells = member_cells_;
    std::vector<std::vector<Distance>>& distances = member_distances_;
    for (unsigned t = 0; t < members; ++t) cells[t].clear(), distances[t].clear();  // capacity kept
    std::atomic<std::uint32_t> next{0};
    std::atomic<bool> dropped{false};
    const std::uint32_t members_rows = static_cast<std::uint32_t>(rows.size());
    pool_->run([&](unsigned t) {
      detail::upward_search<weight>& search = *searches_[t];
      for (std::uint32_t i; (i = next.fetch_add(1)) < members_rows;) {
        const std::uint32_t j = rows[i];
        const detail::upward_distances<weight>& up = search.run(sources[j]);
        for (std::size_t i = 0; i < up.positions.size(); ++i) {
          Distance d;
          if (!fits(up.distances[i], d)) {
            dropped = true;
            continue;
          }
          cells[t].push_back(std::uint64_t{up.positions[i]} * k_ + j);
          distances[t].push_back(d);
        }
      }
    });
    too_long = dropped;
    std::size_t count = 0;
    for (const auto& c : cells) count += c.size();
    if (count > pair_capacity_) {
      reserve(count * (sizeof(std::uint64_t) + sizeof(Distance)), "the upward searches of a batch (" +
                                                                      std::to_string(count) + " vertices)");
      batch_cells_ = {};
      batch_up_ = {};
      batch_cells_ = device_array<std::uint64_t>(count, "the upward cells of a batch");
      batch_up_ = device_array<Distance>(count, "the upward distances of a batch");
      pair_capacity_ = count;
    }
    auto* buffer = static_cast<unsigned char*>(pinned_batch_.get(count * (sizeof(std::uint64_t) + sizeof(Distance))));
    host_cells_ = reinterpret_cast<std::uint64_t*>(buffer);
    host_up_ = reinterpret_cast<Distance*>(buffer + count * sizeof(std::uint64_t));
    std::size_t at = 0;
    for (unsigned t = 0; t < members; ++t) {
      std::copy(cells[t].begin(), cells[t].end(), host_cells_ + at);
      std::copy(distances[t].begin(), distances[t].end(), host_up_ + at);
      at += cells[t].size();
    }
    return count;
  }

  void allocate_batch(std::uint32_t k, std::uint32_t columns) {
    if (k == k_ && columns == columns_) return;
    batch_dist_[0] = {};
    batch_dist_[1] = {};
    seeds_[0] = {};
    seeds_[1] = {};
    out_ = {};
    batch_allocated_ = 0;
    k_ = columns_ = 0;
    const std::size_t bytes = buffer_bytes(k) + std::size_t{columns} * k * sizeof(Distance);
    reserve(bytes, "a PHAST batch of " + std::to_string(k) + " sources with " + std::to_string(columns) +
                       " targets (choose a smaller batch size)");
    batch_dist_[0] = device_array<Distance>(std::size_t{n_} * k, "the batch's distances");
    seeds_[0] = device_array<std::uint32_t>(seed_words(k), "the batch's seed bits");
    out_ = device_array<Distance>(std::size_t{k} * columns, "the output block");
    batch_allocated_ = bytes;
    k_ = k;
    columns_ = columns;
  }

  // Row summaries: the chunks' partials (entries of a batch) and the call's (one a source).
  void allocate_summaries(std::size_t entries, std::size_t sources) {
    const auto grow = [&](summary_arrays& a, std::size_t size, const char* what) {
      if (a.reached.size() >= size) return;
      a = {};
      reserve(size * 24, std::string("the row summaries of ") + what + " (" + std::to_string(size) + " entries)");
      a.reached = device_array<std::uint64_t>(size, "the reached counts");
      a.sums = device_array<summary_value<Distance>>(size, "the distance sums");
      a.farthest = device_array<summary_value<Distance>>(size, "the farthest distances");
    };
    grow(partials_, entries, "a batch's chunks");
    grow(summaries_, sources, "the sources");
    if (!overflow_row_.get()) overflow_row_ = device_array<std::uint32_t>(1, "the row whose sum overflowed");
  }

  // The pipeline's second batch buffer, for calls of more than one batch.
  void allocate_second_buffer() {
    if (batch_dist_[1].get()) return;
    const std::size_t bytes = buffer_bytes(k_);
    reserve(bytes, "a second PHAST batch of " + std::to_string(k_) + " sources (choose a smaller batch size)");
    batch_dist_[1] = device_array<Distance>(std::size_t{n_} * k_, "the next batch's distances");
    seeds_[1] = device_array<std::uint32_t>(seed_words(k_), "the next batch's seed bits");
    batch_allocated_ += bytes;
  }

  // A batch buffer's seed words (a bit a cell, sweep_level_batch) and its bytes with them.
  std::size_t seed_words(std::uint32_t k) const { return std::size_t{n_} * (k / group_lanes); }
  std::size_t buffer_bytes(std::uint32_t k) const {
    return std::size_t{n_} * k * sizeof(Distance) + seed_words(k) * sizeof(std::uint32_t);
  }

  // Distances in caller ids (host ones when given, else copied from by_id on the device) against
  // the original graph: an arc from a reached to an unreached vertex is an overflow.
  void check_overflow(vertex_t source, const Distance* host, const Distance* by_id) {
    std::vector<Distance> dist(n_);
    if (host)
      std::copy(host, host + n_, dist.begin());
    else if (n_)
      DS_CUDA(cudaMemcpy(dist.data(), by_id, n_ * sizeof(Distance), cudaMemcpyDeviceToHost));
    const vertex_t bad = detail::overflowed_vertex(g_, dist.data(), distance_ops<Distance>::infinity);
    if (bad != graph::invalid_vertex) detail::throw_overflow(g_, source, bad, detail::type_of<Distance>());
  }

  void check_batch_overflow(const vertex_t* sources, std::uint32_t rows, const Distance* dist) {
    std::vector<Distance> block(std::size_t{n_} * k_), row(n_);
    DS_CUDA(cudaMemcpy(block.data(), dist, block.size() * sizeof(Distance), cudaMemcpyDeviceToHost));
    for (std::uint32_t j = 0; j < rows; ++j) {
      for (vertex_t v = 0; v < n_; ++v) row[v] = block[std::size_t{ch_.position_of[v]} * k_ + j];
      const vertex_t bad = detail::overflowed_vertex(g_, row.data(), distance_ops<Distance>::infinity);
      if (bad != graph::invalid_vertex) detail::throw_overflow(g_, sources[j], bad, detail::type_of<Distance>());
    }
  }

  // The shortest-path tree from the distances (predecessors.cuh) over the ORIGINAL graph, uploaded
  // on first use. Real distances summed through shortcuts need the tolerant rule.
  void tree(vertex_t source, Distance* by_id, vertex_t* predecessors) {
    if (!graph_) {
      graph_ = shared_device_csr<Distance>(g_, stream_);  // the one-source engine's copy, when it has one
      parent_ = device_array<vertex_t>(std::max<vertex_t>(n_, 1), "the predecessor tree");
      level_ = device_array<std::uint32_t>(std::max<vertex_t>(n_, 1), "the predecessor levels");
      word_ = device_array<std::uint32_t>(1, "a flag");
      if constexpr (sizeof(Distance) == 8)
        closest_ = device_array<distance_word<Distance>>(std::max<vertex_t>(n_, 1), "the predecessor distances");
    }
    distance_word<Distance>* closest;
    if constexpr (sizeof(Distance) == 8)
      closest = closest_.get();
    else
      closest = level_.get();  // 32-bit words: the levels' storage serves (predecessors.cuh)
    tree_arcs<Distance> v{};
    v.offsets = graph_->offsets();
    v.targets = graph_->targets();
    v.weights = graph_->weights();
    v.dist = by_id;
    v.num_vertices = n_;
    const unsigned blocks = std::min<unsigned>(max_blocks_, (n_ + 255) / 256 + 1);
    constexpr tightness rule = std::is_same_v<Distance, float> ? tightness::within_tolerance : tightness::exact;
    shortest_path_tree<rule>(v, source, parent_.get(), level_.get(), closest, word_.get(), host_words_ + 1, blocks, stream_,
                             predecessors);
    DS_CUDA(cudaStreamSynchronize(stream_));
  }

  csr_view g_;
  const hierarchy& ch_;
  vertex_t n_;
  std::uint32_t levels_, top_levels_ = 0;
  detail::upward_search<weight> upward_;
  unsigned threads_;
  unsigned max_blocks_ = 0;
  // The pinned words: the overflow flag (one source) or a pair pass's count, the tree's sweep flag,
  // the batches' overflow flags (one a buffer), a batch's upward pass count.
  static constexpr std::size_t swept_flag_word = 2, pass_count_word = 4, host_word_count = 5;
  std::uint32_t* const host_words_ = pinned<std::uint32_t>();
  device_array<vertex_t> level_offsets_, down_sources_, position_of_;
  device_array<edge_t> down_offsets_;
  device_array<weight> down_weights_;
  device_array<Distance> dist_, upward_dist_, by_id_;
  device_array<std::uint32_t> pairs_, overflowed_;
  pinned_buffer pinned_pairs_;
  std::uint32_t* host_pairs_ = nullptr;
  // Pairs.
  device_array<edge_t> up_offsets_;
  device_array<vertex_t> up_targets_, pair_from_, pair_to_;
  device_array<weight> up_weights_;
  device_array<Distance> pair_out_;
  device_array<std::uint32_t> pair_jobs_[2];
  std::size_t max_block_shared_ = 0;
  pair_plan pair_launches_, upward_launches_;
  std::size_t start_pass_ = 0;  // the capacity the pairs start at (pair_capacity_log2)
  bool start_decided_ = false;
  // Many sources.
  std::unique_ptr<detail::thread_pool> pool_;
  std::vector<std::unique_ptr<detail::upward_search<weight>>> searches_;
  device_array<Distance> batch_dist_[2], out_, batch_up_;  // the pipeline's two batch buffers
  device_array<std::uint32_t> seeds_[2];                    // and their seed bits (sweep_level_batch)
  cuda_stream search_stream_;                               // fills, upward searches, gathers
  cuda_event begun_{cudaEventDisableTiming}, pairs_copied_{cudaEventDisableTiming};
  cuda_event ready_[2] = {cuda_event(cudaEventDisableTiming), cuda_event(cudaEventDisableTiming)};
  cuda_event swept_[2] = {cuda_event(cudaEventDisableTiming), cuda_event(cudaEventDisableTiming)};
  bool too_long_[2] = {false, false};  // a buffer's upward distance too large to scatter
  std::chrono::steady_clock::time_point batch_clock_;
  device_array<vertex_t> batch_sources_;            // a batch's sources, for its upward searches on the device
  device_array<std::uint32_t> batch_jobs_[2];       // the rows an upward pass hands back (count, rows)
  std::vector<std::uint32_t> host_rows_;            // the rows whose upward searches run on the host
  device_array<std::uint64_t> batch_cells_;
  std::size_t pair_capacity_ = 0, batch_allocated_ = 0;
  pinned_buffer pinned_batch_;
  std::uint64_t* host_cells_ = nullptr;
  Distance* host_up_ = nullptr;
  std::vector<vertex_t> target_positions_;        // the last call's, kept for its allocation
  device_array<vertex_t> d_targets_;              // as many entries as the widest call's targets
  std::vector<std::vector<std::uint64_t>> member_cells_;  // per pool member: the batch's (cell, distance)
  std::vector<std::vector<Distance>> member_distances_;   // pairs of its upward searches
  std::uint32_t k_ = 0, columns_ = 0;
  row_delivery rows_out_;
  // Row summaries (summarize_rows).
  struct summary_arrays {
    device_array<std::uint64_t> reached;
    device_array<summary_value<Distance>> sums, farthest;
  };
  summary_arrays partials_, summaries_;
  device_array<std::uint32_t> overflow_row_;
  // The predecessor pass.
  std::shared_ptr<const device_csr<Distance>> graph_;  // the original graph, for the tree (uploaded on first use)
  device_array<vertex_t> parent_;
  device_array<std::uint32_t> level_, word_;
  device_array<distance_word<Distance>> closest_;  // 64-bit distances only (tree)
};

template <class Weight>
std::unique_ptr<detail::phast_engine> make(const csr_view& g, const detail::contraction_hierarchy<Weight>& ch,
                                           const options& opts) {
  std::string why_not;
  if (!detail::cuda_device_usable(&why_not)) throw std::runtime_error(why_not);
  if (g.space != memory_space::host) throw std::invalid_argument("PHAST builds its hierarchy from a graph in host memory");
  return std::make_unique<phast_gpu<Weight>>(g, ch, opts);
}

}  // namespace

}  // namespace deltasplit::sssp::gpu

namespace deltasplit::sssp::detail {

std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<std::uint32_t>& ch,
                                                const options& opts) {
  return gpu::make(g, ch, opts);
}

std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<std::uint64_t>& ch,
                                                const options& opts) {
  return gpu::make(g, ch, opts);
}

std::unique_ptr<phast_engine> make_phast_engine(const csr_view& g, const contraction_hierarchy<float>& ch,
                                                const options& opts) {
  return gpu::make(g, ch, opts);
}

}  // namespace deltasplit::sssp::detail
