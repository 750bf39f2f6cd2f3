// Delta-stepping on the CPU, after Meyer and Sanders (J. Algorithms 49(1), 2003): tentative
// distances are filed into buckets of width delta; the smallest non-empty bucket is emptied in
// rounds that relax only light arcs (weight <= delta), since only those can refill it; its
// vertices then relax their heavy arcs once, at their final distance (Section 2). The parallel
// version (Section 3) runs each round's relaxations on all threads.
//
// Shape of the parallel loop. Each thread files the vertices it improves into its own buckets,
// so insertion needs no locks; a round processes the union of every thread's current bucket,
// shared out in chunks. Buckets form a window of `window` consecutive indices starting at `base`
// (the cyclic bucket array of Section 2); improvements beyond the window wait in a per-thread
// far pile that is filed into a new window when the old one is exhausted, so a small delta with
// large weights never needs one bucket per distance value.
//
// A vertex's distance and predecessor live in one 64-bit word (distance bits high, predecessor
// low) improved by compare-and-swap, so the tree always matches the distances. Only a strictly
// smaller distance replaces a label: the vertex that set a final label had its own final label
// earlier, so predecessor links point back in time and cannot form a cycle, even through
// zero-weight arcs. A vertex may sit in several buckets; it is relaxed only when its current
// distance lies in the bucket being processed and its arcs have not yet been relaxed at exactly
// that distance (light_tag / heavy_tag), so copies of it cost no repeated relaxation. Distances do
// not depend on thread timing (they are the unique fixed point); which of several equally short
// parents a vertex records may.
//
// Statistics: iterations counts buckets processed, relax_ms the light rounds and heavy phases as
// the leader thread sees them, frontier_ms the rest (choosing the next bucket, refilling the
// window from the far piles, the barriers in between); edges_relaxed counts arcs relaxed.
#include "sssp/delta_stepping_cpu.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "sssp/distance_policy.hpp"

namespace deltasplit::sssp::detail {

namespace {

constexpr std::size_t chunk = 64;              // vertices claimed at a time in a round
constexpr std::size_t alone_limit = 256;       // smaller rounds run on one thread (see light_rounds_alone)
constexpr std::uint64_t max_window = 4096;     // bucket slots per thread
constexpr std::uint64_t no_bucket = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t last_bucket = std::uint64_t{1} << 62;  // real distances far above delta share it

std::uint32_t bits_of(std::uint32_t d) { return d; }
std::uint32_t bits_of(float d) {
  std::uint32_t b;
  std::memcpy(&b, &d, sizeof b);  // non-negative floats order like their bit patterns
  return b;
}
template <class Distance>
Distance from_bits(std::uint32_t b) {
  Distance d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

struct alignas(64) thread_state {
  std::vector<std::vector<vertex_t>> bins;  // bucket k in slot k % window, for k in [base, base + window)
  std::vector<vertex_t> far;                // improvements filed beyond the window
  std::vector<vertex_t> current;            // this thread's share of the bucket being processed
  std::vector<vertex_t> settled;            // vertices that relaxed light arcs in this bucket
  std::vector<vertex_t> alone;              // rounds the leader runs by itself
  std::uint64_t edges = 0, processed = 0;
  std::uint64_t near_min = no_bucket, far_min = no_bucket;
  bool dropped = false;
};

}  // namespace

struct delta_stepping_workspace {
  explicit delta_stepping_workspace(vertex_t n, unsigned members)
      : labels(new std::atomic<std::uint64_t>[n]),
        light_tag(new std::atomic<std::uint32_t>[n]),
        heavy_tag(new std::atomic<std::uint32_t>[n]),
        threads(members) {}
  std::unique_ptr<std::atomic<std::uint64_t>[]> labels;
  std::unique_ptr<std::atomic<std::uint32_t>[]> light_tag, heavy_tag;
  std::vector<thread_state> threads;
  std::atomic<std::size_t> next_chunk{0};
  double max_weight = 0;
};

double auto_delta(const csr_view& g) {
  if (g.num_arcs() == 0 || g.num_vertices == 0) return 1;
  double sum = 0;
  if (g.kind == graph::weight_kind::integer)
    for (std::uint32_t w : g.int_weights) sum += w;
  else
    for (float w : g.real_weights) sum += w;
  const double mean_weight = sum / static_cast<double>(g.num_arcs());
  const double mean_degree = static_cast<double>(g.num_arcs()) / g.num_vertices;
  const double delta = 256 * mean_weight / (mean_degree * mean_degree * mean_degree);
  if (g.kind == graph::weight_kind::integer) return std::max(1.0, std::floor(delta));
  return delta > 0 ? delta : 1;
}

delta_stepping_cpu::delta_stepping_cpu(const csr_view& g, unsigned threads)
    : g_(g), pool_(threads), work_(std::make_unique<delta_stepping_workspace>(g.num_vertices, pool_.size())) {
  if (g.kind == graph::weight_kind::integer) {
    for (std::uint32_t w : g.int_weights) work_->max_weight = std::max<double>(work_->max_weight, w);
  } else {
    for (float w : g.real_weights) work_->max_weight = std::max<double>(work_->max_weight, w);
  }
}

delta_stepping_cpu::~delta_stepping_cpu() = default;

namespace {

template <class Policy>
class parallel_run {
  using distance = typename Policy::distance;

 public:
  parallel_run(const csr_view& g, delta_stepping_workspace& w, thread_pool& pool, double delta, double cutoff)
      : g_(g), w_(w), pool_(pool), policy_(g), delta_(delta),
        last_bucket_(std::isinf(cutoff) ? no_bucket : bucket_of(static_cast<distance>(std::min(cutoff, 4294967294.0)))) {
    const double reach = std::floor(w.max_weight / delta) + 2;  // buckets one arc can span
    window_ = static_cast<std::uint64_t>(std::clamp(4 * reach, 64.0, double(max_window)));
  }

  void run(vertex_t source, statistics& st) {
    pool_.run([&](unsigned t) { member(t, source, st); });
    for (const thread_state& s : w_.threads) {
      st.edges_relaxed += s.edges;
      st.vertices_processed += s.processed;
      dropped_ = dropped_ || s.dropped;
    }
  }

  bool dropped() const { return dropped_; }

 private:
  std::uint64_t bucket_of(distance d) const {
    if constexpr (std::is_integral_v<distance>) {
      return d / static_cast<std::uint64_t>(delta_);
    } else {
      double k = std::floor(double{d} / delta_);
      return k >= double(last_bucket) ? last_bucket : static_cast<std::uint64_t>(k);
    }
  }
  distance distance_of(vertex_t v) const {
    return from_bits<distance>(static_cast<std::uint32_t>(w_.labels[v].load(std::memory_order_relaxed) >> 32));
  }

  void file(thread_state& me, vertex_t v, std::uint64_t k, std::uint64_t base) {
    if (k - base < window_)
      me.bins[k % window_].push_back(v);
    else
      me.far.push_back(v);
  }

  void relax(thread_state& me, vertex_t u, distance du, edge_t e, std::uint64_t base) {
    ++me.edges;
    distance candidate;
    if (!policy_.extend(du, e, candidate)) {
      me.dropped = true;
      return;
    }
    const vertex_t v = g_.targets[e];
    const std::uint32_t cb = bits_of(candidate);
    const std::uint64_t label = (std::uint64_t{cb} << 32) | u;
    std::uint64_t old = w_.labels[v].load(std::memory_order_relaxed);
    while ((old >> 32) > cb) {
      if (w_.labels[v].compare_exchange_weak(old, label, std::memory_order_relaxed)) {
        file(me, v, bucket_of(candidate), base);
        return;
      }
    }
  }

  // Light arcs of u if its distance lies in bucket b and they were not relaxed at that distance.
  void relax_light(thread_state& me, vertex_t u, std::uint64_t b, std::uint64_t base) {
    const distance du = distance_of(u);
    if (bucket_of(du) != b) return;
    const std::uint32_t db = bits_of(du);
    if (w_.light_tag[u].exchange(db, std::memory_order_relaxed) == db) return;
    ++me.processed;
    me.settled.push_back(u);
    for (edge_t e = g_.offsets[u]; e < g_.offsets[u + 1]; ++e)
      if (policy_.weight(e) <= delta_) relax(me, u, du, e, base);
  }

  void relax_heavy(thread_state& me, vertex_t u, std::uint64_t base) {
    const distance du = distance_of(u);
    const std::uint32_t db = bits_of(du);
    if (w_.heavy_tag[u].exchange(db, std::memory_order_relaxed) == db) return;
    for (edge_t e = g_.offsets[u]; e < g_.offsets[u + 1]; ++e)
      if (policy_.weight(e) > delta_) relax(me, u, du, e, base);
  }

  // Relaxes light arcs of the union of every thread's `current`, claimed in chunks.
  void light_round(thread_state& me, std::uint64_t b, std::uint64_t base, const std::vector<std::size_t>& starts) {
    const std::size_t total = starts.back();
    for (;;) {
      std::size_t first = w_.next_chunk.fetch_add(chunk, std::memory_order_relaxed);
      if (first >= total) return;
      std::size_t last = std::min(total, first + chunk);
      std::size_t s = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), first) - starts.begin()) - 1;
      for (std::size_t i = first; i < last; ++i) {
        while (i >= starts[s + 1]) ++s;
        relax_light(me, w_.threads[s].current[i - starts[s]], b, base);
      }
    }
  }

  // A round too small to pay for a barrier: the leader relaxes the union of every thread's
  // `current`, then keeps emptying bucket b on its own while the rounds stay small.
  void light_rounds_alone(thread_state& me, std::uint64_t b, std::uint64_t base) {
    for (const thread_state& s : w_.threads)
      for (vertex_t u : s.current) relax_light(me, u, b, base);
    // Later rounds go through `alone`, not `current`: the other threads may still be reading the
    // sizes of every `current` to make the same small-round decision.
    for (;;) {
      std::vector<vertex_t>& bin = me.bins[b % window_];
      if (bin.empty() || bin.size() >= alone_limit) return;
      me.alone.clear();
      std::swap(me.alone, bin);
      for (vertex_t u : me.alone) relax_light(me, u, b, base);
    }
  }

  void member(unsigned t, vertex_t source, statistics& st) {
    const unsigned members = pool_.size();
    thread_state& me = w_.threads[t];
    const bool leader = t == 0;
    const std::uint32_t infinity_bits = bits_of(Policy::infinity);
    const std::uint64_t unreached = (std::uint64_t{infinity_bits} << 32) | graph::invalid_vertex;
    const vertex_t n = g_.num_vertices;
    for (vertex_t v = static_cast<vertex_t>(std::uint64_t{n} * t / members);
         v < static_cast<vertex_t>(std::uint64_t{n} * (t + 1) / members); ++v) {
      w_.labels[v].store(unreached, std::memory_order_relaxed);
      w_.light_tag[v].store(infinity_bits, std::memory_order_relaxed);
      w_.heavy_tag[v].store(infinity_bits, std::memory_order_relaxed);
    }
    me.bins.resize(window_);
    for (auto& bin : me.bins) bin.clear();
    me.far.clear();
    me.settled.clear();
    me.edges = me.processed = 0;
    me.dropped = false;
    std::uint64_t base = 0, b = 0;
    std::vector<std::size_t> starts(members + 1);
    clock_type::time_point phase = clock_type::now();
    pool_.barrier();  // every label is reset before the source's is set
    if (leader) {
      w_.labels[source].store((std::uint64_t{bits_of(Policy::zero)} << 32) | graph::invalid_vertex);
      me.bins[0].push_back(source);
    }

    for (;;) {
      if (leader) ++st.iterations;
      for (;;) {  // light rounds until bucket b stays empty
        me.current.clear();
        std::swap(me.current, me.bins[b % window_]);
        if (leader) w_.next_chunk.store(0, std::memory_order_relaxed);
        pool_.barrier();
        for (unsigned s = 0; s < members; ++s) starts[s + 1] = starts[s] + w_.threads[s].current.size();
        if (starts.back() == 0) break;
        if (leader) {
          st.max_queue = std::max<std::uint64_t>(st.max_queue, starts.back());
          st.frontier_ms += ms_since(phase);
          phase = clock_type::now();
        }
        if (members == 1 || starts.back() < alone_limit) {
          if (leader) light_rounds_alone(me, b, base);  // the others wait at the barrier below
        } else {
          light_round(me, b, base, starts);
        }
        pool_.barrier();
        if (leader) {
          st.relax_ms += ms_since(phase);
          phase = clock_type::now();
        }
      }
      // Heavy arcs, of few vertices on the leader alone. The settled lists are only read until
      // the barrier, so every thread sees the same total; each clears its own afterwards.
      std::size_t settled = 0;
      for (const thread_state& s : w_.threads) settled += s.settled.size();
      if (settled >= alone_limit) {
        for (vertex_t u : me.settled) relax_heavy(me, u, base);
      } else if (leader) {
        for (const thread_state& s : w_.threads)
          for (vertex_t u : s.settled) relax_heavy(me, u, base);
      }
      pool_.barrier();
      me.settled.clear();
      if (leader) {
        st.relax_ms += ms_since(phase);
        phase = clock_type::now();
      }

      // The next bucket: the smallest non-empty one left in the window, else a new window.
      me.near_min = no_bucket;
      for (std::uint64_t k = b; k < base + window_; ++k)
        if (!me.bins[k % window_].empty()) {
          me.near_min = k;
          break;
        }
      pool_.barrier();
      std::uint64_t next = no_bucket;
      for (const thread_state& s : w_.threads) next = std::min(next, s.near_min);
      if (next != no_bucket && next > last_bucket_) break;  // past the cutoff: every thread sees the same next
      if (next == no_bucket) {
        me.far_min = no_bucket;
        for (vertex_t v : me.far)
          if (pending(v)) me.far_min = std::min(me.far_min, bucket_of(distance_of(v)));
        pool_.barrier();
        for (const thread_state& s : w_.threads) next = std::min(next, s.far_min);
        if (next == no_bucket || next > last_bucket_) break;
        base = next;
        std::size_t kept = 0;
        for (vertex_t v : me.far) {
          if (!pending(v)) continue;
          std::uint64_t k = bucket_of(distance_of(v));
          if (k - base < window_)
            me.bins[k % window_].push_back(v);
          else
            me.far[kept++] = v;
        }
        me.far.resize(kept);
      }
      b = next;
    }
    if (leader) st.frontier_ms += ms_since(phase);
  }

  // A filed vertex still needs work unless its light arcs were relaxed at its current distance.
  bool pending(vertex_t v) const {
    return w_.light_tag[v].load(std::memory_order_relaxed) != bits_of(distance_of(v));
  }

  const csr_view& g_;
  delta_stepping_workspace& w_;
  thread_pool& pool_;
  Policy policy_;
  double delta_;
  std::uint64_t last_bucket_;  // the cutoff's bucket; no_bucket: none
  std::uint64_t window_ = 0;
  bool dropped_ = false;
};

}  // namespace

result delta_stepping_cpu::run(vertex_t source, double delta, bool predecessors, double cutoff) {
  if (std::isnan(delta) || delta < 0) throw std::invalid_argument("delta must be positive (or 0 for auto), got " + std::to_string(delta));
  if (delta == 0) delta = auto_delta(g_);
  if (g_.kind == graph::weight_kind::integer) delta = std::max(1.0, std::floor(delta));

  result r;
  r.kind = g_.kind;
  statistics& st = r.stats;
  st.strategy = strategy_name(strategy::delta_stepping_cpu);
  st.device = "cpu (" + std::to_string(threads()) + (threads() == 1 ? " thread)" : " threads)");
  st.delta = delta;
  auto start = clock_type::now();
  with_distances(g_, [&](const auto& policy) {
    using P = std::decay_t<decltype(policy)>;
    parallel_run<P> solve(g_, *work_, pool_, delta, cutoff);
    solve.run(source, st);
    auto& dist = P::of(r);
    dist.resize(g_.num_vertices);
    if (predecessors) r.predecessors.resize(g_.num_vertices);
    for (vertex_t v = 0; v < g_.num_vertices; ++v) {
      std::uint64_t label = work_->labels[v].load(std::memory_order_relaxed);
      dist[v] = from_bits<typename P::distance>(static_cast<std::uint32_t>(label >> 32));
      if (predecessors) r.predecessors[v] = static_cast<vertex_t>(label);
    }
    if (solve.dropped() && !cutoff_below_overflow(g_.kind, cutoff)) {
      vertex_t v = overflowed_vertex(g_, dist, P::infinity);
      if (v != graph::invalid_vertex) throw_overflow(g_, source, v);
    }
  });
  st.milliseconds = std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
  return r;
}

}  // namespace deltasplit::sssp::detail
