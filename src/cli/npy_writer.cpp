// The .npy matrix writer (see npy_writer.hpp).
#include "cli/npy_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "cli/command.hpp"

namespace deltasplit::cli {

namespace fs = std::filesystem;

std::string npy_writer::header(const char* descr, std::uint64_t rows, std::uint64_t columns) {
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(rows) + ", " + std::to_string(columns) + "), }";
  const std::size_t preamble = 10;  // magic (6), version (2), header length (2)
  std::size_t total = preamble + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(dict.size() & 0xFF));
  out.push_back(static_cast<char>(dict.size() >> 8));
  return out + dict;
}

npy_writer::npy_writer(const std::string& path, bool force, const std::string& input_graph, const char* descr,
                       std::uint64_t value_bytes, std::uint64_t rows, std::uint64_t columns)
    : path_(path), value_bytes_(value_bytes), rows_(rows), columns_(columns) {
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (fs::equivalent(path, input_graph, ec)) throw usage_error("--matrix " + path + ": refusing to overwrite the input graph");
    if (!force) throw usage_error("--matrix " + path + ": file exists (use --force to replace it)");
    if (fs::is_directory(path, ec)) throw usage_error("--matrix " + path + ": is a directory");
  }
  temp_ = path + ".tmp." + std::to_string(::getpid());
  file_ = std::fopen(temp_.c_str(), "wb");
  if (!file_) throw std::runtime_error(path + ": cannot create (" + std::strerror(errno) + ")");
  const std::string h = header(descr, rows, columns);
  if (std::fwrite(h.data(), 1, h.size(), file_) != h.size())
    throw std::runtime_error(path + ": write failed (" + std::strerror(errno) + ")");
}

npy_writer::~npy_writer() {
  if (file_) std::fclose(file_);
  if (!committed_) std::remove(temp_.c_str());
}

void npy_writer::write_rows(const void* data, std::uint64_t count) {
  if (written_ + count > rows_) throw std::logic_error(path_ + ": more rows than the header announced");
  const std::size_t values = static_cast<std::size_t>(count * columns_);
  if (std::fwrite(data, value_bytes_, values, file_) != values)
    throw std::runtime_error(path_ + ": write failed (" + std::strerror(errno) + ")");
  written_ += count;
}

void npy_writer::commit() {
  if (written_ != rows_)
    throw std::logic_error(path_ + ": " + std::to_string(written_) + " of " + std::to_string(rows_) + " rows written");
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) throw std::runtime_error(path_ + ": write failed (disk full?)");
  if (std::rename(temp_.c_str(), path_.c_str()) != 0)
    throw std::runtime_error(path_ + ": cannot move into place (" + std::strerror(errno) + ")");
  committed_ = true;
}

}  // namespace deltasplit::cli
