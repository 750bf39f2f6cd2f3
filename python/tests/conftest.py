"""Shared fixtures: the bundled datasets, and the array libraries the suite runs with (numpy on
every machine; cupy, on the GPU path, where cupy is installed and a GPU can be used)."""
import os
import pathlib

import numpy as np
import pytest

import deltasplit

ROOT = pathlib.Path(os.environ.get("DELTASPLIT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DATASETS = sorted(p for p in (ROOT / "datasets").glob("*") if p.name.endswith((".mtx", ".mtx.gz", ".gr", ".gr.gz")))


def _cupy_usable():
    if not deltasplit.gpu_available():
        return False
    try:
        import cupy
        import cupyx.scipy.sparse  # noqa: F401
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


CUPY = _cupy_usable()
ARRAY_LIBS = ["numpy"] + (["cupy"] if CUPY else [])


@pytest.fixture(params=ARRAY_LIBS)
def xp_name(request):
    """'numpy' (host inputs) or 'cupy' (device inputs, GPU path)."""
    return request.param


@pytest.fixture(scope="session")
def hierarchy_file(tmp_path_factory):
    """hierarchy_file(g): a contraction hierarchy file for graph g, one per graph for the whole
    pytest run: the first phast solve given it builds the hierarchy and writes it there, every later
    one loads it, so a dataset is contracted once per pytest process (road-FLA's contraction takes
    seconds on two cores). Named by the graph's size and weight kind; a file that belonged to another
    graph would be refused (InputError), never used."""
    folder = tmp_path_factory.mktemp("hierarchies")
    return lambda g: folder / f"{g.num_vertices}x{g.num_arcs}-{g.weight_kind}.ch"


def to_lib(matrix, lib):
    """A scipy sparse matrix as the array library's sparse CSR matrix."""
    if lib == "numpy":
        return matrix
    import cupyx.scipy.sparse as csp
    return csp.csr_matrix(matrix.tocsr())


def to_host(a):
    if a is None or isinstance(a, np.ndarray):
        return a
    if hasattr(a, "get"):
        return a.get()
    return np.asarray(a.cpu()) if hasattr(a, "cpu") else np.asarray(a)


def assert_same_distances(ours, theirs, integer, rtol=1e-15):
    """ours (float64 with inf, in any array library) against scipy's `theirs`: the same shape and
    unreachable vertices; integer weights equal, real ones within a relative rtol (float64
    distances: 1e-15; pass 1e-5 for float32 ones)."""
    ours = to_host(ours)
    assert ours.dtype == np.float64 and ours.shape == theirs.shape
    assert np.array_equal(np.isinf(ours), np.isinf(theirs))
    finite = np.isfinite(theirs)
    if integer:
        assert np.array_equal(ours[finite], theirs[finite])
    else:
        np.testing.assert_allclose(ours[finite], theirs[finite], rtol=rtol, atol=0)


def cutoff_in_a_gap(reference):
    """A cutoff (scipy's limit) between two neighbouring finite distances of `reference` near their
    median, in a gap wide enough that float32 sums (real weights) cannot land on the other side of it
    than scipy's float64 ones."""
    d = np.unique(reference[np.isfinite(reference)])
    gaps = np.flatnonzero(np.diff(d) > 1e-3 * np.maximum(d[1:], 1))
    k = gaps[np.argmin(np.abs(gaps - len(d) // 2))]
    return float((d[k] + d[k + 1]) / 2)


def pytest_report_header(config):
    return (f"deltasplit: built with CUDA {deltasplit.BUILT_WITH_CUDA}, GPU usable {deltasplit.gpu_available()}"
            f"{'' if deltasplit.gpu_available() else ' (' + deltasplit.gpu_reason() + ')'}, array libraries "
            f"{ARRAY_LIBS}")
