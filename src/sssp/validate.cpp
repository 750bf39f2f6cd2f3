// The verifier beside every solver (GAPBS style): distances against Dijkstra, and the
// predecessor tree checked edge by edge and for being rooted at the source.
//
// Dijkstra runs in the result's type. Integer and float64 distances must match exactly (only the
// CPU solvers compute float64, and they reproduce Dijkstra's sums bit for bit: distance_policy.hpp).
// float32 distances are compared with a relative tolerance of real_tolerance: a GPU strategy may
// legitimately add in another association (e.g. fused or reordered arithmetic), and a few ulps of
// difference are not a wrong answer.
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

// Distances of the same kind, possibly of two widths (a result against an oracle of another).
template <class A, class B>
bool same_distance(A a, B b) {
  const bool a_reached = a != detail::distance_limits<A>::infinity, b_reached = b != detail::distance_limits<B>::infinity;
  if (!a_reached || !b_reached) return a_reached == b_reached;
  if constexpr (std::is_integral_v<A> != std::is_integral_v<B>) {
    return false;  // shape_ok refuses results of the other kind first
  } else if constexpr (std::is_integral_v<A>) {
    return std::uint64_t{a} == std::uint64_t{b};
  } else if constexpr (std::is_same_v<A, double> && std::is_same_v<B, double>) {
    return a == b;
  } else {
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

// A distance as text: integers in full, reals to their type's round-trip precision.
template <class Distance>
std::string show(Distance d) {
  if (d == detail::distance_limits<Distance>::infinity) return "inf";
  if constexpr (std::is_integral_v<Distance>) {
    return std::to_string(d);
  } else {
    std::ostringstream s;
    s.precision(std::is_same_v<Distance, float> ? 9 : 17);
    s << d;
    return s.str();
  }
}

bool shape_ok(const csr_view& g, const result& r, report& rep) {
  try {
    detail::check_distance_type(g, r.type);
  } catch (const std::invalid_argument& e) {
    rep.fail(std::string("result holds ") + e.what());
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
  const std::vector<distance>& dist = detail::distances_in<distance>(r);
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
                     show(dist[parent[v]]) + " explains distance " + show(dist[v]));
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
  if (shape_ok(g, r, rep))
    detail::with_distances(g, r.type, [&](const auto& policy) { check_tree(g, source, r, policy, rep); });
  return rep.done();
}

validation validate(const csr_view& g, vertex_t source, const result& r) {
  const bool real = g.kind == graph::weight_kind::real;
  return validate(g, source, r, dijkstra(g, source, false, real ? r.type : distance_type::float64));
}

validation validate(const csr_view& g, vertex_t source, const result& r, const result& oracle) {
  detail::check_graph(g);
  detail::check_source(g, source);
  report rep(g);
  if (!shape_ok(g, oracle, rep)) return rep.done();
  if (!shape_ok(g, r, rep)) return rep.done();
  detail::with_distances(g, r.type, [&](const auto& policy) {
    using D = typename std::decay_t<decltype(policy)>::distance;
    const auto& got = detail::distances_in<D>(r);
    detail::with_distance_type(oracle.type, [&](auto oracle_type) {
      const auto& expected = detail::distances_in<decltype(oracle_type)>(oracle);
      for (vertex_t v = 0; v < g.num_vertices; ++v)
        if (!same_distance(got[v], expected[v]))
          rep.add(v, "distance " + show(got[v]) + ", Dijkstra says " + show(expected[v]));
    });
    if (rep.clean() && !r.predecessors.empty()) check_tree(g, source, r, policy, rep);
  });
  return rep.done();
}

}  // namespace deltasplit::sssp
