"""deltasplit.Graph, the native API: every way in, results in place, statistics, cutoff, errors
carrying the C++ message."""
import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

import deltasplit
from deltasplit import Graph

from conftest import DATASETS, to_host


def test_gpu_status_is_reported():
    assert isinstance(deltasplit.gpu_available(), bool)
    assert deltasplit.gpu_available() or deltasplit.gpu_reason()


def example():
    rows = np.array([0, 0, 1, 2, 3, 3])
    cols = np.array([1, 2, 3, 3, 4, 4])
    w = np.array([4, 1, 1, 5, 2, 9])  # 3 -> 4 twice (2 and 9)
    return rows, cols, w


def test_from_edges_cleans_and_counts_like_the_readers():
    rows, cols, w = example()
    rows, cols, w = np.append(rows, 2), np.append(cols, 2), np.append(w, 3)  # and a self-loop
    g = Graph.from_edges(rows, cols, w, 5)
    assert g.num_vertices == 5 and g.num_arcs == 5
    assert g.origin["self_loops_dropped"] == 1 and g.origin["duplicates_merged"] == 1
    offsets, targets, weights = g.arrays()
    assert offsets.tolist() == [0, 2, 3, 4, 5, 5]
    assert targets.tolist() == [1, 2, 3, 3, 4]
    assert weights.tolist() == [4, 1, 1, 5, 2]


def test_from_arrays_matches_from_edges_with_unsorted_rows():
    offsets = np.array([0, 3, 3, 4])
    targets = np.array([2, 1, 2])
    targets = np.array([2, 1, 1, 0])
    weights = np.array([5.5, 2.0, 1.0, 0.5])
    g = Graph.from_arrays(offsets, targets, weights)
    o, t, w = g.arrays()
    assert o.tolist() == [0, 2, 2, 3] and t.tolist() == [1, 2, 0] and g.origin["duplicates_merged"] == 1
    assert g.weight_kind == "real" and w.tolist() == [1.0, 5.5, 0.5]


def test_integral_weights_give_exact_integer_distances():
    rows, cols, w = example()
    g = Graph.from_edges(rows, cols, w, 5)
    assert g.weight_kind == "integer"
    r = g.sssp(0, strategy="dijkstra")
    assert r.distances.dtype == np.uint32 and r.distances.tolist() == [0, 4, 1, 5, 7]
    assert r.predecessors is None
    assert isinstance(r.stats, dict) and r.stats["strategy"] == "dijkstra"


@pytest.mark.parametrize("strategy", deltasplit.STRATEGIES)
def test_every_strategy_with_predecessors_and_cutoff(strategy):
    rows, cols, w = example()
    g = Graph.from_edges(rows, cols, w, 5)
    r = g.sssp(0, strategy=strategy, predecessors=True)
    assert r.distances.tolist() == [0, 4, 1, 5, 7]
    assert r.predecessors.tolist() == [Graph.NO_VERTEX, 0, 0, 1, 3]
    assert set(r.stats) >= {"strategy", "device", "milliseconds", "iterations", "edges_relaxed", "delta"}
    c = g.sssp(0, strategy=strategy, predecessors=True, cutoff=4.5)
    inf = Graph.INT_INFINITY
    assert c.distances.tolist() == [0, 4, 1, inf, inf]
    assert c.predecessors.tolist() == [Graph.NO_VERTEX, 0, 0, Graph.NO_VERTEX, Graph.NO_VERTEX]


def test_results_land_in_the_callers_buffers():
    rows, cols, w = example()
    g = Graph.from_edges(rows, cols, w, 5)
    dist = np.full(5, 7, dtype=np.uint32)
    pred = np.zeros(5, dtype=np.uint32)
    r = g.sssp(1, predecessors=True, out=(dist, pred))
    assert r.distances is dist and r.predecessors is pred
    assert dist.tolist() == [Graph.INT_INFINITY, 0, Graph.INT_INFINITY, 1, 3]
    with pytest.raises(ValueError, match="distances are uint32"):
        g.sssp(1, out=(np.zeros(5, dtype=np.float32), None))
    with pytest.raises(ValueError, match="one entry per vertex"):
        g.sssp(1, out=(np.zeros(4, dtype=np.uint32), None))


def test_from_scipy_and_networkx_agree_with_scipy():
    rng = np.random.default_rng(3)
    m = sp.random(60, 60, density=0.08, random_state=4, format="csr")
    m.data = np.round(m.data * 100)
    expected = scg.dijkstra(m, indices=5)
    g = Graph.from_scipy(m)
    d = g.sssp(5).distances.astype(float)
    d[d == Graph.INT_INFINITY] = np.inf
    assert np.array_equal(d, expected)
    G = nx.DiGraph()
    G.add_nodes_from(range(60))
    coo = m.tocoo()
    G.add_weighted_edges_from(zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()))
    gx = Graph.from_networkx(G)
    dx = gx.sssp(5).distances.astype(float)
    dx[dx == Graph.INT_INFINITY] = np.inf
    assert np.array_equal(dx, expected)
    assert rng is not None


@pytest.mark.parametrize("path", DATASETS[:2], ids=lambda p: p.name)
def test_from_file_reads_through_the_project_readers(path):
    g = Graph.from_file(path)
    assert g.num_vertices > 0 and g.origin["format"] in ("matrix-market", "dimacs")
    r = g.sssp(0, strategy="dijkstra")
    assert r.distances[0] == 0


def test_generators_are_the_programs_and_solve_like_scipy(tmp_path):
    g = Graph.rmat(9, 8, undirected=True, seed=3, weight_range=(1, 50))
    assert g.num_vertices == 512 and g.origin["format"] == "rmat" and g.origin["symmetric"]
    offsets, targets, weights = g.arrays()
    again = Graph.rmat(9, 8, undirected=True, seed=3, weight_range=(1, 50)).arrays()
    assert all(np.array_equal(x, y) for x, y in zip((offsets, targets, weights), again))
    assert weights.min() >= 1 and weights.max() <= 50
    m = sp.csr_matrix((weights.astype(np.float64), targets, offsets), shape=(512, 512))
    assert (m != m.T).nnz == 0  # both directions, one weight
    want = scg.dijkstra(m, indices=0)
    assert np.array_equal(deltasplit.csgraph.dijkstra(m, indices=0), want)
    got = g.sssp(0, strategy="dijkstra").distances.astype(np.float64)
    got[got == Graph.INT_INFINITY] = np.inf
    assert np.array_equal(got, want)
    grid = Graph.grid(3, 4, weight_range=(2, 2))
    assert (grid.num_vertices, grid.num_arcs) == (12, 34)  # 17 edges, both directions
    assert grid.sssp(0, strategy="dijkstra").distances[11] == 2 * (2 + 3)
    paper = Graph.rmat(6, preset="paper").arrays()
    assert not np.array_equal(paper[1], Graph.rmat(6).arrays()[1])
    assert Graph.rmat(6, preset=(0.5, 0.1, 0.1, 0.3)).arrays()[1].tolist() == paper[1].tolist()
    from deltasplit import _program
    if _program.path() is not None:  # the same graph as `deltasplit generate` writes
        path = tmp_path / "rmat.mtx"
        assert _program.run(["generate", "rmat", "--scale", 9, "--edge-factor", 8, "--undirected", "--seed", 3,
                             "--weight-range", "1:50", "-o", path]) == 0
        read = Graph.from_file(path).arrays()
        assert all(np.array_equal(x, y) for x, y in zip((offsets, targets, weights), read))


def test_pair_distances_equal_scipy(tmp_path):
    g = Graph.rmat(10, 4, seed=7, weight_range=(0, 50))  # directed: unreachable pairs, zero weights
    o, t, w = g.arrays()
    m = sp.csr_matrix((w.astype(np.float64), t, o), shape=(1024, 1024))
    rng = np.random.default_rng(3)
    src, dst = rng.integers(0, 1024, 500), rng.integers(0, 1024, 500)
    src[:3] = dst[:3]  # the same vertex
    want = scg.dijkstra(m, indices=np.unique(src))[np.searchsorted(np.unique(src), src), dst]
    got = g.pair_distances(src, dst, threads=2, hierarchy=tmp_path / "h.ch")
    assert got.dtype == np.uint32
    as_float = np.where(got == Graph.INT_INFINITY, np.inf, got.astype(np.float64))
    np.testing.assert_array_equal(as_float, want)
    assert np.isinf(want).any()
    np.testing.assert_array_equal(g.pair_distances(src, dst, threads=1, hierarchy=tmp_path / "h.ch"), got)  # loaded
    real = Graph.from_scipy(m * 0.1)
    f32 = real.pair_distances(src, dst, dtype=np.float32)
    assert f32.dtype == np.float32
    np.testing.assert_allclose(f32, want * 0.1, rtol=1e-5)
    with pytest.raises(ValueError, match="uint32, uint64 or float32"):
        real.pair_distances(src, dst)  # float64 by default: distance_matrix solves it exactly
    # Weights times 10^8: paths past 2^32 - 2, uint64 distances on a hierarchy of 64-bit weights.
    big = Graph.from_arrays(o, t, w.astype(np.uint64) * 100_000_000, num_vertices=1024)
    long = big.pair_distances(src, dst, threads=2)
    assert long.dtype == np.uint64
    reached = np.isfinite(want)
    assert np.array_equal(long[reached], want[reached].astype(np.uint64) * 100_000_000)
    assert (long[~reached] == Graph.UINT64_INFINITY).all() and long[reached].max() > 2**32
    with pytest.raises(ValueError, match="sources for"):
        g.pair_distances(src, dst[:-1])
    with pytest.raises(IndexError, match="out of range"):
        g.pair_distances([0], [1024])
    assert g.pair_distances([], []).size == 0


@pytest.mark.parametrize("call, match", [
    (lambda: Graph.rmat(4, preset="kronecker"), "preset must be"),
    (lambda: Graph.rmat(4, preset=(0.5, 0.5, 0.5, 0.5)), "sum to 1"),
    (lambda: Graph.rmat(32), "scale must lie"),
    (lambda: Graph.rmat(4, edge_factor=-1), "edge factor"),
    (lambda: Graph.rmat(4, weight_range=(5, 1)), "weight_range"),
    (lambda: Graph.grid(0, 3), "rows and cols"),
    (lambda: Graph.grid(3, 3, keep=1.5), "keep fraction"),
])
def test_generator_arguments_are_checked(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_errors_carry_the_cpp_message(tmp_path):
    rows, cols, w = example()
    g = Graph.from_edges(rows, cols, w, 5)
    with pytest.raises(IndexError, match="out of range"):
        g.sssp(5)
    with pytest.raises(TypeError):
        g.sssp(1.5)
    with pytest.raises(ValueError, match="unknown strategy"):
        g.sssp(0, strategy="bfs")
    with pytest.raises(ValueError, match="delta must be a number >= 0"):
        g.sssp(0, tune={"delta": -1})
    with pytest.raises(ValueError, match="cutoff"):
        g.sssp(0, cutoff=-2)
    with pytest.raises(ValueError, match="negative"):
        Graph.from_edges([0], [1], [-1.0], 2)
    with pytest.raises(ValueError, match="outside"):
        Graph.from_edges([0], [2], [1], 2)
    with pytest.raises(TypeError, match="integer"):
        Graph.from_arrays(np.array([0.0, 1.0]), np.array([0]), np.array([1]))
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 3 1.0\n")
    with pytest.raises(deltasplit.InputError, match="bad.mtx:3"):
        Graph.from_file(bad)
    with pytest.raises(ValueError):  # InputError is a ValueError
        Graph.from_file(bad)


def test_integer_paths_past_32_bits_are_exact_uint64():
    n = 4
    w = np.array([2**31, 2**31, 2**31])
    g = Graph.from_edges([0, 1, 2], [1, 2, 3], w, n)
    assert g.weight_kind == "integer" and g.weight_type == "uint32" and g.distance_dtype == np.uint64
    r = g.sssp(0)
    assert r.distances.dtype == np.uint64 and r.distances.tolist() == [0, 2**31, 2**32, 3 * 2**31]
    assert r.stats["distance_type"] == "uint64"
    # One Graph's solver taken by phast first, then by the delta-stepping strategies: the later
    # solves still widen (or solve again in 64 bits) into uint64.
    h = Graph.from_edges([0, 1, 2], [1, 2, 3], w, n)
    for strategy in ("phast", "near-far", "workfront", "phast"):
        assert h.sssp(0, strategy).distances.tolist() == [0, 2**31, 2**32, 3 * 2**31], strategy


def test_strategy_lists_come_from_the_library():
    # GPU_STRATEGIES: those that run on the GPU when one is usable (sssp::runs_on_gpu), listed first
    # in STRATEGIES; the CPU's strategies after them.
    gpu, every = deltasplit.GPU_STRATEGIES, deltasplit.STRATEGIES
    assert every[:len(gpu)] == gpu and len(set(every)) == len(every)
    assert "phast" in gpu and "near-far" in gpu
    assert set(every) - set(gpu) == {"cpu", "dijkstra"}


@pytest.mark.parametrize("strategy", ["cpu", "phast", "near-far"])
def test_threads_may_change_between_calls(strategy):
    # A solver fixes its threads when it is built: a call with other threads gets a new one.
    rows, cols, w = example()
    g = Graph.from_edges(rows, cols, w, 5)
    want = g.sssp(0, "dijkstra").distances
    for threads in (2, 1, 2, 0):
        np.testing.assert_array_equal(g.sssp(0, strategy, threads=threads).distances, want)


def test_device_choice():
    rows, cols, w = example()
    g = Graph.from_edges(rows, cols, w, 5)
    r = g.sssp(0, device="cpu")
    assert r.stats["strategy"] == "cpu"
    if not deltasplit.gpu_available():
        with pytest.raises(RuntimeError, match="no GPU"):
            g.sssp(0, device="gpu")
    else:
        st = g.sssp(0, device="gpu").stats
        # The manager is named where the step loop filed the work through it, else the driver.
        assert st["strategy"] == ("multisplit" if st["driver"].startswith("steps") else "")
        assert g.sssp(0, device="gpu", tune={"driver": "steps"}).stats["strategy"] == "multisplit"


@pytest.mark.skipif(not deltasplit.gpu_available(), reason="needs a GPU: " + deltasplit.gpu_reason())
@pytest.mark.parametrize("strategy", deltasplit.GPU_STRATEGIES)
def test_device_graph_results_stay_on_the_device(strategy):
    cupy = pytest.importorskip("cupy")
    rows, cols, w = example()
    m = sp.csr_matrix((w.astype(float), (rows, cols)), shape=(5, 5))  # duplicates summed by scipy: (3,4) = 11
    g = Graph.from_arrays(cupy.asarray(m.indptr), cupy.asarray(m.indices), cupy.asarray(m.data))
    assert g.on_device
    if strategy == "phast":  # the contraction runs on the host: a graph in device memory is refused
        with pytest.raises(ValueError, match="contracts the graph on the host"):
            g.sssp(0, strategy=strategy)
        return
    r = g.sssp(0, strategy=strategy, predecessors=True)
    assert isinstance(r.distances, cupy.ndarray) and isinstance(r.predecessors, cupy.ndarray)
    assert r.distances.dtype == np.float32  # float weights (whole numbers: solved as integers)
    assert r.distances.get().tolist() == [0, 4, 1, 5, 16]
    c = g.sssp(0, strategy=strategy, cutoff=5)
    assert c.distances.get().tolist() == [0, 4, 1, 5, np.inf]
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    gt = Graph.from_arrays(torch.as_tensor(m.indptr, device="cuda"), torch.as_tensor(m.indices, device="cuda"),
                           torch.as_tensor(m.data, device="cuda"))
    rt = gt.sssp(0, strategy=strategy)
    assert isinstance(rt.distances, torch.Tensor) and rt.distances.is_cuda
    assert to_host(cupy.from_dlpack(rt.distances)).tolist() == [0, 4, 1, 5, 16]


@pytest.mark.skipif(not deltasplit.gpu_available(), reason="needs a GPU: " + deltasplit.gpu_reason())
def test_device_graph_errors():
    cupy = pytest.importorskip("cupy")
    with pytest.raises(ValueError, match="negative"):
        Graph.from_arrays(cupy.asarray([0, 1, 1]), cupy.asarray([1]), cupy.asarray([-1.0]))
    g = Graph.from_arrays(cupy.asarray([0, 1, 1]), cupy.asarray([5]), cupy.asarray([1.0]))
    with pytest.raises(ValueError, match="device memory"):  # the device check's message
        g.sssp(0)


def test_tuning_is_one_mapping():
    """tune= holds what changes how fast, never which distances: every tuning gives the same
    distances; an unknown key, a bad value, or a key given twice is an error; the flat keywords of
    earlier versions still work, with a DeprecationWarning."""
    rows, cols, w = example()
    g = Graph.from_edges(rows, cols, w, num_vertices=5)
    want = g.sssp(0, device="cpu").distances
    for tune in ({}, {"delta": 3}, {"buckets": 2}, {"driver": "steps"}, {"delta": 1, "buckets": 1, "driver": "wide"}):
        assert np.array_equal(g.sssp(0, tune=tune).distances, want), tune
    assert np.array_equal(g.distance_matrix([0], tune={"batch_size": 1, "delta": 2, "driver": "block"})[0], want)
    with pytest.raises(ValueError, match="unknown tuning key 'batch_size' for sssp"):
        g.sssp(0, tune={"batch_size": 4})
    with pytest.raises(ValueError, match="unknown tuning key 'buckets' for distance_matrix"):
        g.distance_matrix([0], tune={"buckets": 4})
    with pytest.raises(ValueError, match="buckets must be a positive integer"):
        g.sssp(0, tune={"buckets": 0})
    with pytest.raises(TypeError, match="tune must be a mapping"):
        g.sssp(0, tune=[("delta", 2)])
    with pytest.raises(TypeError, match="unexpected keyword argument 'bucket'"):
        g.sssp(0, bucket=4)
    with pytest.warns(DeprecationWarning, match="tune="):
        assert np.array_equal(g.sssp(0, delta=2, driver="steps").distances, want)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="both"):
        g.sssp(0, delta=2, tune={"delta": 3})
    with pytest.raises(TypeError):
        g.sssp(0, "multisplit", 5)  # delta is no longer positional: an error, never predecessors=5


@pytest.mark.parametrize("weights", ["uint32", "uint64", "float64"])
def test_reached_within_equals_the_cut_off_rows(weights):
    """_reached_within (bounded Dijkstras, the road layer's CPU path): each source's vertices by
    id with distance_matrix's distances, for a finite cutoff; zero-weight arcs, unreachable
    vertices, duplicate sources, a cutoff of 0 and one past every distance; refusals."""
    rng = np.random.default_rng(8)
    n, m = 300, 1500
    src, dst = rng.integers(0, n - 20, m), rng.integers(0, n - 20, m)
    w = {"uint32": rng.integers(0, 40, m), "uint64": rng.integers(0, 40, m) * 2**40,
         "float64": rng.random(m) * 40}[weights]
    w[:100] = 0
    g = Graph.from_edges(src, dst, w, n)
    assert g.distance_dtype == np.dtype(weights)
    scale = 2**40 if weights == "uint64" else 1
    sources = np.array([0, 5, 5, n - 1, 17])
    for cutoff in (0.0, 25.0 * scale, 1e30):
        offsets, targets, distances = g._reached_within(sources, cutoff)
        assert offsets.dtype == np.uint64 and targets.dtype == np.uint32 and distances.dtype == g.distance_dtype
        rows = g.distance_matrix(sources, device="cpu", cutoff=cutoff)
        none = np.inf if rows.dtype.kind == "f" else np.iinfo(rows.dtype).max
        for i in range(len(sources)):
            want = np.flatnonzero(rows[i] != none)
            got = targets[offsets[i]:offsets[i + 1]]
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(distances[offsets[i]:offsets[i + 1]], rows[i][want])
    offsets, targets, distances = g._reached_within([], 5.0)
    assert offsets.tolist() == [0] and len(targets) == 0 and len(distances) == 0
    for bad in (math.inf, -1.0, math.nan):
        with pytest.raises(ValueError, match="cutoff"):
            g._reached_within([0], bad)
    with pytest.raises((ValueError, IndexError)):
        g._reached_within([n], 5.0)
