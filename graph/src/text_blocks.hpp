// Reads a text graph file in large blocks of whole lines, decompressing gzip when the file starts
// with the gzip magic bytes (1f 8b), whatever its name. Parsers then work on memory, never on
// iostreams, and can split a block into line-aligned chunks for parallel parsing. While reading,
// it hashes the raw bytes: the identity a binary cache records for its source file.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace deltasplit::graph::detail {

struct file_identity {
  std::uint64_t bytes = 0;
  std::int64_t mtime_ns = 0;
  std::uint64_t hash = 0;  // content_hash of the raw (still compressed) bytes
};

// Size and modification time of a file; false when it cannot be stat'ed.
bool stat_file(const std::string& path, std::uint64_t& bytes, std::int64_t& mtime_ns);
// Absolute, symlink-free path when the file exists, the path unchanged otherwise.
std::string canonical_path(const std::string& path);
// Hashes the first `max_bytes` raw bytes of a regular file (a cache's source, when its mtime
// moved). Sets `regular` false, hashing nothing, for anything else: a FIFO or a device would
// block or never end.
std::uint64_t hash_file(const std::string& path, std::uint64_t max_bytes, bool& regular);

// An open file descriptor, closed on destruction (also when a constructor throws half-way).
struct file_descriptor {
  int fd = -1;
  file_descriptor() = default;
  file_descriptor(const file_descriptor&) = delete;
  file_descriptor& operator=(const file_descriptor&) = delete;
  ~file_descriptor();
};

class text_blocks {
 public:
  // block_bytes = 0: 32 MiB for plain text; 2 MiB for gzip, where a read-ahead thread inflates
  // the next block while the current one is parsed, and smaller blocks let the two overlap.
  text_blocks(const std::string& path, std::size_t block_bytes, bool read_ahead);
  ~text_blocks();
  text_blocks(const text_blocks&) = delete;
  text_blocks& operator=(const text_blocks&) = delete;

  // Replaces `block` with the next run of whole lines (the file's last line may lack its '\n').
  // Returns false, with `block` empty, at the end of the file.
  bool next(std::string& block);

  const std::string& path() const { return path_; }
  // Both valid once next() returned false.
  std::uint64_t text_bytes() const { return text_bytes_; }  // decompressed bytes delivered
  file_identity identity() const;
  // For progress: raw bytes read from the file so far (any thread may ask), and its size.
  std::uint64_t raw_bytes() const { return raw_bytes_.load(std::memory_order_relaxed); }
  std::uint64_t file_bytes() const { return identity_.bytes; }

 private:
  struct gzip_stream;
  struct hash_state;
  struct prefetch_queue;
  bool next_block(std::string& block);  // the reading itself, on whichever thread
  void start_read_ahead();
  std::size_t read_raw(char* dst, std::size_t n);
  void fill(std::string& out, std::size_t target);  // appends text up to target bytes or the end
  bool at_end() const;
  std::size_t inflate_into(char* dst, std::size_t n);

  std::string path_;
  std::size_t block_bytes_;
  file_descriptor fd_;
  bool raw_eof_ = false;
  std::string carry_;  // a partial last line held back for the next block
  std::unique_ptr<gzip_stream> gzip_;
  std::uint64_t text_bytes_ = 0;
  std::atomic<std::uint64_t> raw_bytes_{0};
  file_identity identity_;
  std::unique_ptr<hash_state> hash_;
  std::unique_ptr<prefetch_queue> ahead_;
};

}  // namespace deltasplit::graph::detail
