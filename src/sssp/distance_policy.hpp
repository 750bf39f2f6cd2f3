// How a path is extended by one arc, for every pair of stored weight and distance type
// (sssp.hpp's distance_type): the single place where the CPU solvers and the validator agree on
// arithmetic, so their results can be compared exactly.
//
// Integer distances (uint32 or uint64): a candidate above max_finite (the largest value the type
// holds besides its infinity, all ones) is dropped, the test made before the addition so nothing
// wraps. A dropped candidate changes the answer only if some vertex's true distance exceeds the
// bound, and then that vertex is left unreached while an arc leads to it from a reached vertex:
// that is exactly what overflowed_vertex() looks for, so an overflow is always reported, never
// hidden. uint32 is chosen only where no simple path can pass the bound (distance_type_for).
//
// Real distances (float32 or float64): a path's length is its left-to-right sum in the distance
// type, each weight first converted to it (double weights to float32 round to nearest, as the
// GPU engine's narrowed copy does; float weights to float64 are exact). Rounding to nearest is
// monotone, so the shortest such sum is well defined and every label-setting or label-correcting
// method that relaxes to a fixed point reaches it; Dijkstra and delta-stepping then agree bit for
// bit (and float64 of float64 weights is what scipy and NetworkX compute). A sum that rounds to
// +inf is dropped like an integer overflow.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp::detail {

template <class Distance>
struct distance_limits {
  static constexpr bool integral = std::is_integral_v<Distance>;
  static constexpr Distance infinity =
      integral ? std::numeric_limits<Distance>::max() : std::numeric_limits<Distance>::infinity();
  static constexpr Distance max_finite = integral ? infinity - 1 : std::numeric_limits<Distance>::max();
};

inline constexpr std::uint32_t max_int_distance = distance_limits<std::uint32_t>::max_finite;
// A bound on the length of every simple path of an integer graph (host view; distance_type.cpp).
std::uint64_t integer_path_bound(const csr_view& g);

template <class Weight, class Distance>
struct distance_policy {
  using weight = Weight;
  using distance = Distance;
  static constexpr distance infinity = distance_limits<Distance>::infinity;
  static constexpr distance zero = 0;

  explicit distance_policy(const Weight* w) : weights(w) {}
  // False when the sum does not fit; out is then untouched. d is finite.
  bool extend(distance d, edge_t arc, distance& out) const {
    if constexpr (distance_limits<Distance>::integral) {
      static_assert(sizeof(Weight) <= sizeof(Distance), "integer weights wider than their distances");
      const Weight w = weights[arc];
      if (w > distance_limits<Distance>::max_finite - d) return false;
      out = d + static_cast<Distance>(w);
    } else {
      const Distance sum = d + static_cast<Distance>(weights[arc]);
      if (!std::isfinite(sum)) return false;
      out = sum;
    }
    return true;
  }

  const Weight* weights;
};

template <class Distance>
constexpr distance_type type_of() {
  if constexpr (std::is_same_v<Distance, std::uint32_t>) return distance_type::uint32;
  else if constexpr (std::is_same_v<Distance, std::uint64_t>) return distance_type::uint64;
  else if constexpr (std::is_same_v<Distance, float>) return distance_type::float32;
  else return distance_type::float64;
}

// The vector, buffer or pointer of a result, output_buffers or block (many_sources.hpp) that
// holds distances of type Distance.
template <class Distance, class Holder>
auto& distances_in(Holder& h) {
  if constexpr (std::is_same_v<Distance, std::uint32_t>) return h.int_distances;
  else if constexpr (std::is_same_v<Distance, std::uint64_t>) return h.uint64_distances;
  else if constexpr (std::is_same_v<Distance, float>) return h.real_distances;
  else return h.float64_distances;
}

// The weights of g's kind and width as Weight: uint32 and float (narrow), uint64 and double (wide).
template <class Weight>
const Weight* weights_in(const csr_view& g) {
  if constexpr (std::is_same_v<Weight, std::uint32_t>) return g.int_weights.data();
  else if constexpr (std::is_same_v<Weight, std::uint64_t>) return g.uint64_weights.data();
  else if constexpr (std::is_same_v<Weight, float>) return g.real_weights.data();
  else return g.float64_weights.data();
}

// Throws std::invalid_argument unless t can hold g's distances: an integer type for integer
// weights (uint64 for wide ones), a real type for real weights.
void check_distance_type(const csr_view& g, distance_type t);

// Calls f(policy) with the policy of g's weights and distances of type t (check_distance_type).
template <class F>
decltype(auto) with_distances(const csr_view& g, distance_type t, F&& f) {
  check_distance_type(g, t);
  if (g.kind == graph::weight_kind::integer) {
    if (g.wide()) return f(distance_policy<std::uint64_t, std::uint64_t>(g.uint64_weights.data()));
    if (t == distance_type::uint32) return f(distance_policy<std::uint32_t, std::uint32_t>(g.int_weights.data()));
    return f(distance_policy<std::uint32_t, std::uint64_t>(g.int_weights.data()));
  }
  if (g.wide()) {
    if (t == distance_type::float32) return f(distance_policy<double, float>(g.float64_weights.data()));
    return f(distance_policy<double, double>(g.float64_weights.data()));
  }
  if (t == distance_type::float32) return f(distance_policy<float, float>(g.real_weights.data()));
  return f(distance_policy<float, double>(g.real_weights.data()));
}

// Calls f(Distance{}) for the C++ type of t.
template <class F>
decltype(auto) with_distance_type(distance_type t, F&& f) {
  switch (t) {
    case distance_type::uint32: return f(std::uint32_t{});
    case distance_type::uint64: return f(std::uint64_t{});
    case distance_type::float32: return f(float{});
    default: return f(double{});
  }
}

// A vertex that an arc from a reached vertex leads to while it stays unreached, or invalid_vertex.
// Once relaxation has converged only a dropped (overflowed) candidate can leave such a vertex.
template <class Distance>
vertex_t overflowed_vertex(const csr_view& g, const Distance* dist, Distance infinity) {
  for (vertex_t u = 0; u < g.num_vertices; ++u) {
    if (dist[u] == infinity) continue;
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      if (dist[g.targets[e]] == infinity) return g.targets[e];
  }
  return graph::invalid_vertex;
}

// A distance cutoff (options::cutoff) as a distance: the largest one not beyond it (no cutoff: the
// largest finite distance).
template <class Distance>
Distance cutoff_distance(double cutoff) {
  constexpr Distance top = distance_limits<Distance>::max_finite;
  if constexpr (std::is_floating_point_v<Distance>) {
    if (cutoff >= double(top)) return top;
    const Distance f = static_cast<Distance>(cutoff);
    return double(f) > cutoff ? std::nextafter(f, Distance(0)) : f;
  } else {
    return cutoff >= double(top) ? top : static_cast<Distance>(std::floor(cutoff));
  }
}

// True when every distance up to cutoff fits, so a dropped sum can only concern a vertex past the
// cutoff, which is reported unreachable anyway (and a solve stopped at the cutoff leaves vertices
// unreached that overflowed_vertex would take for overflows).
template <class Distance>
bool cutoff_below_overflow(double cutoff) {
  return cutoff <= double(distance_limits<Distance>::max_finite);
}

[[noreturn]] void throw_overflow(const csr_view& g, vertex_t source, vertex_t v, distance_type t);

// The forms for the 32-bit GPU engines (many sources, PHAST): the 32-bit type of the graph's kind.
inline distance_type narrow_type(graph::weight_kind kind) {
  return kind == graph::weight_kind::integer ? distance_type::uint32 : distance_type::float32;
}
inline bool cutoff_below_overflow(graph::weight_kind kind, double cutoff) {
  return kind == graph::weight_kind::integer ? cutoff_below_overflow<std::uint32_t>(cutoff)
                                             : cutoff_below_overflow<float>(cutoff);
}
[[noreturn]] inline void throw_overflow(const csr_view& g, vertex_t source, vertex_t v) {
  throw_overflow(g, source, v, narrow_type(g.kind));
}

// g (real weights, wide) with its weights rounded to float into storage: what the float32 solves
// of the GPU engine and PHAST read. storage must outlive the view.
csr_view narrow_weights(const csr_view& g, std::vector<float>& storage);

// Throws std::invalid_argument unless g's weights are narrow (uint32 or float): the GPU engine's
// door (`what` names the engine).
void require_narrow(const csr_view& g, const char* what);

}  // namespace deltasplit::sssp::detail
