// Command-line plumbing shared by the sub-commands: Boost.Program_options parsing with --help,
// and the options that say how to read a graph file.
#pragma once

#include <cstdint>
#include <string>

#include <boost/program_options.hpp>

#include "cli/command.hpp"
#include "cli/progress_meter.hpp"
#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::cli {

namespace po = boost::program_options;

// Parses args for `deltasplit <command>`. Returns false after printing help when --help is given.
// Unknown options, missing values and bad values become usage_error naming the command.
bool parse_command_line(const std::string& command, const std::string& synopsis, const std::string& description,
                        const arguments& args, po::options_description& options,
                        const po::positional_options_description& positional, po::variables_map& vm);

// How to read a graph: --format (named format_flag), --weight-seed, --weight-range, --threads.
struct input_settings {
  std::string format;
  std::uint64_t weight_seed = 1;
  std::string weight_range = "0:1000";
  unsigned threads = 0;
  const char* format_flag = "format";
  // Host memory the command needs per vertex and per arc once the graph is loaded (sssp: results,
  // Dijkstra's state, the GPU upload's copy of the arcs): counted in the loader's memory check, so a graph the command could not go
  // on to solve is refused before it is read.
  std::uint64_t later_bytes_per_vertex = 0, later_bytes_per_arc = 0;
  bool negative_weights = false;  // read_options::negative_weights (sssp, after a negative_weight_error)
};
void add_input_options(po::options_description& options, input_settings& settings, const char* format_flag = "format");

// Reads path with settings, showing progress on a terminal; graph::input_error (file and line,
// or the memory needed and available) propagates to main().
graph::csr load_graph(const std::string& path, const input_settings& settings);

// How the solvers run, shared by sssp and compare: --delta, --buckets, --runs, --precision, and
// the GPU's small-frontier modes --light-phase and --cluster-blocks.
struct solver_settings {
  std::string delta = "auto";
  unsigned buckets = 10;
  unsigned runs = 1;
  std::string light_phase = "auto";
  unsigned cluster_blocks = 0;
  std::string driver = "auto";  // --driver: the GPU loop (sssp::gpu_driver)
  std::string heavy = "auto";   // --heavy: the step loop's heavy arcs (sssp::heavy_relaxation)
  std::string hierarchy;        // --hierarchy: phast's contraction hierarchy file (options::hierarchy_file)
  std::string precision = "double";  // --precision: real weights' distances (options::real_type)
};
// batches: the command has sssp's batched mode (--matrix, --batch-size), which --driver's help
// then describes too; the help names no option its command lacks.
void add_solver_options(po::options_description& options, solver_settings& settings, unsigned default_runs,
                        bool batches);
// The library options they describe (threads from input), or usage_error for a bad value.
// hierarchy_file is left to the command: it goes with strategy phast only.
sssp::options solver_options(const solver_settings& settings, const input_settings& input);

// What phast's setup was, for the summaries: "contraction hierarchy built", "... built and
// written to FILE" or "... loaded from FILE" (statistics::setup, options::hierarchy_file).
std::string describe_setup(const std::string& setup, const std::string& hierarchy_file);

// --threads: at most this many. Every solver and reader starts as many threads as asked; beyond
// any host's cores, more would only cost stacks and switches.
inline constexpr unsigned max_threads = 4096;
// --threads N as 0 <= N <= max_threads, or usage_error (a sign, a fraction, text, too many).
unsigned parse_threads(const std::string& text);

// "LO:HI" (or "LO,HI") with 0 <= LO <= HI < 2^32.
void parse_weight_range(const std::string& text, std::uint32_t& lo, std::uint32_t& hi);

// A file format by name (mtx, gr, edges, bin) as a usage error when unknown.
graph::file_format parse_format(const std::string& name, const char* flag);

// Host memory the sssp and compare commands need beyond the graph, per vertex and per arc
// (input_settings::later_bytes_*). The GPU solver checks its device memory itself, before
// allocating (engine.cu, reserve).
std::uint64_t solve_bytes_per_vertex(bool validate);
std::uint64_t solve_bytes_per_arc();

// Basename of a path, for summaries.
std::string file_name(const std::string& path);

// A solver (sssp::solver or sssp::many_sources) built from o for the graph at path, phast's
// contraction shown meanwhile on a terminal (options::progress) and its line erased once built.
template <class Solver, class... Extra>
Solver build_solver(const std::string& path, const graph::csr& g, sssp::options o, const Extra&... extra) {
  progress_meter meter("contraction hierarchy of " + file_name(path));
  o.progress = meter.callback();
  return Solver(g, o, extra...);
}

}  // namespace deltasplit::cli
