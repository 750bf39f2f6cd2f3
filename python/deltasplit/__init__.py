"""deltasplit: single-source shortest paths by delta-stepping on the GPU (CPU fallback).

Three ways in:

* ``deltasplit.csgraph.dijkstra`` / ``shortest_path``: drop-ins for ``scipy.sparse.csgraph``'s;
* ``deltasplit.Graph``: a graph uploaded once, solved from many sources (numpy, or cupy/torch
  device arrays in and out without a copy);
* the NetworkX backend ``deltasplit``: ``nx.single_source_dijkstra_path_length(G, s,
  backend="deltasplit")``.

``gpu_available()`` says whether the CUDA solvers can run here and ``gpu_reason()`` why not.
A CPU-only build (no nvcc, or DELTASPLIT_CUDA=OFF, when it was built) says so with a
RuntimeWarning at import.
"""
import warnings

from . import _core
from ._graph import DRIVERS, GPU_STRATEGIES, STRATEGIES, TUNING, Graph, SSSPResult

InputError = _core.InputError
DistanceOverflow = _core.DistanceOverflow
BUILT_WITH_CUDA = bool(_core.built_with_cuda)

__version__ = "0.1.0"
__all__ = ["Graph", "SSSPResult", "gpu_available", "gpu_reason", "InputError", "DistanceOverflow",
           "STRATEGIES", "GPU_STRATEGIES", "DRIVERS", "TUNING", "BUILT_WITH_CUDA", "csgraph"]


def gpu_available():
    """True when a CUDA device can be used by this build."""
    return _core.gpu_available()[0]


def gpu_reason():
    """Why no GPU can be used ("" when one can)."""
    return _core.gpu_available()[1]


if not BUILT_WITH_CUDA:
    warnings.warn("deltasplit was built without CUDA (no nvcc, or DELTASPLIT_CUDA=OFF, when it was "
                  "built): only the CPU solvers are available. Install a GPU wheel, or the CUDA "
                  "toolkit and reinstall, for the GPU solvers.",
                  RuntimeWarning, stacklevel=2)

from . import csgraph  # noqa: E402  (needs Graph)
