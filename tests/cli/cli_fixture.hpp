// The deltasplit program's tests (cli_test.cpp, cli_matrix_test.cpp): the fixture that runs the
// built program in a fresh directory, and the helpers both files use. Two files so that the
// tests' compile, the last step of a build, takes both cores.
#pragma once

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/datasets.hpp"
#include "deltasplit/graph/io.hpp"
#include "deltasplit/graph/memory.hpp"
#include "deltasplit/sssp.hpp"

namespace fs = std::filesystem;
namespace ds = deltasplit::sssp;
namespace graph = deltasplit::graph;

struct outcome {
  int status = -1;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("deltasplit_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }

  // The program built beside this test, or $DELTASPLIT_CLI where the binaries were copied (the
  // GPU machine runs them from another directory).
  static std::string program() {
    const char* moved = std::getenv("DELTASPLIT_CLI");
    return moved ? moved : DELTASPLIT_CLI;
  }

  outcome run(const std::string& arguments) const {
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    const std::string command = "'" + program() + "' " + arguments + " >'" + out + "' 2>'" + err + "'";
    int raw = std::system(command.c_str());
    outcome o;
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
  }

  fs::path dir_;
};

inline const std::string chesapeake = deltasplit_test::dataset_path("chesapeake.mtx");
