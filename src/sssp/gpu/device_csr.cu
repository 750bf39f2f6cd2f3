// device_csr's upload and the registry that shares it (device_csr.cuh): the one unit that
// compiles the device-side row sort (cub::DeviceRadixSort, device_graph.cuh).
#include <map>
#include <stdexcept>
#include <mutex>
#include <tuple>
#include <vector>

#include <cub/device/device_radix_sort.cuh>

#include "sssp/gpu/cuda_check.cuh"
#include "sssp/gpu/device_csr.cuh"
#include "sssp/gpu/device_graph.cuh"
#include "sssp/rows_by_weight.hpp"

namespace deltasplit::sssp::gpu {

namespace {

template <class T>
void copy(device_array<T>& dst, span<T> src, cudaStream_t stream) {
  if (!src.empty()) DS_CUDA(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyDefault, stream));
}

// The weights a solve in Distance reads from a host graph: its own, or for 64-bit distances
// narrow weights widened into `widened` (exact: float to double, uint32 to uint64).
template <class Distance, class Wide = typename distance_ops<Distance>::weight>
span<Wide> host_weights(const csr_view& g, std::vector<Wide>& widened) {
  if constexpr (sizeof(Distance) == 8) {
    if (g.wide()) return weights_of<Distance>(g);
    if constexpr (std::is_same_v<Distance, double>)
      widened.assign(g.real_weights.begin(), g.real_weights.end());
    else
      widened.assign(g.int_weights.begin(), g.int_weights.end());
    return span<Wide>(widened.data(), widened.size());
  } else {
    return weights_of<Distance>(g);
  }
}

// The array a graph's engines share a copy by (shared_device_csr): the weights the solve reads,
// as the caller holds them.
const void* weight_source(const csr_view& g) {
  if (g.kind == graph::weight_kind::integer) return g.wide() ? static_cast<const void*>(g.uint64_weights.data()) : g.int_weights.data();
  return g.wide() ? static_cast<const void*>(g.float64_weights.data()) : g.real_weights.data();
}

}  // namespace

template <class Distance>
device_csr<Distance>::device_csr(const csr_view& g, cudaStream_t stream)
    : n_(g.num_vertices), m_(g.num_arcs()), symmetric_(g.symmetric), space_(g.space) {
  offsets_ = device_array<edge_t>(g.offsets.size(), "the CSR offsets");
  targets_ = device_array<vertex_t>(m_, "the CSR targets");
  weights_ = device_array<weight>(m_, "the arc weights");
  if (g.space == memory_space::device) {
    if constexpr (sizeof(weight) != 4) {
      throw std::invalid_argument("a graph in device memory is solved in 32-bit distances");
    } else {
      const span<weight> w = weights_of<Distance>(g);
      check_device_graph(g, w.data(), w.size(), stream);
      copy(offsets_, g.offsets, stream);
      sort_rows_by_weight(g, w.data(), targets_.get(), weights_.get(), stream);
      const double total = weight_sum(w.data(), m_, stream);
      statistics_.vertices = n_;  // measured on the device: the GPU rule reads no maximum
      statistics_.arcs = m_;
      statistics_.mean_weight = m_ ? total / static_cast<double>(m_) : 0;
      statistics_.mean_degree = n_ ? static_cast<double>(m_) / n_ : 0;
    }
  } else {
    std::vector<vertex_t> targets;
    std::vector<weight> weights, widened;
    detail::rows_by_weight(g, host_weights<Distance>(g, widened), targets, weights);
    copy(offsets_, g.offsets, stream);
    copy(targets_, span<vertex_t>(targets), stream);
    copy(weights_, span<weight>(weights), stream);
    DS_CUDA(cudaStreamSynchronize(stream));  // the host vectors go out of scope
    statistics_ = detail::measure(g);
  }
  DS_CUDA(cudaStreamSynchronize(stream));
}

template <class Distance>
std::shared_ptr<const device_csr<Distance>> shared_device_csr(const csr_view& g, cudaStream_t stream) {
  if (g.space == memory_space::device) return std::make_shared<const device_csr<Distance>>(g, stream);
  int device = 0;
  DS_CUDA(cudaGetDevice(&device));
  using key = std::tuple<int, const void*, const void*, const void*, vertex_t, edge_t, bool>;
  static std::mutex lock;
  static std::map<key, std::weak_ptr<const device_csr<Distance>>> entries;
  const key k{device, g.offsets.data(), g.targets.data(), weight_source(g), g.num_vertices,
              g.num_arcs(), g.symmetric};
  const std::lock_guard<std::mutex> hold(lock);
  for (auto it = entries.begin(); it != entries.end();)  // entries whose engines are gone
    it = it->second.expired() ? entries.erase(it) : std::next(it);
  if (auto found = entries[k].lock()) return found;
  auto made = std::make_shared<const device_csr<Distance>>(g, stream);
  entries[k] = made;
  return made;
}

void sort_arc_ids(const std::uint32_t* keys, std::uint32_t* keys_out, const std::uint32_t* ids, std::uint32_t* ids_out,
                  std::uint32_t m, int end_bit, cudaStream_t stream) {
  std::size_t bytes = 0;
  DS_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, keys_out, ids, ids_out, m, 0, end_bit, stream));
  device_array<unsigned char> temp(bytes, "the row sort");
  DS_CUDA(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, keys, keys_out, ids, ids_out, m, 0, end_bit, stream));
}

template class device_csr<std::uint32_t>;
template class device_csr<float>;
template class device_csr<double>;
template class device_csr<std::uint64_t>;
template std::shared_ptr<const device_csr<std::uint32_t>> shared_device_csr(const csr_view&, cudaStream_t);
template std::shared_ptr<const device_csr<std::uint64_t>> shared_device_csr(const csr_view&, cudaStream_t);
template std::shared_ptr<const device_csr<float>> shared_device_csr(const csr_view&, cudaStream_t);
template std::shared_ptr<const device_csr<double>> shared_device_csr(const csr_view&, cudaStream_t);

}  // namespace deltasplit::sssp::gpu
