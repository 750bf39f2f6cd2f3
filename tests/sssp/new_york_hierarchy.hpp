// New York's road graph (USA-road-d.NY, 264,346 vertices) and its contraction hierarchy, built
// once per test process for every host test that needs them: the contraction takes seconds on a
// two-core machine, and the tests that check it (its layout, its sweeps, its file) need the same
// one. Built on two threads; the hierarchy is the same for any thread count
// (ContractionHierarchy.BuildIsTheSameOnSeveralThreads).
#pragma once

#include <cstdint>

#include "common/datasets.hpp"
#include "deltasplit/graph/io.hpp"
#include "sssp/contraction_hierarchy.hpp"

namespace deltasplit_test {

struct new_york_roads {
  deltasplit::graph::csr graph;
  deltasplit::sssp::detail::contraction_hierarchy<std::uint32_t> hierarchy;
};

inline const new_york_roads& new_york() {
  static const new_york_roads ny = [] {
    new_york_roads r;
    r.graph = deltasplit::graph::read_graph(dataset_path("USA-road-d.NY.gr.gz"));
    r.hierarchy = deltasplit::sssp::detail::build_contraction_hierarchy<std::uint32_t>(r.graph, 2);
    return r;
  }();
  return ny;
}

}  // namespace deltasplit_test
