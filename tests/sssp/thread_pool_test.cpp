// The CPU solver's thread team: every member runs, barriers separate phases, an exception in one
// member reaches the caller instead of leaving the others waiting forever, and the team is reusable.
#include <atomic>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "sssp/thread_pool.hpp"

using deltasplit::sssp::detail::thread_pool;

TEST(ThreadPool, EveryMemberRunsOnce) {
  for (unsigned n : {1u, 2u, 5u}) {
    thread_pool pool(n);
    ASSERT_EQ(pool.size(), n);
    std::vector<std::atomic<int>> ran(n);
    pool.run([&](unsigned t) { ran[t]++; });
    for (unsigned t = 0; t < n; ++t) EXPECT_EQ(ran[t].load(), 1) << "member " << t;
  }
  EXPECT_GE(thread_pool(0).size(), 1u);
}

TEST(ThreadPool, BarrierSeparatesPhases) {
  const unsigned n = 4;
  thread_pool pool(n);
  std::vector<int> slot(n, 0);
  std::atomic<int> wrong{0};
  for (int round = 1; round <= 200; ++round) {
    pool.run([&](unsigned t) {
      for (int phase = 0; phase < 3; ++phase) {
        slot[t] = round * 10 + phase;
        pool.barrier();
        for (unsigned s = 0; s < n; ++s)
          if (slot[s] != round * 10 + phase) ++wrong;
        pool.barrier();
      }
    });
  }
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ThreadPool, AnExceptionReachesTheCallerAndReleasesTheBarrier) {
  thread_pool pool(3);
  for (unsigned thrower : {0u, 2u}) {
    EXPECT_THROW(pool.run([&](unsigned t) {
                   if (t == thrower) throw std::runtime_error("member failed");
                   pool.barrier();
                   pool.barrier();
                 }),
                 std::runtime_error);
  }
  std::atomic<int> after{0};
  pool.run([&](unsigned) {
    pool.barrier();
    ++after;
  });
  EXPECT_EQ(after.load(), 3) << "the pool works again after a failed job";
}
