// The CSR builder behind every reader: on a skewed graph large enough to be split across
// threads, the result does not depend on the thread count, symmetric entries fill both rows,
// and self-loops and heavier parallel entries are dropped and counted.
#include <gtest/gtest.h>

#include "deltasplit/graph/generators.hpp"
#include "deltasplit/graph/io.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::arcs_of;

TEST(GraphBuilder, ThreadCountDoesNotChangeTheGraph) {
  deltasplit_test::temp_dir dir;
  rmat_params p;
  p.scale = 14;
  p.edge_factor = 8;
  p.undirected = true;
  const csr g = generate_rmat(p);
  // One entry per undirected edge, plus heavier parallel twins and self-loops: as a directed
  // edge list (upper triangle) and as a symmetric Matrix Market file (lower triangle).
  std::string edges = "# Nodes: " + std::to_string(g.num_vertices) + "\n";
  std::string lower;
  std::uint64_t written = 0, loops = 0, twins = 0;
  auto entry = [](std::uint64_t a, std::uint64_t b, std::uint64_t w) {
    return std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(w) + "\n";
  };
  for (vertex_t u = 0; u < g.num_vertices; ++u) {
    for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      vertex_t v = g.targets[e];
      if (v < u) continue;
      edges += entry(u, v, g.int_weights[e]);
      lower += entry(v + 1, u + 1, g.int_weights[e]);
      ++written;
      if (e % 5 == 0) {
        edges += entry(u, v, 4000);
        lower += entry(v + 1, u + 1, 4000);
        ++twins;
      }
      if (e % 7 == 0) {
        edges += entry(u, u, 1);
        lower += entry(u + 1, u + 1, 1);
        ++loops;
      }
    }
  }
  ASSERT_GT(written, std::uint64_t{1} << 16);
  const std::string mm = "%%MatrixMarket matrix coordinate integer symmetric\n" + std::to_string(g.num_vertices) +
                         " " + std::to_string(g.num_vertices) + " " + std::to_string(written + twins + loops) + "\n" +
                         lower;
  std::vector<deltasplit_test::arc> upper;
  for (const auto& a : arcs_of(g))
    if (a.v > a.u) upper.push_back(a);

  struct input {
    std::string path;
    std::vector<deltasplit_test::arc> want;
    std::uint64_t merged;
  };
  for (const input& in : {input{dir.write("g.txt", edges), upper, twins},
                          input{dir.write("g.mtx", mm), arcs_of(g), 2 * twins}}) {
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      SCOPED_TRACE(in.path + " threads " + std::to_string(threads));
      read_options o;
      o.threads = threads;
      o.block_bytes = 256 << 10;
      csr h = read_graph(in.path, o);
      deltasplit_test::expect_clean_csr(h);
      EXPECT_EQ(h.num_vertices, g.num_vertices);
      EXPECT_EQ(h.origin.self_loops_dropped, loops);
      EXPECT_EQ(h.origin.duplicates_merged, in.merged);
      EXPECT_EQ(arcs_of(h), in.want);
    }
  }
}
