// Milliseconds since a point of the steady clock: the solvers' timings (statistics).
#pragma once

#include <chrono>

namespace deltasplit::sssp::detail {

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace deltasplit::sssp::detail
