// Contraction hierarchies (Geisberger, Sanders, Schultes and Delling, WEA 2008) and the CPU PHAST
// sweep (Delling, Goldberg, Nowatzyk and Werneck, IPDPS 2011). The layout and the meaning of every
// array are described in contraction_hierarchy.hpp.
//
// Exactness. A shortcut u -> w (via v) is left out only when a witness path u ~> w avoiding v of
// length <= w(u, v) + w(v, w) was found in the remaining graph; a search cut short by its limits
// adds the shortcut. So contracting v keeps every distance among the remaining vertices, zero
// weights and zero-weight cycles included (a witness of equal length is as good as the via-path,
// and it stays in the graph). Integer shortcut weights are 64-bit sums saturated at too_long: a
// path of length <= 2^32 - 2 never uses a saturated arc (each is longer), so such paths and their
// witnesses are exact, and a longer one still leaves its endpoints connected, which is all the
// overflow check of the sweep needs (see phast_cpu).
#include "sssp/contraction_hierarchy.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include "deltasplit/sssp.hpp"
#include "sssp/distance_policy.hpp"
#include "sssp/graph_check.hpp"
#include "sssp/thread_pool.hpp"

namespace deltasplit::sssp::detail {

namespace {

// The contraction's tuning constants, measured on the 2-core build machine (Release, one thread;
// the tables: bench/results/phast.md, "The contraction's tuning").
// A settled-vertex limit does not bound the work on social graphs, where settling a hub scans
// thousands of arcs: the witness searches are limited by arcs scanned instead, which cut the
// build several-fold on road and social graphs alike, with a limit on the pairs a vertex's
// contraction tests and a core left uncontracted. PHAST per source stays the same throughout (the
// sweep dominates; the upward search settles about the core).
// The core rule: the contraction stops when the remaining graph's mean degree passes 24, unless
// it has at most an arc floor of arcs. A road network's last vertices are few but dense:
// contracting them costs little and shortens the upward search, which every PHAST query pays on
// the host. The arc floor bounds that extra work by the remaining graph's size, which a degree
// bound alone does not (a social graph contracted to the end takes orders of magnitude longer);
// slashdot passes degree 24 with far more arcs than the floor and stops there, and Enron goes on
// only until the floor.
//
// A witness search stops after scanning this many arcs (then the shortcut is added).
constexpr std::size_t contract_scan_limit = 2000;
// Contraction stops, leaving the rest as the core, when the remaining graph's mean out-degree
// passes core_mean_degree while it still has more than core_arc_floor arcs: past that degree each
// contraction adds more arcs than it removes and the searches grow, which only a small remaining
// graph can afford (NY and FLA contract fully; slashdot keeps 32042 of 82168 vertices).
constexpr double core_mean_degree = 24;
constexpr std::uint64_t core_arc_floor = 262144;
// Priority = edge_difference_weight * (shortcuts - arcs removed) + contracted neighbours + level
// (Geisberger et al. Section 3: edge difference, uniformity; the level spreads contraction evenly).
// The shortcuts are estimated, not counted by a simulated contraction: the simulations' witness
// searches (one from each in-neighbour, again whenever a neighbour is contracted) were most of the
// build's searches (bench/results/phast.md, "Priorities without simulated contractions"). On a
// graph of at most two_arc_mean_degree arcs a vertex the estimate is the pairs of neighbours
// without a witness of at most two arcs, found without a heap: road networks, one-way streets or
// not, get less than half the levels and smaller upward searches than with every pair counted,
// and on many threads build faster (fewer rounds). Denser graphs count every in x out pair: on
// social and citation graphs the two-arc count lengthened the builds 1.7-3x for hierarchies no
// better or worse (bench/results/phast.md, "The two-arc count against the other priorities").
constexpr std::int64_t edge_difference_weight = 2;
// Arcs a vertex (after merging parallel arcs) up to which a graph's priorities take the two-arc
// count: roads have 2-3, the social and citation graphs measured 10-12.
constexpr double two_arc_mean_degree = 6;
// The two-arc count of one vertex reads at most this many arcs; past that its estimate is every
// pair (a dense core's vertices, a social graph's hubs). Measured against other limits in the
// same section.
constexpr std::size_t two_arc_scan_limit = 16000;
// Vertices a thread takes at a time from a round's list (witness searches or priority evaluations).
constexpr std::size_t parallel_chunk = 16;

template <class Weight>
struct arithmetic;

template <>
struct arithmetic<std::uint32_t> {
  using sum = std::uint64_t;
  static constexpr sum limit = max_int_distance;  // the largest distance that fits
  static constexpr sum unreached = std::numeric_limits<sum>::max();
  static std::uint32_t shortcut(std::uint32_t a, std::uint32_t b) {
    sum s = sum{a} + b;
    return s >= contraction_hierarchy<std::uint32_t>::too_long ? contraction_hierarchy<std::uint32_t>::too_long
                                                               : static_cast<std::uint32_t>(s);
  }
  static constexpr const char* overflow = "2^32 - 2 (integer distances are 32-bit)";
  static bool matches(const csr_view& g) { return g.kind == graph::weight_kind::integer && !g.wide(); }
};

template <>
struct arithmetic<std::uint64_t> {
  using sum = uint128;
  static constexpr sum limit = distance_limits<std::uint64_t>::max_finite;  // the largest distance that fits
  static constexpr sum unreached = ~uint128{0};
  static constexpr const char* overflow = "2^64 - 2 (integer distances are 64-bit)";
  static std::uint64_t shortcut(std::uint64_t a, std::uint64_t b) {
    const sum s = sum{a} + b;
    return s >= contraction_hierarchy<std::uint64_t>::too_long ? contraction_hierarchy<std::uint64_t>::too_long
                                                               : static_cast<std::uint64_t>(s);
  }
  static bool matches(const csr_view& g) { return g.kind == graph::weight_kind::integer && g.wide(); }
};

template <>
struct arithmetic<float> {
  using sum = float;
  static constexpr sum limit = std::numeric_limits<float>::max();
  static constexpr sum unreached = std::numeric_limits<float>::infinity();
  static float shortcut(float a, float b) { return a + b; }  // +inf (too_long) when it rounds there
  static constexpr const char* overflow = "the largest float";
  static bool matches(const csr_view& g) { return g.kind == graph::weight_kind::real && !g.wide(); }
};

template <class Weight>
struct arc {
  vertex_t to;
  Weight weight;
};

// Where the lists that outgrow their place keep their arcs: blocks cut from chunks of a MiB, one
// arena a thread (no lock), released together with the contractor. A block a list outgrows is not
// reused: the lists grow by doubling, so what is left behind is at most what is in use.
class block_arena {
 public:
  template <class T>
  T* allocate(std::size_t n) {
    const std::size_t bytes = (n * sizeof(T) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
                              alignof(std::max_align_t);
    if (bytes > left_) {
      const std::size_t size = std::max(bytes, chunk_bytes);
      chunks_.push_back(std::unique_ptr<unsigned char[]>(new unsigned char[size]));
      next_ = chunks_.back().get();
      left_ = size;
    }
    T* block = reinterpret_cast<T*>(next_);
    next_ += bytes;
    left_ -= bytes;
    return block;
  }

 private:
  static constexpr std::size_t chunk_bytes = std::size_t{1} << 20;
  std::vector<std::unique_ptr<unsigned char[]>> chunks_;
  unsigned char* next_ = nullptr;
  std::size_t left_ = 0;
};

// A vertex's arcs in one direction: up to Inline of them in place, more in a block of an arena
// that doubles. A road network's vertices keep a handful of arcs through most of the contraction,
// so their lists take no block and a list's arcs share the cache line of its size; the witness
// searches and priority counts, which read lists of vertices all over the graph, then follow
// no pointer, and no list is allocated or freed on its own (bench/results/phast.md, "In-place arc
// lists").
template <class T, std::uint32_t Inline>
class arc_list {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  arc_list() = default;
  arc_list(arc_list&& other) noexcept : size_(other.size_), capacity_(other.capacity_) {
    if (other.on_heap())
      heap_ = other.heap_;
    else
      std::copy(other.inline_, other.inline_ + size_, inline_);
    other.size_ = 0;
    other.capacity_ = Inline;
  }
  arc_list(const arc_list&) = delete;
  arc_list& operator=(const arc_list&) = delete;
  arc_list& operator=(arc_list&&) = delete;
  T* begin() { return on_heap() ? heap_ : inline_; }
  T* end() { return begin() + size_; }
  const T* begin() const { return on_heap() ? heap_ : inline_; }
  const T* end() const { return begin() + size_; }
  std::size_t size() const { return size_; }
  void reserve(std::size_t n, block_arena& arena) {
    if (n > capacity_) move_to(n, arena);
  }
  void push_back(const T& x, block_arena& arena) {
    if (size_ == capacity_) move_to(2 * std::size_t{capacity_}, arena);
    begin()[size_++] = x;
  }
  // Drops [first, end()): the tail std::remove_if leaves.
  void erase(T* first, T*) { size_ = static_cast<std::uint32_t>(first - begin()); }

 private:
  bool on_heap() const { return capacity_ > Inline; }
  void move_to(std::size_t capacity, block_arena& arena) {
    if (capacity > 0xFFFFFFFFu) throw std::length_error("the contraction holds at most 2^32 - 1 arcs a vertex");
    T* block = arena.allocate<T>(capacity);
    std::copy(begin(), end(), block);
    heap_ = block;
    capacity_ = static_cast<std::uint32_t>(capacity);
  }
  union {
    T inline_[Inline];
    T* heap_;
  };
  std::uint32_t size_ = 0, capacity_ = Inline;
};

// Member t's block [begin, end) of `count` items cut into `parts` blocks in order (empty for a
// member past them): how the contraction's jobs share a list, so that what the blocks produce,
// joined in member order, is in the list's order.
struct block {
  std::size_t begin, end;
};
inline block block_of_member(std::size_t count, std::size_t t, std::size_t parts) {
  if (t >= parts) return {count, count};
  return {count * t / parts, count * (t + 1) / parts};
}

// n objects of a trivially destructible T, constructed a block of indices a thread: the remaining
// graph's 2n lists are most of the contraction's memory, and their construction (the pages' first
// touch) by one thread would be most of the constructor on many cores (bench/results/phast.md,
// "The contraction's serial steps on 16 cores").
template <class T>
class parallel_array {
  static_assert(std::is_trivially_destructible_v<T>);

 public:
  void create(std::size_t n, thread_pool& pool) {
    data_.reset(static_cast<T*>(::operator new(std::max<std::size_t>(n, 1) * sizeof(T))));
    const std::size_t parts = pool.size();
    pool.run([&](unsigned t) {
      const block b = block_of_member(n, t, parts);
      for (std::size_t i = b.begin; i < b.end; ++i) new (data_.get() + i) T();
    });
  }
  T& operator[](std::size_t i) { return data_.get()[i]; }
  const T& operator[](std::size_t i) const { return data_.get()[i]; }

 private:
  struct release {
    void operator()(T* p) const { ::operator delete(p); }
  };
  std::unique_ptr<T, release> data_;
};

// The remaining graph during contraction, in both directions. Once a vertex is contracted its own
// lists are frozen: out[v] then holds its up arcs and in[v] its down in-arcs (every neighbour it
// had was still uncontracted, so of a higher rank).
template <class Weight>
struct remaining_graph {
  using list = arc_list<arc<Weight>, 4>;
  parallel_array<list> out, in;
  std::vector<char> contracted;
};

// A witness search's queue: a 4-ary min-heap of (distance, vertex) pairs in that order. The
// order is total (a vertex is pushed again only with a smaller distance), so any min-heap of it
// pops the same sequence and the hierarchy does not change; four children a node make it half as
// deep as a binary heap, whose sift-downs were a sixth of the contraction's time
// (bench/results/phast.md, "The contraction's serial steps on 16 cores").
template <class Sum>
class search_heap {
 public:
  struct item {
    Sum d;
    vertex_t x;
  };

  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }

  // Items move field by field, never as 16-byte copies: a 16-byte load of an item whose fields
  // were just stored one by one cannot take them from the store buffer and waits for the stores
  // to complete (bench/results/phast.md, "The witness search's heap, field by field").
  void push(Sum d, vertex_t x) {
    std::size_t i = items_.size();
    items_.emplace_back();
    while (i > 0) {
      const std::size_t parent = (i - 1) / arity;
      if (!before(d, x, items_[parent])) break;
      move(i, parent);
      i = parent;
    }
    items_[i].d = d;
    items_[i].x = x;
  }

  item pop() {
    const item top{items_.front().d, items_.front().x};
    const Sum last_d = items_.back().d;
    const vertex_t last_x = items_.back().x;
    items_.pop_back();
    const std::size_t n = items_.size();
    if (n == 0) return top;
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = arity * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      for (std::size_t c = first + 1; c < std::min(first + arity, n); ++c)
        if (before(items_[c].d, items_[c].x, items_[best])) best = c;
      if (!before(items_[best].d, items_[best].x, item{last_d, last_x})) break;
      move(i, best);
      i = best;
    }
    items_[i].d = last_d;
    items_[i].x = last_x;
    return top;
  }

 private:
  static bool before(Sum d, vertex_t x, const item& o) { return d < o.d || (d == o.d && x < o.x); }
  void move(std::size_t to, std::size_t from) {
    items_[to].d = items_[from].d;
    items_[to].x = items_[from].x;
  }
  static constexpr std::size_t arity = 4;
  std::vector<item> items_;
};

// A Dijkstra from one vertex over the remaining graph that avoids the vertex being contracted,
// bounded by the longest via-path and a limit on the arcs it scans. It stops as soon as every target is
// decided: witnessed (reached within its via-path's length) or settled beyond it. dist[] keeps
// tentative distances afterwards: a tentative distance is the length of a real path, so it is a
// witness as good as a settled one.
template <class Weight>
class witness_search {
 public:
  using sum = typename arithmetic<Weight>::sum;

  // For graphs of n vertices; the thread that will run the searches calls it (its pages first
  // touched there).
  void allocate(vertex_t n) { slots_.assign(n, slot{}); }

  void mark_target(vertex_t w, Weight via) {
    slot& t = slots_[w];
    if (t.target != stamp_) ++pending_;
    t.target = stamp_;
    t.via = via;
  }
  // True when the search reached w within via, the via-path's length: the shortcut is not needed.
  // (Unreached is +inf for real weights, which a saturated via-path equals; only a reached vertex
  // witnesses.)
  bool witnessed(vertex_t w, Weight via) const {
    const sum d = slots_[w].dist;
    return d != arithmetic<Weight>::unreached && d <= via;
  }

  // Avoids `avoid`, and every vertex x with blocked[x] set. True when the scan limit stopped it
  // with targets undecided.
  bool run(const remaining_graph<Weight>& g, vertex_t from, vertex_t avoid, const std::vector<char>& blocked, sum bound) {
    slots_[from].dist = 0;
    touched_.push_back(from);
    heap_.push(0, from);
    std::size_t scanned = 0;
    while (!heap_.empty() && pending_ > 0 && scanned < contract_scan_limit) {
      const auto [d, x] = heap_.pop();
      if (d > slots_[x].dist) continue;  // a stale entry
      if (d > bound) break;
      decide(slots_[x]);
      scanned += g.out[x].size();
      for (const arc<Weight>& a : g.out[x]) {
        sum s = d + a.weight;
        slot& t = slots_[a.to];
        if (s > bound || !(s < t.dist)) continue;
        if (a.to == avoid || blocked[a.to]) continue;  // read only for an arc that would lower
        if (t.dist == arithmetic<Weight>::unreached) touched_.push_back(a.to);
        t.dist = s;
        heap_.push(s, a.to);
        if (t.target == stamp_ && s <= t.via) decide(t);
      }
    }
    return pending_ > 0 && scanned >= contract_scan_limit;
  }

  // The two-arc test (contractor::evaluate): the vertices one arc from `from` at their distances
  // (and `from` at 0), avoiding `avoid`; adds the arcs read to scanned.
  void one_arc(const remaining_graph<Weight>& g, vertex_t from, vertex_t avoid, std::size_t& scanned) {
    slots_[from].dist = 0;
    touched_.push_back(from);
    scanned += g.out[from].size();
    for (const arc<Weight>& a : g.out[from]) {
      slot& t = slots_[a.to];
      if (a.to == avoid || !(sum{a.weight} < t.dist)) continue;
      if (t.dist == arithmetic<Weight>::unreached) touched_.push_back(a.to);
      t.dist = a.weight;
    }
  }
  // After one_arc(from): a path from `from` to w of one or two arcs within via that avoids `avoid`
  // (the second arc's tail read from w's in-list).
  bool two_arc_witness(const remaining_graph<Weight>& g, vertex_t w, vertex_t avoid, Weight via,
                       std::size_t& scanned) const {
    scanned += g.in[w].size();
    for (const arc<Weight>& a : g.in[w]) {
      const sum d = slots_[a.to].dist;
      if (a.to != avoid && d != arithmetic<Weight>::unreached && d + a.weight <= via) return true;
    }
    return false;
  }

  // Forgets the last search and its targets. The stamp that tells this search's targets from
  // earlier ones starts over, every target cleared, before it would wrap to 0 (never a stamp).
  void clear() {
    for (vertex_t x : touched_) slots_[x].dist = arithmetic<Weight>::unreached;
    touched_.clear();
    heap_.clear();
    pending_ = 0;
    if (++stamp_ == 0) {
      for (slot& t : slots_) t.target = 0;
      stamp_ = 1;
    }
  }

 private:
  // A vertex's search state together, so that a relaxation reads one cache line: its tentative
  // distance, and while it is a target (target == stamp_, undecided) its via-path's length.
  struct slot {
    sum dist = arithmetic<Weight>::unreached;
    Weight via{};
    std::uint32_t target = 0;
  };

  void decide(slot& x) {
    if (x.target != stamp_) return;
    x.target = 0;
    --pending_;
  }

  std::vector<slot> slots_;
  std::uint32_t stamp_ = 1;
  std::size_t pending_ = 0;
  std::vector<vertex_t> touched_;
  search_heap<sum> heap_;
};

template <class Weight>
struct shortcut {
  vertex_t from, to;
  Weight weight;
};

template <class Weight>
class contractor {
 public:
  using sum = typename arithmetic<Weight>::sum;

  contractor(const csr_view& g, unsigned threads) : n_(g.num_vertices), pool_(threads) {
    g_.out.create(n_, pool_);
    g_.in.create(n_, pool_);
    g_.contracted.assign(n_, 0);
    level_.assign(n_, 0);
    contracted_neighbours_.assign(n_, 0);
    // Out-lists a row a thread (parallel arcs merged into the lightest; self-loops never shorten
    // a path), each thread's arcs handed on by the block of their heads; then the in-lists a block
    // of heads a thread, taking the handed-on arcs thread by thread (so the in-lists are in tail
    // order, as one pass would make them); each thread's witness search is allocated by the
    // thread itself.
    const Weight* w = weights_in<Weight>(g);
    const std::size_t parts = pool_.size();
    const auto first = [&](std::size_t t) { return static_cast<vertex_t>(block_of_member(n_, t, parts).begin); };
    const auto block_of = [&](vertex_t v) {
      std::size_t b = std::size_t{v} * parts / std::max<vertex_t>(n_, 1);
      while (b + 1 < parts && first(b + 1) <= v) ++b;
      while (b > 0 && first(b) > v) --b;
      return b;
    };
    struct handed_arc {
      vertex_t from, to;
      Weight weight;
    };
    std::vector<std::vector<std::vector<handed_arc>>> handed(parts, std::vector<std::vector<handed_arc>>(parts));
    searches_.resize(parts);
    pool_.run([&](unsigned t) {
      block_arena& arena = searches_[t].arena;
      for (vertex_t u = first(t); u < first(t + 1); ++u) {
        g_.out[u].reserve(g.offsets[u + 1] - g.offsets[u], arena);
        for (edge_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
          if (g.targets[e] != u) lower_or_append(g_.out[u], g.targets[e], w[e], arena);
        for (const arc<Weight>& a : g_.out[u]) handed[t][block_of(a.to)].push_back({u, a.to, a.weight});
      }
    });
    pool_.run([&](unsigned t) {
      for (std::size_t from = 0; from < parts; ++from) {
        for (const handed_arc& a : handed[from][t]) g_.in[a.to].push_back({a.from, a.weight}, searches_[t].arena);
        std::vector<handed_arc>().swap(handed[from][t]);
      }
      searches_[t].allocate(n_);
    });
    // Symmetric: every vertex's in-arcs are its out-arcs turned around, weights and all.
    std::atomic<bool> asymmetric{false};
    pool_.run([&](unsigned t) {
      const auto by_end = [](const arc<Weight>& a, const arc<Weight>& b) {
        return a.to < b.to || (a.to == b.to && a.weight < b.weight);
      };
      std::vector<arc<Weight>> out, in;
      for (vertex_t u = first(t); u < first(t + 1) && !asymmetric.load(std::memory_order_relaxed); ++u) {
        out.assign(g_.out[u].begin(), g_.out[u].end());
        in.assign(g_.in[u].begin(), g_.in[u].end());
        std::sort(out.begin(), out.end(), by_end);
        std::sort(in.begin(), in.end(), by_end);
        const auto same = [](const arc<Weight>& a, const arc<Weight>& b) { return a.to == b.to && a.weight == b.weight; };
        if (!std::equal(out.begin(), out.end(), in.begin(), in.end(), same)) asymmetric = true;
      }
    });
    symmetric_ = !asymmetric;
    for (vertex_t u = 0; u < n_; ++u) arcs_ += g_.out[u].size();
    count_two_arcs_ = double(arcs_) <= two_arc_mean_degree * double(n_);
    in_round_.assign(n_, 0);
    member_of_.assign(n_, 0);
  }

  // Contracts vertices in rounds until the core condition holds; fills ch. Each round contracts an
  // independent set: the remaining vertices whose (priority, id) is smaller than every remaining
  // neighbour's (Vetter, "Parallel Time-Dependent Contraction Hierarchies", 2009; Geisberger et al.,
  // "Exact Routing in Large Road Networks Using Contraction Hierarchies", Transportation Science
  // 2012, Section 4.1). Their witness searches run in parallel on the graph as the round found it,
  // each avoiding every vertex of the set (so a witness stays in the graph once the set is gone,
  // and no two contractions rely on each other's via-paths: exact even with zero-weight cycles);
  // then the contractions are applied, a neighbour of the set a thread, and once every list is
  // final the neighbours' priorities are evaluated again in parallel. Every step is a function of
  // the graph alone, never of the thread that ran it: the hierarchy is the same for any thread
  // count.
  void contract(contraction_hierarchy<Weight>& ch, const graph::progress_fn& progress) {
    priority_.assign(n_, 0);
    std::vector<vertex_t> remaining(n_), set, neighbours;
    for (vertex_t v = 0; v < n_; ++v) remaining[v] = v;
    evaluate_all(remaining);
    std::vector<per_thread_list> candidates(pool_.size()), kept(pool_.size()), marked(pool_.size());
    std::vector<std::vector<shortcut<Weight>>> found;
    std::vector<std::atomic<std::uint8_t>> neighbour_mark(n_);  // value-initialized: 0
    const auto core_reached = [&] {
      return arcs_ > core_arc_floor && double(arcs_) > core_mean_degree * double(remaining.size());
    };
    while (!remaining.empty() && !core_reached()) {
      if (progress) progress("contracting", n_ - remaining.size(), n_);
      // The independent set, by blocks of `remaining` (sorted), so that it comes out sorted.
      pool_.run([&](unsigned t) {
        const block b = block_of_member(remaining.size(), t, pool_.size());
        candidates[t].list.clear();
        for (std::size_t i = b.begin; i < b.end; ++i)
          if (local_minimum(remaining[i])) candidates[t].list.push_back(remaining[i]);
        pool_.barrier([&] { size_for(candidates, set); });
        copy_part(t, candidates, set);
        for (vertex_t v : candidates[t].list) in_round_[v] = 1;
      });
      if (found.size() < set.size()) found.resize(set.size());
      for_each_parallel(set.size(), [&](std::size_t i, search_state& s) {
        found[i].clear();
        shortcuts_of(set[i], s, in_round_, found[i]);
      });
      // The members contracted and their neighbours marked, a member a thread (a neighbour is
      // never a member: the set is independent); then the rest of the round's bookkeeping in id
      // order. (No lazy update: a priority is an estimate, never the contraction's own count.)
      for_each_parallel(set.size(), [&](std::size_t i, search_state&) {
        const vertex_t v = set[i];
        in_round_[v] = 0;
        g_.contracted[v] = 1;
        member_of_[v] = static_cast<std::uint32_t>(i);
        for (const auto* list : {&g_.out[v], &g_.in[v]})
          for (const auto& a : *list) neighbour_mark[a.to].store(1, std::memory_order_relaxed);
      });
      for (std::size_t i = 0; i < set.size(); ++i) {
        const vertex_t v = set[i];
        order_.push_back(v);
        arcs_ -= g_.out[v].size() + g_.in[v].size();
        shortcuts_ += found[i].size();
      }
      // The remaining vertices less the contracted ones, and the marked neighbours (all of them
      // remaining), both in id order, by blocks of `remaining`; the marks cleared on the way.
      pool_.run([&](unsigned t) {
        const block b = block_of_member(remaining.size(), t, pool_.size());
        kept[t].list.clear();
        marked[t].list.clear();
        for (std::size_t i = b.begin; i < b.end; ++i) {
          const vertex_t x = remaining[i];
          if (g_.contracted[x]) continue;
          kept[t].list.push_back(x);
          if (neighbour_mark[x].load(std::memory_order_relaxed)) {
            marked[t].list.push_back(x);
            neighbour_mark[x].store(0, std::memory_order_relaxed);
          }
        }
        // Every member is done reading `remaining`: the parts go in place.
        pool_.barrier([&] {
          size_for(kept, remaining);
          size_for(marked, neighbours);
        });
        copy_part(t, kept, remaining);
        copy_part(t, marked, neighbours);
      });
      apply_round(neighbours, found);
      evaluate_all(neighbours);
    }
    layout(ch);
    if (progress) progress("contracting", n_, n_);
  }

 private:
  // One a thread, each on cache lines of its own: the searches write their heap's and touched
  // list's ends at every step, and neighbouring states on shared lines made the threads' searches
  // wait on each other (bench/results/phast.md, "In-place arc lists").
  struct alignas(128) search_state : witness_search<Weight> {
    std::uint64_t count = 0;
    block_arena arena;  // the blocks of the lists this thread grows
    std::vector<vertex_t> members;  // apply_round's scratch
    std::vector<shortcut<Weight>> reverse;  // shortcuts_of's scratch
  };

  // The shortcuts contracting v needs, into found: for each in-neighbour u, one witness search
  // bounded by the longest via-path from u that avoids v and the round's other members (blocked),
  // then u -> w for every out-neighbour w it did not reach within w(u, v) + w(v, w). On a
  // symmetric graph a pair of neighbours is searched once, from the lower id: a witness u ~> w
  // turned around is one w ~> u of the same length, and the via-paths' lengths are equal, so
  // either both shortcuts are added or neither, and the remaining graph stays symmetric (road
  // networks: about half the searches). A pair that a search cut by its scan limit left
  // unwitnessed is searched again from its other end (a hub's search from one side can fail where
  // the other side's succeeds), and a witness found there serves both directions as well.
  void shortcuts_of(vertex_t v, search_state& s, const std::vector<char>& blocked, std::vector<shortcut<Weight>>& found) {
    s.reverse.clear();
    for (const auto& in : g_.in[v]) {
      const vertex_t u = in.to;
      sum bound = 0;
      bool any = false;
      for (const auto& out : g_.out[v]) {
        if (!decided_from(u, out.to)) continue;
        const Weight via = arithmetic<Weight>::shortcut(in.weight, out.weight);
        bound = std::max<sum>(bound, via);
        s.mark_target(out.to, via);
        any = true;
      }
      if (!any) continue;
      const bool cut = s.run(g_, u, v, blocked, bound);
      ++s.count;
      for (const auto& out : g_.out[v]) {
        if (!decided_from(u, out.to)) continue;
        const Weight via = arithmetic<Weight>::shortcut(in.weight, out.weight);
        if (s.witnessed(out.to, via)) continue;
        if (symmetric_ && cut) {
          s.reverse.push_back({out.to, u, via});
          continue;
        }
        found.push_back({u, out.to, via});
        if (symmetric_) found.push_back({out.to, u, via});
      }
      s.clear();
    }
    // The cut searches' unwitnessed pairs turned around, one search from each of their other ends.
    std::sort(s.reverse.begin(), s.reverse.end(), [](const shortcut<Weight>& a, const shortcut<Weight>& b) {
      return a.from < b.from || (a.from == b.from && a.to < b.to);
    });
    for (std::size_t i = 0; i < s.reverse.size();) {
      std::size_t end = i;
      sum bound = 0;
      for (; end < s.reverse.size() && s.reverse[end].from == s.reverse[i].from; ++end) {
        bound = std::max<sum>(bound, s.reverse[end].weight);
        s.mark_target(s.reverse[end].to, s.reverse[end].weight);
      }
      s.run(g_, s.reverse[i].from, v, blocked, bound);
      ++s.count;
      for (; i < end; ++i) {
        const shortcut<Weight>& c = s.reverse[i];
        if (s.witnessed(c.to, c.weight)) continue;
        found.push_back({c.to, c.from, c.weight});
        found.push_back(c);
      }
      s.clear();
    }
  }

  std::int64_t priority_of(vertex_t v, std::uint64_t added) const {
    const std::int64_t removed = std::int64_t(g_.in[v].size() + g_.out[v].size());
    return edge_difference_weight * (std::int64_t(added) - removed) + contracted_neighbours_[v] + level_[v];
  }

  // Whether the pair u -> w of a vertex's neighbours is tested from u: every pair of two vertices,
  // on a symmetric graph from its lower end only (the answer holds for both directions).
  bool decided_from(vertex_t u, vertex_t w) const { return w != u && (!symmetric_ || u < w); }

  // The shortcuts' count in v's priority. On a sparse graph: the pairs of v's neighbours without a
  // witness of at most two arcs that avoids v (no heap; the arcs it reads bounded by
  // two_arc_scan_limit, past which it is every pair), on a symmetric one each pair tested from its
  // lower end and counted for both directions. Otherwise every pair.
  std::int64_t evaluate(vertex_t v, search_state& s) {
    const std::uint64_t pairs = std::uint64_t(g_.in[v].size()) * g_.out[v].size();
    if (!count_two_arcs_) return priority_of(v, pairs);
    std::uint64_t unwitnessed = 0;
    std::size_t scanned = 0;
    for (const auto& in : g_.in[v]) {
      const vertex_t u = in.to;
      if (scanned + g_.out[u].size() > two_arc_scan_limit) return priority_of(v, pairs);
      s.one_arc(g_, u, v, scanned);
      for (const auto& out : g_.out[v]) {
        if (!decided_from(u, out.to)) continue;
        if (scanned + g_.in[out.to].size() > two_arc_scan_limit) {
          s.clear();
          return priority_of(v, pairs);
        }
        if (!s.two_arc_witness(g_, out.to, v, arithmetic<Weight>::shortcut(in.weight, out.weight), scanned))
          unwitnessed += symmetric_ ? 2 : 1;
      }
      s.clear();
    }
    return priority_of(v, unwitnessed);
  }

  // (priority, id) of v below that of every remaining neighbour.
  bool local_minimum(vertex_t v) const {
    const auto below = [&](const arc<Weight>& a) {
      return priority_[v] < priority_[a.to] || (priority_[v] == priority_[a.to] && v < a.to);
    };
    return std::all_of(g_.out[v].begin(), g_.out[v].end(), below) &&
           std::all_of(g_.in[v].begin(), g_.in[v].end(), below);
  }

  // A thread's part of a list built by blocks, on cache lines of its own (its end moves at every
  // push).
  struct alignas(128) per_thread_list {
    std::vector<vertex_t> list;
  };

  // The threads' parts one after the other into `into`, in a pool job: the barrier's last member
  // sizes `into` (size_for), then each member copies its own part (copy_part).
  static void size_for(const std::vector<per_thread_list>& parts, std::vector<vertex_t>& into) {
    std::size_t total = 0;
    for (const auto& p : parts) total += p.list.size();
    into.resize(total);
  }
  static void copy_part(unsigned t, const std::vector<per_thread_list>& parts, std::vector<vertex_t>& into) {
    std::size_t at = 0;
    for (unsigned i = 0; i < t; ++i) at += parts[i].list.size();
    std::copy(parts[t].list.begin(), parts[t].list.end(), into.begin() + static_cast<std::ptrdiff_t>(at));
  }

  // job(i, the thread's search) for i in [0, count), handed out in chunks as threads get free.
  template <class Job>
  void for_each_parallel(std::size_t count, const Job& job) {
    std::atomic<std::size_t> next{0};
    pool_.run([&](unsigned t) {
      for (std::size_t begin; (begin = next.fetch_add(parallel_chunk)) < count;)
        for (std::size_t i = begin; i < std::min(count, begin + parallel_chunk); ++i) job(i, searches_[t]);
    });
    for (auto& s : searches_) witness_searches_ += s.count, s.count = 0;
  }

  void evaluate_all(const std::vector<vertex_t>& vertices) {
    for_each_parallel(vertices.size(),
                      [&](std::size_t i, search_state& s) { priority_[vertices[i]] = evaluate(vertices[i], s); });
  }

  // Applies a round's contractions to the lists of the members' neighbours, one thread a
  // neighbour x: every arc between x and a member leaves x's lists and raises x's level above the
  // member's (PHAST Section 4.1: every neighbour is now above it), and the shortcuts from x and to
  // x are added to its out- and in-list (a new arc appended, an existing one lowered), taken from
  // its members' shortcut lists in id order (found[member_of_[v]], each in its own order: a
  // shortcut u -> w via v has u and w among v's neighbours). Shortcuts join members'
  // neighbours, never members, so this gives the lists that contracting the members one after the
  // other would give, for any thread count.
  void apply_round(const std::vector<vertex_t>& neighbours, const std::vector<std::vector<shortcut<Weight>>>& found) {
    const std::size_t k = neighbours.size();
    added_.assign(k, 0);
    for_each_parallel(k, [&](std::size_t j, search_state& s) {
      const vertex_t x = neighbours[j];
      std::vector<vertex_t>& members = s.members;  // x's neighbours contracted this round
      members.clear();
      for (auto* list : {&g_.out[x], &g_.in[x]}) {
        for (const auto& a : *list)
          if (g_.contracted[a.to]) {  // earlier rounds' members have left x's lists: this round's
            level_[x] = std::max(level_[x], level_[a.to] + 1);
            ++contracted_neighbours_[x];
            members.push_back(a.to);
          }
        list->erase(std::remove_if(list->begin(), list->end(), [&](const arc<Weight>& a) { return g_.contracted[a.to]; }),
                    list->end());
      }
      std::sort(members.begin(), members.end());
      members.erase(std::unique(members.begin(), members.end()), members.end());
      for (const vertex_t v : members)
        for (const shortcut<Weight>& sc : found[member_of_[v]])
          if (sc.from == x) added_[j] += lower_or_append(g_.out[x], sc.to, sc.weight, s.arena);
      for (const vertex_t v : members)
        for (const shortcut<Weight>& sc : found[member_of_[v]])
          if (sc.to == x) lower_or_append(g_.in[x], sc.from, sc.weight, s.arena);
    });
    for (std::uint32_t a : added_) arcs_ += a;
  }

  // The arc to `to` in list lowered to weight, or appended when the list has none; true when appended.
  static bool lower_or_append(typename remaining_graph<Weight>::list& list, vertex_t to, Weight weight,
                              block_arena& arena) {
    for (auto& a : list)
      if (a.to == to) {
        if (weight < a.weight) a.weight = weight;
        return false;
      }
    list.push_back({to, weight}, arena);
    return true;
  }

  // Positions: the core first (level 0), then the contracted vertices by decreasing level, by id
  // within a level.
  void layout(contraction_hierarchy<Weight>& ch) {
    ch.num_vertices = n_;
    ch.core_size = n_ - static_cast<vertex_t>(order_.size());
    vertex_t top = 0;
    for (vertex_t v : order_) top = std::max(top, level_[v]);
    const vertex_t first = ch.core_size > 0 ? 1 : 0;
    const auto sweep_level = [&](vertex_t v) { return g_.contracted[v] ? first + top - level_[v] : vertex_t{0}; };
    const std::size_t levels = std::size_t{first} + top + 1;
    // Each block of ids counts its vertices a sweep level, and a level's positions go to the blocks
    // in order, so that within a level they are in id order, as one pass would place them (one
    // block when the levels are so many that the counts would outweigh the graph).
    const std::size_t parts = levels * pool_.size() <= 4 * std::size_t{n_} + 4096 ? pool_.size() : 1;
    // [block][level], each block's counts 128 bytes longer, so that no two blocks' share a line.
    std::vector<std::vector<vertex_t>> next(parts, std::vector<vertex_t>(levels + 32, 0));
    ch.position_of.resize(n_);
    ch.vertex_at.resize(n_);
    pool_.run([&](unsigned t) {
      const auto [begin, end] = block_of_member(n_, t, parts);
      for (std::size_t v = begin; v < end; ++v) ++next[t][sweep_level(static_cast<vertex_t>(v))];
      pool_.barrier([&] {
        ch.level_offsets.assign(1, 0);
        for (std::size_t level = 0; level < levels; ++level) {
          vertex_t at = ch.level_offsets.back();
          for (auto& counts : next) {
            const vertex_t count = counts[level];
            counts[level] = at;
            at += count;
          }
          if (at > ch.level_offsets.back()) ch.level_offsets.push_back(at);
        }
      });
      for (std::size_t v = begin; v < end; ++v) {
        const vertex_t p = next[t][sweep_level(static_cast<vertex_t>(v))]++;
        ch.position_of[v] = p;
        ch.vertex_at[p] = static_cast<vertex_t>(v);
      }
    });
    // The rows' sizes and their offsets (each block's sums, then the blocks' bases), then the rows
    // themselves, a block of positions a thread, each written into its own range (the same arrays
    // as one pass in position order).
    ch.up_offsets.assign(std::size_t{n_} + 1, 0);
    ch.down_offsets.assign(std::size_t{n_} + 1, 0);
    std::vector<edge_t> up_base(parts, 0), down_base(parts, 0);
    pool_.run([&](unsigned t) {
      const auto [begin, end] = block_of_member(n_, t, parts);
      edge_t up = 0, down = 0;
      for (std::size_t p = begin; p < end; ++p) {
        const vertex_t v = ch.vertex_at[p];
        ch.up_offsets[p + 1] = up += g_.out[v].size();
        ch.down_offsets[p + 1] = down += g_.contracted[v] ? g_.in[v].size() : 0;
      }
      if (t < parts) up_base[t] = up, down_base[t] = down;
      pool_.barrier([&] {
        std::exclusive_scan(up_base.begin(), up_base.end(), up_base.begin(), edge_t{0});
        std::exclusive_scan(down_base.begin(), down_base.end(), down_base.begin(), edge_t{0});
      });
      for (std::size_t p = begin; p < end; ++p) {
        ch.up_offsets[p + 1] += up_base[t];
        ch.down_offsets[p + 1] += down_base[t];
      }
    });
    ch.up_targets.resize(ch.up_offsets[n_]);
    ch.up_weights.resize(ch.up_offsets[n_]);
    ch.down_sources.resize(ch.down_offsets[n_]);
    ch.down_weights.resize(ch.down_offsets[n_]);
    pool_.run([&](unsigned t) {
      const auto [begin, end] = block_of_member(n_, t, parts);
      std::vector<arc<Weight>> row;
      for (std::size_t p = begin; p < end; ++p) {
        const vertex_t v = ch.vertex_at[p];
        collect(g_.out[v], ch.position_of, row);
        for (std::size_t i = 0; i < row.size(); ++i)
          ch.up_targets[ch.up_offsets[p] + i] = row[i].to, ch.up_weights[ch.up_offsets[p] + i] = row[i].weight;
        if (!g_.contracted[v]) continue;
        collect(g_.in[v], ch.position_of, row);
        for (std::size_t i = 0; i < row.size(); ++i)
          ch.down_sources[ch.down_offsets[p] + i] = row[i].to, ch.down_weights[ch.down_offsets[p] + i] = row[i].weight;
      }
    });
    ch.shortcuts = shortcuts_;
    ch.witness_searches = witness_searches_;
  }

  // A row renumbered into positions, sorted (the sweep then reads its sources in memory order).
  static void collect(const typename remaining_graph<Weight>::list& list, const std::vector<vertex_t>& position_of,
                      std::vector<arc<Weight>>& row) {
    row.clear();
    for (const auto& a : list) row.push_back({position_of[a.to], a.weight});
    std::sort(row.begin(), row.end(), [](const arc<Weight>& a, const arc<Weight>& b) { return a.to < b.to; });
  }

  vertex_t n_;
  remaining_graph<Weight> g_;
  std::vector<vertex_t> level_;
  std::vector<std::int64_t> contracted_neighbours_;
  std::vector<vertex_t> order_;
  std::uint64_t arcs_ = 0;
  std::uint64_t shortcuts_ = 0;
  std::uint64_t witness_searches_ = 0;
  bool symmetric_ = false;  // every arc's reverse is an arc of the same weight (the constructor)
  bool count_two_arcs_ = false;  // priorities by the two-arc count (sparse graphs: the constructor)
  thread_pool pool_;
  std::vector<search_state> searches_;
  std::vector<std::int64_t> priority_;
  std::vector<char> in_round_;  // the current round's independent set
  // A round's contractions (apply_round): which members are contracted, a member's index in the
  // round's set (its shortcuts: found), each neighbour's new out-arcs.
  std::vector<std::uint32_t> member_of_;
  std::vector<std::uint32_t> added_;
};

[[noreturn]] void throw_overflow(bool one_based, const char* limit, vertex_t source, vertex_t v) {
  const std::uint64_t shift = one_based ? 1 : 0;
  throw distance_overflow("the shortest distance from vertex " + std::to_string(source + shift) + " to vertex " +
                          std::to_string(v + shift) + " exceeds " + limit);
}

}  // namespace

template <class Weight>
contraction_hierarchy<Weight> build_contraction_hierarchy(const csr_view& g, unsigned threads,
                                                          const graph::progress_fn& progress) {
  if (g.space != memory_space::host)
    throw std::invalid_argument("build_contraction_hierarchy: the graph must be in host memory");
  check_graph(g);
  if (!arithmetic<Weight>::matches(g))
    throw std::invalid_argument(std::string("build_contraction_hierarchy: the graph has ") +
                                (g.wide() ? "64-bit " : "32-bit ") +
                                (g.kind == graph::weight_kind::integer ? "integer" : "real") +
                                " weights, the hierarchy was asked for another type (uint32, uint64 or float weights)");
  const auto start = std::chrono::steady_clock::now();
  contraction_hierarchy<Weight> ch;
  ch.one_based = g.one_based;
  const unsigned wanted = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  contractor<Weight> c(g, wanted);
  c.contract(ch, progress);
  ch.build_milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return ch;
}

template <class Weight>
upward_search<Weight>::upward_search(const contraction_hierarchy<Weight>& ch)
    : ch_(&ch),
      dist_(ch.num_vertices),
      heap_index_(ch.num_vertices, unvisited) {}

template <class Weight>
void upward_search<Weight>::sift_up(std::size_t i) {
  auto item = heap_[i];
  while (i > 0) {
    std::size_t parent = (i - 1) / 2;
    if (!(item.first < heap_[parent].first)) break;
    heap_[i] = heap_[parent];
    heap_index_[heap_[i].second] = static_cast<std::uint32_t>(i);
    i = parent;
  }
  heap_[i] = item;
  heap_index_[item.second] = static_cast<std::uint32_t>(i);
}

template <class Weight>
void upward_search<Weight>::sift_down(std::size_t i) {
  auto item = heap_[i];
  const std::size_t size = heap_.size();
  while (true) {
    std::size_t child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && heap_[child + 1].first < heap_[child].first) ++child;
    if (!(heap_[child].first < item.first)) break;
    heap_[i] = heap_[child];
    heap_index_[heap_[i].second] = static_cast<std::uint32_t>(i);
    i = child;
  }
  heap_[i] = item;
  heap_index_[item.second] = static_cast<std::uint32_t>(i);
}

// Dijkstra over the up arcs, with every settled position kept (PHAST needs the whole upward search
// space, not a target). heap_index_ says unvisited, settled or where in the heap; a sum that does
// not fit (past 2^32 - 2, or +inf) is kept like any other, for the sweep to judge.
template <class Weight>
const upward_distances<Weight>& upward_search<Weight>::run(vertex_t source) {
  const contraction_hierarchy<Weight>& ch = *ch_;
  if (source >= ch.num_vertices)
    throw std::out_of_range("source vertex " + std::to_string(source + (ch.one_based ? 1 : 0)) +
                            " is out of range: the graph has " + std::to_string(ch.num_vertices) + " vertices");
  out_.positions.clear();
  out_.distances.clear();
  const vertex_t start = ch.position_of[source];
  dist_[start] = 0;
  heap_.push_back({0, start});
  heap_index_[start] = 0;
  while (!heap_.empty()) {
    auto [d, p] = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
    heap_index_[p] = settled;
    out_.positions.push_back(p);
    out_.distances.push_back(d);
    for (edge_t e = ch.up_offsets[p]; e < ch.up_offsets[p + 1]; ++e) {
      const vertex_t q = ch.up_targets[e];
      const sum s = d + ch.up_weights[e];
      if (heap_index_[q] == settled) continue;
      if (heap_index_[q] == unvisited) {
        dist_[q] = s;
        heap_.push_back({s, q});
        sift_up(heap_.size() - 1);
      } else if (s < dist_[q]) {
        dist_[q] = s;
        heap_[heap_index_[q]].first = s;
        sift_up(heap_index_[q]);
      }
    }
  }
  for (vertex_t p : out_.positions) heap_index_[p] = unvisited;
  return out_;
}

// PHAST (Section 3): after the upward search, each position in sweep order takes the smallest of
// its upward distance and d(q) + w over its down in-arcs q -> p, every q already final (an earlier
// level). Overflow: a candidate that does not fit (an upward sum past the limit, d(q) + w past it,
// a saturated shortcut) is still a path, so a position whose candidates all fail to fit but that
// has one is reachable with a shortest distance past the limit: distance_overflow, as Dijkstra.
// A position with a fitting candidate gets the smallest exactly: a shortest path that fits uses no
// saturated arc, and the hierarchy holds it as an up-down path.
//
// The group of Group sources swept together: each position's Group distances side by side; a
// source's upward distances meet the sweep in position order; overflow is judged only where every
// candidate is past the limit (then: reached by a path that does not fit when the upward sum was,
// or when an arc's tail is reached).
template <class Weight, std::size_t Group>
void phast_cpu_group(const contraction_hierarchy<Weight>& ch, upward_search<Weight>& up, const vertex_t* sources,
                     std::size_t count, Weight* const* outs, bool report_overflow) {
  using arith = arithmetic<Weight>;
  using sum = typename arith::sum;
  constexpr Weight unreached = contraction_hierarchy<Weight>::too_long;
  constexpr std::size_t group = Group;
  if (count > group)
    throw std::invalid_argument("phast_cpu_group: " + std::to_string(count) + " sources, at most " +
                                std::to_string(group) + " a sweep");
  if (count == 0) return;
  const vertex_t n = ch.num_vertices;
  up.group_seeds_.resize(group);
  for (std::size_t i = 0; i < group; ++i) {
    auto& seeds = up.group_seeds_[i];
    seeds.clear();
    if (i >= count) continue;
    const upward_distances<Weight>& r = up.run(sources[i]);
    for (std::size_t j = 0; j < r.positions.size(); ++j) seeds.emplace_back(r.positions[j], r.distances[j]);
    std::sort(seeds.begin(), seeds.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  up.group_.resize(std::size_t{n} * group);
  Weight* dist = up.group_.data();
  std::size_t next[group] = {};
  vertex_t first_overflow[group];
  std::fill(first_overflow, first_overflow + group, n);
  for (vertex_t p = 0; p < n; ++p) {
    sum best[group];
    bool seed_overflow[group];
    for (std::size_t i = 0; i < group; ++i) {
      best[i] = arith::unreached;
      seed_overflow[i] = false;
      const auto& seeds = up.group_seeds_[i];
      if (next[i] < seeds.size() && seeds[next[i]].first == p) {
        const sum s = seeds[next[i]++].second;
        if (s <= arith::limit)
          best[i] = s;
        else
          seed_overflow[i] = true;
      }
    }
    const edge_t begin = ch.down_offsets[p], end = ch.down_offsets[p + 1];
    for (edge_t e = begin; e < end; ++e) {
      const Weight* dq = dist + std::size_t{ch.down_sources[e]} * group;
      const Weight w = ch.down_weights[e];
      for (std::size_t i = 0; i < group; ++i) best[i] = std::min(best[i], sum{dq[i]} + w);
    }
    Weight* dp = dist + std::size_t{p} * group;
    for (std::size_t i = 0; i < group; ++i) {
      if (best[i] <= arith::limit) {
        dp[i] = static_cast<Weight>(best[i]);
        continue;
      }
      dp[i] = unreached;
      bool overflow = seed_overflow[i];
      for (edge_t e = begin; e < end && !overflow; ++e) overflow = dist[std::size_t{ch.down_sources[e]} * group + i] != unreached;
      if (overflow && first_overflow[i] == n) first_overflow[i] = p;
    }
  }
  if (report_overflow)
    for (std::size_t i = 0; i < count; ++i)
      if (first_overflow[i] < n) throw_overflow(ch.one_based, arith::overflow, sources[i], ch.vertex_at[first_overflow[i]]);
  for (vertex_t p = 0; p < n; ++p) {
    const vertex_t v = ch.vertex_at[p];
    const Weight* dp = dist + std::size_t{p} * group;
    for (std::size_t i = 0; i < count; ++i) outs[i][v] = dp[i];
  }
}

template <class Weight>
void phast_cpu(const contraction_hierarchy<Weight>& ch, upward_search<Weight>& up, vertex_t source, Weight* out,
               bool report_overflow) {
  phast_cpu_group<Weight, 1>(ch, up, &source, 1, &out, report_overflow);
}

namespace {

// One side of the pair query: a Dijkstra over the arcs arcs_of(p, relax) hands it, a position at
// a time (step), with stall-on-demand (Geisberger et al. 2008, Section 4.1): a settled position
// that a reached one reaches more cheaply over an arc the other way (against_of(p, look): from
// above, into p) is stalled, its arcs not relaxed. A position on a shortest path is never stalled
// (its search distance is its true distance, and the test is strict); a stalled one's distance
// may be too long, which the query's minimum ignores. Reuses its memory between searches: a
// position is reached in this search when its stamp is the search's.
template <class Weight>
class one_way_search {
 public:
  using sum = typename arithmetic<Weight>::sum;
  explicit one_way_search(vertex_t n) : dist_(n), stamp_(n, 0) {}

  void start(vertex_t from) {
    ++now_;
    heap_.clear();
    stamp_[from] = now_;
    dist_[from] = 0;
    heap_.push_back({0, from});
  }
  bool done() const { return heap_.empty(); }
  // No position left unsettled is nearer than this (the heap's least key; a stale entry's key
  // is larger than its position's distance, so it never undercuts).
  sum nearest() const { return heap_.front().first; }
  // Settles the nearest position and calls settled(p) for it; a stale entry is only dropped.
  template <class Arcs, class Against, class Settled>
  void step(const Arcs& arcs_of, const Against& against_of, const Settled& settled) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const auto [d, p] = heap_.back();
    heap_.pop_back();
    if (d > dist_[p]) return;  // a stale entry
    settled(p);
    bool stalled = false;
    against_of(p, [&](vertex_t q, Weight w) { stalled |= stamp_[q] == now_ && dist_[q] + w < d; });
    if (stalled) return;
    arcs_of(p, [&](vertex_t q, Weight w) {
      const sum s = d + w;
      if (stamp_[q] == now_ && !(s < dist_[q])) return;
      stamp_[q] = now_;
      dist_[q] = s;
      heap_.push_back({s, q});
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    });
  }
  bool reached(vertex_t p) const { return stamp_[p] == now_; }
  sum distance(vertex_t p) const { return dist_[p]; }

 private:
  std::vector<sum> dist_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t now_ = 0;
  std::vector<std::pair<sum, vertex_t>> heap_;
};

// The core's arcs turned around, by position (core positions only): the arcs among core vertices
// are up arcs both ways, so a backward search that reaches the core needs the ones that end at
// its position.
template <class Weight>
struct core_in_arcs {
  std::vector<edge_t> offsets;  // core_size + 1 entries
  std::vector<vertex_t> sources;
  std::vector<Weight> weights;

  explicit core_in_arcs(const contraction_hierarchy<Weight>& ch) {
    const vertex_t k = ch.core_size;
    offsets.assign(std::size_t{k} + 1, 0);
    for (vertex_t p = 0; p < k; ++p)
      for (edge_t e = ch.up_offsets[p]; e < ch.up_offsets[p + 1]; ++e)
        if (ch.up_targets[e] < k) ++offsets[ch.up_targets[e] + 1];
    for (vertex_t p = 0; p < k; ++p) offsets[p + 1] += offsets[p];
    sources.resize(offsets[k]);
    weights.resize(offsets[k]);
    std::vector<edge_t> next(offsets.begin(), offsets.end() - 1);
    for (vertex_t p = 0; p < k; ++p)
      for (edge_t e = ch.up_offsets[p]; e < ch.up_offsets[p + 1]; ++e)
        if (const vertex_t q = ch.up_targets[e]; q < k) {
          sources[next[q]] = p;
          weights[next[q]++] = ch.up_weights[e];
        }
  }
};

// Pairs a thread takes at a time.
constexpr std::size_t pair_chunk = 64;

template <class Weight>
void pairs_on_threads(const contraction_hierarchy<Weight>& ch, const vertex_t* from, const vertex_t* to,
                      std::size_t count, Weight* out, unsigned threads) {
  using arith = arithmetic<Weight>;
  using sum = typename arith::sum;
  const vertex_t n = ch.num_vertices;
  check_pair_vertices(n, ch.one_based, from, to, count);
  if (count == 0) return;
  const core_in_arcs<Weight> core(ch);
  const auto up_arcs = [&ch](vertex_t p, const auto& relax) {
    for (edge_t e = ch.up_offsets[p]; e < ch.up_offsets[p + 1]; ++e) relax(ch.up_targets[e], ch.up_weights[e]);
  };
  const auto down_arcs = [&ch, &core](vertex_t p, const auto& relax) {
    for (edge_t e = ch.down_offsets[p]; e < ch.down_offsets[p + 1]; ++e) relax(ch.down_sources[e], ch.down_weights[e]);
    if (p < ch.core_size)
      for (edge_t e = core.offsets[p]; e < core.offsets[p + 1]; ++e) relax(core.sources[e], core.weights[e]);
  };
  // The stall tests: arcs into p from above (its down in-arcs) for the upward search, arcs out of
  // p upward for the backward one; none among the core's positions (they share one rank).
  const auto down_in_arcs = [&ch](vertex_t p, const auto& look) {
    for (edge_t e = ch.down_offsets[p]; e < ch.down_offsets[p + 1]; ++e) look(ch.down_sources[e], ch.down_weights[e]);
  };
  const auto up_out_arcs = [&ch](vertex_t p, const auto& look) {
    if (p < ch.core_size) return;
    for (edge_t e = ch.up_offsets[p]; e < ch.up_offsets[p + 1]; ++e) look(ch.up_targets[e], ch.up_weights[e]);
  };
  constexpr Weight unreachable = contraction_hierarchy<Weight>::too_long;  // int_infinity, uint64_infinity or +inf
  thread_pool pool(static_cast<unsigned>(std::min<std::size_t>(threads ? threads : std::thread::hardware_concurrency(),
                                                               (count + pair_chunk - 1) / pair_chunk)));
  std::atomic<std::size_t> next{0};
  pool.run([&](unsigned) {
    one_way_search<Weight> up(n), down(n);
    for (std::size_t begin; (begin = next.fetch_add(pair_chunk)) < count;)
      for (std::size_t i = begin; i < std::min(count, begin + pair_chunk); ++i) {
        // The two sides take turns, the nearer first; a side stops once nothing it has left is
        // nearer than the best meeting found, which no later meeting can then beat (each side's
        // distances only grow).
        up.start(ch.position_of[from[i]]);
        down.start(ch.position_of[to[i]]);
        bool met = false;
        sum best = arith::unreached;
        const auto meet = [&](const one_way_search<Weight>* other) {
          return [&, other](vertex_t p) {
            if (!other->reached(p)) return;
            met = true;
            best = std::min<sum>(best, up.distance(p) + down.distance(p));
          };
        };
        const auto up_meets = meet(&down), down_meets = meet(&up);
        while (true) {
          const bool up_on = !up.done() && (!met || up.nearest() < best);
          const bool down_on = !down.done() && (!met || down.nearest() < best);
          if (!up_on && !down_on) break;
          if (up_on && (!down_on || up.nearest() <= down.nearest()))
            up.step(up_arcs, down_in_arcs, up_meets);
          else
            down.step(down_arcs, up_out_arcs, down_meets);
        }
        if (met && !(best <= arith::limit))
          throw_overflow(ch.one_based, arithmetic<Weight>::overflow, from[i], to[i]);
        out[i] = met ? static_cast<Weight>(best) : unreachable;
      }
  });
}

}  // namespace

void check_pair_vertices(vertex_t n, bool one_based, const vertex_t* from, const vertex_t* to, std::size_t count) {
  const std::uint64_t shift = one_based ? 1 : 0;
  for (std::size_t i = 0; i < count; ++i)
    for (vertex_t v : {from[i], to[i]})
      if (v >= n)
        throw std::out_of_range("vertex " + std::to_string(v + shift) + " is out of range: the graph has " +
                                std::to_string(n) + " vertices");
}

template <class Weight>
void pair_distances(const contraction_hierarchy<Weight>& ch, const vertex_t* from, const vertex_t* to,
                    std::size_t count, Weight* out, unsigned threads) {
  pairs_on_threads(ch, from, to, count, out, threads);
}

template contraction_hierarchy<std::uint32_t> build_contraction_hierarchy<std::uint32_t>(const csr_view&, unsigned,
                                                                                       const graph::progress_fn&);
template contraction_hierarchy<float> build_contraction_hierarchy<float>(const csr_view&, unsigned,
                                                                       const graph::progress_fn&);
template struct upward_search<std::uint32_t>;
template struct upward_search<float>;
template void phast_cpu<std::uint32_t>(const contraction_hierarchy<std::uint32_t>&, upward_search<std::uint32_t>&,
                                       vertex_t, std::uint32_t*, bool);
template void phast_cpu<float>(const contraction_hierarchy<float>&, upward_search<float>&, vertex_t, float*, bool);
template void phast_cpu_group<std::uint32_t, phast_group>(const contraction_hierarchy<std::uint32_t>&,
                                                          upward_search<std::uint32_t>&, const vertex_t*, std::size_t,
                                                          std::uint32_t* const*, bool);
template void phast_cpu_group<float, phast_group>(const contraction_hierarchy<float>&, upward_search<float>&,
                                                  const vertex_t*, std::size_t, float* const*, bool);
template void phast_cpu_group<std::uint64_t, phast_group>(const contraction_hierarchy<std::uint64_t>&,
                                                          upward_search<std::uint64_t>&, const vertex_t*, std::size_t,
                                                          std::uint64_t* const*, bool);
template void pair_distances<std::uint32_t>(const contraction_hierarchy<std::uint32_t>&, const vertex_t*, const vertex_t*,
                                            std::size_t, std::uint32_t*, unsigned);
template void pair_distances<float>(const contraction_hierarchy<float>&, const vertex_t*, const vertex_t*, std::size_t,
                                    float*, unsigned);
template contraction_hierarchy<std::uint64_t> build_contraction_hierarchy<std::uint64_t>(const csr_view&, unsigned,
                                                                                       const graph::progress_fn&);
template struct upward_search<std::uint64_t>;
template void phast_cpu<std::uint64_t>(const contraction_hierarchy<std::uint64_t>&, upward_search<std::uint64_t>&,
                                       vertex_t, std::uint64_t*, bool);
template void pair_distances<std::uint64_t>(const contraction_hierarchy<std::uint64_t>&, const vertex_t*, const vertex_t*,
                                            std::size_t, std::uint64_t*, unsigned);

}  // namespace deltasplit::sssp::detail
