#include "sssp/gpu/partitioned/owner_regions.hpp"

#include <algorithm>
#include <utility>

namespace deltasplit::sssp::gpu {

namespace {

using graph::vertex_t;

// Breadth-first order of the vertices of `part` (those with label[v] == part), over arcs that stay
// inside it, from `start`; vertices the search cannot reach are appended by further searches, from
// the lowest-numbered one left, so every vertex of the part appears once.
void part_order(const csr_view& g, const std::vector<std::uint32_t>& label, std::uint32_t part,
                const std::vector<vertex_t>& members, vertex_t start, std::vector<std::uint32_t>& seen,
                std::uint32_t stamp, std::vector<vertex_t>& order) {
  order.clear();
  std::size_t next_seed = 0;
  vertex_t seed = start;
  while (order.size() < members.size()) {
    if (seen[seed] != stamp) {
      seen[seed] = stamp;
      std::size_t head = order.size();
      order.push_back(seed);
      for (; head < order.size(); ++head) {
        const vertex_t u = order[head];
        for (graph::edge_t a = g.offsets[u]; a < g.offsets[u + 1]; ++a) {
          const vertex_t t = g.targets[a];
          if (label[t] == part && seen[t] != stamp) {
            seen[t] = stamp;
            order.push_back(t);
          }
        }
      }
    }
    while (next_seed < members.size() && seen[members[next_seed]] == stamp) ++next_seed;
    if (next_seed < members.size()) seed = members[next_seed];
  }
}

}  // namespace

owner_regions grow_owner_regions(const csr_view& g, std::uint32_t parts, std::uint64_t vertex_cost,
                                 std::uint64_t arc_cost) {
  const vertex_t n = g.num_vertices;
  parts = std::max<std::uint32_t>(1, std::min<std::uint32_t>(parts, std::max<vertex_t>(n, 1)));
  const auto cost = [&](vertex_t u) { return vertex_cost + arc_cost * g.degree(u); };
  std::vector<std::uint32_t> label(n, 0), seen(n, 0);
  std::uint32_t stamp = 0;
  // Work list of (label, parts it must still be cut into); labels are fresh per piece.
  struct piece {
    std::uint32_t label, parts;
    std::vector<vertex_t> members;
  };
  std::vector<piece> todo, done;
  todo.push_back({0, parts, {}});
  todo.back().members.resize(n);
  for (vertex_t v = 0; v < n; ++v) todo.back().members[v] = v;
  std::uint32_t next_label = 1;
  std::vector<vertex_t> order;
  while (!todo.empty()) {
    piece p = std::move(todo.back());
    todo.pop_back();
    if (p.members.empty()) {
      done.push_back(std::move(p));
      continue;
    }
    // A peripheral vertex: the last one reached from the piece's first vertex.
    part_order(g, label, p.label, p.members, p.members.front(), seen, ++stamp, order);
    const vertex_t far = order.back();
    part_order(g, label, p.label, p.members, far, seen, ++stamp, order);
    if (p.parts == 1) {
      p.members = order;  // the region's vertices in breadth-first order
      done.push_back(std::move(p));
      continue;
    }
    // Cut the breadth-first order from the peripheral vertex where the cost reaches the share of
    // the first half: its first part is a ball around that vertex, the rest its complement.
    const std::uint32_t left_parts = p.parts / 2;
    std::uint64_t total = 0;
    for (vertex_t v : order) total += cost(v);
    const std::uint64_t share = total * left_parts / p.parts;
    std::uint64_t spent = 0;
    std::size_t cut = 0;
    while (cut < order.size() && (spent < share || cut < left_parts) && order.size() - cut > p.parts - left_parts)
      spent += cost(order[cut++]);
    piece left{next_label++, left_parts, {}}, right{next_label++, p.parts - left_parts, {}};
    for (std::size_t i = 0; i < order.size(); ++i) label[order[i]] = i < cut ? left.label : right.label;
    // Members in increasing id order (part_order's fallback seeds, and the first search's start):
    // the piece's own members are, so splitting them by label keeps the order without a sort
    // (a sort per level was half of the whole partition's time on road-FLA).
    left.members.reserve(cut);
    right.members.reserve(order.size() - cut);
    for (vertex_t v : p.members) (label[v] == left.label ? left.members : right.members).push_back(v);
    todo.push_back(std::move(right));
    todo.push_back(std::move(left));
  }
  owner_regions r;
  r.old_of_new.reserve(n);
  r.new_of_old.assign(n, graph::invalid_vertex);
  r.begin.clear();
  // done holds the regions in cut order (left before right, depth first): neighbours stay close.
  for (const piece& p : done) {
    r.begin.push_back(static_cast<vertex_t>(r.old_of_new.size()));
    for (vertex_t v : p.members) {
      r.new_of_old[v] = static_cast<vertex_t>(r.old_of_new.size());
      r.old_of_new.push_back(v);
    }
  }
  while (r.begin.size() < parts) r.begin.push_back(n);
  r.begin.push_back(n);
  return r;
}

}  // namespace deltasplit::sssp::gpu
