// Progress of long work (reading a file, building a CSR, generating, writing) for a caller that
// shows it; the graph layer itself never prints. The callback runs on the calling thread only.
#pragma once

#include <cstdint>
#include <functional>

namespace deltasplit::graph {

// stage: "reading", "building", "generating", "writing"; done <= total, in the stage's own unit
// (bytes of the file, arcs, steps). Called with done == total when a stage ends.
using progress_fn = std::function<void(const char* stage, std::uint64_t done, std::uint64_t total)>;

}  // namespace deltasplit::graph
