// Graph statistics, bounds and the automatic bucket widths (see bucket_width.hpp).
#include "sssp/bucket_width.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace deltasplit::sssp::detail {

graph_statistics measure(const graph::csr& g) {
  graph_statistics s;
  s.vertices = g.num_vertices;
  s.arcs = g.num_arcs();
  double total = 0, top = 0;
  if (g.kind == graph::weight_kind::integer) {
    for (std::uint32_t w : g.int_weights) total += w, top = std::max<double>(top, w);
  } else {
    for (float w : g.real_weights) total += w, top = std::max<double>(top, w);
  }
  s.mean_weight = s.arcs ? total / static_cast<double>(s.arcs) : 0;
  s.max_weight = top;
  s.mean_degree = s.vertices ? static_cast<double>(s.arcs) / static_cast<double>(s.vertices) : 0;
  return s;
}

double bounded_width(double delta, graph::weight_kind kind) {
  if (kind == graph::weight_kind::integer) {
    if (!(delta >= 1)) return 1;  // NaN too
    return std::min(std::floor(delta), 4294967294.0);
  }
  if (!(delta >= FLT_MIN)) return FLT_MIN;
  return std::min(delta, static_cast<double>(FLT_MAX));
}

// CPU, w the mean arc weight and d the mean out-degree: delta = 256 w / d^2.8.
double cpu_auto_width(const graph_statistics& s, graph::weight_kind kind) {
  if (s.arcs == 0 || s.mean_weight == 0) return bounded_width(1, kind);
  return bounded_width(256 * s.mean_weight / std::pow(s.mean_degree, 2.8), kind);
}

// GPU, w the mean arc weight and d the mean out-degree:
//   delta = 32 * w / d * (4 / d)^1.5  =  256 * w / d^2.5     for d < 4,
//   delta = 32 * w / d * (4 / d)      =  128 * w / d^2       for d >= 4 (the two meet at d = 4).
// Davidson et al.'s Near-Far rule (32 w / d) bent by the degree. A small delta costs buckets (bucket
// advances) and iterations; a large one re-relaxes light arcs of vertices whose distance is not
// final yet. Sparse, high-diameter graphs (roads, d ~ 2.5) are latency-bound: their time goes with
// iterations, and on the H200 NY ran in 13.1 / 12.3 / 14.1 / 19.2 ms at delta 13000 / 26115 / 52000 /
// 104000 and FLA in 34.7 / 35.7 / 39.3 ms at 6400 / 12814 / 25600 (near-far, this loop). Dense,
// low-diameter graphs (R-MAT, d ~ 15) are work-bound but still pay per iteration: Graph500 scale 20
// ran Multisplit-SSSP in 6.4 / 5.5 / 4.3 ms at delta 70 / 138 / 280, and Near-Far (the build before
// the block-wide gather) in 5.2 / 4.1 / 4.8 ms at 130 / 260 / 520: above d = 4 the bend is gentler
// than the roads' d^-1.5.
// The rule gives FLA 12800, NY 26100, R-MAT scale 20 272, slashdot 570. A mean weight of 0 (or no
// arcs) gives 1.
double gpu_auto_width(const graph_statistics& s, graph::weight_kind kind) {
  const double d = s.mean_degree;
  const double delta = d >= 4  ? 128.0 * s.mean_weight / (d * d)
                       : d > 0 ? 256.0 * s.mean_weight / std::pow(d, 2.5)
                               : 1.0;
  return bounded_width(delta > 0 ? delta : 1.0, kind);
}

}  // namespace deltasplit::sssp::detail
