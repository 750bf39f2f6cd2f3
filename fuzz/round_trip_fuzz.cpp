// libFuzzer target: what `deltasplit convert` does. A graph is read from the fuzzer's bytes,
// written by one of the writers and read back, and must come back equal: the same vertices,
// arcs, weight kind and weights. The first byte chooses the formats: bits 0-1 the input (Matrix
// Market, DIMACS, edge list), bits 2-3 the output (Matrix Market, DIMACS, edge list, binary
// cache), bit 4 a gzip-compressed text output. Seeds: fuzz/corpus/round_trip/.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deltasplit_fuzz;
  if (size == 0) return 0;
  const unsigned mode = data[0];
  ++data;
  --size;
  static const graph::file_format inputs[] = {graph::file_format::matrix_market, graph::file_format::dimacs,
                                              graph::file_format::edge_list, graph::file_format::matrix_market};
  static const char* const input_names[] = {"input.mtx", "input.gr", "input.edges", "input.mtx"};
  static const char* const output_names[] = {"output.mtx", "output.gr", "output.edges", "output.dsg"};
  graph::csr g;
  if (!read_checked(write_file(input_names[mode & 3u], data, size), inputs[mode & 3u], size, &g)) return 0;

  const unsigned out_format = (mode >> 2) & 3u;
  std::string out = scratch().file(output_names[out_format]);
  if ((mode & 16u) && out_format != 3) out += ".gz";
  graph::write_options wo;
  wo.overwrite = true;
  try {
    graph::write_graph(g, out, wo);
  } catch (const std::invalid_argument&) {
    // The one refusal a clean graph may meet: real weights have no DIMACS form.
    if (out_format == 1 && g.kind == graph::weight_kind::real) return 0;
    throw;
  }
  graph::csr back;
  graph::read_options ro = fuzz_read_options(size);
  try {
    back = graph::read_graph(out, ro);
  } catch (const graph::input_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    finding("a written graph does not read back");
  }
  if (!same_graph(g, back)) finding("a graph read back differs from the graph written");
  return 0;
}
