// A text file the program writes (distances, predecessors, statistics): '-' is standard output;
// otherwise it is written beside its destination under a temporary name and renamed into place
// by commit(), so a failed run never leaves a half-written file. An existing file is replaced
// only when allowed (--force), and the input graph never.
#pragma once

#include <fstream>
#include <iosfwd>
#include <string>

namespace deltasplit::cli {

class text_output {
 public:
  text_output(const std::string& path, bool force, const std::string& input_graph, const char* flag);
  ~text_output();
  text_output(const text_output&) = delete;
  text_output& operator=(const text_output&) = delete;

  std::ostream& stream();
  bool to_stdout() const { return path_ == "-"; }
  void commit();  // throws std::runtime_error naming the file when writing failed

 private:
  std::string path_, temp_;
  std::ofstream file_;
  bool committed_ = false;
};

}  // namespace deltasplit::cli
