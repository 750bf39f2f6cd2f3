// Accessors of sssp::result that hide the distance type.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "deltasplit/sssp.hpp"
#include "sssp/distance_policy.hpp"

namespace deltasplit::sssp {

std::size_t result::size() const {
  return detail::with_distance_type(type, [&](auto d) { return detail::distances_in<decltype(d)>(*this).size(); });
}

bool result::reached(vertex_t v) const {
  if (v >= size())
    throw std::out_of_range("vertex " + std::to_string(v) + " out of range (the result has " + std::to_string(size()) +
                            " vertices)");
  return detail::with_distance_type(type, [&](auto d) {
    using D = decltype(d);
    return detail::distances_in<D>(*this)[v] != detail::distance_limits<D>::infinity;
  });
}

double result::distance(vertex_t v) const {
  if (!reached(v)) return std::numeric_limits<double>::infinity();
  return detail::with_distance_type(type, [&](auto d) {
    return static_cast<double>(detail::distances_in<decltype(d)>(*this)[v]);
  });
}

std::size_t result::num_reached() const {
  return detail::with_distance_type(type, [&](auto d) {
    using D = decltype(d);
    const auto& dist = detail::distances_in<D>(*this);
    return static_cast<std::size_t>(
        std::count_if(dist.begin(), dist.end(), [](D x) { return x != detail::distance_limits<D>::infinity; }));
  });
}

}  // namespace deltasplit::sssp
