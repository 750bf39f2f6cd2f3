// The shared place of the bucket width (sssp/bucket_width.hpp): the statistics both automatic
// rules read, the bounds every width passes through, the light-arc definition, and issue 13's
// one-arc graph, whose automatic width used to overflow and end in a floating-point exception;
// and the GPU loop's tuning functions of the mean out-degree (step_loop/tuning.cuh).
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "deltasplit/sssp.hpp"
#include "sssp/bucket_width.hpp"
#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/test_graphs.hpp"

namespace ds = deltasplit::sssp;
namespace detail = deltasplit::sssp::detail;
using namespace deltasplit_test;

TEST(BucketWidth, StatisticsOfAGraph) {
  csr g = make_csr(4, {{0, 1, 2}, {0, 2, 10}, {1, 3, 0}});
  detail::graph_statistics s = detail::measure(g);
  EXPECT_EQ(s.vertices, 4u);
  EXPECT_EQ(s.arcs, 3u);
  EXPECT_DOUBLE_EQ(s.mean_weight, 4);
  EXPECT_DOUBLE_EQ(s.max_weight, 10);
  EXPECT_DOUBLE_EQ(s.mean_degree, 0.75);
  detail::graph_statistics empty = detail::measure(make_csr(0, {}));
  EXPECT_EQ(empty.mean_weight, 0);
  EXPECT_EQ(empty.mean_degree, 0);
}

TEST(BucketWidth, EveryWidthIsBounded) {
  using deltasplit::graph::weight_kind;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  for (double raw : {nan, -inf, -1.0, 0.0, 0.25, 1e300, inf}) {
    const double i = detail::bounded_width(raw, weight_kind::integer);
    EXPECT_GE(i, 1) << raw;
    EXPECT_LE(i, 4294967294.0) << raw;
    EXPECT_EQ(i, std::floor(i)) << raw;
    const double r = detail::bounded_width(raw, weight_kind::real);
    EXPECT_GE(r, FLT_MIN) << raw;
    EXPECT_LE(r, FLT_MAX) << raw;
  }
  EXPECT_EQ(detail::bounded_width(2.7, weight_kind::integer), 2);
  EXPECT_EQ(detail::bounded_width(2.7, weight_kind::real), 2.7);
}

// Both automatic rules on graphs whose statistics drive them to extremes: one arc among 100,000
// vertices (mean out-degree 1e-5), the heaviest weights, zero weights, no arcs at all.
TEST(BucketWidth, AutomaticWidthsStayBoundedOnExtremeGraphs) {
  using deltasplit::graph::weight_kind;
  const csr graphs[] = {make_csr(100000, {{0, 1, 7}}), make_csr(100000, {{0, 1, 4294967294.0}}),
                        make_csr(100000, {{0, 1, 3e38}}, weight_kind::real), make_csr(3, {{0, 1, 0}, {1, 2, 0}}),
                        make_csr(5, {}), make_csr(2, {{0, 1, 1e-40}}, weight_kind::real)};
  for (const csr& g : graphs) {
    const detail::graph_statistics s = detail::measure(g);
    for (double w : {detail::cpu_auto_width(s, g.kind, 1), detail::cpu_auto_width(s, g.kind, 16),
                     detail::cpu_auto_width(s, g.kind, 1000), detail::gpu_auto_width(s, g.kind)}) {
      EXPECT_EQ(w, detail::bounded_width(w, g.kind)) << g.num_vertices << " vertices, mean weight " << s.mean_weight;
      EXPECT_TRUE(std::isfinite(w));
      EXPECT_GT(w, 0);
    }
  }
}

// The solve that used to die: automatic width, every device this machine has (the GPU too when
// one is usable), equal to Dijkstra.
TEST(BucketWidth, OneArcAmongManyVerticesSolves) {
  for (auto kind : {deltasplit::graph::weight_kind::integer, deltasplit::graph::weight_kind::real}) {
    csr g = make_csr(100000, {{0, 1, 7}}, kind);
    for (ds::strategy how : {ds::strategy::near_far, ds::strategy::multisplit, ds::strategy::delta_stepping_cpu}) {
      ds::options o;
      o.how = how;
      ds::result r = ds::solve(g, 0, o);
      EXPECT_TRUE(ds::validate(g, 0, r).ok) << ds::strategy_name(how) << " on " << r.stats.device;
      EXPECT_EQ(r.num_reached(), 2u);
    }
  }
}

// One definition of a light arc for the CPU and the GPU: strictly below the width, so a width of
// 1 on integer weights leaves only zero-weight arcs light. The GPU engine splits its sorted rows
// with this same function (engine.cu, split_light_arcs).
TEST(BucketWidth, LightArcIsStrictlyBelowTheWidth) {
  EXPECT_TRUE(detail::light_arc(0u, 1u));
  EXPECT_FALSE(detail::light_arc(1u, 1u));
  EXPECT_TRUE(detail::light_arc(99u, 100u));
  EXPECT_FALSE(detail::light_arc(100u, 100u));
  EXPECT_TRUE(detail::light_arc(0.5f, 0.75f));
  EXPECT_FALSE(detail::light_arc(0.75f, 0.75f));
  static_assert(!detail::light_arc(3u, 3u), "usable in constant expressions, as the device code uses it");
}

// The step loop's multiple of the GPU rule (loop_tuning::step_delta_scale): none up to a mean
// out-degree of 16, where the rule was measured best, then rising without a jump: x1.5 at Kronecker
// 20's degree 30 and x2.3 at 58, as measured for step_loop/tuning.cuh; none from 2^22 vertices on
// (Kronecker 25's bucketed managers 7% slower with it).
TEST(BucketWidth, StepLoopWidensTheGpuRuleOnDenseGraphs) {
  using deltasplit::sssp::gpu::loop_tuning;
  const std::uint64_t kron20 = std::uint64_t{1} << 20;
  for (double d : {0.0, 2.5, 6.0, 15.3, loop_tuning::dense_degree}) {
    EXPECT_EQ(loop_tuning::step_delta_scale(d, kron20), 1.0) << d;
  }
  EXPECT_NEAR(loop_tuning::step_delta_scale(loop_tuning::dense_degree + 1e-6, kron20), 1.0, 1e-6);
  EXPECT_NEAR(loop_tuning::step_delta_scale(30, kron20), 1.5, 0.01);
  EXPECT_NEAR(loop_tuning::step_delta_scale(58, kron20), 2.3, 0.02);
  EXPECT_NEAR(loop_tuning::step_delta_scale(30, loop_tuning::dense_vertices - 1), 1.5, 0.01);
  double last = 1;
  for (double d = loop_tuning::dense_degree + 1; d < 1000; d *= 1.1) {
    const double scale = loop_tuning::step_delta_scale(d, kron20);
    EXPECT_GT(scale, last) << d;
    last = scale;
  }
  // Large graphs keep the rule's width at every degree: Kronecker 22, 25 and the largest sizes.
  for (std::uint64_t n : {loop_tuning::dense_vertices, std::uint64_t{1} << 25, std::uint64_t{0xFFFFFFFFu}})
    for (double d : {2.5, 17.0, 30.0, 58.0, 500.0})
      EXPECT_EQ(loop_tuning::step_delta_scale(d, n), 1.0) << n << " " << d;
}

TEST(LoopTuning, ClusterSettleLimitFollowsTheMeanDegree) {
  using deltasplit::sssp::gpu::loop_tuning;
  // Roads (mean out-degree up to 3) and degenerate graphs keep the whole settle_limit.
  for (double d : {0.0, 0.5, 1.0, 2.5, 2.8, 3.0})
    EXPECT_EQ(loop_tuning::cluster_settle_limit(d), loop_tuning::settle_limit) << d;
  // Denser graphs keep about settle_arcs arcs' worth: Kronecker 20 (30) 3,276, edge factor 32 (58) 1,694.
  EXPECT_EQ(loop_tuning::cluster_settle_limit(30), 3276u);
  EXPECT_EQ(loop_tuning::cluster_settle_limit(58), 1694u);
  EXPECT_EQ(loop_tuning::cluster_settle_limit(12.2), 8057u);
  std::uint32_t last = loop_tuning::settle_limit;
  for (double d = 3; d < 1e6; d *= 1.3) {
    const std::uint32_t limit = loop_tuning::cluster_settle_limit(d);
    EXPECT_LE(limit, last) << d;
    EXPECT_GE(limit * d, loop_tuning::settle_arcs - d) << d;  // rounded down by less than one vertex
    last = limit;
  }
}
