// The deltasplit program end to end, continued (cli_test.cpp): `--matrix` files (npy and text),
// 64-bit distances, and negative weights (Bellman-Ford, Johnson, negative cycles).
#include "cli/cli_fixture.hpp"

namespace {

// A .npy file read back by hand: the preamble, the header dict and the data behind it.
struct npy_file {
  std::string descr, shape, dict;
  std::size_t data_offset = 0;
  std::string bytes;
};

npy_file read_npy(const std::string& path) {
  npy_file f;
  f.bytes = slurp(path);
  if (f.bytes.size() < 10 || f.bytes.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) != 0) return f;
  const std::size_t length = static_cast<unsigned char>(f.bytes[8]) | (static_cast<unsigned char>(f.bytes[9]) << 8);
  f.dict = f.bytes.substr(10, length);
  f.data_offset = 10 + length;
  auto field = [&](const std::string& key, char open, char close) {
    std::size_t at = f.dict.find("'" + key + "': ");
    if (at == std::string::npos) return std::string();
    std::size_t b = f.dict.find(open, at + key.size() + 3), e = f.dict.find(close, b + 1);
    return f.dict.substr(b + 1, e - b - 1);
  };
  f.descr = field("descr", '\'', '\'');
  f.shape = field("shape", '(', ')');
  return f;
}

// The data of a .npy file as values of T (as many whole values as its bytes hold).
template <class T>
std::vector<T> npy_values(const npy_file& f) {
  std::vector<T> out((f.bytes.size() - f.data_offset) / sizeof(T));
  std::memcpy(out.data(), f.bytes.data() + f.data_offset, out.size() * sizeof(T));
  return out;
}

}  // namespace

TEST_F(Cli, MatrixNpyFromASourceFileWithTargets) {
  graph::csr g = graph::read_graph(chesapeake);
  std::string sources = write("s.txt", "# three sources, one twice\n5\n\n  2 # comment\n5\n");
  std::string targets = write("t.txt", "1\n39\n7\n");
  outcome o = run("sssp " + chesapeake + " --source-file " + sources + " --target-file " + targets + " --matrix " +
                  path("m.npy") + " --validate");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "validation  ok: 3 of 3 rows")) << o.out;
  npy_file f = read_npy(path("m.npy"));
  EXPECT_EQ(f.descr, "<u4");
  EXPECT_EQ(f.shape, "3, 3");
  EXPECT_TRUE(contains(f.dict, "'fortran_order': False"));
  EXPECT_EQ(f.data_offset % 64, 0u);
  EXPECT_EQ(f.dict.back(), '\n');
  ASSERT_EQ(f.bytes.size(), f.data_offset + 9 * 4);
  const std::vector<graph::vertex_t> rows = {4, 1, 4}, columns = {0, 38, 6};
  for (std::size_t r = 0; r < 3; ++r) {
    ds::result d = ds::dijkstra(g, rows[r]);
    for (std::size_t c = 0; c < 3; ++c) {
      std::uint32_t value;
      std::memcpy(&value, f.bytes.data() + f.data_offset + (r * 3 + c) * 4, 4);
      EXPECT_EQ(value, d.int_distances[columns[c]]) << r << "," << c;
    }
  }
  EXPECT_EQ(lines_of(slurp(path("m.sources.txt"))), (std::vector<std::string>{"5", "2", "5"}));
  EXPECT_EQ(lines_of(slurp(path("m.targets.txt"))), (std::vector<std::string>{"1", "39", "7"}));
  EXPECT_TRUE(contains(o.out, "ids         rows in " + path("m.sources.txt") + ", columns in " + path("m.targets.txt")))
      << "the summary names the side files" << o.out;
  // A path without .npy keeps all of it before the side files' suffixes.
  outcome bare = run("sssp " + chesapeake + " --source 1 --matrix " + path("plain"));
  ASSERT_EQ(bare.status, 0) << bare.err;
  EXPECT_TRUE(fs::exists(path("plain.sources.txt")) && fs::exists(path("plain.targets.txt")));
  EXPECT_TRUE(contains(bare.out, "rows in " + path("plain.sources.txt"))) << bare.out;
  EXPECT_TRUE(contains(run("sssp --help").out, "OUT.sources.txt")) << "the help names them as the code does";
}

// Real weights: float64 by default (0.1 + 0.2 is 0.30000000000000004), float32 with --precision
// single; inf for unreachable.
TEST_F(Cli, MatrixOfRealWeightsIsFloat64OrFloat32WithInfinity) {
  std::string mtx = write("r.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 2\n1 2 0.1\n2 3 0.2\n");
  outcome o = run("sssp " + mtx + " --source 1,4 --matrix " + path("r.npy"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "distances   float64")) << o.out;
  npy_file f = read_npy(path("r.npy"));
  EXPECT_EQ(f.descr, "<f8");
  EXPECT_EQ(f.shape, "2, 4");
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = npy_values<double>(f);
  EXPECT_EQ(values, (std::vector<double>{0, 0.1, 0.1 + 0.2, inf, inf, inf, inf, 0}));
  EXPECT_EQ(values.at(2), 0.30000000000000004);
  EXPECT_EQ(lines_of(slurp(path("r.targets.txt"))).size(), 4u);
  outcome single = run("sssp " + mtx + " --source 1,4 --precision single --matrix " + path("s.npy"));
  ASSERT_EQ(single.status, 0) << single.err;
  npy_file s = read_npy(path("s.npy"));
  EXPECT_EQ(s.descr, "<f4");
  const float finf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(npy_values<float>(s), (std::vector<float>{0, 0.1f, 0.1f + 0.2f, finf, finf, finf, finf, 0}));
  EXPECT_EQ(run("sssp " + mtx + " --precision half").status, 2);
}

// Integer paths past 2^32 - 2: uint64 distances in the summary, the output, the JSON and the matrix.
TEST_F(Cli, IntegerPathsPast32BitsAreUint64) {
  std::string mtx = write("i.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4000000000\n"
                                   "2 3 4000000000\n");
  outcome o = run("sssp " + mtx + " --source 1 --validate --output " + path("d.txt") + " --json " + path("s.json"));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "distances   uint64")) << o.out;
  EXPECT_TRUE(contains(o.out, "validation  ok")) << o.out;
  EXPECT_EQ(lines_of(slurp(path("d.txt"))), (std::vector<std::string>{"1 0", "2 4000000000", "3 8000000000"}));
  EXPECT_TRUE(contains(slurp(path("s.json")), "\"distance_type\": \"uint64\"")) << slurp(path("s.json"));
  outcome m = run("sssp " + mtx + " --source 1,3 --matrix " + path("m.npy"));
  ASSERT_EQ(m.status, 0) << m.err;
  npy_file f = read_npy(path("m.npy"));
  EXPECT_EQ(f.descr, "<u8");
  const std::uint64_t none = ~std::uint64_t{0};
  EXPECT_EQ(npy_values<std::uint64_t>(f), (std::vector<std::uint64_t>{0, 4000000000ull, 8000000000ull, none, none, 0}));
  // --device gpu: where a GPU is, these 32-bit weights are solved there (in 32 bits, the overflow
  // found and solved again); without one it is refused, naming why.
  outcome gpu = run("sssp " + mtx + " --device gpu --output -");
  if (deltasplit::sssp::gpu_available()) {
    ASSERT_EQ(gpu.status, 0) << gpu.err;
    EXPECT_EQ(lines_of(gpu.out), (std::vector<std::string>{"1 0", "2 4000000000", "3 8000000000"}));
  } else {
    EXPECT_EQ(gpu.status, 1);
    EXPECT_TRUE(contains(gpu.err, "needs a GPU")) << gpu.err;
  }
}

TEST_F(Cli, MatrixRefusesToOverwriteAndNamesBadSourceFileLines) {
  std::string existing = write("m.npy", "precious\n");
  outcome refused = run("sssp " + chesapeake + " --source 1 --matrix " + existing);
  EXPECT_EQ(refused.status, 2);
  EXPECT_TRUE(contains(refused.err, "exists")) << refused.err;
  EXPECT_EQ(slurp(existing), "precious\n");
  for (const char* side : {"n.sources.txt", "n.targets.txt"}) {
    write(side, "keep\n");
    outcome kept = run("sssp " + chesapeake + " --source 1 --matrix " + path("n.npy"));
    EXPECT_EQ(kept.status, 2) << side;
    EXPECT_TRUE(contains(kept.err, path(side) + " exists (use --force")) << kept.err;
    EXPECT_EQ(slurp(path(side)), "keep\n");
    EXPECT_FALSE(fs::exists(path("n.npy")));
    fs::remove(path(side));
  }
  outcome forced = run("sssp " + chesapeake + " --source 1 --matrix " + existing + " --force");
  EXPECT_EQ(forced.status, 0) << forced.err;
  EXPECT_EQ(read_npy(existing).shape, "1, 39");

  std::string bad = write("bad.txt", "3\n# fine\n12x\n");
  outcome word = run("sssp " + chesapeake + " --source-file " + bad + " --matrix " + path("b.npy"));
  EXPECT_EQ(word.status, 1);
  EXPECT_TRUE(contains(word.err, "bad.txt:3")) << word.err;
  std::string range = write("range.txt", "3\n40\n");
  outcome out_of_range = run("sssp " + chesapeake + " --source-file " + range);
  EXPECT_EQ(out_of_range.status, 1);
  EXPECT_TRUE(contains(out_of_range.err, "range.txt:2")) << out_of_range.err;
  EXPECT_TRUE(contains(out_of_range.err, "out of range")) << out_of_range.err;
  std::string targets = write("t.txt", "0\n");
  outcome zero = run("sssp " + chesapeake + " --source 1 --target-file " + targets + " --matrix " + path("z.npy"));
  EXPECT_EQ(zero.status, 1);
  EXPECT_TRUE(contains(zero.err, "t.txt:1")) << zero.err;
  EXPECT_EQ(run("sssp " + chesapeake + " --source-file " + path("none.txt")).status, 1);
  EXPECT_EQ(run("sssp " + chesapeake + " --target-file " + targets).status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --source 1 --source-file " + range).status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --matrix " + path("x.npy") + " --output " + path("x.txt")).status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --batch-size 0").status, 2);
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_FALSE(contains(entry.path().filename().string(), ".tmp.")) << "temporary file left behind";
}

TEST_F(Cli, SourceFileFeedsThePerSourceLoopToo) {
  std::string sources = write("s.txt", "1\n2\n");
  outcome o = run("sssp " + chesapeake + " --source-file " + sources + " --device cpu --validate");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "median over 2 sources")) << o.out;
}

TEST_F(Cli, BatchSizeWithoutMatrixSummarisesAllSources) {
  outcome o = run("sssp " + chesapeake + " --random-sources 39 --batch-size 32 --validate");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "sources     39 x 39 targets")) << o.out;
  EXPECT_TRUE(contains(o.out, "validation  ok: 10 of 39 rows")) << o.out;
  EXPECT_TRUE(contains(o.out, "sources/s")) << o.out;
}

// --summaries: every source's reached count, distance sum and farthest distance as CSV in the
// file's numbering, equal to Dijkstra's rows summed (--all-sources, a source list with a duplicate,
// phast's sweeps, a cutoff-free real graph), --validate's line; the refusals.
TEST_F(Cli, SummariesOfEverySourceAsCsv) {
  const graph::csr g = graph::read_graph(chesapeake);
  for (const char* how : {"", " --strategy phast", " --strategy dijkstra"}) {
    SCOPED_TRACE(how);
    const std::string out = path(std::string("s") + (how[0] ? how + 12 : "") + ".csv");
    outcome o = run("sssp " + chesapeake + " --all-sources --summaries " + out + " --validate" + how);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "validation  ok: 10 of 39 sources' summaries match Dijkstra")) << o.out;
    EXPECT_TRUE(contains(o.out, "summaries " + out + " (reached, sum, farthest; no rows kept)")) << o.out;
    const std::vector<std::string> lines = lines_of(slurp(out));
    ASSERT_EQ(lines.size(), 40u);
    EXPECT_EQ(lines[0], "source,reached,sum,farthest");
    for (graph::vertex_t v = 0; v < g.num_vertices; ++v) {
      const ds::result d = ds::dijkstra(g, v);
      std::uint64_t reached = 0, sum = 0, top = 0;
      for (graph::vertex_t t = 0; t < g.num_vertices; ++t)
        if (d.reached(t)) ++reached, sum += d.int_distances[t], top = std::max<std::uint64_t>(top, d.int_distances[t]);
      EXPECT_EQ(lines[v + 1], std::to_string(v + 1) + "," + std::to_string(reached) + "," + std::to_string(sum) + "," +
                                  std::to_string(top));
    }
  }
  outcome listed = run("sssp " + chesapeake + " --source 3,5,3 --summaries -");
  ASSERT_EQ(listed.status, 0) << listed.err;
  const std::vector<std::string> rows = lines_of(listed.out);
  ASSERT_EQ(rows.size(), 4u) << listed.out;
  EXPECT_EQ(rows[1].substr(0, 2), "3,");
  EXPECT_EQ(rows[1], rows[3]);
  EXPECT_TRUE(contains(listed.err, "sources     3 x 39 targets")) << listed.err;  // the summary leaves stdout
  const std::string real = write("real.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.1\n2 3 0.2\n");
  outcome reals = run("sssp " + real + " --all-sources --summaries -");
  ASSERT_EQ(reals.status, 0) << reals.err;
  EXPECT_EQ(lines_of(reals.out), (std::vector<std::string>{"source,reached,sum,farthest", "1,3,0.40000000000000002,0.30000000000000004",
                                                          "2,2,0.20000000000000001,0.20000000000000001", "3,1,0,0"}));
  // Refusals: an existing file without --force, --target-file, --matrix beside it, --all-sources
  // alone, negative weights.
  outcome again = run("sssp " + chesapeake + " --all-sources --summaries " + path("s.csv"));
  EXPECT_EQ(again.status, 2);
  EXPECT_TRUE(contains(again.err, "file exists (use --force to replace it)")) << again.err;
  EXPECT_EQ(run("sssp " + chesapeake + " --summaries " + path("t.csv") + " --target-file " + write("t.txt", "1\n")).status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --summaries " + path("t.csv") + " --matrix " + path("t.npy")).status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --all-sources").status, 2);
  EXPECT_EQ(run("sssp " + chesapeake + " --all-sources --source 1 --summaries " + path("t.csv")).status, 2);
  const std::string neg = write("neg.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -3\n");
  outcome negative = run("sssp " + neg + " --all-sources --summaries " + path("n.csv"));
  EXPECT_EQ(negative.status, 1);
  EXPECT_TRUE(contains(negative.err, "--summaries is not supported")) << negative.err;
  EXPECT_FALSE(fs::exists(path("n.csv")));
}

// Negative weights (read again with read_options::negative_weights after the first read meets
// one): one source by Bellman-Ford, several by Johnson, in the weights' own type; a negative cycle
// is exit 1 naming a vertex on it.
TEST_F(Cli, NegativeWeightsAreSolvedByBellmanFordAndJohnson) {
  // 1 -> 3 (2), 3 -> 2 (-3), 1 -> 2 (4), 2 -> 4 (1), 5 unreachable; 2 -> 4 also as a heavier parallel arc.
  const std::string mtx = write("neg.mtx",
                                "%%MatrixMarket matrix coordinate integer general\n5 5 5\n1 3 2\n3 2 -3\n1 2 4\n2 4 1\n"
                                "2 4 7\n");
  outcome one = run("sssp " + mtx + " --source 1 --output " + path("d.txt") + " --predecessors " + path("p.txt") +
                    " --json " + path("s.json") + " --validate --target 4");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_TRUE(contains(one.out, "method      bellman-ford")) << one.out;
  EXPECT_TRUE(contains(one.out, "distances   int64")) << one.out;
  EXPECT_TRUE(contains(one.out, "validation  ok")) << one.out;
  EXPECT_TRUE(contains(one.out, "path from 1 to 4: 1 -> 3 -> 2 -> 4 (distance 0, 3 arcs)")) << one.out;
  EXPECT_EQ(lines_of(slurp(path("d.txt"))), (std::vector<std::string>{"1 0", "2 -1", "3 2", "4 0", "5 inf"}));
  EXPECT_EQ(lines_of(slurp(path("p.txt"))), (std::vector<std::string>{"1 none", "2 3", "3 1", "4 2", "5 none"}));
  EXPECT_TRUE(contains(slurp(path("s.json")), "\"method\": \"bellman-ford\"")) << slurp(path("s.json"));
  outcome several = run("sssp " + mtx + " --source 1,3 --output " + path("d2.txt") + " --strategy near-far");
  ASSERT_EQ(several.status, 0) << several.err;
  EXPECT_TRUE(contains(several.out, "method      johnson")) << several.out;
  EXPECT_TRUE(contains(several.out, "--strategy near-far needs non-negative weights")) << several.out;
  EXPECT_EQ(lines_of(slurp(path("d2.txt"))),
            (std::vector<std::string>{"# source 1", "1 0", "2 -1", "3 2", "4 0", "5 inf", "# source 3", "1 inf", "2 -3",
                                      "3 0", "4 -2", "5 inf"}));
  // Real weights answer in float64, as they are added.
  const std::string real = write("negreal.mtx",
                                 "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.1\n2 3 -0.3\n");
  outcome r = run("sssp " + real + " --source 1 --output -");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(r.out), (std::vector<std::string>{"1 0", "2 0.1", "3 -0.19999999999999998"}));
  EXPECT_TRUE(contains(r.err, "distances   float64")) << r.err;
  // Johnson's reweighting rounds (w + h(u) - h(v), then back): --validate allows for it in float64.
  const std::string tenths = write("tenths.mtx",
                                   "%%MatrixMarket matrix coordinate real general\n4 4 6\n1 2 0.1\n2 3 -0.3\n1 3 0.7\n"
                                   "3 4 0.2\n4 1 0.15\n2 4 0.05\n");
  outcome all = run("sssp " + tenths + " --source 1,2,3,4 --validate");
  ASSERT_EQ(all.status, 0) << all.err << all.out;
  EXPECT_TRUE(contains(all.out, "validation  ok")) << all.out;
  // --matrix: Johnson's rows, int64 with INT64_MAX unreachable, the chosen columns.
  const std::string targets = write("t.txt", "4\n2\n1\n");
  outcome matrix = run("sssp " + mtx + " --source 1,3 --matrix " + path("m.npy") + " --target-file " + targets +
                       " --batch-size 1 --validate");
  ASSERT_EQ(matrix.status, 0) << matrix.err;
  EXPECT_TRUE(contains(matrix.out, "method      johnson")) << matrix.out;
  EXPECT_TRUE(contains(matrix.out, "validation  ok")) << matrix.out;
  npy_file m = read_npy(path("m.npy"));
  EXPECT_EQ(m.descr, "<i8");
  const std::int64_t none = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(npy_values<std::int64_t>(m), (std::vector<std::int64_t>{0, -1, 0, -2, -3, none}));
  EXPECT_EQ(lines_of(slurp(path("m.sources.txt"))), (std::vector<std::string>{"1", "3"}));
  EXPECT_EQ(lines_of(slurp(path("m.targets.txt"))), (std::vector<std::string>{"4", "2", "1"}));
  // Not with the GPU, nor --batch-size without a matrix; other commands still refuse negative weights.
  outcome gpu = run("sssp " + mtx + " --device gpu");
  EXPECT_EQ(gpu.status, 1);
  EXPECT_TRUE(contains(gpu.err, "negative weights are solved on the CPU")) << gpu.err;
  outcome batch = run("sssp " + mtx + " --random-sources 2 --batch-size 2");
  EXPECT_EQ(batch.status, 1);
  EXPECT_TRUE(contains(batch.err, "--batch-size alone")) << batch.err;
  outcome info = run("info " + mtx);
  EXPECT_EQ(info.status, 1);
  EXPECT_TRUE(contains(info.err, mtx + ":4: negative weight '-3'")) << info.err;
}

TEST_F(Cli, NegativeCyclesAreErrorsNamingAVertex) {
  // 2 -> 3 -> 2 weighs -1; 4 has a negative self-loop, reached only from 4.
  const std::string mtx = write("cycle.mtx",
                                "%%MatrixMarket matrix coordinate integer general\n4 4 4\n1 2 1\n2 3 -2\n3 2 1\n4 4 -1\n");
  outcome from1 = run("sssp " + mtx + " --source 1");
  EXPECT_EQ(from1.status, 1);
  EXPECT_TRUE(contains(from1.err, "a negative cycle through vertex 2") ||
              contains(from1.err, "a negative cycle through vertex 3"))
      << from1.err;
  outcome loop = run("sssp " + mtx + " --source 4");
  EXPECT_EQ(loop.status, 1);
  EXPECT_TRUE(contains(loop.err, "a negative cycle through vertex 4")) << loop.err;
  // Without the cycle, the self-loop alone: reached from 4 only; Johnson (several sources) refuses
  // any negative cycle of the graph, as scipy's johnson.
  const std::string selfloop = write("loop.mtx",
                                     "%%MatrixMarket matrix coordinate integer general\n4 4 3\n1 2 1\n2 3 -2\n4 4 -1\n");
  outcome fine = run("sssp " + selfloop + " --source 1 --output -");
  ASSERT_EQ(fine.status, 0) << fine.err;
  EXPECT_EQ(lines_of(fine.out), (std::vector<std::string>{"1 0", "2 1", "3 -1", "4 inf"}));
  outcome both = run("sssp " + selfloop + " --source 1,2");
  EXPECT_EQ(both.status, 1);
  EXPECT_TRUE(contains(both.err, "a negative cycle through vertex 4")) << both.err;
}
