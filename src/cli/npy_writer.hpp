// A distance matrix written as a NumPy .npy file (format version 1.0), row by row as batches
// finish, so a matrix larger than memory streams to disk: a 10-byte preamble, a header dict
// {'descr': '<u4', '<u8', '<f4' or '<f8', 'fortran_order': False, 'shape': (rows, columns)} padded with spaces
// to a multiple of 64 bytes, then the rows, little-endian, C order. Like text_output, the file is
// written under a temporary name and renamed into place by commit(); an existing file is replaced
// only with force.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace deltasplit::cli {

class npy_writer {
 public:
  // descr: "<u4", "<u8", "<f4" or "<f8", of value_bytes bytes each. Refuses (usage_error) an
  // existing path without force.
  npy_writer(const std::string& path, bool force, const std::string& input_graph, const char* descr,
             std::uint64_t value_bytes, std::uint64_t rows, std::uint64_t columns);
  ~npy_writer();
  npy_writer(const npy_writer&) = delete;
  npy_writer& operator=(const npy_writer&) = delete;

  // Appends count rows of columns values; throws naming the file when writing fails.
  void write_rows(const void* data, std::uint64_t count);
  void commit();  // all rows written: the file moves into place

  // The header bytes (preamble included) for a matrix of this shape.
  static std::string header(const char* descr, std::uint64_t rows, std::uint64_t columns);

 private:
  std::string path_, temp_;
  std::FILE* file_ = nullptr;
  std::uint64_t value_bytes_, rows_, columns_, written_ = 0;
  bool committed_ = false;
};

}  // namespace deltasplit::cli
