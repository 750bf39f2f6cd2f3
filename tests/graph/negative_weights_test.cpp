// Negative weights (read_options::negative_weights): refused with a negative_weight_error by
// default; kept, in the weights' own type, when asked for, by every text reader. Parallel arcs keep
// the lightest; self-loops leave the rows and a negative one is listed (a negative cycle).
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deltasplit/graph/error.hpp"
#include "deltasplit/graph/io.hpp"
#include "graph/graph_test_files.hpp"

using namespace deltasplit::graph;
using deltasplit_test::arc;
using deltasplit_test::arcs_of;

namespace {

csr read_signed(const std::string& path) {
  read_options o;
  o.negative_weights = true;
  return read_graph(path, o);
}

}  // namespace

TEST(GraphNegativeWeights, RefusedUnlessAskedFor) {
  deltasplit_test::temp_dir dir;
  const auto mtx = dir.write("n.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 4\n2 3 -3\n");
  try {
    read_graph(mtx);
    FAIL() << "no error";
  } catch (const negative_weight_error& e) {
    EXPECT_EQ(e.line(), 4u);
    EXPECT_EQ(std::string(e.what()), mtx + ":4: negative weight '-3'");
  }
  // Other malformed weights stay plain input errors.
  const auto bad = dir.write("b.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 x\n");
  EXPECT_THROW(
      {
        try {
          read_graph(bad);
        } catch (const negative_weight_error&) {
          FAIL() << "not a negative weight";
        }
      },
      input_error);
}

TEST(GraphNegativeWeights, MatrixMarketIntegersAreInt64) {
  deltasplit_test::temp_dir dir;
  const auto mtx = dir.write("n.mtx",
                             "%%MatrixMarket matrix coordinate integer general\n4 4 7\n"
                             "1 3 5\n1 3 -2\n"    // parallel arcs: the lightest stays
                             "1 2 -5000000000\n"  // past 32 bits
                             "2 2 3\n3 3 -1\n"    // self-loops: dropped; the negative one listed
                             "3 4 9223372036854775807\n4 1 0\n");
  const csr g = read_signed(mtx);
  deltasplit_test::expect_clean_csr(g);
  EXPECT_TRUE(g.signed_weights);
  EXPECT_EQ(g.kind, weight_kind::integer);
  EXPECT_TRUE(g.wide());
  EXPECT_EQ(g.signed_int_weights()[0], -5000000000);
  EXPECT_EQ(g.signed_int_weights()[1], -2);
  EXPECT_EQ(g.signed_int_weights()[2], std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(g.negative_self_loops, (std::vector<vertex_t>{2}));
  EXPECT_EQ(g.origin.self_loops_dropped, 2u);
  EXPECT_EQ(g.origin.duplicates_merged, 1u);
  // Non-negative files read the same way are signed too (the caller asked), unchanged in value.
  const auto plain = dir.write("p.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n");
  const csr p = read_signed(plain);
  EXPECT_TRUE(p.signed_weights);
  EXPECT_EQ(arcs_of(p), (std::vector<arc>{{0, 1, 7}}));
  const auto far = dir.write("f.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -9223372036854775809\n");
  deltasplit_test::expect_input_error([&] { read_signed(far); }, far, 3, "does not fit 64 bits");
}

TEST(GraphNegativeWeights, RealsSymmetricDimacsAndEdgeLists) {
  deltasplit_test::temp_dir dir;
  const auto real = dir.write("r.mtx",
                              "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 -0.5\n3 1 0.25\n3 1 -0.75\n");
  const csr r = read_signed(real);
  deltasplit_test::expect_clean_csr(r);
  EXPECT_TRUE(r.signed_weights);
  EXPECT_EQ(r.kind, weight_kind::real);
  // Both directions of each edge; of the parallel edges 3 - 1 the lighter, -0.75.
  EXPECT_EQ(arcs_of(r), (std::vector<arc>{{0, 1, -0.5}, {0, 2, -0.75}, {1, 0, -0.5}, {2, 0, -0.75}}));
  const auto gr = dir.write("d.gr", "p sp 3 3\na 1 2 -4\na 2 3 6\na 2 3 -1\n");
  const csr d = read_signed(gr);
  EXPECT_EQ(d.kind, weight_kind::integer);
  EXPECT_EQ(arcs_of(d), (std::vector<arc>{{0, 1, -4}, {1, 2, -1}}));
  const auto ints = dir.write("i.edges", "0 1 -3\n1 2 5\n2 2 -1\n");
  const csr i = read_signed(ints);
  EXPECT_EQ(i.kind, weight_kind::integer);
  EXPECT_TRUE(i.wide());
  EXPECT_EQ(arcs_of(i), (std::vector<arc>{{0, 1, -3}, {1, 2, 5}}));
  EXPECT_EQ(i.negative_self_loops, (std::vector<vertex_t>{2}));
  const auto reals = dir.write("f.edges", "0 1 -0.5\n1 2 2\n");
  const csr f = read_signed(reals);
  EXPECT_EQ(f.kind, weight_kind::real);
  EXPECT_EQ(arcs_of(f), (std::vector<arc>{{0, 1, -0.5}, {1, 2, 2}}));
  // Such a graph is not written (its writers hold unsigned weights), nor solved by delta-stepping.
  EXPECT_THROW(write_graph(i, dir.file("out.mtx")), std::invalid_argument);
  // Without the option the same files stop at their first negative weight.
  for (const std::string& p : {real, gr, ints, reals}) EXPECT_THROW(read_graph(p), negative_weight_error) << p;
}
