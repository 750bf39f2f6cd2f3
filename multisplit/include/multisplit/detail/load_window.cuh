// Loading a warp's windows of a tile: window i of warp w is 32 consecutive items, one per lane,
// so every load of the warp is one coalesced 128-byte segment, and the item order inside the
// warp (window by window, lane by lane) is the input order, which is what keeps the multisplit
// stable. All windows are loaded before any is used, so each thread has `Windows` independent
// loads in flight.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace multisplit {
namespace detail {

// First item of window 0 of this lane in tile `tile`.
template <class Policy>
__device__ __forceinline__ std::uint64_t first_item(std::uint32_t tile, int warp, unsigned lane) {
  return static_cast<std::uint64_t>(tile) * Policy::tile_items +
         static_cast<std::uint64_t>(warp) * Policy::warp_items + lane;
}

template <class Policy, class T>
__device__ __forceinline__ void load_windows(const T* in, std::uint64_t first, std::uint32_t n,
                                             bool full, T (&items)[Policy::windows]) {
  if (full) {
#pragma unroll
    for (int i = 0; i < Policy::windows; ++i) items[i] = __ldg(in + first + 32 * i);
  } else {
#pragma unroll
    for (int i = 0; i < Policy::windows; ++i)
      if (first + 32 * i < n) items[i] = __ldg(in + first + 32 * i);
  }
}

}  // namespace detail
}  // namespace multisplit
