// Batched many-source runs of `deltasplit sssp` (see matrix_run.hpp).
#include "cli/matrix_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/command.hpp"
#include "cli/npy_writer.hpp"
#include "cli/options.hpp"
#include "cli/text_output.hpp"
#include "deltasplit/many_sources.hpp"

namespace deltasplit::cli {

namespace {

// Rows checked against Dijkstra by --validate: spread evenly over the source list.
constexpr std::size_t validated_rows = 10;
// The progress line is redrawn at most this often.
constexpr double progress_interval_s = 0.5;

// Sources done and sources per second, on one line of standard error when it is a terminal,
// erased by finish() (or when the object goes, on an error) as progress_meter's line is: what
// follows starts clean.
class progress_line {
 public:
  explicit progress_line(std::size_t total) : total_(total), shown_(::isatty(2) == 1) {}
  ~progress_line() { finish(); }
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  void finish() {
    if (drawn_) std::cerr << "\r\x1b[K" << std::flush;
    drawn_ = false;
  }
  void update(std::size_t done) {
    if (!shown_) return;
    const double s = seconds();
    if (done < total_ && s - last_ < progress_interval_s) return;
    last_ = s;
    drawn_ = true;
    std::cerr << "\r" << done << " of " << total_ << " sources, " << std::fixed << std::setprecision(0)
              << (s > 0 ? static_cast<double>(done) / s : 0.0) << " sources/s   " << std::flush;
  }
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::size_t total_;
  bool shown_, drawn_ = false;
  double last_ = -1;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The summary's validation line: `checked` of `total` items compared with Dijkstra, `failed` of
// them differing (the first's message); `items` names them when all match, `checked_items` when not.
void validation_line(std::ostream& summary, bool asked, std::size_t checked, std::size_t failed, std::size_t total,
                     const char* items, const char* checked_items, const std::string& first_failure) {
  if (!asked)
    summary << "validation  not run (use --validate)\n";
  else if (failed == 0)
    summary << "validation  ok: " << checked << " of " << total << " " << items << " match Dijkstra\n";
  else
    summary << "validation  MISMATCH: " << failed << " of " << checked << " " << checked_items
            << " checked differ: " << first_failure << "\n";
}

// One vertex id a line in the file's numbering: `ids`, or every vertex when empty.
void write_ids(text_output& out, const graph::csr& g, const std::vector<graph::vertex_t>& ids) {
  std::ostream& os = out.stream();
  if (ids.empty())
    for (graph::vertex_t v = 0; v < g.num_vertices; ++v) os << g.external_id(v) << "\n";
  else
    for (graph::vertex_t v : ids) os << g.external_id(v) << "\n";
}

}  // namespace

matrix_files::matrix_files(const std::string& matrix_path, bool force, const std::string& graph_path,
                           const graph::csr& g, const std::vector<graph::vertex_t>& sources,
                           const std::vector<graph::vertex_t>& targets, const char* descr, std::uint64_t value_bytes)
    : source_ids_(matrix_side_file(matrix_path, "sources"), force, graph_path, "matrix"),
      target_ids_(matrix_side_file(matrix_path, "targets"), force, graph_path, "matrix") {
  matrix_ = std::make_unique<npy_writer>(matrix_path, force, graph_path, descr, value_bytes, sources.size(),
                                         targets.empty() ? g.num_vertices : targets.size());
  write_ids(source_ids_, g, sources);
  write_ids(target_ids_, g, targets);
}

matrix_files::~matrix_files() = default;

void matrix_files::write_rows(const void* data, std::uint64_t count) { matrix_->write_rows(data, count); }

void matrix_files::commit() {
  matrix_->commit();
  source_ids_.commit();
  target_ids_.commit();
}

std::string matrix_side_file(const std::string& matrix_path, const char* what) {
  std::string base = matrix_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".npy") == 0) base.resize(base.size() - 4);
  return base + "." + what + ".txt";
}

void claim_matrix_files(const std::string& matrix_path, bool force, const std::string& graph_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const std::string& p : {matrix_path, matrix_side_file(matrix_path, "sources"), matrix_side_file(matrix_path, "targets")}) {
    if (!fs::exists(p, ec)) continue;
    if (fs::equivalent(p, graph_path, ec)) throw usage_error("--matrix " + p + ": refusing to overwrite the input graph");
    if (!force) throw usage_error("--matrix: " + p + " exists (use --force to replace it)");
    if (fs::is_directory(p, ec)) throw usage_error("--matrix: " + p + " is a directory");
  }
}

int run_matrix(const matrix_request& request, const graph::csr& g, const sssp::options& opts, std::ostream& summary) {
  sssp::many_source_options mo;
  mo.batch_size = request.batch_size;
  sssp::many_sources solver = build_solver<sssp::many_sources>(request.graph_path, g, opts, mo);
  const std::size_t rows = request.sources.size();
  const std::size_t columns = request.targets.empty() ? g.num_vertices : request.targets.size();
  // The .npy dtype is the distance type (numpy's descr: little-endian unsigned or float, bytes).
  const sssp::distance_type type = solver.type();
  static const char* const descr[] = {"<u4", "<u8", "<f4", "<f8"};
  static const std::uint64_t value_bytes[] = {4, 8, 4, 8};
  // The three files appear together, after the last row: each is written under a temporary name.
  std::unique_ptr<matrix_files> matrix;
  if (!request.matrix_path.empty())
    matrix = std::make_unique<matrix_files>(request.matrix_path, request.force, request.graph_path, g, request.sources,
                                            request.targets, descr[static_cast<int>(type)],
                                            value_bytes[static_cast<int>(type)]);
  std::vector<std::size_t> sample;
  if (request.validate)
    for (std::size_t i = 0; i < std::min(rows, validated_rows); ++i) sample.push_back(i * rows / std::min(rows, validated_rows));
  std::size_t checked = 0, failed = 0, done = 0;
  std::string first_failure;
  double solve_ms = 0;
  std::uint64_t batches = 0;
  progress_line progress(rows);
  solver.run(request.sources, request.targets, [&](const sssp::distance_block& b) {
    if (matrix) {
      const void* cells = type == sssp::distance_type::uint32    ? static_cast<const void*>(b.int_distances)
                          : type == sssp::distance_type::uint64  ? static_cast<const void*>(b.uint64_distances)
                          : type == sssp::distance_type::float32 ? static_cast<const void*>(b.real_distances)
                                                                 : static_cast<const void*>(b.float64_distances);
      matrix->write_rows(cells, b.rows);
    }
    for (std::size_t row : sample) {
      if (row < b.first_row || row >= b.first_row + b.rows) continue;
      const sssp::validation v = sssp::validate_row(g, b.sources[row - b.first_row], request.targets, b, row - b.first_row);
      ++checked;
      if (!v.ok && failed++ == 0) first_failure = v.message;
    }
    solve_ms += b.milliseconds;
    ++batches;
    done += b.rows;
    progress.update(done);
  });
  const double wall_s = progress.seconds();
  progress.finish();
  if (matrix) matrix->commit();

  summary << std::fixed << std::setprecision(2);
  summary << "solver      many sources (" << solver.method() << ") on " << solver.device_name() << ", " << batches
          << " batches of up to " << solver.batch_size(rows, request.targets.size()) << "\n";
  if (!solver.setup().empty())
    summary << "setup       " << solver.setup_ms() << " ms (" << describe_setup(solver.setup(), opts.hierarchy_file)
            << ", before the time below)\n";
  summary << "sources     " << rows << " x " << columns << " targets"
          << (matrix ? ", matrix " + request.matrix_path + " (" + sssp::distance_type_name(type) + ")" : std::string())
          << "\n";
  if (matrix)
    summary << "ids         rows in " << matrix_side_file(request.matrix_path, "sources") << ", columns in "
            << matrix_side_file(request.matrix_path, "targets") << "\n";
  summary << "distances   " << sssp::distance_type_name(type) << "\n";
  summary << "time        " << wall_s * 1e3 << " ms in all, " << solve_ms << " ms solving; " << std::setprecision(0)
          << static_cast<double>(rows) / std::max(wall_s, 1e-9) << " sources/s, " << std::scientific << std::setprecision(3)
          << double(rows) * double(columns) / std::max(wall_s, 1e-9) << " distances/s\n"
          << std::fixed;
  validation_line(summary, request.validate, checked, failed, rows, "rows", "rows", first_failure);
  return failed ? exit_mismatch : exit_success;
}

int run_summaries(const matrix_request& request, const graph::csr& g, const sssp::options& opts, text_output& out,
                  std::ostream& summary) {
  sssp::many_source_options mo;
  mo.batch_size = request.batch_size;
  sssp::many_sources solver = build_solver<sssp::many_sources>(request.graph_path, g, opts, mo);
  const std::size_t rows = request.sources.size();
  const auto start = std::chrono::steady_clock::now();
  const sssp::row_summaries s = solver.summarize_rows(request.sources);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool integral = s.type == sssp::distance_type::uint32 || s.type == sssp::distance_type::uint64;
  std::ostream& os = out.stream();
  os << "source,reached,sum,farthest\n" << std::setprecision(17);
  for (std::size_t i = 0; i < rows; ++i) {
    os << g.external_id(request.sources[i]) << ',' << s.reached[i] << ',';
    if (integral)
      os << s.int_sums[i] << ',' << s.int_farthest[i] << '\n';
    else
      os << s.real_sums[i] << ',' << s.real_farthest[i] << '\n';
  }
  out.commit();

  // --validate: a sample of sources against Dijkstra's rows summed.
  std::size_t checked = 0, failed = 0;
  std::string first_failure;
  if (request.validate)
    for (std::size_t k = 0, count = std::min(rows, validated_rows); k < count; ++k) {
      const std::size_t i = k * rows / count;
      const sssp::validation v = sssp::validate_summary(g, request.sources[i], s, i, opts.cutoff);
      ++checked;
      if (!v.ok && failed++ == 0) first_failure = v.message;
    }

  summary << std::fixed << std::setprecision(2);
  summary << "solver      many sources (" << solver.method() << ") on " << solver.device_name() << ", " << s.batches
          << " batches of up to " << s.batch_size << "\n";
  if (!solver.setup().empty())
    summary << "setup       " << solver.setup_ms() << " ms (" << describe_setup(solver.setup(), opts.hierarchy_file)
            << ", before the time below)\n";
  summary << "sources     " << rows << " x " << g.num_vertices << " targets, summaries " << request.summaries_path
          << " (reached, sum, farthest; no rows kept)\n";
  summary << "distances   " << sssp::distance_type_name(s.type) << "\n";
  summary << "time        " << wall_s * 1e3 << " ms; " << std::setprecision(0)
          << static_cast<double>(rows) / std::max(wall_s, 1e-9) << " sources/s, " << std::scientific
          << std::setprecision(3) << double(rows) * double(g.num_vertices) / std::max(wall_s, 1e-9) << " distances/s\n"
          << std::fixed;
  validation_line(summary, request.validate, checked, failed, rows, "sources' summaries", "sources", first_failure);
  return failed ? exit_mismatch : exit_success;
}

}  // namespace deltasplit::cli
