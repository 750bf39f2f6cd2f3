// The block-resident loop as of 60fcde7, kept for one A/B run on the H200 (DELTASPLIT_BLOCK_LOOP=v0).
#pragma once

#include "sssp/gpu/step_kernels.cuh"

namespace deltasplit::sssp::gpu {

inline constexpr std::uint32_t seen_set_size_v0 = 2 * small_frontier_limit;
inline constexpr std::size_t small_frontier_shared_bytes_v0 =
    2 * small_frontier_limit * sizeof(vertex_t) + 2 * seen_set_size_v0 * sizeof(std::uint32_t);

struct block_sink_v0 {
  vertex_t* queue;               // shared memory, `limit` entries
  std::uint32_t* count;          // shared memory
  std::uint32_t limit;
  vertex_t* spill;               // global frontier buffer, entries limit .. capacity
  std::uint32_t spill_capacity;
  std::uint32_t* chunk_count;    // shared memory
  std::uint32_t* settled_count;  // shared memory
  std::uint32_t* seen;           // shared memory hash set of this iteration's next frontier
  std::uint32_t seen_mask;       // its size - 1 (a power of two)
  static constexpr std::uint32_t empty = 0xFFFFFFFFu;
  static constexpr unsigned max_probes = 32;
  // Small frontiers are latency-bound: one atomic round trip instead of a read and an atomic.
  static constexpr bool read_before_atomic = false;
  __device__ void push_next(vertex_t v, control* ctl) const {
    std::uint32_t i = atomicAdd(count, 1u);
    if (i < limit)
      queue[i] = v;
    else if (i < spill_capacity)
      spill[i] = v;
    else
      ctl->capacity_exceeded = 1;
  }
  // Linear probing; the set is emptied before it is used again (forget_frontier in step_kernels.cuh).
  // Past max_probes (a crowded set) the vertex falls back to the global stamp: a vertex's probe path
  // is the same every time, so it is always deduplicated the same way within an iteration.
  template <class Distance>
  __device__ void push_next_once(const loop_view<Distance>& s, vertex_t v, std::uint32_t stamp) const {
    std::uint32_t h = (v * 2654435761u) & seen_mask;
    for (unsigned probe = 0; probe < max_probes; ++probe) {
      const std::uint32_t prev = atomicCAS(&seen[h], empty, v);
      if (prev == empty) {
        push_next(v, s.ctl);
        return;
      }
      if (prev == v) return;
      h = (h + 1) & seen_mask;
    }
    if (atomicExch(&s.stamp[v], stamp) != stamp) push_next(v, s.ctl);
  }
  template <class Distance>
  __device__ void push_settled(const loop_view<Distance>& s, vertex_t v) const {
    std::uint32_t i = atomicAdd(settled_count, 1u);
    if (i < s.frontier_capacity)
      s.settled[i] = v;
    else
      s.ctl->capacity_exceeded = 1;
  }  template <class Distance>
  __device__ void file_later(const loop_view<Distance>& s, vertex_t v, std::uint32_t b, std::uint32_t window) const {
    file_past_current(s, v, b, window);
  }
};

template <class Distance>
struct block_gather_scratch_v0 {
  std::uint32_t inclusive[block_tile];  // inclusive prefix sums of the tile's degrees
  edge_t first_arc[block_tile];
  Distance du[block_tile];
  std::uint32_t warp_total[32];
};

template <unsigned Threads, arcs Part, class Distance, class Sink>
__device__ std::uint64_t relax_block_gather_v0(const loop_view<Distance>& s, const Sink& sink, const vertex_t* list,
                                            std::uint32_t count, const iteration_info& it,
                                            block_gather_scratch_v0<Distance>& scratch) {
  using ops = distance_ops<Distance>;
  using weight = typename ops::weight;
  constexpr std::uint32_t per_thread = block_tile / Threads, warps = Threads / 32;
  static_assert(block_tile % Threads == 0 && Threads % 32 == 0 && warps <= 32, "block gather shape");
  const std::uint32_t tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
  std::uint64_t relaxed = 0;
  for (std::uint32_t tile = 0; tile < count; tile += block_tile) {
    const std::uint32_t in_tile = count - tile < block_tile ? count - tile : block_tile;
    vertex_t v[per_thread];
    std::uint32_t degree[per_thread], tag[per_thread];
    std::uint32_t sum = 0;
#pragma unroll
    for (std::uint32_t j = 0; j < per_thread; ++j) {
      const std::uint32_t i = tid * per_thread + j;
      v[j] = 0;
      degree[j] = 0;
      tag[j] = it.current;
      if (i < in_tile) {
        v[j] = list[tile + i];
        edge_t begin, end;
        arc_range<Part>(s, v[j], begin, end);
        scratch.first_arc[i] = begin;
        scratch.du[i] = __ldcg(&s.dist[v[j]]);
        // Issued now, looked at after the arcs: the tag's round trip overlaps the relaxation.
        if (Part == arcs::light) tag[j] = atomicExch(&s.settled_tag[v[j]], it.current);
        const edge_t d = end - begin;
        if (d > block_hub_arcs)
          push_chunks(s, sink, v[j], d);
        else
          degree[j] = static_cast<std::uint32_t>(d);
      }
      sum += degree[j];
    }
    std::uint32_t inclusive = sum;
#pragma unroll
    for (std::uint32_t o = 1; o < 32; o <<= 1) {
      const std::uint32_t y = __shfl_up_sync(0xFFFFFFFFu, inclusive, o);
      if (lane >= o) inclusive += y;
    }
    if (lane == 31) scratch.warp_total[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
      std::uint32_t t = lane < warps ? scratch.warp_total[lane] : 0;
#pragma unroll
      for (std::uint32_t o = 1; o < 32; o <<= 1) {
        const std::uint32_t y = __shfl_up_sync(0xFFFFFFFFu, t, o);
        if (lane >= o) t += y;
      }
      scratch.warp_total[lane] = t;
    }
    __syncthreads();
    std::uint32_t running = inclusive - sum + (warp ? scratch.warp_total[warp - 1] : 0);
#pragma unroll
    for (std::uint32_t j = 0; j < per_thread; ++j) {
      const std::uint32_t i = tid * per_thread + j;
      running += degree[j];
      if (i < in_tile) scratch.inclusive[i] = running;
    }
    const std::uint32_t total = scratch.warp_total[warps - 1];
    __syncthreads();
    for (std::uint32_t first = 0; first < total; first += Threads * gather_batch) {
      vertex_t target[gather_batch];
      weight w[gather_batch];
      Distance du[gather_batch], nd[gather_batch] = {}, old[gather_batch] = {};
      bool live[gather_batch];
#pragma unroll
      for (std::uint32_t b = 0; b < gather_batch; ++b) {
        const std::uint32_t e = first + b * Threads + tid;
        live[b] = e < total;
        if (live[b]) {
          std::uint32_t lo = 0, hi = in_tile - 1;  // the owner of arc e: smallest lo with inclusive[lo] > e
          while (lo < hi) {
            const std::uint32_t mid = (lo + hi) >> 1;
            if (scratch.inclusive[mid] > e)
              hi = mid;
            else
              lo = mid + 1;
          }
          const std::uint32_t exclusive = lo ? scratch.inclusive[lo - 1] : 0;
          const edge_t arc = scratch.first_arc[lo] + (e - exclusive);
          du[b] = scratch.du[lo];
          target[b] = s.targets[arc];
          w[b] = s.weights[arc];
        }
      }
#pragma unroll
      for (std::uint32_t b = 0; b < gather_batch; ++b) {
        if (!live[b]) continue;
        if (!ops::extend(du[b], w[b], nd[b])) {
          s.ctl->overflowed = 1;
          live[b] = false;
          continue;
        }
        old[b] = ops::atomic_min(&s.dist[target[b]], nd[b]);
      }
#pragma unroll
      for (std::uint32_t b = 0; b < gather_batch; ++b)
        if (live[b] && nd[b] < old[b]) file_improved(s, sink, target[b], nd[b], it.current, it.window, it.stamp);
    }
    if (Part == arcs::light) {
#pragma unroll
      for (std::uint32_t j = 0; j < per_thread; ++j)
        if (tid * per_thread + j < in_tile && tag[j] != it.current) sink.push_settled(s, v[j]);
    }
    relaxed += total;
    __syncthreads();
  }
  return tid == 0 ? relaxed : 0;
}

__device__ inline void clear_set_v0(std::uint32_t* set) {
  for (std::uint32_t i = threadIdx.x; i < seen_set_size_v0; i += blockDim.x) set[i] = block_sink_v0::empty;
}

template <class Distance>
__global__ void __launch_bounds__(small_frontier_threads, 1) small_frontier_v0(loop_view<Distance> s) {
  extern __shared__ vertex_t shared_words[];  // queues [2][small_frontier_limit], seen sets [2][seen_set_size_v0]
  vertex_t* const queues = shared_words;
  std::uint32_t* const seen = shared_words + 2 * small_frontier_limit;
  __shared__ block_gather_scratch_v0<Distance> tile;
  __shared__ block_state b;
  control* ctl = s.ctl;
  const std::uint32_t warp = threadIdx.x >> 5;
  const std::uint32_t warps = small_frontier_threads / 32;
  if (threadIdx.x == 0) {
    const std::uint32_t cur = ctl->cur;
    b.count = ctl->frontier_count[cur];
    if (ctl->done || b.count > small_frontier_limit) b.count = 0;
    b.it = iteration_info{ctl->current, ctl->window, ctl->iteration + 1, 0};
    b.spill_buffer = cur ^ 1u;
    b.next_count = 0;
    b.chunk_count = 0;
    b.settled = ctl->settled_count;
    b.relaxed = 0;
    b.processed = 0;
    b.largest = 0;
    b.far_min_known = 0;
    b.staged = 0;
  }
  __syncthreads();
  if (b.count == 0) return;
  for (std::uint32_t i = threadIdx.x; i < b.count; i += blockDim.x) queues[i] = s.frontier[b.spill_buffer ^ 1u][i];
  clear_set_v0(seen);
  std::uint32_t q = 0, set = 0;
  for (;;) {
    __syncthreads();
    if (threadIdx.x == 0) decide(s, b);
    __syncthreads();
    if (b.phase == no_work) break;
    const block_sink_v0 sink{queues + (q ^ 1u) * small_frontier_limit,
                          &b.next_count,
                          small_frontier_limit,
                          s.frontier[b.spill_buffer],
                          s.frontier_capacity,
                          &b.chunk_count,
                          &b.settled,
                          seen + set * seen_set_size_v0,
                          seen_set_size_v0 - 1};
    const std::uint32_t n = b.items;
    const iteration_info it = b.it;
    if (b.phase == light_phase || b.phase == heavy_phase) {
      clear_set_v0(seen + (set ^ 1u) * seen_set_size_v0);  // for the next iteration, after the barriers below
      if (b.phase == light_phase) {
        count_relaxed(b, relax_block_gather_v0<small_frontier_threads, arcs::light>(
                             s, sink, queues + q * small_frontier_limit, n, it, tile));
        __syncthreads();
        const std::uint32_t chunks = clamp_count(b.chunk_count, s.chunk_capacity);
        for (std::uint32_t item = warp; item < chunks; item += warps)
          count_relaxed(b, relax_chunk<arcs::light>(s, sink, item, it));
      } else {
        count_relaxed(b, relax_block_gather_v0<small_frontier_threads, arcs::heavy>(s, sink, s.settled, n, it, tile));
        __syncthreads();
        const std::uint32_t chunks = clamp_count(b.chunk_count, s.chunk_capacity);
        for (std::uint32_t item = warp; item < chunks; item += warps)
          count_relaxed(b, relax_chunk<arcs::heavy>(s, sink, item, it));
      }
      set ^= 1u;
    } else if (b.phase == file_phase) {
      const window_key<Distance> key = key_of(s);
      const std::uint32_t rel = it.current - it.window;
      for_each_batched(s, s.to_file, n, [&](vertex_t v, Distance d) {
        file_by_key(s, sink, v, key.of_distance(d), it.current, rel);
      });
    } else if (b.phase == gather_phase) {
      for_each_batched(s, s.slot(b.picked_slot), n,
                       [&](vertex_t v, Distance d) { take_if_in_bucket(s, sink, v, d, it.current); });
    } else if (b.phase == min_phase) {
      std::uint32_t best = no_bucket;
      for_each_batched(s, s.beyond, n, [&](vertex_t, Distance d) {
        const std::uint32_t bucket = s.bucket(d);
        if (bucket > it.current && bucket < best) best = bucket;  // at or below it: settled, stale
      });
      best = __reduce_min_sync(0xFFFFFFFFu, best);
      if ((threadIdx.x & 31u) == 0 && best != no_bucket) atomicMin(&b.far_min, best);
    } else {
      for_each_batched(s, s.beyond, n, [&](vertex_t v, Distance d) {
        if (s.bucket(d) <= it.current)
          take_if_in_bucket(s, sink, v, d, it.current);
        else
          push(s.to_file, &ctl->to_file_count, s.queue_capacity, v, ctl);
      });
    }
    __syncthreads();
    q ^= 1u;
    if (threadIdx.x == 0) {
      if (b.phase == light_phase) {
        b.processed += b.items;
        if (b.items > b.largest) b.largest = b.items;
      }
      if (b.phase == light_phase || b.phase == heavy_phase) b.it.stamp += 1;
      if (b.phase == min_phase) b.far_min_known = 1;
      b.count = b.next_count;
      b.next_count = 0;
      b.chunk_count = 0;
    }
  }
  const std::uint32_t left = b.count;
  if (left > small_frontier_limit) {  // hand the frontier to the grid: shared part, then the spilled rest
    for (std::uint32_t i = threadIdx.x; i < small_frontier_limit; i += blockDim.x)
      s.frontier[b.spill_buffer][i] = queues[q * small_frontier_limit + i];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::uint32_t cur = b.spill_buffer ^ 1u;
    ctl->frontier_count[cur] = 0;
    ctl->frontier_count[b.spill_buffer] = left;
    ctl->cur = b.spill_buffer;
    ctl->iteration = b.it.stamp - 1;
    ctl->current = b.it.current;
    ctl->settled_count = b.settled;
    ctl->vertices_processed += b.processed;
    if (b.largest > ctl->max_frontier) ctl->max_frontier = b.largest;
    if (b.relaxed) ctl->edges_relaxed += b.relaxed;
  }
}

}  // namespace deltasplit::sssp::gpu
