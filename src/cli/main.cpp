// The deltasplit program: sub-commands over the public API (deltasplit/sssp.hpp) and the graph
// layer. Every error is reported here once, as "deltasplit: error: ..." with the file (and line,
// for malformed graphs), and a nonzero exit status.
#include <iostream>
#include <new>
#include <string>

#include "cli/command.hpp"
#include "deltasplit/graph/error.hpp"
#include "deltasplit/sssp.hpp"

namespace {

using deltasplit::cli::arguments;

constexpr const char* overview =
    "deltasplit: delta-stepping single-source shortest paths on the GPU, with Near-Far, Bucketing\n"
    "and Multisplit frontiers, and on the CPU\n"
    "\n"
    "usage: deltasplit COMMAND [options]        deltasplit COMMAND --help for its options\n"
    "\n"
    "commands:\n"
    "  sssp GRAPH          shortest paths from one or more sources (validation, outputs, statistics)\n"
    "  compare GRAPH       every strategy on one graph and source, validated, in one table\n"
    "  info GRAPH          vertices, arcs, self-loops, duplicates, degrees, weights, format\n"
    "  convert IN OUT      between graph formats\n"
    "  generate rmat|grid  synthetic graphs (-o OUT)\n"
    "\n"
    "Graphs: Matrix Market (.mtx), DIMACS (.gr), edge lists (.edges, .txt) and the binary CSR cache\n"
    "(.dsg), each optionally gzip-compressed (.gz). Vertex ids on the command line and in output\n"
    "files are in the file's numbering: 1-based for Matrix Market and DIMACS, 0-based for edge lists.\n"
    "Unweighted graphs get uniform random integer weights in [0, 1000] from --weight-seed.\n"
    "\n"
    "exit status: 0 success, 1 error (input file, I/O, GPU, overflow), 2 bad command line,\n"
    "3 a result differs from Dijkstra (--validate, compare)\n";

int dispatch(const std::string& command, const arguments& args) {
  using namespace deltasplit::cli;
  if (command == "sssp") return run_sssp(args);
  if (command == "compare") return run_compare(args);
  if (command == "info") return run_info(args);
  if (command == "convert") return run_convert(args);
  if (command == "generate") return run_generate(args);
  throw usage_error("unknown command '" + command + "' (see deltasplit --help)");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace deltasplit::cli;
  if (argc < 2) {
    std::cerr << overview;
    return exit_usage;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    if (argc > 2) return dispatch(argv[2], {"--help"});
    std::cout << overview;
    return exit_success;
  }
  if (command == "--version") {
    std::cout << "deltasplit " << DELTASPLIT_VERSION << "\n";
    return exit_success;
  }
  try {
    return dispatch(command, arguments(argv + 2, argv + argc));
  } catch (const usage_error& e) {
    std::cerr << "deltasplit: " << e.what() << "\n";
    return exit_usage;
  } catch (const deltasplit::graph::input_error& e) {
    std::cerr << "deltasplit: error: " << e.what() << "\n";
  } catch (const deltasplit::sssp::distance_overflow& e) {
    std::cerr << "deltasplit: error: " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    std::cerr << "deltasplit: error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "deltasplit: error: " << e.what() << "\n";
  }
  return exit_failure;
}
