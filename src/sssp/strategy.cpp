// Names of the solver strategies, as written on the command line and in statistics.
#include <stdexcept>
#include <string>

#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp {

namespace {
struct named_strategy {
  strategy how;
  const char* name;
};
constexpr named_strategy strategies[] = {
    {strategy::near_far, "near-far"},     {strategy::bucketing, "bucketing"},
    {strategy::multisplit, "multisplit"}, {strategy::workfront, "workfront"},
    {strategy::delta_stepping_cpu, "cpu"}, {strategy::dijkstra, "dijkstra"},
    {strategy::phast, "phast"},
};
}  // namespace

const char* strategy_name(strategy s) {
  for (const auto& n : strategies)
    if (n.how == s) return n.name;
  throw std::invalid_argument("unknown strategy value " + std::to_string(static_cast<int>(s)));
}

strategy strategy_from_name(const std::string& name) {
  for (const auto& n : strategies)
    if (name == n.name) return n.how;
  std::string known;
  for (const auto& n : strategies) known += std::string(known.empty() ? "" : ", ") + n.name;
  throw std::invalid_argument("unknown strategy '" + name + "' (known: " + known + ")");
}

const char* driver_name(gpu_driver d) {
  switch (d) {
    case gpu_driver::automatic: return "auto";
    case gpu_driver::steps: return "steps";
    case gpu_driver::partitioned: return "partitioned";
    case gpu_driver::block: return "block";
    case gpu_driver::wide: return "wide";
  }
  throw std::invalid_argument("unknown driver value " + std::to_string(static_cast<int>(d)));
}

gpu_driver driver_from_name(const std::string& name) {
  for (gpu_driver d : {gpu_driver::automatic, gpu_driver::steps, gpu_driver::partitioned, gpu_driver::block,
                       gpu_driver::wide})
    if (name == driver_name(d)) return d;
  throw std::invalid_argument("unknown driver '" + name + "' (known: auto, steps, partitioned, block, wide)");
}

bool is_gpu_strategy(strategy s) {
  return s == strategy::near_far || s == strategy::bucketing || s == strategy::multisplit ||
         s == strategy::workfront;
}

}  // namespace deltasplit::sssp
