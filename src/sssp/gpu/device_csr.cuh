// One graph on the device, uploaded once per engine, on the engine's stream: the CSR with every
// row sorted by weight (ties keep their order), so that a vertex's light arcs (w < delta,
// light_arc in sssp/bucket_width.hpp) are a prefix of its row, and the graph statistics that the
// automatic rules read. Every one-source driver of the engine (driver.cuh) and the shortest-path
// tree read this copy; none uploads its own (the partitioned driver keeps a reordered copy of its
// regions besides, partitioned/).
//
// A host view's rows are sorted on the host threads (rows_by_weight.hpp) and uploaded; a device
// view (csr_view::space device) is checked and sorted on the device (device_graph.cuh), so a
// pipeline's graph never passes through the host.
//
// shared_device_csr gives every engine made from the same host arrays on the same device one copy
// (the one-source engine, the many-source engine and PHAST's tree of one graph: a Python Graph's
// engines): an entry lives while an engine holds it, and the arrays it was made from must not
// change meanwhile (every engine reads its graph for its whole life). A device view gets a copy of
// its own: its arrays are the caller's to rewrite.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include <cuda_runtime.h>

#include "deltasplit/csr_view.hpp"
#include "sssp/bucket_width.hpp"
#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_graph.cuh"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/distance.cuh"
#include "sssp/rows_by_weight.hpp"

namespace deltasplit::sssp::gpu {

template <class Distance>
class device_csr {
 public:
  using weight = typename distance_ops<Distance>::weight;

  // The bytes the arrays take (for the engine's reserve() before anything is allocated).
  static std::size_t bytes(vertex_t n, edge_t m) {
    return (std::size_t{n} + 1) * sizeof(edge_t) + m * (sizeof(vertex_t) + sizeof(weight));
  }

  // Uploads g's rows sorted by weight on `stream` and waits for it.
  device_csr(const csr_view& g, cudaStream_t stream)
      : n_(g.num_vertices), m_(g.num_arcs()), symmetric_(g.symmetric), space_(g.space) {
    offsets_ = device_array<edge_t>(g.offsets.size(), "the CSR offsets");
    targets_ = device_array<vertex_t>(m_, "the CSR targets");
    weights_ = device_array<weight>(m_, "the arc weights");
    if (g.space == memory_space::device) {
      const span<weight> w = weights_of<Distance>(g);
      check_device_graph(g, w.data(), w.size(), stream);
      copy(offsets_, g.offsets, stream);
      sort_rows_by_weight(g, w.data(), targets_.get(), weights_.get(), stream);
      const double total = weight_sum(w.data(), m_, stream);
      statistics_.vertices = n_;  // measured on the device: the GPU rule reads no maximum
      statistics_.arcs = m_;
      statistics_.mean_weight = m_ ? total / static_cast<double>(m_) : 0;
      statistics_.mean_degree = n_ ? static_cast<double>(m_) / n_ : 0;
    } else {
      std::vector<vertex_t> targets;
      std::vector<weight> weights;
      detail::rows_by_weight(g, weights_of<Distance>(g), targets, weights);
      copy(offsets_, g.offsets, stream);
      copy(targets_, span<vertex_t>(targets), stream);
      copy(weights_, span<weight>(weights), stream);
      DS_CUDA(cudaStreamSynchronize(stream));  // the host vectors go out of scope
      statistics_ = detail::measure(g);
    }
    DS_CUDA(cudaStreamSynchronize(stream));
  }

  vertex_t num_vertices() const { return n_; }
  edge_t num_arcs() const { return m_; }
  const edge_t* offsets() const { return offsets_.get(); }
  const vertex_t* targets() const { return targets_.get(); }
  const weight* weights() const { return weights_.get(); }
  // Marked undirected (csr_view::symmetric): a row is also the vertex's in-arcs.
  bool symmetric() const { return symmetric_; }
  // Where the caller's graph lives; a device graph cannot be cut into regions on the host.
  memory_space space() const { return space_; }
  const detail::graph_statistics& statistics() const { return statistics_; }

 private:
  template <class T>
  static void copy(device_array<T>& dst, span<T> src, cudaStream_t stream) {
    if (!src.empty())
      DS_CUDA(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyDefault, stream));
  }

  vertex_t n_;
  edge_t m_;
  bool symmetric_;
  memory_space space_;
  device_array<edge_t> offsets_;
  device_array<vertex_t> targets_;
  device_array<weight> weights_;
  detail::graph_statistics statistics_;
};

template <class Distance>
std::shared_ptr<const device_csr<Distance>> shared_device_csr(const csr_view& g, cudaStream_t stream) {
  if (g.space == memory_space::device) return std::make_shared<const device_csr<Distance>>(g, stream);
  int device = 0;
  DS_CUDA(cudaGetDevice(&device));
  using key = std::tuple<int, const void*, const void*, const void*, vertex_t, edge_t, bool>;
  static std::mutex lock;
  static std::map<key, std::weak_ptr<const device_csr<Distance>>> entries;
  const key k{device, g.offsets.data(), g.targets.data(), weights_of<Distance>(g).data(), g.num_vertices,
              g.num_arcs(), g.symmetric};
  const std::lock_guard<std::mutex> hold(lock);
  for (auto it = entries.begin(); it != entries.end();)  // entries whose engines are gone
    it = it->second.expired() ? entries.erase(it) : std::next(it);
  if (auto found = entries[k].lock()) return found;
  auto made = std::make_shared<const device_csr<Distance>>(g, stream);
  entries[k] = made;
  return made;
}

}  // namespace deltasplit::sssp::gpu
