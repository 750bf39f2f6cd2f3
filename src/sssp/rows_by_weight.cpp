#include "sssp/rows_by_weight.hpp"

#include <algorithm>
#include <cstdint>
#include <thread>
#include <utility>

#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp::detail {

std::vector<vertex_t> rows_by_arcs(span<edge_t> offsets, vertex_t n, unsigned threads) {
  threads = std::max(1u, threads);
  std::vector<vertex_t> first(threads + 1, n);
  first[0] = 0;
  const edge_t m = n == 0 ? 0 : offsets[n];
  for (unsigned t = 1; t < threads; ++t) {  // the first row that starts at or past the t-th share
    const edge_t share = m / threads * t + m % threads * t / threads;
    first[t] = static_cast<vertex_t>(std::lower_bound(offsets.begin(), offsets.begin() + n, share) - offsets.begin());
  }
  return first;
}

template <class Weight>
void rows_by_weight(const csr_view& g, span<Weight> weights, std::vector<vertex_t>& targets,
                    std::vector<Weight>& sorted_weights, unsigned threads) {
  const edge_t m = g.num_arcs();
  targets.resize(m);
  sorted_weights.resize(m);
  auto sort_rows = [&](vertex_t first, vertex_t last) {
    std::vector<std::pair<Weight, vertex_t>> row;
    for (vertex_t v = first; v < last; ++v) {
      const edge_t b = g.offsets[v], e = g.offsets[v + 1];
      row.clear();
      for (edge_t i = b; i < e; ++i) row.emplace_back(weights[i], g.targets[i]);
      std::sort(row.begin(), row.end());
      for (edge_t i = b; i < e; ++i) {
        sorted_weights[i] = row[i - b].first;
        targets[i] = row[i - b].second;
      }
    }
  };
  if (threads == 0) threads = std::min(16u, std::thread::hardware_concurrency());
  threads = std::max(1u, std::min<unsigned>(threads, std::max<vertex_t>(g.num_vertices, 1)));  // a row a thread at least
  const std::vector<vertex_t> first = rows_by_arcs(g.offsets, g.num_vertices, threads);
  thread_pool pool(threads);  // an exception (bad_alloc) on any thread comes back here
  pool.run([&](unsigned t) { sort_rows(first[t], first[t + 1]); });
}

template void rows_by_weight<std::uint32_t>(const csr_view&, span<std::uint32_t>, std::vector<vertex_t>&,
                                            std::vector<std::uint32_t>&, unsigned);
template void rows_by_weight<float>(const csr_view&, span<float>, std::vector<vertex_t>&, std::vector<float>&,
                                    unsigned);
template void rows_by_weight<double>(const csr_view&, span<double>, std::vector<vertex_t>&, std::vector<double>&,
                                     unsigned);
template void rows_by_weight<std::uint64_t>(const csr_view&, span<std::uint64_t>, std::vector<vertex_t>&,
                                            std::vector<std::uint64_t>&, unsigned);

}  // namespace deltasplit::sssp::detail
