// `deltasplit compare GRAPH`: every strategy on the same graph and source (the GPU frontier
// managers when a GPU is usable, then CPU delta-stepping and Dijkstra, then PHAST on the GPU or the
// CPU), each validated against Dijkstra, in one table: the comparison of seed paper 000, Section
// 7.2 (Tables 9 and 10). PHAST's contraction hierarchy is built once before its runs: its
// setup_ms column shows that cost beside the per-source time, which excludes it.
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/json_writer.hpp"
#include "cli/options.hpp"
#include "cli/text_output.hpp"
#include "cli/timed_runs.hpp"
#include "cli/vertex_ids.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::cli {

namespace {

struct row {
  sssp::strategy how;
  std::string error;  // the solver could not run (e.g. out of GPU memory)
  timed_run timing;
  sssp::validation check;
};

std::string fixed(double x, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

// A delta as written by a person: "14983", "0.25", "1e+38".
std::string shortest(double x) {
  std::ostringstream s;
  s << std::setprecision(6) << x;
  return s.str();
}

}  // namespace

int run_compare(const arguments& args) {
  std::string graph_path, source_text, json_path;
  bool force = false;
  input_settings input;
  solver_settings solving;
  po::options_description options("options");
  options.add_options()
      ("graph", po::value(&graph_path)->value_name("GRAPH")->required(), "graph file (also the first positional argument)")
      ("source,s", po::value(&source_text)->value_name("V"), "source vertex in the file's numbering (default: the first vertex)")
      ("json", po::value(&json_path)->value_name("FILE"), "also write the table as JSON")
      ("force", po::bool_switch(&force), "replace an existing --json file");
  add_solver_options(options, solving, 3, false);
  add_input_options(options, input);
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map vm;
  if (!parse_command_line("compare", "GRAPH [options]",
                          "Runs every strategy from one source, validates each against Dijkstra and prints one\n"
                          "table: median time, MTEPS (arcs / time), iterations, edges relaxed, the share of time\n"
                          "spent managing the frontier, the speedup over near-far (over cpu without a GPU), and the\n"
                          "one-off setup before the runs (phast: building the contraction hierarchy, or loading it\n"
                          "with --hierarchy FILE). The GPU strategies are the step loop's frontier managers: their\n"
                          "rows run the step loop unless --driver names another driver.\n"
                          "Exit status 3 when any result differs from Dijkstra.",
                          args, options, positional, vm))
    return exit_success;
  const sssp::options shared = solver_options(solving, input);
  // The GPU rows compare the frontier managers, which only the step loop files work through.
  const bool driver_given = !vm["driver"].defaulted();
  const unsigned runs = solving.runs;
  std::unique_ptr<text_output> json;
  if (vm.count("json")) json = std::make_unique<text_output>(json_path, force, graph_path, "json");

  input.later_bytes_per_vertex = solve_bytes_per_vertex(true);
  input.later_bytes_per_arc = solve_bytes_per_arc();
  graph::csr g = load_graph(graph_path, input);
  if (g.num_vertices == 0) throw std::runtime_error(graph_path + ": the graph has no vertices");
  const graph::vertex_t source = vm.count("source") ? parse_vertex(source_text, g, graph_path, "source") : 0;

  std::vector<sssp::strategy> strategies;
  std::string why_not;
  // 64-bit distances (integer paths past 2^32 - 2, real weights without --precision single) run
  // the GPU strategies on the step loop as every other type does; phast takes uint64 and refuses
  // float64.
  const sssp::distance_type type = sssp::distance_type_for(g, shared.real_type);
  if (sssp::gpu_available(&why_not))
    strategies = {sssp::strategy::near_far, sssp::strategy::bucketing, sssp::strategy::multisplit,
                  sssp::strategy::workfront};
  else
    std::cerr << "note: no usable GPU (" << why_not << "); comparing the CPU solvers only\n";
  strategies.push_back(sssp::strategy::delta_stepping_cpu);
  strategies.push_back(sssp::strategy::dijkstra);
  if (type != sssp::distance_type::float64) strategies.push_back(sssp::strategy::phast);

  const sssp::result oracle = sssp::dijkstra(g, source, false, shared.real_type);
  std::vector<row> rows;
  bool all_ok = true, all_ran = true;
  for (sssp::strategy how : strategies) {
    row r;
    r.how = how;
    sssp::options o = shared;
    o.how = how;
    o.phase_times = true;  // the frontier% column (on the GPU a second, instrumented solve per run)
    if (sssp::is_gpu_strategy(how) && !driver_given) o.tune.driver = sssp::gpu_driver::steps;
    if (how == sssp::strategy::phast) o.hierarchy_file = solving.hierarchy;
    o.device = sssp::is_gpu_strategy(how)          ? sssp::device_kind::gpu
               : how == sssp::strategy::phast ? sssp::device_kind::automatic
                                              : sssp::device_kind::cpu;
    try {
      sssp::solver s = build_solver<sssp::solver>(graph_path, g, o);
      r.timing = run_timed(s, source, runs);
      r.check = sssp::validate(g, source, r.timing.result, oracle);
    } catch (const std::exception& e) {
      r.error = e.what();
      all_ran = false;
    }
    all_ok = all_ok && (!r.error.empty() || r.check.ok);
    r.timing.result.int_distances = {};
    r.timing.result.real_distances = {};
    r.timing.result.uint64_distances = {};
    r.timing.result.float64_distances = {};
    rows.push_back(std::move(r));
  }

  double baseline = 0;
  std::string baseline_name = strategies.front() == sssp::strategy::near_far ? "near-far" : "cpu";
  std::string cpu_device = "cpu";  // what the CPU rows ran on: "cpu (16 threads)", ...
  for (const row& r : rows) {
    if (r.error.empty() && baseline_name == sssp::strategy_name(r.how)) baseline = r.timing.median_ms;
    if (r.error.empty() && r.how == sssp::strategy::delta_stepping_cpu) cpu_device = r.timing.result.stats.device;
  }

  std::cout << "graph " << file_name(graph_path) << ": " << g.num_vertices << " vertices, " << g.num_arcs()
            << " arcs; source " << g.external_id(source) << "; reached " << oracle.num_reached() << "; median of "
            << runs << (runs == 1 ? " run\n" : " runs\n");
  std::cout << "vs_" << baseline_name << " = " << baseline_name << "'s median time / the row's; the cpu row ran on "
            << cpu_device << ", dijkstra on one thread\n";
  std::cout << std::left << std::setw(12) << "strategy" << std::right << std::setw(12) << "time_ms" << std::setw(10)
            << "MTEPS" << std::setw(12) << "iterations" << std::setw(15) << "edges_relaxed" << std::setw(11)
            << "frontier%" << std::setw(14) << ("vs_" + baseline_name) << std::setw(10) << "delta" << std::setw(12)
            << "setup_ms" << "  " << std::left
            << "device, validation\n";
  for (const row& r : rows) {
    std::cout << std::left << std::setw(12) << sssp::strategy_name(r.how) << std::right;
    if (!r.error.empty()) {
      std::cout << "  error: " << r.error << "\n";
      continue;
    }
    const sssp::statistics& st = r.timing.result.stats;
    const double managed = st.relax_ms + st.frontier_ms;
    std::cout << std::setw(12) << fixed(r.timing.median_ms, 3) << std::setw(10) << fixed(mteps(g, r.timing.median_ms), 1)
              << std::setw(12) << st.iterations << std::setw(15) << st.edges_relaxed << std::setw(11)
              << (managed > 0 ? fixed(100 * st.frontier_ms / managed, 1) : std::string("-")) << std::setw(14)
              << (baseline > 0 && r.timing.median_ms > 0 ? fixed(baseline / r.timing.median_ms, 2) + "x" : std::string("-"))
              << std::setw(10) << (st.delta > 0 ? shortest(st.delta) : std::string("-")) << std::setw(12)
              << (st.setup_ms > 0 ? fixed(st.setup_ms, 1) : std::string("-")) << "  " << st.device
              << (st.driver.empty() ? std::string() : " (" + st.driver + ")") << ", " << (r.check.ok ? "ok" : "MISMATCH: " + r.check.message) << "\n";
  }
  for (const row& r : rows)
    if (r.error.empty() && !r.timing.result.stats.setup.empty())
      std::cout << "setup of " << sssp::strategy_name(r.how) << ": "
                << describe_setup(r.timing.result.stats.setup, solving.hierarchy) << "\n";

  if (json) {
    json_writer j(json->stream());
    j.begin_object();
    j.field("graph", graph_path).field("vertices", std::uint64_t{g.num_vertices}).field("arcs", g.num_arcs());
    j.field("source", g.external_id(source)).field("runs", runs).field("baseline", baseline_name);
    j.field("cpu_device", cpu_device);
    j.key("strategies").begin_array();
    for (const row& r : rows) {
      j.begin_object().field("strategy", sssp::strategy_name(r.how));
      if (!r.error.empty()) {
        j.field("error", r.error).end_object();
        continue;
      }
      const sssp::statistics& st = r.timing.result.stats;
      j.field("device", st.device).field("driver", st.driver).field("milliseconds", r.timing.median_ms).field("mteps", mteps(g, r.timing.median_ms));
      j.field("relax_ms", st.relax_ms).field("frontier_ms", st.frontier_ms).field("delta", st.delta);
      j.field("setup_ms", st.setup_ms).field("setup", st.setup);
      j.field("iterations", st.iterations).field("edges_relaxed", st.edges_relaxed);
      j.field("speedup", baseline > 0 && r.timing.median_ms > 0 ? baseline / r.timing.median_ms : 0.0);
      j.field("valid", r.check.ok);
      j.end_object();
    }
    j.end_array();
    j.end_object();
    json->commit();
  }
  if (!all_ok) return exit_mismatch;
  return all_ran ? exit_success : exit_failure;
}

}  // namespace deltasplit::cli
