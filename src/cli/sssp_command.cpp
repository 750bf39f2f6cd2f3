// `deltasplit sssp GRAPH`: shortest paths from one or more sources with a chosen strategy and
// device, optionally validated against Dijkstra and written to files.
//
// Several sources: each is solved in turn with one solver (the graph is uploaded once). --output
// and --predecessors then hold one block per source, in the order given, each block opened by a
// line "# source V"; with a single source the files hold the vertex lines alone. --target prints
// one path per source. Whenever a result file goes to standard output, the summary goes to
// standard error so that the two never mix.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/json_writer.hpp"
#include "cli/matrix_run.hpp"
#include "cli/negative_run.hpp"
#include "cli/options.hpp"
#include "cli/result_output.hpp"
#include "cli/text_output.hpp"
#include "cli/timed_runs.hpp"
#include "cli/vertex_file.hpp"
#include "cli/vertex_ids.hpp"
#include "deltasplit/graph/error.hpp"
#include "deltasplit/sssp.hpp"

namespace deltasplit::cli {

namespace {

struct source_report {
  graph::vertex_t source = 0;
  timed_run timing;
  std::size_t reached = 0;
  std::optional<sssp::validation> check;
};

sssp::device_kind parse_device(const std::string& name) {
  if (name == "auto") return sssp::device_kind::automatic;
  if (name == "gpu") return sssp::device_kind::gpu;
  if (name == "cpu") return sssp::device_kind::cpu;
  throw usage_error("--device '" + name + "': expected gpu, cpu or auto");
}

// "integer (uint32)", "real (float64)", ...: the weights' kind and stored type.
std::string weights_name(const graph::csr& g) {
  if (g.kind == graph::weight_kind::integer) return g.wide() ? "integer (uint64)" : "integer (uint32)";
  return g.wide() ? "real (float64)" : "real (float32)";
}

std::string describe_graph(const graph::csr& g, const std::string& path) {
  std::ostringstream s;
  s << file_name(path) << ": " << g.num_vertices << " vertices, " << g.num_arcs() << " arcs (" << g.origin.format
    << ", " << weights_name(g) << " weights"
    << (g.origin.weights_generated ? " generated in [" + std::to_string(g.origin.weight_min) + ", " +
                                         std::to_string(g.origin.weight_max) + "] from seed " +
                                         std::to_string(g.origin.weight_seed)
                                   : std::string())
    << ")";
  return s.str();
}

std::string describe_check(const std::optional<sssp::validation>& check, bool tree) {
  if (!check) return "not run (use --validate)";
  if (check->ok) return tree ? "ok: matches Dijkstra, predecessor tree valid" : "ok: matches Dijkstra";
  return "MISMATCH: " + std::to_string(check->mismatches) + " differences: " + check->message;
}

void write_json(std::ostream& os, const graph::csr& g, const std::string& path, double load_ms, double build_ms,
                const sssp::options& o, const std::string& requested, unsigned runs,
                const std::vector<source_report>& reports) {
  json_writer j(os);
  j.begin_object();
  j.key("graph").begin_object();
  j.field("path", path).field("format", g.origin.format).field("vertices", std::uint64_t{g.num_vertices});
  j.field("arcs", g.num_arcs()).field("weights", g.kind == graph::weight_kind::integer ? "integer" : "real");
  j.field("weight_type", g.kind == graph::weight_kind::integer ? (g.wide() ? "uint64" : "uint32")
                                                               : (g.wide() ? "float64" : "float32"));
  j.field("load_ms", load_ms);
  j.end_object();
  j.key("options").begin_object();
  j.field("strategy", requested).field("delta", o.tune.delta).field("buckets", o.tune.buckets).field("runs", runs);
  j.field("threads", o.threads).field("precision", o.real_type == sssp::distance_type::float32 ? "single" : "double");
  j.end_object();
  // Building the solver for the graph (on the GPU: the upload, the rows sorted by weight), once.
  j.field("solver_build_ms", build_ms);
  // One-off work of the solver before its first run (phast: the contraction hierarchy, "built" or
  // "loaded" from hierarchy_file), not in any run's milliseconds.
  const sssp::statistics none;
  const sssp::statistics& first = reports.empty() ? none : reports.front().timing.result.stats;
  j.field("setup_ms", first.setup_ms).field("setup", first.setup).field("hierarchy_file", o.hierarchy_file);
  j.key("runs").begin_array();
  for (const source_report& r : reports) {
    const sssp::statistics& st = r.timing.result.stats;
    j.begin_object();
    j.field("source", g.external_id(r.source)).field("strategy", st.strategy).field("device", st.device).field("driver", st.driver);
    j.field("distance_type", st.distance_type).field("note", st.note);
    j.field("milliseconds", r.timing.median_ms);
    j.key("times_ms").begin_array();
    for (double t : r.timing.times_ms) j.value(t);
    j.end_array();
    j.field("mteps", mteps(g, r.timing.median_ms));
    if (o.phase_times) j.field("relax_ms", st.relax_ms).field("frontier_ms", st.frontier_ms);
    j.field("delta", st.delta).field("iterations", st.iterations).field("edges_relaxed", st.edges_relaxed);
    j.field("vertices_processed", st.vertices_processed).field("max_queue", st.max_queue);
    j.field("heavy_pulls", std::uint64_t{st.heavy_pulls});
    j.field("reached", std::uint64_t{r.reached});
    j.field("validation", !r.check ? "not run" : r.check->ok ? "ok" : "mismatch");
    if (r.check && !r.check->ok) j.field("validation_message", r.check->message);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

}  // namespace

std::uint64_t solve_bytes_per_vertex(bool validate) {
  // A result's distances (8 bytes at most) and predecessors (4), and the CPU solver's bucket
  // entries (8); --validate adds Dijkstra's distances (8), settled flags (1) and heap entries
  // (16, about one per vertex on the graphs measured).
  return 8 + 4 + 8 + (validate ? 8 + 1 + 16 : 0);
}

std::uint64_t solve_bytes_per_arc() {
  // The GPU solver sorts every row by weight into a host copy of the targets and weights (4 + 4
  // bytes) before uploading it (engine.cu, rows_by_weight).
  return 8;
}

int run_sssp(const arguments& args) {
  std::string graph_path, strategy_text, device_text, output_path, predecessors_path, json_path, target_text;
  std::string source_file, target_file, matrix_path, summaries_path;
  std::uint32_t batch_size = 0;
  std::vector<std::string> source_texts;
  std::uint64_t random_count = 0, seed = 1;
  bool validate = false, force = false, phase_times = false, all_sources = false;
  input_settings input;
  solver_settings solving;

  po::options_description options("options");
  options.add_options()
      ("graph", po::value(&graph_path)->value_name("GRAPH")->required(), "graph file (also the first positional argument)")
      ("source,s", po::value(&source_texts)->value_name("V[,V...]")->multitoken()->composing(),
       "source vertex ids, comma-separated, in the file's numbering (default: the first vertex)")
      ("random-sources", po::value(&random_count)->value_name("N"), "solve from N distinct random vertices that have out-arcs")
      ("seed", po::value(&seed)->value_name("S")->default_value(1), "seed for --random-sources")
      ("strategy", po::value(&strategy_text)->value_name("NAME"),
       "near-far, bucketing, multisplit, workfront (GPU), cpu (CPU delta-stepping), dijkstra, or phast "
       "(contraction hierarchy built first, or loaded with --hierarchy, then PHAST sweeps on the GPU, or the CPU without one); "
       "default: multisplit on a GPU, cpu otherwise")
      ("device", po::value(&device_text)->value_name("DEVICE")->default_value("auto"), "gpu, cpu or auto (the GPU when one is usable)")
      ("validate", po::bool_switch(&validate), "check every result against Dijkstra (exit status 3 on a mismatch)")
      ("phase-times", po::bool_switch(&phase_times),
       "also report the time in relaxation and in frontier management (GPU: a second, instrumented solve per run)")
      ("output,o", po::value(&output_path)->value_name("FILE"), "write 'vertex distance' lines ('inf' when unreachable; - for stdout)")
      ("predecessors", po::value(&predecessors_path)->value_name("FILE"), "write 'vertex predecessor' lines ('none' for the source and unreachable)")
      ("target", po::value(&target_text)->value_name("V"), "print the shortest path from each source to this vertex")
      ("json", po::value(&json_path)->value_name("FILE"), "write the statistics as JSON")
      ("force", po::bool_switch(&force), "replace existing output files")
      ("source-file", po::value(&source_file)->value_name("FILE"), "sources from a file: one vertex id per line, '#' comments")
      ("target-file", po::value(&target_file)->value_name("FILE"), "with --matrix: the columns, one vertex id per line (default: all vertices)")
      ("matrix", po::value(&matrix_path)->value_name("OUT.npy"),
       "solve the sources in GPU batches and write the distance matrix (rows: sources, columns: targets) as .npy, "
       "in the distance type: uint32 or uint64 (all ones = unreachable), float64 or float32 with --precision single "
       "(inf); the row and column vertex ids go beside it to OUT.sources.txt and OUT.targets.txt (OUT: the path "
       "without .npy), named in the summary; none of the three is replaced without --force")
      ("summaries", po::value(&summaries_path)->value_name("OUT.csv"),
       "per source, every vertex a target: the vertices it reaches, the sum of their distances and the farthest, "
       "as CSV lines 'source,reached,sum,farthest' (closeness, eccentricity); no row is kept (phast on the GPU "
       "reduces each batch where it lies); not replaced without --force")
      ("all-sources", po::bool_switch(&all_sources), "every vertex a source (all pairs; with --matrix or --summaries)")
      ("batch-size", po::value(&batch_size)->value_name("K"),
       "sources solved together in the batched mode (rounded up to a multiple of 32 on the GPU; default: automatic); "
       "without --matrix it solves and summarises only");
  add_solver_options(options, solving, 1, true);
  add_input_options(options, input);
  po::positional_options_description positional;
  positional.add("graph", 1);
  po::variables_map vm;
  if (!parse_command_line("sssp", "GRAPH [options]",
                          "Single-source shortest paths by delta-stepping. Vertex ids are in the graph file's own\n"
                          "numbering: 1-based for Matrix Market and DIMACS, 0-based for edge lists. With several\n"
                          "sources, --output and --predecessors hold one block per source, each opened by\n"
                          "'# source V'. Without --output the command prints a summary.\n"
                          "With --matrix (or --batch-size) the sources are solved in batches, many at once on the GPU,\n"
                          "and the distance matrix is streamed to a .npy file; with --summaries only each source's\n"
                          "reached count, distance sum and farthest distance are kept, written as CSV.\n"
                          "A file with negative weights is solved on the CPU, in int64 or float64: one source by\n"
                          "Bellman-Ford, several by Johnson; a negative cycle is an error naming a vertex on it.\n\n"
                          "example: deltasplit sssp datasets/USA-road-d.NY.gr.gz --source 1 --validate",
                          args, options, positional, vm))
    return exit_success;

  sssp::options o = solver_options(solving, input);
  o.phase_times = phase_times;
  const unsigned runs = solving.runs;
  if (int(vm.count("random-sources")) + int(!source_texts.empty()) + int(vm.count("source-file")) + int(all_sources) > 1)
    throw usage_error("--source, --source-file, --random-sources and --all-sources exclude each other");
  if (vm.count("matrix") && vm.count("summaries")) throw usage_error("--matrix and --summaries exclude each other");
  if (vm.count("summaries") && vm.count("target-file"))
    throw usage_error("--summaries takes every vertex as a target; --target-file cannot be combined with it");
  if (all_sources && !vm.count("matrix") && !vm.count("summaries"))
    throw usage_error("--all-sources needs --matrix or --summaries");
  const bool batched = vm.count("matrix") || vm.count("batch-size") || vm.count("summaries");
  if (vm.count("target-file") && !batched) throw usage_error("--target-file needs --matrix or --batch-size");
  if (vm.count("batch-size") && batch_size == 0) throw usage_error("--batch-size must be at least 1");
  if (batched)
    for (const char* flag : {"output", "predecessors", "target", "json"})
      if (vm.count(flag))
        throw usage_error(std::string("--") + flag + " cannot be combined with --matrix, --summaries or --batch-size");
  if (batched && runs != 1) throw usage_error("--runs cannot be combined with --matrix, --summaries or --batch-size");
  if (vm.count("matrix")) claim_matrix_files(matrix_path, force, graph_path);
  if (vm.count("random-sources") && random_count == 0) throw usage_error("--random-sources must be at least 1");
  o.device = parse_device(device_text);
  const bool strategy_given = vm.count("strategy") > 0;
  if (strategy_given) {
    try {
      o.how = sssp::strategy_from_name(strategy_text);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string("--strategy: ") + e.what());
    }
  } else {
    o.how = o.device == sssp::device_kind::cpu ? sssp::strategy::delta_stepping_cpu : sssp::strategy::multisplit;
  }
  if (!solving.hierarchy.empty() && o.how != sssp::strategy::phast)
    throw usage_error("--hierarchy needs --strategy phast (the contraction hierarchy is phast's)");
  o.hierarchy_file = solving.hierarchy;
  const bool either_device = sssp::runs_on_gpu(o.how);
  if (!either_device && o.device == sssp::device_kind::gpu)
    throw usage_error(std::string("--strategy ") + sssp::strategy_name(o.how) + " runs on the CPU; it cannot be combined with --device gpu");

  // Output files are claimed before the (possibly long) load and solve, so a refusal comes first.
  std::vector<std::string> claimed;
  for (const char* flag : {"output", "predecessors", "json"}) {
    if (!vm.count(flag)) continue;
    const std::string& p = vm[flag].as<std::string>();
    const std::string where = p == "-" ? p : std::filesystem::weakly_canonical(p).string();
    if (std::find(claimed.begin(), claimed.end(), where) != claimed.end())
      throw usage_error(std::string("--") + flag + " " + p + ": already named by another output option");
    claimed.push_back(where);
  }
  std::unique_ptr<text_output> output, predecessors, json, summaries;
  if (vm.count("summaries")) summaries = std::make_unique<text_output>(summaries_path, force, graph_path, "summaries");
  if (vm.count("output")) output = std::make_unique<text_output>(output_path, force, graph_path, "output");
  if (vm.count("predecessors"))
    predecessors = std::make_unique<text_output>(predecessors_path, force, graph_path, "predecessors");
  if (vm.count("json")) json = std::make_unique<text_output>(json_path, force, graph_path, "json");
  std::ostream& summary = (output && output->to_stdout()) || (predecessors && predecessors->to_stdout()) ||
                                  (json && json->to_stdout()) || (summaries && summaries->to_stdout())
                              ? std::cerr
                              : std::cout;

  input.later_bytes_per_vertex = solve_bytes_per_vertex(validate);
  input.later_bytes_per_arc = solve_bytes_per_arc();
  auto load_start = std::chrono::steady_clock::now();
  graph::csr g;
  try {
    g = load_graph(graph_path, input);
  } catch (const graph::negative_weight_error&) {  // read again, keeping the negative weights
    input.negative_weights = true;
    g = load_graph(graph_path, input);
  }
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load_start).count();
  if (g.num_vertices == 0) throw std::runtime_error(graph_path + ": the graph has no vertices");

  std::vector<graph::vertex_t> sources;
  if (!source_file.empty())
    sources = read_vertex_file(source_file, g);
  else if (random_count)
    sources = random_sources(g, random_count, seed);
  else if (!source_texts.empty())
    sources = parse_vertices(source_texts, g, graph_path, "source");
  else if (all_sources) {
    sources.resize(g.num_vertices);
    for (graph::vertex_t v = 0; v < g.num_vertices; ++v) sources[v] = v;
  } else {
    sources = {0};
  }
  std::optional<graph::vertex_t> target;
  if (vm.count("target")) target = parse_vertex(target_text, g, graph_path, "target");
  o.predecessors = predecessors || target;

  if (g.signed_weights) {
    if (summaries)
      throw std::runtime_error(graph_path + ": negative weights: --summaries is not supported for them; --matrix " +
                               "writes their distances");
    if (batched && !vm.count("matrix"))
      throw std::runtime_error(graph_path + ": negative weights: --batch-size alone (solve and summarise) is not " +
                               "supported for them; --matrix writes their distances");
    if (o.device == sssp::device_kind::gpu)
      throw std::runtime_error(graph_path + ": negative weights are solved on the CPU (Bellman-Ford, Johnson); " +
                               "--device gpu cannot be used");
    negative_request request;
    request.graph_path = graph_path;
    request.sources = std::move(sources);
    if (!target_file.empty()) request.targets = read_vertex_file(target_file, g);
    request.matrix_path = vm.count("matrix") ? matrix_path : "";
    request.force = force;
    request.batch_size = vm.count("batch-size") ? batch_size : 0;
    request.target = target;
    request.strategy_asked = strategy_given ? strategy_text : "";
    request.validate = validate;
    request.runs = runs;
    request.threads = o.threads;
    request.load_ms = load_ms;
    request.output = output.get();
    request.predecessors = predecessors.get();
    request.json = json.get();
    return run_negative(request, g, summary);
  }

  std::string why_not;
  if (batched) {
    if (!either_device) o.device = sssp::device_kind::cpu;  // --strategy cpu or dijkstra
    if (o.device == sssp::device_kind::automatic && !sssp::gpu_available(&why_not))
      std::cerr << "note: no usable GPU (" << why_not << "); solving on the CPU, one "
                << (o.how == sssp::strategy::phast ? "PHAST sweep" : "Dijkstra") << " per source and thread\n";
    matrix_request request;
    request.graph_path = graph_path;
    request.matrix_path = matrix_path;
    request.force = force;
    request.validate = validate;
    request.batch_size = batch_size;
    request.sources = std::move(sources);
    if (!target_file.empty()) request.targets = read_vertex_file(target_file, g);
    summary << "graph       " << describe_graph(g, graph_path) << ", loaded in " << std::fixed << std::setprecision(2)
            << load_ms << " ms\n";
    if (summaries) {
      request.summaries_path = summaries_path;
      return run_summaries(request, g, o, *summaries, summary);
    }
    return run_matrix(request, g, o, summary);
  }
  if (sssp::is_gpu_strategy(o.how) && o.device == sssp::device_kind::automatic && !sssp::gpu_available(&why_not))
    std::cerr << "note: no usable GPU (" << why_not << "); running CPU delta-stepping"
              << (strategy_given ? std::string(" instead of ") + sssp::strategy_name(o.how) : std::string()) << "\n";
  if (o.how == sssp::strategy::phast && o.device == sssp::device_kind::automatic && !sssp::gpu_available(&why_not))
    std::cerr << "note: no usable GPU (" << why_not << "); PHAST sweeps on the CPU\n";

  const auto build_start = std::chrono::steady_clock::now();
  sssp::solver solver = build_solver<sssp::solver>(graph_path, g, o);
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build_start).count();
  std::vector<source_report> reports;
  bool all_ok = true;
  for (graph::vertex_t source : sources) {
    source_report rep;
    rep.source = source;
    rep.timing = run_timed(solver, source, runs);
    const sssp::result& r = rep.timing.result;
    rep.reached = r.num_reached();
    if (validate) {
      rep.check = sssp::validate(g, source, r);
      all_ok = all_ok && rep.check->ok;
    }
    const bool several = sources.size() > 1;
    if (output) {
      if (several) output->stream() << "# source " << g.external_id(source) << "\n";
      write_distances(output->stream(), g, r);
    }
    if (predecessors) {
      if (several) predecessors->stream() << "# source " << g.external_id(source) << "\n";
      write_predecessors(predecessors->stream(), g, r);
    }
    if (target) write_path(summary, g, r, source, *target);
    rep.timing.result.int_distances = {};
    rep.timing.result.real_distances = {};
    rep.timing.result.uint64_distances = {};
    rep.timing.result.float64_distances = {};
    rep.timing.result.predecessors = {};
    reports.push_back(std::move(rep));
  }
  if (output) output->commit();
  if (predecessors) predecessors->commit();
  if (json) {
    write_json(json->stream(), g, graph_path, load_ms, build_ms, o, strategy_given ? strategy_text : "default", runs,
               reports);
    json->commit();
  }

  const sssp::statistics& first = reports.front().timing.result.stats;
  summary << std::fixed << std::setprecision(2);
  summary << "graph       " << describe_graph(g, graph_path) << ", loaded in " << load_ms << " ms\n";
  // The frontier manager where the step loop filed the work through it, else the driver that ran.
  const std::string solver_name =
      !first.strategy.empty() ? first.strategy : first.driver.substr(0, first.driver.find_first_of(":( ")) + " driver";
  summary << "solver      " << solver_name << " on " << first.device;
  if (first.delta > 0) summary << ", delta " << std::defaultfloat << std::setprecision(10) << first.delta;
  if (!first.driver.empty()) summary << "\ndriver      " << first.driver;
  summary << "\ndistances   " << first.distance_type;
  if (!first.note.empty()) summary << " (" << first.note << ")";
  summary << std::fixed << std::setprecision(2) << "\n";
  summary << "built       " << build_ms << " ms (the solver for this graph, once; not in the times below)\n";
  if (!first.setup.empty())
    summary << "setup       " << first.setup_ms << " ms (" << describe_setup(first.setup, o.hierarchy_file)
            << ", once per solver; not in the times below)\n";
  if (reports.size() == 1) {
    const source_report& r = reports.front();
    summary << "source      " << g.external_id(r.source) << "\n";
    summary << "time        " << r.timing.median_ms << " ms (median of " << runs << (runs == 1 ? " run" : " runs")
            << "), " << mteps(g, r.timing.median_ms) << " MTEPS, " << first.iterations << " iterations, "
            << first.edges_relaxed << " edges relaxed\n";
    if (first.heavy_pulls)
      summary << "heavy arcs  pulled in " << first.heavy_pulls << " of the buckets' settle passes (--heavy)\n";
    if (o.phase_times)
      summary << "phases      " << first.relax_ms << " ms relaxing, " << first.frontier_ms
              << " ms managing the frontier\n";
    summary << "reached     " << r.reached << " of " << g.num_vertices << " vertices\n";
    summary << "validation  " << describe_check(r.check, o.predecessors) << "\n";
  } else {
    summary << "source        time_ms      MTEPS   iterations      reached  validation\n";
    std::vector<double> times;
    for (const source_report& r : reports) {
      times.push_back(r.timing.median_ms);
      summary << std::left << std::setw(12) << g.external_id(r.source) << std::right << std::setw(9)
              << r.timing.median_ms << std::setw(11) << mteps(g, r.timing.median_ms) << std::setw(13)
              << r.timing.result.stats.iterations << std::setw(13) << r.reached << "  "
              << (!r.check ? "-" : r.check->ok ? "ok" : "MISMATCH: " + r.check->message) << "\n";
    }
    std::sort(times.begin(), times.end());
    summary << "median over " << reports.size() << " sources: " << times[(times.size() - 1) / 2] << " ms\n";
  }
  return all_ok ? exit_success : exit_mismatch;
}

}  // namespace deltasplit::cli
