// A graph file being written: buffered, optionally gzip-compressed, created as a temporary file
// beside its destination and renamed over it only by commit(), so that a failed or interrupted
// write never leaves a half-written graph behind. Or a stream: an open descriptor (a pipe,
// standard output) written in order, which commit() only flushes (a reader downstream sees what
// was written before a failure; the descriptor stays open).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "deltasplit/graph/progress.hpp"

namespace deltasplit::graph::detail {

class output_file {
 public:
  output_file(const std::string& path, bool gzip);
  // Writes to fd (not closed, not synced); `name` names it in errors.
  output_file(int fd, const std::string& name, bool gzip);
  ~output_file();  // removes the temporary file unless committed
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  void write(const void* data, std::size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  // Buffer space for up to n bytes of formatted text; put(k) then keeps the first k.
  char* reserve(std::size_t n);
  void put(std::size_t n) { used_ += n; }
  void commit();  // flushes, closes and renames into place (a stream: flushes)
  // Flushes and closes, then puts the file in place only if nothing is there: link(2) of the
  // temporary file, which fails rather than replace anything that appeared meanwhile (an atomic
  // "create if absent"). False, with the temporary file removed, when the destination exists.
  // Throws where the file system has no hard links.
  bool commit_if_absent();

  // Progress of the writer: "writing", done of total in the writer's unit (arcs, bytes).
  void set_progress(const progress_fn* progress) { progress_ = progress; }
  void report(std::uint64_t done, std::uint64_t total) const {
    if (progress_ && *progress_) (*progress_)("writing", done, total);
  }

 private:
  void flush();
  void finish();  // flushes (ending a gzip stream), syncs and closes the temporary file
  void sink(const unsigned char* data, std::size_t n, bool finish);
  void raw_write(const unsigned char* data, std::size_t n);

  void start_gzip(bool gzip);

  std::string path_, temp_;
  int fd_ = -1;
  bool stream_ = false;  // fd_ is the caller's: written, never synced, closed or renamed
  struct deflater;
  std::unique_ptr<deflater> gzip_;
  std::unique_ptr<char[]> buffer_;
  std::size_t used_ = 0;
  bool committed_ = false;
  const progress_fn* progress_ = nullptr;
};

}  // namespace deltasplit::graph::detail
