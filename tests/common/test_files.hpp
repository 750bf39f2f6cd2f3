// Files in tests: a private temporary directory per test with text and gzip files written into
// it, a file's bytes, and a check that an input_error names the right file and line.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <dirent.h>
#include <unistd.h>
#include <zlib.h>

#include "deltasplit/graph/error.hpp"

namespace deltasplit_test {

class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp")) +
                          "/deltasplit-test-XXXXXX";
    path_.assign(pattern);
    if (!::mkdtemp(path_.data())) throw std::runtime_error("mkdtemp failed");
  }
  ~temp_dir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::string& content) const {
    std::string p = file(name);
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  // A symbolic link `name` to `target`; returns its path.
  std::string path_of_link(const std::string& name, const std::string& target) const {
    std::string p = file(name);
    if (::symlink(target.c_str(), p.c_str()) != 0) throw std::runtime_error("symlink failed");
    return p;
  }
  std::size_t count_files_containing(const std::string& fragment) const {
    std::size_t count = 0;
    if (DIR* d = ::opendir(path_.c_str())) {
      while (dirent* e = ::readdir(d)) count += std::string(e->d_name).find(fragment) != std::string::npos;
      ::closedir(d);
    }
    return count;
  }
  std::string write_gzip(const std::string& name, const std::string& content) const {
    std::string p = file(name);
    gzFile f = gzopen(p.c_str(), "wb");
    gzwrite(f, content.data(), static_cast<unsigned>(content.size()));
    gzclose(f);
    return p;
  }

 private:
  std::string path_;
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs f, which must throw input_error for `file` at `line` with `fragment` in its message.
inline void expect_input_error(const std::function<void()>& f, const std::string& file, std::uint64_t line,
                               const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no input_error; expected " << file << ":" << line << ": ..." << fragment << "...";
  } catch (const deltasplit::graph::input_error& e) {
    EXPECT_EQ(e.file(), file) << e.what();
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "message: " << e.what();
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << "message: " << e.what();
  }
}

}  // namespace deltasplit_test
