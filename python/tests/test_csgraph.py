"""deltasplit.csgraph against scipy.sparse.csgraph: every bundled dataset on every path a strategy
takes, the conventions on hand-made graphs, shortest-path trees and bad inputs."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

import deltasplit
from deltasplit import csgraph as dcg

from conftest import CUPY, DATASETS, assert_same_distances, cutoff_in_a_gap, to_host, to_lib

STRATEGIES = deltasplit.STRATEGIES


def arcs_of(matrix, directed=True, unweighted=False):
    """(rows, cols, weights) of the arcs the solver sees: both directions when undirected."""
    a = matrix.tocoo()
    rows, cols, vals = a.row, a.col, (np.ones_like(a.data) if unweighted else a.data)
    if not directed:
        rows, cols, vals = np.concatenate([rows, cols]), np.concatenate([cols, rows]), np.concatenate([vals, vals])
    return rows, cols, vals


def assert_tree(arcs, n, source, dist, pred):
    """pred is a shortest-path tree of dist: every reached vertex but the source has a parent
    whose distance plus the lightest arc parent -> v is v's distance, and every chain of parents
    ends at the source."""
    dist, pred = to_host(dist), to_host(pred)
    assert pred.dtype == np.int32
    assert pred[source] == -9999
    assert np.all(pred[np.isinf(dist)] == -9999)
    rows, cols, vals = arcs
    key = rows.astype(np.int64) * n + cols
    order = np.lexsort((vals, key))
    keys, first = np.unique(key[order], return_index=True)
    lightest = vals[order][first]
    reached = np.flatnonzero(np.isfinite(dist))
    v = reached[reached != source]
    u = pred[v].astype(np.int64)
    assert np.all(u >= 0), "a reached vertex has no parent"
    q = u * n + v
    at = np.minimum(np.searchsorted(keys, q), max(len(keys) - 1, 0))
    assert len(v) == 0 or np.all(keys[at] == q), "a parent is not an in-neighbour"
    assert np.allclose(dist[u] + lightest[at] if len(v) else dist[v], dist[v], rtol=1e-5, atol=0), "a parent arc is not tight"
    root = np.where(pred == -9999, np.arange(n), pred).astype(np.int64)
    for _ in range(max(n, 1).bit_length() + 1):  # pointer jumping: every chain ends at a root
        root = root[root]
    assert np.all(root[reached] == source)


@pytest.fixture(scope="module", params=DATASETS, ids=lambda p: p.name)
def dataset(request):
    g = deltasplit.Graph.from_file(request.param)
    offsets, targets, weights = g.arrays()
    n = g.num_vertices
    matrix = sp.csr_matrix((weights.astype(np.float64), targets.astype(np.int64), offsets.astype(np.int64)), shape=(n, n))
    sources = np.unique(np.array([0, n // 3, n - 1]))
    reference = scg.dijkstra(matrix, indices=sources)
    return matrix, sources, reference, g.weight_kind == "integer"


# The paths several indices without predecessors take, once each per array library. Host inputs go
# to the batched many-source solver (Graph.distance_matrix), which the strategy sends to one of
# three paths only: a GPU strategy to the GPU batches (or, without a GPU, the CPU rows), 'cpu' and
# 'dijkstra' to the CPU rows, 'phast' to PHAST, which test_distance_matrix.py checks on every
# dataset; every GPU strategy runs the same batches. Device inputs take one solve per index by the
# strategy itself, so each GPU strategy is a path of its own there, and phast is refused (it
# contracts on the host).
BATCHED_PATHS = [("numpy", s) for s in ("multisplit", "dijkstra")] + (
    [("cupy", s) for s in deltasplit.GPU_STRATEGIES] + [("cupy", "phast")] if CUPY else [])


@pytest.mark.parametrize("xp_name, strategy", BATCHED_PATHS, ids=lambda p: p)
def test_every_dataset_matches_scipy(dataset, xp_name, strategy):
    matrix, sources, reference, integer = dataset
    if xp_name == "numpy" and strategy == "phast" and not integer:  # csgraph answers float64; phast: 32-bit
        with pytest.raises(ValueError, match="float32"):
            dcg.dijkstra(to_lib(matrix, xp_name), indices=sources, strategy=strategy)
        return
    if xp_name == "cupy" and strategy == "phast":
        # A device graph (32-bit distances) cannot be contracted; a cupy input whose distances need
        # 64 bits is solved from host arrays, where phast takes integers (uint64 too).
        try:
            dist = dcg.dijkstra(to_lib(matrix, xp_name), indices=sources, strategy=strategy)
        except ValueError as e:
            assert "contracts the graph on the host" in str(e) or "computes uint32, uint64 and float32" in str(e), str(e)
            return
        assert_same_distances(dist, reference, integer)
        return
    dist = dcg.dijkstra(to_lib(matrix, xp_name), indices=sources, strategy=strategy)
    assert_same_distances(dist, reference, integer)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_predecessors_form_shortest_path_trees(dataset, strategy, xp_name):
    matrix, sources, reference, integer = dataset
    if xp_name == "cupy" and strategy in ("cpu", "dijkstra", "phast"):
        pytest.skip("device inputs run the delta-stepping GPU strategies (phast's refusal: the test above)")
    if strategy == "phast" and not integer:
        pytest.skip("phast computes float32, csgraph answers float64 (the refusal: the test above)")
    if strategy in deltasplit.GPU_STRATEGIES and strategy not in ("multisplit", "phast") and \
            not deltasplit.gpu_available():
        pytest.skip("without a GPU every GPU strategy is CPU delta-stepping: multisplit checks it")
    if strategy == "phast" and matrix.nnz > 400_000:
        # The tree is drawn from the distances by the code every strategy shares; phast's
        # distances on every dataset are test_distance_matrix.py's, with one contraction each.
        pytest.skip("phast's trees on the smallest integer dataset only (a contraction per call here)")
    if matrix.shape[0] > 300000:
        sources = sources[:1]
        reference = reference[:1]
    dist, pred = dcg.dijkstra(to_lib(matrix, xp_name), indices=sources, return_predecessors=True, strategy=strategy)
    # With predecessors every index is one solve by this strategy (several indices without them go
    # to the batched many-source solver, which has no strategies): its distances are checked here.
    assert_same_distances(dist, reference, integer)
    arcs = arcs_of(matrix)
    for row, s in enumerate(sources):
        assert_tree(arcs, matrix.shape[0], s, to_host(dist)[row], to_host(pred)[row])


# -- scipy's conventions on small graphs ------------------------------------------------------

def small():
    # 0 -> 1 (2), 0 -> 2 (5), 1 -> 2 (1), 2 -> 3 (0, explicit zero), 1 -> 1 self-loop, 4 isolated
    rows = [0, 0, 1, 2, 1]
    cols = [1, 2, 2, 3, 1]
    vals = [2.0, 5.0, 1.0, 0.0, 7.0]
    return sp.csr_matrix((vals, (rows, cols)), shape=(5, 5))


def real_small():
    m = small().astype(np.float64)
    m.data = m.data * 0.37 + 0.011
    m.data[3] = 0.0
    return m


GRAPHS = {"integer": small, "real": real_small}


@pytest.mark.parametrize("kind", GRAPHS)
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("unweighted", [False, True])
@pytest.mark.parametrize("strategy", ["multisplit", "near-far", "cpu", "dijkstra"])
def test_conventions_match_scipy(kind, directed, unweighted, strategy, xp_name):
    if xp_name == "cupy" and strategy in ("cpu", "dijkstra"):
        pytest.skip("device inputs run the GPU strategies")
    m = GRAPHS[kind]()
    ours = dcg.dijkstra(to_lib(m, xp_name), directed=directed, unweighted=unweighted, return_predecessors=True,
                        strategy=strategy)
    theirs = scg.dijkstra(m, directed=directed, unweighted=unweighted, return_predecessors=True)
    assert_same_distances(ours[0], theirs[0], kind == "integer" or unweighted)
    assert to_host(ours[0]).shape == (5, 5) and to_host(ours[1]).shape == (5, 5)
    arcs = arcs_of(m, directed, unweighted)
    for s in range(5):
        assert_tree(arcs, 5, s, to_host(ours[0])[s], to_host(ours[1])[s])


@pytest.mark.parametrize("indices", [None, 2, -1, [0, 3], [[0], [4]], np.array([1, 1, 0])])
def test_indices_shape(indices, xp_name):
    m = small()
    ours = dcg.dijkstra(to_lib(m, xp_name), indices=indices, return_predecessors=True)
    theirs = scg.dijkstra(m, indices=indices, return_predecessors=True)
    assert to_host(ours[0]).shape == theirs[0].shape
    assert to_host(ours[1]).shape == theirs[1].shape
    assert_same_distances(ours[0], theirs[0], True)
    assert np.array_equal(to_host(ours[1]) == -9999, theirs[1] == -9999)


@pytest.mark.parametrize("limit", [0, 2, 2.5, 3, 100])
def test_limit(limit, xp_name):
    m = small()
    ours = dcg.dijkstra(to_lib(m, xp_name), limit=limit, return_predecessors=True)
    theirs = scg.dijkstra(m, limit=limit, return_predecessors=True)
    assert_same_distances(ours[0], theirs[0], True)
    assert np.array_equal(to_host(ours[1]) == -9999, theirs[1] == -9999)


def test_limit_on_a_dataset(dataset, xp_name):
    matrix, sources, reference, integer = dataset
    limit = cutoff_in_a_gap(reference)
    ours = dcg.dijkstra(to_lib(matrix, xp_name), indices=sources, limit=limit)
    expected = np.where(reference > limit, np.inf, reference)
    assert_same_distances(ours, expected, integer)


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("indices", [[0], [1, 3], [4, 0, 0]])
def test_min_only(directed, indices, xp_name):
    m = small()
    ours = dcg.dijkstra(to_lib(m, xp_name), directed=directed, indices=indices, min_only=True,
                        return_predecessors=True)
    theirs = scg.dijkstra(m, directed=directed, indices=indices, min_only=True, return_predecessors=True)
    assert_same_distances(ours[0], theirs[0], True)
    assert to_host(ours[0]).shape == (5,)
    d, p, s = (to_host(x) for x in ours)
    assert p.dtype == np.int32 and s.dtype == np.int32
    assert np.array_equal(s == -9999, theirs[2] == -9999)
    for v in range(5):  # each vertex's source is an index at its distance, reached through p
        if np.isfinite(d[v]):
            assert s[v] in indices
            u = v
            while p[u] != -9999:
                u = p[u]
            assert u == s[v]
    alone = dcg.dijkstra(to_lib(m, xp_name), directed=directed, indices=indices, min_only=True)
    assert np.array_equal(to_host(alone), d)


@pytest.mark.parametrize("min_only", [False, True])
def test_whole_number_weights_past_float32s_integers_are_exact(min_only, xp_name):
    """Whole-number float64 weights whose paths pass 2**24 (float32's last exact integer) but not
    2**32 - 2: solved in uint32 (a device input on the device) and answered as scipy's float64,
    exactly, with and without min_only's added source."""
    big = 2**24 + 3
    m = sp.csr_matrix((np.array([big, big, 1.0, big, 7.0]), ([0, 1, 2, 3, 0], [1, 2, 3, 4, 4])), shape=(6, 6))
    theirs = scg.dijkstra(m, indices=[0, 1], min_only=min_only)
    ours = to_host(dcg.dijkstra(to_lib(m, xp_name), indices=[0, 1], min_only=min_only))
    assert ours.dtype == np.float64
    np.testing.assert_array_equal(ours, theirs)


def test_duplicates_take_the_minimum_and_explicit_zeros_are_edges():
    indptr = np.array([0, 3, 3, 3])
    indices = np.array([1, 1, 2])
    data = np.array([4.0, 1.5, 0.0])  # two entries 0 -> 1, explicit zero 0 -> 2
    m = sp.csr_matrix((data, indices, indptr), shape=(3, 3))
    assert m.nnz == 3
    ours = dcg.dijkstra(m, indices=0)
    assert np.array_equal(ours, scg.dijkstra(m, indices=0))
    assert list(ours) == [0.0, 1.5, 0.0]


def test_dense_input_treats_zero_inf_nan_as_no_edge():
    d = np.array([[0, 3, np.inf], [np.nan, 0, 1], [2, 0, 0]], dtype=float)
    assert np.array_equal(dcg.dijkstra(d), scg.dijkstra(d))


def test_shortest_path_methods():
    m = small()
    for method in ("auto", "D", "FW", "BF", "J"):
        assert np.array_equal(dcg.shortest_path(m, method=method), scg.shortest_path(m, method=method))
    with pytest.raises(ValueError):
        dcg.shortest_path(m, method="X")


def test_empty_and_single_vertex():
    assert dcg.dijkstra(sp.csr_matrix((1, 1))).tolist() == [[0.0]]
    assert dcg.dijkstra(sp.csr_matrix((0, 0))).shape == (0, 0)


# -- bad inputs ---------------------------------------------------------------------------------

def test_non_square_raises():
    with pytest.raises(ValueError, match="square"):
        dcg.dijkstra(sp.csr_matrix((2, 3)))


def test_graph_refuses_negative_weights():
    # delta-stepping needs weights >= 0; csgraph solves negative ones apart (test_negative.py)
    m = sp.csr_matrix(np.array([[0, -1.0], [0, 0]]))
    with pytest.raises(ValueError, match="negative"):
        deltasplit.Graph.from_scipy(m)


def test_nan_weights_raise():
    m = sp.csr_matrix((np.array([np.nan]), np.array([1]), np.array([0, 1, 1])), shape=(2, 2))
    with pytest.raises(ValueError, match="finite"):
        dcg.dijkstra(m)


def test_wrong_dtypes_raise():
    with pytest.raises(TypeError):
        dcg.dijkstra(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(TypeError):
        dcg.dijkstra(small(), indices=[0.5])


@pytest.mark.parametrize("bad", [5, -6, [0, 7]])
def test_out_of_range_indices_raise(bad):
    with pytest.raises(ValueError, match="out of range"):
        dcg.dijkstra(small(), indices=bad)


def test_negative_limit_raises():
    with pytest.raises(ValueError, match="limit"):
        dcg.dijkstra(small(), limit=-1)


def test_unknown_strategy_and_device_raise():
    with pytest.raises(ValueError, match="strategy"):
        dcg.dijkstra(small(), strategy="fast")
    with pytest.raises(ValueError, match="device"):
        dcg.dijkstra(small(), device="tpu")
