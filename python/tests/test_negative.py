"""deltasplit.csgraph on negative weights against scipy.sparse.csgraph: every method, integer and
real weights, negative cycles (scipy's NegativeCycleError), dijkstra's warning, min_only, limit,
predecessors, and the edge cases (no vertices, one, unreachable, zero weights, duplicates)."""
import contextlib

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

from deltasplit import csgraph as dcg

from conftest import assert_same_distances

METHODS = ("auto", "BF", "J", "FW")
WARNING = "Graph has negative weights"


def negative_graph(n, m, seed, integer):
    """n vertices, m random arcs with negative weights and no negative cycle: w(u, v) = b + p(u) -
    p(v) with b >= 0 (zero for every fifth arc: zero-weight cycles) and potentials p. Built as CSR
    arrays, so that parallel arcs and explicit zeros stay arcs (a COO would sum the duplicates).
    Integer graphs keep only the lightest of parallel arcs: scipy converts an integer CSR to
    float64 summing its duplicates (negative cycles appear), where its Bellman-Ford and Johnson
    relax the duplicates of a float64 one as parallel arcs, as deltasplit does."""
    rng = np.random.default_rng(seed)
    p = rng.integers(0, 50, n) if integer else rng.uniform(0, 5, n)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    base = rng.integers(0, 30, m) if integer else rng.uniform(0, 3, m)
    base[::5] = 0
    w = (base + p[u] - p[v]).astype(np.int64 if integer else np.float64)
    order = np.argsort(u, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(u, minlength=n))])
    m = sp.csr_matrix((w[order], v[order], indptr), shape=(n, n))
    return parallel_csr(m) if integer else m


def parallel_csr(matrix):
    """The same arcs as a canonical CSR whose parallel arcs keep the lightest (scipy's Floyd-Warshall
    reads a dense matrix, where duplicates would be summed)."""
    a = matrix.tocoo()
    order = np.lexsort((a.data, a.col, a.row))
    r, c, d = a.row[order], a.col[order], a.data[order]
    first = np.ones(len(r), dtype=bool)
    first[1:] = (r[1:] != r[:-1]) | (c[1:] != c[:-1])
    return sp.csr_matrix((d[first], (r[first], c[first])), shape=a.shape)


def assert_close(ours, theirs, integer, rtol=1e-15):
    """conftest's checks (dtype, shape, unreachable vertices, integers identical), and real
    distances within rtol of scipy's (relative to the largest, for those near zero)."""
    assert_same_distances(ours, theirs, integer, rtol=1.0)  # the structure; the values below
    finite = np.isfinite(theirs)
    scale = np.abs(theirs[finite]).max(initial=1.0)
    np.testing.assert_allclose(ours[finite], theirs[finite], rtol=rtol, atol=rtol * scale)


def assert_tree(matrix, sources, dist, pred):
    """Every reached vertex but its source has a parent, an in-neighbour whose distance plus the
    arc is its own."""
    a = matrix.tocoo()
    for row, s in enumerate(np.atleast_1d(sources)):
        d, p = dist[row], pred[row]
        assert p[s] == -9999 and np.all(p[np.isinf(d)] == -9999)
        for v in np.flatnonzero(np.isfinite(d)):
            if v == s:
                continue
            u = p[v]
            arcs = a.data[(a.row == u) & (a.col == v)]
            assert arcs.size and np.isclose(d[u] + arcs.min(), d[v], rtol=1e-12, atol=1e-12), (s, v, u)


@pytest.mark.parametrize("integer", [True, False], ids=["int64", "float64"])
@pytest.mark.parametrize("seed", range(6))
def test_methods_match_scipy(seed, integer):
    n = [1, 2, 7, 30, 60, 120][seed]
    m = negative_graph(n, 3 * n, seed, integer)
    for method in ("BF", "J"):  # the same method: the same float operations
        assert_close(dcg.shortest_path(m, method=method), scg.shortest_path(m, method=method), integer)
    reference = scg.johnson(m)
    for method in METHODS:  # auto and FW may run Floyd-Warshall in scipy: other roundings
        assert_close(dcg.shortest_path(m, method=method), reference, integer, rtol=1e-12)
    assert_close(dcg.bellman_ford(m), scg.bellman_ford(m), integer)
    assert_close(dcg.johnson(m, indices=[0, n - 1]), scg.johnson(m, indices=[0, n - 1]), integer)
    dist, pred = dcg.shortest_path(m, method="J", return_predecessors=True)
    assert_tree(m, np.arange(n), dist, pred)
    dist, pred = dcg.bellman_ford(m, indices=[n - 1], return_predecessors=True)
    assert_tree(m, [n - 1], dist, pred)


def test_dijkstra_warns_as_scipy_and_answers_exactly():
    m = negative_graph(40, 120, 3, integer=True)
    with pytest.warns(UserWarning, match=WARNING):
        ours = dcg.dijkstra(m, indices=[0, 5])
    assert_close(ours, scg.johnson(m, indices=[0, 5]), integer=True)
    with pytest.warns(UserWarning, match=WARNING):
        ours = dcg.shortest_path(m, method="D")
    assert_close(ours, scg.johnson(m), integer=True)
    # scipy's label-setting dijkstra settles vertex 1 before the negative arc 2 -> 1 lowers it
    g = sp.csr_matrix(np.array([[0, 1, 3], [0, 0, 0], [0, -3, 0]], dtype=float))
    with pytest.warns(UserWarning, match=WARNING):
        assert dcg.dijkstra(g, indices=0).tolist() == [0, 0, 3]


def test_dijkstra_limit_and_min_only():
    m = negative_graph(50, 150, 4, integer=True)
    full = scg.johnson(m)
    with pytest.warns(UserWarning, match=WARNING):
        limited = dcg.dijkstra(m, limit=10)
    assert_close(limited, np.where(full > 10, np.inf, full), integer=True)
    indices = [3, 17, 40]
    with pytest.warns(UserWarning, match=WARNING):
        dist, pred, sources = dcg.dijkstra(m, indices=indices, min_only=True, return_predecessors=True)
    assert_close(dist, full[indices].min(axis=0), integer=True)
    reached = np.isfinite(dist)
    assert np.all(np.isin(sources[reached], indices)) and np.all(sources[~reached] == -9999)
    assert np.all(full[sources[reached], np.flatnonzero(reached)] == dist[reached])
    for v in np.flatnonzero(reached):  # every parent chain ends at the vertex's own source
        u = v
        while pred[u] != -9999:
            u = pred[u]
            assert sources[u] == sources[v]
        assert u == sources[v]
    with pytest.warns(UserWarning, match=WARNING):
        assert_close(dcg.dijkstra(m, indices=indices, min_only=True), dist, integer=True)


@pytest.mark.parametrize("method", METHODS + ("D",))
@pytest.mark.parametrize("directed", [True, False])
def test_negative_cycle_raises_scipys_error(method, directed):
    g = np.ones((5, 5))
    g.flat[::6] = 0
    g[1, 2] = -2 if directed else -0.5  # directed: 1 -> 2 -> 1 weighs -1; undirected: any negative edge
    if directed:
        g[2, 1] = 1
    with pytest.warns(UserWarning, match=WARNING) if method == "D" else contextlib.nullcontext():
        with pytest.raises(scg.NegativeCycleError, match="node [12]"):
            dcg.shortest_path(g, method=method, directed=directed)
    with pytest.raises(scg.NegativeCycleError):
        scg.shortest_path(g, method=method if method != "D" else "J", directed=directed)


def test_floyd_warshall_ignores_self_loops_as_scipys():
    # scipy's Floyd-Warshall sets d(v, v) = 0 first: a negative self-loop is no cycle there
    g = sp.csr_matrix(np.array([[-1.0, 2, -1], [0, 0, 0], [0, 3, -4]]))
    for method in ("FW", "auto"):  # auto: 5 arcs >= 9 / 4, scipy picks Floyd-Warshall
        assert_close(dcg.shortest_path(g, method=method), scg.shortest_path(g, method=method), integer=True)
    for method in ("J", "BF"):
        with pytest.raises(scg.NegativeCycleError, match="node [02]"):
            dcg.shortest_path(g, method=method)
    with pytest.raises(scg.NegativeCycleError):
        dcg.shortest_path(g, indices=[1])  # auto with indices: Johnson, as scipy


def test_bellman_ford_answers_from_indices_that_reach_no_cycle():
    # 0 -> 1 only; the cycle 2 <-> 3 is reached from 2 and 3, never from 0 or 1
    g = sp.csr_matrix(([4.0, -3.0, 1.0], ([0, 2, 3], [1, 3, 2])), shape=(4, 4))
    assert_close(dcg.bellman_ford(g, indices=[0, 1]), scg.bellman_ford(g, indices=[0, 1]), integer=True)
    with pytest.raises(scg.NegativeCycleError, match="node [23]"):
        dcg.bellman_ford(g, indices=2)
    with pytest.raises(scg.NegativeCycleError, match="node [23]"):
        dcg.johnson(g, indices=0)  # the potentials see every cycle, as scipy's johnson does


def test_fw_with_indices_raises_as_scipy():
    m = negative_graph(5, 10, 1, integer=True)
    for graph in (m, abs(m)):
        with pytest.raises(ValueError, match="Cannot specify indices with method == 'FW'"):
            dcg.shortest_path(graph, method="FW", indices=[0])
        with pytest.raises(ValueError, match="Cannot specify indices with method == 'FW'"):
            scg.shortest_path(graph, method="FW", indices=[0])


def test_shapes_inputs_and_edge_cases():
    m = negative_graph(20, 60, 2, integer=False)
    for indices in (3, [1, 2], [[0, 1], [2, 3]]):
        assert_close(dcg.johnson(m, indices=indices), scg.johnson(m, indices=indices), integer=False)
    dense = parallel_csr(m).toarray()
    assert_close(dcg.shortest_path(dense, method="J"), scg.shortest_path(dense, method="J"), integer=False)
    masked = np.ma.masked_equal(dense, 0)
    assert_close(dcg.shortest_path(masked, method="BF"), scg.shortest_path(masked, method="BF"), integer=False)
    for fmt in ("csc", "coo", "lil"):
        assert_close(dcg.johnson(m.asformat(fmt)), scg.johnson(m.asformat(fmt)), integer=False)
    # unweighted: every weight counts 1, so nothing is negative (the delta-stepping path)
    assert_close(dcg.shortest_path(m, method="BF", unweighted=True), scg.shortest_path(m, unweighted=True), True)
    # one vertex: a negative self-loop is a negative cycle; no vertices: nothing to do
    with pytest.raises(scg.NegativeCycleError):
        dcg.bellman_ford(sp.csr_matrix(np.array([[-1.0]])))
    assert dcg.johnson(sp.csr_matrix((0, 0))).shape == (0, 0)
    # explicit zeros are zero-weight arcs; unreachable vertices read inf
    z = sp.csr_matrix(([0.0, -2.0, 5.0], ([0, 1, 3], [1, 2, 3])), shape=(4, 4))
    assert_close(dcg.johnson(z), scg.johnson(z), integer=False)
    assert dcg.bellman_ford(z, indices=0).tolist() == [0, 0, -2, np.inf]
    # read-only buffers
    ro = m.copy()
    ro.data.flags.writeable = False
    assert_close(dcg.johnson(ro), scg.johnson(m), integer=False)


def test_integer_weights_stay_exact_past_float32():
    # distances past 2^32 and 2^24 (float32's exact range), below 2^53: identical to scipy
    big = 2**40 + 3
    g = sp.csr_matrix((np.array([big, -5, big], dtype=np.int64), ([0, 1, 2], [1, 2, 3])), shape=(4, 4))
    ours = dcg.johnson(g)
    assert ours[0, 3] == float(2 * big - 5)
    assert_close(ours, scg.johnson(g), integer=True)
    assert_close(dcg.bellman_ford(g), scg.bellman_ford(g), integer=True)


def test_int64_overflow_is_an_error():
    g = sp.csr_matrix((np.array([2**62, 2**62, -1], dtype=np.int64), ([0, 1, 2], [1, 2, 0])), shape=(3, 3))
    with pytest.raises(OverflowError):
        dcg.bellman_ford(g, indices=0)
