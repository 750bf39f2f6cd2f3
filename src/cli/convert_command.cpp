// `deltasplit convert IN OUT`: rewrites a graph in another format (Matrix Market, DIMACS, edge
// list, binary CSR cache), gzip-compressed when OUT ends in .gz or with --gzip. OUT "-" is standard
// output (with --format): a graph whose converted file would not fit on the disk beside its input
// can be piped on (into a compressor, another machine, a byte count).
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress_meter.hpp"
#include "deltasplit/graph/io.hpp"

namespace deltasplit::cli {

int run_convert(const arguments& args) {
  std::string in_path, out_path, out_format;
  bool force = false, gzip = false;
  input_settings input;
  po::options_description options("options");
  options.add_options()
      ("in", po::value(&in_path)->value_name("IN")->required(), "input graph (first positional argument)")
      ("out", po::value(&out_path)->value_name("OUT")->required(),
       "output file (second positional argument); - for standard output (needs --format)")
      ("format", po::value(&out_format)->value_name("FORMAT"), "output format: mtx, gr, edges or bin (default: from OUT's extension)")
      ("gzip", po::bool_switch(&gzip), "compress the output (implied by a .gz extension)")
      ("force", po::bool_switch(&force), "replace OUT if it exists (never the input itself)");
  add_input_options(options, input, "input-format");
  po::positional_options_description positional;
  positional.add("in", 1).add("out", 1);
  po::variables_map vm;
  if (!parse_command_line("convert", "IN OUT [options]",
                          "Converts between graph formats: Matrix Market (.mtx), DIMACS shortest path (.gr),\n"
                          "edge lists (.edges, .txt, 0-based) and the binary CSR cache (.dsg); add .gz to compress.\n"
                          "Unweighted inputs get generated weights (--weight-seed, --weight-range), which the\n"
                          "output then carries.",
                          args, options, positional, vm))
    return exit_success;

  graph::write_options wo;
  if (vm.count("format")) wo.format = parse_format(out_format, "format");
  wo.gzip = gzip;
  wo.overwrite = force;
  if (out_path == "-") {
    if (!vm.count("format")) throw usage_error("convert: name the output format with --format when OUT is - (standard output)");
    graph::csr g = load_graph(in_path, input);
    {
      progress_meter meter("writing standard output");
      wo.progress = meter.callback();
      graph::write_graph_to(g, STDOUT_FILENO, "standard output", wo);
    }
    std::cerr << "wrote standard output: " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs\n";
    return exit_success;
  }
  std::error_code ec;
  if (std::filesystem::exists(out_path, ec)) {
    if (std::filesystem::equivalent(in_path, out_path, ec))
      throw usage_error("convert: " + out_path + " is the input graph; refusing to overwrite it");
    if (!force) throw usage_error("convert: " + out_path + " exists (use --force to replace it)");
  }
  graph::csr g = load_graph(in_path, input);
  {
    progress_meter meter("writing " + file_name(out_path));
    wo.progress = meter.callback();
    graph::write_graph(g, out_path, wo);
  }
  std::cout << "wrote " << out_path << ": " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs\n";
  return exit_success;
}

}  // namespace deltasplit::cli
