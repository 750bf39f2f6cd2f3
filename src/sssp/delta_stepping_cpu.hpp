// Multi-threaded delta-stepping on the CPU (Meyer and Sanders, "Delta-stepping: a parallelizable
// shortest path algorithm", J. Algorithms 49(1), 2003, Sections 2-3): the fallback where no GPU
// can be used, and the CPU baseline of `deltasplit compare`.
#pragma once

#include <memory>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp::detail {

// The bucket width used when options.delta is 0 (the "auto" of the CLI). Davidson et al. (IPDPS
// 2014, Section V) choose delta = C * mean weight / mean out-degree for Near-Far, so that a bucket
// holds about C light relaxations per vertex; the CPU uses the same rule with C = cpu_delta_factor,
// large enough that a bucket keeps every thread busy between two barriers. It is a rule of thumb,
// not a tuned optimum: on the 2-core development machine it picked the fastest of the widths tried
// on USA-road-d.NY (15,000) and was within 1.6x of the best on R-MAT scale 18 (1,065 against 10).
// Integer graphs round it down to an integer, at least 1; a graph without arcs gets 1.
inline constexpr double cpu_delta_factor = 32;
double auto_delta(const graph::csr& g, double factor);

struct delta_stepping_workspace;  // labels, tags and per-thread buckets, kept between runs

class delta_stepping_cpu {
 public:
  delta_stepping_cpu(const graph::csr& g, unsigned threads);
  ~delta_stepping_cpu();
  // delta <= 0 selects auto_delta(g, cpu_delta_factor).
  result run(vertex_t source, double delta, bool predecessors);
  unsigned threads() const { return pool_.size(); }

 private:
  const graph::csr& g_;
  thread_pool pool_;
  std::unique_ptr<delta_stepping_workspace> work_;
};

}  // namespace deltasplit::sssp::detail
