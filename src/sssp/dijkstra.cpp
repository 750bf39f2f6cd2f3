// Dijkstra's algorithm with a binary heap (lazy deletion): the oracle every other solver is
// validated against. Label-setting, one thread, O((n + m) log n).
#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "deltasplit/sssp.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/graph_check.hpp"

namespace deltasplit::sssp {

namespace {

template <class Policy>
void run_dijkstra(const csr_view& g, vertex_t source, const Policy& policy, result& r) {
  using distance = typename Policy::distance;
  std::vector<distance>& dist = Policy::of(r);
  dist.assign(g.num_vertices, Policy::infinity);
  const bool want_tree = !r.predecessors.empty();
  std::vector<bool> settled(g.num_vertices, false);

  using entry = std::pair<distance, vertex_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<entry>> heap;
  dist[source] = Policy::zero;
  heap.push({Policy::zero, source});
  bool dropped = false;
  statistics& st = r.stats;
  while (!heap.empty()) {
    st.max_queue = std::max<std::uint64_t>(st.max_queue, heap.size());
    auto [d, u] = heap.top();
    heap.pop();
    if (settled[u]) continue;
    settled[u] = true;
    ++st.vertices_processed;
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      ++st.edges_relaxed;
      distance candidate;
      if (!policy.extend(d, e, candidate)) {
        dropped = true;
        continue;
      }
      vertex_t v = g.targets[e];
      if (candidate < dist[v]) {
        dist[v] = candidate;
        if (want_tree) r.predecessors[v] = u;
        heap.push({candidate, v});
      }
    }
  }
  st.iterations = st.vertices_processed;
  if (dropped) {
    vertex_t v = detail::overflowed_vertex(g, dist, Policy::infinity);
    if (v != graph::invalid_vertex) detail::throw_overflow(g, source, v);
  }
}

}  // namespace

result dijkstra(const csr_view& g, vertex_t source, bool predecessors) {
  detail::check_graph(g);
  detail::check_source(g, source);
  result r;
  r.kind = g.kind;
  if (predecessors) r.predecessors.assign(g.num_vertices, graph::invalid_vertex);
  auto start = std::chrono::steady_clock::now();
  detail::with_distances(g, [&](const auto& policy) { run_dijkstra(g, source, policy, r); });
  r.stats.strategy = strategy_name(strategy::dijkstra);
  r.stats.device = "cpu (1 thread)";
  r.stats.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace deltasplit::sssp
