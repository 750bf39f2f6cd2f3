// A fast streaming 64-bit hash over bytes. It ties a binary cache to the exact bytes of its
// source file and checksums the cache payload: it detects accidental change and corruption,
// it is not meant to resist deliberate collisions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace deltasplit::graph::detail {

inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

class content_hash {
 public:
  void update(const void* data, std::size_t n) {
    // An empty array's data() may be null, and memcpy from null is undefined even for 0 bytes.
    if (n == 0) return;
    const auto* p = static_cast<const unsigned char*>(data);
    bytes_ += n;
    // Finish a word left partial by the previous call, so the digest does not depend on how the
    // input was split into calls.
    if (fill_ != 0) {
      std::size_t take = n < 8 - fill_ ? n : 8 - fill_;
      std::memcpy(tail_ + fill_, p, take);
      fill_ += static_cast<unsigned>(take);
      p += take;
      n -= take;
      if (fill_ < 8) return;
      absorb_word(tail_);
      fill_ = 0;
    }
    // Word k always goes to lane k mod 4; four independent lanes keep the multiplier busy.
    while (n >= 32) {
      for (unsigned w = 0; w < 4; ++w) {
        std::uint64_t& lane = lanes_[(next_lane_ + w) & 3u];
        lane = absorb(lane, load(p + 8 * w));
      }
      p += 32;
      n -= 32;
    }
    while (n >= 8) {
      absorb_word(p);
      p += 8;
      n -= 8;
    }
    std::memcpy(tail_, p, n);
    fill_ = static_cast<unsigned>(n);
  }

  std::uint64_t digest() const {
    std::uint64_t h = mix64(bytes_);
    for (std::uint64_t lane : lanes_) h = mix64(h ^ lane);
    for (unsigned i = 0; i < fill_; ++i) h = mix64(h ^ (std::uint64_t{tail_[i]} << (8 * i)) ^ (0x100u << i));
    return h;
  }

 private:
  static std::uint64_t load(const unsigned char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  }
  static std::uint64_t absorb(std::uint64_t lane, std::uint64_t word) {
    lane ^= word * 0x9e3779b97f4a7c15ULL;
    lane = (lane << 29) | (lane >> 35);
    return lane * 0xc2b2ae3d27d4eb4fULL;
  }
  void absorb_word(const unsigned char* p) {
    lanes_[next_lane_] = absorb(lanes_[next_lane_], load(p));
    next_lane_ = (next_lane_ + 1) & 3u;
  }

  std::uint64_t lanes_[4] = {0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL, 0xa4093822299f31d0ULL,
                             0x082efa98ec4e6c89ULL};
  std::uint64_t bytes_ = 0;
  unsigned char tail_[8] = {};
  unsigned fill_ = 0;
  unsigned next_lane_ = 0;
};

}  // namespace deltasplit::graph::detail
