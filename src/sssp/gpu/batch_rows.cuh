// The rows of a batch of sources, shared by the batched solvers (many_sources.cu: delta-stepping,
// phast.cu: PHAST): a batch keeps its distances vertex-major (dist[v * k + j] for source j), the
// consumer wants them row-major (one row per source, one column per target), in device memory or
// in host blocks.
//   fill_infinity   a batch's distances before its sources are set
//   gather_rows     vertex-major -> row-major through 32 x 32 tiles, vertices past a cutoff unreachable
//   pick_rows       row-major rows of every vertex (the block driver's) -> the targets' columns, idem
//   row_delivery    hands the row-major block to the consumer: as it is (device blocks) or in host
//                   blocks of at most host_block_bytes through two pinned buffers
//   summarize_chunks, summarize_columns
//                   vertex-major -> each source's row summaries (many_sources::summarize_rows)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "deltasplit/many_sources.hpp"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/distance.cuh"
#include "sssp/gpu/engine_context.cuh"
#include "sssp/many_sources_engine.hpp"

namespace deltasplit::sssp::gpu {

// Rows per host block: at most 64 MiB, a copy of a few milliseconds over PCIe.
inline constexpr std::size_t host_block_bytes = std::size_t{64} << 20;

template <class Distance>
__global__ void fill_infinity(Distance* dist, std::size_t count) {
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x)
    dist[i] = distance_ops<Distance>::infinity;
}

// out[r * columns + t] = dist[target(t) * k + r] (targets null: target(t) = t), through a 32 x 32
// tile so that both the reads and the writes are coalesced; a distance above `cutoff` reads
// infinity (pass infinity for none). Launch with gather_tiles() blocks of 32 x 8 threads.
template <class Distance>
__global__ void gather_rows(const Distance* dist, std::uint32_t k, const vertex_t* targets, std::uint32_t columns,
                            std::uint32_t rows, Distance cutoff, Distance* out) {
  __shared__ Distance tile[32][33];
  const std::uint32_t t0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
  for (std::uint32_t i = threadIdx.y; i < 32; i += blockDim.y) {
    const std::uint32_t t = t0 + i, r = r0 + threadIdx.x;
    if (t < columns && r < rows) {
      const Distance d = dist[std::size_t{targets ? targets[t] : t} * k + r];
      tile[i][threadIdx.x] = d > cutoff ? distance_ops<Distance>::infinity : d;
    }
  }
  __syncthreads();
  for (std::uint32_t i = threadIdx.y; i < 32; i += blockDim.y) {
    const std::uint32_t r = r0 + i, t = t0 + threadIdx.x;
    if (r < rows && t < columns) out[std::size_t{r} * columns + t] = tile[threadIdx.x][i];
  }
}
inline dim3 gather_tiles(std::uint32_t columns, std::uint32_t rows) { return dim3((columns + 31) / 32, (rows + 31) / 32); }
inline dim3 gather_threads() { return dim3(32, 8); }

// out[r * columns + t] = dist[r * stride + target(t)] (targets null: target(t) = t) for the rows
// that solved every vertex of a source in place (block_driver.cuh); a distance above `cutoff`
// reads infinity. Grid-stride over the block.
template <class Distance>
__global__ void pick_rows(const Distance* dist, std::size_t stride, const vertex_t* targets, std::uint32_t columns,
                          std::uint32_t rows, Distance cutoff, Distance* out) {
  const std::size_t cells = std::size_t{rows} * columns;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < cells;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::size_t r = i / columns, t = i % columns;
    const Distance d = dist[r * stride + (targets ? targets[t] : t)];
    out[i] = d > cutoff ? distance_ops<Distance>::infinity : d;
  }
}

// Row summaries of a vertex-major batch, in two passes without atomics (a real sum is then the
// same from run to run):
//   summarize_chunks   block (c, tile): the columns j of the tile over the positions
//                      [c * span, (c + 1) * span) in order, into the partials' entry c * k + j;
//   summarize_columns  thread j: the chunks' partials in order, into the call's entry first_row + j.
// A distance above the cutoff (infinity always is) is not reached. Integer sums in 64 bits: a sum
// past 2^64 - 1 lowers *overflow_row to its row in the call.
template <class Distance>
using summary_value = std::conditional_t<std::is_integral_v<Distance>, std::uint64_t, double>;

// sum += x; false when an integer sum wrapped.
template <class S>
__device__ bool add_to(S& sum, S x) {
  sum += x;
  if constexpr (std::is_integral_v<S>) return sum >= x;
  return true;
}

__device__ inline void flag_row(std::uint32_t* overflow_row, std::size_t row) {
  atomicMin(overflow_row, static_cast<std::uint32_t>(std::min<std::size_t>(row, 0xFFFFFFFEu)));
}

template <class Distance>
__global__ void summarize_chunks(const Distance* dist, std::uint32_t k, std::size_t positions, std::size_t span,
                                 std::uint32_t rows, Distance cutoff, std::size_t first_row, std::uint64_t* reached,
                                 summary_value<Distance>* sums, summary_value<Distance>* farthest,
                                 std::uint32_t* overflow_row) {
  using S = summary_value<Distance>;
  const std::uint32_t j = blockIdx.y * blockDim.x + threadIdx.x;
  if (j >= rows) return;
  const std::size_t lo = std::min(positions, std::size_t{blockIdx.x} * span), hi = std::min(positions, lo + span);
  std::uint64_t count = 0;
  S sum = 0, top = 0;
  bool fits = true;
#pragma unroll 4
  for (std::size_t p = lo; p < hi; ++p) {
    const Distance d = dist[p * k + j];
    if (d > cutoff) continue;
    ++count;
    fits &= add_to(sum, S(d));
    top = S(d) > top ? S(d) : top;
  }
  if (!fits) flag_row(overflow_row, first_row + j);
  const std::size_t at = std::size_t{blockIdx.x} * k + j;
  reached[at] = count;
  sums[at] = sum;
  farthest[at] = top;
}

template <class S>
__global__ void summarize_columns(std::uint32_t chunks, std::uint32_t k, std::uint32_t rows, const std::uint64_t* reached,
                                  const S* sums, const S* farthest, std::size_t first_row, std::uint64_t* out_reached,
                                  S* out_sums, S* out_farthest, std::uint32_t* overflow_row) {
  const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= rows) return;
  std::uint64_t count = 0;
  S sum = 0, top = 0;
  bool fits = true;
  for (std::uint32_t c = 0; c < chunks; ++c) {
    const std::size_t at = std::size_t{c} * k + j;
    count += reached[at];
    fits &= add_to(sum, sums[at]);
    top = farthest[at] > top ? farthest[at] : top;
  }
  if (!fits) flag_row(overflow_row, first_row + j);
  out_reached[first_row + j] = count;
  out_sums[first_row + j] = sum;
  out_farthest[first_row + j] = top;
}

class row_delivery {
 public:
  // batch describes the whole batch (first_row, rows, columns, sources, kind and its figures);
  // rows is its row-major block in device memory, written on stream.
  template <class Distance>
  void deliver(distance_block batch, const Distance* rows, bool device_blocks, cudaStream_t stream,
               const block_consumer& consume) {
    if (device_blocks) {
      batch.on_device = true;
      batch.stream = stream;
      hand_over(batch, rows, consume);
    } else {
      to_host(batch, rows, stream, consume);
    }
  }

 private:
  template <class Distance>
  static void hand_over(distance_block& b, const Distance* rows, const block_consumer& consume) {
    detail::set_distances(b, rows);
    consume(b);
  }

  // Host blocks of at most host_block_bytes through two pinned buffers: the copy of the next
  // block runs while the consumer reads this one.
  template <class Distance>
  void to_host(const distance_block& batch, const Distance* rows, cudaStream_t stream, const block_consumer& consume) {
    const std::size_t row_bytes = std::max<std::size_t>(batch.columns * sizeof(Distance), 1);
    const std::size_t per_block = std::max<std::size_t>(1, std::min<std::size_t>(batch.rows, host_block_bytes / row_bytes));
    auto* buffers = static_cast<Distance*>(pinned_.get(2 * per_block * row_bytes));
    Distance* half[2] = {buffers, buffers + per_block * batch.columns};
    auto copy = [&](std::size_t first_row, int into) {
      const std::size_t count = std::min(per_block, batch.rows - first_row);
      if (batch.columns)
        DS_CUDA(cudaMemcpyAsync(half[into], rows + first_row * batch.columns, count * row_bytes,
                                cudaMemcpyDeviceToHost, stream));
      DS_CUDA(cudaEventRecord(copied_[into], stream));
    };
    copy(0, 0);
    for (std::size_t r = 0, i = 0; r < batch.rows; r += per_block, ++i) {
      const int now = static_cast<int>(i % 2);
      if (r + per_block < batch.rows) copy(r + per_block, 1 - now);
      DS_CUDA(cudaEventSynchronize(copied_[now]));
      distance_block b = batch;
      b.first_row = batch.first_row + r;
      b.rows = std::min(per_block, batch.rows - r);
      b.sources = batch.sources + r;
      if (r > 0) b.milliseconds = 0, b.iterations = 0;  // the batch's figures come with its first block
      hand_over(b, half[now], consume);
    }
  }

  pinned_buffer pinned_;
  cuda_event copied_[2] = {cuda_event(cudaEventDisableTiming), cuda_event(cudaEventDisableTiming)};
};

}  // namespace deltasplit::sssp::gpu
