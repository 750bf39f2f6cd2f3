// Binary CSR cache reader and writer (see binary_cache.hpp).
#include "binary_cache.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content_hash.hpp"
#include "csr_builder.hpp"
#include "deltasplit/graph/error.hpp"
#include "deltasplit/graph/memory.hpp"
#include "formats.hpp"
#include "output_file.hpp"
#include "raw_reader.hpp"
#include "text_blocks.hpp"

namespace deltasplit::graph::detail {

namespace {

constexpr std::uint64_t byte_order_mark = 0x0102030405060708ULL;
constexpr std::uint64_t max_string_bytes = 1 << 16;

// Bits of header::flags.
constexpr std::uint64_t one_based = 1, symmetric = 2, weights_generated = 4;

// Fixed part of the header; every field 64-bit so the layout has no padding.
struct header {
  unsigned char magic[8];
  std::uint64_t version, byte_order;
  std::uint64_t num_vertices, num_arcs, kind, flags;
  std::uint64_t weight_seed, weight_min, weight_max;
  std::uint64_t entries_read, self_loops_dropped, duplicates_merged;
  std::uint64_t source_bytes, source_mtime_ns, source_hash, text_bytes;
  std::uint64_t source_path_bytes;
  std::uint64_t payload_hash;
  std::uint64_t header_hash;  // over every byte above and the source path
};
static_assert(sizeof(header) == 8 + 19 * 8, "cache header must have no padding");

// header::kind: the weights' kind and width.
std::uint64_t kind_code(const csr& g) { return (g.kind == weight_kind::integer ? 0 : 1) + (g.wide() ? 2 : 0); }
std::uint64_t weight_bytes(std::uint64_t kind) { return kind >= 2 ? 8 : 4; }

std::uint64_t header_digest(const header& h, const std::string& source) {
  content_hash hash;
  hash.update(&h, offsetof(header, header_hash));
  hash.update(source.data(), source.size());
  return hash.digest();
}

}  // namespace

bool has_binary_magic(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  unsigned char head[sizeof binary_magic] = {};
  ssize_t got = ::read(fd, head, sizeof head);
  ::close(fd);
  return got == static_cast<ssize_t>(sizeof head) && std::memcmp(head, binary_magic, sizeof head) == 0;
}

csr read_binary(const std::string& path, const read_options& options) {
  raw_reader in(path, "cache");
  if (in.size() == 0) throw input_error(path, 0, "empty file");
  header h{};
  if (in.size() < sizeof h) throw input_error(path, 0, "truncated cache: shorter than its header");
  in.read(&h, sizeof h, "header");
  if (std::memcmp(h.magic, binary_magic, sizeof binary_magic) != 0)
    throw input_error(path, 0, "not a deltasplit binary cache (bad magic bytes)");
  if (h.version != binary_version && h.version != 1)
    throw input_error(path, 0, "cache format version " + std::to_string(h.version) + " (this build reads versions 1 to " +
                                   std::to_string(binary_version) + "); rebuild the cache from its source");
  if (h.byte_order != byte_order_mark)
    throw input_error(path, 0, "cache written on a machine of the other byte order; rebuild it here");
  if (h.source_path_bytes > max_string_bytes) throw input_error(path, 0, "corrupt cache header (path length)");
  std::string source(h.source_path_bytes, '\0');
  in.read(source.data(), source.size(), "header");
  if (header_digest(h, source) != h.header_hash) throw input_error(path, 0, "corrupt cache header (checksum mismatch)");
  if (h.num_vertices > max_vertices || h.num_arcs > (std::uint64_t{1} << 56) ||
      h.kind > (h.version == 1 ? 1 : 3))
    throw input_error(path, 0, "corrupt cache header (sizes)");

  // The header's sizes must account for the file's length exactly before anything is allocated.
  const std::uint64_t payload = 8 * (h.num_vertices + 1) + (4 + weight_bytes(h.kind)) * h.num_arcs;
  const std::uint64_t expected = sizeof h + h.source_path_bytes + payload;
  if (in.size() < expected)
    throw input_error(path, 0, "truncated cache: " + std::to_string(in.size()) + " bytes, the header describes " +
                                   std::to_string(expected));
  if (in.size() > expected)
    throw input_error(path, 0, "corrupt cache: " + std::to_string(in.size() - expected) + " bytes past the payload");

  // A cache must never be silently stale: if its source still exists and has changed, refuse it.
  // Only a regular file is hashed, and only up to the size the cache recorded (which it must
  // have to get that far): a recorded path that now names a FIFO or a device would otherwise
  // block, or never end.
  if (!source.empty()) {
    std::uint64_t bytes = 0;
    std::int64_t mtime = 0;
    if (stat_file(source, bytes, mtime)) {
      bool regular = true;
      bool changed = bytes != h.source_bytes;
      if (!changed && mtime != static_cast<std::int64_t>(h.source_mtime_ns))
        changed = hash_file(source, h.source_bytes, regular) != h.source_hash;
      if (!regular)
        throw input_error(path, 0, "stale cache: its source " + source +
                                       " is no longer a regular file; rebuild the cache from the graph file");
      if (changed)
        throw input_error(path, 0, "stale cache: its source " + source +
                                       " has changed since the cache was written; rebuild it (deltasplit convert " +
                                       source + " " + path + " --overwrite)");
    }
  }

  require_load_memory(path, 0, options,
                      "a graph of " + std::to_string(h.num_vertices) + " vertices and " + std::to_string(h.num_arcs) +
                          " arcs",
                      saturating_add(saturating_add(payload, saturating_mul(options.later_bytes_per_vertex, h.num_vertices)),
                                     saturating_mul(options.later_bytes_per_arc, h.num_arcs)),
                      0);

  csr g;
  g.num_vertices = static_cast<vertex_t>(h.num_vertices);
  g.kind = h.kind % 2 == 0 ? weight_kind::integer : weight_kind::real;
  g.width = h.kind >= 2 ? weight_width::wide : weight_width::narrow;
  content_hash hash;
  in.set_progress(&options.progress);
  read_array(in, g.offsets, h.num_vertices + 1, "offsets", hash);
  read_array(in, g.targets, h.num_arcs, "targets", hash);
  switch (h.kind) {
    case 0: read_array(in, g.int_weights, h.num_arcs, "weights", hash); break;
    case 1: read_array(in, g.real_weights, h.num_arcs, "weights", hash); break;
    case 2: read_array(in, g.uint64_weights, h.num_arcs, "weights", hash); break;
    default: read_array(in, g.float64_weights, h.num_arcs, "weights", hash); break;
  }
  if (hash.digest() != h.payload_hash) throw input_error(path, 0, "corrupt cache payload (checksum mismatch)");

  // The checksum catches damage; these checks keep a crafted file from indexing out of bounds or
  // handing the solvers what no reader produces (unsorted rows, self-loops, parallel arcs,
  // negative or non-finite weights).
  if (g.offsets.front() != 0 || g.offsets.back() != h.num_arcs)
    throw input_error(path, 0, "corrupt cache payload (offsets)");
  // One parallel pass (a cache exists to load fast): each row's bounds are checked before its
  // targets are read; the first bad vertex a thread meets is reported.
  std::atomic<std::uint64_t> bad_offsets{invalid_vertex}, bad_row{invalid_vertex};
  std::atomic<bool> bad_weight{false};
  detail::parallel_ranges(g.num_vertices, 0, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t v = begin; v < end; ++v) {
      const edge_t first = g.offsets[v], last = g.offsets[v + 1];
      if (first > last || last > h.num_arcs) {
        bad_offsets = v;
        return;
      }
      for (edge_t e = first; e < last; ++e) {
        vertex_t t = g.targets[e];
        if (t >= g.num_vertices || t == v || (e > first && t <= g.targets[e - 1])) {
          bad_row = v;
          return;
        }
        if (g.kind == weight_kind::real) {
          const double w = g.weight(e);
          if (!(w >= 0) || std::signbit(w) || !std::isfinite(w)) bad_weight = true;
        }
      }
    }
  });
  if (bad_offsets != invalid_vertex) throw input_error(path, 0, "corrupt cache payload (offsets)");
  if (bad_row != invalid_vertex)
    throw input_error(path, 0, "corrupt cache payload (targets of vertex " + std::to_string(bad_row.load()) +
                                   " out of range, unsorted, repeated or a self-loop)");
  if (bad_weight) throw input_error(path, 0, "corrupt cache payload (a negative, NaN or infinite weight)");

  provenance& o = g.origin;
  o.path = path;
  o.format = "binary";
  o.one_based = (h.flags & one_based) != 0;
  o.symmetric = (h.flags & symmetric) != 0;
  o.weights_generated = (h.flags & weights_generated) != 0;
  o.weight_seed = h.weight_seed;
  o.weight_min = static_cast<std::uint32_t>(h.weight_min);
  o.weight_max = static_cast<std::uint32_t>(h.weight_max);
  o.entries_read = h.entries_read;
  o.self_loops_dropped = h.self_loops_dropped;
  o.duplicates_merged = h.duplicates_merged;
  o.source_path = source;
  o.source_bytes = h.source_bytes;
  o.source_mtime_ns = static_cast<std::int64_t>(h.source_mtime_ns);
  o.source_hash = h.source_hash;
  o.text_bytes = h.text_bytes;
  return g;
}

void write_binary(const csr& g, output_file& out) {
  const provenance& o = g.origin;
  header h{};
  std::memcpy(h.magic, binary_magic, sizeof binary_magic);
  h.version = binary_version;
  h.byte_order = byte_order_mark;
  h.num_vertices = g.num_vertices;
  h.num_arcs = g.num_arcs();
  h.kind = kind_code(g);
  h.flags = (o.one_based ? one_based : 0) | (o.symmetric ? symmetric : 0) | (o.weights_generated ? weights_generated : 0);
  h.weight_seed = o.weight_seed;
  h.weight_min = o.weight_min;
  h.weight_max = o.weight_max;
  h.entries_read = o.entries_read;
  h.self_loops_dropped = o.self_loops_dropped;
  h.duplicates_merged = o.duplicates_merged;
  h.source_bytes = o.source_bytes;
  h.source_mtime_ns = static_cast<std::uint64_t>(o.source_mtime_ns);
  h.source_hash = o.source_hash;
  h.text_bytes = o.text_bytes;
  h.source_path_bytes = o.source_path.size();
  content_hash payload;
  payload.update(g.offsets.data(), g.offsets.size() * sizeof(edge_t));
  payload.update(g.targets.data(), g.targets.size() * sizeof(vertex_t));
  const void* weights = g.kind == weight_kind::integer ? (g.wide() ? static_cast<const void*>(g.uint64_weights.data())
                                                                  : static_cast<const void*>(g.int_weights.data()))
                                                      : (g.wide() ? static_cast<const void*>(g.float64_weights.data())
                                                                  : static_cast<const void*>(g.real_weights.data()));
  const std::uint64_t weights_size = weight_bytes(h.kind) * g.num_arcs();
  payload.update(weights, weights_size);
  h.payload_hash = payload.digest();
  h.header_hash = header_digest(h, o.source_path);
  const std::uint64_t total =
      sizeof h + o.source_path.size() + g.offsets.size() * sizeof(edge_t) + 4 * g.num_arcs() + weights_size;
  std::uint64_t done = 0;
  // The arrays go out in pieces of 256 MiB, so that progress moves.
  auto put = [&](const void* data, std::uint64_t n) {
    const char* p = static_cast<const char*>(data);
    for (std::uint64_t at = 0; at < n;) {
      std::uint64_t piece = std::min<std::uint64_t>(n - at, std::uint64_t{1} << 28);
      out.write(p + at, piece);
      at += piece;
      done += piece;
      out.report(done, total);
    }
  };
  put(&h, sizeof h);
  put(o.source_path.data(), o.source_path.size());
  put(g.offsets.data(), g.offsets.size() * sizeof(edge_t));
  put(g.targets.data(), g.targets.size() * sizeof(vertex_t));
  put(weights, weights_size);
}

}  // namespace deltasplit::graph::detail
