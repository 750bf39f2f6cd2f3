// Even share of tiles over a fixed grid (Merrill & Grimshaw, seed 001, Section 4: each thread
// block of a fixed-size grid takes one contiguous range of tiles). The same ranges are used by
// the prescan and the postscan, so block g's bucket counts describe exactly the items that
// block g later scatters, and the number of items may be read on the device (device_count).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace multisplit {
namespace detail {

// The number of items: known on the host, or read from device memory when the kernels run.
// host: the count, or, with a device count, the most items the call was sized for (max_items):
// a device count above it is clamped to it, so no kernel reads or writes past what the caller
// and the temporary storage hold (the large method's intermediate arrays have max_items
// entries). bucket_offsets_kernel reports a clamp in *overflow (multisplit.cuh, device_count).
struct item_count {
  const std::uint32_t* device;
  std::uint32_t host;
  std::uint32_t* overflow = nullptr;
  __device__ __forceinline__ std::uint32_t get() const {
    if (device == nullptr) return host;
    const std::uint32_t n = *device;
    return n < host ? n : host;
  }
  // Called by one thread per call: records the requested count when it was clamped.
  __device__ __forceinline__ void report_clamp() const {
    if (device != nullptr && overflow != nullptr && *device > host) *overflow = *device;
  }
};

struct tile_range {
  std::uint32_t begin;  // first tile of this block
  std::uint32_t end;    // one past the last
};

__device__ __forceinline__ tile_range even_share(std::uint32_t num_items, std::uint32_t tile_items) {
  std::uint32_t num_tiles = static_cast<std::uint32_t>(
      (static_cast<std::uint64_t>(num_items) + tile_items - 1) / tile_items);
  std::uint64_t g = blockIdx.x, grid = gridDim.x;
  return tile_range{static_cast<std::uint32_t>(num_tiles * g / grid),
                    static_cast<std::uint32_t>(num_tiles * (g + 1) / grid)};
}

}  // namespace detail
}  // namespace multisplit
