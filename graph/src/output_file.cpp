// Temporary-file-and-rename output with optional gzip (see output_file.hpp).
#include "output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace deltasplit::graph::detail {

namespace {
constexpr std::size_t buffer_bytes = std::size_t{1} << 20;

std::runtime_error write_error(const std::string& path, const std::string& what) {
  return std::runtime_error(path + ": " + what);
}
}  // namespace

struct output_file::deflater {
  z_stream z{};
  std::vector<unsigned char> out = std::vector<unsigned char>(buffer_bytes);
  ~deflater() { deflateEnd(&z); }
};

output_file::output_file(const std::string& path, bool gzip)
    : path_(path), buffer_(new char[buffer_bytes]) {
  std::string pattern = path + ".tmp.XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) throw write_error(path, std::string("cannot create a temporary file beside it: ") + std::strerror(errno));
  temp_.assign(name.data());
  ::fchmod(fd_, 0644);
  try {
    start_gzip(gzip);
  } catch (...) {
    ::close(fd_);
    ::unlink(temp_.c_str());
    throw;
  }
}

output_file::output_file(int fd, const std::string& name, bool gzip)
    : path_(name), fd_(fd), stream_(true), buffer_(new char[buffer_bytes]) {
  if (fd < 0) throw write_error(name, "not an open file descriptor");
  start_gzip(gzip);
}

void output_file::start_gzip(bool gzip) {
  if (!gzip) return;
  gzip_ = std::make_unique<deflater>();
  if (deflateInit2(&gzip_->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    gzip_.reset();
    throw write_error(path_, "cannot initialise zlib");
  }
}

output_file::~output_file() {
  if (fd_ >= 0 && !stream_) ::close(fd_);
  if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void output_file::raw_write(const unsigned char* data, std::size_t n) {
  while (n) {
    ssize_t got = ::write(fd_, data, n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw write_error(path_, std::string("write failed: ") + std::strerror(errno));
    data += got;
    n -= static_cast<std::size_t>(got);
  }
}

void output_file::sink(const unsigned char* data, std::size_t n, bool finish) {
  if (!gzip_) {
    raw_write(data, n);
    return;
  }
  z_stream& z = gzip_->z;
  z.next_in = const_cast<unsigned char*>(data);
  z.avail_in = static_cast<uInt>(n);
  int rc;
  do {
    z.next_out = gzip_->out.data();
    z.avail_out = static_cast<uInt>(gzip_->out.size());
    rc = deflate(&z, finish ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_ERROR) throw write_error(path_, "gzip compression failed");
    raw_write(gzip_->out.data(), gzip_->out.size() - z.avail_out);
  } while (z.avail_out == 0 || (finish && rc != Z_STREAM_END));
}

void output_file::flush() {
  if (used_) sink(reinterpret_cast<const unsigned char*>(buffer_.get()), used_, false);
  used_ = 0;
}

char* output_file::reserve(std::size_t n) {
  if (n > buffer_bytes) throw std::logic_error("output_file::reserve: request larger than the buffer");
  if (buffer_bytes - used_ < n) flush();
  return buffer_.get() + used_;
}

void output_file::write(const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n) {
    if (used_ == buffer_bytes) flush();
    std::size_t take = std::min(n, buffer_bytes - used_);
    std::memcpy(buffer_.get() + used_, p, take);
    used_ += take;
    p += take;
    n -= take;
  }
}

void output_file::finish() {
  flush();
  if (gzip_) sink(nullptr, 0, true);
  if (stream_) return;
  if (::fsync(fd_) != 0) throw write_error(path_, std::string("fsync failed: ") + std::strerror(errno));
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw write_error(path_, std::string("close failed: ") + std::strerror(errno));
}

void output_file::commit() {
  finish();
  if (stream_) {
    committed_ = true;
    return;
  }
  if (::rename(temp_.c_str(), path_.c_str()) != 0)
    throw write_error(path_, std::string("cannot rename the temporary file into place: ") + std::strerror(errno));
  committed_ = true;
}

bool output_file::commit_if_absent() {
  if (stream_) throw std::logic_error("output_file::commit_if_absent: a stream has no place to link");
  finish();
  if (::link(temp_.c_str(), path_.c_str()) != 0) {
    if (errno == EEXIST) return false;
    throw write_error(path_, std::string("cannot link the temporary file into place (without replacing what may be "
                                         "there): ") + std::strerror(errno));
  }
  ::unlink(temp_.c_str());
  committed_ = true;
  return true;
}

}  // namespace deltasplit::graph::detail
