// How a path is extended by one arc, for the two kinds of weight: the single place where the
// CPU solvers and the validator agree on arithmetic, so their results can be compared exactly.
//
// Integer weights: sums are formed in 64 bits and a candidate above max_int_distance (2^32 - 2,
// the largest value a 32-bit distance can hold besides int_infinity) is dropped. A dropped
// candidate changes the answer only if some vertex's true distance exceeds the bound, and then
// that vertex is left unreached while an arc leads to it from a reached vertex: that is exactly
// what distance_overflowed() looks for, so an overflow is always reported, never hidden.
//
// Real weights: distances are single precision and a path's length is its left-to-right float
// sum, as on the GPU (relax kernels add one arc at a time in float). Rounding to nearest is
// monotone, so the shortest such sum is well defined and every label-setting or label-correcting
// method that relaxes to a fixed point reaches it; Dijkstra and delta-stepping then agree bit for
// bit. A sum that rounds to +inf is dropped like an integer overflow.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp::detail {

inline constexpr std::uint32_t max_int_distance = int_infinity - 1;

struct int_distances {
  using distance = std::uint32_t;
  static constexpr distance infinity = int_infinity;
  static constexpr distance zero = 0;

  explicit int_distances(const csr_view& g) : weights(g.int_weights.data()) {}
  // False when the sum does not fit; out is then untouched.
  bool extend(distance d, edge_t arc, distance& out) const {
    std::uint64_t sum = std::uint64_t{d} + weights[arc];
    if (sum > max_int_distance) return false;
    out = static_cast<distance>(sum);
    return true;
  }
  double weight(edge_t arc) const { return weights[arc]; }
  static std::vector<distance>& of(result& r) { return r.int_distances; }
  static const std::vector<distance>& of(const result& r) { return r.int_distances; }

  const std::uint32_t* weights;
};

struct real_distances {
  using distance = float;
  static constexpr distance infinity = std::numeric_limits<float>::infinity();
  static constexpr distance zero = 0.0f;

  explicit real_distances(const csr_view& g) : weights(g.real_weights.data()) {}
  bool extend(distance d, edge_t arc, distance& out) const {
    float sum = d + weights[arc];
    if (!std::isfinite(sum)) return false;
    out = sum;
    return true;
  }
  double weight(edge_t arc) const { return weights[arc]; }
  static std::vector<distance>& of(result& r) { return r.real_distances; }
  static const std::vector<distance>& of(const result& r) { return r.real_distances; }

  const float* weights;
};

// Calls f(policy) with the policy matching g's weights.
template <class F>
decltype(auto) with_distances(const csr_view& g, F&& f) {
  if (g.kind == graph::weight_kind::integer) return f(int_distances(g));
  return f(real_distances(g));
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
  if constexpr (std::is_same_v<Distance, float>) {
    if (cutoff >= double(std::numeric_limits<float>::max())) return std::numeric_limits<float>::max();
    const float f = static_cast<float>(cutoff);
    return double(f) > cutoff ? std::nextafter(f, 0.0f) : f;
  } else {
    return cutoff >= double(max_int_distance) ? max_int_distance : static_cast<std::uint32_t>(std::floor(cutoff));
  }
}

// True when every distance up to cutoff fits, so a dropped sum can only concern a vertex past the
// cutoff, which is reported unreachable anyway (and a solve stopped at the cutoff leaves vertices
// unreached that overflowed_vertex would take for overflows).
inline bool cutoff_below_overflow(graph::weight_kind kind, double cutoff) {
  return kind == graph::weight_kind::integer ? cutoff <= double(max_int_distance)
                                             : cutoff <= double(std::numeric_limits<float>::max());
}

[[noreturn]] inline void throw_overflow(const csr_view& g, vertex_t source, vertex_t v) {
  const char* bound = g.kind == graph::weight_kind::integer ? "2^32 - 2 (integer distances are 32-bit)"
                                                            : "the largest float";
  throw distance_overflow("the shortest distance from vertex " + std::to_string(g.external_id(source)) +
                          " to vertex " + std::to_string(g.external_id(v)) + " exceeds " + bound);
}

}  // namespace deltasplit::sssp::detail
