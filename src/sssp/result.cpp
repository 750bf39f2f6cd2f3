// Accessors of sssp::result that hide whether distances are integer or real.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp {

namespace {
void check_index(const result& r, vertex_t v) {
  if (v >= r.size())
    throw std::out_of_range("vertex " + std::to_string(v) + " out of range (the result has " +
                            std::to_string(r.size()) + " vertices)");
}
}  // namespace

bool result::reached(vertex_t v) const {
  check_index(*this, v);
  return kind == graph::weight_kind::integer ? int_distances[v] != int_infinity
                                             : real_distances[v] != std::numeric_limits<float>::infinity();
}

double result::distance(vertex_t v) const {
  if (!reached(v)) return std::numeric_limits<double>::infinity();
  return kind == graph::weight_kind::integer ? static_cast<double>(int_distances[v])
                                             : static_cast<double>(real_distances[v]);
}

std::size_t result::num_reached() const {
  if (kind == graph::weight_kind::integer)
    return static_cast<std::size_t>(std::count_if(int_distances.begin(), int_distances.end(),
                                                  [](std::uint32_t d) { return d != int_infinity; }));
  return static_cast<std::size_t>(std::count_if(real_distances.begin(), real_distances.end(), [](float d) {
    return d != std::numeric_limits<float>::infinity();
  }));
}

}  // namespace deltasplit::sssp
