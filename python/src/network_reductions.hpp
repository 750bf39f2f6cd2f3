// The road layer's one-pass reductions on the host (deltasplit/_network_aggregate.py): the entries
// of reached lists taken into per-node results in the order and with the operations of the device
// kernels there (accumulate_lists, nearest_lists), so that the CPU and the GPU add the same terms
// in the same order and keep the same nearest places.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../deltasplit/_reductions.h"
#include "sssp/thread_pool.hpp"

namespace deltasplit::network {

// One group of reached entries: entry i is row row0 + rows[i] (a valued node), column columns[i]
// (the node it reaches) at distance distances[i]; the group's entries come in row order.
struct reached_entries {
  std::size_t count;
  const std::int64_t* rows;
  const std::int64_t* columns;
  const double* distances;
  std::int64_t row0;
};

// The entries by column, each column's in row order (a stable counting sort): column c's are
// order[start[c]] .. order[start[c + 1] - 1]. Entries outside n columns or `valued` rows are refused.
inline void by_column(const reached_entries& e, std::size_t valued, std::size_t n, const char* what,
                      std::vector<std::size_t>& start, std::vector<std::size_t>& order) {
  start.assign(n + 1, 0);
  for (std::size_t i = 0; i < e.count; ++i) {
    const std::int64_t c = e.columns[i], u = e.row0 + e.rows[i];
    if (c < 0 || static_cast<std::uint64_t>(c) >= n || u < 0 || static_cast<std::uint64_t>(u) >= valued)
      throw std::invalid_argument(std::string(what) + ": entry " + std::to_string(i) + " (row " + std::to_string(u) +
                                  ", column " + std::to_string(c) + ") lies outside the results");
    ++start[static_cast<std::size_t>(c) + 1];
  }
  for (std::size_t c = 0; c < n; ++c) start[c + 1] += start[c];
  order.resize(e.count);
  std::vector<std::size_t> next(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < e.count; ++i) order[next[static_cast<std::size_t>(e.columns[i])]++] = i;
}

// Adds every entry into its column's results, for each radius it lies within (d <= radius), each
// column's entries in row order. acc: (radii, 6, n) float64, per node and radius the count of
// values, the decayed sum, the sum, the sum of squares, the least and the greatest value.
// per_node: (5, valued) float64, per valued node the count, sum, sum of squares, least and
// greatest of its values. decay: 0 flat, 1 linear (1 - d / radius), 2 exp (exp(-d / radius));
// radius 0 weighs 1. The columns are taken apart by a stable counting sort, then each thread
// takes a range of columns, keeping a column's results in registers while it adds its entries.
inline void accumulate_reached(const reached_entries& e, const double* per_node, std::size_t valued,
                               const std::vector<double>& radii, int decay, double* acc, std::size_t n,
                               unsigned threads) {
  const std::size_t radius_count = radii.size();
  std::vector<std::size_t> start, order;
  by_column(e, valued, n, "accumulate_reached", start, order);
  sssp::detail::thread_pool pool(n < (std::size_t{1} << 16) ? 1 : threads);
  const unsigned parts = pool.size();
  pool.run([&](unsigned t) {
    std::vector<double> sums(radius_count * 6);
    for (std::size_t c = n * t / parts; c < n * (t + 1) / parts; ++c) {
      if (start[c] == start[c + 1]) continue;
      for (std::size_t q = 0; q < radius_count * 6; ++q) sums[q] = acc[q * n + c];
      for (std::size_t j = start[c]; j < start[c + 1]; ++j) {
        const std::size_t i = order[j];
        const double d = e.distances[i];
        const std::size_t u = static_cast<std::size_t>(e.row0 + e.rows[i]);
        for (std::size_t q = 0; q < radius_count; ++q)
          if (d <= radii[q])
            take_entry(&sums[q * 6], d, radii[q], decay, per_node, static_cast<long long>(valued),
                       static_cast<long long>(u));
      }
      for (std::size_t q = 0; q < radius_count * 6; ++q) acc[q * n + c] = sums[q];
    }
  });
}

// Merges every entry within `radius` into its column's k nearest places (nearest_lists' rule on
// the device, in the same order): best_d (n, k) float64 and best_p (n, k) int64, nearest first,
// ties by place, -1 and +inf where empty. The places of valued node u are
// by_node[first[u] .. first[u] + per_node[u] - 1], ascending (at most k of a node can count).
inline void nearest_reached(const reached_entries& e, const std::int64_t* by_node, const std::int64_t* first,
                            const std::int64_t* per_node, std::size_t valued, double radius, double* best_d,
                            std::int64_t* best_p, std::size_t n, std::size_t k, unsigned threads) {
  std::vector<std::size_t> start, order;
  by_column(e, valued, n, "nearest_reached", start, order);
  sssp::detail::thread_pool pool(n < (std::size_t{1} << 16) ? 1 : threads);
  const unsigned parts = pool.size();
  pool.run([&](unsigned t) {
    for (std::size_t c = n * t / parts; c < n * (t + 1) / parts; ++c) {
      double* bd = best_d + c * k;
      std::int64_t* bp = best_p + c * k;
      for (std::size_t j = start[c]; j < start[c + 1]; ++j) {
        const std::size_t i = order[j];
        const double d = e.distances[i];
        if (!(d <= radius)) continue;
        offer_places(bd, bp, static_cast<int>(k), d, e.row0 + e.rows[i], by_node, first, per_node);
      }
    }
  });
}

}  // namespace deltasplit::network
