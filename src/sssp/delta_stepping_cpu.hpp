// Multi-threaded delta-stepping on the CPU (Meyer and Sanders, "Delta-stepping: a parallelizable
// shortest path algorithm", J. Algorithms 49(1), 2003) with bucket fusion and thread-local bins
// (Beamer et al., GAPBS; Zhang et al., "Optimizing ordered graph algorithms with GraphIt", CGO
// 2020, Section 4): the fallback where no GPU can be used, and the CPU baseline of
// `deltasplit compare`.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp::detail {

// The solver's performance constants, with the measurements that chose them in
// delta_stepping_cpu.cpp. Benchmarks and tests pass other values; the product uses these.
struct cpu_tuning {
  // Bucket fusion: a thread keeps expanding the vertices it files into the current bucket on its
  // own, without a barrier, while they number fewer than this.
  std::size_t fusion_limit = 1024;
  // Graphs with fewer arcs run on the calling thread alone: waking a team and the barriers of
  // every round cost more than the parallel relaxations save.
  std::uint64_t parallel_arcs = 200000;
};

struct delta_stepping_workspace;  // labels and per-thread bins, kept between runs

class delta_stepping_cpu {
 public:
  // threads 0: all hardware threads. Fewer run when the graph is small (cpu_tuning::parallel_arcs).
  // Distances in distance_type_for(g, real_type) (sssp.hpp).
  delta_stepping_cpu(const csr_view& g, unsigned threads, const cpu_tuning& tuning = {},
                     distance_type real_type = distance_type::float64);
  ~delta_stepping_cpu();
  // delta <= 0 selects cpu_auto_width (sssp/bucket_width.cpp); every width is bounded there.
  // The solve stops before the first bucket past cutoff's (options::cutoff); distances beyond
  // the cutoff are left to the caller to clear.
  result run(vertex_t source, double delta, bool predecessors,
             double cutoff = std::numeric_limits<double>::infinity());
  distance_type type() const { return type_; }  // the distances' type
  unsigned threads() const { return pool_->size(); }  // the threads that solve
  const std::string& description() const { return description_; }  // stats.device

 private:
  csr_view g_;
  cpu_tuning tuning_;
  distance_type type_;
  std::unique_ptr<thread_pool> pool_;
  std::unique_ptr<delta_stepping_workspace> work_;
  std::string description_;
};

}  // namespace deltasplit::sssp::detail
