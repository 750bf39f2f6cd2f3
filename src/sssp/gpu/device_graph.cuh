// A graph handed to the GPU solver in device memory (sssp::csr_view with space device): checked
// and laid out on the device, so a pipeline whose earlier stages built the graph on the GPU never
// sends it through the host.
//   check_device_graph   the preconditions of graph_check.hpp, one pass over every array; a fault
//                        is reported with the lowest index of each kind found
//   sort_rows_by_weight  the engine's layout (every row sorted by weight, ties by target, so that
//                        the light arcs of a row are its prefix: the host's order, rows_by_weight.hpp)
//                        into the engine's arrays: stable radix sorts of arc ids (cub::DeviceRadixSort)
//                        by target, by weight, then by row, one instantiation for both weight kinds
//   weight_sum           the total weight, for the automatic delta
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "deltasplit/csr_view.hpp"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_memory.cuh"

namespace deltasplit::sssp::gpu {

// Lowest offending index of each kind of fault; no_fault when none.
struct graph_faults {
  unsigned long long first_offset, decreasing, end, target, weight;
};
inline constexpr unsigned long long no_fault = ~0ull;

template <class Weight>
__global__ void find_graph_faults(const edge_t* offsets, const vertex_t* targets, const Weight* weights, vertex_t n,
                                  edge_t m, graph_faults* faults) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (first == 0) {
    if (offsets[0] != 0) atomicMin(&faults->first_offset, 0ull);
    if (offsets[n] != m) atomicMin(&faults->end, static_cast<unsigned long long>(n));
  }
  for (std::uint64_t v = first; v < n; v += stride)
    if (offsets[v + 1] < offsets[v]) atomicMin(&faults->decreasing, static_cast<unsigned long long>(v));
  for (std::uint64_t e = first; e < m; e += stride) {
    if (targets[e] >= n) atomicMin(&faults->target, static_cast<unsigned long long>(e));
    if constexpr (std::is_floating_point_v<Weight>) {
      const Weight w = weights[e];
      if (!(w >= Weight(0)) || !(w <= std::numeric_limits<Weight>::max()))  // negative, NaN or infinite
        atomicMin(&faults->weight, static_cast<unsigned long long>(e));
    }
  }
}

template <class Weight>
void check_device_graph(const csr_view& g, const Weight* weights, std::size_t weight_count, cudaStream_t stream) {
  const std::uint64_t n = g.num_vertices, m = g.num_arcs();
  auto refuse = [](const std::string& why) { throw std::invalid_argument("invalid CSR graph (device memory): " + why); };
  if (g.offsets.size() != n + 1)
    refuse(std::to_string(g.offsets.size()) + " offsets for " + std::to_string(n) + " vertices (need n + 1)");
  if (weight_count != m) refuse(std::to_string(weight_count) + " weights for " + std::to_string(m) + " arcs");
  device_array<graph_faults> faults(1, "the graph check");
  DS_CUDA(cudaMemsetAsync(faults.get(), 0xFF, sizeof(graph_faults), stream));
  find_graph_faults<<<256, 256, 0, stream>>>(g.offsets.data(), g.targets.data(), weights, g.num_vertices, m,
                                             faults.get());
  DS_CUDA_LAUNCH("find_graph_faults");
  graph_faults found{};
  DS_CUDA(cudaMemcpyAsync(&found, faults.get(), sizeof found, cudaMemcpyDeviceToHost, stream));
  DS_CUDA(cudaStreamSynchronize(stream));
  if (found.first_offset != no_fault) refuse("offsets[0] is not 0");
  if (found.decreasing != no_fault) refuse("offsets decrease at vertex " + std::to_string(found.decreasing));
  if (found.end != no_fault) refuse("offsets[n] is not the number of targets (" + std::to_string(m) + ")");
  if (found.target != no_fault)
    refuse("arc " + std::to_string(found.target) + " leads to a vertex outside 0.." + std::to_string(n) + " - 1");
  if (found.weight != no_fault)
    refuse("arc " + std::to_string(found.weight) + " has a negative or non-finite weight");
}

// The sort key of an arc's weight: its bits, which order non-negative floats (and unsigned
// integers) as their values; -0.0 (which passes the weight check) is keyed as +0.0.
template <class Weight>
__device__ inline std::uint32_t weight_key(Weight w) {
  if constexpr (std::is_floating_point_v<Weight>)
    return w == Weight(0) ? 0u : __float_as_uint(w);
  else
    return w;
}

template <class Vertex>
__global__ void key_arcs_by_target(const Vertex* targets, std::uint32_t m, std::uint32_t* keys, std::uint32_t* ids) {
  for (std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < m;
       e += std::uint64_t{gridDim.x} * blockDim.x) {
    keys[e] = targets[e];
    ids[e] = static_cast<std::uint32_t>(e);
  }
}

template <class Weight>
__global__ void key_arcs_by_weight(const Weight* weights, const std::uint32_t* ids, std::uint32_t m,
                                   std::uint32_t* keys) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    keys[i] = weight_key(weights[ids[i]]);
}

// keys[i] = the row (source vertex) of arc ids[i]: the last vertex whose first arc is at or before it.
template <class Offset>
__global__ void key_arcs_by_row(const Offset* offsets, vertex_t n, const std::uint32_t* ids, std::uint32_t m,
                                std::uint32_t* keys) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const Offset e = ids[i];
    vertex_t lo = 0, hi = n - 1;  // offsets[lo] <= e < offsets[hi + 1]
    while (lo < hi) {
      const vertex_t mid = lo + (hi - lo + 1) / 2;
      if (offsets[mid] <= e)
        lo = mid;
      else
        hi = mid - 1;
    }
    keys[i] = lo;
  }
}

template <class Weight>
__global__ void gather_arcs(const std::uint32_t* ids, std::uint32_t m, const vertex_t* targets, const Weight* weights,
                            vertex_t* targets_out, Weight* weights_out) {
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    targets_out[i] = targets[ids[i]];
    weights_out[i] = weights[ids[i]];
  }
}

// The one radix sort instantiation (device_csr.cu): 32-bit keys over bits [0, end_bit), 32-bit
// arc ids; stable.
void sort_arc_ids(const std::uint32_t* keys, std::uint32_t* keys_out, const std::uint32_t* ids, std::uint32_t* ids_out,
                  std::uint32_t m, int end_bit, cudaStream_t stream);

template <class Weight>
void sort_rows_by_weight(const csr_view& g, const Weight* weights, vertex_t* targets_out, Weight* weights_out,
                         cudaStream_t stream) {
  static_assert(sizeof(Weight) == 4, "weights are keyed by their 32 bits");
  const edge_t m = g.num_arcs();
  if (m == 0) return;
  if (m > edge_t{0xFFFFFFFFu})
    throw std::length_error("a graph in device memory is limited to 2^32 - 1 arcs (its arcs are sorted by 32-bit id)");
  const auto arcs = static_cast<std::uint32_t>(m);
  device_array<std::uint32_t> keys(arcs, "the row sort"), sorted_keys(arcs, "the row sort"),
      ids(arcs, "the row sort"), sorted_ids(arcs, "the row sort");
  const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>((m + 255) / 256, 4096));
  int vertex_bits = 1;  // enough for every vertex id
  while (vertex_bits < 32 && (std::uint64_t{1} << vertex_bits) < g.num_vertices) ++vertex_bits;
  // By target, by weight (every bit), then by row: radix sorts are stable, so each row comes out
  // in weight order and equal weights in target order.
  key_arcs_by_target<<<blocks, 256, 0, stream>>>(g.targets.data(), arcs, keys.get(), ids.get());
  DS_CUDA_LAUNCH("key_arcs_by_target");
  sort_arc_ids(keys.get(), sorted_keys.get(), ids.get(), sorted_ids.get(), arcs, vertex_bits, stream);
  key_arcs_by_weight<<<blocks, 256, 0, stream>>>(weights, sorted_ids.get(), arcs, keys.get());
  DS_CUDA_LAUNCH("key_arcs_by_weight");
  sort_arc_ids(keys.get(), sorted_keys.get(), sorted_ids.get(), ids.get(), arcs, 32, stream);
  key_arcs_by_row<<<blocks, 256, 0, stream>>>(g.offsets.data(), g.num_vertices, ids.get(), arcs, keys.get());
  DS_CUDA_LAUNCH("key_arcs_by_row");
  sort_arc_ids(keys.get(), sorted_keys.get(), ids.get(), sorted_ids.get(), arcs, vertex_bits, stream);
  gather_arcs<<<blocks, 256, 0, stream>>>(sorted_ids.get(), arcs, g.targets.data(), weights, targets_out,
                                          weights_out);
  DS_CUDA_LAUNCH("gather_arcs");
  DS_CUDA(cudaStreamSynchronize(stream));
}

template <class Weight>
__global__ void add_weights(const Weight* weights, edge_t m, double* total) {
  double mine = 0;
  for (std::uint64_t e = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; e < m;
       e += std::uint64_t{gridDim.x} * blockDim.x)
    mine += static_cast<double>(weights[e]);
  for (int lane = 16; lane > 0; lane /= 2) mine += __shfl_down_sync(0xFFFFFFFFu, mine, lane);
  if ((threadIdx.x & 31u) == 0 && mine != 0) atomicAdd(total, mine);
}

template <class Weight>
double weight_sum(const Weight* weights, edge_t m, cudaStream_t stream) {
  if (m == 0) return 0;
  device_array<double> total(1, "the weight sum");
  DS_CUDA(cudaMemsetAsync(total.get(), 0, sizeof(double), stream));
  add_weights<<<256, 256, 0, stream>>>(weights, m, total.get());
  DS_CUDA_LAUNCH("add_weights");
  double host = 0;
  DS_CUDA(cudaMemcpyAsync(&host, total.get(), sizeof host, cudaMemcpyDeviceToHost, stream));
  DS_CUDA(cudaStreamSynchronize(stream));
  return host;
}

}  // namespace deltasplit::sssp::gpu
