// `deltasplit generate rmat|grid -o OUT`: synthetic graphs for the experiments. R-MAT
// (Chakrabarti et al.) stands in for the social graphs of seed paper 000, grids for road networks.
#include <cmath>
#include <filesystem>
#include <iostream>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/progress_meter.hpp"
#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"

namespace deltasplit::cli {

int run_generate(const arguments& args) {
  std::string kind, out_path, out_format, preset, weight_range = "0:1000";
  bool force = false, gzip = false;
  graph::rmat_params rmat;
  graph::grid_params grid;
  std::uint64_t seed = 1;
  po::options_description options("options");
  options.add_options()
      ("kind", po::value(&kind)->value_name("KIND")->required(), "rmat or grid (the positional argument)")
      ("output,o", po::value(&out_path)->value_name("OUT")->required(), "file to write; format from its extension or --format")
      ("format", po::value(&out_format)->value_name("FORMAT"), "mtx, gr, edges or bin")
      ("gzip", po::bool_switch(&gzip), "compress the output (implied by a .gz extension)")
      ("force", po::bool_switch(&force), "replace OUT if it exists")
      ("seed", po::value(&seed)->value_name("S")->default_value(1), "random seed (the graph is a pure function of the options)")
      ("weight-range", po::value(&weight_range)->value_name("LO:HI")->default_value("0:1000"), "LO:HI, uniform integer weights")
      ("scale", po::value(&rmat.scale)->value_name("N")->default_value(16), "rmat: 2^scale vertices")
      ("edge-factor", po::value(&rmat.edge_factor)->value_name("F")->default_value(16), "rmat: edges drawn per vertex")
      ("preset", po::value(&preset)->value_name("NAME"), "rmat: graph500 (a,b,c,d = .57,.19,.19,.05, the default) or paper (.5,.1,.1,.3)")
      ("a", po::value<double>()->value_name("P"), "rmat: probability of the top-left quadrant")
      ("b", po::value<double>()->value_name("P"), "rmat: top-right")
      ("c", po::value<double>()->value_name("P"), "rmat: bottom-left")
      ("d", po::value<double>()->value_name("P"), "rmat: bottom-right (a + b + c + d = 1)")
      ("undirected", po::bool_switch(&rmat.undirected), "rmat: store both directions of every edge")
      ("rows", po::value(&grid.rows)->value_name("N")->default_value(256), "grid: rows")
      ("cols", po::value(&grid.cols)->value_name("N")->default_value(256), "grid: columns")
      ("keep", po::value(&grid.keep_fraction)->value_name("F")->default_value(1.0), "grid: fraction of the 4-neighbour edges kept");
  po::positional_options_description positional;
  positional.add("kind", 1);
  po::variables_map vm;
  if (!parse_command_line("generate", "rmat|grid -o OUT [options]",
                          "Writes a synthetic graph. examples:\n"
                          "  deltasplit generate rmat --scale 20 --edge-factor 16 --preset paper -o rmat20.mtx\n"
                          "  deltasplit generate grid --rows 1000 --cols 1000 --keep 0.8 -o grid.gr",
                          args, options, positional, vm))
    return exit_success;
  if (kind != "rmat" && kind != "grid") throw usage_error("generate: unknown kind '" + kind + "' (rmat or grid)");

  std::uint32_t lo = 0, hi = 0;
  parse_weight_range(weight_range, lo, hi);
  graph::write_options wo;
  if (vm.count("format")) wo.format = parse_format(out_format, "format");
  wo.gzip = gzip;
  wo.overwrite = force;
  std::error_code ec;
  if (!force && std::filesystem::exists(out_path, ec))
    throw usage_error("generate: " + out_path + " exists (use --force to replace it)");

  graph::csr g;
  if (kind == "rmat") {
    if (!preset.empty() && !graph::set_rmat_preset(rmat, preset))
      throw usage_error("--preset '" + preset + "': expected paper or graph500");
    for (auto [name, p] : {std::pair{"a", &rmat.a}, {"b", &rmat.b}, {"c", &rmat.c}, {"d", &rmat.d}})
      if (vm.count(name)) *p = vm[name].as<double>();
    for (double p : {rmat.a, rmat.b, rmat.c, rmat.d})
      if (!(p >= 0 && p <= 1)) throw usage_error("rmat: quadrant probabilities must lie in [0, 1]");
    if (std::fabs(rmat.a + rmat.b + rmat.c + rmat.d - 1) > 1e-9)
      throw usage_error("rmat: a + b + c + d must be 1, not " + std::to_string(rmat.a + rmat.b + rmat.c + rmat.d));
    if (rmat.scale > 31) throw usage_error("--scale " + std::to_string(rmat.scale) + ": at most 31 (2^31 vertices)");
    if (!(rmat.edge_factor > 0)) throw usage_error("--edge-factor must be positive");
    rmat.seed = seed;
    rmat.weight_min = lo;
    rmat.weight_max = hi;
    progress_meter meter("generating " + file_name(out_path));
    rmat.progress = meter.callback();
    g = graph::generate_rmat(rmat);
  } else {
    if (grid.rows == 0 || grid.cols == 0) throw usage_error("grid: --rows and --cols must be positive");
    if (std::uint64_t{grid.rows} * grid.cols > graph::max_vertices)
      throw usage_error("grid: rows x cols exceeds 2^32 - 1 vertices");
    if (!(grid.keep_fraction >= 0 && grid.keep_fraction <= 1)) throw usage_error("--keep must lie in [0, 1]");
    grid.seed = seed;
    grid.weight_min = lo;
    grid.weight_max = hi;
    g = graph::generate_grid(grid);
  }
  {
    progress_meter meter("writing " + file_name(out_path));
    wo.progress = meter.callback();
    graph::write_graph(g, out_path, wo);
  }
  std::cout << "wrote " << out_path << ": " << kind << ", " << g.num_vertices << " vertices, " << g.num_arcs()
            << " arcs\n";
  return exit_success;
}

}  // namespace deltasplit::cli
