// libFuzzer target: the contraction hierarchy reader (src/sssp/hierarchy_file.hpp). The first
// byte chooses the mode; the rest is the file.
//   bit 0: the header and payload checksums are recomputed before reading, so the fuzzer gets
//          past them to the size and layout checks (anyone can write a valid checksum);
//   bit 1: the graph expected is the one the header names (so the layout checks are reached at
//          any size), else a fixed 6-vertex graph whose hierarchy files are among the seeds;
//   bit 2: read as a hierarchy of real weights, else of integer weights.
// A malformed file must end in graph::input_error. A file that loads must keep the promise the
// GPU sweep relies on and the CPU sweep cannot show (every down in-arc from an earlier level, so
// one level's positions never race), sweep from its first, middle and last vertex under the
// sanitizers, and be written back byte for byte. Seeds: fuzz/corpus/hierarchy/.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "content_hash.hpp"
#include "deltasplit/csr_view.hpp"
#include "deltasplit/graph/csr.hpp"
#include "deltasplit/sssp.hpp"
#include "fuzz_support.hpp"
#include "sssp/contraction_hierarchy.hpp"
#include "sssp/hierarchy_file.hpp"

namespace {

namespace sd = deltasplit::sssp::detail;
using header = sd::hierarchy_header;
using deltasplit::graph::vertex_t;
using deltasplit_fuzz::finding;

// The fingerprint of a fixed graph: 0 -> 1 -> 2 -> 0, 2 -> 3, 3 <-> 4, 5 alone, weights 1 to 5 (as
// integers or reals). A view, not a graph::csr: the fuzz build has no solver library to convert.
sd::graph_fingerprint fixed_fingerprint(bool real) {
  static const std::vector<deltasplit::graph::edge_t> offsets = {0, 1, 2, 4, 5, 6, 6};
  static const std::vector<vertex_t> targets = {1, 2, 0, 3, 4, 3};
  static const std::vector<std::uint32_t> int_weights = {1, 2, 3, 4, 5, 1};
  static const std::vector<float> real_weights(int_weights.begin(), int_weights.end());
  deltasplit::sssp::csr_view g;
  g.num_vertices = 6;
  g.offsets = {offsets.data(), offsets.size()};
  g.targets = {targets.data(), targets.size()};
  g.kind = real ? deltasplit::graph::weight_kind::real : deltasplit::graph::weight_kind::integer;
  if (real)
    g.real_weights = {real_weights.data(), real_weights.size()};
  else
    g.int_weights = {int_weights.data(), int_weights.size()};
  return sd::fingerprint_of(g);
}

void fix_checksums(std::vector<unsigned char>& file) {
  if (file.size() < sizeof(header)) return;
  deltasplit::graph::detail::content_hash payload;
  payload.update(file.data() + sizeof(header), file.size() - sizeof(header));
  std::uint64_t digest = payload.digest();
  std::memcpy(file.data() + offsetof(header, payload_hash), &digest, 8);
  deltasplit::graph::detail::content_hash head;
  head.update(file.data(), offsetof(header, header_hash));
  digest = head.digest();
  std::memcpy(file.data() + offsetof(header, header_hash), &digest, 8);
}

std::vector<unsigned char> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class Weight>
void read_checked(const std::vector<unsigned char>& file, const sd::graph_fingerprint& expected) {
  const std::string path = deltasplit_fuzz::write_file("input.ch", file.data(), file.size());
  sd::contraction_hierarchy<Weight> ch;
  try {
    ch = sd::read_hierarchy<Weight>(path, expected);
  } catch (const deltasplit::graph::input_error&) {
    return;
  }
  const vertex_t n = ch.num_vertices;
  std::vector<std::uint32_t> level(n);
  for (std::uint32_t i = 0; i < ch.num_levels(); ++i)
    for (vertex_t p = ch.level_offsets[i]; p < ch.level_offsets[i + 1]; ++p) level[p] = i;
  for (vertex_t p = 0; p < n; ++p)
    for (auto e = ch.down_offsets[p]; e < ch.down_offsets[p + 1]; ++e)
      if (level[ch.down_sources[e]] >= level[p]) finding("a down in-arc from the same or a later level loaded");
  if (n > 0) {
    sd::upward_search<Weight> up(ch);
    std::vector<Weight> out(n);
    for (vertex_t s : {vertex_t{0}, n / 2, n - 1}) {
      try {
        sd::phast_cpu(ch, up, s, out.data());
      } catch (const deltasplit::sssp::distance_overflow&) {
        // Crafted weights may make a shortest distance too long: reported, as every solver does.
      }
    }
  }
  const std::string copy = deltasplit_fuzz::scratch().file("copy.ch");
  ::unlink(copy.c_str());
  if (!sd::write_hierarchy(copy, ch, expected)) finding("cannot write the hierarchy back");
  if (bytes_of(copy) != file) finding("the hierarchy written back differs from the file read");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned mode = data[0];
  std::vector<unsigned char> file(data + 1, data + size);
  if (mode & 1u) fix_checksums(file);
  const bool real = mode & 4u;
  static const sd::graph_fingerprint fixed[2] = {fixed_fingerprint(false), fixed_fingerprint(true)};
  sd::graph_fingerprint expected = fixed[real];
  if ((mode & 2u) && file.size() >= sizeof(header)) {
    header h;
    std::memcpy(&h, file.data(), sizeof h);
    expected = {h.vertices, h.graph_arcs, h.kind, h.graph_hash};
  }
  if (real)
    read_checked<float>(file, expected);
  else
    read_checked<std::uint32_t>(file, expected);
  return 0;
}
