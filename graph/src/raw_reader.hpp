// A binary file read with plain read() calls, exactly as many bytes as asked or an input_error:
// the reader of the binary CSR cache (binary_cache.cpp) and of the contraction hierarchy file
// (src/sssp/hierarchy_file.cpp). Both check the sizes their header declares against size() before
// they allocate, so a short read means the file changed while it was read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "content_hash.hpp"
#include "deltasplit/graph/progress.hpp"

namespace deltasplit::graph::detail {

class raw_reader {
 public:
  // Opens path (a regular file, else input_error). `noun` names the kind of file in the message
  // of a short read ("truncated cache: it ends inside the offsets").
  raw_reader(const std::string& path, std::string noun);
  ~raw_reader();
  raw_reader(const raw_reader&) = delete;
  raw_reader& operator=(const raw_reader&) = delete;

  std::uint64_t size() const { return size_; }
  void set_progress(const progress_fn* progress) { progress_ = progress; }
  // Reads exactly n bytes or throws: the file is shorter than its header says.
  void read(void* dst, std::uint64_t n, const char* what);

 private:
  std::string path_, noun_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t done_ = 0;
  const progress_fn* progress_ = nullptr;
};

// count elements into v (resized), added to hash as they are read.
template <class T>
void read_array(raw_reader& in, std::vector<T>& v, std::uint64_t count, const char* what, content_hash& hash) {
  v.resize(count);
  in.read(v.data(), count * sizeof(T), what);
  hash.update(v.data(), count * sizeof(T));
}

}  // namespace deltasplit::graph::detail
