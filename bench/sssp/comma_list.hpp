// The benchmarks' options: "a,b,,c" -> {"a", "b", "c"} (comma-separated lists), and an option's value.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace deltasplit_bench {

inline std::vector<std::string> comma_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) out.push_back(part);
  return out;
}

// argv[i + 1], the value of the option argv[i], with i moved onto it; std::invalid_argument when
// the option is the last argument.
inline std::string option_value(int argc, char** argv, int& i) {
  if (i + 1 >= argc) throw std::invalid_argument(std::string(argv[i]) + " needs a value");
  return argv[++i];
}

}  // namespace deltasplit_bench
