"""hierarchy= (strategy "phast"): the contraction hierarchy kept in a file. The first solver builds it
and writes it, later ones (other Graph objects, sssp and distance_matrix alike) load it and say so,
with scipy's distances either way; a file of another graph or weighting, a file that is no
hierarchy and a strategy other than phast are refused, and no file is replaced."""
import pathlib

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

import deltasplit
from deltasplit import Graph

import conftest
from conftest import ROOT


def scipy_distances(g, sources):
    offsets, targets, weights = g.arrays()
    n = g.num_vertices
    matrix = sp.csr_matrix((weights.astype(np.float64), targets.astype(np.int64), offsets.astype(np.int64)),
                           shape=(n, n))
    return scg.dijkstra(matrix, directed=True, indices=sources)


def as_float64(d):
    d = np.asarray(d)
    out = d.astype(np.float64)
    if d.dtype.kind == "u":
        out[d == np.iinfo(d.dtype).max] = np.inf
    return out


def random_graph(n, m, seed, real):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = rng.uniform(0, 50, m).astype(np.float32) if real else rng.integers(0, 50, m).astype(np.uint32)
    return Graph.from_edges(src, dst, w, num_vertices=n)


@pytest.mark.parametrize("real", [False, True], ids=["integer", "real"])
def test_built_then_loaded_with_scipys_distances(tmp_path, real):
    path = tmp_path / "g.ch"
    first = random_graph(300, 1500, 1, real)
    r = first.sssp(0, "phast", hierarchy=path, device="cpu", dtype=np.float32)
    assert r.stats["setup"] == "built"
    assert path.is_file()
    written = path.read_bytes()
    sources = [0, 7, 299]
    want = scipy_distances(first, sources)
    for again in (first, random_graph(300, 1500, 1, real)):  # the same solver, and a new Graph of the same arcs
        for i, s in enumerate(sources):
            got = again.sssp(s, "phast", hierarchy=str(path), device="cpu", dtype=np.float32)
            assert got.stats["setup"] == ("built" if again is first else "loaded")
            conftest.assert_same_distances(as_float64(got.distances), want[i], integer=not real, rtol=1e-5)
    d, stats = random_graph(300, 1500, 1, real).distance_matrix(sources, strategy="phast", hierarchy=path, device="cpu",
                                                               return_stats=True, dtype=np.float32)
    assert stats["setup"] == "loaded"
    conftest.assert_same_distances(as_float64(d), want, integer=not real, rtol=1e-5)
    assert path.read_bytes() == written


def test_distance_matrix_builds_and_writes(tmp_path):
    g = Graph.from_file(str(ROOT / "datasets" / "chesapeake.mtx"))
    path = tmp_path / "ches.ch"
    sources = np.arange(g.num_vertices)
    d, stats = g.distance_matrix(sources, strategy="phast", hierarchy=path, return_stats=True)
    assert stats["setup"] == "built"
    assert path.is_file()
    conftest.assert_same_distances(as_float64(d), scipy_distances(g, sources), integer=True)
    again = Graph.from_file(str(ROOT / "datasets" / "chesapeake.mtx"))
    assert again.sssp(3, "phast", hierarchy=path).stats["setup"] == "loaded"


def test_refusals_leave_files_as_they_were(tmp_path):
    path = tmp_path / "g.ch"
    g = random_graph(200, 900, 2, False)
    g.sssp(0, "phast", hierarchy=path, device="cpu")
    written = path.read_bytes()
    with pytest.raises(ValueError, match="phast"):
        g.sssp(0, "multisplit", hierarchy=path)
    with pytest.raises(ValueError, match="phast"):
        g.distance_matrix([0, 1], strategy="cpu", hierarchy=path)
    other = random_graph(200, 900, 3, False)
    with pytest.raises(deltasplit.InputError, match="another graph") as e:
        other.sssp(0, "phast", hierarchy=path, device="cpu")
    assert str(path) in str(e.value)
    with pytest.raises(deltasplit.InputError, match="real weights"):
        random_graph(200, 900, 2, True).distance_matrix([0], strategy="phast", hierarchy=path, device="cpu",
                                                        dtype=np.float32)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a hierarchy\n")
    with pytest.raises(deltasplit.InputError, match="not a contraction hierarchy file"):
        other.sssp(0, "phast", hierarchy=pathlib.Path(notes), device="cpu")
    assert notes.read_text() == "not a hierarchy\n"
    assert path.read_bytes() == written
