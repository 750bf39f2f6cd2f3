// splitmix64 (Steele, Lea, Flood 2014): the project's own PRNG, so that generated weights and
// graphs are the same on every standard library (std:: distributions are not).
#pragma once

#include <cstdint>

namespace deltasplit::graph::detail {

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A stream of splitmix64 outputs.
class splitmix_stream {
 public:
  explicit splitmix_stream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t x = state_;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }

 private:
  std::uint64_t state_;
};

// The weight of edge {a, b}, a <= b, from a seed already passed through splitmix64 (hoisted out
// of the loop over arcs). Scales 32 random bits to the span by a multiply rather than a
// division (Lemire 2019): span is at most 2^32, so the product fits 64 bits, and the bias is
// below span / 2^32.
inline std::uint32_t mixed_edge_weight(std::uint64_t mixed_seed, std::uint32_t a, std::uint32_t b, std::uint32_t lo,
                                       std::uint64_t span) {
  std::uint64_t x = splitmix64(mixed_seed ^ ((std::uint64_t{a} << 32) | b));
  return lo + static_cast<std::uint32_t>(((x >> 32) * span) >> 32);
}

}  // namespace deltasplit::graph::detail
