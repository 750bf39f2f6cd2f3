// Counting-sort CSR construction and cleaning (see csr_builder.hpp).
#include "csr_builder.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "deltasplit/graph/memory.hpp"

namespace deltasplit::graph::detail {

namespace {

// A row entry as one key that sorts by target and, among parallel arcs, puts the lightest first:
// narrow weights as one 64-bit word (target in the high half, weight bits in the low half), wide
// ones as a (target, weight bits) pair. Integer weights compare as integers, and non-negative
// floats and doubles compare like their bit patterns.
using narrow_key = std::uint64_t;
using wide_key = std::pair<std::uint64_t, std::uint64_t>;

inline narrow_key make_key(vertex_t target, std::uint32_t w, narrow_key*) { return (narrow_key{target} << 32) | w; }
inline wide_key make_key(vertex_t target, std::uint64_t w, wide_key*) { return {target, w}; }
inline vertex_t key_target(narrow_key k) { return static_cast<vertex_t>(k >> 32); }
inline vertex_t key_target(const wide_key& k) { return static_cast<vertex_t>(k.first); }
inline std::uint32_t key_weight(narrow_key k) { return static_cast<std::uint32_t>(k); }
inline std::uint64_t key_weight(const wide_key& k) { return k.second; }

template <class Key>
void sort_row(Key* first, Key* last) {
  if (last - first <= 16) {
    for (Key* i = first + 1; i < last; ++i) {
      Key k = *i;
      Key* j = i;
      for (; j > first && *(j - 1) > k; --j) *j = *(j - 1);
      *j = k;
    }
  } else {
    std::sort(first, last);
  }
}

// Both passes of the counting sort are split by rows: a part owns the rows of the vertices in
// [lo, hi) and reads every entry but writes only its own rows. That needs no atomics and no
// per-thread copy of the degree array, and each row keeps the file order of its entries.
inline bool owns(vertex_t v, vertex_t lo, vertex_t hi) { return static_cast<vertex_t>(v - lo) < hi - lo; }

// Out-degrees of the part's rows (an entry counts for its target's row too when it stands for
// both directions); returns the part's self-loops, which are left out.
template <bool symmetric>
std::uint64_t count_degrees(const vertex_t* src, const vertex_t* dst, std::size_t entries, vertex_t lo, vertex_t hi,
                            edge_t* degree) {
  std::uint64_t self_loops = 0;
  for (std::size_t i = 0; i < entries; ++i) {
    vertex_t u = src[i], v = dst[i];
    if (u == v) {
      self_loops += owns(u, lo, hi);
      continue;
    }
    if (owns(u, lo, hi)) ++degree[u];
    if (symmetric && owns(v, lo, hi)) ++degree[v];
  }
  return self_loops;
}

// The scatter: each entry's key goes to the next free slot of its row, for the part's rows.
template <bool symmetric, class Key, class Bits>
void scatter(const vertex_t* src, const vertex_t* dst, const Bits* weight, std::size_t entries, vertex_t lo,
             vertex_t hi, edge_t* cursor, Key* keys) {
  for (std::size_t i = 0; i < entries; ++i) {
    vertex_t u = src[i], v = dst[i];
    if (u == v) continue;
    const Bits w = weight ? weight[i] : 0;
    if (owns(u, lo, hi)) keys[cursor[u]++] = make_key(v, w, keys);
    if (symmetric && owns(v, lo, hi)) keys[cursor[v]++] = make_key(u, w, keys);
  }
}

template <class T>
void release(std::vector<T>& v) {
  std::vector<T>().swap(v);
}

}  // namespace

std::uint64_t csr_bytes(std::uint64_t n, std::uint64_t arcs) {
  return saturating_add(saturating_mul(8, n + 1), saturating_mul(8, arcs));
}

std::uint64_t build_csr_extra_bytes(std::uint64_t n, std::uint64_t entries, bool symmetric, bool wide,
                                    std::uint64_t arc_list_bytes) {
  const std::uint64_t stored = saturating_mul(entries, symmetric ? 2 : 1);
  const std::uint64_t offsets = saturating_mul(8, n + 1);
  const std::uint64_t key = wide ? 16 : 8;
  // Scatter: the arc lists, offsets, cursors and row keys at once.
  const std::uint64_t scatter = saturating_add(saturating_add(offsets, saturating_mul(8, n)), saturating_mul(key, stored));
  // Gather, the arc lists released: offsets, keys, kept offsets, targets and weight bits (wide:
  // 16-byte keys, 8-byte bits and their copy into the double array).
  const std::uint64_t gather = saturating_add(saturating_mul(2, offsets), saturating_mul(wide ? 36 : 16, stored));
  return std::max(scatter, gather > arc_list_bytes ? gather - arc_list_bytes : 0);
}

namespace {

// build_csr with Key the row key and Bits the weights' bits (arcs.weight or arcs.wide_weight).
template <class Key, class Bits>
csr build_rows(arc_list&& arcs, std::vector<Bits>& weights, provenance origin, unsigned threads,
               const progress_fn* progress) {
  auto report = [progress](std::uint64_t pass) {
    if (progress && *progress) (*progress)("building", pass, 4);
  };
  const vertex_t n = arcs.num_vertices;
  const std::size_t entries = arcs.src.size();
  const bool weighted = !weights.empty();

  // Every part re-reads all entries, so a few parts suffice to spread the random writes.
  const unsigned parts = entries < (std::size_t{1} << 16) ? 1 : std::min(worker_count(threads), 8u);
  const vertex_t* src = arcs.src.data();
  const vertex_t* dst = arcs.dst.data();
  const Bits* weight = weighted ? weights.data() : nullptr;

  std::vector<edge_t> offsets(std::size_t{n} + 1, 0);
  std::atomic<std::uint64_t> self_loops{0};
  auto vertex_cut = [&](unsigned i) { return static_cast<std::size_t>(std::uint64_t{n} * i / parts); };
  parallel_parts(parts, vertex_cut, [&](std::size_t lo, std::size_t hi) {
    edge_t* degree = offsets.data() + 1;
    self_loops += arcs.symmetric ? count_degrees<true>(src, dst, entries, vertex_t(lo), vertex_t(hi), degree)
                                 : count_degrees<false>(src, dst, entries, vertex_t(lo), vertex_t(hi), degree);
  });
  for (std::size_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  const edge_t stored = offsets[n];
  report(1);

  // From here on, parts hold equal shares of arcs, not of vertices, so that the hubs of a skewed
  // graph do not all land on one thread.
  auto arc_cut = [&](unsigned i) -> std::size_t {
    if (i >= parts) return n;
    edge_t goal = stored * i / parts;
    return static_cast<std::size_t>(std::lower_bound(offsets.begin(), offsets.end() - 1, goal) - offsets.begin());
  };

  // Every slot is written by the scatter, so the buffer is left uninitialised.
  std::unique_ptr<Key[]> keys(new Key[stored]);
  {
    std::vector<edge_t> cursor(offsets.begin(), offsets.end() - 1);
    parallel_parts(parts, arc_cut, [&](std::size_t lo, std::size_t hi) {
      if (arcs.symmetric)
        scatter<true>(src, dst, weight, entries, vertex_t(lo), vertex_t(hi), cursor.data(), keys.get());
      else
        scatter<false>(src, dst, weight, entries, vertex_t(lo), vertex_t(hi), cursor.data(), keys.get());
    });
  }
  release(arcs.src);
  release(arcs.dst);
  release(weights);
  report(2);

  // Sort and deduplicate every row in place.
  std::vector<edge_t> kept(std::size_t{n} + 1, 0);
  parallel_parts(parts, arc_cut, [&](std::size_t begin, std::size_t end) {
    for (std::size_t v = begin; v < end; ++v) {
      Key* first = keys.get() + offsets[v];
      Key* last = keys.get() + offsets[v + 1];
      sort_row(first, last);
      Key* out = first;
      for (Key* k = first; k < last; ++k)
        if (out == first || key_target(*k) != key_target(*(out - 1))) *out++ = *k;
      kept[v + 1] = static_cast<edge_t>(out - first);
    }
  });
  for (std::size_t v = 0; v < n; ++v) kept[v + 1] += kept[v];
  report(3);

  csr g;
  g.num_vertices = n;
  g.kind = arcs.kind;
  g.width = arcs.width;
  g.targets.resize(kept[n]);
  std::vector<Bits> bits(kept[n]);
  parallel_parts(parts, arc_cut, [&](std::size_t begin, std::size_t end) {
    for (std::size_t v = begin; v < end; ++v) {
      const Key* k = keys.get() + offsets[v];
      for (edge_t e = kept[v]; e < kept[v + 1]; ++e, ++k) {
        g.targets[e] = key_target(*k);
        bits[e] = key_weight(*k);
      }
    }
  });
  keys.reset();
  // The bits become the array of the graph's kind and width. data() of an empty vector may be
  // null, and memcpy from null is undefined even for 0 bytes.
  auto take = [&bits](auto& to) {
    to.resize(bits.size());
    if (!bits.empty()) std::memcpy(to.data(), bits.data(), bits.size() * sizeof(Bits));
    release(bits);
  };
  if constexpr (std::is_same_v<Bits, std::uint32_t>) {
    if (arcs.kind == weight_kind::real)
      take(g.real_weights);
    else
      g.int_weights = std::move(bits);
  } else {
    if (arcs.kind == weight_kind::real)
      take(g.float64_weights);
    else
      g.uint64_weights = std::move(bits);
  }
  g.offsets = std::move(kept);
  origin.self_loops_dropped = self_loops.load();
  origin.duplicates_merged = stored - g.offsets[n];
  g.origin = std::move(origin);
  report(4);
  return g;
}

}  // namespace

csr build_csr(arc_list&& arcs, provenance origin, unsigned threads, const progress_fn* progress) {
  if (arcs.width == weight_width::wide) {
    std::vector<std::uint64_t> weights = std::move(arcs.wide_weight);
    return build_rows<wide_key>(std::move(arcs), weights, std::move(origin), threads, progress);
  }
  std::vector<std::uint32_t> weights = std::move(arcs.weight);
  return build_rows<narrow_key>(std::move(arcs), weights, std::move(origin), threads, progress);
}

}  // namespace deltasplit::graph::detail
