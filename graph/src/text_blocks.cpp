// Block reader with gzip detection by content (see text_blocks.hpp).
#include "text_blocks.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "content_hash.hpp"
#include "deltasplit/graph/error.hpp"

namespace deltasplit::graph::detail {

namespace {
constexpr std::size_t plain_block_bytes = std::size_t{32} << 20;
// Of 1, 2, 4, 8 and 32 MiB, 2 MiB loaded the bundled gzip graphs fastest: small blocks let
// inflating and parsing overlap sooner (bench/results/graph_loading.md).
constexpr std::size_t gzip_block_bytes = std::size_t{2} << 20;
constexpr std::size_t raw_chunk_bytes = std::size_t{4} << 20;
// A line longer than this is not a graph file line: stop instead of buffering the whole file.
constexpr std::size_t max_line_bytes = std::size_t{64} << 20;
}  // namespace

bool stat_file(const std::string& path, std::uint64_t& bytes, std::int64_t& mtime_ns) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  bytes = static_cast<std::uint64_t>(st.st_size);
  mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return true;
}

std::string canonical_path(const std::string& path) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (!resolved) return path;
  std::string out(resolved);
  std::free(resolved);
  return out;
}

std::uint64_t hash_file(const std::string& path, std::uint64_t max_bytes, bool& regular) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It does not change
  // how a regular file reads.
  regular = false;
  file_descriptor fd;
  fd.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd.fd < 0) throw input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  regular = true;
  content_hash h;
  std::vector<char> buf(static_cast<std::size_t>(std::min<std::uint64_t>(raw_chunk_bytes, max_bytes)));
  while (max_bytes) {
    ssize_t got = ::read(fd.fd, buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), max_bytes)));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw input_error(path, 0, std::string("read failed: ") + std::strerror(errno));
    if (got == 0) break;
    h.update(buf.data(), static_cast<std::size_t>(got));
    max_bytes -= static_cast<std::uint64_t>(got);
  }
  return h.digest();
}

struct text_blocks::hash_state {
  content_hash h;
};

struct text_blocks::gzip_stream {
  z_stream z{};
  std::vector<unsigned char> in;
  bool member_ended = false;
  bool done = false;
  gzip_stream() : in(raw_chunk_bytes) {}
  ~gzip_stream() { inflateEnd(&z); }
};

// Inflating runs one block ahead of parsing: the producer fills at most `depth` blocks, and
// spent blocks come back as spare buffers, so steady state allocates nothing.
struct text_blocks::prefetch_queue {
  static constexpr std::size_t depth = 2;
  std::mutex m;
  std::condition_variable cv;
  std::deque<std::string> ready;
  std::vector<std::string> spare;
  bool done = false, stop = false;
  std::exception_ptr error;
  std::thread worker;
};

text_blocks::text_blocks(const std::string& path, std::size_t block_bytes, bool read_ahead)
    : path_(path), block_bytes_(block_bytes), hash_(std::make_unique<hash_state>()) {
  fd_.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_.fd < 0) throw input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_.fd, &st) != 0 || !S_ISREG(st.st_mode)) throw input_error(path, 0, "not a regular file");
  identity_.bytes = static_cast<std::uint64_t>(st.st_size);
  identity_.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;

  // Sniff the first two bytes: gzip is recognised by its magic, not by the file name.
  unsigned char head[2];
  std::size_t got = read_raw(reinterpret_cast<char*>(head), 2);
  if (got == 2 && head[0] == 0x1f && head[1] == 0x8b) {
    gzip_ = std::make_unique<gzip_stream>();
    if (inflateInit2(&gzip_->z, 15 + 16) != Z_OK) throw input_error(path, 0, "cannot initialise zlib");
    gzip_->in[0] = head[0];
    gzip_->in[1] = head[1];
    gzip_->z.next_in = gzip_->in.data();
    gzip_->z.avail_in = 2;
  } else {
    carry_.assign(reinterpret_cast<char*>(head), got);
    text_bytes_ = got;
  }
  if (!block_bytes_) block_bytes_ = gzip_ ? gzip_block_bytes : plain_block_bytes;
  if (read_ahead && gzip_) start_read_ahead();
}

void text_blocks::start_read_ahead() {
  ahead_ = std::make_unique<prefetch_queue>();
  try {
    ahead_->worker = std::thread([this] {
      prefetch_queue& q = *ahead_;
      for (;;) {
        std::string buf;
        {
          std::unique_lock<std::mutex> lock(q.m);
          q.cv.wait(lock, [&] { return q.stop || q.ready.size() < q.depth; });
          if (q.stop) return;
          if (!q.spare.empty()) {
            buf.swap(q.spare.back());
            q.spare.pop_back();
          }
        }
        bool more = false;
        std::exception_ptr error;
        try {
          more = next_block(buf);
        } catch (...) {
          error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(q.m);
        if (more) q.ready.push_back(std::move(buf));
        q.error = error;
        q.done = !more;
        q.cv.notify_all();
        if (q.done) return;
      }
    });
  } catch (const std::system_error&) {
    ahead_.reset();  // no thread to be had: read on the caller's thread
  }
}

text_blocks::~text_blocks() {
  if (ahead_) {
    {
      std::lock_guard<std::mutex> lock(ahead_->m);
      ahead_->stop = true;
    }
    ahead_->cv.notify_all();
    ahead_->worker.join();
  }
}

file_descriptor::~file_descriptor() {
  if (fd >= 0) ::close(fd);
}

bool text_blocks::next(std::string& block) {
  if (!ahead_) return next_block(block);
  prefetch_queue& q = *ahead_;
  std::unique_lock<std::mutex> lock(q.m);
  q.cv.wait(lock, [&] { return !q.ready.empty() || q.done; });
  if (!q.ready.empty()) {
    q.spare.push_back(std::move(block));
    block = std::move(q.ready.front());
    q.ready.pop_front();
    q.cv.notify_all();
    return true;
  }
  if (q.error) std::rethrow_exception(q.error);
  block.clear();
  return false;
}

file_identity text_blocks::identity() const {
  file_identity id = identity_;
  id.hash = hash_->h.digest();
  return id;
}

std::size_t text_blocks::read_raw(char* dst, std::size_t n) {
  std::size_t total = 0;
  while (total < n && !raw_eof_) {
    ssize_t got = ::read(fd_.fd, dst + total, n - total);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw input_error(path_, 0, std::string("read failed: ") + std::strerror(errno));
    if (got == 0) {
      raw_eof_ = true;
      break;
    }
    hash_->h.update(dst + total, static_cast<std::size_t>(got));
    total += static_cast<std::size_t>(got);
    raw_bytes_.fetch_add(static_cast<std::uint64_t>(got), std::memory_order_relaxed);
  }
  return total;
}

std::size_t text_blocks::inflate_into(char* dst, std::size_t n) {
  gzip_stream& g = *gzip_;
  g.z.next_out = reinterpret_cast<Bytef*>(dst);
  g.z.avail_out = static_cast<uInt>(n);
  while (g.z.avail_out != 0 && !g.done) {
    if (g.z.avail_in < 2 && !raw_eof_) {
      // Keep the unread byte (if any) and refill behind it.
      std::size_t keep = g.z.avail_in;
      if (keep) g.in[0] = *g.z.next_in;
      keep += read_raw(reinterpret_cast<char*>(g.in.data()) + keep, g.in.size() - keep);
      g.z.next_in = g.in.data();
      g.z.avail_in = static_cast<uInt>(keep);
    }
    if (g.member_ended) {
      if (g.z.avail_in == 0) {
        g.done = true;
        break;
      }
      // Concatenated gzip members (as `cat a.gz b.gz` makes) are one stream; anything else
      // after the end of a member is damage.
      if (g.z.avail_in < 2 || g.z.next_in[0] != 0x1f || g.z.next_in[1] != 0x8b)
        throw input_error(path_, 0, "corrupt gzip file: unexpected bytes after the end of the compressed stream");
      inflateReset(&g.z);
      g.member_ended = false;
    }
    if (g.z.avail_in == 0)
      throw input_error(path_, 0, "truncated gzip file: it ends inside the compressed stream");
    int rc = inflate(&g.z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      g.member_ended = true;
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      throw input_error(path_, 0, std::string("corrupt gzip stream: ") + (g.z.msg ? g.z.msg : "inflate failed"));
    } else if (rc == Z_BUF_ERROR && raw_eof_ && g.z.avail_in == 0) {
      throw input_error(path_, 0, "truncated gzip file: it ends inside the compressed stream");
    }
  }
  return n - g.z.avail_out;
}

void text_blocks::fill(std::string& out, std::size_t target) {
  // Grow geometrically from 64 KiB, so that a small file does not pay for a whole block.
  // (at most 1 GiB per call: zlib counts in 32-bit units).
  std::size_t room = std::min({target - out.size(), std::max<std::size_t>(out.size(), std::size_t{64} << 10),
                               std::size_t{1} << 30});
  std::size_t old = out.size();
  out.resize(old + room);
  std::size_t got = gzip_ ? inflate_into(&out[old], room) : read_raw(&out[old], room);
  out.resize(old + got);
  text_bytes_ += got;
}

bool text_blocks::at_end() const { return gzip_ ? gzip_->done : raw_eof_; }

bool text_blocks::next_block(std::string& block) {
  block.assign(carry_);
  carry_.clear();
  std::size_t target = block_bytes_;
  for (;;) {
    while (block.size() < target && !at_end()) fill(block, target);
    if (at_end()) return !block.empty();
    std::size_t nl = block.rfind('\n');
    if (nl != std::string::npos) {
      carry_.assign(block, nl + 1, std::string::npos);
      block.resize(nl + 1);
      return true;
    }
    if (block.size() >= max_line_bytes)
      throw input_error(path_, 0, "no line break within 64 MiB: not a text graph file");
    target = block.size() + raw_chunk_bytes;
  }
}

}  // namespace deltasplit::graph::detail
