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

double bounded_width(double delta, graph::weight_kind kind) {
  if (kind == graph::weight_kind::integer) {
    if (!(delta >= 1)) return 1;  // NaN too
    return std::min(std::floor(delta), 4294967294.0);
  }
  if (!(delta >= FLT_MIN)) return FLT_MIN;
  return std::min(delta, static_cast<double>(FLT_MAX));
}

// CPU, w the mean arc weight, d the mean out-degree, t the threads that solve:
//   delta = 256 w / d^2.8 * clamp((t / 16)^(1/3), 1/2, 1).
// Davidson et al.'s Near-Far form (C w / d) bent by the degree, as the GPU's rule is. The exponent
// and constant were fitted to the widths at which GAPBS runs best on 16 cores (USA-road-d.NY 30000,
// road-FLA 8000, Kronecker 20 2; issue 12) and checked by sweeping this solver on the H200 host's
// 16 Xeon cores (median of 9 solves from vertex 1, at 0d5ebdb; bench/results/cpu_solver.md):
//   NY (w 1293, d 2.76): the rule's 19254 took 4.03 ms; 9627 4.37, 13477 4.12, 26955 4.07,
//     30000 3.91, 38508 4.14, 77016 6.19.
//   FLA (w 500, d 2.51): 9721 took 10.07 ms, 8000 10.15 (in a second, slower call: 14.37 against
//     13.45 at 8000, 13.78 at 6804, 14.36 at 4860, 16.37 at 13609).
//   Kronecker 20 (w 128, d 29.9): 2 took 29.2-30.5 ms; 1 29.4, 3 31.0, 4 40.4, 8 31.7, 16 43.1.
//   soc-slashdot0902 (w 500, d 10.6): 172 took 4.02 ms, but 43 2.44; cit-HepPh (w 500, d 12.2): 116
//     took 1.50 ms, but 928 0.69. Nearly equal degrees, best widths 20x apart: mean degree cannot
//     place both, and the rule keeps the fits of the three larger graphs.
// Fewer threads want narrower buckets (less re-expansion matters more than fewer rounds): on 2
// dedicated cores of the same host half the 16-thread width was faster on every graph tried (2
// threads: NY 12.8 against 13.4 ms, FLA 50.7 / 52.0, slashdot 11.6 / 15.6, email-Enron 4.5 / 6.6,
// chicago-regional 0.86 / 0.94; cit-HepPh alone preferred twice the width, 1.80 / 2.02; one thread
// the same: NY 14.9 / 16.6, slashdot 16.3 / 22.6, email-Enron 5.2 / 8.2). The factor
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
// iterations, and on the H200 NY ran in 13.1 / 12.3 / 14.1 / 19.2 ms at delta 13000 / 26115 / 52000 /
// 104000 and FLA in 34.7 / 35.7 / 39.3 ms at 6400 / 12814 / 25600 (near-far, this loop). Dense,
// low-diameter graphs (R-MAT, d ~ 15) are work-bound but still pay per iteration: Graph500 scale 20
// ran Multisplit-SSSP in 6.4 / 5.5 / 4.3 ms at delta 70 / 138 / 280, and Near-Far (the build before
// the block-wide gather) in 5.2 / 4.1 / 4.8 ms at 130 / 260 / 520: above d = 4 the bend is gentler
// than the roads' d^-1.5.
// The rule gives FLA 12800, NY 26100, R-MAT scale 20 272, slashdot 570. A mean weight of 0 (or no
// arcs) gives 1. Each GPU loop takes its own multiple of it (loop_tuning.cuh): the step loop's
// widens it above a mean out-degree of 16, where d^-2 bends too far (x1.5 at d = 30, measured on
// the H100 in 2026-11; the rule here stays what the drivers' multiples and many_sources were
// measured against).
double gpu_auto_width(const graph_statistics& s, graph::weight_kind kind) {
  const double d = s.mean_degree;
  const double delta = d >= 4  ? 128.0 * s.mean_weight / (d * d)
                       : d > 0 ? 256.0 * s.mean_weight / std::pow(d, 2.5)
                               : 1.0;
  return bounded_width(delta > 0 ? delta : 1.0, kind);
}

}  // namespace deltasplit::sssp::detail
