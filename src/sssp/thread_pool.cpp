// Team of threads with a spin-then-sleep barrier (see thread_pool.hpp).
#include "sssp/thread_pool.hpp"

#include <algorithm>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace deltasplit::sssp::detail {

namespace {
// A waiter first spins on the generation with the pause hint (a few microseconds: a solve's rounds
// on a dedicated core are often that short), then yields its core, then sleeps. A team larger than
// the machine skips the pause phase: the member it waits for may need its core.
constexpr int pauses_before_yield = 256;
constexpr int spins_before_sleep = 2000;

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}
}

thread_pool::thread_pool(unsigned threads) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (threads == 0) threads = cores;
  pauses_ = threads <= cores ? pauses_before_yield : 0;
  workers_.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

thread_pool::~thread_pool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void thread_pool::fail(std::exception_ptr e) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = e;
    broken_.store(true);
  }
  barrier_cv_.notify_all();
}

// A barrier's waiter, a member waiting for the next job and the caller waiting for the members
// all spin briefly before sleeping on their condition: jobs come and go as a barrier's phases do
// (a contraction runs hundreds a second, with short serial steps between them; bench/results/
// phast.md, "The contraction's serial steps on 16 cores").
template <class Done>
bool thread_pool::spin_until(const Done& done) const {
  for (int i = 0; i < pauses_; ++i) {
    if (done()) return true;
    pause();
  }
  for (int i = 0; i < spins_before_sleep; ++i) {
    if (done()) return true;
    std::this_thread::yield();
  }
  return done();
}

void thread_pool::work(unsigned t) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(unsigned)>* job;
    spin_until([&] { return job_generation_.load(std::memory_order_acquire) != seen; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || job_generation_ != seen; });
      if (stopping_) return;
      seen = job_generation_;
      job = job_;
    }
    try {
      (*job)(t);
    } catch (const cancelled&) {
    } catch (...) {
      fail(std::current_exception());
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (--running_ == 0) finished_.notify_one();
  }
}

void thread_pool::run(const std::function<void(unsigned)>& job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    running_ = static_cast<unsigned>(workers_.size());
    error_ = nullptr;
    broken_.store(false);
    arrived_.store(0);
    ++job_generation_;
  }
  wake_.notify_all();
  try {
    job(0);
  } catch (const cancelled&) {
  } catch (...) {
    fail(std::current_exception());
  }
  spin_until([&] { return running_.load(std::memory_order_acquire) == 0; });
  std::unique_lock<std::mutex> lock(mutex_);
  finished_.wait(lock, [&] { return running_ == 0; });
  job_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

void thread_pool::barrier(const std::function<void()>& last) {
  const unsigned members = size();
  if (members == 1) {
    if (last) last();
    return;
  }
  const std::uint64_t generation = barrier_generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == members) {
    arrived_.store(0, std::memory_order_relaxed);
    if (last) last();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      barrier_generation_.store(generation + 1, std::memory_order_release);
    }
    barrier_cv_.notify_all();
    return;
  }
  const auto released = [&] {
    return barrier_generation_.load(std::memory_order_acquire) != generation ||
           broken_.load(std::memory_order_relaxed);
  };
  if (!spin_until(released)) {
    std::unique_lock<std::mutex> lock(mutex_);
    barrier_cv_.wait(lock, released);
  }
  if (barrier_generation_.load(std::memory_order_acquire) == generation) throw cancelled{};
}

}  // namespace deltasplit::sssp::detail
