// Building a clean CSR from arrays a program already holds (a pipeline's edge list, a scipy
// matrix's arrays), with the same builder as the file readers: rows sorted by target, self-loops
// dropped and parallel arcs folded into the lightest, counted in origin.self_loops_dropped and
// origin.duplicates_merged exactly as `deltasplit info` reports them for a file with the same
// entries. Host memory; O(n + entries) time and memory, parallel over `threads` (0 = all hardware
// threads); the inputs are read, never changed. origin.format is "arrays", ids 0-based.
// Throws std::invalid_argument for a vertex id >= n, arrays of different lengths, offsets that are
// not n + 1 non-decreasing entries from 0 to the arc count, or a negative or non-finite real
// weight (-0 is taken as 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "deltasplit/graph/csr.hpp"

namespace deltasplit::graph {

// A pointer and a count; the memory belongs to the caller.
template <class T>
struct span {
  const T* ptr = nullptr;
  std::size_t count = 0;

  constexpr span() = default;
  constexpr span(const T* p, std::size_t n) : ptr(p), count(n) {}
  span(const std::vector<T>& v) : ptr(v.data()), count(v.size()) {}  // a vector is a span of itself

  const T* data() const { return ptr; }
  std::size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const T& operator[](std::size_t i) const { return ptr[i]; }
  const T* begin() const { return ptr; }
  const T* end() const { return ptr + count; }
};

// The weights' type sets the graph's kind and width (csr.hpp): uint32 and float give narrow
// integer and real weights, uint64 and double wide ones.
// From arcs src[i] -> dst[i] of weight weights[i]; symmetric: each arc stands for both directions.
csr clean_csr_from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<std::uint32_t> weights,
                        bool symmetric = false, unsigned threads = 0);
csr clean_csr_from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<std::uint64_t> weights,
                        bool symmetric = false, unsigned threads = 0);
csr clean_csr_from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<float> weights,
                        bool symmetric = false, unsigned threads = 0);
csr clean_csr_from_arcs(vertex_t n, span<vertex_t> src, span<vertex_t> dst, span<double> weights,
                        bool symmetric = false, unsigned threads = 0);
// From CSR arrays whose rows may be unsorted and hold self-loops and parallel arcs.
csr clean_csr(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<std::uint32_t> weights,
              bool symmetric = false, unsigned threads = 0);
csr clean_csr(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<std::uint64_t> weights,
              bool symmetric = false, unsigned threads = 0);
csr clean_csr(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<float> weights, bool symmetric = false,
              unsigned threads = 0);
csr clean_csr(vertex_t n, span<edge_t> offsets, span<vertex_t> targets, span<double> weights, bool symmetric = false,
              unsigned threads = 0);

}  // namespace deltasplit::graph
