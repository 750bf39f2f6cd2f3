// From a list of parsed entries (coordinate form) to a clean CSR: a counting sort by source,
// rows sorted by target, self-loops dropped, parallel arcs folded into the lightest.
#pragma once

#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

#include "deltasplit/graph/csr.hpp"
#include "deltasplit/graph/progress.hpp"

namespace deltasplit::graph::detail {

struct arc_list {
  vertex_t num_vertices = 0;
  std::vector<vertex_t> src, dst;
  std::vector<std::uint32_t> weight;  // narrow: empty (unweighted), or integer weights / float bits
  std::vector<std::uint64_t> wide_weight;  // wide: uint64 weights / double bits
  weight_kind kind = weight_kind::integer;
  weight_width width = weight_width::narrow;
  bool symmetric = false;  // each entry stands for both directions
};

// Consumes `arcs` (its vectors are released as soon as they are no longer needed). Counts of
// dropped self-loops and merged parallel arcs go into origin. threads = 0: all hardware threads.
// progress, when set, hears "building" after each of its 4 passes.
csr build_csr(arc_list&& arcs, provenance origin, unsigned threads = 0, const progress_fn* progress = nullptr);

// Bytes of a CSR of n vertices and `arcs` arcs (64-bit offsets, 32-bit targets and weights; wide
// weights add to build_csr_extra_bytes' share).
std::uint64_t csr_bytes(std::uint64_t n, std::uint64_t arcs);
// The most build_csr allocates at once beyond the arc lists it is given (`arc_list_bytes`, which
// it releases half-way), for `entries` entries among n vertices (each stored twice when
// symmetric): what a reader or generator checks against the memory budget before building.
std::uint64_t build_csr_extra_bytes(std::uint64_t n, std::uint64_t entries, bool symmetric, bool wide,
                                    std::uint64_t arc_list_bytes);

inline unsigned worker_count(unsigned requested) {
  unsigned t = requested ? requested : std::thread::hardware_concurrency();
  return t ? t : 1;
}

// Starts task on a new thread, or runs it here when no thread can be had, so that a failed
// thread creation never leaves running threads to be destroyed unjoined.
template <class Task>
void start_or_run(std::vector<std::thread>& workers, Task& task) {
  try {
    workers.emplace_back(task);
  } catch (const std::system_error&) {
    task();
  }
}

// Runs f(begin, end) on `parts` consecutive ranges given by cut(i) (cut(0) = begin of all,
// cut(parts) = end of all), one thread per range.
template <class Cut, class F>
void parallel_parts(unsigned parts, Cut&& cut, F&& f) {
  std::vector<std::thread> workers;
  for (unsigned i = 1; i < parts; ++i) {
    auto task = [&f, &cut, i] { f(cut(i), cut(i + 1)); };
    start_or_run(workers, task);
  }
  f(cut(0), cut(1));
  for (auto& w : workers) w.join();
}

// f(begin, end) over [0, n) in equal shares, serially when n is small.
template <class F>
void parallel_ranges(std::uint64_t n, unsigned threads, F&& f) {
  unsigned t = n < (std::uint64_t{1} << 16) ? 1 : worker_count(threads);
  parallel_parts(t, [n, t](unsigned i) { return n * i / t; }, f);
}

}  // namespace deltasplit::graph::detail
