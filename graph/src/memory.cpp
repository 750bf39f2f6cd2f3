// What the machine has, and refusals that say so (see memory.hpp).
#include "deltasplit/graph/memory.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace deltasplit::graph {

std::uint64_t available_memory_from_meminfo(std::istream& meminfo) {
  // MemAvailable counts reclaimable page cache as available, which is what a large allocation
  // can really get; MemFree would refuse graphs that fit. Lines are "Key:  value [kB]"; some
  // have no unit, so each line is read on its own.
  std::uint64_t available = 0, total = 0;
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (!(fields >> key >> kib)) continue;
    if (key == "MemAvailable:") available = saturating_mul(kib, 1024);
    if (key == "MemTotal:") total = saturating_mul(kib, 1024);
  }
  return available ? available : total;
}

std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  if (const std::uint64_t bytes = available_memory_from_meminfo(meminfo)) return bytes;
  long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return saturating_mul(static_cast<std::uint64_t>(pages), static_cast<std::uint64_t>(page));
  return UINT64_MAX;  // nothing to go by: let the allocation decide
}

std::string describe_bytes(std::uint64_t bytes) {
  if (bytes == UINT64_MAX) return "more than 2^64 bytes";
  char gib[32];
  std::snprintf(gib, sizeof gib, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return std::string(gib) + " (" + std::to_string(bytes) + " bytes)";
}

memory_error::memory_error(const std::string& what, std::uint64_t needed, std::uint64_t available)
    : std::runtime_error(what + " needs " + describe_bytes(needed) + " of memory, but only " +
                         describe_bytes(available) + " is available"),
      needed_(needed), available_(available) {}

void require_memory(const std::string& what, std::uint64_t needed, std::uint64_t limit) {
  const std::uint64_t available = limit ? limit : available_memory();
  if (needed > available) throw memory_error(what, needed, available);
}

}  // namespace deltasplit::graph
