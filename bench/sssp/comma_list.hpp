// "a,b,,c" -> {"a", "b", "c"}: the comma-separated lists of the benchmarks' options.
#pragma once

#include <sstream>
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

}  // namespace deltasplit_bench
