// Arrays to a clean CSR through the readers' builder (see from_arrays.hpp).
#include "deltasplit/graph/from_arrays.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "csr_builder.hpp"

namespace deltasplit::graph {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument("clean_csr: " + why); }

// The builder's bits of a weight: integers as they are, reals (checked finite and non-negative)
// as their bit patterns, 32 bits for uint32 and float, 64 for uint64 and double.
template <class W>
auto weight_bits(W w, std::size_t i) {
  if constexpr (std::is_integral_v<W>) {
    return w;
  } else {
    if (!(w >= 0) || !std::isfinite(w))
      refuse("arc " + std::to_string(i) + " has weight " + std::to_string(w) +
             " (shortest paths need finite non-negative weights)");
    if (w == 0) w = 0;  // -0 would sort after every positive weight by its bits
    std::conditional_t<sizeof(W) == 4, std::uint32_t, std::uint64_t> bits;
    std::memcpy(&bits, &w, sizeof bits);
    return bits;
  }
}

template <class W>
constexpr weight_kind kind_of() {
  return std::is_floating_point_v<W> ? weight_kind::real : weight_kind::integer;
}

template <class W>
csr build(detail::arc_list&& arcs, span<W> weights, bool symmetric, unsigned threads) {
  const std::size_t m = arcs.dst.size();
  if (weights.size() != m)
    refuse(std::to_string(weights.size()) + " weights for " + std::to_string(m) + " arcs");
  for (std::size_t i = 0; i < m; ++i)
    if (arcs.src[i] >= arcs.num_vertices || arcs.dst[i] >= arcs.num_vertices)
      refuse("arc " + std::to_string(i) + " (" + std::to_string(arcs.src[i]) + " -> " + std::to_string(arcs.dst[i]) +
             ") names a vertex outside 0.." + std::to_string(std::int64_t{arcs.num_vertices} - 1));
  constexpr bool wide = sizeof(W) == 8;
  auto& bits = [&arcs]() -> auto& {
    if constexpr (wide)
      return arcs.wide_weight;
    else
      return arcs.weight;
  }();
  bits.resize(m);
  for (std::size_t i = 0; i < m; ++i) bits[i] = weight_bits(weights[i], i);
  arcs.kind = kind_of<W>();
  arcs.width = wide ? weight_width::wide : weight_width::narrow;
  arcs.symmetric = symmetric;
  provenance origin;
  origin.format = "arrays";
  origin.one_based = false;
  origin.symmetric = symmetric;
  origin.entries_read = m;
  return detail::build_csr(std::move(arcs), std::move(origin), threads);
}

template <class W>
csr from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<W> weights, bool symmetric, unsigned threads) {
  if (src.size() != dst.size())
    refuse(std::to_string(src.size()) + " sources for " + std::to_string(dst.size()) + " targets");
  detail::arc_list arcs;
  arcs.num_vertices = n;
  arcs.src.assign(src.begin(), src.end());
  arcs.dst.assign(dst.begin(), dst.end());
  return build(std::move(arcs), weights, symmetric, threads);
}

template <class W>
csr from_rows(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<W> weights, bool symmetric,
              unsigned threads) {
  if (offsets.size() != std::size_t{n} + 1)
    refuse(std::to_string(offsets.size()) + " offsets for " + std::to_string(n) + " vertices (need n + 1)");
  if (offsets[0] != 0) refuse("offsets[0] is " + std::to_string(offsets[0]) + ", not 0");
  for (std::size_t v = 0; v < n; ++v)
    if (offsets[v + 1] < offsets[v]) refuse("offsets decrease at vertex " + std::to_string(v));
  if (offsets[n] != targets.size())
    refuse("offsets end at " + std::to_string(offsets[n]) + " but there are " + std::to_string(targets.size()) +
           " targets");
  detail::arc_list arcs;
  arcs.num_vertices = n;
  arcs.src.resize(targets.size());
  for (vertex_t v = 0; v < n; ++v)
    for (edge_t e = offsets[v]; e < offsets[v + 1]; ++e) arcs.src[e] = v;
  arcs.dst.assign(targets.begin(), targets.end());
  return build(std::move(arcs), weights, symmetric, threads);
}

}  // namespace

#define DELTASPLIT_CLEAN_CSR(W)                                                                                   \
  csr clean_csr_from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<W> weights, bool symmetric,    \
                          unsigned threads) {                                                                       \
    return from_arcs(n, src, dst, weights, symmetric, threads);                                                     \
  }                                                                                                                 \
  csr clean_csr(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<W> weights, bool symmetric,          \
                unsigned threads) {                                                                                 \
    return from_rows(n, offsets, targets, weights, symmetric, threads);                                             \
  }
DELTASPLIT_CLEAN_CSR(std::uint32_t)
DELTASPLIT_CLEAN_CSR(std::uint64_t)
DELTASPLIT_CLEAN_CSR(float)
DELTASPLIT_CLEAN_CSR(double)
#undef DELTASPLIT_CLEAN_CSR

}  // namespace deltasplit::graph
