"""Exact distances in the input's own type: float64 weights give scipy's float64 distances, integer
weights (int64 too, paths past 2**32 and weights near 2**53) give identical integers, float32 only
when asked, and the Graph constructors pick the type by the rule of sssp.hpp's distance_type."""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

from deltasplit import Graph
from deltasplit import csgraph as dcg

from conftest import CUPY


def chain(weights, dtype):
    """0 -> 1 -> ... -> len(weights), plus a shortcut 0 -> last of the sum + 1."""
    n = len(weights) + 1
    rows = list(range(n - 1)) + [0]
    cols = list(range(1, n)) + [n - 1]
    vals = np.array(list(weights) + [sum(weights) + 1], dtype=dtype)
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


def test_float64_weights_give_scipys_float64_distances():
    m = chain([0.1, 0.2, 1e8, 0.001], np.float64)
    ours, theirs = dcg.dijkstra(m, indices=0), scg.dijkstra(m, indices=0)
    assert ours.dtype == np.float64
    assert ours[2] == 0.30000000000000004
    np.testing.assert_array_equal(ours, theirs)
    g = Graph.from_scipy(m)
    assert g.weight_type == "float64" and g.distance_dtype == np.float64
    r = g.sssp(0)
    assert r.distances.dtype == np.float64 and r.stats["distance_type"] == "float64"
    np.testing.assert_array_equal(r.distances, theirs)


def test_random_real_graphs_equal_scipy_to_the_last_bit():
    rng = np.random.default_rng(7)
    n = 300
    m = sp.random(n, n, density=0.02, random_state=rng, format="csr")
    m.data = rng.uniform(0, 10, m.nnz)
    sources = [0, 5, 299]
    for directed in (True, False):
        ours = dcg.dijkstra(m, directed=directed, indices=sources)
        theirs = scg.dijkstra(m, directed=directed, indices=sources)
        np.testing.assert_allclose(ours, theirs, rtol=1e-15, atol=0)
        np.testing.assert_array_equal(np.isinf(ours), np.isinf(theirs))


def test_float32_input_is_float64_solved_unless_asked():
    m = chain([0.1, 0.2, 0.3], np.float32)
    ours, theirs = dcg.dijkstra(m, indices=0), scg.dijkstra(m, indices=0)
    np.testing.assert_array_equal(ours, theirs)  # scipy widens float32 to float64, and so do we
    g = Graph.from_scipy(m)
    assert g.weight_type == "float32" and g.distance_dtype == np.float64
    single = g.sssp(0, dtype=np.float32)
    assert single.distances.dtype == np.float32 and single.stats["distance_type"] == "float32"
    assert single.distances[2] == np.float32(0.1) + np.float32(0.2)
    assert g.distance_matrix([0], dtype=np.float32).dtype == np.float32


def test_integer_paths_past_32_and_53_bits_are_identical_to_scipy():
    m = chain([4_000_000_000, 4_000_000_000, 7], np.int64)
    ours, theirs = dcg.dijkstra(m, indices=[0, 1]), scg.dijkstra(m, indices=[0, 1])
    np.testing.assert_array_equal(ours, theirs)
    assert ours[0, 3] == 8_000_000_007
    g = Graph.from_scipy(m)
    assert g.weight_type == "uint64" and g.distance_dtype == np.uint64  # the shortcut's weight passes 2**32
    assert g.sssp(0).distances.tolist() == [0, 4_000_000_000, 8_000_000_000, 8_000_000_007]
    big = 2**52 + 1  # three of them pass 2**53, where float64 sums stop being exact
    w = chain([big, big, big], np.int64)
    g = Graph.from_scipy(w)
    assert g.weight_type == "uint64"
    d = g.distance_matrix([0])
    assert d.dtype == np.uint64 and int(d[0, 3]) == 3 * big
    near = chain([2**53 - 1, 5], np.int64)  # weights up to 2**53 with sums scipy holds exactly
    np.testing.assert_array_equal(dcg.dijkstra(near, indices=0)[:2], scg.dijkstra(near, indices=0)[:2])


def test_int64_weight_2_40_plus_3_stays_exact():
    g = Graph.from_edges([0, 1], [1, 2], np.array([2**40 + 3, 2], dtype=np.int64), 3)
    assert g.weight_type == "uint64"
    r = g.sssp(0)
    assert r.distances.dtype == np.uint64 and r.distances.tolist() == [0, 2**40 + 3, 2**40 + 5]
    assert Graph.from_arrays(*g.arrays()).sssp(0).distances.tolist() == [0, 2**40 + 3, 2**40 + 5]


def test_integral_float_weights_are_solved_as_integers_and_answered_as_floats():
    m = chain([1.0, 2.0, 3.0], np.float64)
    g = Graph.from_scipy(m)
    assert g.weight_kind == "integer" and g.weight_type == "uint32" and g.distance_dtype == np.float64
    np.testing.assert_array_equal(dcg.dijkstra(m, indices=0), scg.dijkstra(m, indices=0))


@pytest.mark.parametrize("given", [np.float64, np.float32])
def test_whole_number_floats_answer_as_floats_in_every_output(given):
    """A Graph of float weights that are all whole numbers is solved in integers (exact) and
    answers as real weights do: float64 by default (float32 asked), inf for unreachable, in sssp,
    its out= buffers, distance_matrix (new, host float64 and float32 outputs) and pair_distances;
    paths past 2**32 (a uint64 solve) too. Every answer equals scipy's float64 Dijkstra."""
    big = 2**31 + 5  # three arcs: a path of 3 * big passes 2**32, solved in uint64
    rows, cols = [0, 1, 2, 0, 4], [1, 2, 3, 3, 0]
    for w in ([1, 2, 3, 9, 1], [big, big, big, 4 * big, 7]):
        m = sp.csr_matrix((np.array(w, dtype=given), (rows, cols)), shape=(6, 6))
        want = scg.dijkstra(m.astype(np.float64))
        g = Graph.from_scipy(m)
        assert g.weight_kind == "integer" and g.distance_dtype == np.float64
        for strategy in ("dijkstra", "cpu", "phast"):
            r = g.sssp(0, strategy=strategy, device="cpu", predecessors=True)
            assert r.distances.dtype == np.float64, strategy
            np.testing.assert_array_equal(r.distances, want[0])
            assert r.stats["distance_type"] in ("uint32", "uint64")  # what ran
        into = (np.full(6, -1.0), np.empty(6, dtype=np.uint32))
        r = g.sssp(4, strategy="dijkstra", out=into)
        assert r.distances is into[0]
        np.testing.assert_array_equal(into[0], want[4])
        with pytest.raises(ValueError, match="float64"):
            g.sssp(0, out=(np.empty(6, dtype=g.weight_type), None))
        single = g.sssp(0, strategy="dijkstra", dtype=np.float32).distances
        assert single.dtype == np.float32 and np.array_equal(single, want[0].astype(np.float32))
        for strategy in ("dijkstra", "phast"):
            d = g.distance_matrix(np.arange(6), strategy=strategy, device="cpu")
            assert d.dtype == np.float64
            np.testing.assert_array_equal(d, want)
        f = np.empty((6, 6), dtype=np.float32)
        assert g.distance_matrix(np.arange(6), device="cpu", dtype=np.float32, out=f) is f
        np.testing.assert_array_equal(f, want.astype(np.float32))
        pairs = g.pair_distances([0, 4, 5, 1], [3, 3, 0, 0], device="cpu")
        assert pairs.dtype == np.float64
        np.testing.assert_array_equal(pairs, want[[0, 4, 5, 1], [3, 3, 0, 0]])
    # The same weights as integers keep integer answers.
    assert Graph.from_scipy(m.astype(np.int64)).distance_dtype == np.uint64


@pytest.mark.skipif(not CUPY, reason="needs cupy and a usable GPU")
def test_whole_number_floats_answer_as_floats_on_the_device():
    """The same on the GPU: a host graph's matrix into a device array of float64 or float32, a
    device graph of whole-number float weights (answered in float32, as a device graph's real
    weights are), its sssp into a caller's device buffer."""
    import cupy
    m = sp.csr_matrix((np.array([1, 2, 3, 9, 1], dtype=np.float64), ([0, 1, 2, 0, 4], [1, 2, 3, 3, 0])), shape=(6, 6))
    want = scg.dijkstra(m)
    g = Graph.from_scipy(m)
    for dtype in (np.float64, np.float32):
        out = cupy.empty((6, 6), dtype=dtype)
        assert g.distance_matrix(np.arange(6), device="gpu", dtype=dtype, out=out) is out
        np.testing.assert_array_equal(out.get(), want.astype(dtype))
    d = Graph.from_arrays(cupy.asarray(m.indptr), cupy.asarray(m.indices), cupy.asarray(m.data))
    assert d.weight_kind == "integer" and d.distance_dtype == np.float32
    r = d.sssp(4)
    assert isinstance(r.distances, cupy.ndarray) and r.distances.dtype == np.float32
    np.testing.assert_array_equal(r.distances.get(), want[4].astype(np.float32))
    into = cupy.empty(6, dtype=cupy.float32)
    assert d.sssp(0, out=(into, None)).distances is into
    np.testing.assert_array_equal(into.get(), want[0].astype(np.float32))
    np.testing.assert_array_equal(d.distance_matrix([0, 4]).get(), want[[0, 4]].astype(np.float32))


def test_uint32_or_uint64_at_the_boundary():
    half = 2**31 - 1  # two arcs: 2**32 - 2, the largest uint32 distance
    assert Graph.from_edges([0, 1], [1, 2], [half, half], 3).distance_dtype == np.uint32
    assert Graph.from_edges([0, 1], [1, 2], [half, half + 1], 3).distance_dtype == np.uint64


def test_unreachable_is_all_ones_or_inf():
    g = Graph.from_edges([0], [1], [2**33], 3)
    d = g.sssp(0).distances
    assert d.dtype == np.uint64 and d[2] == Graph.UINT64_INFINITY == 2**64 - 1
    assert np.isinf(dcg.dijkstra(sp.csr_matrix(([2.0**33], ([0], [1])), shape=(3, 3)), indices=0)[2])


def test_networkx_float_weights_give_networkx_results():
    G = nx.gnp_random_graph(60, 0.1, seed=3, directed=True)
    rng = np.random.default_rng(4)
    for u, v in G.edges():
        G.edges[u, v]["weight"] = float(rng.uniform(0, 1))
    want = nx.single_source_dijkstra_path_length(G, 0)
    got = nx.single_source_dijkstra_path_length(G, 0, backend="deltasplit")
    assert got == want  # float64 sums, bit for bit
