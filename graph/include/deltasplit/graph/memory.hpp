// The memory a command will need, checked against what the machine has before any large
// allocation: a graph too big for this machine is refused up front with the bytes needed and
// the bytes available, rather than dying in an allocation (or to the OOM killer) half-way.
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>

namespace deltasplit::graph {

// Bytes the kernel can give this process now without swapping: MemAvailable from /proc/meminfo,
// or the physical memory (sysconf) where /proc cannot be read. Never 0 (see below).
std::uint64_t available_memory();

// The same from the text of a /proc/meminfo: MemAvailable; where that reads 0, MemTotal (a
// MemAvailable of 0 is no reading: a process on a busy GPU machine has been told 0 while other
// processes ran beside it, and every dataset was refused); 0 when the text has neither (the
// caller then asks sysconf).
std::uint64_t available_memory_from_meminfo(std::istream& meminfo);

// A size such as "12.5 GiB (13421772800 bytes)", for messages.
std::string describe_bytes(std::uint64_t bytes);

class memory_error : public std::runtime_error {
 public:
  memory_error(const std::string& what, std::uint64_t needed, std::uint64_t available);
  std::uint64_t needed() const { return needed_; }
  std::uint64_t available() const { return available_; }

 private:
  std::uint64_t needed_, available_;
};

// Throws memory_error ("<what> needs N, but only A is available") when needed exceeds the
// budget: `limit` bytes when it is not 0, else available_memory() at the time of the call.
void require_memory(const std::string& what, std::uint64_t needed, std::uint64_t limit = 0);

// a * b, or UINT64_MAX when the product does not fit: sizes computed from a file's claims.
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace deltasplit::graph
