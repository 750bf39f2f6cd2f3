// The GPU engine's arc order for a host graph (src/sssp/gpu/engine.cu): every row sorted by weight,
// ties by target, so that a row's light arcs come first and one binary search per row splits them
// (split_light_arcs). Host C++, so that the host tests check it without a GPU.
#pragma once

#include <vector>

#include "deltasplit/csr_view.hpp"

namespace deltasplit::sssp::detail {

// The rows `threads` threads take, in order: thread t rows first[t] .. first[t + 1] (threads + 1
// entries, first[0] = 0, first[threads] = n), cut where the t-th share of the arcs begins, so each
// thread sorts about as many arcs however skewed the degrees (R-MAT's hubs sit at low ids: an even
// split of the vertices left the first of 16 threads a third of Graph500 R-MAT's arcs). A row is
// never cut; a hub longer than a share leaves the thread after it fewer arcs, or none.
std::vector<vertex_t> rows_by_arcs(span<edge_t> offsets, vertex_t n, unsigned threads);

// g's arcs with every row sorted by (weight, target) into targets and sorted_weights (resized to
// g.num_arcs()), on a thread_pool of `threads` threads (0: the hardware's, at most 16; never more
// than the rows), rows_by_arcs's runs: on R-MAT the even split of the vertices left one run
// several times the others' work, and sorting (weight, target) pairs beats sorting an index of
// the arcs (bench/results/graph_loading.md, "Rows sorted by weight"). Weight: std::uint32_t or
// float.
template <class Weight>
void rows_by_weight(const csr_view& g, span<Weight> weights, std::vector<vertex_t>& targets,
                    std::vector<Weight>& sorted_weights, unsigned threads = 0);

}  // namespace deltasplit::sssp::detail
