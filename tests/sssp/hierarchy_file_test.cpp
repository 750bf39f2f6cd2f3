// The contraction hierarchy file (sssp/hierarchy_file.hpp, options::hierarchy_file): a hierarchy
// written and read back is the one built, array for array, and sweeps to Dijkstra's distances;
// a file of another graph or weight kind, a truncated, damaged or foreign file, and a crafted one
// whose checksums are right but whose arrays break the sweep's layout are all refused with an
// input_error naming the file; an existing file is never replaced.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/datasets.hpp"
#include "common/test_files.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/many_sources.hpp"
#include "deltasplit/sssp.hpp"
#include "sssp/contraction_hierarchy.hpp"
#include "sssp/hierarchy_file.hpp"
#include "sssp/new_york_hierarchy.hpp"
#include "sssp/phast_checks.hpp"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;
using deltasplit_test::crafted_graph;
using deltasplit_test::csr;
using deltasplit_test::expect_input_error;
using deltasplit_test::make_csr;
using deltasplit_test::random_graph;
using deltasplit_test::read_bytes;
using deltasplit_test::temp_dir;
using deltasplit_test::weight_kind;
using graph::vertex_t;

namespace {

constexpr std::size_t header_bytes = sizeof(ds::detail::hierarchy_header);

ds::options phast_file(const std::string& path, unsigned threads = 2) {
  ds::options o;
  o.how = ds::strategy::phast;
  o.device = ds::device_kind::cpu;
  o.threads = threads;
  o.hierarchy_file = path;
  o.real_type = ds::distance_type::float32;  // phast computes 32-bit distances in this version
  return o;
}

template <class W>
void expect_same_hierarchy(const ds::detail::contraction_hierarchy<W>& a, const ds::detail::contraction_hierarchy<W>& b) {
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.core_size, b.core_size);
  EXPECT_EQ(a.position_of, b.position_of);
  EXPECT_EQ(a.vertex_at, b.vertex_at);
  EXPECT_EQ(a.level_offsets, b.level_offsets);
  EXPECT_EQ(a.up_offsets, b.up_offsets);
  EXPECT_EQ(a.up_targets, b.up_targets);
  EXPECT_EQ(a.up_weights, b.up_weights);
  EXPECT_EQ(a.down_offsets, b.down_offsets);
  EXPECT_EQ(a.down_sources, b.down_sources);
  EXPECT_EQ(a.down_weights, b.down_weights);
  EXPECT_EQ(a.shortcuts, b.shortcuts);
  EXPECT_EQ(a.witness_searches, b.witness_searches);
}

// The file a solver wrote holds the hierarchy the contraction builds (any thread count builds the
// same), and one written here reads back field for field, the build time included.
template <class W = std::uint32_t>
void expect_written_and_read(const csr& g, const std::string& solver_file) {
  const ds::detail::graph_fingerprint f = ds::detail::fingerprint_of(g);
  const auto built = ds::detail::build_contraction_hierarchy<W>(g, 1);
  expect_same_hierarchy(ds::detail::read_hierarchy<W>(solver_file, f), built);
  const std::string again = solver_file + ".again";
  ASSERT_TRUE(ds::detail::write_hierarchy(again, built, f));
  const auto read = ds::detail::read_hierarchy<W>(again, f);
  expect_same_hierarchy(read, built);
  EXPECT_EQ(read.build_milliseconds, built.build_milliseconds);
}

// Built and written by one solver, loaded by the next: the same distances, both Dijkstra's
// (through the validator: integers exact, reals within 1e-5), from every given source.
void expect_round_trip(const csr& g, const std::vector<vertex_t>& sources, const std::string& path) {
  ds::solver built(g, phast_file(path));
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0) << "the solver wrote no hierarchy file";
  ds::solver loaded(g, phast_file(path));
  for (vertex_t s : sources) {
    SCOPED_TRACE("source " + std::to_string(s));
    const ds::result a = built.run(s), b = loaded.run(s);
    EXPECT_EQ(a.stats.setup, "built");
    EXPECT_EQ(b.stats.setup, "loaded");
    EXPECT_GE(b.stats.setup_ms, 0);
    EXPECT_EQ(a.int_distances, b.int_distances);
    EXPECT_EQ(a.uint64_distances, b.uint64_distances);
    EXPECT_EQ(a.real_distances, b.real_distances);
    const ds::validation v = ds::validate(g, s, b);
    EXPECT_TRUE(v.ok) << v.message;
  }
}

}  // namespace

TEST(HierarchyFile, RoundTripOnNewYork) {
  // The process's one contraction of NY, written here, then loaded by a solver whose sweeps must
  // give what the built hierarchy gives, and Dijkstra's distances.
  const csr& g = deltasplit_test::new_york().graph;
  temp_dir dir;
  const std::string path = dir.file("ny.ch");
  const ds::detail::graph_fingerprint f = ds::detail::fingerprint_of(g);
  const auto& built = deltasplit_test::new_york().hierarchy;
  ASSERT_TRUE(ds::detail::write_hierarchy(path, built, f));
  expect_same_hierarchy(ds::detail::read_hierarchy<std::uint32_t>(path, f), built);
  ds::solver loaded(g, phast_file(path));
  ds::detail::upward_search<std::uint32_t> up(built);
  std::vector<std::uint32_t> want(g.num_vertices);
  for (vertex_t s : {0u, 1000u, 123456u, g.num_vertices - 1}) {
    SCOPED_TRACE("source " + std::to_string(s));
    const ds::result r = loaded.run(s);
    EXPECT_EQ(r.stats.setup, "loaded");
    ds::detail::phast_cpu(built, up, s, want.data());
    EXPECT_EQ(r.int_distances, want);
    const ds::validation v = ds::validate(g, s, r);
    EXPECT_TRUE(v.ok) << v.message;
  }
}

TEST(HierarchyFile, RoundTripOnRandomAndCraftedGraphs) {
  temp_dir dir;
  int i = 0;
  for (weight_kind kind : {weight_kind::integer, weight_kind::real}) {
    for (const csr& g : {random_graph(400, 2400, 7, 100.0, kind), random_graph(300, 600, 8, 3.0, kind),
                         crafted_graph(kind), deltasplit_test::zero_weight_graph(200, 9)}) {
      SCOPED_TRACE("graph " + std::to_string(i));
      const std::string path = dir.file("g" + std::to_string(i++) + ".ch");
      expect_round_trip(g, {0, g.num_vertices / 2, g.num_vertices - 1}, path);
      if (g.kind == weight_kind::integer)
        expect_written_and_read(g, path);
      else
        expect_written_and_read<float>(g, path);
    }
  }
}

// A hierarchy of 64-bit weights (uint64 distances): written, loaded, and refused for the 32-bit
// graph of the same arcs (another weight kind).
TEST(HierarchyFile, RoundTripOfSixtyFourBitWeights) {
  temp_dir dir;
  const csr wide = random_graph(300, 1500, 31, 9e15, weight_kind::integer, true);
  const std::string path = dir.file("wide.ch");
  expect_round_trip(wide, {0, 150, 299}, path);
  expect_written_and_read<std::uint64_t>(wide, path);
  const csr narrow = random_graph(300, 1500, 31, 4e9);  // uint32 weights, uint64 distances
  const std::string narrow_path = dir.file("narrow.ch");
  expect_round_trip(narrow, {0, 299}, narrow_path);
  const csr small = random_graph(300, 1500, 31, 100.0);  // uint32 distances: another kind
  EXPECT_THROW(ds::solver(small, phast_file(narrow_path)), graph::input_error);
}

TEST(HierarchyFile, NoVertexAndOneVertex) {
  temp_dir dir;
  const csr empty = make_csr(0, {});
  { ds::solver s(empty, phast_file(dir.file("empty.ch"))); }
  const ds::detail::graph_fingerprint f = ds::detail::fingerprint_of(empty);
  const auto ch = ds::detail::read_hierarchy<std::uint32_t>(dir.file("empty.ch"), f);
  EXPECT_EQ(ch.num_vertices, 0u);
  EXPECT_EQ(ch.num_levels(), 0u);
  { ds::solver s(empty, phast_file(dir.file("empty.ch"))); }  // loads it
  ds::many_sources ms(empty, phast_file(dir.file("empty.ch")));
  EXPECT_EQ(ms.setup(), "loaded");

  const csr one = make_csr(1, {{0, 0, 5}}, weight_kind::real);  // a self-loop only
  expect_round_trip(one, {0}, dir.file("one.ch"));
  ds::solver s(one, phast_file(dir.file("one.ch")));
  EXPECT_EQ(s.run(0).distance(0), 0);
}

TEST(HierarchyFile, AHandMadeAllCoreHierarchyLoadsAndSweeps) {
  // Every vertex in the core (what the contraction leaves of a dense graph): level 0 is the
  // whole graph, the up arcs are the graph's arcs, no down arcs; the upward search is Dijkstra.
  const csr g = random_graph(60, 400, 3, 20.0);
  ds::detail::contraction_hierarchy<std::uint32_t> ch;
  ch.num_vertices = g.num_vertices;
  ch.core_size = g.num_vertices;
  for (vertex_t v = 0; v < g.num_vertices; ++v) ch.vertex_at.push_back(v), ch.position_of.push_back(v);
  ch.level_offsets = {0, g.num_vertices};
  ch.up_offsets.assign(1, 0);
  for (vertex_t v = 0; v < g.num_vertices; ++v) {
    std::vector<std::pair<vertex_t, std::uint32_t>> row;  // lightest arc per target, no self-loops
    for (auto e = g.offsets[v]; e < g.offsets[v + 1]; ++e)
      if (g.targets[e] != v) row.push_back({g.targets[e], g.int_weights[e]});
    std::sort(row.begin(), row.end());
    for (std::size_t i = 0; i < row.size(); ++i)
      if (i == 0 || row[i].first != row[i - 1].first) ch.up_targets.push_back(row[i].first), ch.up_weights.push_back(row[i].second);
    ch.up_offsets.push_back(ch.up_targets.size());
  }
  ch.down_offsets.assign(std::size_t{g.num_vertices} + 1, 0);
  temp_dir dir;
  ASSERT_TRUE(ds::detail::write_hierarchy(dir.file("core.ch"), ch, ds::detail::fingerprint_of(g)));
  ds::solver s(g, phast_file(dir.file("core.ch")));
  for (vertex_t source : {0u, 17u, 59u}) {
    const ds::result r = s.run(source);
    EXPECT_EQ(r.stats.setup, "loaded");
    const ds::validation v = ds::validate(g, source, r);
    EXPECT_TRUE(v.ok) << v.message;
  }
}

TEST(HierarchyFile, AnotherGraphOrWeightKindIsRefusedAndKept) {
  temp_dir dir;
  const std::string path = dir.file("g.ch");
  const csr g = random_graph(200, 1000, 1, 50.0);
  { ds::solver s(g, phast_file(path)); }
  const std::string bytes = read_bytes(path);
  // Another graph of the same size: one weight changed.
  csr other = g;
  other.int_weights[17] += 1;
  expect_input_error([&] { ds::solver s(other, phast_file(path)); }, path, 0, "the contraction hierarchy of another graph");
  // Another size.
  const csr bigger = random_graph(201, 1000, 1, 50.0);
  expect_input_error([&] { ds::solver s(bigger, phast_file(path)); }, path, 0, "201 vertices");
  // The same arcs with real weights.
  csr real = make_csr(0, {}, weight_kind::real);
  real.num_vertices = g.num_vertices;
  real.offsets = g.offsets;
  real.targets = g.targets;
  for (std::uint32_t w : g.int_weights) real.real_weights.push_back(static_cast<float>(w));
  expect_input_error([&] { ds::solver s(real, phast_file(path)); }, path, 0,
                     "a contraction hierarchy of integer weights, but the graph has real weights");
  expect_input_error([&] { ds::many_sources m(real, phast_file(path)); }, path, 0, "integer weights");
  EXPECT_EQ(read_bytes(path), bytes) << "a refused file must be left as it was";
}

TEST(HierarchyFile, TruncatedCorruptAndForeignFilesAreRefused) {
  temp_dir dir;
  const csr g = random_graph(300, 1500, 4, 80.0);
  const std::string good = dir.file("good.ch");
  { ds::solver s(g, phast_file(good)); }
  const std::string bytes = read_bytes(good);
  ASSERT_GT(bytes.size(), header_bytes + 100);
  const ds::detail::graph_fingerprint f = ds::detail::fingerprint_of(g);
  auto refused = [&](const std::string& name, const std::string& content, const std::string& fragment) {
    const std::string p = dir.write(name, content);
    expect_input_error([&] { ds::detail::read_hierarchy<std::uint32_t>(p, f); }, p, 0, fragment);
    expect_input_error([&] { ds::solver s(g, phast_file(p)); }, p, 0, fragment);
    EXPECT_EQ(read_bytes(p), content);
  };
  refused("empty.ch", "", "not a contraction hierarchy file");
  refused("text.ch", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1.5\n", "not a contraction hierarchy file");
  refused("graph.ch", read_bytes(deltasplit_test::dataset_path("chesapeake.mtx")), "not a contraction hierarchy file");
  for (std::size_t cut : {std::size_t{10}, header_bytes - 1})
    refused("cut" + std::to_string(cut) + ".ch", bytes.substr(0, cut), "shorter than its header");
  for (std::size_t cut : {header_bytes, header_bytes + 1, bytes.size() / 2, bytes.size() - 1})
    refused("cut" + std::to_string(cut) + ".ch", bytes.substr(0, cut), "truncated hierarchy file");
  refused("long.ch", bytes + "x", "1 bytes past the payload");
  std::string version = bytes;
  version[offsetof(ds::detail::hierarchy_header, version)] = 2;
  refused("version.ch", version, "format version 2");
  std::string order = bytes;
  const std::size_t mark = offsetof(ds::detail::hierarchy_header, byte_order);
  std::swap(order[mark], order[mark + 7]);
  refused("order.ch", order, "other byte order");
  // A flipped bit anywhere in the header (past magic, version and byte order) or the payload.
  for (std::size_t at : {std::size_t{24}, std::size_t{60}, header_bytes - 1, header_bytes, header_bytes + 77,
                         bytes.size() / 2, bytes.size() - 1}) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    refused("flip" + std::to_string(at) + ".ch", flipped, at < header_bytes ? "header (checksum" : "payload (checksum");
  }
  // A directory in the way, and a FIFO (opening it must not wait for a writer that never comes).
  const std::string sub = dir.file("sub.ch");
  ASSERT_EQ(::mkdir(sub.c_str(), 0755), 0);
  expect_input_error([&] { ds::solver s(g, phast_file(sub)); }, sub, 0, "not a regular file");
  const std::string fifo = dir.file("fifo.ch");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  auto refused_fifo = std::async(std::launch::async, [&] {
    expect_input_error([&] { ds::solver s(g, phast_file(fifo)); }, fifo, 0, "not a regular file");
  });
  if (refused_fifo.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    ADD_FAILURE() << "opening a FIFO waits for a writer";
    ::close(::open(fifo.c_str(), O_WRONLY | O_NONBLOCK));  // the writer it waits for, so the test ends
  }
}

// Checksums anyone can compute: a file written by write_hierarchy from arrays that break the
// layout (write_hierarchy checks nothing) must meet the reader's layout checks.
TEST(HierarchyFile, CraftedLayoutsAreRefused) {
  const csr g = random_graph(120, 700, 5, 40.0, weight_kind::real);
  const auto good = ds::detail::build_contraction_hierarchy<float>(g, 1);
  ASSERT_GT(good.num_levels(), 3u);
  ASSERT_GT(good.down_sources.size(), 10u);
  const ds::detail::graph_fingerprint f = ds::detail::fingerprint_of(g);
  temp_dir dir;
  int i = 0;
  auto refused = [&](const std::function<void(ds::detail::contraction_hierarchy<float>&)>& change,
                     const std::string& fragment) {
    auto ch = good;
    change(ch);
    const std::string p = dir.file("crafted" + std::to_string(i++) + ".ch");
    ASSERT_TRUE(ds::detail::write_hierarchy(p, ch, f));
    expect_input_error([&] { ds::detail::read_hierarchy<float>(p, f); }, p, 0, fragment);
  };
  // The first position with down in-arcs, the last with up arcs (neither in level 0).
  vertex_t down_p = 0, up_p = 0;
  for (vertex_t p = good.num_vertices; p-- > 0;) {
    if (good.down_offsets[p + 1] > good.down_offsets[p]) down_p = p;
    if (good.up_offsets[p + 1] > good.up_offsets[p] && up_p == 0) up_p = p;
  }
  ASSERT_GT(down_p, 0u);
  refused([](auto& ch) { ch.vertex_at[1] = ch.vertex_at[0]; }, "not a permutation");
  refused([](auto& ch) { ch.vertex_at[2] = ch.num_vertices; }, "not a permutation");
  refused([](auto& ch) { ch.level_offsets.back() -= 1; }, "level offsets do not span");
  refused([](auto& ch) { ch.level_offsets[2] = ch.level_offsets[1]; }, "level 1 is empty");
  refused([](auto& ch) { ch.level_offsets.assign({0, ch.num_vertices}); }, "breaks the levels");  // one level: arcs within it
  refused([](auto& ch) { ch.core_size = ch.level_offsets[1] + 1; }, "the core is not exactly level 0");
  refused([](auto& ch) { ch.down_offsets.back() += 1; }, "arc offsets do not span");
  refused([&](auto& ch) { std::swap(ch.down_offsets[down_p], ch.down_offsets[down_p + 1]); }, "arc offsets decrease");
  // A down in-arc from the position's own level (a race on the GPU), and one from a later level.
  refused([&](auto& ch) { ch.down_sources[ch.down_offsets[down_p]] = down_p; }, "down in-arc");
  refused([&](auto& ch) { ch.down_sources[ch.down_offsets[down_p]] = ch.num_vertices - 1; }, "down in-arc");
  refused([&](auto& ch) { ch.up_targets[ch.up_offsets[up_p]] = up_p; }, "up arc");
  refused([&](auto& ch) { ch.up_targets[ch.up_offsets[up_p]] = ch.num_vertices + 5; }, "up arc");
  refused([](auto& ch) { ch.down_weights[3] = std::nanf(""); }, "negative or NaN");
  refused([](auto& ch) { ch.up_weights[0] = -1.0f; }, "negative or NaN");
  refused([](auto& ch) { ch.build_milliseconds = -1; }, "header (sizes)");
  // A row out of order (the sweep would still be safe, but no contraction writes one).
  for (vertex_t p = 0; p < good.num_vertices; ++p)
    if (good.down_offsets[p + 1] - good.down_offsets[p] >= 2) {
      refused([&](auto& ch) { std::swap(ch.down_sources[ch.down_offsets[p]], ch.down_sources[ch.down_offsets[p] + 1]); },
              "row's order");
      break;
    }
  // And a hierarchy of integer weights read as a real one is refused by the kind, not the layout.
  const std::string p = dir.file("int.ch");
  const csr gi = random_graph(50, 200, 6, 9.0);
  ASSERT_TRUE(ds::detail::write_hierarchy(p, ds::detail::build_contraction_hierarchy<std::uint32_t>(gi, 1),
                                          ds::detail::fingerprint_of(gi)));
  expect_input_error([&] { ds::detail::read_hierarchy<float>(p, ds::detail::fingerprint_of(gi)); }, p, 0,
                     "integer weights");
}

TEST(HierarchyFile, AnExistingFileIsNeverReplaced) {
  temp_dir dir;
  const csr g = random_graph(100, 500, 2, 30.0);
  const auto ch = ds::detail::build_contraction_hierarchy<std::uint32_t>(g, 1);
  const ds::detail::graph_fingerprint f = ds::detail::fingerprint_of(g);
  const std::string taken = dir.write("taken.ch", "somebody's data\n");
  EXPECT_FALSE(ds::detail::write_hierarchy(taken, ch, f));
  EXPECT_EQ(read_bytes(taken), "somebody's data\n");
  EXPECT_EQ(dir.count_files_containing(".tmp."), 0u) << "the temporary file is left behind";
  expect_input_error([&] { ds::solver s(g, phast_file(taken)); }, taken, 0, "not a contraction hierarchy file");
  EXPECT_EQ(read_bytes(taken), "somebody's data\n");
  // A dangling link: the path exists as a link, and nothing is written through it.
  const std::string link = dir.path_of_link("link.ch", dir.file("nowhere.ch"));
  EXPECT_FALSE(ds::detail::write_hierarchy(link, ch, f));
  expect_input_error([&] { ds::solver s(g, phast_file(link)); }, link, 0, "cannot open");
  struct stat st {};
  EXPECT_NE(::stat(dir.file("nowhere.ch").c_str(), &st), 0);
  // A directory that does not exist: a write error naming the file.
  const std::string missing = dir.file("no/such/dir.ch");
  try {
    ds::solver s(g, phast_file(missing));
    ADD_FAILURE() << "no error writing into a missing directory";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
}

TEST(HierarchyFile, OptionNeedsPhastAndFollowsSetOptions) {
  temp_dir dir;
  const csr g = random_graph(150, 900, 3, 60.0);
  ds::options o = phast_file(dir.file("a.ch"));
  o.how = ds::strategy::dijkstra;
  EXPECT_THROW(ds::solver(g, o), std::invalid_argument);
  o.how = ds::strategy::delta_stepping_cpu;
  EXPECT_THROW(ds::many_sources(g, o), std::invalid_argument);

  // phast with a.ch (built), then another strategy, then phast again with a.ch (kept), with b.ch
  // (built again and written there), and with none (kept).
  o = phast_file(dir.file("a.ch"));
  ds::solver s(g, o);
  const ds::result first = s.run(4);
  EXPECT_EQ(first.stats.setup, "built");
  ds::options other = o;
  other.how = ds::strategy::dijkstra;
  EXPECT_THROW(s.set_options(other), std::invalid_argument);  // the file goes with phast only
  other.hierarchy_file.clear();
  s.set_options(other);
  EXPECT_EQ(s.run(4).stats.setup, "");
  s.set_options(o);
  EXPECT_EQ(s.run(4).stats.setup_ms, first.stats.setup_ms);
  o.hierarchy_file = dir.file("b.ch");
  s.set_options(o);
  const ds::result again = s.run(4);
  EXPECT_EQ(again.stats.setup, "built");
  EXPECT_EQ(again.int_distances, first.int_distances);
  o.hierarchy_file = dir.file("a.ch");
  s.set_options(o);
  EXPECT_EQ(s.run(4).stats.setup, "loaded");
  o.hierarchy_file.clear();
  s.set_options(o);
  EXPECT_EQ(s.run(4).stats.setup, "loaded");
}

TEST(HierarchyFile, ManySourcesBuildThenLoad) {
  temp_dir dir;
  const csr g = random_graph(400, 2000, 11, 25.0, weight_kind::real);
  const ds::options o = phast_file(dir.file("m.ch"), 3);
  ds::many_sources a(g, o);
  EXPECT_EQ(a.setup(), "built");
  ds::many_sources b(g, o);
  EXPECT_EQ(b.setup(), "loaded");
  const std::vector<vertex_t> sources = {0, 5, 399, 5, 200};
  const ds::distance_table ta = ds::od_table(g, sources, {}, o);
  std::vector<float> rows;
  b.run(sources, {}, [&](const ds::distance_block& blk) {
    rows.insert(rows.end(), blk.real_distances, blk.real_distances + blk.rows * blk.columns);
  });
  EXPECT_EQ(rows, ta.real_distances);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const ds::result want = ds::dijkstra(g, sources[i], false, ds::distance_type::float32);
    for (vertex_t v = 0; v < g.num_vertices; ++v) {
      const float d = rows[i * g.num_vertices + v], w = want.real_distances[v];
      if (std::isinf(w))
        ASSERT_TRUE(std::isinf(d)) << "source " << sources[i] << ", vertex " << v;
      else
        ASSERT_NEAR(d, w, 1e-5 * w) << "source " << sources[i] << ", vertex " << v;
    }
  }
}
