// Multi-threaded delta-stepping on the CPU (Meyer and Sanders, "Delta-stepping: a parallelizable
// shortest path algorithm", J. Algorithms 49(1), 2003, Sections 2-3): the fallback where no GPU
// can be used, and the CPU baseline of `deltasplit compare`.
#pragma once

#include <limits>
#include <memory>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp::detail {

// The bucket width used when options.delta is 0 (the "auto" of the CLI):
//   delta = 256 * mean arc weight / mean out-degree^3.
// Davidson et al. (IPDPS 2014, Section V) take C * mean weight / mean degree for Near-Far; the
// CPU wants wider buckets on sparse road networks (little work per bucket, a barrier per round)
// and narrower ones on denser graphs (fewer re-relaxations), which the cubed degree gives. Fitted
// on the H200 host, 16 threads (best fixed widths tried, then the rule's): USA-road-d.NY >= 10,000
// (rule 15,700), road-FLA >= 12,000 (8,100, within 5%), R-MAT scale 18 20..80 (38),
// soc-Slashdot 100 (107). Integer graphs round it down to an integer, at least 1; a graph
// without arcs gets 1.
double auto_delta(const csr_view& g);

struct delta_stepping_workspace;  // labels, tags and per-thread buckets, kept between runs

class delta_stepping_cpu {
 public:
  delta_stepping_cpu(const csr_view& g, unsigned threads);
  ~delta_stepping_cpu();
  // delta <= 0 selects auto_delta(g). The solve stops before the first bucket past cutoff's
  // (options::cutoff); distances beyond the cutoff are left to the caller to clear.
  result run(vertex_t source, double delta, bool predecessors,
             double cutoff = std::numeric_limits<double>::infinity());
  unsigned threads() const { return pool_.size(); }

 private:
  csr_view g_;
  thread_pool pool_;
  std::unique_ptr<delta_stepping_workspace> work_;
};

}  // namespace deltasplit::sssp::detail
