// The CPU solver's thread team: every member runs, barriers separate phases, an exception in one
// member reaches the caller instead of leaving the others waiting forever, and the team is reusable.
#include <algorithm>
#include <atomic>
#include <functional>
#include <stdexcept>
#include <thread>
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

// Jobs one after the other, as the contraction issues them (members hand over by spinning, and
// sleep only after a while): each job sees what the caller wrote before it and the caller sees
// what every member wrote in it, with a team larger than the machine too (its members yield).
TEST(ThreadPool, JobsInQuickSuccessionSeeEachOthersWrites) {
  for (unsigned n : {2u, 3u, 2 * std::max(1u, std::thread::hardware_concurrency()) + 1}) {
    thread_pool pool(n);
    std::vector<long> written(n, 0);
    long expected = 0;
    int wrong = 0;
    for (long job = 1; job <= 3000; ++job) {
      expected = job;
      pool.run([&](unsigned t) { written[t] = expected; });
      for (unsigned t = 0; t < n; ++t) wrong += written[t] != job;
    }
    EXPECT_EQ(wrong, 0) << n << " members";
  }
}

// barrier(last): last runs once per barrier, after every member arrived (it sees every member's
// write) and before any leaves (every member sees what it wrote), also for a team of one.
TEST(ThreadPool, TheLastArrivalRunsItsStepBeforeAnyoneLeaves) {
  for (unsigned n : {1u, 2u, 5u}) {
    thread_pool pool(n);
    std::vector<int> slot(n, 0);
    int sum = 0, calls = 0;
    std::atomic<int> wrong{0};
    const std::function<void()> add = [&] {
      ++calls;
      sum = 0;
      for (int v : slot) sum += v;
    };
    for (int round = 1; round <= 100; ++round) {
      pool.run([&](unsigned t) {
        slot[t] = round + static_cast<int>(t);
        pool.barrier(add);
        if (sum != static_cast<int>(n) * round + static_cast<int>(n * (n - 1) / 2)) ++wrong;
        pool.barrier();
      });
    }
    EXPECT_EQ(calls, 100) << n << " members";
    EXPECT_EQ(wrong.load(), 0) << n << " members";
  }
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
