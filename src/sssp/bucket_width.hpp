// The bucket width delta of delta-stepping (Meyer and Sanders, J. Algorithms 49(1), 2003): the one
// place where the graph statistics behind the automatic widths are measured, where the CPU's and
// the GPU's automatic rules live (each fitted to its own measurements), where every width is
// bounded, and where a light arc is defined. Host C++ that nvcc also compiles (light_arc runs on
// the device).
#pragma once

#include <cstdint>

#include "deltasplit/csr_view.hpp"
#include "deltasplit/graph/csr.hpp"

#if defined(__CUDACC__)
#define DELTASPLIT_HOST_DEVICE __host__ __device__
#else
#define DELTASPLIT_HOST_DEVICE
#endif

namespace deltasplit::sssp::detail {

// A light arc can leave its tail's bucket unchanged; a heavy one (w >= delta) always lands in a
// later bucket, so it needs relaxing only once its tail's distance is final (Section 2). Strict
// "<" so that a width of 1 on integer weights makes every arc of weight >= 1 heavy and a bucket
// holds one distance value. The GPU engine splits rows at it (engine.cu, split_light_arcs).
template <class Weight, class Delta>
DELTASPLIT_HOST_DEVICE constexpr bool light_arc(Weight w, Delta delta) {
  return w < delta;
}

// What the automatic rules read from a graph.
struct graph_statistics {
  std::uint64_t vertices = 0, arcs = 0;
  double mean_weight = 0;  // over all arcs; 0 without arcs
  double max_weight = 0;
  double mean_degree = 0;  // arcs / vertices; 0 without vertices
};
graph_statistics measure(const csr_view& g);

// Bounds a width so that every use of it is defined: integer graphs get an integer in
// [1, 2^32 - 2] (a wider bucket than the largest finite distance changes nothing), or in [1, 2^63]
// for the GPU's uint64 distances (wide: weights past 2^32 need buckets as wide), real graphs a
// float in [the smallest normal float, the largest float]. NaN or <= 0 becomes the lower bound.
double bounded_width(double delta, graph::weight_kind kind, bool wide = false);

// The CPU solver's automatic width for a team of `threads` (delta_stepping_cpu.cpp); the rule and
// the measurements that chose it are in bucket_width.cpp. Bounded.
double cpu_auto_width(const graph_statistics& s, graph::weight_kind kind, unsigned threads);

// The GPU engine's automatic width (engine.cu); rule and measurements in bucket_width.cpp. Bounded
// (wide: for uint64 distances).
double gpu_auto_width(const graph_statistics& s, graph::weight_kind kind, bool wide = false);

}  // namespace deltasplit::sssp::detail
