// Names of the solver strategies, as written on the command line and in statistics.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "deltasplit/sssp.hpp"

namespace deltasplit::sssp {

namespace {
template <class Enum>
struct named {
  Enum value;
  const char* name;
};
// In the order strategy_names() lists them: those that run on the GPU when one is usable, then the
// CPU's.
constexpr named<strategy> strategies[] = {
    {strategy::near_far, "near-far"},      {strategy::bucketing, "bucketing"}, {strategy::multisplit, "multisplit"},
    {strategy::workfront, "workfront"},    {strategy::phast, "phast"},         {strategy::delta_stepping_cpu, "cpu"},
    {strategy::dijkstra, "dijkstra"},
};
constexpr named<gpu_driver> drivers[] = {
    {gpu_driver::automatic, "auto"}, {gpu_driver::steps, "steps"}, {gpu_driver::partitioned, "partitioned"},
    {gpu_driver::block, "block"},    {gpu_driver::wide, "wide"},
};
constexpr named<heavy_relaxation> heavy_modes[] = {
    {heavy_relaxation::automatic, "auto"}, {heavy_relaxation::push, "push"}, {heavy_relaxation::pull, "pull"}};

// The name of value in table; what ("strategy", "driver") names the kind in the error.
template <class Enum, std::size_t N>
const char* name_in(const named<Enum> (&table)[N], Enum value, const char* what) {
  for (const auto& n : table)
    if (n.value == value) return n.name;
  throw std::invalid_argument(std::string("unknown ") + what + " value " + std::to_string(static_cast<int>(value)));
}

// The value named `name` in table; the error lists every name.
template <class Enum, std::size_t N>
Enum value_in(const named<Enum> (&table)[N], const std::string& name, const char* what) {
  for (const auto& n : table)
    if (name == n.name) return n.value;
  std::string known;
  for (const auto& n : table) known += std::string(known.empty() ? "" : ", ") + n.name;
  throw std::invalid_argument(std::string("unknown ") + what + " '" + name + "' (known: " + known + ")");
}

// Every name in table, in its order.
template <class Enum, std::size_t N>
std::vector<std::string> names_in(const named<Enum> (&table)[N]) {
  std::vector<std::string> names;
  for (const auto& n : table) names.emplace_back(n.name);
  return names;
}
}  // namespace

const char* strategy_name(strategy s) { return name_in(strategies, s, "strategy"); }
strategy strategy_from_name(const std::string& name) { return value_in(strategies, name, "strategy"); }
std::vector<std::string> strategy_names() { return names_in(strategies); }
const char* driver_name(gpu_driver d) { return name_in(drivers, d, "driver"); }
gpu_driver driver_from_name(const std::string& name) { return value_in(drivers, name, "driver"); }
std::vector<std::string> driver_names() { return names_in(drivers); }
const char* heavy_relaxation_name(heavy_relaxation h) { return name_in(heavy_modes, h, "heavy-arc mode"); }
heavy_relaxation heavy_relaxation_from_name(const std::string& name) {
  return value_in(heavy_modes, name, "heavy-arc mode");
}

bool is_gpu_strategy(strategy s) {
  return s == strategy::near_far || s == strategy::bucketing || s == strategy::multisplit ||
         s == strategy::workfront;
}

bool runs_on_gpu(strategy s) { return is_gpu_strategy(s) || s == strategy::phast; }

std::vector<std::string> gpu_strategy_names() {
  std::vector<std::string> names;
  for (const auto& n : strategies)
    if (runs_on_gpu(n.value)) names.emplace_back(n.name);
  return names;
}

}  // namespace deltasplit::sssp
