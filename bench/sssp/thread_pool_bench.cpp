// The cost of one job of the CPU thread pool (src/sssp/thread_pool.hpp) on 2, 8 and 16 threads:
// an empty job, and one that follows 20 us of serial work on the calling thread (the shape of the
// contraction's rounds, which issue about seven jobs each; bench/results/phast.md, "The
// contraction's serial steps on 16 cores"). Medians of 5 repetitions of 2,000 jobs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

#include "sssp/thread_pool.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Microseconds a job, less the serial work before each.
double per_job(deltasplit::sssp::detail::thread_pool& pool, std::chrono::microseconds serial) {
  constexpr int jobs = 2000;
  std::atomic<unsigned long> sink{0};
  const auto job = [&](unsigned t) { sink.fetch_add(t, std::memory_order_relaxed); };
  const auto start = clock_type::now();
  for (int r = 0; r < jobs; ++r) {
    if (serial.count() > 0) {
      const auto s = clock_type::now();
      while (clock_type::now() - s < serial) {
      }
    }
    pool.run(job);
  }
  const double total = std::chrono::duration<double, std::micro>(clock_type::now() - start).count();
  return total / jobs - static_cast<double>(serial.count());
}

}  // namespace

int main() {
  std::printf("threads  empty job (us)  after 20 us serial (us)\n");
  for (unsigned threads : {2u, 8u, 16u}) {
    deltasplit::sssp::detail::thread_pool pool(threads);
    per_job(pool, std::chrono::microseconds(0));  // warm-up
    std::vector<double> empty, after;
    for (int rep = 0; rep < 5; ++rep) {
      empty.push_back(per_job(pool, std::chrono::microseconds(0)));
      after.push_back(per_job(pool, std::chrono::microseconds(20)));
    }
    std::printf("%7u  %14.1f  %23.1f\n", threads, median(empty), median(after));
  }
}
