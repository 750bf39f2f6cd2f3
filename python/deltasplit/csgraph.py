"""Drop-ins for scipy.sparse.csgraph.dijkstra and shortest_path, solved by deltasplit.

Same arguments, outputs and conventions as scipy's: float64 distances with inf where unreachable,
int32 predecessors with -9999, output shape ``indices.shape + (N,)`` (``(N, N)`` without indices),
explicit zeros of a sparse matrix are zero-weight edges, duplicate entries of a CSR matrix take the
minimum, dense inputs take 0, inf and NaN as "no edge", ``directed=False`` uses every edge both
ways, ``unweighted`` counts edges, ``limit`` reports pairs farther apart as unreachable, and
``min_only`` gives each vertex its distance from the nearest index. Plus ``strategy=`` (a deltasplit
strategy) and ``device=`` ('auto', 'gpu', 'cpu'). Graphs with negative weights are solved by
Bellman-Ford and Johnson's reweighting instead (deltasplit._negative: exact, scipy's
NegativeCycleError on a negative cycle; dijkstra warns first, as scipy's does); bellman_ford and
johnson are offered too.

Several indices without predecessors are solved together by the batched many-source solver
(Graph.distance_matrix, which takes the limit as its cutoff): on the GPU in batches of sources that
share one bucket bound and one read of every arc, on the CPU one Dijkstra per source over all
threads. With predecessors, each index is one solve on one uploaded graph. cupy inputs (cupy
arrays, cupyx.scipy.sparse matrices) are solved on the GPU from device memory and give cupy
outputs, one solve per index (the batched solver takes a host graph).
"""
import math

import numpy as np

from . import _negative
from ._graph import STRATEGIES, Graph, _device_module, _real_answer, device_rows

NO_PREDECESSOR = -9999

__all__ = ["dijkstra", "shortest_path", "bellman_ford", "johnson", "NO_PREDECESSOR"]


def _to_csr(csgraph):
    """The input as a square host CSR matrix, as scipy's validation converts it."""
    import scipy.sparse as sp
    from scipy.sparse import csgraph as scg
    if sp.issparse(csgraph):
        a = csgraph.tocsr()
    elif np.ma.isMaskedArray(csgraph):
        a = scg.csgraph_from_masked(csgraph)
    else:
        dense = np.asarray(csgraph)
        if dense.dtype == object or dense.dtype.kind not in "iufb":
            raise TypeError(f"csgraph must be a numeric matrix; got dtype {dense.dtype}")
        if dense.ndim != 2:
            raise ValueError(f"csgraph must be 2-D; got shape {dense.shape}")
        a = scg.csgraph_from_dense(dense.astype(np.float64), null_value=0, infinity_null=True, nan_null=True)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"csgraph must be square (N, N); got shape {a.shape}")
    if a.data.dtype.kind not in "iufb":
        raise TypeError(f"csgraph must hold numbers; got dtype {a.data.dtype}")
    return a


def _device_csr(csgraph):
    """A cupyx sparse matrix or a 2-D cupy array as a cupyx CSR matrix (stays on the device)."""
    import cupyx.scipy.sparse as csp
    if csp.issparse(csgraph):
        a = csgraph.tocsr()
    else:
        import cupy
        dense = cupy.asarray(csgraph)
        if dense.ndim != 2:
            raise ValueError(f"csgraph must be 2-D; got shape {dense.shape}")
        dense = dense.astype(cupy.float64)
        dense[~cupy.isfinite(dense)] = 0
        a = csp.csr_matrix(dense)
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"csgraph must be square (N, N); got shape {a.shape}")
    return a


def _indices(indices, n):
    """(flat array of sources, output shape prefix)."""
    if indices is None:
        return np.arange(n), (n,)
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu":
        if idx.size and not np.all(np.mod(idx, 1) == 0):
            raise TypeError("indices must be integers")
        idx = idx.astype(np.int64)
    flat = idx.astype(np.int64).ravel().copy()
    flat[flat < 0] += n
    if flat.size and (flat.min() < 0 or flat.max() >= n):
        raise ValueError("indices out of range 0...N")
    return flat, idx.shape


def _is_device(csgraph):
    if _device_module(csgraph) is not None:
        return True
    try:
        import cupyx.scipy.sparse as csp
    except ImportError:
        return False
    return csp.issparse(csgraph)


def _graph(csgraph, directed, unweighted, extra_arcs=None):
    """The Graph the solver runs on, and N. extra_arcs: (src, dst) zero-weight arcs to add
    (min_only's virtual source, vertex N)."""
    if _is_device(csgraph):
        import cupy
        a = _device_csr(csgraph)
        n = a.shape[0]
        w = cupy.ones(a.nnz, dtype=cupy.uint32) if unweighted else a.data
        off, tgt = a.indptr, a.indices
        if _uint32_exact(w, n + (extra_arcs is not None)):
            # As uint32: the Graph answers in the type it is given (float weights, even whole
            # ones, in float32 on the device), and these distances go to float64 exact.
            w = w.astype(cupy.uint32)
            if extra_arcs is not None:
                return _device_with_source(n, off, tgt, w, directed, extra_arcs), n
            return Graph.from_arrays(off, tgt, w, num_vertices=n, directed=directed), n
        # Real weights (float64, as scipy answers) or paths that may pass 2**32 - 2: 64-bit
        # distances, which a graph in device memory does not take in this version; solved from a
        # host copy, and the answers go back to the device.
        csgraph = a.get()
    a = _to_csr(csgraph)
    n = a.shape[0]
    w = np.ones(a.nnz, dtype=np.uint32) if unweighted else a.data
    if extra_arcs is None:
        return Graph.from_arrays(a.indptr, a.indices, w, num_vertices=n, directed=directed), n
    rows = np.repeat(np.arange(n), np.diff(a.indptr))
    src, dst = [rows], [a.indices]
    if not directed:
        src, dst, w = [rows, a.indices], [a.indices, rows], np.concatenate([w, w])
    src.append(np.full(len(extra_arcs), n))
    dst.append(extra_arcs)
    w = np.concatenate([np.asarray(w, dtype=np.float64), np.zeros(len(extra_arcs))])
    return Graph.from_edges(np.concatenate(src), np.concatenate(dst), w, n + 1), n


def _uint32_exact(w, n):
    """True when device weights w are integers whose paths among n vertices stay within 2**32 - 2
    (max weight x (n - 1)): the GPU engine's exact uint32 distances."""
    import cupy
    if w.size == 0:
        return True
    hi = float(w.max())
    integral = w.dtype.kind in "iub" or bool((w == cupy.floor(w)).all())
    return integral and float(w.min()) >= 0 and hi * max(n - 1, 1) <= 2**32 - 2


def _device_with_source(n, off, tgt, w, directed, sources):
    import cupy
    rows = device_rows(off)
    src, dst, ws = [rows], [tgt.astype(cupy.int64)], [w]
    if not directed:
        src.append(tgt.astype(cupy.int64))
        dst.append(rows)
        ws.append(w)
    src.append(cupy.full(len(sources), n, dtype=cupy.int64))
    dst.append(cupy.asarray(sources, dtype=cupy.int64))
    ws.append(cupy.zeros(len(sources), dtype=w.dtype))
    s, d, ww = cupy.concatenate(src), cupy.concatenate(dst), cupy.concatenate(ws)
    order = cupy.argsort(s)
    counts = cupy.bincount(s, minlength=n + 1)
    offsets = cupy.concatenate([cupy.zeros(1, dtype=cupy.int64), cupy.cumsum(counts)])
    return Graph.from_arrays(offsets, d[order], ww[order], num_vertices=n + 1, directed=True)


def _as_float64(dist, xp):
    """Distances as scipy answers them: float64, inf for unreachable (all ones in uint32 and
    uint64 rows)."""
    return _real_answer(dist, xp.float64) if dist.dtype.kind == "u" else dist.astype(xp.float64)


def _as_scipy_pred(pred, xp):
    out = pred.astype(xp.int32)
    out[pred == Graph.NO_VERTEX] = NO_PREDECESSOR
    return out


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, limit=np.inf,
             min_only=False, *, strategy="multisplit", device="auto"):
    """scipy.sparse.csgraph.dijkstra, solved by deltasplit (see the module's documentation)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
    if device not in ("auto", "gpu", "cpu"):
        raise ValueError(f"device must be 'auto', 'gpu' or 'cpu'; got {device!r}")
    limit = float(limit)
    if math.isnan(limit) or limit < 0:
        raise ValueError("limit must be >= 0")
    on_device = _is_device(csgraph)
    if on_device:
        import cupy as xp
        n = _device_csr(csgraph).shape[0]
    else:
        xp = np
        n = _to_csr(csgraph).shape[0]
    negative = _negative.negative_graph(csgraph, unweighted)
    if negative is not None:
        return _negative.dijkstra(negative, directed, indices, return_predecessors, limit, min_only)
    flat, shape = _indices(indices, n)
    if min_only:
        return _min_only(csgraph, directed, flat, return_predecessors, unweighted, limit, strategy, device, xp)
    g, n = _graph(csgraph, directed, unweighted)
    dist = xp.empty((flat.size, n), dtype=xp.float64)
    pred = xp.empty((flat.size, n), dtype=xp.int32) if return_predecessors else None
    _solve_rows(g, flat, dist, pred, strategy=strategy, device=device, cutoff=limit)
    dist = dist.reshape(shape + (n,)) if indices is not None else dist
    if return_predecessors:
        pred = pred.reshape(shape + (n,)) if indices is not None else pred
        return dist, pred
    return dist


def _solve_rows(g, sources, dist, pred, strategy, device, cutoff):
    """Fills dist[i] (and pred[i] when given) with scipy's answer from sources[i]. Several sources
    without predecessors go to Graph.distance_matrix with the cutoff: the batched many-source
    solver (many_sources.hpp) for host graphs, writing float64 rows in place. Predecessors (the
    batched solver has none) and a single source take one sssp per source on the one uploaded
    graph, as device graphs do inside distance_matrix (the batched solver takes a host graph)."""
    xp = np if isinstance(dist, np.ndarray) else __import__("cupy")
    if pred is None and len(sources) > 1:
        if g.on_device or xp is not np:
            rows = g.distance_matrix(sources, strategy=strategy, device=device, cutoff=cutoff)
            dist[...] = _as_float64(_as_array(rows, xp), xp)
        else:
            g.distance_matrix(sources, strategy=strategy, device=device, cutoff=cutoff, out=dist)
        return
    for row, s in enumerate(sources):
        r = g.sssp(int(s), strategy=strategy, predecessors=pred is not None, device=device, cutoff=cutoff)
        dist[row] = _as_float64(_as_array(r.distances, xp), xp)
        if pred is not None:
            pred[row] = _as_scipy_pred(_as_array(r.predecessors, xp), xp)


def _as_array(a, xp):
    return a if xp is np else xp.asarray(a)


def _min_only(csgraph, directed, flat, return_predecessors, unweighted, limit, strategy, device, xp):
    """Distances from the nearest index: one solve from a virtual vertex N with zero-weight arcs to
    every index; predecessors cut at the indices, and each vertex's index found by pointer jumping."""
    g, n = _graph(csgraph, directed, unweighted, extra_arcs=np.unique(flat))
    r = g.sssp(n, strategy=strategy, predecessors=True, device=device, cutoff=limit)
    dist = _as_float64(_as_array(r.distances, xp)[:n], xp)
    if not return_predecessors:
        return dist
    parent = _as_array(r.predecessors, xp)[:n].astype(xp.int64)
    reached = parent != Graph.NO_VERTEX
    is_index = parent == n
    pred = xp.where(reached & ~is_index, parent, NO_PREDECESSOR).astype(xp.int32)
    root = xp.where(reached & ~is_index, parent, xp.arange(n)).astype(xp.int64)
    while True:  # root[v] -> root[root[v]] until every chain ends at an index (log depth rounds)
        nxt = root[root]
        if bool((nxt == root).all()):
            break
        root = nxt
    sources = xp.where(reached, root, NO_PREDECESSOR).astype(xp.int32)
    return dist, pred, sources


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None, *, strategy="multisplit", device="auto"):
    """scipy.sparse.csgraph.shortest_path, solved by deltasplit: every method ('auto', 'D', 'FW',
    'BF', 'J') gives the same distances, computed by delta-stepping for non-negative weights (by
    deltasplit._negative for negative ones). 'FW' takes no indices, as in scipy. overwrite is
    accepted for compatibility and ignored (the input is never changed)."""
    if method not in ("auto", "D", "FW", "BF", "J"):
        raise ValueError(f"unrecognized method '{method}'")
    if method == "FW" and indices is not None:
        raise ValueError("Cannot specify indices with method == 'FW'.")
    negative = _negative.negative_graph(csgraph, unweighted)
    if negative is not None:
        return _negative.shortest_path(negative, method, directed, indices, return_predecessors)
    return dijkstra(csgraph, directed=directed, indices=indices, return_predecessors=return_predecessors,
                    unweighted=unweighted, strategy=strategy, device=device)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, *,
                 strategy="multisplit", device="auto"):
    """scipy.sparse.csgraph.bellman_ford: shortest_path(method='BF')."""
    return shortest_path(csgraph, "BF", directed, return_predecessors, unweighted, indices=indices,
                         strategy=strategy, device=device)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, *,
            strategy="multisplit", device="auto"):
    """scipy.sparse.csgraph.johnson: shortest_path(method='J')."""
    return shortest_path(csgraph, "J", directed, return_predecessors, unweighted, indices=indices,
                         strategy=strategy, device=device)
