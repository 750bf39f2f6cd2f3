// Repeated solves from one source, reported by their median time (--runs): the first run of a
// GPU solve pays for lazy initialisation, and the median is robust to a stray slow run.
#pragma once

#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::cli {

struct timed_run {
  sssp::result result;  // distances of the first run; statistics of the (lower) median run
  double median_ms = 0;
  std::vector<double> times_ms;
};

timed_run run_timed(sssp::solver& s, graph::vertex_t source, unsigned runs);

// Millions of traversed arcs per second, counting every arc of the graph once (the usual MTEPS
// of SSSP benchmarks, independent of how many relaxations a strategy performs).
double mteps(const graph::csr& g, double milliseconds);

}  // namespace deltasplit::cli
