"""Graphs with negative weights for deltasplit.csgraph: scipy's answers from the C++ solvers of
src/sssp/negative_weights.hpp, apart from the delta-stepping solvers (which need weights >= 0).

csgraph's dijkstra and shortest_path hand a graph here when it has a negative weight and weights
count (not ``unweighted``); every other graph stays on delta-stepping. Methods:

* 'BF': Bellman-Ford label correcting, one run per index (a negative cycle is an error only when an
  index reaches it, as in scipy's bellman_ford);
* 'J', 'auto', 'FW', and dijkstra: Johnson's reweighting (potentials once, then Dijkstra per index
  on all cores); a negative cycle anywhere is an error. 'FW' (and 'auto' where scipy would choose
  Floyd-Warshall: no indices, N^2 / 4 arcs or more) gives Floyd-Warshall's distances by Johnson, in
  O(n m log n) rather than O(n^3), on the graph without its self-loops: Floyd-Warshall sets every
  d(v, v) to 0, so that a negative self-loop is no negative cycle there, as in scipy.
  dijkstra warns as scipy's does (same message, UserWarning), then answers exactly where scipy's
  label-setting search may not.

Integer weights are solved in int64, exactly (OverflowError past 63 bits), and converted to
float64 at the end: identical to scipy below 2^53. Real weights are solved in float64 operation
for operation as scipy's bellman_ford and johnson, so distances agree to the last bit where the
same shortest paths are found. A negative cycle raises scipy's own NegativeCycleError naming a
vertex on it. Undirected graphs use every edge both ways, so a negative edge is a negative cycle
(as in scipy). ``limit`` (dijkstra) reports vertices farther than it as unreachable after the exact
solve. ``min_only`` solves once from a virtual vertex joined to every index by a zero-weight arc,
so a vertex's distance is its minimum over the indices (an index reached from another at a negative
distance reports that distance, not 0). Device (cupy) graphs are not taken: the GPU path refuses
negative weights with a ValueError.
"""
import warnings

import numpy as np

from . import _core
from ._graph import _host_array

_NO_PREDECESSOR = -9999
_INT64_UNREACHABLE = np.iinfo(np.int64).max


def negative_graph(csgraph, unweighted):
    """The host CSR matrix of csgraph when it has a negative weight that counts, else None."""
    from .csgraph import _is_device, _to_csr
    if unweighted or _is_device(csgraph):
        return None
    a = _to_csr(csgraph)
    if a.nnz == 0 or a.data.dtype.kind not in "if" or not a.data.min() < 0:
        return None
    return a


def dijkstra(a, directed, indices, return_predecessors, limit, min_only):
    """scipy.sparse.csgraph.dijkstra's answer on a graph with negative weights (exact)."""
    warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
                  "negative cycles. Consider johnson or bellman_ford.", stacklevel=3)
    flat, shape = _indices(indices, a.shape[0])
    if min_only:
        return _min_only(a, directed, flat, return_predecessors, limit)
    dist, pred = _rows(a, directed, flat, "johnson", return_predecessors)
    if limit < np.inf:
        far = dist > limit
        dist[far] = np.inf
        if pred is not None:
            pred[far] = _NO_PREDECESSOR
    return _shaped(dist, pred, shape)


def shortest_path(a, method, directed, indices, return_predecessors):
    """scipy.sparse.csgraph.shortest_path's answer on a graph with negative weights; method
    already checked ('FW' without indices)."""
    if method == "D":
        return dijkstra(a, directed, indices, return_predecessors, np.inf, False)
    n = a.shape[0]
    if method == "auto":  # scipy's choice: Floyd-Warshall for graphs of N^2 / 4 arcs or more, without indices
        method = "FW" if indices is None and a.nnz >= n * n / 4 else "J"
    if method == "FW":  # Floyd-Warshall sets every d(v, v) to 0 first, so self-loops do not count
        a = _without_self_loops(a)
    flat, shape = _indices(indices, n)
    dist, pred = _rows(a, directed, flat, "bellman_ford" if method == "BF" else "johnson", return_predecessors)
    return _shaped(dist, pred, shape)


def _without_self_loops(a):
    """a without its diagonal entries (from the CSR arrays: a COO would sum duplicates)."""
    n = a.shape[0]
    rows = np.repeat(np.arange(n), np.diff(a.indptr))
    keep = a.indices != rows
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows[keep], minlength=n))])
    return type(a)((a.data[keep], a.indices[keep], indptr), shape=a.shape)


def _indices(indices, n):
    from .csgraph import _indices as flat_and_shape
    return flat_and_shape(indices, n)


def _shaped(dist, pred, shape):
    n = dist.shape[1]
    dist = dist.reshape(shape + (n,))
    return (dist, pred.reshape(shape + (n,))) if pred is not None else dist


def _arrays(a, directed, extra_sources=None):
    """(n, offsets uint64, targets uint32, weights int64 or float64) of a, every edge both ways when
    undirected; extra_sources: a vertex n appended with a zero-weight arc to each of them."""
    n = a.shape[0]
    dtype = np.int64 if a.data.dtype.kind == "i" else np.float64
    offsets, targets, weights = a.indptr.astype(np.int64), a.indices, a.data.astype(dtype)
    if not directed:
        rows = np.repeat(np.arange(n), np.diff(offsets))
        tails = np.concatenate([rows, targets])
        order = np.argsort(tails, kind="stable")
        targets = np.concatenate([targets, rows])[order]
        weights = np.concatenate([weights, weights])[order]
        offsets = np.concatenate([[0], np.cumsum(np.bincount(tails, minlength=n))])
    if extra_sources is not None:
        offsets = np.append(offsets, offsets[-1] + len(extra_sources))
        targets = np.concatenate([targets, extra_sources])
        weights = np.concatenate([weights, np.zeros(len(extra_sources), dtype=dtype)])
        n += 1
    return n, _host_array(offsets, np.uint64), _host_array(targets, np.uint32), _host_array(weights)


def _solve(method, arrays, sources, return_predecessors):
    """The C++ rows from sources: (distances in the weights' type, uint32 parents or None)."""
    n, offsets, targets, weights = arrays
    dist = np.empty((len(sources), n), dtype=weights.dtype)
    pred = np.empty((len(sources), n), dtype=np.uint32) if return_predecessors else None
    cycle = _core.negative_weights_into(method, n, offsets, targets, weights,
                                        _host_array(sources, np.uint32), dist.reshape(-1),
                                        None if pred is None else pred.reshape(-1))
    if cycle >= 0:
        from scipy.sparse.csgraph import NegativeCycleError  # imported when needed, as csgraph imports scipy
        raise NegativeCycleError(f"Negative cycle detected on node {cycle}")
    return dist, pred


def _as_scipy(dist, pred):
    """float64 distances (inf where unreachable) and int32 predecessors (-9999 for none)."""
    out = dist.astype(np.float64)
    if dist.dtype == np.int64:
        out[dist == _INT64_UNREACHABLE] = np.inf
    if pred is None:
        return out, None
    parents = pred.astype(np.int32)
    parents[pred == _core.NO_VERTEX] = _NO_PREDECESSOR
    return out, parents


def _rows(a, directed, sources, method, return_predecessors):
    return _as_scipy(*_solve(method, _arrays(a, directed), sources, return_predecessors))


def _min_only(a, directed, flat, return_predecessors, limit):
    """One Bellman-Ford run from a virtual vertex n with a zero-weight arc to every index; a
    vertex's source is the index its tree path leaves the virtual vertex by."""
    n = a.shape[0]
    arrays = _arrays(a, directed, extra_sources=np.unique(flat))
    dist, pred = _solve("bellman_ford", arrays, [n], True)
    out = _as_scipy(dist[0, :n], None)[0]
    far = out > limit
    out[far] = np.inf
    if not return_predecessors:
        return out
    parent = pred[0, :n].astype(np.int64)
    in_tree = (parent != _core.NO_VERTEX) & (parent != n)  # reached, and not an index the virtual vertex joins
    root = np.where(in_tree, parent, np.arange(n))
    for _ in range(n.bit_length()):  # pointer jumping: k doublings climb 2^k tree levels, and paths are < n long
        root = root[root]
    reached = (parent != _core.NO_VERTEX) & ~far
    preds = np.where(reached & in_tree, parent, _NO_PREDECESSOR).astype(np.int32)
    sources = np.where(reached, root, _NO_PREDECESSOR).astype(np.int32)
    return out, preds, sources
