// Graph statistics, bounds and the automatic bucket widths (see bucket_width.hpp).
#include "sssp/bucket_width.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace deltasplit::sssp::detail {

graph_statistics measure(const csr_view& g) {
  graph_statistics s;
  s.vertices = g.num_vertices;
  s.arcs = g.num_arcs();
  double total = 0, top = 0;
  for (edge_t e = 0; e < g.num_arcs(); ++e) {
    const double w = g.weight(e);
    total += w;
    top = std::max(top, w);
  }
  s.mean_weight = s.arcs ? total / static_cast<double>(s.arcs) : 0;
  s.max_weight = top;
  s.mean_degree = s.vertices ? static_cast<double>(s.arcs) / static_cast<double>(s.vertices) : 0;
  return s;
}

double bounded_width(double delta, graph::weight_kind kind, bool wide) {
  if (kind == graph::weight_kind::integer) {
    if (!(delta >= 1)) return 1;  // NaN too
    return std::min(std::floor(delta), wide ? 9223372036854775808.0 : 4294967294.0);
  }
  if (!(delta >= FLT_MIN)) return FLT_MIN;
  return std::min(delta, static_cast<double>(FLT_MAX));
}

// CPU, w the mean arc weight, d the mean out-degree, t the threads that solve:
//   delta = 256 w / d^2.8 * clamp((t / 16)^(1/3), 1/2, 1).
// Davidson et al.'s Near-Far form (C w / d) bent by the degree, as the GPU's rule is. The exponent
// and constant were fitted to the widths at which GAPBS runs best on 16 cores (USA-road-d.NY 30000,
// road-FLA 8000, Kronecker 20 2) and checked by sweeping this solver on 16 cores: the rule's width
// is at or near the best on NY, FLA and Kronecker 20. soc-slashdot0902 and cit-HepPh have nearly
// equal degrees but best widths far apart: mean degree cannot place both, and the rule keeps the
// fits of the three larger graphs (the sweeps: bench/results/cpu_solver.md).
// Fewer threads want narrower buckets (less re-expansion matters more than fewer rounds): on 1 and
// 2 dedicated cores half the 16-thread width was faster on every graph tried but cit-HepPh
// (bench/results/cpu_solver.md, "1 and 2 dedicated cores"). The factor
// is 1/2 at 1 and 2 threads and 1 at 16; between them (not measured) it follows the cube root.
double cpu_auto_width(const graph_statistics& s, graph::weight_kind kind, unsigned threads) {
  if (s.arcs == 0 || s.mean_weight == 0) return bounded_width(1, kind);
  const double team = std::clamp(std::cbrt(threads / 16.0), 0.5, 1.0);
  return bounded_width(team * 256 * s.mean_weight / std::pow(s.mean_degree, 2.8), kind);
}

// GPU, w the mean arc weight and d the mean out-degree:
//   delta = 32 * w / d * (4 / d)^1.5  =  256 * w / d^2.5     for d < 4,
//   delta = 32 * w / d * (4 / d)      =  128 * w / d^2       for d >= 4 (the two meet at d = 4).
// Davidson et al.'s Near-Far rule (32 w / d) bent by the degree. A small delta costs buckets (bucket
// advances) and iterations; a large one re-relaxes light arcs of vertices whose distance is not
// final yet. Sparse, high-diameter graphs (roads, d ~ 2.5) are latency-bound: their time goes with
// iterations, and ran best near the rule's width with wider buckets costing more. Dense,
// low-diameter graphs (R-MAT, d ~ 15) are work-bound but still pay per iteration and ran best at
// two to four times the road rule's width: above d = 4 the bend is gentler than the roads' d^-1.5
// (the sweeps: bench/results/sssp.md, "The automatic bucket width").
// The rule gives FLA 12800, NY 26100, R-MAT scale 20 272, slashdot 570. A mean weight of 0 (or no
// arcs) gives 1. Each GPU loop takes its own multiple of it (the tuning.cuh of its folder under sssp/gpu/): the step loop's
// widens it above a mean out-degree of 16, where d^-2 bends too far (x1.5 at d = 30,
// bench/results/loop_tuning.md; the rule here stays what the drivers' multiples and many_sources
// were measured against).
double gpu_auto_width(const graph_statistics& s, graph::weight_kind kind, bool wide) {
  const double d = s.mean_degree;
  const double delta = d >= 4  ? 128.0 * s.mean_weight / (d * d)
                       : d > 0 ? 256.0 * s.mean_weight / std::pow(d, 2.5)
                               : 1.0;
  return bounded_width(delta > 0 ? delta : 1.0, kind, wide);
}

}  // namespace deltasplit::sssp::detail
