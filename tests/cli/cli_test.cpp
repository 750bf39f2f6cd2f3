// The deltasplit program end to end: outputs, files and exit codes of every sub-command, and its
// answers to bad input (missing and malformed files, bad sources, existing outputs).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/sssp.hpp"

namespace fs = std::filesystem;
namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;

namespace {

struct outcome {
  int status = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("deltasplit_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }

  // The program built beside this test, or $DELTASPLIT_CLI where the binaries were copied (the
  // GPU machine runs them from another directory).
  static std::string program() {
    const char* moved = std::getenv("DELTASPLIT_CLI");
    return moved ? moved : DELTASPLIT_CLI;
  }

  outcome run(const std::string& arguments) const {
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    const std::string command = "'" + program() + "' " + arguments + " >'" + out + "' 2>'" + err + "'";
    int raw = std::system(command.c_str());
    outcome o;
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
  }

  fs::path dir_;
};

const std::string chesapeake = deltasplit_test::dataset_path("chesapeake.mtx");

}  // namespace

TEST_F(Cli, HelpAndUsage) {
  outcome top = run("--help");
  EXPECT_EQ(top.status, 0);
  for (const char* command : {"sssp", "compare", "info", "convert", "generate"}) EXPECT_TRUE(contains(top.out, command));
  for (const char* command : {"sssp", "compare", "info", "convert", "generate"}) {
    outcome help = run(std::string(command) + " --help");
    EXPECT_EQ(help.status, 0) << command;
    EXPECT_TRUE(contains(help.out, std::string("usage: deltasplit ") + command)) << help.out;
  }
  EXPECT_TRUE(contains(run("sssp --help").out, "--source"));
  EXPECT_EQ(run("").status, 2);
  outcome unknown = run("frobnicate");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_TRUE(contains(unknown.err, "unknown command 'frobnicate'"));
  outcome bad_option = run("sssp " + chesapeake + " --no-such-option");
  EXPECT_EQ(bad_option.status, 2);
  EXPECT_TRUE(contains(bad_option.err, "no-such-option")) << bad_option.err;
}

TEST_F(Cli, SsspSummaryWithValidation) {
  outcome o = run("sssp " + chesapeake + " --source 1 --validate --device cpu");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "chesapeake.mtx: 39 vertices, 340 arcs")) << o.out;
  EXPECT_TRUE(contains(o.out, "reached     39 of 39")) << o.out;
  EXPECT_TRUE(contains(o.out, "validation  ok")) << o.out;
  EXPECT_TRUE(contains(o.out, "cpu on cpu")) << o.out;
}

TEST_F(Cli, SsspOutputFileMatchesTheLibrary) {
  graph::csr g = graph::read_graph(chesapeake);
  ds::result expected = ds::dijkstra(g, 4);  // file id 5
  outcome o = run("sssp " + chesapeake + " --source 5 --strategy cpu --output " + path("d.txt"));
  ASSERT_EQ(o.status, 0) << o.err;
  std::vector<std::string> lines = lines_of(slurp(path("d.txt")));
  ASSERT_EQ(lines.size(), 39u);
  for (graph::vertex_t v = 0; v < 39; ++v)
    EXPECT_EQ(lines[v], std::to_string(v + 1) + " " + std::to_string(expected.int_distances[v]));
}

TEST_F(Cli, SsspOutputToStdoutMovesTheSummaryToStderr) {
  outcome o = run("sssp " + chesapeake + " --source 1 --device cpu --output -");
  ASSERT_EQ(o.status, 0) << o.err;
  std::vector<std::string> lines = lines_of(o.out);
  ASSERT_EQ(lines.size(), 39u);
  EXPECT_EQ(lines[0], "1 0");
  EXPECT_TRUE(contains(o.err, "reached"));
}

TEST_F(Cli, SeveralSourcesWriteOneBlockEach) {
  outcome o = run("sssp " + chesapeake + " --source 1,7 --source 39 --device cpu --validate --output " + path("d.txt") +
                  " --predecessors " + path("p.txt"));
  ASSERT_EQ(o.status, 0) << o.err;
  std::vector<std::string> lines = lines_of(slurp(path("d.txt")));
  ASSERT_EQ(lines.size(), 3u * 40);
  EXPECT_EQ(lines[0], "# source 1");
  EXPECT_EQ(lines[40], "# source 7");
  EXPECT_EQ(lines[47], "7 0");
  EXPECT_EQ(lines[80], "# source 39");
  EXPECT_EQ(lines_of(o.out).size(), 2u + 1 + 3 + 1);  // graph, solver, header, 3 sources, median
}

TEST_F(Cli, PredecessorsFormATreeAndTargetPrintsThePath) {
  outcome o = run("sssp " + chesapeake + " --source 2 --device cpu --predecessors " + path("p.txt") + " --target 30");
  ASSERT_EQ(o.status, 0) << o.err;
  graph::csr g = graph::read_graph(chesapeake);
  ds::result r = ds::dijkstra(g, 1);
  r.predecessors.assign(39, graph::invalid_vertex);
  std::vector<std::string> lines = lines_of(slurp(path("p.txt")));
  ASSERT_EQ(lines.size(), 39u);
  for (const std::string& line : lines) {
    std::istringstream in(line);
    std::uint64_t v;
    std::string parent;
    in >> v >> parent;
    if (parent != "none") r.predecessors[v - 1] = static_cast<graph::vertex_t>(std::stoul(parent) - 1);
  }
  ds::validation tree = ds::check_predecessors(g, 1, r);
  EXPECT_TRUE(tree.ok) << tree.message;
  EXPECT_TRUE(contains(o.out, "path from 2 to 30: 2 ")) << o.out;
  EXPECT_TRUE(contains(o.out, " -> 30 (distance " + std::to_string(r.int_distances[29]) + ",")) << o.out;
}

TEST_F(Cli, JsonStatistics) {
  outcome o = run("sssp " + chesapeake + " --device cpu --runs 3 --json " + path("s.json"));
  ASSERT_EQ(o.status, 0) << o.err;
  std::string json = slurp(path("s.json"));
  for (const char* key : {"\"runs\"", "\"times_ms\"", "\"edges_relaxed\"", "\"iterations\"", "\"vertices\": 39"})
    EXPECT_TRUE(contains(json, key)) << key << " in " << json;
  EXPECT_EQ(json.front(), '{');
}

TEST_F(Cli, RandomSourcesAreDeterministic) {
  outcome a = run("sssp " + chesapeake + " --device cpu --random-sources 4 --seed 9 --output " + path("a.txt"));
  outcome b = run("sssp " + chesapeake + " --device cpu --random-sources 4 --seed 9 --output " + path("b.txt"));
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(slurp(path("a.txt")), slurp(path("b.txt")));
  EXPECT_EQ(lines_of(slurp(path("a.txt"))).size(), 4u * 40);
  EXPECT_EQ(run("sssp " + chesapeake + " --random-sources 40").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --random-sources 2 --source 1").status, 2);
}

TEST_F(Cli, EdgeListsAreZeroBased) {
  std::string edges = write("g.edges", "# a small edge list\n0 1 5\n1 2 3\n0 2 9\n");
  outcome o = run("sssp " + edges + " --source 0 --device cpu --output -");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(lines_of(o.out), (std::vector<std::string>{"0 0", "1 5", "2 8"}));
  outcome out_of_range = run("sssp " + edges + " --source 3 --device cpu");
  EXPECT_EQ(out_of_range.status, 2);
  EXPECT_TRUE(contains(out_of_range.err, "numbered 0..2")) << out_of_range.err;
}

TEST_F(Cli, RealWeightsAndUnreachableVertices) {
  std::string mtx = write("r.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 2\n1 2 0.5\n2 3 0.25\n");
  outcome o = run("sssp " + mtx + " --source 1 --device cpu --validate --output -");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(lines_of(o.out), (std::vector<std::string>{"1 0", "2 0.5", "3 0.75", "4 inf"}));
}

TEST_F(Cli, BadSources) {
  outcome zero = run("sssp " + chesapeake + " --source 0");
  EXPECT_EQ(zero.status, 2);
  EXPECT_TRUE(contains(zero.err, "out of range")) << zero.err;
  EXPECT_TRUE(contains(zero.err, "numbered 1..39")) << zero.err;
  EXPECT_EQ(run("sssp " + chesapeake + " --source 40").status, 2);
  outcome word = run("sssp " + chesapeake + " --source x");
  EXPECT_EQ(word.status, 2);
  EXPECT_TRUE(contains(word.err, "not a vertex id")) << word.err;
  EXPECT_EQ(run("sssp " + chesapeake + " --target 99").status, 2);
}

TEST_F(Cli, BadOptionValues) {
  EXPECT_EQ(run("sssp " + chesapeake + " --strategy fastest").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --delta -3").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --delta abc").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --device tpu").status, 2);
  outcome driver = run("sssp " + chesapeake + " --driver cluster");
  EXPECT_EQ(driver.status, 2);
  EXPECT_TRUE(contains(driver.err, "--driver")) << driver.err;
  EXPECT_EQ(run("sssp " + chesapeake + " --runs 0").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --weight-range 9:1").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --strategy dijkstra --device gpu").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --output " + path("x") + " --predecessors " + path("x")).status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --output - --json -").status, 2);
}

TEST_F(Cli, DeviceGpuWithoutAGpuFailsWithTheReason) {
  std::string why;
  if (ds::gpu_available(&why)) GTEST_SKIP() << "a GPU is present";
  outcome o = run("sssp " + chesapeake + " --device gpu");
  EXPECT_EQ(o.status, 1);
  EXPECT_TRUE(contains(o.err, why)) << o.err;
  outcome fallback = run("sssp " + chesapeake + " --strategy near-far");
  EXPECT_EQ(fallback.status, 0);
  EXPECT_TRUE(contains(fallback.err, "note: no usable GPU")) << fallback.err;
  EXPECT_TRUE(contains(fallback.err, "instead of near-far")) << fallback.err;
}

TEST_F(Cli, MissingAndMalformedFiles) {
  outcome missing = run("sssp " + path("nothing.mtx"));
  EXPECT_EQ(missing.status, 1);
  EXPECT_TRUE(contains(missing.err, "nothing.mtx")) << missing.err;
  std::string bad = write("bad.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 x\n");
  for (const char* command : {"sssp", "info", "compare"}) {
    outcome o = run(std::string(command) + " " + bad);
    EXPECT_EQ(o.status, 1) << command;
    EXPECT_TRUE(contains(o.err, "bad.mtx:4")) << command << ": " << o.err;
  }
  std::string bad_gr = write("bad.gr", "p sp 3 2\na 1 2 5\na 1 9 1\n");
  outcome o = run("sssp " + bad_gr);
  EXPECT_EQ(o.status, 1);
  EXPECT_TRUE(contains(o.err, "bad.gr:3")) << o.err;
}

TEST_F(Cli, OverflowIsAnError) {
  std::string gr = write("big.gr", "p sp 3 2\na 1 2 4000000000\na 2 3 4000000000\n");
  outcome o = run("sssp " + gr + " --source 1 --device cpu");
  EXPECT_EQ(o.status, 1);
  EXPECT_TRUE(contains(o.err, "exceeds")) << o.err;
}

TEST_F(Cli, ExistingOutputsNeedForceAndTheInputIsNeverReplaced) {
  std::string existing = write("d.txt", "precious\n");
  outcome refused = run("sssp " + chesapeake + " --device cpu --output " + existing);
  EXPECT_EQ(refused.status, 2);
  EXPECT_TRUE(contains(refused.err, "exists")) << refused.err;
  EXPECT_EQ(slurp(existing), "precious\n");
  EXPECT_EQ(run("sssp " + chesapeake + " --device cpu --json " + existing).status, 2);
  EXPECT_EQ(slurp(existing), "precious\n");
  outcome forced = run("sssp " + chesapeake + " --device cpu --force --output " + existing);
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_EQ(lines_of(slurp(existing)).size(), 39u);

  std::string input = write("in.mtx", slurp(chesapeake));
  outcome self = run("sssp " + input + " --device cpu --force --output " + input);
  EXPECT_EQ(self.status, 2);
  EXPECT_TRUE(contains(self.err, "input graph")) << self.err;
  EXPECT_EQ(slurp(input), slurp(chesapeake));
  EXPECT_TRUE(fs::is_empty(dir_) == false);
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_FALSE(contains(entry.path().filename().string(), ".tmp.")) << "temporary file left behind";
}

TEST_F(Cli, Info) {
  outcome o = run("info " + chesapeake);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "vertices: 39")) << o.out;
  EXPECT_TRUE(contains(o.out, "arcs: 340")) << o.out;
  EXPECT_TRUE(contains(o.out, "matrix-market")) << o.out;
}

TEST_F(Cli, ConvertRoundTripAndRefusals) {
  outcome o = run("convert " + chesapeake + " " + path("c.gr"));
  ASSERT_EQ(o.status, 0) << o.err;
  outcome a = run("sssp " + chesapeake + " --source 3 --device cpu --output " + path("a.txt"));
  outcome b = run("sssp " + path("c.gr") + " --source 3 --device cpu --output " + path("b.txt"));
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(slurp(path("a.txt")), slurp(path("b.txt"))) << "the converted file carries the generated weights";

  EXPECT_EQ(run("convert " + chesapeake + " " + path("c.gr")).status, 2) << "exists";
  EXPECT_EQ(run("convert " + chesapeake + " " + path("c.gr") + " --force").status, 0);
  std::string input = write("in.mtx", slurp(chesapeake));
  outcome self = run("convert " + input + " " + input + " --force");
  EXPECT_EQ(self.status, 2);
  EXPECT_EQ(slurp(input), slurp(chesapeake));
  EXPECT_EQ(run("convert " + chesapeake + " " + path("x.out") + " --format nonsense").status, 2);
  outcome gz = run("convert " + chesapeake + " " + path("c.edges.gz"));
  ASSERT_EQ(gz.status, 0) << gz.err;
  outcome info = run("info " + path("c.edges.gz"));
  EXPECT_TRUE(contains(info.out, "arcs: 340")) << info.out;
}

TEST_F(Cli, GenerateRmatAndGrid) {
  outcome rmat = run("generate rmat --scale 8 --edge-factor 4 --preset paper --seed 3 -o " + path("r.mtx"));
  ASSERT_EQ(rmat.status, 0) << rmat.err;
  EXPECT_TRUE(contains(run("info " + path("r.mtx")).out, "vertices: 256"));
  outcome again = run("generate rmat --scale 8 --edge-factor 4 --preset paper --seed 3 -o " + path("r2.mtx"));
  ASSERT_EQ(again.status, 0);
  EXPECT_EQ(slurp(path("r.mtx")), slurp(path("r2.mtx"))) << "same seed, same graph";
  EXPECT_EQ(run("generate rmat --scale 8 -o " + path("r.mtx")).status, 2) << "exists";
  EXPECT_EQ(run("generate rmat --scale 8 --a 0.9 -o " + path("p.mtx")).status, 2) << "probabilities sum above 1";
  EXPECT_EQ(run("generate rmat --preset other -o " + path("p.mtx")).status, 2);
  EXPECT_EQ(run("generate torus -o " + path("t.mtx")).status, 2);
  EXPECT_EQ(run("generate rmat --scale 8").status, 2) << "-o is required";

  outcome grid = run("generate grid --rows 10 --cols 12 --weight-range 1:9 -o " + path("g.gr"));
  ASSERT_EQ(grid.status, 0) << grid.err;
  outcome info = run("info " + path("g.gr"));
  EXPECT_TRUE(contains(info.out, "vertices: 120")) << info.out;
  outcome solved = run("sssp " + path("g.gr") + " --device cpu --validate");
  EXPECT_EQ(solved.status, 0) << solved.err;
  EXPECT_TRUE(contains(solved.out, "reached     120 of 120")) << solved.out;
}

TEST_F(Cli, CompareValidatesEveryStrategy) {
  outcome o = run("compare " + chesapeake + " --source 2 --runs 2 --json " + path("c.json"));
  ASSERT_EQ(o.status, 0) << o.err;
  std::vector<std::string> lines = lines_of(o.out);
  bool cpu = false, dijkstra = false;
  for (const std::string& line : lines) {
    if (line.rfind("cpu ", 0) == 0) cpu = contains(line, ", ok");
    if (line.rfind("dijkstra ", 0) == 0) dijkstra = contains(line, ", ok");
  }
  EXPECT_TRUE(cpu && dijkstra) << o.out;
  EXPECT_TRUE(contains(slurp(path("c.json")), "\"strategies\""));
}
