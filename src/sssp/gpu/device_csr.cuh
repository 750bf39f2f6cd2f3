// One graph on the device, uploaded once per engine, on the engine's stream: the CSR with every
// row sorted by weight (ties by target), so that a vertex's light arcs (w < delta,
// light_arc in sssp/bucket_width.hpp) are a prefix of its row, and the graph statistics that the
// automatic rules read. Every one-source driver of the engine (driver.cuh) and the shortest-path
// tree read this copy; none uploads its own (the partitioned driver derives a reordered copy of its
// regions from it on the device, partitioned/).
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

#include <cstddef>
#include <cstdint>
#include <memory>

#include <cuda_runtime.h>

#include "deltasplit/csr_view.hpp"
#include "sssp/bucket_width.hpp"
#include "sssp/gpu/device_memory.cuh"
#include "sssp/gpu/distance.cuh"

namespace deltasplit::sssp::gpu {

template <class Distance>
class device_csr {
 public:
  using weight = typename distance_ops<Distance>::weight;

  // Uploads g's rows sorted by weight on `stream` and waits for it.
  device_csr(const csr_view& g, cudaStream_t stream);

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
  vertex_t n_;
  edge_t m_;
  bool symmetric_;
  memory_space space_;
  device_array<edge_t> offsets_;
  device_array<vertex_t> targets_;
  device_array<weight> weights_;
  detail::graph_statistics statistics_;
};

// The graph's device copy for an engine on the current device (see the file comment).
template <class Distance>
std::shared_ptr<const device_csr<Distance>> shared_device_csr(const csr_view& g, cudaStream_t stream);

}  // namespace deltasplit::sssp::gpu
