// `deltasplit sssp --matrix OUT.npy` (and --batch-size, --summaries): many sources solved in batches
// (sssp::many_sources), the distance matrix streamed to a .npy file batch by batch with the row
// and column ids beside it (OUT.sources.txt, OUT.targets.txt), a progress line on a terminal, and
// --validate on a sample of rows.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "cli/npy_writer.hpp"
#include "cli/text_output.hpp"
#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::cli {

struct matrix_request {
  std::string graph_path;
  std::string matrix_path;  // empty: solve and summarise only
  std::string summaries_path;  // run_summaries: where its CSV goes (for the summary's line)
  bool force = false;
  bool validate = false;
  std::uint32_t batch_size = 0;  // 0 = automatic
  std::vector<graph::vertex_t> sources;
  std::vector<graph::vertex_t> targets;  // empty = all vertices
};

// The side files of the matrix: its path without a final ".npy", then ".sources.txt" or
// ".targets.txt" (m.npy: m.sources.txt, m.targets.txt; a path without .npy keeps all of it).
std::string matrix_side_file(const std::string& matrix_path, const char* what);

// The matrix file and its two side files (row and column ids), each written under a temporary
// name; commit() moves all three into place once every row is written. The paths were claimed
// (claim_matrix_files) before the solve.
class matrix_files {
 public:
  // descr and value_bytes: the .npy dtype (npy_writer); targets empty: every vertex a column.
  matrix_files(const std::string& matrix_path, bool force, const std::string& graph_path, const graph::csr& g,
               const std::vector<graph::vertex_t>& sources, const std::vector<graph::vertex_t>& targets,
               const char* descr, std::uint64_t value_bytes);
  ~matrix_files();
  void write_rows(const void* data, std::uint64_t count);
  void commit();

 private:
  std::unique_ptr<npy_writer> matrix_;
  text_output source_ids_, target_ids_;
};

// Refuses (usage_error) before any work when the matrix or a side file exists and force is not
// given, or names the input graph.
void claim_matrix_files(const std::string& matrix_path, bool force, const std::string& graph_path);

// Solves, writes and summarises; returns the exit code (exit_mismatch when a sampled row differs).
int run_matrix(const matrix_request& request, const graph::csr& g, const sssp::options& opts, std::ostream& summary);

// `deltasplit sssp --summaries OUT.csv`: each source's row summaries (many_sources::summarize_rows,
// every vertex a target) as CSV lines "source,reached,sum,farthest" (ids in the file's numbering;
// reals in 17 significant digits) into `out`, claimed before the load; --validate checks a sample of
// sources against Dijkstra's rows summed. Returns the exit code (exit_mismatch when one differs).
int run_summaries(const matrix_request& request, const graph::csr& g, const sssp::options& opts, text_output& out,
                  std::ostream& summary);

}  // namespace deltasplit::cli
