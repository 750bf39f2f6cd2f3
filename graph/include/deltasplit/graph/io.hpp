// Reading and writing graph files. Formats (detected from content, not only the name):
//   Matrix Market coordinate (pattern | integer | real; general | symmetric), optionally gzip
//   DIMACS shortest-path .gr (optionally gzip)
//   edge lists (SNAP style: 0-based "u v [w]" lines, '#' comments), optionally gzip
//   binary CSR cache (.dsg): versioned, checksummed, tied to its source file
// Every malformed input throws input_error naming the file and line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/progress.hpp"

namespace deltasplit::graph {

enum class file_format { automatic, matrix_market, dimacs, edge_list, binary };

struct read_options {
  file_format format = file_format::automatic;
  // Weights for files without them: uniform integers in [weight_min, weight_max] from the seed,
  // the same for both directions of an undirected edge (see weights.hpp).
  std::uint64_t weight_seed = 1;
  std::uint32_t weight_min = 0;
  std::uint32_t weight_max = 1000;
  bool force_generated_weights = false;  // ignore the file's own weights and draw new ones
  unsigned threads = 0;                   // parsing and building threads; 0 = all hardware threads
  std::size_t block_bytes = 0;            // text parsed per parallel round; 0 = 32 MiB (2 MiB gzip)
  // Memory the reader may allocate; 0: what the machine has available (memory.hpp). Sizes a file
  // declares, and the entries it holds, are checked against it before the arrays are allocated:
  // a graph that does not fit is refused (input_error with the bytes needed and available).
  std::uint64_t memory_limit = 0;
  // What the caller will need per vertex and per arc once the graph is loaded (a solver's
  // state): counted in the same checks, so that a graph the command could not go on to use is
  // refused before it is read rather than after.
  std::uint64_t later_bytes_per_vertex = 0, later_bytes_per_arc = 0;
  progress_fn progress;                   // called between blocks; empty: none
  // Accept negative weights (Matrix Market, DIMACS and edge lists): integer weights are then
  // int64 and real ones double, and the graph is marked csr::signed_weights (see there). Without
  // it a negative weight is a negative_weight_error (error.hpp).
  bool negative_weights = false;
};

csr read_graph(const std::string& path, const read_options& options = {});

// Guesses the format from the content (banner, "p sp" line, cache magic), then the extension.
file_format detect_format(const std::string& path);
const char* format_name(file_format f);
file_format format_from_name(const std::string& name);  // "mtx", "gr", "edges", "bin"; throws on others

struct write_options {
  file_format format = file_format::automatic;  // automatic: from OUT's extension
  bool overwrite = false;                       // refuse to replace an existing file unless set
  bool gzip = false;                            // also implied by a ".gz" extension
  progress_fn progress;                         // "writing", in arcs; empty: none
};

// Writes through a temporary file and a rename: a failed write never leaves a half file, and an
// existing file (or the input itself) is never replaced unless options.overwrite is set.
void write_graph(const csr& g, const std::string& path, const write_options& options = {});

// Writes to an open file descriptor instead (a pipe, standard output): in order, no temporary file,
// nothing replaced or renamed, the descriptor left open. options.format must name the format (a
// descriptor has no extension); options.gzip compresses; overwrite does not apply. `name` names
// the stream in errors (std::runtime_error on a failed write, std::invalid_argument as write_graph).
// For graphs whose files would not fit where they are needed: `deltasplit convert IN - --format F`.
void write_graph_to(const csr& g, int fd, const std::string& name, const write_options& options);

}  // namespace deltasplit::graph
