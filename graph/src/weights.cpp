// Deterministic edge weights for unweighted graphs (see weights.hpp). Seed paper 000, Section 7.2:
// the SSSP experiments draw integer weights uniformly from [0, 1000].
#include "deltasplit/graph/weights.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "csr_builder.hpp"
#include "splitmix.hpp"

namespace deltasplit::graph {

std::uint32_t edge_weight(std::uint64_t seed, vertex_t u, vertex_t v, std::uint32_t lo, std::uint32_t hi) {
  if (lo > hi) throw std::invalid_argument("weight range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty");
  return detail::mixed_edge_weight(detail::splitmix64(seed), std::min(u, v), std::max(u, v), lo,
                                   std::uint64_t{hi} - lo + 1);
}

void assign_random_weights(csr& g, std::uint64_t seed, std::uint32_t lo, std::uint32_t hi) {
  if (lo > hi) throw std::invalid_argument("weight range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] is empty");
  if (g.offsets.size() != std::size_t{g.num_vertices} + 1 || g.offsets.back() != g.num_arcs())
    throw std::invalid_argument("assign_random_weights: malformed CSR");
  g.kind = weight_kind::integer;
  g.width = weight_width::narrow;
  std::vector<float>().swap(g.real_weights);
  std::vector<std::uint64_t>().swap(g.uint64_weights);
  std::vector<double>().swap(g.float64_weights);
  g.int_weights.resize(g.targets.size());
  const vertex_t n = g.num_vertices;
  const std::uint64_t mixed = detail::splitmix64(seed), span = std::uint64_t{hi} - lo + 1;
  auto arc_cut = [&](unsigned i, unsigned parts) -> vertex_t {
    if (i >= parts) return n;
    edge_t goal = g.num_arcs() * i / parts;
    return static_cast<vertex_t>(std::lower_bound(g.offsets.begin(), g.offsets.end() - 1, goal) - g.offsets.begin());
  };
  unsigned parts = g.num_arcs() < (edge_t{1} << 16) ? 1 : detail::worker_count(0);
  detail::parallel_parts(parts, [&](unsigned i) { return arc_cut(i, parts); }, [&](vertex_t begin, vertex_t end) {
    for (vertex_t u = begin; u < end; ++u) {
      for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        vertex_t v = g.targets[e];
        g.int_weights[e] = detail::mixed_edge_weight(mixed, std::min(u, v), std::max(u, v), lo, span);
      }
    }
  });
  g.origin.weights_generated = true;
  g.origin.weight_seed = seed;
  g.origin.weight_min = lo;
  g.origin.weight_max = hi;
}

}  // namespace deltasplit::graph
