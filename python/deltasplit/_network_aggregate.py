"""Accessibility aggregations and nearest places for deltasplit.network, from blocks of rows
of distances to the valued nodes (or the places), reached pairs scattered into per-node results.

The definitions are pandana's (its Accessibility::aggregateAccessibilityVariable and
quantileAccessibilityVariable): a node aggregates every value whose node lies within the radius
of it, d <= radius; decays weigh a value by 1 (flat), 1 - d/radius (linear) or exp(-d/radius)
(exp); 'mean' divides the decayed sum by the count; 'std' is the flat population standard
deviation sqrt(E[v^2] - E[v]^2); the quantiles are the value at position int(count * q) of the
sorted values (q = 0: the least, q = 1: the greatest). Where pandana's formulas divide 0 by 0
(a decayed value at distance 0 with radius 0), the weight is 1, the limit of both decays as d
goes to 0.

The reductions are written once over an array module `xp`: numpy for blocks in host memory,
cupy for blocks the GPU solver left in device memory (Network.array_module says which), so that
only per-node results cross to the host. They use what both modules share: elementwise
arithmetic, nonzero, stable sorts, searchsorted, cumsum and bincount. On the device bincount
adds with atomics, in no fixed order, so float sums may differ from the host's in the last
bits; counts, extremes, quantiles and nearest places are exact on both.

The aggregations other than the quantiles have one more form on the device: one kernel pass,
a thread a node, adding the node's entries in row order into per-thread sums for every radius
and then into the per-node results, where nonzero, the gathers and a bincount per radius and
result (each with its own synchronizing checks) took four times the solves
(bench/results/road_gpu.md). With a finite radius the entries come as reached lists
(_reached_on_device: a cut-off solve of a road network reaches a few hundred nodes of a
million) sorted by (node, row), accumulate_lists; without one, as a block of dense rows,
accumulate_on_device, which reads the block once. Either way a node's entries are added one
after the other in row order, whatever the groups or blocks (they follow the device's free
memory), so a run's sums are the next run's and the lists' sums are the blocks' bit for bit.
The host's reached lists take the same one pass (_core.accumulate_reached: the same terms in the
same order; exp may differ in its last bit); the host's dense blocks (no radius limit) add each
block's totals by bincount, so there the two paths can differ in the last bits.
Nearest places have the same two forms, nearest_lists and nearest_on_device (a thread a node
keeping its k best in order, the host's answer exactly), for k up to NEAREST_ON_DEVICE; the
host's reached lists take the same pass for any k (_core.nearest_reached).
"""
from pathlib import Path

import numpy as np

from . import _core
from ._graph import Graph
from ._reached_on_device import reached_groups

AGGREGATIONS = ("sum", "mean", "min", "25pct", "median", "75pct", "max", "std", "count")
DECAYS = ("exp", "linear", "flat")
# How the one-pass reductions (the device kernels, _core.accumulate_reached) name the decays.
DECAY_CODES = {"flat": 0, "linear": 1, "exp": 2}
# The quantiles that need the values in order (min and max are kept as running extremes).
QUANTILES = {"25pct": 0.25, "median": 0.5, "75pct": 0.75}


def unreachable(dtype):
    """What marks an unreachable node among distances of this type: all ones for the unsigned
    integer distances of integer impedances (INT_INFINITY in uint32, UINT64_INFINITY in uint64),
    inf for real ones."""
    dtype = np.dtype(dtype)
    if dtype.kind == "u":
        return Graph.UINT64_INFINITY if dtype.itemsize == 8 else Graph.INT_INFINITY
    return np.inf


def sorted_distinct(a):
    """The distinct values of a 1-D numpy array, sorted: numpy.unique's answer by one sort and one
    comparison, which numpy 2.4's unique is far slower than on large integer arrays
    (bench/results/road_gpu.md, the 1,000,000 OD pairs)."""
    s = np.sort(a)
    keep = np.empty(len(s), dtype=bool)
    keep[:1] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def to_host(a):
    """A numpy array of a (numpy or cupy) array."""
    return a if isinstance(a, np.ndarray) else a.get()


def decay_weights(xp, d, radius, decay):
    """The weight of values at distances d (float64, each <= radius) under a decay."""
    if decay == "flat" or radius == 0:
        return xp.ones_like(d)
    if decay == "linear":
        return 1.0 - d / radius
    return xp.exp(-d / radius)


def reached_pairs(xp, block):
    """The (row, column, distance) of every reached entry of a block of distances."""
    r, c = xp.nonzero(block != unreachable(block.dtype))
    return r, c, block[r, c].astype(xp.float64)


def pair_groups(net, solver, sources, cutoff, xp, raw=False):
    """(start, rows, columns, distances float64, or in the distance type with raw) of every
    reached entry of the rows from `sources` (positions) cut off at `cutoff`, in groups: with a
    finite cutoff the reached lists of bounded searches, on the host's CPU (Network.lists_on_host)
    or the GPU (Network.lists_on_device), else the nonzero entries of _rows' blocks; the same
    entries in the same order every way."""
    g, strategy = solver
    if xp is np and net.lists_on_host(strategy, cutoff):
        yield from net.reached_lists(g, sources, cutoff, raw)
        return
    if xp is not np and net.lists_on_device(strategy, cutoff):
        for start, r, c, d in reached_groups(net, g, strategy, sources, cutoff):
            yield start, r, c, d if raw else d.astype(xp.float64)
        return
    for start, block in net._rows(g, strategy, sources, None, cutoff):
        if raw:
            r, c = xp.nonzero(block != unreachable(block.dtype))
            yield start, r, c, block[r, c]
        else:
            yield (start, *reached_pairs(xp, block))


def lexsort(xp, keys):
    """np.lexsort's order (the last key first, ties in input order). cupy's lexsort takes one
    2-D array of one type, so there the order is built by sorts, least key first: cupy's
    argsort is always stable (CUB's radix sort), which keeps the earlier keys' order in ties."""
    if xp is np:
        return np.lexsort(keys)
    order = xp.argsort(keys[0])
    for key in keys[1:]:
        order = order[xp.argsort(key[order])]
    return order


def group_ranks(xp, keys):
    """For sorted keys, each entry's position within its run of equal keys."""
    if not keys.size:
        return xp.zeros(0, dtype=xp.int64)
    head = xp.concatenate([xp.ones(1, dtype=bool), keys[1:] != keys[:-1]])
    starts = xp.flatnonzero(head)
    return xp.arange(len(keys)) - starts[xp.cumsum(head.astype(xp.int64)) - 1]


def repeat_index(xp, counts):
    """np.repeat(arange(len(counts)), counts): cupy's repeat takes no array of counts."""
    ends = xp.cumsum(counts)
    total = int(ends[-1]) if len(counts) else 0
    return xp.searchsorted(ends, xp.arange(total), side="right")


def group_extreme(xp, keys, values, greatest):
    """(distinct keys, the least (greatest=False) or greatest of their values), by a sort: a
    scatter-min of float64 is not in every cupy."""
    order = lexsort(xp, (values, keys))
    keys, values = keys[order], values[order]
    if not keys.size:
        return keys, values
    change = keys[1:] != keys[:-1]
    edge = xp.concatenate([change, xp.ones(1, dtype=bool)]) if greatest else \
        xp.concatenate([xp.ones(1, dtype=bool), change])
    return keys[edge], values[edge]


# accumulate_on_device's kernel, compiled by cupy (NVRTC, cached on disk) for a block's type
# and a number of radii (at most RADII_PER_PASS a pass, kept in registers). Per node and radius it
# keeps, in this order: the count of values, the decayed sum, the plain sum, the sum of squares,
# the least and the greatest value.
RADII_PER_PASS = 4
_FIELDS = 6
# Rows a thread of the one-pass kernels reads ahead (see the kernel).
LOADS_AHEAD = 8
_SUMS = r"""
struct sums {
  double v[RADII][6];
};

__device__ __forceinline__ void take(sums& t, const double d, const long long u, const double* __restrict__ per_node,
                                     const long long stride, const double* __restrict__ radii, const int decay) {
#pragma unroll
  for (int r = 0; r < RADII; ++r)
    if (d <= radii[r]) take_entry(t.v[r], d, radii[r], decay, per_node, stride, u);
}

// Node c's results from (back false) or into (back true) acc, a (RADII, 6, n) array.
__device__ __forceinline__ void keep_sums(sums& t, double* __restrict__ acc, const long long n, const long long c,
                                          const bool back) {
#pragma unroll
  for (int r = 0; r < RADII; ++r)
#pragma unroll
    for (int f = 0; f < 6; ++f) {
      double& a = acc[((long long)r * 6 + f) * n + c];
      if (back)
        a = t.v[r][f];
      else
        t.v[r][f] = a;
    }
}

"""
_KERNEL = _SUMS + r"""
extern "C" __global__ void accumulate(const TYPE* __restrict__ block, const int rows, const long long n,
                                      const double* __restrict__ per_node, const long long stride,
                                      const long long row0, const double* __restrict__ radii, const int decay,
                                      double* __restrict__ acc) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  // The node's results so far, then every entry added to them in row order: the same sums
  // whatever rows the blocks hold.
  sums t;
  keep_sums(t, acc, n, c, false);
  // LOADS rows' entries are loaded before any is used, so that a thread has that many reads in
  // flight (nearly every entry is unreachable: the loop is its reads); then taken in row order.
  int i = 0;
  for (; i + LOADS <= rows; i += LOADS) {
    TYPE raw[LOADS];
#pragma unroll
    for (int j = 0; j < LOADS; ++j) raw[j] = block[(long long)(i + j) * n + c];
#pragma unroll
    for (int j = 0; j < LOADS; ++j)
      if (!UNREACHED(raw[j])) take(t, (double)raw[j], row0 + i + j, per_node, stride, radii, decay);
  }
  for (; i < rows; ++i) {
    const TYPE raw = block[(long long)i * n + c];
    if (!UNREACHED(raw)) take(t, (double)raw, row0 + i, per_node, stride, radii, decay);
  }
  keep_sums(t, acc, n, c, true);
}
"""
# The same sums from reached lists sorted by (node, row): a thread a node takes its entries,
# which come in row order, so the sums are the dense kernel's bit for bit.
_LISTS_KERNEL = _SUMS + r"""
extern "C" __global__ void accumulate_lists(const long long* __restrict__ starts, const long long* __restrict__ rows,
                                            const TYPE* __restrict__ distances, const long long n,
                                            const double* __restrict__ per_node, const long long stride,
                                            const long long row0, const double* __restrict__ radii, const int decay,
                                            double* __restrict__ acc) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  sums t;
  keep_sums(t, acc, n, c, false);
  for (long long i = starts[c]; i < starts[c + 1]; ++i)
    take(t, (double)distances[i], row0 + rows[i], per_node, stride, radii, decay);
  keep_sums(t, acc, n, c, true);
}
"""
_kernels = {}


def _unreached_test(dtype):
    """The C type of a block's distances and the test for its unreachable mark (unreachable())."""
    return {"u4": ("unsigned int", "(x) == 0xFFFFFFFFu"), "u8": ("unsigned long long", "(x) == 0xFFFFFFFFFFFFFFFFull"),
            "f4": ("float", "isinf(x)"), "f8": ("double", "isinf(x)")}[np.dtype(dtype).str[1:]]


def _compiled(xp, name, source, dtype, **defines):
    """The kernel `name` of `source` for blocks of dtype (TYPE, UNREACHED) with LOADS_AHEAD and the
    given #defines, compiled by cupy on first use and kept. Without contracted multiply-adds
    (--fmad=false): a product and a sum round as they do on the host."""
    key = (name, np.dtype(dtype).str, LOADS_AHEAD, tuple(sorted(defines.items())))
    if key not in _kernels:
        ctype, unreached = _unreached_test(dtype)
        lines = [f"#define UNREACHED(x) ({unreached})", f"#define LOADS {LOADS_AHEAD}"]
        lines += [f"#define {k} {v}" for k, v in defines.items()]
        # The terms both sides add and the nearest places' insertion rule: one text for these
        # kernels and the host passes (_core.accumulate_reached, _core.nearest_reached).
        terms = (Path(__file__).parent / "_reductions.h").read_text()
        _kernels[key] = xp.RawKernel("\n".join(lines) + "\n" + terms + source.replace("TYPE", ctype), name,
                                     options=("--fmad=false",))
    return _kernels[key]


def fused_reductions(xp):
    """Whether blocks in xp's memory take accumulate_on_device: xp is cupy itself."""
    return getattr(xp, "__name__", "") == "cupy" and hasattr(xp, "RawKernel")


def accumulate_on_device(xp, block, row0, per_node, radii, decay, acc):
    """Adds a cupy block's reached entries (rows: the per_node entries from row0 on) into acc, a
    (len(radii), 6, n) float64 array (count, decayed sum, sum, sum of squares, least, greatest).
    per_node: (5, nodes) float64 (count, sum, sum of squares, least, greatest of the values on
    each valued node). decay: one of DECAYS."""
    rows, n = block.shape
    if rows == 0 or n == 0:
        return
    block = xp.ascontiguousarray(block)
    _accumulate(xp, "accumulate", _KERNEL, block.dtype, n, (block, np.int32(rows), np.int64(n)), per_node, row0, radii,
                decay, acc)


def _accumulate(xp, name, source, dtype, n, args, per_node, row0, radii, decay, acc):
    """Launches the accumulation kernel `name` of `source`, a thread a node, RADII_PER_PASS radii
    a pass, with its own arguments `args` followed by those both kernels share."""
    code = DECAY_CODES[decay]
    for first in range(0, len(radii), RADII_PER_PASS):
        group = radii[first:first + RADII_PER_PASS]
        kernel = _compiled(xp, name, source, dtype, RADII=len(group))
        threads = 256
        kernel(((n + threads - 1) // threads,), (threads,),
               (*args, per_node, np.int64(per_node.shape[1]), np.int64(row0), xp.asarray(group, dtype=xp.float64),
                np.int32(code), acc[first:first + len(group)]))


def accumulate_lists(xp, start, rows, vertices, distances, per_node, radii, decay, acc):
    """accumulate_on_device for a group of reached lists (reached_groups' order="vertex": rows
    relative to start, sorted by (vertex, row))."""
    n = acc.shape[2]
    if n == 0 or not len(rows):
        return
    starts = xp.searchsorted(vertices, xp.arange(n + 1))
    _accumulate(xp, "accumulate_lists", _LISTS_KERNEL, distances.dtype, n, (starts, rows, distances, np.int64(n)),
                per_node, start, radii, decay, acc)


def aggregate_blocks(net, solver, positions, values, radii, types, decay):
    """{(type, radius): float64 array of n} for the values at node positions (several may share a
    node). solver: (reverse graph, strategy), so that row u of a block holds the distances from
    every node to valued node u."""
    n = net.num_nodes
    xp = net.array_module(solver[1])
    nodes, inverse = np.unique(positions, return_inverse=True)
    least = np.full(len(nodes), np.inf)
    greatest = np.full(len(nodes), -np.inf)
    np.minimum.at(least, inverse, values)
    np.maximum.at(greatest, inverse, values)
    per_node = {
        "count": np.bincount(inverse, minlength=len(nodes)).astype(np.float64),
        "sum": np.bincount(inverse, weights=values, minlength=len(nodes)),
        "squares": np.bincount(inverse, weights=values * values, minlength=len(nodes)),
        "min": least, "max": greatest,
    }
    wanted = set(types)
    lists_on_host = xp is np and net.lists_on_host(solver[1], max(radii))
    if fused_reductions(xp) or lists_on_host:
        stacked = xp.asarray(np.stack([per_node[k] for k in ("count", "sum", "squares", "min", "max")]))
        fields = xp.zeros((len(radii), _FIELDS, n))
        fields[:, 4] = np.inf
        fields[:, 5] = -np.inf
        if lists_on_host:
            for start, rows, vertices, d in net.reached_lists(solver[0], nodes, max(radii)):
                _core.accumulate_reached(rows, vertices, d, start, stacked, np.asarray(radii, dtype=np.float64),
                                         DECAY_CODES[decay], fields)
        elif net.lists_on_device(solver[1], max(radii)):
            for start, rows, vertices, d in reached_groups(net, *solver, nodes, max(radii), order="vertex"):
                accumulate_lists(xp, start, rows, vertices, d, stacked, radii, decay, fields)
        else:
            for start, block in net._rows(*solver, nodes, None, max(radii), whole=True):
                accumulate_on_device(xp, block, start, stacked, radii, decay, fields)
        acc = {r: dict(zip(("count", "decayed", "sum", "squares", "min", "max"), fields[i]))
               for i, r in enumerate(radii)}
        return _aggregations(xp, net, solver, positions, values, radii, types, acc)
    per_node = {key: xp.asarray(v) for key, v in per_node.items()}
    acc = {r: {"count": xp.zeros(n), "decayed": xp.zeros(n), "sum": xp.zeros(n), "squares": xp.zeros(n),
               "min": xp.full(n, np.inf), "max": xp.full(n, -np.inf)} for r in radii}
    for start, r, c, d in pair_groups(net, solver, nodes, max(radii), xp):
        u = start + r
        for radius in radii:
            sel = d <= radius
            uu, cc, dd = u[sel], c[sel], d[sel]
            a = acc[radius]
            a["count"] += xp.bincount(cc, weights=per_node["count"][uu], minlength=n)
            if wanted & {"sum", "mean"}:
                a["decayed"] += xp.bincount(cc, weights=decay_weights(xp, dd, radius, decay) * per_node["sum"][uu],
                                            minlength=n)
            if "std" in wanted:
                a["sum"] += xp.bincount(cc, weights=per_node["sum"][uu], minlength=n)
                a["squares"] += xp.bincount(cc, weights=per_node["squares"][uu], minlength=n)
            for t in wanted & {"min", "max"}:
                at, v = group_extreme(xp, cc, per_node[t][uu], greatest=t == "max")
                a[t][at] = (xp.maximum if t == "max" else xp.minimum)(a[t][at], v)
    return _aggregations(xp, net, solver, positions, values, radii, types, acc)


def _aggregations(xp, net, solver, positions, values, radii, types, acc):
    """The wanted aggregations from the per-radius accumulators, in host memory; the quantiles by
    ranked_values."""
    out = {}
    for radius in radii:
        a = acc[radius]
        cnt = a["count"]
        some = cnt > 0
        safe = xp.where(some, cnt, 1.0)
        for t in types:
            if t == "sum":
                res = a["decayed"]
            elif t == "count":
                res = cnt
            elif t == "mean":
                res = xp.where(some, a["decayed"] / safe, 0.0)
            elif t == "std":
                mean = a["sum"] / safe
                res = xp.where(some, xp.sqrt(xp.maximum(a["squares"] / safe - mean * mean, 0.0)), 0.0)
            elif t in ("min", "max"):
                res = xp.where(some, a[t], -1.0)
            else:
                continue
            out[(t, radius)] = to_host(res)
    ranked = [t for t in types if t in QUANTILES]
    if ranked:
        out.update(ranked_values(net, solver, positions, values, radii, ranked,
                                 {r: acc[r]["count"].astype(np.int64) for r in radii}))
    return out


def item_pairs(net, solver, sources, rows, cutoff, xp):
    """(item, column, distance float64) of every entry within `cutoff` of the items whose nodes
    are sources[rows] (rows: each item's index into the distinct `sources`): each source's
    reached entries (pair_groups) repeated for each of its items."""
    by_source = np.argsort(rows, kind="stable")
    per_source = np.bincount(rows, minlength=len(sources))
    first = np.concatenate([[0], np.cumsum(per_source)[:-1]])
    by_source, per_source, first = (xp.asarray(a.astype(np.int64)) for a in (by_source, per_source, first))
    parts = []
    for start, r, c, d in pair_groups(net, solver, sources, cutoff, xp):
        u = start + r
        reps = per_source[u]
        rr = repeat_index(xp, reps)
        offset = xp.arange(len(rr)) - (xp.cumsum(reps) - reps)[rr]
        parts.append((by_source[first[u][rr] + offset], c[rr], d[rr]))
    if not parts:
        return xp.zeros(0, dtype=xp.int64), xp.zeros(0, dtype=xp.int64), xp.zeros(0)
    return tuple(xp.concatenate(p) for p in zip(*parts))


def ranked_values(net, solver, positions, values, radii, types, counts):
    """The quantiles: the values visited from the least up, in blocks (rows: the values' nodes),
    each node's running count of values in reach telling when its wanted rank passes; any split
    into blocks gives the same answers. A block of dense rows holds at most the rows reduced at
    once (Network.block_rows); where the solves hand out reached lists (a finite radius,
    Network.lists_on_host or lists_on_device), a block holds about as many entries as such a
    block of rows (its items: that many over the entries an item reached so far, at most 2^16)."""
    n = net.num_nodes
    g, strategy = solver
    xp = net.array_module(strategy)
    cutoff = max(radii)
    lists = net.lists_on_host(strategy, cutoff) if xp is np else net.lists_on_device(strategy, cutoff)
    order = np.argsort(values, kind="stable")
    item_node, item_value = positions[order], xp.asarray(values[order])
    want = {}
    found = {}
    for radius in radii:
        for t in types:
            cnt = counts[radius]
            want[(t, radius)] = xp.minimum((cnt * QUANTILES[t]).astype(xp.int64), xp.maximum(cnt - 1, 0))
            found[(t, radius)] = xp.full(n, -1.0)
    seen = {r: xp.zeros(n, dtype=xp.int64) for r in radii}
    k = net.block_rows(xp, n, net.distance_dtype(g))[1]
    budget, items_done, entries_done = k * n, 0, 0
    start = 0
    while start < len(order):
        sources, rows = np.unique(item_node[start:start + k], return_inverse=True)
        if lists:
            r, c, d = item_pairs(net, solver, sources, rows, cutoff, xp)
        else:
            r, c, d = reached_pairs(xp, net._block(g, strategy, sources, None, cutoff, xp)[xp.asarray(rows)])
        for radius in radii:
            sel = d <= radius
            rs, cs = r[sel], c[sel]
            by_node = lexsort(xp, (rs, cs))
            rs, cs = rs[by_node], cs[by_node]
            rank = seen[radius][cs] + group_ranks(xp, cs)
            for t in types:
                hit = rank == want[(t, radius)][cs]
                found[(t, radius)][cs[hit]] = item_value[start + rs[hit]]
            seen[radius] += xp.bincount(cs, minlength=n)
        start += len(rows)
        if lists:
            items_done += len(rows)
            entries_done += len(r)
            k = int(min(max(budget * items_done // max(entries_done, 1), k), 1 << 16))
    return {key: to_host(v) for key, v in found.items()}


# nearest_on_device's kernel: a thread a node keeps its k best (distance, place) in ascending
# order, for k up to NEAREST_ON_DEVICE (beyond, the generic path's sorts).
NEAREST_ON_DEVICE = 32
_NEAREST_KERNEL = r"""
// The places of row u (valued node u), at distance d of the thread's node, offered to its k best.
__device__ __forceinline__ void offer(double* bd, long long* bp, const double d, const long long u,
                                      const long long* __restrict__ by_node, const long long* __restrict__ first,
                                      const long long* __restrict__ per_node) {
  offer_places(bd, bp, K, d, u, by_node, first, per_node);
}

// A node's k best from (back false) or into (back true) its rows of best_d and best_p.
__device__ __forceinline__ void keep_best(double* bd, long long* bp, double* best_d, long long* best_p, const bool back) {
  for (int j = 0; j < K; ++j) {
    if (back) {
      best_d[j] = bd[j];
      best_p[j] = bp[j];
    } else {
      bd[j] = best_d[j];
      bp[j] = best_p[j];
    }
  }
}

extern "C" __global__ void nearest(const TYPE* __restrict__ block, const int rows, const long long n,
                                   const long long row0, const long long* __restrict__ by_node,
                                   const long long* __restrict__ first, const long long* __restrict__ per_node,
                                   const double radius, double* __restrict__ best_d, long long* __restrict__ best_p) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  double bd[K];
  long long bp[K];
  keep_best(bd, bp, best_d + c * K, best_p + c * K, false);
  for (int i = 0; i < rows; i += LOADS) {
    TYPE raw[LOADS];
#pragma unroll
    for (int j = 0; j < LOADS; ++j) raw[j] = i + j < rows ? block[(long long)(i + j) * n + c] : (TYPE)0;
    for (int j = 0; j < LOADS && i + j < rows; ++j) {
      if (UNREACHED(raw[j])) continue;
      const double d = (double)raw[j];
      if (d <= radius) offer(bd, bp, d, row0 + i + j, by_node, first, per_node);
    }
  }
  keep_best(bd, bp, best_d + c * K, best_p + c * K, true);
}

// The same from reached lists sorted by (node, row): the rows come in order, as in a block.
extern "C" __global__ void nearest_lists(const long long* __restrict__ starts, const long long* __restrict__ rows,
                                         const TYPE* __restrict__ distances, const long long n, const long long row0,
                                         const long long* __restrict__ by_node, const long long* __restrict__ first,
                                         const long long* __restrict__ per_node, const double radius,
                                         double* __restrict__ best_d, long long* __restrict__ best_p) {
  const long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n) return;
  double bd[K];
  long long bp[K];
  keep_best(bd, bp, best_d + c * K, best_p + c * K, false);
  for (long long i = starts[c]; i < starts[c + 1]; ++i) {
    const double d = (double)distances[i];
    if (d <= radius) offer(bd, bp, d, row0 + rows[i], by_node, first, per_node);
  }
  keep_best(bd, bp, best_d + c * K, best_p + c * K, true);
}
"""


def nearest_on_device(xp, block, row0, by_node, first, per_node, radius, best_d, best_p):
    """Merges a cupy block's places within radius into each node's k best (best_d float64 and
    best_p int64, (n, k), nearest first, ties by place; -1 and inf where empty): the rows are
    the nodes first[row0:] of places by_node (grouped by node, in their own order), per_node of
    them each (at most k)."""
    rows, n = block.shape
    k = best_d.shape[1]
    if rows == 0 or n == 0:
        return
    block = xp.ascontiguousarray(block)
    kernel = _compiled(xp, "nearest", _NEAREST_KERNEL, block.dtype, K=k)
    threads = 128
    kernel(((n + threads - 1) // threads,), (threads,),
           (block, np.int32(rows), np.int64(n), np.int64(row0), by_node, first, per_node, np.float64(radius),
            best_d, best_p))


def nearest_lists(xp, start, rows, vertices, distances, by_node, first, per_node, radius, best_d, best_p):
    """nearest_on_device for a group of reached lists (reached_groups' order="vertex": rows
    relative to start, sorted by (vertex, row))."""
    n, k = best_d.shape
    if n == 0 or not len(rows):
        return
    starts = xp.searchsorted(vertices, xp.arange(n + 1))
    kernel = _compiled(xp, "nearest_lists", _NEAREST_KERNEL, distances.dtype, K=k)
    threads = 128
    kernel(((n + threads - 1) // threads,), (threads,),
           (starts, rows, distances, np.int64(n), np.int64(start), by_node, first, per_node, np.float64(radius),
            best_d, best_p))


def nearest_blocks(net, solver, positions, radius, k):
    """For every node, its k nearest places (positions: each place's node) within radius:
    (distances float64 (n, k), places (n, k) int64 with -1 where fewer are in reach), nearest
    first, ties in the places' order. solver: (reverse graph, strategy)."""
    n = net.num_nodes
    xp = net.array_module(solver[1])
    best_d = xp.full((n, k), np.inf)
    best_p = xp.full((n, k), -1, dtype=xp.int64)
    nodes, inverse = np.unique(positions, return_inverse=True)
    by_node = np.argsort(inverse, kind="stable")  # places grouped by node, in their own order
    first = np.searchsorted(inverse[by_node], np.arange(len(nodes)))
    # Places on one node lie at one distance from everything, so only the first k of a node
    # can ever be among a node's k nearest.
    per_node = np.minimum(np.bincount(inverse, minlength=len(nodes)), k)
    by_node, first, per_node = (xp.asarray(a.astype(np.int64)) for a in (by_node, first, per_node))
    if xp is np and net.lists_on_host(solver[1], radius):
        for start, rows, vertices, d in net.reached_lists(solver[0], nodes, radius):
            _core.nearest_reached(rows, vertices, d, start, by_node, first, per_node, radius, best_d, best_p)
        return best_d, best_p
    if fused_reductions(xp) and k <= NEAREST_ON_DEVICE:
        if net.lists_on_device(solver[1], radius):
            for start, rows, vertices, d in reached_groups(net, *solver, nodes, radius, order="vertex"):
                nearest_lists(xp, start, rows, vertices, d, by_node, first, per_node, radius, best_d, best_p)
        else:
            for start, block in net._rows(*solver, nodes, None, radius, whole=True):
                nearest_on_device(xp, block, start, by_node, first, per_node, radius, best_d, best_p)
        return to_host(best_d), to_host(best_p)
    for start, r, c, d in pair_groups(net, solver, nodes, radius, xp):
        u = start + r
        reps = per_node[u]
        rr = repeat_index(xp, reps)
        offset = xp.arange(len(rr)) - (xp.cumsum(reps) - reps)[rr]
        place = by_node[first[u][rr] + offset]
        cc, dd = c[rr], d[rr]
        touched = xp.unique(cc)
        old_p = best_p[touched]
        old = old_p >= 0
        cand_c = xp.concatenate([cc, xp.repeat(touched, k)[old.ravel()]])
        cand_d = xp.concatenate([dd, best_d[touched][old]])
        cand_p = xp.concatenate([place, old_p[old]])
        order = lexsort(xp, (cand_p, cand_d, cand_c))
        cand_c, cand_d, cand_p = cand_c[order], cand_d[order], cand_p[order]
        rank = group_ranks(xp, cand_c)
        keep = rank < k
        best_d[touched] = np.inf
        best_p[touched] = -1
        best_d[cand_c[keep], rank[keep]] = cand_d[keep]
        best_p[cand_c[keep], rank[keep]] = cand_p[keep]
    return to_host(best_d), to_host(best_p)
