// The deltasplit program end to end: outputs, files and exit codes of every sub-command, and its
// answers to bad input (missing and malformed files, bad sources, existing outputs). The matrix
// outputs and negative weights: cli_matrix_test.cpp.
#include "cli/cli_fixture.hpp"

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

// Issue 13's fuzzer find: two lines, one heavy arc among 100,000 vertices. The automatic delta
// grew past 2^64, a cast made it 0 and the CPU solver died of a floating-point exception with no
// message; every width is now bounded (sssp/bucket_width.cpp).
TEST_F(Cli, OneArcAmongManyVerticesSolves) {
  const std::string file = write("one_arc.mtx",
                                 "%%MatrixMarket matrix coordinate integer general\n100000 100000 1\n1 2 4000000000\n");
  for (const char* device : {"cpu", "auto"}) {
    outcome o = run("sssp " + file + " --source 1 --validate --device " + std::string(device));
    ASSERT_EQ(o.status, 0) << device << ": " << o.err;
    EXPECT_TRUE(contains(o.out, "reached     2 of 100000")) << o.out;
    EXPECT_TRUE(contains(o.out, "validation  ok")) << o.out;
  }
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
  EXPECT_EQ(lines_of(o.out).size(), 4u + 1 + 3 + 1);  // graph, solver, distances, built, header, 3 sources, median
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
  outcome heavy = run("sssp " + chesapeake + " --heavy sideways");
  EXPECT_EQ(heavy.status, 2);
  EXPECT_TRUE(contains(heavy.err, "--heavy")) << heavy.err;
  EXPECT_EQ(run("sssp " + chesapeake + " --runs 0").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --weight-range 9:1").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --strategy dijkstra --device gpu").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --output " + path("x") + " --predecessors " + path("x")).status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --output - --json -").status, 2);
}

// --threads on every command that takes it: a sign, a fraction, text or more than max_threads is a
// usage error naming the option (Boost alone would wrap -1 to 4294967295); 0 and a few are fine.
TEST_F(Cli, ThreadsIsValidatedOnEveryCommand) {
  for (const std::string& command : {"sssp " + chesapeake + " --device cpu", "compare " + chesapeake + " --runs 1",
                                     "info " + chesapeake, "convert " + chesapeake + " " + path("c.gr") + " --force"}) {
    for (const char* bad : {"-1", "4294967295", "99999999999999999999", "4097", "abc", "1.5", "2x", "''"}) {
      outcome o = run(command + " --threads " + bad);
      EXPECT_EQ(o.status, 2) << command << " --threads " << bad << "\n" << o.err;
      EXPECT_TRUE(contains(o.err, "--threads")) << command << " --threads " << bad << "\n" << o.err;
      EXPECT_FALSE(contains(o.err, "too few")) << o.err;
    }
    for (const char* good : {"0", "1", "3"}) {
      outcome o = run(command + " --threads " + good);
      EXPECT_EQ(o.status, 0) << command << " --threads " << good << "\n" << o.err;
    }
  }
  EXPECT_TRUE(contains(run("sssp --help").out, "4096")) << "the help gives the range";
}

// Every option a command's help mentions, in its table or in any description, is one the
// command's parser has, and every option of the table is accepted by the parser.
TEST_F(Cli, HelpMentionsOnlyTheCommandsOwnOptions) {
  const std::regex listed(R"(^  (?:-[a-z] \[ )?--([a-z0-9-]+))"), mentioned(R"(--([a-z][a-z0-9-]*))");
  for (const char* command : {"sssp", "compare", "info", "convert", "generate"}) {
    SCOPED_TRACE(command);
    const outcome help = run(std::string(command) + " --help");
    ASSERT_EQ(help.status, 0);
    std::set<std::string> table;
    for (const std::string& line : lines_of(help.out)) {
      std::smatch m;
      if (std::regex_search(line, m, listed)) table.insert(m[1]);
    }
    ASSERT_GT(table.size(), 3u) << help.out;
    for (auto it = std::sregex_iterator(help.out.begin(), help.out.end(), mentioned); it != std::sregex_iterator(); ++it)
      EXPECT_TRUE(table.count((*it)[1])) << "the help mentions --" << (*it)[1] << ", which is not an option of " << command;
    for (const std::string& name : table) {
      const outcome o = run(std::string(command) + " --help --" + name);
      EXPECT_FALSE(contains(o.err, "unrecognised")) << "--" << name << ": " << o.err;
    }
  }
  EXPECT_FALSE(contains(run("compare --help").out, "--matrix")) << "compare has no batched mode";
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

// Integer distances past 2^32 - 2 are uint64, not an error; only past 2^64 - 2 is a distance an
// overflow (edge lists carry the uint64 weights that take a path there).
TEST_F(Cli, OverflowOnlyPast64Bits) {
  std::string gr = write("big.gr", "p sp 3 2\na 1 2 4000000000\na 2 3 4000000000\n");
  outcome fits = run("sssp " + gr + " --source 1 --device cpu -o -");
  EXPECT_EQ(fits.status, 0) << fits.err;
  EXPECT_TRUE(contains(fits.out, "3 8000000000")) << fits.out;
  // A chain of 2050 arcs of 2^53 - 1 (uint64 weights): the last vertices lie past 2^64 - 2.
  std::string chain;
  for (int i = 0; i < 2050; ++i) chain += std::to_string(i) + " " + std::to_string(i + 1) + " 9007199254740991\n";
  outcome o = run("sssp " + write("chain.edges", chain) + " --source 0 --device cpu");
  EXPECT_EQ(o.status, 1);
  EXPECT_TRUE(contains(o.err, "exceeds 2^64 - 2")) << o.err;
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

// OUT "-": the converted graph on standard output (a pipe, a compressor downstream), the same
// bytes as the file, the summary line on standard error; --format is required there.
TEST_F(Cli, ConvertToStandardOutput) {
  ASSERT_EQ(run("convert " + chesapeake + " " + path("file.gr")).status, 0);
  outcome streamed = run("convert " + chesapeake + " - --format gr");
  ASSERT_EQ(streamed.status, 0) << streamed.err;
  EXPECT_EQ(streamed.out, slurp(path("file.gr")));
  EXPECT_TRUE(contains(streamed.err, "wrote standard output: 39 vertices, 340 arcs")) << streamed.err;
  outcome compressed = run("convert " + chesapeake + " - --format edges --gzip");
  ASSERT_EQ(compressed.status, 0) << compressed.err;
  const std::string back = write("back.edges.gz", compressed.out);
  EXPECT_TRUE(contains(run("info " + back).out, "arcs: 340"));
  outcome unnamed = run("convert " + chesapeake + " -");
  EXPECT_EQ(unnamed.status, 2);
  EXPECT_TRUE(contains(unnamed.err, "--format")) << unnamed.err;
  EXPECT_TRUE(unnamed.out.empty());
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

// generate --undirected (and grid, always undirected) written as Matrix Market is marked
// symmetric, one triangle stored, so that reading it back (info, convert, sssp --heavy pull) knows
// it is undirected; convert keeps the mark.
TEST_F(Cli, UndirectedGraphsAreWrittenAsSymmetricMatrixMarket) {
  for (const std::string& kind : {std::string("rmat --scale 7 --edge-factor 4 --undirected"), std::string("grid --rows 9 --cols 11")}) {
    SCOPED_TRACE(kind);
    fs::remove(path("u.mtx"));
    fs::remove(path("v.mtx"));
    outcome made = run("generate " + kind + " -o " + path("u.mtx"));
    ASSERT_EQ(made.status, 0) << made.err;
    EXPECT_TRUE(contains(lines_of(slurp(path("u.mtx"))).at(0), " symmetric")) << slurp(path("u.mtx")).substr(0, 200);
    EXPECT_TRUE(contains(run("info " + path("u.mtx")).out, "(symmetric: both directions stored)"));
    ASSERT_EQ(run("convert " + path("u.mtx") + " " + path("v.mtx")).status, 0);
    EXPECT_TRUE(contains(lines_of(slurp(path("v.mtx"))).at(0), " symmetric"));
    outcome pulled = run("sssp " + path("v.mtx") + " --heavy pull --validate");
    EXPECT_EQ(pulled.status, 0) << pulled.err;
    EXPECT_TRUE(contains(pulled.out, "validation  ok")) << pulled.out;
  }
  ASSERT_EQ(run("generate rmat --scale 7 --edge-factor 4 -o " + path("d.mtx")).status, 0);
  EXPECT_TRUE(contains(lines_of(slurp(path("d.mtx"))).at(0), " general")) << "a directed graph stays general";
}

// What a user chooses comes first in the help; the tuning (which never changes the distances)
// is a group of its own after it.
TEST_F(Cli, HelpGroupsTheTuningApart) {
  for (const char* command : {"sssp", "compare"}) {
    const std::string help = run(std::string(command) + " --help").out;
    const std::size_t group = help.find("tuning (never changes the distances");
    ASSERT_NE(group, std::string::npos) << help;
    const auto row = [&help](const char* option) { return help.find(std::string("\n  ") + option + " "); };
    for (const char* user : {"--precision", "--runs", "--hierarchy"}) EXPECT_LT(row(user), group) << command << " " << user;
    for (const char* knob : {"--delta", "--buckets", "--driver", "--light-phase", "--cluster-blocks", "--heavy"}) {
      EXPECT_NE(row(knob), std::string::npos) << command << " " << knob;
      EXPECT_GT(row(knob), group) << command << " " << knob;
    }
  }
  EXPECT_TRUE(contains(run("compare --help").out, "rows run the step loop unless --driver"));
}

TEST_F(Cli, CompareValidatesEveryStrategy) {
  outcome o = run("compare " + chesapeake + " --source 2 --runs 2 --json " + path("c.json"));
  ASSERT_EQ(o.status, 0) << o.err;
  std::vector<std::string> lines = lines_of(o.out);
  bool cpu = false, dijkstra = false, phast = false;
  for (const std::string& line : lines) {
    if (line.rfind("cpu ", 0) == 0) cpu = contains(line, ", ok");
    if (line.rfind("dijkstra ", 0) == 0) dijkstra = contains(line, ", ok");
    if (line.rfind("phast ", 0) == 0) phast = contains(line, ", ok");
  }
  EXPECT_TRUE(cpu && dijkstra && phast) << o.out;
  EXPECT_TRUE(contains(o.out, "setup_ms")) << o.out;
  EXPECT_TRUE(contains(slurp(path("c.json")), "\"strategies\""));
  EXPECT_TRUE(contains(slurp(path("c.json")), "\"setup_ms\""));
}

TEST_F(Cli, SolverBuildIsReportedApartFromTheRuns) {
  outcome o = run("sssp " + chesapeake + " --source 2 --runs 2 --json " + path("b.json"));
  ASSERT_EQ(o.status, 0) << o.err;
  bool built = false;
  for (const std::string& line : lines_of(o.out))
    if (line.rfind("built       ", 0) == 0) built = contains(line, " ms (the solver for this graph, once;");
  EXPECT_TRUE(built) << o.out;
  EXPECT_TRUE(contains(slurp(path("b.json")), "\"solver_build_ms\": ")) << slurp(path("b.json"));
}

TEST_F(Cli, PhastReportsItsHierarchyBuildApart) {
  outcome o = run("sssp " + chesapeake + " --strategy phast --source 2,5 --validate --predecessors " + path("p.txt") +
                  " --json " + path("s.json"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "setup       ")) << o.out;
  EXPECT_TRUE(contains(slurp(path("s.json")), "\"setup_ms\"")) << slurp(path("s.json"));
  outcome m = run("sssp " + chesapeake + " --strategy phast --random-sources 20 --matrix " + path("m.npy") + " --validate");
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_TRUE(contains(m.out, "(phast)")) << m.out;
  EXPECT_TRUE(contains(m.out, "validation  ok")) << m.out;
}

// --hierarchy: the first run builds the hierarchy and writes it, later runs (sssp, the batched
// matrix, compare) load it and say so; another weighting of the graph, a file that is no
// hierarchy and a strategy other than phast are refused, and no file is replaced.
TEST_F(Cli, PhastHierarchyFileIsBuiltOnceThenLoaded) {
  const std::string h = path("ches.ch");
  outcome built = run("sssp " + chesapeake + " --strategy phast --hierarchy " + h + " --source 2 --validate");
  ASSERT_EQ(built.status, 0) << built.err;
  EXPECT_TRUE(contains(built.out, "contraction hierarchy built and written to " + h)) << built.out;
  const std::string bytes = slurp(h);
  ASSERT_FALSE(bytes.empty());
  outcome loaded = run("sssp " + chesapeake + " --strategy phast --hierarchy " + h + " --source 2,7 --validate --json " +
                       path("s.json"));
  ASSERT_EQ(loaded.status, 0) << loaded.err;
  EXPECT_TRUE(contains(loaded.out, "contraction hierarchy loaded from " + h)) << loaded.out;
  EXPECT_FALSE(contains(loaded.out, "MISMATCH")) << loaded.out;
  EXPECT_TRUE(contains(slurp(path("s.json")), "\"setup\": \"loaded\"")) << slurp(path("s.json"));
  outcome matrix = run("sssp " + chesapeake + " --strategy phast --hierarchy " + h + " --random-sources 20 --matrix " +
                       path("m.npy") + " --validate");
  ASSERT_EQ(matrix.status, 0) << matrix.err;
  EXPECT_TRUE(contains(matrix.out, "contraction hierarchy loaded from " + h)) << matrix.out;
  EXPECT_TRUE(contains(matrix.out, "validation  ok")) << matrix.out;
  outcome compared = run("compare " + chesapeake + " --source 2 --hierarchy " + h);
  ASSERT_EQ(compared.status, 0) << compared.err;
  EXPECT_TRUE(contains(compared.out, "setup of phast: contraction hierarchy loaded from " + h)) << compared.out;
  EXPECT_EQ(slurp(h), bytes);

  outcome without_phast = run("sssp " + chesapeake + " --strategy dijkstra --hierarchy " + h);
  EXPECT_EQ(without_phast.status, 2);
  EXPECT_TRUE(contains(without_phast.err, "--hierarchy needs --strategy phast")) << without_phast.err;
  outcome reweighted = run("sssp " + chesapeake + " --weight-seed 2 --strategy phast --hierarchy " + h);
  EXPECT_EQ(reweighted.status, 1);
  EXPECT_TRUE(contains(reweighted.err, h + ": the contraction hierarchy of another graph")) << reweighted.err;
  const std::string text = write("notes.txt", "not a hierarchy\n");
  outcome foreign = run("sssp " + chesapeake + " --strategy phast --hierarchy " + text);
  EXPECT_EQ(foreign.status, 1);
  EXPECT_TRUE(contains(foreign.err, text + ": not a contraction hierarchy file")) << foreign.err;
  EXPECT_EQ(slurp(text), "not a hierarchy\n");
  EXPECT_EQ(slurp(h), bytes);
}

// Runs the program with standard output and error on a pseudo-terminal; returns what it wrote.
static std::string run_on_terminal(const std::string& program, const std::vector<std::string>& args, int& status) {
  int master = -1;
  pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) return "forkpty failed";
  if (pid == 0) {
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t got = ::read(master, buf, sizeof buf);
    if (got <= 0) break;  // EIO once the child has closed the terminal
    out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(master);
  int raw = 0;
  ::waitpid(pid, &raw, 0);
  status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return out;
}

TEST_F(Cli, ProgressOnlyWhenStandardErrorIsATerminal) {
  std::string text = "p sp 2000 4000\n";
  for (int i = 0; i < 4000; ++i) text += "a " + std::to_string(i % 2000 + 1) + " " + std::to_string((i * 7) % 2000 + 1) + " 5\n";
  const std::string g = write("g.gr", text);
  outcome piped = run("info '" + g + "'");
  ASSERT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(piped.err, "") << "progress must not reach a file or a pipe";
  int status = -1;
  std::string seen = run_on_terminal(program(), {"info", g}, status);
  EXPECT_EQ(status, 0) << seen;
  EXPECT_TRUE(contains(seen, "loading g.gr: reading")) << seen;
  EXPECT_TRUE(contains(seen, "building 100%")) << seen;
  EXPECT_TRUE(contains(seen, "vertices: 2000")) << seen;
  seen = run_on_terminal(program(), {"convert", g, path("g.dsg")}, status);
  EXPECT_EQ(status, 0) << seen;
  EXPECT_TRUE(contains(seen, "writing g.dsg: writing 100%")) << seen;
  seen = run_on_terminal(program(), {"generate", "rmat", "--scale", "10", "-o", path("r.mtx")}, status);
  EXPECT_EQ(status, 0) << seen;
  EXPECT_TRUE(contains(seen, "generating r.mtx: generating 100%")) << seen;
}

// On a terminal: phast's contraction shows progress, and every progress line (the contraction's,
// the batched sources') is erased before the summary that follows it is printed.
TEST_F(Cli, ProgressLinesAreErasedBeforeTheSummary) {
  std::string text = "p sp 3000 9000\n";
  for (int i = 0; i < 9000; ++i) text += "a " + std::to_string(i % 3000 + 1) + " " + std::to_string((i * 7 + 3) % 3000 + 1) + " 5\n";
  const std::string g = write("g.gr", text);
  const std::string erase = "\r\x1b[K";
  // The summary line `first` comes after an erase, with no progress text drawn since.
  auto erased_before = [&](const std::string& seen, const std::string& progress, const std::string& first) {
    const std::size_t summary = seen.find(first), drawn = seen.rfind(progress, summary), cleared = seen.rfind(erase, summary);
    ASSERT_NE(summary, std::string::npos) << seen;
    ASSERT_NE(drawn, std::string::npos) << seen;
    ASSERT_NE(cleared, std::string::npos) << seen;
    EXPECT_GT(cleared, drawn) << seen;
    EXPECT_EQ(seen.find_first_not_of("\r\n", cleared + erase.size()), summary) << seen;
  };
  int status = -1;
  std::string seen = run_on_terminal(program(), {"sssp", g, "--strategy", "phast", "--device", "cpu"}, status);
  EXPECT_EQ(status, 0) << seen;
  EXPECT_TRUE(contains(seen, "contraction hierarchy of g.gr: contracting")) << seen;
  erased_before(seen, "contracting", "graph       ");
  seen = run_on_terminal(program(), {"sssp", g, "--random-sources", "300", "--matrix", path("m.npy")}, status);
  EXPECT_EQ(status, 0) << seen;
  erased_before(seen, " sources/s", "solver      many sources");
}

TEST_F(Cli, SsspRefusesAGraphTooLargeForThisMachineBeforeLoadingIt) {
  // 18 bytes that declare 2^32 - 1 vertices: loading and solving with validation need 53 bytes
  // per vertex (8 of offsets, 20 of results and solver state, 25 of Dijkstra's), 228 GB.
  const std::string g = write("huge.gr", "p sp 4294967295 0\n");
  if (deltasplit::graph::available_memory() > 53 * 4294967296ull) GTEST_SKIP() << "this machine could hold the graph";
  outcome o = run("sssp '" + g + "' --device cpu --validate");
  EXPECT_EQ(o.status, 1);
  EXPECT_TRUE(contains(o.err, g + ":1: a graph of 4294967295 vertices and 0 arcs needs")) << o.err;
  EXPECT_TRUE(contains(o.err, "more memory to load and use, but only")) << o.err;
  EXPECT_TRUE(contains(o.err, "is available")) << o.err;
}
