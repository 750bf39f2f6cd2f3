// The distance types (sssp.hpp's distance_type): names, the rule that picks one for a graph, and
// the checks that keep a graph's weights and a solve's type consistent (distance_policy.hpp).
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "deltasplit/sssp.hpp"
#include "sssp/distance_policy.hpp"

namespace deltasplit::sssp {

const char* distance_type_name(distance_type t) {
  switch (t) {
    case distance_type::uint32: return "uint32";
    case distance_type::uint64: return "uint64";
    case distance_type::float32: return "float32";
    case distance_type::float64: return "float64";
  }
  throw std::invalid_argument("unknown distance type " + std::to_string(static_cast<int>(t)));
}

distance_type distance_type_from_name(const std::string& name) {
  for (distance_type t : {distance_type::uint32, distance_type::uint64, distance_type::float32, distance_type::float64})
    if (name == distance_type_name(t)) return t;
  throw std::invalid_argument("unknown distance type '" + name + "' (uint32, uint64, float32 or float64)");
}

bool is_wide(distance_type t) { return t == distance_type::uint64 || t == distance_type::float64; }

distance_type distance_type_for(const csr_view& g, distance_type real_type) {
  if (g.kind == graph::weight_kind::real) {
    if (real_type != distance_type::float32 && real_type != distance_type::float64)
      throw std::invalid_argument(std::string("real weights need a real distance type (float32 or float64), not ") +
                                  distance_type_name(real_type));
    return real_type;
  }
  if (g.wide()) return distance_type::uint64;
  // A device view's weights cannot be read here; the GPU engine solves it in uint32 and reports a
  // distance past 2^32 - 2 as distance_overflow.
  if (g.space == memory_space::device) return distance_type::uint32;
  return detail::integer_path_bound(g) <= detail::max_int_distance ? distance_type::uint32 : distance_type::uint64;
}

namespace detail {

// The longest simple path leaves each of at most n - 1 distinct vertices by one arc: it is at most
// the sum of the rows' heaviest arcs less the smallest of them (a row without arcs: 0). Sums
// saturate at 2^64 - 1.
std::uint64_t integer_path_bound(const csr_view& g) {
  std::uint64_t sum = 0, smallest = std::numeric_limits<std::uint64_t>::max();
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    std::uint64_t heaviest = 0;
    for (edge_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e)
      heaviest = std::max<std::uint64_t>(heaviest, g.wide() ? g.uint64_weights[e] : g.int_weights[e]);
    sum = heaviest > std::numeric_limits<std::uint64_t>::max() - sum ? std::numeric_limits<std::uint64_t>::max()
                                                                      : sum + heaviest;
    smallest = std::min(smallest, heaviest);
  }
  if (g.num_vertices == 0 || sum == std::numeric_limits<std::uint64_t>::max()) return g.num_vertices ? sum : 0;
  return sum - smallest;
}

void check_distance_type(const csr_view& g, distance_type t) {
  const bool integer_type = t == distance_type::uint32 || t == distance_type::uint64;
  const bool integer = g.kind == graph::weight_kind::integer;
  if (integer != integer_type || (integer && g.wide() && t == distance_type::uint32))
    throw std::invalid_argument(std::string("distances of type ") + distance_type_name(t) + " for a graph of " +
                                (g.wide() ? "wide " : "") + (integer ? "integer" : "real") + " weights");
}

void throw_overflow(const csr_view& g, vertex_t source, vertex_t v, distance_type t) {
  const char* bound = t == distance_type::uint32   ? "2^32 - 2 (uint32 distances)"
                      : t == distance_type::uint64 ? "2^64 - 2 (uint64 distances)"
                      : t == distance_type::float32 ? "the largest float32"
                                                    : "the largest float64";
  throw distance_overflow("the shortest distance from vertex " + std::to_string(g.external_id(source)) +
                          " to vertex " + std::to_string(g.external_id(v)) + " exceeds " + bound);
}

void require_narrow(const csr_view& g, const char* what) {
  if (g.wide())
    throw std::invalid_argument(std::string(what) + " reads 32-bit weights (uint32 or float) in this version; this graph's " +
                                "weights are 64-bit (uint64 or double): solve it on the CPU");
}

}  // namespace detail

}  // namespace deltasplit::sssp
