// Filing vertices into the window's buckets: the one place where the frontier managers differ
// (seed 000, Section 7.2.1; frontier_manager.cuh). Compiled in engine.cu only. Every vertex of to_file gets the key
//   key(v) = clamp(bucket(dist[v]) - window, 0, K)      (K + 1 keys: K window buckets, then the far pile)
// and goes to: the current frontier when key <= current - window (taken once, stale copies dropped);
// bucket queue `key` for the later buckets of the window; the far pile for key K.
//   - file_by_atomics: each vertex takes its place with an atomic on its bucket's counter
//     (Near-Far's compaction into near set and far pile, Davidson et al.);
//   - file_segments: the vertices arrive already split into the K + 1 key segments (by a radix
//     sort or by multisplit) with their offsets, and each segment is appended to its bucket with
//     no atomics on the counters: the bucketing managers differ only in how they split.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/step_loop/frontier_manager.cuh"
#include "sssp/gpu/step_loop/vertex_filing.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
__global__ void file_by_atomics(loop_view<Distance> s) {
  control* ctl = s.ctl;
  const std::uint32_t n = ctl->file_count;
  if (ctl->done || n == 0) return;
  const window_key<Distance> key = key_of(s);
  const std::uint32_t c = ctl->current, rel = c - ctl->window;
  const grid_sink current = current_frontier_sink(s);
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    vertex_t v = s.to_file[i];
    file_by_key(s, current, v, key(v), c, rel);
  }
}

// split holds to_file split by key; offsets its K + 2 segment offsets (offsets[K + 1] = items).
template <class Distance>
__global__ void file_segments(loop_view<Distance> s, const vertex_t* split, const std::uint32_t* offsets) {
  __shared__ std::uint32_t off[max_window_buckets + 2];
  const std::uint32_t K = s.window_buckets;
  for (std::uint32_t i = threadIdx.x; i < K + 2; i += blockDim.x) off[i] = offsets[i];
  __syncthreads();
  control* ctl = s.ctl;
  const std::uint32_t n = off[K + 1];
  if (ctl->done || n == 0) return;
  const std::uint32_t c = ctl->current, rel = c - ctl->window;
  const grid_sink current = current_frontier_sink(s);
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    std::uint32_t lo = 0, hi = K;  // the segment of item i: largest k with off[k] <= i
    while (lo < hi) {
      std::uint32_t mid = (lo + hi + 1) >> 1;
      if (off[mid] <= i)
        lo = mid;
      else
        hi = mid - 1;
    }
    vertex_t v = split[i];
    if (lo <= rel) {
      take_if_current(s, current, v, c);
      continue;
    }
    std::uint32_t pos = (lo < K ? ctl->bucket_count[lo] : ctl->far_pile_count) + (i - off[lo]);
    if (pos >= s.queue_capacity)
      ctl->capacity_exceeded = 1;
    else
      (lo < K ? s.bucket_queue(lo) : s.far_pile)[pos] = v;
  }
}

// The counters follow the segments once every item is in place.
template <class Distance>
__global__ void commit_segments(loop_view<Distance> s, const std::uint32_t* offsets) {
  control* ctl = s.ctl;
  const std::uint32_t K = s.window_buckets;
  if (ctl->done || offsets[K + 1] == 0) return;
  for (std::uint32_t k = ctl->current - ctl->window + 1; k < K; ++k) ctl->bucket_count[k] += offsets[k + 1] - offsets[k];
  ctl->far_pile_count += offsets[K + 1] - offsets[K];
}

// Near-Far and the workfront sweep: filing by atomics, nothing to prepare.
template <class Distance>
class atomic_filing final : public frontier_manager<Distance> {
 public:
  bool device_sized() const override { return true; }
  void prepare(const loop_view<Distance>&) override {}
  void file(const loop_view<Distance>& s, const launch_shape& shape, cudaStream_t stream) override {
    file_by_atomics<<<shape.blocks, shape.threads, 0, stream>>>(s);
    DS_CUDA_LAUNCH("file_by_atomics");
  }
};

template <class Distance>
void launch_file_segments(const loop_view<Distance>& s, const vertex_t* split, const std::uint32_t* offsets,
                          const launch_shape& shape, cudaStream_t stream) {
  file_segments<<<shape.blocks, shape.threads, 0, stream>>>(s, split, offsets);
  DS_CUDA_LAUNCH("file_segments");
  commit_segments<<<1, 1, 0, stream>>>(s, offsets);
  DS_CUDA_LAUNCH("commit_segments");
}

}  // namespace deltasplit::sssp::gpu
