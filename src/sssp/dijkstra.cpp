// Dijkstra's algorithm with a binary heap (lazy deletion): the oracle every other solver is
// validated against. Label-setting, one thread, O((n + m) log n).
#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <queue>
#include <type_traits>
#include <utility>
#include <vector>

#include "deltasplit/sssp.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/graph_check.hpp"

namespace deltasplit::sssp {

namespace {

// Settles vertices in order of distance until the next one lies past cutoff (infinity: until the
// heap is empty); the tentative distances left past it are cleared. predecessors: null, or one
// entry per vertex (the oracle's tree, searched without a cutoff).
template <class Policy>
void run_dijkstra(const csr_view& g, vertex_t source, const Policy& policy, double cutoff,
                  typename Policy::distance* dist, vertex_t* predecessors, statistics& st) {
  using distance = typename Policy::distance;
  std::fill(dist, dist + g.num_vertices, Policy::infinity);
  std::vector<bool> settled(g.num_vertices, false);

  using entry = std::pair<distance, vertex_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<entry>> heap;
  dist[source] = Policy::zero;
  heap.push({Policy::zero, source});
  bool dropped = false;
  while (!heap.empty()) {
    st.max_queue = std::max<std::uint64_t>(st.max_queue, heap.size());
    auto [d, u] = heap.top();
    if (double(d) > cutoff) break;  // every vertex still unsettled is farther
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
        if (predecessors) predecessors[v] = u;
        heap.push({candidate, v});
      }
    }
  }
  st.iterations = st.vertices_processed;
  if (!heap.empty())
    for (vertex_t v = 0; v < g.num_vertices; ++v)
      if (!settled[v]) dist[v] = Policy::infinity;
  if (dropped && !detail::cutoff_below_overflow(g.kind, cutoff)) {
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
  detail::with_distances(g, [&](const auto& policy) {
    auto& dist = std::decay_t<decltype(policy)>::of(r);
    dist.resize(g.num_vertices);
    run_dijkstra(g, source, policy, std::numeric_limits<double>::infinity(), dist.data(),
                 predecessors ? r.predecessors.data() : nullptr, r.stats);
  });
  r.stats.strategy = strategy_name(strategy::dijkstra);
  r.stats.device = "cpu (1 thread)";
  r.stats.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

namespace detail {

void dijkstra_row(const csr_view& g, vertex_t source, double cutoff, void* row) {
  statistics unused;
  with_distances(g, [&](const auto& policy) {
    using distance = typename std::decay_t<decltype(policy)>::distance;
    run_dijkstra(g, source, policy, cutoff, static_cast<distance*>(row), nullptr, unused);
  });
}

}  // namespace detail

}  // namespace deltasplit::sssp
