"""Reached lists on the GPU: what each source reaches within a finite cutoff, as lists of
(vertex, distance), without dense rows.

A cut-off solve of a road network reaches a few hundred vertices of a million
(bench/results/road_gpu.md), yet a block of dense rows is written in whole (every
entry set to the unreachable mark) and read in whole by the reduction after it. The host's
answer to this is sssp::detail::reached_within (bounded Dijkstras handing out what they reach);
this is the device's, a cupy RawKernel (NVRTC, compiled on first use and cached on disk):

- A warp a source. The warp keeps the source's ball in its own slice of shared memory: a hash
  table of vertices (open addressing, linear probing, twice as many slots as the capacity) with
  each vertex's tentative distance, and two lists of slots, this round's and the next's.
- Rounds of Bellman-Ford relaxation over the ball's frontier: the lanes take this round's slots,
  relax their out-arcs, and a head whose distance falls (a shared-memory atomicMin on the
  distance's bit pattern, which orders non-negative values as the values) and lies within the
  cutoff is put on the next round's list once. It ends when a round improves nothing. Only heads
  within the cutoff enter the table, and a tentative distance never lies below the final one, so
  the table ends holding exactly the ball: the vertices at distance <= cutoff, each with its
  least sum over paths, the sum formed left to right along the path as every solver here forms it
  (Dijkstra's distances, bit for bit, for integer and real weights).
- A ball past the capacity, or an integer sum past the distance type, hands its source back
  (count -1): those sources go again at a larger capacity (one warp a block), then to the dense
  solver, so every source is answered and answered exactly.

The lists come out in each source's slots of a (sources, capacity) array in the table's order;
reached_groups gathers them and sorts them, by (row, vertex) as the host's lists and nonzero give
them, or by (vertex, row) for reductions that take a node's entries in row order.
"""
import numpy as np

# The capacities of the two passes (vertices a warp's table holds) and the warps a block gets in
# the first; the second runs one warp a block.
FIRST_CAPACITY = 512
SECOND_CAPACITY = 4096
FIRST_PASS_BLOCK_BYTES = 100 * 1024
# Entries of the (rows, capacity) outputs a launch may fill: a launch takes at most
# OUTPUT_ENTRIES // capacity sources.
OUTPUT_ENTRIES = 1 << 26
# The groups reached_groups hands out: the first one's sources, then entries a group may hold.
FIRST_GROUP_ROWS = 1024
GROUP_ENTRIES = 1 << 26

_KERNEL = r"""
#define EMPTY 0xFFFFFFFFu
#define CAPACITY (KEYS / 2)

__device__ __forceinline__ BITS to_bits(const DIST d) { return TO_BITS(d); }
__device__ __forceinline__ DIST from_bits(const BITS b) { return FROM_BITS(b); }

// d + w in the distance type; false when it does not fit (integer sums past the largest
// distance; real sums that round to +inf, which lie past every finite cutoff anyway).
__device__ __forceinline__ bool extend(const DIST d, const WEIGHT w, DIST& sum) {
#if INTEGER
  const unsigned long long s = (unsigned long long)d + (unsigned long long)w;
  if (s < (unsigned long long)d || s >= (unsigned long long)(DIST)~(DIST)0) return false;
  sum = (DIST)s;
  return true;
#else
  sum = d + (DIST)w;
  return !isinf(sum);
#endif
}

__device__ __forceinline__ unsigned int home(const unsigned int v) { return (v * 2654435761u) & (KEYS - 1); }

extern "C" __global__ void reach(const unsigned long long* __restrict__ offsets, const unsigned int* __restrict__ targets,
                                 const WEIGHT* __restrict__ weights, const unsigned int* __restrict__ sources,
                                 const int count, const double cutoff, unsigned int* __restrict__ out_vertex,
                                 DIST* __restrict__ out_distance, int* __restrict__ reached) {
  extern __shared__ unsigned long long shared_words[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const long long row = (long long)blockIdx.x * WARPS + warp;
  if (row >= count) return;  // the whole warp: no barrier below spans warps
  // The warp's slice: distances (as bits), keys, the queued bits, this and the next round's
  // lists, and three counters (vertices in the table, the next list's length, handed back).
  BITS* dist = (BITS*)((unsigned char*)shared_words + (size_t)warp * WARP_BYTES);
  unsigned int* keys = (unsigned int*)(dist + KEYS);
  unsigned int* queued = keys + KEYS;
  unsigned int* lists = queued + KEYS / 32;
  int* counters = (int*)(lists + 2 * CAPACITY);
  for (int i = lane; i < KEYS; i += 32) {
    keys[i] = EMPTY;
    dist[i] = ~(BITS)0;
  }
  for (int i = lane; i < KEYS / 32; i += 32) queued[i] = 0;
  __syncwarp();
  const unsigned int source = sources[row];
  if (lane == 0) {
    const unsigned int h = home(source);
    keys[h] = source;
    dist[h] = to_bits((DIST)0);
    lists[0] = h;
    counters[0] = 1;
    counters[1] = 0;
    counters[2] = 0;
  }
  __syncwarp();
  int current = 0, size = 1;
  while (size > 0) {
    const unsigned int* now = lists + current * CAPACITY;
    unsigned int* next = lists + (1 - current) * CAPACITY;
    // This round's slots may be queued again from here on.
    for (int i = lane; i < size; i += 32) atomicAnd(&queued[now[i] >> 5], ~(1u << (now[i] & 31)));
    if (lane == 0) counters[1] = 0;
    __syncwarp();
    for (int i = lane; i < size; i += 32) {
      const unsigned int slot = now[i];
      const unsigned int u = keys[slot];
      // Other lanes may lower it meanwhile: read as an atomic, then the head is queued again.
      const DIST du = from_bits(atomicOr(&dist[slot], (BITS)0));
      const unsigned long long end = offsets[u + 1];
      for (unsigned long long e = offsets[u]; e < end; ++e) {
        DIST nd;
        if (!extend(du, weights[e], nd)) {
#if INTEGER
          atomicExch(&counters[2], 1);  // the host reports or answers it
#endif
          continue;
        }
        if (!((double)nd <= cutoff)) continue;
        const unsigned int v = targets[e];
        unsigned int h = home(v);
        bool fresh = false;
        for (;;) {
          const unsigned int old = atomicCAS(&keys[h], EMPTY, v);
          if (old == EMPTY) {
            fresh = true;
            break;
          }
          if (old == v) break;
          h = (h + 1) & (KEYS - 1);
        }
        // A table holds at most CAPACITY + 31 vertices (each lane stops at its first insertion
        // past the capacity), so linear probing finds room in its 2 x CAPACITY slots.
        if (fresh && atomicAdd(&counters[0], 1) >= CAPACITY) {
          atomicExch(&counters[2], 1);
          break;
        }
        const BITS b = to_bits(nd);
        if (b < atomicMin(&dist[h], b)) {
          const unsigned int bit = 1u << (h & 31);
          if (!(atomicOr(&queued[h >> 5], bit) & bit)) next[atomicAdd(&counters[1], 1)] = h;
        }
      }
      if (atomicOr(&counters[2], 0)) break;
    }
    __syncwarp();
    size = atomicOr(&counters[1], 0);
    const int back = atomicOr(&counters[2], 0);
    __syncwarp();
    if (back) {
      if (lane == 0) reached[row] = -1;
      return;
    }
    current = 1 - current;
  }
  // The ball, in the table's order, into the source's slots of the output.
  int written = 0;
  unsigned int* vertex_out = out_vertex + row * CAPACITY;
  DIST* distance_out = out_distance + row * CAPACITY;
  for (int i0 = 0; i0 < KEYS; i0 += 32) {
    const unsigned int k = keys[i0 + lane];
    const unsigned int full = __ballot_sync(0xFFFFFFFFu, k != EMPTY);
    if (k != EMPTY) {
      const int at = written + __popc(full & ((1u << lane) - 1));
      vertex_out[at] = k;
      distance_out[at] = from_bits(dist[i0 + lane]);
    }
    written += __popc(full);
  }
  if (lane == 0) reached[row] = written;
}
"""

_TYPES = {
    # distance dtype: (C type, its bits' type, to bits, from bits, integer)
    "u4": ("unsigned int", "unsigned int", "(d)", "(b)", 1),
    "u8": ("unsigned long long", "unsigned long long", "(d)", "(b)", 1),
    "f4": ("float", "unsigned int", "__float_as_uint(d)", "__uint_as_float(b)", 0),
    "f8": ("double", "unsigned long long", "(unsigned long long)__double_as_longlong(d)",
           "__longlong_as_double((long long)(b))", 0),
}
_WEIGHTS = {"u4": "unsigned int", "u8": "unsigned long long", "f4": "float", "f8": "double"}
_kernels = {}


def warp_bytes(capacity, dtype):
    """Shared-memory bytes of one warp's table at `capacity` vertices (a multiple of 16) for
    distances of dtype: 2 x capacity slots of (distance, key), the queued bits, two lists of
    capacity slots and the counters, rounded up to 8 bytes."""
    keys = 2 * capacity
    size = keys * (np.dtype(dtype).itemsize + 4) + keys // 8 + 2 * capacity * 4 + 16
    return (size + 7) // 8 * 8


def _kernel(xp, dtype, weight_dtype, capacity, warps):
    key = (np.dtype(dtype).str, np.dtype(weight_dtype).str, capacity, warps)
    if key not in _kernels:
        dist, bits, to_bits, from_bits, integer = _TYPES[np.dtype(dtype).str[1:]]
        defines = {"DIST": dist, "BITS": bits, "TO_BITS(d)": to_bits, "FROM_BITS(b)": from_bits,
                   "INTEGER": integer, "WEIGHT": _WEIGHTS[np.dtype(weight_dtype).str[1:]], "KEYS": 2 * capacity,
                   "WARPS": warps, "WARP_BYTES": warp_bytes(capacity, dtype)}
        head = "".join(f"#define {k} {v}\n" for k, v in defines.items())
        kernel = xp.RawKernel(head + _KERNEL, "reach", options=("--std=c++17",))
        kernel.max_dynamic_shared_size_bytes = warps * warp_bytes(capacity, dtype)
        _kernels[key] = kernel
    return _kernels[key]


def integer_distance_dtype(xp, sources, targets, weights, n):
    """The distance type a host Graph of these arcs (integer weights as choose_weights stores
    them) solves in, computed in xp: uint64 for uint64 weights; else uint32 where every simple
    path fits, by the host's bound (sssp::detail::integer_path_bound over the cleaned graph:
    self-loops dropped, parallel arcs folded into their lightest; the sum of the rows' heaviest
    arcs less the smallest of them, a row without arcs counting 0), else uint64."""
    from ._network_aggregate import group_extreme
    if np.dtype(weights.dtype) == np.uint64:
        return np.dtype(np.uint64)
    limit = 2**32 - 2
    if not len(weights) or int(weights.max()) * max(n - 1, 1) <= limit:
        return np.dtype(np.uint32)  # the bound is at most the heaviest arc times n - 1
    keep = sources != targets
    s, t = sources[keep].astype(xp.int64), targets[keep].astype(xp.int64)
    pairs, least = group_extreme(xp, s * n + t, weights[keep], greatest=False)
    rows, heaviest = group_extreme(xp, pairs // n, least, greatest=True)
    total = int(heaviest.astype(xp.uint64).sum())  # each below 2^32, at most 2^32 rows
    smallest = int(heaviest.min()) if len(rows) == n else 0
    return np.dtype(np.uint32 if total - smallest <= limit else np.uint64)


class ArcsOnDevice:
    """A network's arcs as the reach kernel reads them: a CSR in device memory made by one sort
    of the arcs (self-loops and parallel arcs kept: neither changes a ball or its distances), the
    weights stored and the distances typed as the host Graph of the same arcs has them
    (choose_weights' host rule, integer_distance_dtype), and that Graph built only when a source's
    ball goes to the dense solver (graph()). Network.lists_solver hands it out in place of the
    Graph where the road layer takes reached lists on the device, where building the host Graph
    (its cleaning and CSR on the CPU) outweighed the solves (bench/results/road_gpu.md)."""

    def __init__(self, xp, sources, targets, weights, n, symmetric, graph):
        from ._graph import choose_weights
        s, t = xp.asarray(sources), xp.asarray(targets)
        w = choose_weights(xp.asarray(weights), n, xp, device_graph=False)
        if symmetric:
            s, t, w = xp.concatenate([s, t]), xp.concatenate([t, s]), xp.concatenate([w, w])
        if w.dtype.kind == "u":
            self.distance_dtype = integer_distance_dtype(xp, s, t, w, n)
        else:
            self.distance_dtype = np.dtype(np.float64)
        order = xp.argsort(s)
        s = s[order]
        offsets = xp.searchsorted(s, xp.arange(n + 1, dtype=s.dtype)).astype(xp.uint64)
        self.csr = (offsets, t[order].astype(xp.uint32), w[order])
        self._graph = graph

    def graph(self):
        """The host Graph of the same arcs (built on first use, kept by the Network)."""
        return self._graph()


def host_graph(g):
    """The Graph behind g: g itself, or an ArcsOnDevice's."""
    return g.graph() if isinstance(g, ArcsOnDevice) else g


def device_csr(xp, g):
    """g's CSR (offsets uint64, targets uint32, weights) in device memory, uploaded once (an
    ArcsOnDevice's own)."""
    if isinstance(g, ArcsOnDevice):
        return g.csr
    csr = getattr(g, "_csr_on_device", None)
    if csr is None:
        csr = tuple(xp.asarray(a) for a in g.arrays())
        g._csr_on_device = csr
    return csr


def _pass(xp, csr, sources, cutoff, dtype, capacity, warps):
    """(counts int32, vertices, distances) of one launch over `sources` (a cupy uint32 array):
    counts[i] entries in row i's slots of the (len(sources), capacity) outputs, -1 where handed
    back."""
    offsets, targets, weights = csr
    rows = len(sources)
    vertices = xp.empty((rows, capacity), dtype=xp.uint32)
    distances = xp.empty((rows, capacity), dtype=dtype)
    counts = xp.empty(rows, dtype=xp.int32)
    kernel = _kernel(xp, dtype, weights.dtype, capacity, warps)
    kernel(((rows + warps - 1) // warps,), (32 * warps,),
           (offsets, targets, weights, sources, np.int32(rows), np.float64(cutoff), vertices, distances, counts),
           shared_mem=warps * warp_bytes(capacity, dtype))
    return counts, vertices, distances


def _gather(xp, counts, vertices, distances, rows):
    """The entries of the rows `rows` (indices into counts) as (row index, vertex, distance)."""
    per_row = counts[rows].astype(xp.int64)
    ends = xp.cumsum(per_row)
    total = int(ends[-1]) if len(per_row) else 0
    which = xp.searchsorted(ends, xp.arange(total), side="right")
    within = xp.arange(total) - (ends - per_row)[which]
    at = rows[which].astype(xp.int64)
    capacity = vertices.shape[1]
    return at, vertices.ravel()[at * capacity + within], distances.ravel()[at * capacity + within]


def _lists(xp, csr, sources, which, cutoff, dtype, capacity, warps, parts):
    """Runs one pass over sources[which] (cupy indices) in launches whose output stays within
    OUTPUT_ENTRIES, appending (rows, vertices, distances) of the answered sources to parts;
    returns the indices handed back, ascending."""
    back = []
    group = max(1, OUTPUT_ENTRIES // capacity)
    for start in range(0, len(which), group):
        rows = which[start:start + group]
        counts, vertices, distances = _pass(xp, csr, sources[rows], cutoff, dtype, capacity, warps)
        r, v, d = _gather(xp, counts, vertices, distances, xp.flatnonzero(counts >= 0))
        parts.append((rows[r], v, d))
        back.append(rows[counts < 0])
    return xp.concatenate(back) if back else which[:0]


def reached_groups(net, g, strategy, sources, cutoff, order="row"):
    """What `sources` (positions, a numpy array) reach within a finite cutoff on the device, in
    groups of sources: yields (start, rows, vertices, distances), rows relative to start (int64),
    vertices int64 and distances in g's distance type, cupy arrays, sorted by (row, vertex) with
    order="row" (the host's lists' and nonzero's order), by (vertex, row) with order="vertex".
    g: a Graph or an ArcsOnDevice.
    The sources the two passes hand back are solved by Network._block (dense rows) and their
    entries taken into their group; a group holds at most block_rows' reduced rows of those (it
    ends before the next one), and about GROUP_ENTRIES entries (its rows: GROUP_ENTRIES over the
    largest ball seen so far, at most 2^16; FIRST_GROUP_ROWS at first)."""
    import cupy as xp
    from ._network_aggregate import unreachable
    dtype = net.distance_dtype(g)
    n = net.num_nodes
    csr = device_csr(xp, g)
    sources = np.asarray(sources)
    on_device = xp.asarray(sources.astype(np.uint32))
    warps = max(1, min(32, FIRST_PASS_BLOCK_BYTES // warp_bytes(FIRST_CAPACITY, dtype)))
    dense_rows = net.block_rows(xp, n, dtype)[1]
    start, k, largest = 0, min(len(sources), FIRST_GROUP_ROWS), 1
    while start < len(sources):
        k = min(k, len(sources) - start)
        parts = []
        back = _lists(xp, csr, on_device[start:start + k], xp.arange(k), cutoff, dtype, FIRST_CAPACITY, warps, parts)
        if len(back):
            back = _lists(xp, csr, on_device[start:start + k], back, cutoff, dtype, SECOND_CAPACITY, 1, parts)
        back = xp.asnumpy(back)
        if len(back) > dense_rows:  # the group ends before its first source past what a dense block holds
            k = int(back[dense_rows])
            back = back[:dense_rows]
            parts = [(r[r < k], v[r < k], d[r < k]) for r, v, d in parts]
        if len(back):
            block = net._block(host_graph(g), strategy, sources[start + back], None, cutoff, xp)
            r, c = xp.nonzero(block != unreachable(block.dtype))
            parts.append((xp.asarray(back)[r], c, block[r, c]))
            del block
        rows = xp.concatenate([p[0].astype(xp.int64) for p in parts])
        vertices = xp.concatenate([p[1].astype(xp.int64) for p in parts])
        distances = xp.concatenate([p[2].astype(dtype, copy=False) for p in parts])
        key = rows * n + vertices if order == "row" else vertices * k + rows
        by = xp.argsort(key)
        yield start, rows[by], vertices[by], distances[by]
        if len(rows):
            largest = max(largest, int(xp.bincount(rows).max()))
        start += k
        k = int(min(max(GROUP_ENTRIES // largest, 1), 1 << 16))
