// Dijkstra's algorithm with a binary heap (lazy deletion): the oracle every other solver is
// validated against. Label-setting, one thread, O((n + m) log n).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <stdexcept>
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
#include "sssp/thread_pool.hpp"

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

namespace {

// One thread's bounded searches: dist holds infinity everywhere between searches, settled false.
template <class Policy>
struct bounded_search {
  using distance = typename Policy::distance;
  using entry = std::pair<distance, vertex_t>;
  std::vector<distance> dist;
  std::vector<char> settled;
  std::vector<vertex_t> touched;
  std::vector<entry> heap;

  explicit bounded_search(vertex_t n) : dist(n, Policy::infinity), settled(n, 0) {}

  // source's vertices within cutoff, sorted by id, into out.
  void run(const csr_view& g, const Policy& policy, vertex_t source, double cutoff, std::vector<entry>& out) {
    out.clear();
    dist[source] = Policy::zero;
    touched.push_back(source);
    heap.push_back({Policy::zero, source});
    bool dropped = false;
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<entry>());
      const auto [d, u] = heap.back();
      heap.pop_back();
      if (double(d) > cutoff) break;  // every vertex still unsettled is farther
      if (settled[u]) continue;
      settled[u] = 1;
      out.push_back({d, u});
      for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        distance candidate;
        if (!policy.extend(d, e, candidate)) {
          dropped = true;
          continue;
        }
        const vertex_t v = g.targets[e];
        // A head past the cutoff is never settled: it enters neither the heap nor the row.
        if (candidate < dist[v] && double(candidate) <= cutoff) {
          if (dist[v] == Policy::infinity) touched.push_back(v);
          dist[v] = candidate;
          heap.push_back({candidate, v});
          std::push_heap(heap.begin(), heap.end(), std::greater<entry>());
        }
      }
    }
    if (dropped && !cutoff_below_overflow<distance>(cutoff)) {
      // dist is the whole row here (infinity where the search never went): the same check as
      // dijkstra_row's.
      for (vertex_t x : touched)
        if (!settled[x]) dist[x] = Policy::infinity;
      const vertex_t v = overflowed_vertex(g, dist.data(), Policy::infinity);
      if (v != graph::invalid_vertex) {
        clear();
        throw_overflow(g, source, v, type_of<distance>());
      }
    }
    clear();
    std::sort(out.begin(), out.end(), [](const entry& a, const entry& b) { return a.second < b.second; });
  }

  void clear() {
    for (vertex_t x : touched) dist[x] = Policy::infinity, settled[x] = 0;
    touched.clear();
    heap.clear();
  }
};

}  // namespace

reached_lists reached_within(const csr_view& g, distance_type type, double cutoff, const std::vector<vertex_t>& sources,
                             unsigned threads) {
  if (!(cutoff >= 0) || std::isinf(cutoff))
    throw std::invalid_argument("reached_within: the cutoff must be finite and >= 0");
  for (vertex_t s : sources) check_source(g, s);
  reached_lists out;
  with_distances(g, type, [&](const auto& policy) {
    using Policy = std::decay_t<decltype(policy)>;
    using distance = typename Policy::distance;
    using entry = std::pair<distance, vertex_t>;
    std::vector<std::vector<entry>> lists(sources.size());
    thread_pool pool(threads);
    std::atomic<std::size_t> next{0};
    pool.run([&](unsigned) {
      bounded_search<Policy> search(g.num_vertices);
      for (std::size_t i; (i = next.fetch_add(1)) < sources.size();) search.run(g, policy, sources[i], cutoff, lists[i]);
    });
    out.offsets.assign(sources.size() + 1, 0);
    for (std::size_t i = 0; i < sources.size(); ++i) out.offsets[i + 1] = out.offsets[i] + lists[i].size();
    out.targets.resize(out.offsets.back());
    out.distances.resize(out.offsets.back() * sizeof(distance));
    auto* dist = reinterpret_cast<distance*>(out.distances.data());
    for (std::size_t i = 0; i < sources.size(); ++i)
      for (std::size_t j = 0; j < lists[i].size(); ++j) {
        out.targets[out.offsets[i] + j] = lists[i][j].second;
        std::memcpy(dist + out.offsets[i] + j, &lists[i][j].first, sizeof(distance));
      }
  });
  return out;
}

}  // namespace detail

}  // namespace deltasplit::sssp
