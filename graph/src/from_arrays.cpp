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

std::uint32_t weight_bits(std::uint32_t w, std::size_t) { return w; }

std::uint32_t weight_bits(float w, std::size_t i) {
  if (!(w >= 0.0f) || !std::isfinite(w))
    refuse("arc " + std::to_string(i) + " has weight " + std::to_string(w) +
           " (shortest paths need finite non-negative weights)");
  if (w == 0.0f) w = 0.0f;  // -0 would sort after every positive weight by its bits
  std::uint32_t bits;
  std::memcpy(&bits, &w, sizeof bits);
  return bits;
}

template <class W>
constexpr weight_kind kind_of() {
  return std::is_same_v<W, float> ? weight_kind::real : weight_kind::integer;
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
  arcs.weight.resize(m);
  for (std::size_t i = 0; i < m; ++i) arcs.weight[i] = weight_bits(weights[i], i);
  arcs.kind = kind_of<W>();
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

csr clean_csr_from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<std::uint32_t> weights,
                        bool symmetric, unsigned threads) {
  return from_arcs(n, src, dst, weights, symmetric, threads);
}
csr clean_csr_from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<float> weights, bool symmetric,
                        unsigned threads) {
  return from_arcs(n, src, dst, weights, symmetric, threads);
}
csr clean_csr(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<std::uint32_t> weights, bool symmetric,
              unsigned threads) {
  return from_rows(n, offsets, targets, weights, symmetric, threads);
}
csr clean_csr(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<float> weights, bool symmetric,
              unsigned threads) {
  return from_rows(n, offsets, targets, weights, symmetric, threads);
}

}  // namespace deltasplit::graph
