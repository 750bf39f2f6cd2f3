// Median-of-R timing of one source (see timed_runs.hpp).
#include "cli/timed_runs.hpp"

#include <algorithm>

namespace deltasplit::cli {

timed_run run_timed(sssp::solver& s, graph::vertex_t source, unsigned runs) {
  timed_run t;
  std::vector<sssp::statistics> stats;
  for (unsigned i = 0; i < runs; ++i) {
    sssp::result r = s.run(source);
    stats.push_back(r.stats);
    t.times_ms.push_back(r.stats.milliseconds);
    if (i == 0) t.result = std::move(r);  // every run computes the same distances; keep one
  }
  std::vector<double> sorted = t.times_ms;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = (sorted.size() - 1) / 2;
  t.median_ms = sorted.size() % 2 ? sorted[mid] : (sorted[mid] + sorted[mid + 1]) / 2;
  for (const sssp::statistics& st : stats)
    if (st.milliseconds == sorted[mid]) {
      t.result.stats = st;
      break;
    }
  return t;
}

double mteps(const graph::csr& g, double milliseconds) {
  return milliseconds > 0 ? static_cast<double>(g.num_arcs()) / (milliseconds * 1e3) : 0;
}

}  // namespace deltasplit::cli
