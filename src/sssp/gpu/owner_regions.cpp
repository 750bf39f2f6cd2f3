#include "sssp/gpu/owner_regions.hpp"

#include <algorithm>

namespace deltasplit::sssp::gpu {

owner_regions grow_owner_regions(const graph::csr& g, std::uint32_t parts, std::uint64_t vertex_cost,
                                 std::uint64_t arc_cost) {
  using graph::vertex_t;
  const vertex_t n = g.num_vertices;
  parts = std::max<std::uint32_t>(parts, 1);
  owner_regions r;
  r.old_of_new.reserve(n);
  r.new_of_old.assign(n, graph::invalid_vertex);
  r.begin.resize(parts + 1);
  // discovered[v] = 1 + the region whose ball last queued v, so a ball queues a vertex once.
  std::vector<std::uint32_t> discovered(n, 0);
  std::vector<vertex_t> ball, leftover;
  vertex_t scan = 0;  // every caller id below scan is taken
  const auto cost = [&](vertex_t u) { return vertex_cost + arc_cost * g.degree(u); };
  std::uint64_t total = 0, spent = 0;
  for (vertex_t u = 0; u < n; ++u) total += cost(u);
  for (std::uint32_t b = 0; b < parts; ++b) {
    r.begin[b] = static_cast<vertex_t>(r.old_of_new.size());
    // Every region gets at least one vertex while vertices remain for the later ones.
    const std::uint64_t target = total * (b + 1) / parts;
    const std::size_t last = n - std::min<std::size_t>(n, parts - 1 - b);
    std::size_t seed_at = 0;
    ball.clear();
    std::size_t head = 0;
    while (r.old_of_new.size() < last && (spent < target || r.old_of_new.size() == r.begin[b])) {
      if (head == ball.size()) {  // a new seed: the previous ball's oldest untaken discovery, else the lowest id
        vertex_t seed = graph::invalid_vertex;
        while (seed_at < leftover.size() && seed == graph::invalid_vertex) {
          const vertex_t v = leftover[seed_at++];
          if (r.new_of_old[v] == graph::invalid_vertex && discovered[v] != b + 1) seed = v;
        }
        if (seed == graph::invalid_vertex) {
          while (r.new_of_old[scan] != graph::invalid_vertex || discovered[scan] == b + 1) ++scan;
          seed = scan;
        }
        discovered[seed] = b + 1;
        ball.push_back(seed);
      }
      const vertex_t u = ball[head++];
      if (r.new_of_old[u] != graph::invalid_vertex) continue;
      r.new_of_old[u] = static_cast<vertex_t>(r.old_of_new.size());
      r.old_of_new.push_back(u);
      spent += cost(u);
      for (graph::edge_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
        const vertex_t t = g.targets[a];
        if (r.new_of_old[t] == graph::invalid_vertex && discovered[t] != b + 1) {
          discovered[t] = b + 1;
          ball.push_back(t);
        }
      }
    }
    leftover.clear();
    for (std::size_t i = head; i < ball.size(); ++i)
      if (r.new_of_old[ball[i]] == graph::invalid_vertex) leftover.push_back(ball[i]);
  }
  r.begin[parts] = n;
  return r;
}

}  // namespace deltasplit::sssp::gpu
