// Bellman-Ford label correcting and Johnson's reweighting (the method, its bound and the papers:
// negative_weights.hpp).
#include "sssp/negative_weights.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp {

negative_cycle::negative_cycle(vertex_t vertex)
    : std::runtime_error("negative cycle: vertex " + std::to_string(vertex) + " lies on a cycle of negative weight"),
      vertex_(vertex) {}

namespace {

// How much a label must fall in the last pass to count as a negative cycle: any fall for exact
// integers; for doubles scipy's DTYPE_EPS, so that rounding around a zero-weight cycle is not one.
template <class W>
constexpr W cycle_tolerance = std::is_integral_v<W> ? W(0) : W(1e-15);

// candidate = d + w. int64: false when the sum passes INT64_MAX - 1 (a walk too long to hold,
// skipped: check_dropped decides whether a distance was lost), distance_overflow when it falls
// below INT64_MIN.
bool extend(std::int64_t d, std::int64_t w, std::int64_t& candidate) {
  if (__builtin_add_overflow(d, w, &candidate)) {
    if (w < 0) throw distance_overflow("a path length falls below -2^63 (int64 distances)");
    return false;
  }
  return candidate != unreachable<std::int64_t>();
}

bool extend(double d, double w, double& candidate) {
  candidate = d + w;
  return true;
}

void check_arrays(vertex_t n, span<edge_t> offsets, std::size_t num_targets, std::size_t num_weights) {
  if (offsets.size() != std::size_t{n} + 1)
    throw std::invalid_argument(std::to_string(offsets.size()) + " offsets for " + std::to_string(n) +
                                " vertices (need n + 1)");
  if (offsets[0] != 0) throw std::invalid_argument("offsets[0] must be 0");
  for (vertex_t v = 0; v < n; ++v)
    if (offsets[v + 1] < offsets[v])
      throw std::invalid_argument("offsets decrease at vertex " + std::to_string(v));
  if (offsets[n] != num_targets)
    throw std::invalid_argument("offsets end at " + std::to_string(offsets[n]) + " but there are " +
                                std::to_string(num_targets) + " targets");
  if (num_weights != num_targets)
    throw std::invalid_argument(std::to_string(num_weights) + " weights for " + std::to_string(num_targets) +
                                " targets");
}

template <class W>
void check_graph(const signed_csr<W>& g) {
  check_arrays(g.num_vertices, g.offsets, g.targets.size(), g.weights.size());
  for (std::size_t e = 0; e < g.targets.size(); ++e)
    if (g.targets[e] >= g.num_vertices)
      throw std::invalid_argument("arc " + std::to_string(e) + " targets vertex " + std::to_string(g.targets[e]) +
                                  ", outside 0.." + std::to_string(std::int64_t{g.num_vertices} - 1));
  if constexpr (std::is_floating_point_v<W>) {
    for (std::size_t e = 0; e < g.weights.size(); ++e)
      if (!std::isfinite(g.weights[e]))
        throw std::invalid_argument("arc " + std::to_string(e) + " has a non-finite weight");
  }
}

void check_source(vertex_t n, vertex_t source) {
  if (source >= n)
    throw std::out_of_range("source vertex " + std::to_string(source) + " is out of range: the graph has " +
                            std::to_string(n) + " vertices");
}

// A vertex on the cycle of the predecessor graph that v's parent chain enters (v was just lowered
// in the last pass: the chain holds a cycle, negative_weights.hpp): n steps back lie on it.
vertex_t on_cycle(const std::vector<vertex_t>& parent, vertex_t v) {
  vertex_t x = v;
  for (std::size_t step = 0; step < parent.size() && parent[x] != graph::invalid_vertex; ++step) x = parent[x];
  return x;
}

// Where a sum skipped by extend (past INT64_MAX - 1) was the only way to a vertex, its distance
// does not fit: distance_overflow. Otherwise every skipped walk was longer than one that fits.
template <class W>
void check_dropped(const signed_csr<W>& g, const W* dist) {
  for (vertex_t u = 0; u < g.num_vertices; ++u) {
    if (dist[u] == unreachable<W>()) continue;
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      if (dist[g.targets[e]] == unreachable<W>())
        throw distance_overflow("the distance to vertex " + std::to_string(g.targets[e]) +
                                " passes 2^63 - 2 (int64 distances)");
  }
}

// Label correcting in passes from `queue` (pass `pass`) until a pass lowers no label, or until
// pass `last_pass`, which lowers a label only at the price of a negative cycle (beyond the
// tolerance; a smaller fall is kept and ends the run). parent: one entry per vertex, updated with
// every label. Returns whether a sum was skipped (extend).
template <class W>
bool label_correcting(const signed_csr<W>& g, std::vector<vertex_t> queue, std::uint64_t pass,
                      std::uint64_t last_pass, W* dist, std::vector<vertex_t>& parent) {
  std::vector<char> queued(g.num_vertices, 0);
  for (vertex_t v : queue) queued[v] = 1;
  std::vector<vertex_t> next;
  bool dropped = false;
  for (; !queue.empty(); ++pass) {
    const bool last = pass >= last_pass;
    next.clear();
    for (vertex_t u : queue) {
      queued[u] = 0;
      const W du = dist[u];
      for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        const vertex_t v = g.targets[e];
        W candidate;
        if (!extend(du, g.weights[e], candidate)) {
          dropped = true;
          continue;
        }
        if (!(candidate < dist[v])) continue;
        if (last && candidate + cycle_tolerance<W> < dist[v]) {
          parent[v] = u;
          throw negative_cycle(on_cycle(parent, v));
        }
        dist[v] = candidate;
        parent[v] = u;
        if (!last && !queued[v]) {
          queued[v] = 1;
          next.push_back(v);
        }
      }
    }
    if (last) break;
    queue.swap(next);
  }
  return dropped;
}

// Dijkstra from source on the reweighted arcs (every w' >= 0, or a hair below through rounding:
// a settled vertex stays settled, as in scipy) into dist (d') and parent when not null.
template <class W>
bool dijkstra_reweighted(const signed_csr<W>& g, const std::vector<W>& reweighted, vertex_t source, W* dist,
                         vertex_t* parent, std::vector<char>& settled) {
  using entry = std::pair<W, vertex_t>;
  std::priority_queue<entry, std::vector<entry>, std::greater<entry>> heap;
  std::fill(dist, dist + g.num_vertices, unreachable<W>());
  std::fill(settled.begin(), settled.end(), 0);
  if (parent) std::fill(parent, parent + g.num_vertices, graph::invalid_vertex);
  dist[source] = W(0);
  heap.push({W(0), source});
  bool dropped = false;
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (settled[u]) continue;
    settled[u] = 1;
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const vertex_t v = g.targets[e];
      if (settled[v]) continue;
      W candidate;
      if (!extend(d, reweighted[e], candidate)) {
        dropped = true;
        continue;
      }
      if (candidate < dist[v]) {
        dist[v] = candidate;
        if (parent) parent[v] = u;
        heap.push({candidate, v});
      }
    }
  }
  return dropped;
}

// Sums of three int64 terms, exact (GCC and Clang's 128-bit integer).
__extension__ using int128 = __int128;

// (x + y) - z, for the reweighted arcs w' = (w + h(u)) - h(v) and the distances mapped back d =
// (d' + h(t)) - h(s): in scipy's order for doubles; exact for int64, distance_overflow where the
// result does not fit below INT64_MAX (a reweighted arc or a distance too long for 63 bits).
std::int64_t plus_minus(std::int64_t x, std::int64_t y, std::int64_t z) {
  const int128 exact = int128{x} + y - z;
  if (exact >= unreachable<std::int64_t>() || exact < std::numeric_limits<std::int64_t>::min())
    throw distance_overflow("a reweighted arc or distance passes 2^63 - 2 (int64 distances)");
  return static_cast<std::int64_t>(exact);
}

double plus_minus(double x, double y, double z) { return (x + y) - z; }

}  // namespace

template <class W>
void bellman_ford(const signed_csr<W>& g, vertex_t source, W* dist, vertex_t* predecessors) {
  check_graph(g);
  check_source(g.num_vertices, source);
  std::fill(dist, dist + g.num_vertices, unreachable<W>());
  dist[source] = W(0);
  std::vector<vertex_t> parent(g.num_vertices, graph::invalid_vertex);
  // Pass 0 scans the source; a label falling in pass n - 1 is a negative cycle.
  const bool dropped = label_correcting(g, {source}, 0, std::uint64_t{g.num_vertices} - 1, dist, parent);
  if (dropped) check_dropped(g, dist);
  if (predecessors) std::copy(parent.begin(), parent.end(), predecessors);
}

template <class W>
std::vector<W> johnson_potentials(const signed_csr<W>& g) {
  check_graph(g);
  // The virtual vertex's pass 0 sets every label to 0 and queues every vertex; with n + 1
  // vertices, a label falling in pass n is a negative cycle.
  std::vector<W> h(g.num_vertices, W(0));
  std::vector<vertex_t> parent(g.num_vertices, graph::invalid_vertex);
  std::vector<vertex_t> everyone(g.num_vertices);
  for (vertex_t v = 0; v < g.num_vertices; ++v) everyone[v] = v;
  label_correcting(g, std::move(everyone), 1, std::uint64_t{g.num_vertices}, h.data(), parent);
  return h;  // every label starts at 0 and only falls: no sum is ever skipped
}

template <class W>
void johnson(const signed_csr<W>& g, span<vertex_t> sources, W* dist, vertex_t* predecessors, unsigned threads) {
  const std::vector<W> h = johnson_potentials(g);
  for (vertex_t s : sources) check_source(g.num_vertices, s);
  std::vector<W> reweighted(g.targets.size());
  for (vertex_t u = 0; u < g.num_vertices; ++u)
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      reweighted[e] = plus_minus(g.weights[e], h[u], h[g.targets[e]]);
  const std::size_t n = g.num_vertices;
  if (sources.empty()) return;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  detail::thread_pool pool(static_cast<unsigned>(std::min<std::size_t>(threads, sources.size())));
  std::atomic<std::size_t> next_row{0};
  pool.run([&](unsigned) {
    std::vector<char> settled(n);
    for (std::size_t i = next_row++; i < sources.size(); i = next_row++) {
      W* row = dist + i * n;
      vertex_t* parent = predecessors ? predecessors + i * n : nullptr;
      const vertex_t s = sources[i];
      const bool dropped = dijkstra_reweighted(g, reweighted, s, row, parent, settled);
      if (dropped) check_dropped(g, row);
      for (std::size_t t = 0; t < n; ++t)
        if (row[t] != unreachable<W>()) row[t] = plus_minus(row[t], h[t], h[s]);
    }
  });
}

template void bellman_ford(const signed_csr<std::int64_t>&, vertex_t, std::int64_t*, vertex_t*);
template void bellman_ford(const signed_csr<double>&, vertex_t, double*, vertex_t*);
template std::vector<std::int64_t> johnson_potentials(const signed_csr<std::int64_t>&);
template std::vector<double> johnson_potentials(const signed_csr<double>&);
template void johnson(const signed_csr<std::int64_t>&, span<vertex_t>, std::int64_t*, vertex_t*, unsigned);
template void johnson(const signed_csr<double>&, span<vertex_t>, double*, vertex_t*, unsigned);

}  // namespace deltasplit::sssp
