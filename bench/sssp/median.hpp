// The median of a sample (the mean of the middle two when the count is even): the benchmarks'
// figure for repeated solves.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace deltasplit_bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace deltasplit_bench
