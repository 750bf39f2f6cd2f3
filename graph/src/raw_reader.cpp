// Exact binary reads (see raw_reader.hpp).
#include "raw_reader.hpp"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deltasplit/graph/error.hpp"

namespace deltasplit::graph::detail {

raw_reader::raw_reader(const std::string& path, std::string noun) : path_(path), noun_(std::move(noun)) {
  // O_NONBLOCK: opening a FIFO would otherwise wait for a writer; it is refused below instead.
  // On a regular file the flag changes nothing.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) throw input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw input_error(path, 0, "not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

raw_reader::~raw_reader() { ::close(fd_); }

void raw_reader::read(void* dst, std::uint64_t n, const char* what) {
  auto* p = static_cast<char*>(dst);
  while (n) {
    // At most 1 GiB per call: read() transfers at most 0x7ffff000 bytes at once on Linux.
    ssize_t got = ::read(fd_, p, n > (1u << 30) ? (1u << 30) : n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw input_error(path_, 0, std::string("read failed: ") + std::strerror(errno));
    if (got == 0) throw input_error(path_, 0, "truncated " + noun_ + ": it ends inside the " + what);
    p += got;
    n -= static_cast<std::uint64_t>(got);
    done_ += static_cast<std::uint64_t>(got);
    if (progress_ && *progress_) (*progress_)("reading", done_, size_);
  }
}

}  // namespace deltasplit::graph::detail
