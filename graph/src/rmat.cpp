// R-MAT / Kronecker graphs (Chakrabarti, Zhan, Faloutsos 2004): every edge picks one of the four
// quadrants of the adjacency matrix with probabilities (a, b, c, d), scale times over, which
// yields the skewed, power-law degrees of social graphs. Seed paper 000, Section 7.2, runs SSSP
// on R-MAT graphs with (0.5, 0.1, 0.1, 0.3); Graph500 uses (0.57, 0.19, 0.19, 0.05).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "csr_builder.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/memory.hpp"
#include "deltasplit/graph/weights.hpp"
#include "splitmix.hpp"

namespace deltasplit::graph {

bool set_rmat_preset(rmat_params& p, const std::string& name) {
  for (const rmat_preset& preset : rmat_presets) {
    if (name != preset.name) continue;
    p.a = preset.a, p.b = preset.b, p.c = preset.c, p.d = preset.d;
    return true;
  }
  return false;
}

csr generate_rmat(const rmat_params& p) {
  if (p.scale > 31) throw std::invalid_argument("R-MAT scale " + std::to_string(p.scale) + " exceeds 31 (32-bit vertex ids)");
  if (!(p.edge_factor >= 0) || !std::isfinite(p.edge_factor))
    throw std::invalid_argument("R-MAT edge factor must be a non-negative number");
  const double sum = p.a + p.b + p.c + p.d;
  if (!(p.a >= 0 && p.b >= 0 && p.c >= 0 && p.d >= 0) || !(sum > 0) || !std::isfinite(sum))
    throw std::invalid_argument("R-MAT probabilities a, b, c, d must be non-negative with a positive sum");
  if (p.weight_min > p.weight_max) throw std::invalid_argument("R-MAT weight range is empty (min > max)");
  const std::uint64_t n = std::uint64_t{1} << p.scale;
  const double edges = std::round(p.edge_factor * static_cast<double>(n));
  if (edges > 0x1p62) throw std::invalid_argument("R-MAT edge count too large");
  const std::uint64_t m = static_cast<std::uint64_t>(edges);
  // Cumulative quadrant thresholds as 32-bit fractions (probabilities need not sum to 1). Each
  // level compares 32 random bits against them: two levels per 64-bit draw, and the quadrant
  // index (0..3, its two bits the row and column bit) is a sum of comparisons, without branches.
  auto threshold = [sum](double upto) {
    return static_cast<std::uint64_t>(std::min(std::ldexp(upto / sum, 32), 0x1p32));
  };
  const std::uint64_t ta = threshold(p.a), tb = threshold(p.a + p.b), tc = threshold(p.a + p.b + p.c);

  // The edge lists, then the CSR built from them: checked before either is allocated.
  const std::uint64_t lists = saturating_mul(8, m);
  require_memory("R-MAT graph of 2^" + std::to_string(p.scale) + " vertices and " + std::to_string(m) + " edges",
                 saturating_add(lists, detail::build_csr_extra_bytes(n, m, p.undirected, false, lists)), p.memory_limit);

  detail::arc_list arcs;
  arcs.num_vertices = static_cast<vertex_t>(n);
  arcs.symmetric = p.undirected;
  arcs.src.resize(m);
  arcs.dst.resize(m);
  const std::uint64_t stream = detail::splitmix64(p.seed);
  // Edges are drawn in rounds so that progress can be shown between them; each edge draws from
  // its own stream, so the graph depends neither on the thread count nor on the rounds.
  constexpr std::uint64_t round_edges = std::uint64_t{1} << 26;
  for (std::uint64_t first = 0; first < m; first += round_edges) {
    const std::uint64_t count = std::min(round_edges, m - first);
    detail::parallel_ranges(count, 0, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = first + begin; i < first + end; ++i) {
        detail::splitmix_stream rng(stream ^ detail::splitmix64(i));
        vertex_t u = 0, v = 0;
        std::uint64_t bits = 0;
        for (unsigned level = 0; level < p.scale; ++level) {
          if (level % 2 == 0) bits = rng.next();
          std::uint64_t r = bits & 0xffffffffu;
          bits >>= 32;
          unsigned quadrant = unsigned(r >= ta) + unsigned(r >= tb) + unsigned(r >= tc);
          u = (u << 1) | (quadrant >> 1);
          v = (v << 1) | (quadrant & 1);
        }
        arcs.src[i] = u;
        arcs.dst[i] = v;
      }
    });
    if (p.progress) p.progress("generating", first + count, m);
  }

  provenance origin;
  origin.format = "rmat";
  origin.one_based = false;
  origin.symmetric = p.undirected;
  origin.entries_read = m;
  csr g = detail::build_csr(std::move(arcs), std::move(origin), 0, &p.progress);
  assign_random_weights(g, p.seed, p.weight_min, p.weight_max);
  return g;
}

}  // namespace deltasplit::graph
