// Option parsing shared by the sub-commands (see options.hpp).
#include "cli/options.hpp"

#include <cmath>
#include <iostream>
#include <limits>

#include "cli/progress_meter.hpp"
#include "deltasplit/graph/io.hpp"

namespace deltasplit::cli {

bool parse_command_line(const std::string& command, const std::string& synopsis, const std::string& description,
                        const arguments& args, po::options_description& options,
                        const po::positional_options_description& positional, po::variables_map& vm) {
  options.add_options()("help,h", "print this help");
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: deltasplit " << command << " " << synopsis << "\n\n" << description << "\n\n" << options << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw usage_error(command + ": " + e.what() + " (see deltasplit " + command + " --help)");
  }
  return true;
}

void add_input_options(po::options_description& options, input_settings& settings, const char* format_flag) {
  settings.format_flag = format_flag;
  options.add_options()
      (format_flag, po::value(&settings.format)->value_name("FORMAT"),
       "input format: mtx, gr, edges or bin (default: detected from the content, then the extension)")
      ("weight-seed", po::value(&settings.weight_seed)->value_name("S")->default_value(1),
       "seed of the random integer weights given to a file without weights")
      ("weight-range", po::value(&settings.weight_range)->value_name("LO:HI")->default_value("0:1000"),
       "LO:HI range of those weights (the multisplit paper uses 0:1000)")
      ("threads",
       po::value<std::string>()->value_name("N")->default_value("0")->notifier(
           [&settings](const std::string& text) { settings.threads = parse_threads(text); }),
       ("CPU threads for reading and the CPU solvers, 0 to " + std::to_string(max_threads) + " (0: all)").c_str());
}

void add_solver_options(po::options_description& options, solver_settings& settings, unsigned default_runs,
                        bool batches) {
  std::string driver_help =
      "GPU loop: steps, partitioned (every SM owns a region of the graph), block (Near-Far in one thread block), "
      "wide (Near-Far over every SM, a grid barrier an iteration) or auto (partitioned on sparse or small graphs "
      "whose regions fit on chip, wide on larger sparse graphs, else the step loop; docs/strategies.md gives the lines)";
  if (batches)
    driver_help += ". With --matrix or --batch-size: block solves one source per thread block, steps the vertex-major "
                   "batches, auto the blocks below a mean out-degree of 6 (road networks), else the batches";
  // What the user chooses: how the solves are measured and how exact the distances are.
  options.add_options()
      ("runs", po::value(&settings.runs)->value_name("R")->default_value(default_runs), "solves per source; the median time is reported")
      ("precision", po::value(&settings.precision)->value_name("P")->default_value("double"),
       "real weights' distances: double (float64, exact in double) or single (float32, weights rounded to float); "
       "every GPU driver runs both. Integer weights are exact either way (uint32, or uint64 where paths could pass "
       "2^32 - 2)")
      ("hierarchy", po::value(&settings.hierarchy)->value_name("FILE"),
       "phast's contraction hierarchy file: loaded when FILE exists (it must have been built from this very graph), "
       "else built and written there, so later runs skip the contraction; never replaces a file");
  // Tuning, grouped apart: it changes how fast, never which distances (the summary names what ran).
  po::options_description tuning("tuning (never changes the distances; docs/strategies.md)");
  tuning.add_options()
      ("delta", po::value(&settings.delta)->value_name("D")->default_value("auto"), "bucket width, or auto")
      ("buckets", po::value(&settings.buckets)->value_name("K")->default_value(10), "K, buckets of the bucketing and multisplit strategies")
      ("driver", po::value(&settings.driver)->value_name("D")->default_value("auto"), driver_help.c_str())
      ("light-phase", po::value(&settings.light_phase)->value_name("MODE")->default_value("auto"),
       "GPU step loop, small frontiers' light iterations: block (block by block), cluster (cluster-synchronous) or "
       "auto (block below mean out-degree 6)")
      ("cluster-blocks", po::value(&settings.cluster_blocks)->value_name("B")->default_value(0),
       "GPU step loop, small-frontier cluster: 16, 8 or 1 blocks, or 0 for automatic (16 where the GPU can place it, "
       "else 8)")
      ("heavy", po::value(&settings.heavy)->value_name("MODE")->default_value("auto"),
       "GPU step loop: a finished bucket's heavy arcs pushed by its settled vertices (push), pulled by the vertices "
       "left to improve (pull: undirected graphs only), or auto (pull when the settled vertices hold more heavy arcs "
       "than the rest of the graph)");
  options.add(tuning);
}

std::string describe_setup(const std::string& setup, const std::string& hierarchy_file) {
  if (setup == "loaded") return "contraction hierarchy loaded from " + hierarchy_file;
  if (setup == "regions built") return "the partitioned driver's owner regions built on the host and uploaded";
  if (setup == "regions built, not used")
    return "the partitioned driver's owner regions built on the host, then not used (nor uploaded): a region does not "
           "fit in shared memory";
  return "contraction hierarchy built" + (hierarchy_file.empty() ? std::string() : " and written to " + hierarchy_file);
}

sssp::options solver_options(const solver_settings& settings, const input_settings& input) {
  if (settings.runs == 0) throw usage_error("--runs must be at least 1");
  if (settings.buckets == 0) throw usage_error("--buckets must be at least 1");
  sssp::options o;
  o.tune.buckets = settings.buckets;
  o.threads = input.threads;
  if (settings.light_phase == "auto")
    o.tune.light = sssp::light_phase::automatic;
  else if (settings.light_phase == "block")
    o.tune.light = sssp::light_phase::block;
  else if (settings.light_phase == "cluster")
    o.tune.light = sssp::light_phase::cluster;
  else
    throw usage_error("--light-phase '" + settings.light_phase + "': expected block, cluster or auto");
  if (settings.cluster_blocks != 0 && settings.cluster_blocks != 1 && settings.cluster_blocks != 8 &&
      settings.cluster_blocks != 16)
    throw usage_error("--cluster-blocks " + std::to_string(settings.cluster_blocks) + ": expected 16, 8, 1 or 0");
  o.tune.cluster_blocks = settings.cluster_blocks;
  if (settings.precision == "double")
    o.real_type = sssp::distance_type::float64;
  else if (settings.precision == "single")
    o.real_type = sssp::distance_type::float32;
  else
    throw usage_error("--precision '" + settings.precision + "': expected single or double");
  try {
    o.tune.driver = sssp::driver_from_name(settings.driver);
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("--driver: ") + e.what());
  }
  try {
    o.tune.heavy = sssp::heavy_relaxation_from_name(settings.heavy);
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("--heavy: ") + e.what());
  }
  if (settings.delta != "auto") {
    std::size_t used = 0;
    try {
      o.tune.delta = std::stod(settings.delta, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != settings.delta.size() || !(o.tune.delta > 0) || !std::isfinite(o.tune.delta))
      throw usage_error("--delta '" + settings.delta + "': expected a positive number or auto");
  }
  return o;
}

unsigned parse_threads(const std::string& text) {
  // Digits only: Boost's conversion to unsigned would take "-1" and wrap it to 4294967295.
  const bool digits = !text.empty() && text.size() <= 10 && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoull(text) > max_threads)
    throw usage_error("--threads '" + text + "': expected a whole number from 0 (all cores) to " +
                      std::to_string(max_threads));
  return static_cast<unsigned>(std::stoull(text));
}

void parse_weight_range(const std::string& text, std::uint32_t& lo, std::uint32_t& hi) {
  auto sep = text.find_first_of(":,");
  auto number = [&](const std::string& part) -> std::uint32_t {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 10)
      throw usage_error("--weight-range '" + text + "': expected LO:HI with non-negative integers");
    unsigned long long v = std::stoull(part);
    if (v > std::numeric_limits<std::uint32_t>::max())
      throw usage_error("--weight-range '" + text + "': weights must be below 2^32");
    return static_cast<std::uint32_t>(v);
  };
  if (sep == std::string::npos) throw usage_error("--weight-range '" + text + "': expected LO:HI");
  lo = number(text.substr(0, sep));
  hi = number(text.substr(sep + 1));
  if (lo > hi) throw usage_error("--weight-range '" + text + "': LO is above HI");
}

graph::file_format parse_format(const std::string& name, const char* flag) {
  try {
    return graph::format_from_name(name);
  } catch (const std::exception&) {
    throw usage_error(std::string("--") + flag + " '" + name + "': unknown format (known: mtx, gr, edges, bin)");
  }
}

graph::csr load_graph(const std::string& path, const input_settings& settings) {
  graph::read_options ro;
  if (!settings.format.empty()) ro.format = parse_format(settings.format, settings.format_flag);
  ro.weight_seed = settings.weight_seed;
  parse_weight_range(settings.weight_range, ro.weight_min, ro.weight_max);
  ro.threads = settings.threads;
  ro.later_bytes_per_vertex = settings.later_bytes_per_vertex;
  ro.later_bytes_per_arc = settings.later_bytes_per_arc;
  ro.negative_weights = settings.negative_weights;
  progress_meter meter("loading " + file_name(path));
  ro.progress = meter.callback();
  return graph::read_graph(path, ro);
}

std::string file_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace deltasplit::cli
