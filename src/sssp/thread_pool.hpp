// A fixed team of std::threads that runs one job on every member at once, with a barrier for the
// phases inside the job (the shape of an OpenMP parallel region). The CPU delta-stepping solver
// owns one, so repeated solves reuse the threads instead of creating them per source.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace deltasplit::sssp::detail {

class thread_pool {
 public:
  explicit thread_pool(unsigned threads);  // 0: std::thread::hardware_concurrency()
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Runs job(t) for t in [0, size()), t = 0 on the calling thread, and returns when all are done.
  // An exception thrown by any member releases the others from barrier() and is rethrown here.
  void run(const std::function<void(unsigned)>& job);

  // Waits until every member of the running job has arrived. Spins briefly (phases of a solve
  // are often microseconds apart), then sleeps.
  void barrier() { barrier(nullptr); }

  // The same, and the last member to arrive runs last() before any member leaves: a step that
  // needs every member's results and must be done before any member goes on, without a second
  // barrier. last() must not throw.
  void barrier(const std::function<void()>& last);

 private:
  struct cancelled {};
  void work(unsigned t);
  // Spins (pause hints, then yields) until done() holds or the spins run out; true when it holds.
  template <class Done>
  bool spin_until(const Done& done) const;
  void fail(std::exception_ptr e);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_, barrier_cv_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::atomic<std::uint64_t> job_generation_{0};  // written under mutex_; spinners read it without
  std::atomic<unsigned> running_{0};              // likewise

  bool stopping_ = false;
  std::exception_ptr error_;

  int pauses_ = 0;  // pause-hint spins before a waiter yields
  std::atomic<unsigned> arrived_{0};
  std::atomic<std::uint64_t> barrier_generation_{0};
  std::atomic<bool> broken_{false};
};

}  // namespace deltasplit::sssp::detail
