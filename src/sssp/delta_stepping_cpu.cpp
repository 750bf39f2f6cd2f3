// Delta-stepping on the CPU, after Meyer and Sanders (J. Algorithms 49(1), 2003): tentative
// distances are filed into buckets of width delta and the smallest non-empty bucket is expanded
// next, on every thread at once (Section 3). The loop is shaped for many cores after the published
// CPU designs (Beamer et al., GAPBS, arXiv 1508.03619; Zhang et al., GraphIt, CGO 2020, Section 4;
// Dong et al., rho-stepping, SPAA 2021, Section 5):
//
// - Thread-local bins. A thread files each vertex it improves into its own bins, so filing needs
//   no lock and no shared counter. A round expands the union of every thread's bin of the
//   current bucket, which the threads read in place (each swapped its bin out into `current`),
//   claimed in chunks from a shared counter: no copy into a shared frontier.
// - Bucket fusion (GraphIt, Section 4.2). After a round, a thread keeps expanding what it filed
//   into the current bucket on its own while that stays below cpu_tuning::fusion_limit. On road
//   networks most of a bucket's work then runs without a barrier, and rounds fall several-fold.
// - One barrier per round: the last thread to reach it picks the next bucket from every thread's
//   candidate and swaps every thread's bin of it out while the others wait (choose_round), so
//   the round starts as the barrier opens.
// - Every arc of an expanded vertex is relaxed at once (no light/heavy phases): a heavy arc's
//   target then waits in a later bucket like any other. The phases would save re-relaxing heavy
//   arcs of vertices expanded twice in one bucket, at the price of a second pass over each row and
//   a barrier per bucket.
//
// Buckets form a window of `window` consecutive indices from `base` (the cyclic array of Section
// 2); a vertex filed beyond it waits in its thread's far pile until the window is used up, so a
// small delta with large weights never needs one bin per distance value. A vertex may be filed
// several times; it is expanded only from the bucket its distance lies in, so a copy left behind
// by a later improvement costs a read, not a relaxation. bucket_of may be any non-decreasing map of
// distances (floor(d * (1/delta)) in double here, with no division); the answer does not depend
// on it, only the work.
//
// Labels: with predecessors and 32-bit distances, a vertex's distance and predecessor share one
// 64-bit word (distance high) improved by compare-and-swap, so the tree always matches the
// distances; only a strictly smaller distance replaces a label, so parents were labelled earlier
// and links cannot form a cycle, even through zero-weight arcs. Otherwise the distance alone is
// the word (32-bit distances: half the memory traffic); 64-bit distances leave no room for a
// parent, so their tree is drawn from the final distances afterwards (shortest_path_tree.hpp:
// exact tight arcs, an O(n + m) pass). Distances do not depend on thread timing (the unique fixed
// point); which of several equally short parents is recorded may.
//
// Statistics: iterations counts rounds (the synchronised steps; bucket fusion's local steps are
// not counted), vertices_processed the expansions, relax_ms the leader's time expanding,
// frontier_ms its time choosing buckets, refilling the window and waiting at barriers.
//
// Tuning (cpu_tuning, delta_stepping_cpu.hpp), measured on 16 cores with cpu_solver_bench (the
// tables: bench/results/cpu_solver.md, "Bucket fusion limit" and "Thread counts and the
// one-thread path"):
// - fusion_limit 1024: fusion is worth several times on road graphs; 256, 1024 and 4096 are close,
//   1024 the best or within noise on the road graphs.
// - parallel_arcs 200000: below it a team of threads gains little even on idle cores, and on a
//   shared machine, where other work competes for the cores, a team loses most on the graphs of
//   many small rounds, so the threshold keeps chicago-sized graphs on one thread.
#include "sssp/delta_stepping_cpu.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "sssp/bucket_width.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/elapsed.hpp"
#include "sssp/shortest_path_tree.hpp"

namespace deltasplit::sssp::detail {

namespace {

constexpr std::size_t chunk = 64;           // vertices claimed at a time in a round
constexpr std::uint64_t max_window = 4096;  // bins per thread
constexpr std::uint64_t no_bucket = std::numeric_limits<std::uint64_t>::max();
constexpr double last_bucket = 0x1p62;  // distances far above delta share it

// A distance as the unsigned word of its size that orders like it: non-negative floats and
// doubles order like their bit patterns.
template <class Distance>
using bits_t = std::conditional_t<sizeof(Distance) == 8, std::uint64_t, std::uint32_t>;
template <class Distance>
bits_t<Distance> bits_of(Distance d) {
  bits_t<Distance> b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
template <class Distance>
Distance from_bits(bits_t<Distance> b) {
  Distance d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

using clock_type = std::chrono::steady_clock;

}  // namespace

// One thread's state in a solve: a field of delta_stepping_workspace (declared in the header), so
// outside the anonymous namespace.
struct alignas(64) member_state {
  // Read by the other members once per round, after a barrier.
  std::vector<vertex_t> current;  // this thread's part of the round being expanded
  std::uint64_t next = no_bucket, far_next = no_bucket;
  // This thread's own, on other cache lines.
  alignas(64) std::vector<std::vector<vertex_t>> bins;  // bucket k in bins[k & (window - 1)], k in [base, base + window)
  std::vector<vertex_t> far;                            // filed beyond the window
  std::vector<vertex_t> fused;                          // what bucket fusion expands alone
  std::uint64_t edges = 0, processed = 0;
  bool dropped = false;
};

namespace {

std::uint64_t window_for(double max_weight, double delta) {
  const double reach = std::floor(max_weight / delta) + 2;  // buckets one arc can span
  std::uint64_t w = 64;
  while (w < max_window && static_cast<double>(w) < 4 * reach) w *= 2;
  return w;
}

}  // namespace

struct delta_stepping_workspace {
  delta_stepping_workspace(vertex_t vertices, unsigned members, const graph_statistics& s)
      : n(vertices), statistics(s), threads(members) {}
  template <class Word>
  std::atomic<Word>* labels() {  // allocated on first use: a solver may never need both kinds
    const std::size_t count = std::max<vertex_t>(n, 1);
    if constexpr (std::is_same_v<Word, std::uint64_t>) {
      if (!tree) tree.reset(new std::atomic<std::uint64_t>[count]);
      return tree.get();
    } else {
      if (!plain) plain.reset(new std::atomic<std::uint32_t>[count]);
      return plain.get();
    }
  }
  vertex_t n;
  graph_statistics statistics;
  std::unique_ptr<std::atomic<std::uint64_t>[]> tree;  // 32-bit distance bits << 32 | predecessor, or 64-bit distance bits
  std::unique_ptr<std::atomic<std::uint32_t>[]> plain;  // 32-bit distance bits
  std::vector<member_state> threads;
  alignas(64) std::atomic<std::size_t> next_chunk{0};
};

namespace {

// One solve. Tree: labels carry predecessors (64-bit words; 32-bit distances only) or not (words
// of the distance's size).
template <class Policy, bool Tree>
class bucket_run {
  using distance = typename Policy::distance;
  using bits = bits_t<distance>;
  using word = std::conditional_t<Tree, std::uint64_t, bits>;
  static_assert(!Tree || sizeof(distance) == 4, "a label holds a parent beside a 32-bit distance only");

 public:
  bucket_run(const csr_view& g, const Policy& policy, delta_stepping_workspace& w, thread_pool& pool, double delta,
             std::size_t fusion_limit, double cutoff)
      : g_(g), w_(w), pool_(pool), policy_(policy), offsets_(g.offsets.data()), targets_(g.targets.data()),
        labels_(w.labels<word>()), inverse_delta_(1 / delta),
        cutoff_bucket_(std::isinf(cutoff) ? no_bucket : bucket_of(cutoff_distance<distance>(cutoff))),
        window_(window_for(w.statistics.max_weight, delta)), fusion_limit_(fusion_limit),
        parts_(pool.size()), starts_(pool.size() + 1, 0) {}

  // Solves, then writes the distances (and with Tree the predecessors) to the n-long arrays given.
  void run(vertex_t source, statistics& st, distance* dist, vertex_t* parent) {
    if (pool_.size() == 1)
      member(0, source, st, dist, parent);
    else
      pool_.run([&](unsigned t) { member(t, source, st, dist, parent); });
    for (const member_state& s : w_.threads) {
      st.edges_relaxed += s.edges;
      st.vertices_processed += s.processed;
      dropped_ = dropped_ || s.dropped;
    }
  }

  bool dropped() const { return dropped_; }

 private:
  distance distance_of(vertex_t v) const { return from_bits<distance>(bits_of_label(labels_[v].load(std::memory_order_relaxed))); }
  vertex_t predecessor_of(vertex_t v) const {
    if constexpr (Tree)
      return static_cast<vertex_t>(labels_[v].load(std::memory_order_relaxed));
    else
      return graph::invalid_vertex;
  }
  static bits bits_of_label(word label) {
    if constexpr (Tree)
      return static_cast<bits>(label >> 32);
    else
      return label;
  }
  static word label_of(bits distance_bits, vertex_t parent) {
    if constexpr (Tree)
      return (std::uint64_t{distance_bits} << 32) | parent;
    else
      return distance_bits;
  }

  std::uint64_t bucket_of(distance d) const {
    const double k = static_cast<double>(d) * inverse_delta_;
    return static_cast<std::uint64_t>(k < last_bucket ? k : last_bucket);
  }

  void file(member_state& me, vertex_t v, std::uint64_t k, std::uint64_t base) {
    if (k - base < window_)
      me.bins[k & (window_ - 1)].push_back(v);
    else
      me.far.push_back(v);
  }

  // Relaxes every arc of u if u's distance still lies in bucket b.
  void expand(member_state& me, vertex_t u, std::uint64_t b, std::uint64_t base) {
    const distance du = distance_of(u);
    if (bucket_of(du) != b) return;  // improved since it was filed: expanded in an earlier bucket
    ++me.processed;
    const edge_t first = offsets_[u], last = offsets_[u + 1];
    me.edges += last - first;
    for (edge_t e = first; e < last; ++e) {
      distance candidate;
      if (!policy_.extend(du, e, candidate)) {
        me.dropped = true;
        continue;
      }
      const vertex_t v = targets_[e];
      const bits cb = bits_of(candidate);
      word old = labels_[v].load(std::memory_order_relaxed);
      while (bits_of_label(old) > cb) {
        if (labels_[v].compare_exchange_weak(old, label_of(cb, u), std::memory_order_relaxed)) {
          file(me, v, bucket_of(candidate), base);
          break;
        }
      }
    }
  }

  // The union of every member's `current` (parts[s], starts[s] its prefix sums), claimed in chunks.
  void expand_round(member_state& me, std::uint64_t b, std::uint64_t base, const std::vector<const vertex_t*>& parts,
                    const std::vector<std::size_t>& starts) {
    const std::size_t total = starts.back();
    for (;;) {
      const std::size_t first = w_.next_chunk.fetch_add(chunk, std::memory_order_relaxed);
      if (first >= total) return;
      const std::size_t last = std::min(total, first + chunk);
      std::size_t s = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), first) - starts.begin()) - 1;
      for (std::size_t i = first; i < last; ++i) {
        while (i >= starts[s + 1]) ++s;
        expand(me, parts[s][i - starts[s]], b, base);
      }
    }
  }

  // Bucket fusion: this thread's own new entries of bucket b, while they stay few.
  void fuse(member_state& me, std::uint64_t b, std::uint64_t base) {
    std::vector<vertex_t>& bin = me.bins[b & (window_ - 1)];
    while (!bin.empty() && bin.size() < fusion_limit_) {
      me.fused.clear();
      std::swap(me.fused, bin);
      for (vertex_t u : me.fused) expand(me, u, b, base);
    }
  }

  std::uint64_t first_filled(const member_state& me, std::uint64_t b, std::uint64_t base) const {
    for (std::uint64_t k = b; k < base + window_; ++k)
      if (!me.bins[k & (window_ - 1)].empty()) return k;
    return no_bucket;
  }

  void sync() { pool_.barrier(); }

  // Run by the last member to reach a round's barrier while the others wait there (one barrier a
  // round): the next bucket is the smallest that any member filed, and each member's bin of it
  // becomes that member's part of the round.
  void choose_round(statistics& st) {
    std::uint64_t next = no_bucket;
    for (const member_state& s : w_.threads) next = std::min(next, s.next);
    round_ = next;
    if (next != no_bucket && next > cutoff_bucket_) {  // past the cutoff (options::cutoff): the solve ends
      round_ = no_bucket;
      past_cutoff_ = true;
    }
    if (round_ == no_bucket) return;
    for (std::size_t s = 0; s < w_.threads.size(); ++s) {
      member_state& m = w_.threads[s];
      m.current.clear();
      std::swap(m.current, m.bins[next & (window_ - 1)]);
      parts_[s] = m.current.data();
      starts_[s + 1] = starts_[s] + m.current.size();
    }
    w_.next_chunk.store(0, std::memory_order_relaxed);
    ++st.iterations;
    st.max_queue = std::max<std::uint64_t>(st.max_queue, starts_.back());
  }

  // The window [base, base + window) is used up: the smallest bucket still waiting in a far pile
  // becomes the new base and the far piles are filed into the new window. A far entry whose
  // distance has since dropped inside the old window was filed again then, and expanded.
  std::uint64_t refill(member_state& me, std::uint64_t base) {
    const std::uint64_t end = base + window_;
    me.far_next = no_bucket;
    for (vertex_t v : me.far) {
      const std::uint64_t k = bucket_of(distance_of(v));
      if (k >= end) me.far_next = std::min(me.far_next, k);
    }
    sync();
    std::uint64_t next = no_bucket;
    for (const member_state& s : w_.threads) next = std::min(next, s.far_next);
    if (next == no_bucket) return next;
    std::size_t kept = 0;
    for (vertex_t v : me.far) {
      const std::uint64_t k = bucket_of(distance_of(v));
      if (k < end) continue;
      if (k - next < window_)
        me.bins[k & (window_ - 1)].push_back(v);
      else
        me.far[kept++] = v;
    }
    me.far.resize(kept);
    return next;
  }

  void member(unsigned t, vertex_t source, statistics& st, distance* dist, vertex_t* parent) {
    const unsigned members = pool_.size();
    member_state& me = w_.threads[t];
    const bool leader = t == 0;
    const word unreached = label_of(bits_of(Policy::infinity), graph::invalid_vertex);
    const vertex_t n = g_.num_vertices;
    const auto slice_begin = static_cast<vertex_t>(std::uint64_t{n} * t / members);
    const auto slice_end = static_cast<vertex_t>(std::uint64_t{n} * (t + 1) / members);
    for (vertex_t v = slice_begin; v < slice_end; ++v) labels_[v].store(unreached, std::memory_order_relaxed);
    me.bins.resize(window_);
    for (auto& bin : me.bins) bin.clear();
    me.far.clear();
    me.current.clear();
    me.edges = me.processed = 0;
    me.dropped = false;
    clock_type::time_point phase = clock_type::now();
    sync();  // every label is reset before the source's is set
    if (leader) {
      labels_[source].store(label_of(bits_of(Policy::zero), graph::invalid_vertex), std::memory_order_relaxed);
      me.bins[0].push_back(source);
    }
    const std::function<void()> choose = [&] { choose_round(st); };
    std::uint64_t base = 0, b = 0;
    for (;;) {
      me.next = first_filled(me, b, base);
      pool_.barrier(choose);
      if (round_ == no_bucket) {
        if (past_cutoff_) break;
        const std::uint64_t next = refill(me, base);
        if (next == no_bucket || next > cutoff_bucket_) break;  // every member sees the same next
        base = b = next;
        continue;
      }
      b = round_;
      if (leader) {
        st.frontier_ms += ms_since(phase);
        phase = clock_type::now();
      }
      expand_round(me, b, base, parts_, starts_);
      fuse(me, b, base);
      if (leader) {
        st.relax_ms += ms_since(phase);
        phase = clock_type::now();
      }
    }
    // Every member left the loop after the same barrier, with every relaxation done.
    for (vertex_t v = slice_begin; v < slice_end; ++v) dist[v] = distance_of(v);
    if constexpr (Tree)
      for (vertex_t v = slice_begin; v < slice_end; ++v) parent[v] = predecessor_of(v);
    if (leader) st.frontier_ms += ms_since(phase);
  }

  const csr_view& g_;
  delta_stepping_workspace& w_;
  thread_pool& pool_;
  Policy policy_;
  const edge_t* offsets_;
  const vertex_t* targets_;
  std::atomic<word>* labels_;
  double inverse_delta_;
  std::uint64_t cutoff_bucket_;  // the cutoff's bucket; no_bucket: none
  bool past_cutoff_ = false;     // set by choose_round for every member
  std::uint64_t window_;
  std::size_t fusion_limit_;
  bool dropped_ = false;
  // The round that choose_round set up: its bucket (no_bucket: the window is used up) and the
  // members' parts with their prefix sums.
  std::uint64_t round_ = no_bucket;
  std::vector<const vertex_t*> parts_;
  std::vector<std::size_t> starts_;
};

}  // namespace

delta_stepping_cpu::delta_stepping_cpu(const csr_view& g, unsigned threads, const cpu_tuning& tuning,
                                       distance_type real_type)
    : g_(g), tuning_(tuning), type_(distance_type_for(g, real_type)) {
  const unsigned wanted = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  const bool small = g.num_arcs() < tuning.parallel_arcs;
  pool_ = std::make_unique<thread_pool>(small ? 1 : wanted);
  work_ = std::make_unique<delta_stepping_workspace>(g.num_vertices, pool_->size(), measure(g));
  if (wanted == 1)
    description_ = "cpu (1 thread)";
  else if (small)
    description_ = "cpu (1 thread: " + std::to_string(g.num_arcs()) + " arcs are too few for " + std::to_string(wanted) + ")";
  else
    description_ = "cpu (" + std::to_string(wanted) + " threads)";
}

delta_stepping_cpu::~delta_stepping_cpu() = default;

result delta_stepping_cpu::run(vertex_t source, double delta, bool predecessors, double cutoff) {
  const distance_type type = type_;
  if (std::isnan(delta) || delta < 0) throw std::invalid_argument("delta must be positive (or 0 for auto), got " + std::to_string(delta));
  delta = delta == 0 ? cpu_auto_width(work_->statistics, g_.kind, threads()) : bounded_width(delta, g_.kind);

  result r;
  r.type = type;
  statistics& st = r.stats;
  st.strategy = strategy_name(strategy::delta_stepping_cpu);
  st.device = description_;
  st.distance_type = distance_type_name(type);
  st.delta = delta;
  const auto start = clock_type::now();
  with_distances(g_, type, [&](const auto& policy) {
    using P = std::decay_t<decltype(policy)>;
    using D = typename P::distance;
    auto solve = [&](auto tree) {
      bucket_run<P, decltype(tree)::value> run(g_, policy, *work_, *pool_, delta, tuning_.fusion_limit, cutoff);
      auto& dist = distances_in<D>(r);
      dist.resize(g_.num_vertices);
      if (predecessors) r.predecessors.resize(g_.num_vertices);
      run.run(source, st, dist.data(), r.predecessors.data());
      if (run.dropped() && !cutoff_below_overflow<D>(cutoff)) {
        vertex_t v = overflowed_vertex(g_, dist.data(), P::infinity);
        if (v != graph::invalid_vertex) throw_overflow(g_, source, v, type);
      }
    };
    if constexpr (sizeof(D) == 4) {
      if (predecessors)
        solve(std::true_type{});
      else
        solve(std::false_type{});
    } else {
      solve(std::false_type{});
      if (predecessors)
        tree_from_distances(g_, source, distances_in<D>(r).data(), P::infinity, r.predecessors.data(),
                            [&](D du, edge_t arc, vertex_t v) {
                              D sum;
                              return policy.extend(du, arc, sum) && sum == distances_in<D>(r)[v];
                            });
    }
  });
  st.milliseconds = std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
  return r;
}

}  // namespace deltasplit::sssp::detail
