// Road-like 2D grids: rows x cols vertices joined to their 4 neighbours by undirected edges, a
// random fraction of the edges removed, random weights: a synthetic stand-in for road networks
// (large diameter, low uniform degree), the other graph family of seed paper 000, Section 7.2.
#include <stdexcept>
#include <string>

#include "csr_builder.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/weights.hpp"
#include "splitmix.hpp"

namespace deltasplit::graph {

csr generate_grid(const grid_params& p) {
  const std::uint64_t n = std::uint64_t{p.rows} * p.cols;
  if (n > max_vertices)
    throw std::invalid_argument("grid of " + std::to_string(n) + " vertices exceeds the limit of " +
                                std::to_string(max_vertices) + " (32-bit vertex ids)");
  if (!(p.keep_fraction >= 0 && p.keep_fraction <= 1))
    throw std::invalid_argument("grid keep fraction must lie in [0, 1]");
  if (p.weight_min > p.weight_max) throw std::invalid_argument("grid weight range is empty (min > max)");

  detail::arc_list arcs;
  arcs.num_vertices = static_cast<vertex_t>(n);
  arcs.symmetric = true;
  const std::uint64_t stream = detail::splitmix64(p.seed ^ 0x6772696400000000ULL);
  // An edge survives when a hash of (seed, edge) falls below keep_fraction: independent of order.
  auto keep = [&](vertex_t u, vertex_t v) {
    std::uint64_t h = detail::splitmix64(stream ^ ((std::uint64_t{u} << 32) | v));
    return static_cast<double>(h >> 11) * 0x1p-53 < p.keep_fraction;
  };
  for (std::uint64_t r = 0; r < p.rows; ++r) {
    for (std::uint64_t c = 0; c < p.cols; ++c) {
      vertex_t u = static_cast<vertex_t>(r * p.cols + c);
      if (c + 1 < p.cols && keep(u, u + 1)) {
        arcs.src.push_back(u);
        arcs.dst.push_back(u + 1);
      }
      if (r + 1 < p.rows && keep(u, u + p.cols)) {
        arcs.src.push_back(u);
        arcs.dst.push_back(u + p.cols);
      }
    }
  }
  provenance origin;
  origin.format = "grid";
  origin.one_based = false;
  origin.symmetric = true;
  origin.entries_read = arcs.src.size();
  csr g = detail::build_csr(std::move(arcs), std::move(origin));
  assign_random_weights(g, p.seed, p.weight_min, p.weight_max);
  return g;
}

}  // namespace deltasplit::graph
