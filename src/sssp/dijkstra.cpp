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
  if (dropped && !detail::cutoff_below_overflow<distance>(cutoff)) {
    vertex_t v = detail::overflowed_vertex(g, dist, Policy::infinity);
    if (v != graph::invalid_vertex) detail::throw_overflow(g, source, v, detail::type_of<distance>());
  }
}

}  // namespace

result dijkstra(const csr_view& g, vertex_t source, bool predecessors, distance_type real_type) {
  detail::check_graph(g);
  return detail::dijkstra_typed(g, source, predecessors, distance_type_for(g, real_type));
}

namespace detail {

result dijkstra_typed(const csr_view& g, vertex_t source, bool predecessors, distance_type type) {
  check_source(g, source);
  result r;
  r.type = type;
  if (predecessors) r.predecessors.assign(g.num_vertices, graph::invalid_vertex);
  auto start = std::chrono::steady_clock::now();
  with_distances(g, r.type, [&](const auto& policy) {
    auto& dist = distances_in<typename std::decay_t<decltype(policy)>::distance>(r);
    dist.resize(g.num_vertices);
    run_dijkstra(g, source, policy, std::numeric_limits<double>::infinity(), dist.data(),
                 predecessors ? r.predecessors.data() : nullptr, r.stats);
  });
  r.stats.strategy = strategy_name(strategy::dijkstra);
  r.stats.device = "cpu (1 thread)";
  r.stats.distance_type = distance_type_name(r.type);
  r.stats.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void dijkstra_row(const csr_view& g, vertex_t source, distance_type type, double cutoff, void* row) {
  statistics unused;
  with_distances(g, type, [&](const auto& policy) {
    using distance = typename std::decay_t<decltype(policy)>::distance;
    run_dijkstra(g, source, policy, cutoff, static_cast<distance*>(row), nullptr, unused);
  });
}

}  // namespace detail

}  // namespace deltasplit::sssp
