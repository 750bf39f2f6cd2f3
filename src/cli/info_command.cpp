// `deltasplit info GRAPH`: what the graph layer made of a file (size, cleaning, degrees, weights,
// format), as reported by graph::summarize.
#include <iostream>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "deltasplit/graph/summary.hpp"

namespace deltasplit::cli {

int run_info(const arguments& args) {
  std::string graph_path;
  input_settings input;
  po::options_description options("options");
  options.add_options()("graph", po::value(&graph_path)->value_name("GRAPH")->required(), "graph file (also the positional argument)");
  add_input_options(options, input);
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map vm;
  if (!parse_command_line("info", "GRAPH [options]",
                          "Reads a graph file and prints its vertices, arcs, self-loops dropped, parallel arcs\n"
                          "merged, out-degree distribution, weights and format.",
                          args, options, positional, vm))
    return exit_success;
  graph::print_summary(std::cout, graph::summarize(load_graph(graph_path, input)));
  return exit_success;
}

}  // namespace deltasplit::cli
