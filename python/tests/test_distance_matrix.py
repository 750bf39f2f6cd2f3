"""The batched many-source path: Graph.distance_matrix (C++ many_sources.hpp through the binding),
csgraph.dijkstra with several indices, and NetworkX's all_pairs_dijkstra_path_length, against
scipy.sparse.csgraph.dijkstra; the batches the C++ side reports; device outputs on the GPU."""
import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

import deltasplit
from deltasplit import Graph
from deltasplit import csgraph as dcg

import conftest
from conftest import CUPY, DATASETS, cutoff_in_a_gap, to_host, to_lib

GPU = deltasplit.gpu_available()


def as_float64(d):
    """A distance matrix of the graph's type in scipy's convention (float64, inf unreachable)."""
    d = to_host(d)
    out = d.astype(np.float64)
    if d.dtype.kind == "u":
        out[d == np.iinfo(d.dtype).max] = np.inf
    return out


def assert_same_distances(ours, theirs, integer, rtol=1e-15):
    conftest.assert_same_distances(as_float64(ours), theirs, integer, rtol)


def load(path):
    g = Graph.from_file(path)
    offsets, targets, weights = g.arrays()
    n = g.num_vertices
    matrix = sp.csr_matrix((weights.astype(np.float64), targets.astype(np.int64), offsets.astype(np.int64)),
                           shape=(n, n))
    return g, matrix


def sources_for(matrix, count, seed=7):
    """count sources: the first, a middle one twice (a duplicate), the last, a vertex with no
    out-arcs where there is one, and the rest drawn at random (with repeats)."""
    n = matrix.shape[0]
    picked = [0, n // 3, n // 3, n - 1]
    sinks = np.flatnonzero(np.diff(matrix.indptr) == 0)
    if sinks.size:
        picked.append(int(sinks[0]))
    rng = np.random.default_rng(seed)
    picked += rng.integers(0, n, max(count - len(picked), 0)).tolist()
    return np.array(picked[:count], dtype=np.int64)


@pytest.fixture(scope="module", params=DATASETS, ids=lambda p: p.name)
def dataset(request):
    g, matrix = load(request.param)
    sources = sources_for(matrix, 5)
    return g, matrix, sources, scg.dijkstra(matrix, indices=sources), g.weight_kind == "integer"


@pytest.mark.parametrize("batch_size", [None, 2, 5])
def test_distance_matrix_equals_scipy_on_every_dataset(dataset, batch_size):
    g, matrix, sources, reference, integer = dataset
    d, stats = g.distance_matrix(sources, return_stats=True, tune={"batch_size": batch_size})
    assert d.dtype == g.distance_dtype and d.shape == (len(sources), matrix.shape[0])
    assert d.dtype == (np.uint32 if integer else np.float64)
    assert_same_distances(d, reference, integer)
    # float64 distances (real weights) run on the GPU too
    assert stats["batched"] and stats["on_gpu"] == GPU
    assert stats["batches"] == math.ceil(len(sources) / stats["batch_size"])


# PHAST's Python path (batches, outputs, the hierarchy file) runs on the road network it is for and
# the small datasets; the other contractions (road-FLA, the social and citation graphs: seconds
# each on two cores) are the C++ tests' (ContractionHierarchyDatasets, contraction_hierarchy_test.cpp).
PHAST_DATASETS = {"USA-road-d.NY.gr.gz", "email-Enron.mtx.gz", "chicago-regional.mtx.gz", "chesapeake.mtx"}


def skip_large_contractions(request):
    if request.node.callspec.params["dataset"].name not in PHAST_DATASETS:
        pytest.skip("this dataset's contraction is tested in C++ (ContractionHierarchyDatasets)")


def test_phast_distance_matrix_equals_scipy_on_every_dataset(dataset, hierarchy_file, request):
    """strategy='phast': the contraction hierarchy's batches (GPU) or CPU sweeps, same answers; one
    contraction per dataset (conftest's hierarchy_file, shared by the file's tests), which sssp loads."""
    skip_large_contractions(request)
    g, matrix, sources, reference, integer = dataset
    d, stats = g.distance_matrix(sources, strategy="phast", hierarchy=hierarchy_file(g), return_stats=True,
                                 dtype=np.float32, tune={"batch_size": 2})
    assert d.dtype == (np.uint32 if integer else np.float32)  # phast: 32-bit distances in this version
    assert_same_distances(d, reference, integer, rtol=1e-5)
    assert stats["batched"] and stats["on_gpu"] == GPU and stats["setup_ms"] > 0
    one = g.sssp(int(sources[0]), strategy="phast", hierarchy=hierarchy_file(g), dtype=np.float32)
    assert one.stats["setup"] == "loaded"
    assert one.stats["strategy"] == "phast"
    assert_same_distances(one.distances[None, :], reference[:1], integer, rtol=1e-5)
    if not integer:
        with pytest.raises(ValueError, match="float32"):  # float64 distances: not phast's in this version
            g.sssp(int(sources[0]), strategy="phast")


@pytest.mark.parametrize("strategy", ["multisplit", "dijkstra", "phast"])
def test_cutoff_equals_scipys_limit_on_every_dataset(dataset, strategy, hierarchy_file, request):
    """distance_matrix(cutoff=...) equals scipy's limit through each batched path: GPU batches
    (multisplit, where a GPU is usable; else CPU rows), CPU Dijkstra rows, PHAST. Cutoffs 0, in a
    gap between two distances and past every distance, each on the solver the first call built: a
    new cutoff rebuilds nothing (phast's setup_ms, the hierarchy's build, stays that of the first)."""
    if strategy == "phast":
        skip_large_contractions(request)
    if strategy == "multisplit" and not GPU:
        pytest.skip("without a GPU the multisplit batches are the CPU rows that dijkstra checks")
    g, matrix, sources, reference, integer = dataset
    cutoffs = [0.0, cutoff_in_a_gap(reference), 2 * float(reference[np.isfinite(reference)].max()) + 1]
    setups = []
    single = strategy == "phast"  # phast computes 32-bit distances in this version
    for cutoff in cutoffs:
        d, stats = g.distance_matrix(sources, strategy=strategy, cutoff=cutoff, return_stats=True,
                                     hierarchy=hierarchy_file(g) if strategy == "phast" else None,
                                     dtype=np.float32 if single else None, tune={"batch_size": 2})
        assert stats["batched"]
        assert_same_distances(d, np.where(reference > cutoff, np.inf, reference), integer, 1e-5 if single else 1e-15)
        setups.append(stats["setup_ms"])
    assert setups == [setups[0]] * len(cutoffs)


def test_targets_pick_columns_in_their_order(dataset):
    g, matrix, sources, reference, integer = dataset
    n = matrix.shape[0]
    targets = np.random.default_rng(3).integers(0, n, 40)
    targets[:3] = [n - 1, 0, n - 1]  # duplicates, any order
    d = g.distance_matrix(sources, targets)
    assert d.shape == (len(sources), len(targets))
    assert_same_distances(d, reference[:, targets], integer)


def test_float64_output_is_scipys_convention(dataset):
    g, matrix, sources, reference, integer = dataset
    out = np.full((len(sources), matrix.shape[0]), -1.0)
    assert g.distance_matrix(sources, out=out) is out
    assert_same_distances(out, reference, integer)  # every cell written: none is left at -1


def test_csgraph_several_indices_equal_scipy(dataset, xp_name):
    _, matrix, sources, reference, integer = dataset
    ours = dcg.dijkstra(to_lib(matrix, xp_name), indices=sources)
    assert to_host(ours).dtype == np.float64
    assert_same_distances(ours, reference, integer)


# -- batches: the C++ side reports them; sizes that do and do not divide the count ---------------

BATCH_DATASETS = [p for p in DATASETS if p.name.startswith(("chicago-regional", "email-Enron"))]


@pytest.mark.parametrize("path", BATCH_DATASETS, ids=lambda p: p.name)
@pytest.mark.parametrize("count,batch_size", [(64, 32), (70, 32), (70, 35), (70, None)])
def test_batches_cover_every_source(path, count, batch_size):
    g, matrix = load(path)
    sources = sources_for(matrix, count)
    d, stats = g.distance_matrix(sources, return_stats=True, tune={"batch_size": batch_size})
    assert_same_distances(d, scg.dijkstra(matrix, indices=sources), g.weight_kind == "integer")
    k = stats["batch_size"]
    if batch_size is not None:  # the GPU rounds a batch up to a multiple of 32
        assert k == (-(-batch_size // 32) * 32 if stats["on_gpu"] else batch_size)
    assert stats["batches"] == math.ceil(count / k) and stats["blocks"] >= stats["batches"]


def small():
    # 0 -> 1 (2), 0 -> 2 (5), 1 -> 2 (1), 2 -> 3 (0, explicit zero); 4 has no out-arcs and 5 is
    # reached by nobody
    rows, cols, vals = [0, 0, 1, 2, 5], [1, 2, 2, 3, 4], [2.0, 5.0, 1.0, 0.0, 3.0]
    return sp.csr_matrix((vals, (rows, cols)), shape=(6, 6))


@pytest.mark.parametrize("real", [False, True])
def test_small_graph_with_unreachable_vertices(real):
    m = small()
    if real:
        m.data = m.data * 0.37 + 0.011
    g = Graph.from_scipy(m)
    sources = [4, 0, 0, 5, 3]
    d = g.distance_matrix(sources, tune={"batch_size": 2})
    assert_same_distances(d, scg.dijkstra(m, indices=sources), not real)
    assert np.isinf(as_float64(d)[0, :4]).all() and as_float64(d)[0, 4] == 0  # a source with no out-arcs


def test_csgraph_runs_the_batched_path_not_one_solve_per_index(monkeypatch):
    m = small()
    calls = []
    batched = Graph.distance_matrix

    def spy(self, *args, **kwargs):
        calls.append(len(args[0]))
        return batched(self, *args, **kwargs)

    def no_single_solves(*args, **kwargs):
        raise AssertionError("a per-source solve ran")

    monkeypatch.setattr(Graph, "distance_matrix", spy)
    monkeypatch.setattr(Graph, "sssp", no_single_solves)
    indices = np.array([[0, 4], [5, 0]])
    ours = dcg.dijkstra(m, indices=indices)
    assert ours.shape == (2, 2, 6) and calls == [4]
    assert_same_distances(ours, scg.dijkstra(m, indices=indices), True)
    assert_same_distances(dcg.shortest_path(m), scg.shortest_path(m), True)
    assert calls == [4, 6]


def test_predecessors_still_solve_per_source(monkeypatch):
    m = small()
    monkeypatch.setattr(Graph, "distance_matrix", lambda *a, **k: pytest.fail("the batched path has no tree"))
    d, p = dcg.dijkstra(m, indices=[0, 5], return_predecessors=True)
    assert_same_distances(d, scg.dijkstra(m, indices=[0, 5]), True)
    assert np.array_equal(p == -9999, scg.dijkstra(m, indices=[0, 5], return_predecessors=True)[1] == -9999)


@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("strategy", ["multisplit", "dijkstra", "phast"])
def test_limit_with_several_indices_runs_the_batched_path(monkeypatch, real, strategy):
    """csgraph.dijkstra(limit=...) with several indices: one distance_matrix call with the limit as
    its cutoff, no solve per index; scipy's answer for a limit of 0, one between two distances
    (2 and 3; real: 0.751 and 1.121) and one past every distance."""
    m = small()
    if real:
        m.data = m.data * 0.37 + 0.011
    if real and strategy == "phast":  # csgraph answers float64, which phast does not compute in this version
        with pytest.raises(ValueError, match="float32"):
            dcg.dijkstra(m, indices=[0, 4], strategy=strategy)
        return
    calls = []
    batched = Graph.distance_matrix

    def spy(self, *args, **kwargs):
        calls.append(kwargs["cutoff"])
        return batched(self, *args, **kwargs)

    monkeypatch.setattr(Graph, "distance_matrix", spy)
    monkeypatch.setattr(Graph, "sssp", lambda *a, **k: pytest.fail("a per-source solve ran"))
    indices = [0, 4, 5, 0, 2]
    limits = [0, 1.0 if real else 2.5, 100]
    for limit in limits:
        ours = dcg.dijkstra(m, indices=indices, limit=limit, strategy=strategy)
        theirs = scg.dijkstra(m, indices=indices, limit=limit)
        assert_same_distances(ours, theirs, not real)
    assert calls == limits


@pytest.mark.parametrize("cutoff", [None, 0, 3, 1000])
def test_networkx_all_pairs_uses_the_batched_path(monkeypatch, cutoff):
    G = nx.gnp_random_graph(40, 0.08, seed=5, directed=True)
    for i, (u, v) in enumerate(G.edges()):
        G.edges[u, v]["weight"] = (i * 7) % 5
    G.add_node("alone")
    monkeypatch.setattr(Graph, "sssp", lambda *a, **k: pytest.fail("a per-source solve ran"))
    ours = dict(nx.all_pairs_dijkstra_path_length(G, cutoff=cutoff, backend="deltasplit"))
    assert ours == dict(nx.all_pairs_dijkstra_path_length(G, cutoff=cutoff))


def test_empty_lists_and_graphs():
    g = Graph.from_scipy(small())
    assert g.distance_matrix([]).shape == (0, 6)
    assert g.distance_matrix([1, 2], targets=[]).shape == (2, 0)
    empty = Graph.from_scipy(sp.csr_matrix((0, 0)))
    assert empty.distance_matrix([]).shape == (0, 0)
    assert dcg.dijkstra(sp.csr_matrix((1, 1))).tolist() == [[0.0]]


# -- bad inputs ---------------------------------------------------------------------------------

@pytest.mark.parametrize("sources,error,match", [
    ([0, 6], IndexError, "source vertex 6 is out of range"),
    ([-1], IndexError, "source vertex -1 is out of range"),
    ([0.5, 1.0], TypeError, "integer"),
    ([[0, 1]], ValueError, "one-dimensional"),
    (np.array([True, False]), TypeError, "integer"),
])
def test_bad_sources_raise(sources, error, match):
    with pytest.raises(error, match=match):
        Graph.from_scipy(small()).distance_matrix(sources)


def test_bad_targets_and_options_raise():
    g = Graph.from_scipy(small())
    with pytest.raises(IndexError, match="target vertex 9 is out of range"):
        g.distance_matrix([0], targets=[1, 9])
    with pytest.raises(ValueError, match="batch_size"):
        g.distance_matrix([0], tune={"batch_size": 0})
    with pytest.raises(ValueError, match="strategy"):
        g.distance_matrix([0], strategy="fast")
    with pytest.raises(ValueError, match="device"):
        g.distance_matrix([0], device="tpu")
    with pytest.raises(ValueError, match="delta"):
        g.distance_matrix([0], tune={"delta": -1})
    for cutoff in (-1, math.nan):
        with pytest.raises(ValueError, match="cutoff"):
            g.distance_matrix([0], cutoff=cutoff)


def test_bad_outputs_raise():
    g = Graph.from_scipy(small().astype(np.int64))
    with pytest.raises(ValueError, match="uint32"):
        g.distance_matrix([0, 1], out=np.empty((2, 6), dtype=np.float32))
    with pytest.raises(ValueError, match="float64"):  # whole-number floats answer in float64
        Graph.from_scipy(small()).distance_matrix([0, 1], out=np.empty((2, 6), dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        g.distance_matrix([0, 1], out=np.empty((2, 5), dtype=np.uint32))
    with pytest.raises(ValueError, match="C-contiguous"):
        g.distance_matrix([0, 1], out=np.empty((6, 2), dtype=np.uint32).T)
    real = Graph.from_scipy(small() * 0.5)
    with pytest.raises(ValueError, match="float64"):
        real.distance_matrix([0, 1], out=np.empty((2, 6), dtype=np.uint32))


@pytest.mark.skipif(GPU, reason="checks the error where no GPU can be used")
def test_device_gpu_without_a_gpu_raises():
    with pytest.raises(RuntimeError, match="GPU"):
        Graph.from_scipy(small()).distance_matrix([0, 1], device="gpu")


# -- the GPU: device outputs copied device to device, device graphs ------------------------------

needs_cupy = pytest.mark.skipif(not CUPY, reason="needs cupy and a usable GPU (device outputs, device graphs)")


@needs_cupy
@pytest.mark.parametrize("path", BATCH_DATASETS, ids=lambda p: p.name)
@pytest.mark.parametrize("batch_size", [32, None])
def test_device_output_on_the_gpu(path, batch_size):
    import cupy
    g, matrix = load(path)
    sources = sources_for(matrix, 70)
    targets = np.arange(0, matrix.shape[0], 7)
    integer = g.weight_kind == "integer"
    dtype = cupy.uint32 if integer else cupy.float32  # the GPU batches' types (float32: asked for)
    out = cupy.full((len(sources), len(targets)), 7, dtype=dtype)
    d, stats = g.distance_matrix(sources, targets, out=out, return_stats=True,
                                 dtype=None if integer else np.float32, tune={"batch_size": batch_size})
    assert d is out and stats["on_gpu"] and stats["batches"] == math.ceil(len(sources) / stats["batch_size"])
    assert_same_distances(as_float64(out), scg.dijkstra(matrix, indices=sources)[:, targets], integer, rtol=1e-5)


@needs_cupy
def test_torch_device_output():
    torch = pytest.importorskip("torch", reason="needs torch for torch device outputs")
    g, matrix = load(next(p for p in BATCH_DATASETS if p.name.startswith("chicago")))  # real weights: float32
    sources = sources_for(matrix, 40)
    dtype = torch.uint32 if g.weight_kind == "integer" else torch.float32
    out = torch.zeros((len(sources), matrix.shape[0]), dtype=dtype, device="cuda")
    g.distance_matrix(sources, out=out, device="gpu", dtype=None if g.weight_kind == "integer" else np.float32)
    assert_same_distances(as_float64(out), scg.dijkstra(matrix, indices=sources), g.weight_kind == "integer",
                          rtol=1e-5)


@needs_cupy
def test_device_graph_solves_one_source_at_a_time():
    import cupy
    g, matrix = load(BATCH_DATASETS[0])
    # A device graph holds 32-bit distances: float32 weights (the dataset's, rounded).
    dg = Graph.from_arrays(cupy.asarray(matrix.indptr), cupy.asarray(matrix.indices),
                           cupy.asarray(matrix.data.astype(np.float32)), num_vertices=matrix.shape[0])
    sources = sources_for(matrix, 6)
    targets = np.array([5, 0, 5, matrix.shape[0] - 1])
    d, stats = dg.distance_matrix(sources, return_stats=True)
    assert isinstance(d, cupy.ndarray) and not stats["batched"] and stats["solves"] == len(sources)
    reference = scg.dijkstra(matrix, indices=sources)
    assert_same_distances(as_float64(d), reference, False, rtol=1e-5)
    assert_same_distances(as_float64(dg.distance_matrix(sources, targets)), reference[:, targets], False, rtol=1e-5)


@needs_cupy
def test_device_output_with_device_cpu_raises():
    import cupy
    with pytest.raises(ValueError, match="device='cpu'"):
        Graph.from_scipy(small().astype(np.int64)).distance_matrix([0, 1], device="cpu",
                                                                   out=cupy.empty((2, 6), dtype=cupy.uint32))
    with pytest.raises(ValueError, match="device='cpu'"):
        Graph.from_scipy(small()).distance_matrix([0, 1], device="cpu", out=cupy.empty((2, 6), dtype=cupy.float64))


@pytest.mark.parametrize("batch_size", [None, 2])
def test_block_driver_distance_matrix_equals_scipy_on_every_dataset(dataset, batch_size):
    """driver='block': one thread block per source on the GPU (where one is usable; else the same
    CPU rows), the same answers as scipy with and without a cutoff; stats name the batch engine,
    and switching the driver on one Graph rebuilds the solver for it."""
    g, matrix, sources, reference, integer = dataset
    if not GPU and batch_size is not None:
        pytest.skip("without a GPU every driver is the same CPU rows: batch_size None checks them")
    # The block driver in float32 (asked for) and float64 (real weights' default).
    single = None if integer else np.float32
    rtol = 1e-15 if integer else 1e-5
    d, stats = g.distance_matrix(sources, return_stats=True, dtype=single,
                                 tune={"driver": "block", "batch_size": batch_size})
    assert_same_distances(d, reference, integer, rtol)
    assert stats["driver"] == ("block" if GPU else "")
    assert stats["batches"] == math.ceil(len(sources) / stats["batch_size"])
    cutoff = cutoff_in_a_gap(reference)
    d = g.distance_matrix(sources, cutoff=cutoff, dtype=single, tune={"driver": "block", "batch_size": batch_size})
    assert_same_distances(d, np.where(reference > cutoff, np.inf, reference), integer, rtol)
    if not integer:
        d, stats = g.distance_matrix(sources, return_stats=True, tune={"driver": "block", "batch_size": batch_size})
        assert d.dtype == np.float64 and stats["driver"] == ("block" if GPU else "")
        assert_same_distances(d, reference, integer)
    d, stats = g.distance_matrix(sources, return_stats=True, tune={"driver": "steps", "batch_size": batch_size})
    assert stats["driver"] == ("vertex-major" if GPU else "")
    assert_same_distances(d, reference, integer)
    # driver 'auto': one block per source below a mean out-degree of 6, the vertex-major batch above.
    d, stats = g.distance_matrix(sources, return_stats=True, tune={"batch_size": batch_size})
    sparse = g.num_arcs < 6 * g.num_vertices
    assert stats["driver"] == (("block" if sparse else "vertex-major") if GPU else "")
    assert_same_distances(d, reference, integer)


def test_driver_is_checked_and_reported():
    g, matrix = load(DATASETS[0])
    for bad in ("blocks", "", None, 3):
        with pytest.raises(ValueError, match="driver"):
            g.distance_matrix([0], tune={"driver": bad})
        with pytest.raises(ValueError, match="driver"):
            g.sssp(0, tune={"driver": bad})
    reference = scg.dijkstra(matrix, indices=0)
    integer = g.weight_kind == "integer"
    for driver in deltasplit.DRIVERS:
        r = g.sssp(0, "near-far", tune={"driver": driver})
        assert_same_distances(r.distances[None, :], reference[None, :], integer)
        if GPU and driver == "block":
            assert r.stats["driver"].startswith("block")
        elif not GPU:
            assert r.stats["driver"] == ""


def summaries_of(d, cutoff=math.inf):
    """Row summaries of scipy's float64 rows: reached, sum, farthest (vertices within cutoff)."""
    hit = np.isfinite(d) & (d <= cutoff)
    return hit.sum(axis=1), np.where(hit, d, 0).sum(axis=1), np.where(hit, d, 0).max(axis=1)


@pytest.mark.parametrize("strategy", ["phast", "multisplit", "dijkstra"])
def test_row_summaries_equal_scipys_rows_summed(dataset, strategy):
    """Graph.row_summaries against scipy's rows reduced: counts and integer sums exactly, real
    sums within 1e-12, every source of the bundled graphs' sample and each batch size."""
    g, matrix, sources, expected, integer = dataset
    if strategy == "phast" and not integer:
        pytest.skip("phast computes float32 for real weights (the hierarchy's sums); its rows are tested elsewhere")
    if strategy == "phast" and g.num_vertices > 500_000:
        pytest.skip("a hierarchy of road-FLA takes the test machine's cores too long; USA-road-d.NY stands for it")
    want = summaries_of(expected)
    # A batch size is a new solver, and for phast a new hierarchy: phast takes the automatic size.
    for tune in (None,) if strategy == "phast" else (None, {"batch_size": 2}):
        got, st = g.row_summaries(sources, strategy=strategy, tune=tune, return_stats=True)
        assert got["reached"].dtype == np.int64
        np.testing.assert_array_equal(got["reached"], want[0])
        assert got["farthest"].dtype == g.distance_dtype_for(None)
        if integer:
            assert got["sum"].dtype == np.uint64
            np.testing.assert_array_equal(got["sum"], want[1].astype(np.uint64))
            np.testing.assert_array_equal(got["farthest"], want[2].astype(got["farthest"].dtype))
        else:
            assert got["sum"].dtype == np.float64
            np.testing.assert_allclose(got["sum"], want[1], rtol=1e-12)
            np.testing.assert_allclose(got["farthest"], want[2], rtol=1e-15)
        assert st["batches"] >= 1 and st["batch_size"] >= 1
        assert st["on_gpu"] == (GPU and strategy != "dijkstra")


def test_row_summaries_all_sources_cutoff_and_edge_cases():
    """Every vertex as a source (sources=None), cutoffs (0: the source alone), unreachable
    vertices, duplicates, one vertex and no sources; an integer sum past 2^64 - 1 is an
    OverflowError naming its source."""
    rng = np.random.default_rng(3)
    n = 300
    rows, cols = rng.integers(0, n, 1200), rng.integers(0, n, 1200)
    weights = rng.integers(1, 20, 1200).astype(np.float64)
    matrix = sp.csr_matrix((weights, (rows, cols)), shape=(n + 5, n + 5))  # five vertices without arcs
    g = Graph.from_scipy(matrix)
    d = scg.dijkstra(matrix)
    cutoff = float(np.median(d[np.isfinite(d)]))
    for strategy in ("phast", "multisplit", "dijkstra"):
        for c in (math.inf, cutoff, 0.0):
            got = g.row_summaries(strategy=strategy, cutoff=c)
            want = summaries_of(d, c)
            np.testing.assert_array_equal(got["reached"], want[0])
            np.testing.assert_array_equal(got["sum"], want[1].astype(np.uint64))
            np.testing.assert_array_equal(got["farthest"], want[2])
        got = g.row_summaries([n + 1, n + 1, 0], strategy=strategy)
        np.testing.assert_array_equal(got["reached"], [1, 1, np.isfinite(d[0]).sum()])
        assert g.row_summaries([], strategy=strategy)["sum"].shape == (0,)
    one = Graph.from_scipy(sp.csr_matrix((1, 1)))
    assert one.row_summaries()["reached"].tolist() == [1]
    big = 2**62
    wide = Graph.from_edges(np.array([0, 1, 2]), np.array([1, 2, 3]), np.array([big, big, big + big // 2], np.uint64),
                            num_vertices=4)
    assert wide.row_summaries([1])["sum"][0] == big + big + big // 2 + big
    with pytest.raises(OverflowError, match="vertex 0 "):
        wide.row_summaries([1, 0])
    with pytest.raises(IndexError):
        g.row_summaries([n + 5])


@needs_cupy
def test_row_summaries_of_a_device_graph():
    """A graph in device memory: its rows one sssp each, reduced on the device, equal to scipy's
    rows summed (integer weights, a cutoff, unreachable vertices)."""
    import cupy
    rng = np.random.default_rng(5)
    n = 400
    matrix = sp.csr_matrix((rng.integers(1, 30, 1500).astype(np.float64), (rng.integers(0, n, 1500),
                            rng.integers(0, n, 1500))), shape=(n, n))
    dg = Graph.from_arrays(cupy.asarray(matrix.indptr), cupy.asarray(matrix.indices),
                           cupy.asarray(matrix.data.astype(np.uint32)), num_vertices=n)
    d = scg.dijkstra(matrix)
    sources = np.array([0, 7, 7, n - 1])
    for c in (math.inf, float(np.median(d[np.isfinite(d)]))):
        got, st = dg.row_summaries(sources, cutoff=c, return_stats=True)
        want = summaries_of(d[sources], c)
        np.testing.assert_array_equal(got["reached"], want[0])
        np.testing.assert_array_equal(got["sum"], want[1].astype(np.uint64))
        np.testing.assert_array_equal(got["farthest"], want[2])
        assert got["farthest"].dtype == np.uint32 and st["method"] == "rows one by one"
