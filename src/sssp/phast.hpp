// strategy::phast on the host: the contraction hierarchy, built once per solver (seconds on a road
// network) or loaded from options::hierarchy_file (sssp/hierarchy_file.hpp), and who sweeps it: the GPU engine (sssp/gpu/phast/phast.cu, through sssp/phast_engine.hpp)
// when one is usable, else the CPU (phast_cpu, sssp/contraction_hierarchy.hpp). sssp::solver
// (solve.cpp) and sssp::many_sources (many_sources.cpp) hold one of these for strategy::phast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "deltasplit/many_sources.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/many_sources_engine.hpp"

namespace deltasplit::sssp::detail {

// options::hierarchy_file with a strategy other than phast: std::invalid_argument.
void check_hierarchy_file(const options& opts);

class phast {
 public:
  // Obtains the hierarchy of g (a host view, checked by the caller): loaded from
  // opts.hierarchy_file when that file exists (graph::input_error when it is not this graph's),
  // else built with opts.threads and, when a file is named, written there. Uploads it when gpu is
  // true (on opts.stream when set). g must outlive this object.
  phast(const csr_view& g, const options& opts, bool gpu);
  ~phast();
  phast(const phast&) = delete;
  phast& operator=(const phast&) = delete;

  // Wall time of the construction: the contraction (and the file written) or the load, and the
  // upload on the GPU; "built" or "loaded"; the file named when it was made ("" for none).
  double setup_ms() const { return setup_ms_; }
  const std::string& setup() const { return setup_; }
  const std::string& hierarchy_file() const { return file_; }
  bool on_gpu() const;

  // One source into out (host or, on the GPU, device buffers), with opts.cutoff and
  // out.predecessors; stats.setup_ms and stats.setup are setup_ms() and setup().
  statistics run_into(vertex_t source, const options& opts, const output_buffers& out);

  // Many sources on the GPU: the engine's batches (phast_engine.hpp); null on the CPU.
  many_sources_engine* batches() const;

  // Many sources on the CPU: the distances from source to every vertex (caller ids, the graph's
  // distance type: std::uint32_t, std::uint64_t or float, num_vertices entries) into row, past cutoff unreachable. Calls
  // with different `member` (0 .. members - 1) may run at once; each has its own upward search.
  void cpu_row(unsigned member, vertex_t source, double cutoff, void* row);
  // The same for `count` sources (at most phast_group) into rows[0 .. count), in one sweep.
  void cpu_rows(unsigned member, const vertex_t* sources, std::size_t count, double cutoff, void* const* rows);
  void set_cpu_members(unsigned members);

  // The distances of the pairs (from[i], to[i]) by the hierarchy's bidirectional query on the host
  // (pair_distances, contraction_hierarchy.hpp), on `threads` threads, into out: count entries of
  // the graph's distance type (std::uint32_t, std::uint64_t or float), whether or not the sweeps
  // run on the GPU.
  void pairs(const vertex_t* from, const vertex_t* to, std::size_t count, void* out, unsigned threads) const;

  struct sweep;  // the typed state (hierarchy, searches, engine); phast.cpp

 private:
  std::vector<std::uint64_t> widened_;  // uint64 distances of 32-bit weights: the weights widened
  std::unique_ptr<sweep> sweep_;
  double setup_ms_ = 0;
  std::string setup_, file_;
};

}  // namespace deltasplit::sssp::detail
