// CUB-style two-phase temporary storage: a call first sizes its pieces (temp == nullptr), then
// carves the caller's single allocation into 256-byte-aligned pieces in the same order.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace multisplit {
namespace detail {

class temp_carver {
 public:
  explicit temp_carver(void* base) : base_(static_cast<unsigned char*>(base)) {}

  // Reserves bytes and returns their address (null while sizing).
  template <class T>
  T* take(std::size_t count) {
    std::size_t at = used_;
    used_ += (count * sizeof(T) + alignment - 1) / alignment * alignment;
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }
  std::size_t bytes() const { return used_ > 0 ? used_ : alignment; }

 private:
  static constexpr std::size_t alignment = 256;
  unsigned char* base_;
  std::size_t used_ = 0;
};

// Either reports the size (temp == nullptr) or checks that the caller's storage suffices.
// Returns true when the caller should go on and launch.
inline bool size_or_check(void* temp, std::size_t& temp_bytes, std::size_t needed,
                          cudaError_t& status) {
  status = cudaSuccess;
  if (temp == nullptr) {
    temp_bytes = needed;
    return false;
  }
  if (temp_bytes < needed) {
    status = cudaErrorInvalidValue;
    return false;
  }
  return true;
}

inline int ceil_log2(std::uint32_t m) {
  int bits = 0;
  while ((1ull << bits) < m) ++bits;
  return bits;
}

}  // namespace detail
}  // namespace multisplit
