// Synthetic graphs, deterministic for a seed.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/progress.hpp"

namespace deltasplit::graph {

// R-MAT / Kronecker (Chakrabarti et al.). 2^scale vertices, edge_factor * 2^scale edges drawn,
// each placed by recursive quadrant choice with probabilities (a, b, c, d).
struct rmat_params {
  unsigned scale = 16;
  double edge_factor = 16;
  double a = 0.57, b = 0.19, c = 0.19, d = 0.05;  // Graph500; the multisplit paper uses (0.5, 0.1, 0.1, 0.3)
  bool undirected = false;                          // store both directions of every edge
  std::uint64_t seed = 1;
  std::uint32_t weight_min = 0, weight_max = 1000;
  // Memory generation may allocate; 0: what the machine has available. A graph that does not
  // fit is refused (memory_error) before its arrays are allocated.
  std::uint64_t memory_limit = 0;
  progress_fn progress;  // "generating" in edges drawn, then "building"; empty: none
};
csr generate_rmat(const rmat_params& p);

// Named quadrant probabilities (a, b, c, d): "graph500" (.57, .19, .19, .05, rmat_params'
// default) and "paper" (.5, .1, .1, .3, seed paper 000's), for the CLI's --preset and Python's
// Graph.rmat(preset=...).
struct rmat_preset {
  const char* name;
  double a, b, c, d;
};
inline constexpr std::array<rmat_preset, 2> rmat_presets{{{"graph500", 0.57, 0.19, 0.19, 0.05},
                                                           {"paper", 0.5, 0.1, 0.1, 0.3}}};
// Sets p.a..p.d to the preset of that name; false (p unchanged) for any other name.
bool set_rmat_preset(rmat_params& p, const std::string& name);

// 2D grid, road-like: rows x cols vertices, 4-neighbour undirected edges, a fraction of them
// removed at random and weights drawn from [weight_min, weight_max].
struct grid_params {
  std::uint32_t rows = 256, cols = 256;
  double keep_fraction = 1.0;
  std::uint64_t seed = 1;
  std::uint32_t weight_min = 0, weight_max = 1000;
};
csr generate_grid(const grid_params& p);

}  // namespace deltasplit::graph
