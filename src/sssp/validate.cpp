// The verifier beside every solver (GAPBS style): distances against Dijkstra, and the
// predecessor tree checked edge by edge and for being rooted at the source.
//
// Integer distances must match exactly. Real distances are compared with a relative tolerance of
// real_tolerance: the CPU solvers reproduce Dijkstra's float sums bit for bit (distance_policy.hpp),
// but a GPU strategy may legitimately add in another association (e.g. fused or reordered
// arithmetic), and a few ulps of difference are not a wrong answer.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "deltasplit/sssp.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/graph_check.hpp"

namespace deltasplit::sssp {

namespace {

constexpr double real_tolerance = 1e-5;
constexpr std::uint64_t differences_reported = 5;

template <class Distance>
bool same_distance(Distance a, Distance b) {
  if constexpr (std::is_integral_v<Distance>) {
    return a == b;
  } else {
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return std::fabs(double{a} - double{b}) <= real_tolerance * std::max(std::fabs(double{a}), std::fabs(double{b}));
  }
}

// Collects the first few differences into a message and counts all of them.
class report {
 public:
  explicit report(const csr_view& g) : g_(g) {}
  void add(vertex_t v, const std::string& what) {
    if (v_.mismatches++ < differences_reported) out_ << (v_.mismatches > 1 ? "; " : "") << "vertex " << g_.external_id(v) << ": " << what;
  }
  bool clean() const { return v_.mismatches == 0; }
  void fail(const std::string& what) {
    ++v_.mismatches;
    out_ << (v_.mismatches > 1 ? "; " : "") << what;
  }
  validation done() {
    v_.ok = v_.mismatches == 0;
    if (v_.mismatches > differences_reported) out_ << "; ... " << v_.mismatches << " differences in all";
    v_.message = out_.str();
    return v_;
  }

 private:
  const csr_view& g_;
  validation v_;
  std::ostringstream out_;
};

std::string show(double d) {
  if (std::isinf(d)) return "inf";
  std::ostringstream s;
  s.precision(9);
  s << d;
  return s.str();
}

bool shape_ok(const csr_view& g, const result& r, report& rep) {
  if (r.kind != g.kind) {
    rep.fail("result holds " + std::string(r.kind == graph::weight_kind::integer ? "integer" : "real") +
             " distances for a graph with the other kind of weights");
    return false;
  }
  if (r.size() != g.num_vertices) {
    rep.fail("result has " + std::to_string(r.size()) + " distances for " + std::to_string(g.num_vertices) + " vertices");
    return false;
  }
  return true;
}

template <class Policy>
void check_tree(const csr_view& g, vertex_t source, const result& r, const Policy& policy, report& rep) {
  using distance = typename Policy::distance;
  const std::vector<distance>& dist = Policy::of(r);
  const std::vector<vertex_t>& parent = r.predecessors;
  if (parent.size() != g.num_vertices) {
    rep.fail("result has " + std::to_string(parent.size()) + " predecessors for " + std::to_string(g.num_vertices) +
             " vertices");
    return;
  }
  // A reached vertex other than the source needs a tight arc from its parent:
  // dist[v] == dist[parent] + w(parent, v).
  std::vector<bool> tight(g.num_vertices, false);
  for (vertex_t u = 0; u < g.num_vertices; ++u) {
    if (dist[u] == Policy::infinity) continue;
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      vertex_t v = g.targets[e];
      distance through;
      if (parent[v] == u && policy.extend(dist[u], e, through) && same_distance(through, dist[v])) tight[v] = true;
    }
  }
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    bool reached = dist[v] != Policy::infinity;
    if (v == source || !reached) {
      if (parent[v] != graph::invalid_vertex)
        rep.add(v, std::string(v == source ? "the source" : "an unreached vertex") + " has predecessor " +
                       std::to_string(parent[v] < g.num_vertices ? g.external_id(parent[v]) : parent[v]));
    } else if (parent[v] >= g.num_vertices) {
      rep.add(v, "reached but has no predecessor");
    } else if (!tight[v]) {
      rep.add(v, "no arc from predecessor " + std::to_string(g.external_id(parent[v])) + " with distance " +
                     show(double(dist[parent[v]])) + " explains distance " + show(double(dist[v])));
    }
  }
  if (!rep.clean()) return;
  // Tight arcs alone allow cycles of zero-weight arcs: every reached vertex must lead back to the
  // source. Colours: 0 unseen, 1 on the current walk, 2 known to reach the source.
  std::vector<std::uint8_t> colour(g.num_vertices, 0);
  colour[source] = 2;
  std::vector<vertex_t> walk;
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    if (dist[v] == Policy::infinity || colour[v] == 2) continue;
    vertex_t x = v;
    while (colour[x] == 0) {
      colour[x] = 1;
      walk.push_back(x);
      x = parent[x];
    }
    if (colour[x] == 1) {
      rep.add(x, "lies on a cycle of predecessors that does not reach the source");
      return;
    }
    for (vertex_t w : walk) colour[w] = 2;
    walk.clear();
  }
}

}  // namespace

validation check_predecessors(const csr_view& g, vertex_t source, const result& r) {
  detail::check_graph(g);
  detail::check_source(g, source);
  report rep(g);
  if (shape_ok(g, r, rep)) detail::with_distances(g, [&](const auto& policy) { check_tree(g, source, r, policy, rep); });
  return rep.done();
}

validation validate(const csr_view& g, vertex_t source, const result& r) {
  return validate(g, source, r, dijkstra(g, source, false));
}

validation validate(const csr_view& g, vertex_t source, const result& r, const result& oracle) {
  detail::check_graph(g);
  detail::check_source(g, source);
  report rep(g);
  if (!shape_ok(g, oracle, rep)) return rep.done();
  if (!shape_ok(g, r, rep)) return rep.done();
  detail::with_distances(g, [&](const auto& policy) {
    using P = std::decay_t<decltype(policy)>;
    const auto& expected = P::of(oracle);
    const auto& got = P::of(r);
    for (vertex_t v = 0; v < g.num_vertices; ++v)
      if (!same_distance(got[v], expected[v]))
        rep.add(v, "distance " + show(double(got[v])) + ", Dijkstra says " + show(double(expected[v])));
    if (rep.clean() && !r.predecessors.empty()) check_tree(g, source, r, policy, rep);
  });
  return rep.done();
}

}  // namespace deltasplit::sssp
