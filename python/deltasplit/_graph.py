"""deltasplit.Graph: a graph held by the C++ solvers (cleaned host CSR, or a view of device arrays),
uploaded to the GPU once per solver and solved from any number of sources."""
import math
import os
from collections import namedtuple

import numpy as np

from . import _core

STRATEGIES = tuple(_core.STRATEGIES)  # the C++ library's names (sssp::strategy_names)
# Strategies that run on the GPU when one is usable (and on the CPU otherwise). phast contracts the
# graph first (a contraction hierarchy: seconds on a road network, once per Graph), then answers
# each source with PHAST's sweep: for many queries on one road network.
GPU_STRATEGIES = tuple(_core.GPU_STRATEGIES)  # sssp::gpu_strategy_names
# The GPU loops (C++ sssp::gpu_driver): "auto", "steps", "partitioned", "block", "wide". One
# source: Graph.sssp's docstring says which "auto" picks (the C++ rule: sssp.hpp). Many sources
# (distance_matrix): "auto" is one thread block per source on graphs of mean out-degree below 6
# (road networks), the vertex-major batch otherwise; "steps" forces the vertex-major batch,
# "block" the blocks.
DRIVERS = tuple(_core.DRIVERS)  # the C++ library's names (sssp::driver_names)

# Tuning: how fast, never which distances (docs/strategies.md; the C++ options' tuning block, the
# CLI's tuning group). Graph.sssp and Graph.distance_matrix take these as one mapping, `tune=`;
# the defaults choose by graph and device. delta: bucket width, 0 = automatic; buckets: K, of the
# bucketing and multisplit managers; driver: one of DRIVERS; batch_size: sources a many-source
# batch solves at once (None: as many as fit).
TUNING = {"delta": 0, "buckets": 10, "driver": "auto", "batch_size": None}
_SSSP_TUNING = ("delta", "buckets", "driver")
_MATRIX_TUNING = ("delta", "driver", "batch_size")
# row_summaries of a device graph: its rows are solved and reduced this many bytes at a time.
_SUMMARY_BLOCK_BYTES = 64 << 20

SSSPResult = namedtuple("SSSPResult", ["distances", "predecessors", "stats"])
SSSPResult.__doc__ = """One source's answer.

distances: one per vertex, of the solve's distance type (Graph.distance_dtype): uint32 or uint64
for integer weights (exact; unreachable = all ones, Graph.INT_INFINITY = 2**32 - 1 or
Graph.UINT64_INFINITY = 2**64 - 1), float64 for real weights, also float weights of whole
numbers, which are solved as integers (float32 when asked with dtype=numpy.float32; unreachable =
inf); predecessors: uint32 parents of a
shortest-path tree (Graph.NO_VERTEX for the source and unreached vertices), or None;
stats: the solve's statistics as a dict (strategy, device, milliseconds, iterations, ...)."""

_UINT32_MAX = 2**32 - 1
_EXACT_INTEGERS = 2**53  # below it a float64 holds every integer, so integral floats are integers


def _device_module(a):
    """cupy for CUDA arrays (cupy, torch, anything with __cuda_array_interface__ or a CUDA
    DLPack device), None for host arrays."""
    if hasattr(a, "__cuda_array_interface__"):
        import cupy
        return cupy
    dev = getattr(a, "__dlpack_device__", None)
    if dev is not None and dev()[0] in (2, 3, 13):  # kDLCUDA, kDLCUDAHost, kDLCUDAManaged
        import cupy
        return cupy
    return None


def _is_torch(a):
    return type(a).__module__.startswith("torch")


def _as_cupy(a):
    import cupy
    return a if isinstance(a, cupy.ndarray) else cupy.from_dlpack(a)


def choose_weights(w, n, xp=np, device_graph=None):
    """Weights as the solver stores them, exact in their own type: integers (and floats that are
    all integers below 2**53) as uint32, or uint64 when one passes 2**32 - 1; other floats as they
    are, float32 or float64 (other float types as float64). The distances' type follows from them
    (Graph.distance_dtype). Negative or non-finite weights raise.

    Device arrays (cupy) feed the GPU engine, which holds 32-bit distances: integer weights whose
    paths could pass 2**32 - 2 (max weight x (n - 1)) and real weights other than float32 raise.
    device_graph=False takes the host rule for device arrays too (the road layer's device CSR,
    _reached_on_device.ArcsOnDevice, stores its weights as the host Graph of its arcs does)."""
    w = xp.asarray(w)
    if w.dtype.kind not in "iufb":
        raise TypeError(f"weights must be numbers; got dtype {w.dtype}")
    if w.size == 0:
        return w.astype(xp.uint32)
    if w.dtype.kind == "f":
        if not bool(xp.isfinite(w).all()):
            raise ValueError("weights must be finite (found NaN or inf)")
    lo, hi = w.min(), w.max()
    if lo < 0:
        raise ValueError(f"negative weights are not supported (found {lo}); shortest paths by "
                         "delta-stepping need non-negative weights (deltasplit.csgraph's shortest_path, "
                         "bellman_ford and johnson solve negative weights)")
    integral = w.dtype.kind in "iub" or (float(hi) < _EXACT_INTEGERS and bool((w == xp.floor(w)).all()))
    if (xp is not np) if device_graph is None else device_graph:
        if integral and float(hi) * max(n - 1, 1) <= _UINT32_MAX - 1:
            return w.astype(xp.uint32)
        if w.dtype == xp.float32:
            return w
        raise ValueError("a device graph holds 32-bit distances: give uint32-safe integer weights "
                         "(max weight x (n - 1) <= 2**32 - 2) or float32 weights, or build the graph on the host")
    if integral:
        return w.astype(np.uint32 if int(hi) <= _UINT32_MAX else np.uint64)
    return w if w.dtype in (np.float32, np.float64) else w.astype(np.float64)


def networkx_arcs(G, weight="weight", default=1):
    """(nodes, sources, targets, weights) of a NetworkX graph's edges, nodes numbered in G's order
    (``list(G)``), the edge attribute `weight` (missing: `default`; weight None: every edge 1) as
    an array of the weights' own type: int64 (uint64 past 2**63 - 1) when every weight is an
    integer, else as numpy makes it of the values (float64 when any is a Python float). An integer
    weight that does not fit 64 bits raises ValueError (a negative one is left to the solver's
    check)."""
    nodes = list(G)
    index = {v: i for i, v in enumerate(nodes)}
    m = G.number_of_edges()
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    if weight is None:
        for i, (u, v) in enumerate(G.edges()):
            src[i], dst[i] = index[u], index[v]
        return nodes, src, dst, np.ones(m, dtype=np.int64)
    values = [None] * m
    for i, (u, v, d) in enumerate(G.edges(data=True)):
        src[i], dst[i], values[i] = index[u], index[v], d.get(weight, default)
    if all(isinstance(x, (int, np.integer)) for x in values):  # bools too, as NetworkX adds them
        ints = [int(x) for x in values]
        lo, hi = min(ints, default=0), max(ints, default=0)
        if hi >= 2**64 or lo < -2**63:
            raise ValueError(f"edge weight {hi if hi >= 2**64 else lo} does not fit 64 bits")
        if hi >= 2**63 and lo < 0:
            raise ValueError(f"negative edge weight {lo} beside {hi}, past int64 (no one type holds both)")
        return nodes, src, dst, np.array(ints, dtype=np.int64 if hi < 2**63 else np.uint64)
    w = np.asarray(values)
    if w.dtype.kind not in "iuf":
        bad = next((x for x in values if not _is_number(x)), values[0])
        raise TypeError(f"edge weights must be numbers; got {bad!r} ({type(bad).__name__})")
    return nodes, src, dst, w


def _real_type(dtype, device):
    """The C++ options::real_type name for a solve asked in `dtype` (None: float64 on host graphs;
    device graphs solve in float32, the GPU engine's type)."""
    if dtype is None:
        return "float32" if device else "float64"
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return "float32"
    if dtype == np.float64 and not device:
        return "float64"
    raise ValueError(f"dtype must be None, numpy.float32 or numpy.float64 (host graphs); got {dtype}")


class Graph:
    """A directed graph for the deltasplit solvers.

    Build it with one of the constructors (from_scipy, from_arrays, from_edges, from_file,
    from_networkx). Host graphs are cleaned on the way in as the file readers clean them (rows
    sorted, self-loops dropped, parallel arcs folded into the lightest; ``origin`` counts them);
    device graphs (cupy or torch arrays) are used where they are, with no copy through the host.
    Each solver (GPU, CPU) is built on first use and reused: the GPU holds one copy of the graph.
    """

    INT_INFINITY = _core.INT_INFINITY
    UINT64_INFINITY = _core.UINT64_INFINITY
    NO_VERTEX = _core.NO_VERTEX

    def __init__(self, core, device_arrays=None, real_answers=False):
        if not isinstance(core, _core.Graph):
            raise TypeError("use Graph.from_scipy, from_arrays, from_edges, from_file or from_networkx")
        self._core = core
        self._device = device_arrays is not None
        self._keep = device_arrays
        # Float weights that are all whole numbers are stored and solved as integers (exact, and
        # faster) and answered as real weights are: in float64 (float32 when asked, or on the
        # device), unreachable inf (_real_answer).
        self._real_answers = bool(real_answers)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_scipy(cls, matrix, directed=True, unweighted=False):
        """From a square scipy sparse matrix (or array): entry (i, j) = arc i -> j of that weight;
        explicit zeros are zero-weight arcs; duplicate entries of a CSR matrix keep the lightest.
        directed=False: every entry stands for both directions. unweighted: every weight 1."""
        import scipy.sparse as sp
        if not sp.issparse(matrix):
            raise TypeError("from_scipy needs a scipy.sparse matrix or array")
        a = matrix.tocsr()
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"the graph's matrix must be square (N, N); got shape {a.shape}")
        n = a.shape[0]
        w = np.ones(a.nnz, dtype=np.uint32) if unweighted else a.data
        return cls.from_arrays(a.indptr, a.indices, w, num_vertices=n, directed=directed)

    @classmethod
    def from_arrays(cls, offsets, targets, weights, num_vertices=None, directed=True):
        """From CSR arrays: offsets (n + 1), targets and weights (one per arc). numpy arrays are
        cleaned into a host graph; CUDA arrays (cupy, torch) stay on the device as they are (rows
        in any order, parallel arcs kept: the solver relaxes them all and the lightest wins)."""
        xp = _device_module(offsets)
        if xp is not None:
            return cls._from_device(offsets, targets, weights, num_vertices, directed)
        offsets = np.asarray(offsets)
        targets = np.asarray(targets)
        n = len(offsets) - 1 if num_vertices is None else int(num_vertices)
        _check_index_array(offsets, "offsets")
        _check_index_array(targets, "targets")
        if len(offsets) != n + 1:
            raise ValueError(f"{len(offsets)} offsets for {n} vertices (need n + 1)")
        if targets.size and (targets.min() < 0 or targets.max() >= n):
            raise ValueError(f"a target lies outside 0..{n - 1}")
        given = np.asarray(weights)
        w = choose_weights(given, n)
        if len(w) != len(targets):
            raise ValueError(f"{len(w)} weights for {len(targets)} targets")
        core = _core.from_csr_arrays(n, _host_array(offsets, np.uint64), _host_array(targets, np.uint32), _host_array(w),
                                     symmetric=not directed)
        return cls(core, real_answers=_stored_as_integers(given, w))

    @classmethod
    def from_edges(cls, sources, targets, weights, num_vertices, directed=True):
        """From arcs sources[i] -> targets[i] of weight weights[i] (host arrays), cleaned."""
        s, t = np.asarray(sources), np.asarray(targets)
        _check_index_array(s, "sources")
        _check_index_array(t, "targets")
        n = int(num_vertices)
        if len(s) != len(t):
            raise ValueError(f"{len(s)} sources for {len(t)} targets")
        if s.size and (min(s.min(), t.min()) < 0 or max(s.max(), t.max()) >= n):
            raise ValueError(f"an arc names a vertex outside 0..{n - 1}")
        given = np.asarray(weights)
        w = choose_weights(given, n)
        core = _core.from_arcs(n, _host_array(s, np.uint32), _host_array(t, np.uint32), _host_array(w),
                               symmetric=not directed)
        return cls(core, real_answers=_stored_as_integers(given, w))

    @classmethod
    def from_file(cls, path, weight_seed=1):
        """Through the project's readers: Matrix Market, DIMACS .gr, edge lists, .dsg caches
        (gzip too). Files without weights get the readers' seeded integer weights in [0, 1000].
        Vertex ids here are 0-based (file id - 1 for Matrix Market and DIMACS)."""
        return cls(_core.from_file(str(path), weight_seed))

    @classmethod
    def rmat(cls, scale, edge_factor=16, *, preset="graph500", undirected=False, seed=1, weight_range=(0, 1000)):
        """An R-MAT (Kronecker) graph, the one ``deltasplit generate rmat`` writes for the same
        options: 2**scale vertices, edge_factor * 2**scale edges drawn by recursive quadrant choice
        (preset "graph500": a, b, c, d = .57, .19, .19, .05; "paper": .5, .1, .1, .3; or the four
        numbers), uniform integer weights in the closed range `weight_range`; `undirected` stores
        both directions of every edge. Self-loops are dropped and parallel arcs merged before the
        weights are drawn (``origin`` counts both). A pure function of its arguments."""
        abcd = _core.rmat_presets().get(preset) if isinstance(preset, str) else tuple(float(p) for p in preset)
        if abcd is None or len(abcd) != 4:
            raise ValueError(f"preset must be 'graph500', 'paper' or four probabilities (a, b, c, d); got {preset!r}")
        if not all(0 <= p <= 1 for p in abcd) or abs(sum(abcd) - 1) > 1e-9:
            raise ValueError(f"R-MAT probabilities must lie in [0, 1] and sum to 1; got {abcd}")
        if not 0 <= int(scale) <= 31:
            raise ValueError(f"scale must lie in [0, 31] (2**scale vertices, 32-bit ids); got {scale}")
        lo, hi = _weight_range(weight_range)
        return cls(_core.rmat(int(scale), float(edge_factor), *abcd, bool(undirected), int(seed), lo, hi))

    @classmethod
    def grid(cls, rows, cols, *, keep=1.0, seed=1, weight_range=(0, 1000)):
        """A road-like grid, the one ``deltasplit generate grid`` writes for the same options:
        rows x cols vertices, 4-neighbour undirected edges (both directions stored), each kept with
        probability `keep`, uniform integer weights in the closed range `weight_range`."""
        if int(rows) <= 0 or int(cols) <= 0:
            raise ValueError(f"rows and cols must be positive; got {rows} x {cols}")
        lo, hi = _weight_range(weight_range)
        return cls(_core.grid(int(rows), int(cols), float(keep), int(seed), lo, hi))

    @classmethod
    def from_networkx(cls, G, weight="weight", default=1):
        """From a NetworkX graph: nodes numbered in G's order (``list(G)``); the edge attribute
        `weight` (missing: `default`) in its own type (networkx_arcs: Python ints stay exact
        integers past 2**53); undirected graphs store both directions; a multigraph's parallel
        edges keep the lightest."""
        nodes, src, dst, w = networkx_arcs(G, weight, default)
        g = cls.from_edges(src, dst, w, len(nodes), directed=G.is_directed())
        g.nodes = nodes
        return g

    @classmethod
    def _from_device(cls, offsets, targets, weights, num_vertices, directed):
        import cupy
        torch_in = _is_torch(offsets)
        off, tgt, w = _as_cupy(offsets), _as_cupy(targets), _as_cupy(weights)
        n = off.size - 1 if num_vertices is None else int(num_vertices)
        if off.size != n + 1:
            raise ValueError(f"{off.size} offsets for {n} vertices (need n + 1)")
        if off.dtype.kind not in "iu" or tgt.dtype.kind not in "iu":
            raise TypeError("offsets and targets must be integer arrays")
        given, w = w, choose_weights(w, n, cupy)
        if w.size != tgt.size:
            raise ValueError(f"{w.size} weights for {tgt.size} targets")
        if not directed:  # both directions of every arc, as CSR on the device (rows unsorted)
            rows = device_rows(off)
            src = cupy.concatenate([rows, tgt.astype(cupy.int64)])
            dst = cupy.concatenate([tgt.astype(cupy.int64), rows])
            w = cupy.concatenate([w, w])
            order = cupy.argsort(src)
            tgt, w = dst[order], w[order]
            counts = cupy.bincount(src, minlength=n)
            off = cupy.concatenate([cupy.zeros(1, dtype=cupy.int64), cupy.cumsum(counts)])
        off = cupy.ascontiguousarray(off, dtype=cupy.uint64)
        tgt = cupy.ascontiguousarray(tgt, dtype=cupy.uint32)
        w = cupy.ascontiguousarray(w)
        cupy.cuda.get_current_stream().synchronize()  # the arrays are complete before the solver's stream reads them
        core = _core.from_device(n, off, tgt, w, (off, tgt, w))
        g = cls(core, device_arrays=(off, tgt, w), real_answers=_stored_as_integers(given, w))
        g._torch = torch_in
        return g

    # -- properties ---------------------------------------------------------------------------

    @property
    def num_vertices(self):
        return self._core.num_vertices

    @property
    def num_arcs(self):
        return self._core.num_arcs

    @property
    def weight_kind(self):
        """'integer' or 'real', as the weights are stored (weight_type); float weights that are all
        whole numbers are stored as integers, and answered as real weights are (distance_dtype)."""
        return self._core.weight_kind

    @property
    def weight_type(self):
        """How the weights are stored: 'uint32', 'uint64', 'float32' or 'float64'."""
        return self._core.weight_type

    @property
    def distance_dtype(self):
        """The numpy dtype of this graph's distances by default: uint32 for integer weights where
        no simple path can pass 2**32 - 2, else uint64; float64 for real weights, also float
        weights that are all whole numbers (solved exactly as integers, then converted), float32
        with dtype=numpy.float32 in sssp and distance_matrix; device graphs: float32."""
        return self.distance_dtype_for(None)

    def distance_dtype_for(self, dtype):
        """The distances' numpy dtype for a solve asked in `dtype` (None, numpy.float32 or
        numpy.float64; it matters for real weights only, float weights of whole numbers among
        them)."""
        real_type = _real_type(dtype, self._device)
        return np.dtype(real_type if self._real_answers else self._core.distance_type(real_type))

    def _solve_dtype(self, dtype):
        """The type the solver computes in for a solve asked in `dtype`: distance_dtype_for's,
        except for float weights stored as integers (uint32 or uint64, stats['distance_type'])."""
        return np.dtype(self._core.distance_type(_real_type(dtype, self._device)))

    @property
    def on_device(self):
        return self._core.on_device

    @property
    def origin(self):
        """Where the graph came from and what cleaning did: format, entries_read,
        self_loops_dropped, duplicates_merged, ..."""
        return self._core.origin

    def arrays(self):
        """The cleaned CSR of a host graph: (offsets uint64, targets uint32, weights)."""
        return self._core.arrays()

    def __repr__(self):
        where = "device" if self.on_device else "host"
        return f"<deltasplit.Graph {self.num_vertices} vertices, {self.num_arcs} arcs, {self.weight_kind} weights, {where}>"

    # -- solving ------------------------------------------------------------------------------

    def sssp(self, source, strategy="multisplit", *, predecessors=False, device="auto", cutoff=math.inf,
             threads=0, out=None, hierarchy=None, dtype=None, tune=None, **legacy):
        """Shortest paths from `source`: an SSSPResult (distances, predecessors, stats).

        tune: a mapping of tuning keys (delta, buckets, driver; TUNING's docs), which change how
        fast, never which distances; delta=, buckets= and driver= as keywords are deprecated.

        strategy: one of STRATEGIES; the GPU ones run on the GPU when device is 'auto' and a GPU
        can be used (else CPU delta-stepping, stats['strategy'] == 'cpu'; phast: its CPU sweep), or
        'gpu' (error without one); 'cpu' and 'dijkstra' run on the CPU. 'phast' builds a
        contraction hierarchy on its first call on a Graph (stats['setup_ms']; seconds on a road
        network), then each call costs an upward search and one sweep. hierarchy (strategy 'phast'
        only): a path that keeps the hierarchy between runs: loaded when the file exists (tens of
        milliseconds; it must have been built from this very graph, else deltasplit.InputError
        naming the file), else built and written there (never replacing a file); stats['setup']
        says 'built' or 'loaded'. tune['delta']: bucket width, 0 = automatic. cutoff:
        vertices farther than this are reported unreachable (the solve stops there). tune['driver']: the
        GPU loop, one of DRIVERS ('auto': the partitioned driver on sparse graphs (mean
        out-degree below 6) and small ones (fewer than 10,000 arcs per SM) whose regions fit in
        shared memory, with no cutoff; its regions are built once per Graph, reported as
        stats['setup'] 'regions built' with stats['setup_ms'], or once 'regions built, not used'
        when a region proved too large for shared memory; the wide driver, 'wide', on larger
        sparse graphs (Near-Far over every SM, one grid barrier an iteration); else the step
        loop, 'steps'; 'block': the whole solve in one thread block, slower for one source;
        stats['driver'] names
        what ran, and why the step loop ran when an option kept the automatic choice there;
        stats['strategy'] is the frontier manager only when the step loop filed the work through
        it, '' under the other drivers; ignored on the CPU). dtype: real weights' distances, None or numpy.float64
        (float64, exact; on the GPU the step loop solves it, as stats['driver'] says) or
        numpy.float32 (weights rounded to float; every driver); stats['distance_type'] names it.
        Results are numpy arrays for host graphs and cupy arrays (torch tensors for a graph built
        from torch tensors) for device graphs, written by the solver in place. `out`: optional
        (distances, predecessors-or-None) arrays to write into instead of new ones.
        """
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        delta, buckets, driver = _tuning(tune, legacy, _SSSP_TUNING, "sssp")
        hierarchy_file = _hierarchy_path(hierarchy, strategy)
        if not _is_integer(source):
            raise TypeError(f"source must be an integer vertex id; got {type(source).__name__}")
        n = self.num_vertices
        if not 0 <= int(source) < n:
            raise IndexError(f"source vertex {int(source)} is out of range: valid ids are 0..{n - 1}")
        if math.isnan(cutoff) or cutoff < 0:
            raise ValueError(f"cutoff must be >= 0; got {cutoff}")
        real_type = _real_type(dtype, self._device)
        answer, solve = self.distance_dtype_for(dtype), self._solve_dtype(dtype)
        xp = np
        if self._device:
            import cupy as xp
        into = None  # the caller's distances, where the solve's are converted into them
        if out is not None:
            dist, pred = out
            if self._real_answers:
                on_device = _device_module(dist) is not None
                into = _as_cupy(dist) if on_device else dist
                if on_device != self._device or into.dtype != answer or into.shape != (n,):
                    raise ValueError(f"out: the distances must be a {'device' if self._device else 'host'} "
                                     f"array of {n} {answer} entries")
                dist = xp.empty(n, dtype=solve)
        else:
            dist = xp.empty(n, dtype=solve)
            pred = xp.empty(n, dtype=xp.uint32) if predecessors else None
        stream = 0
        if self._device:
            stream = xp.cuda.get_current_stream().ptr
        stats = self._core.run_into(int(source), dist, pred, strategy, device, float(delta), int(buckets),
                                    float(cutoff), int(threads), int(stream), hierarchy_file, driver, real_type)
        if self._real_answers:
            converted = _real_answer(dist, answer, into)
            dist = out[0] if out is not None else converted
        if self._device and getattr(self, "_torch", False) and out is None:
            import torch
            dist = torch.from_dlpack(dist)
            pred = torch.from_dlpack(pred) if pred is not None else None
        return SSSPResult(dist, pred, stats)

    def distance_matrix(self, sources, targets=None, *, strategy="multisplit", device="auto", cutoff=math.inf,
                        threads=0, out=None, return_stats=False, hierarchy=None, dtype=None, tune=None, **legacy):
        """Distances from every source to every target: a (len(sources), len(targets)) array, all
        vertices as targets when targets is None. Duplicate sources and targets are allowed.

        tune: a mapping of tuning keys (delta, driver, batch_size; TUNING's docs), which change
        how fast, never which distances; delta=, driver= and batch_size= as keywords are deprecated.

        Host graphs are solved by the batched many-source solver (C++ many_sources.hpp), built on
        first use and kept while the settings stay the same: on the GPU, tune['batch_size'] sources at once
        (rounded up to a multiple of 32; None = the largest batch that fits in half the free device
        memory, at most 4096) sharing one bucket bound and one arc read per vertex; on the CPU, one
        Dijkstra per source spread over `threads` threads (0 = all), batch_size (None = 256) rows
        at a time. strategy picks the device (a GPU strategy runs on the GPU when `device` allows
        it, as sssp does; 'cpu' and 'dijkstra' on the CPU) and, with 'phast', the method: a
        contraction hierarchy built once (stats['setup_ms']), then PHAST's sweep for batch_size
        sources at once (GPU) or one source a thread (CPU); hierarchy= keeps the hierarchy in a
        file, as in sssp (stats['setup']: 'built' or 'loaded'). tune['delta']: the GPU bucket
        width, 0 = automatic. cutoff: vertices farther than this are reported unreachable (a GPU
        batch stops once its bucket bound passes it, a CPU Dijkstra once the next vertex lies past
        it). A new cutoff keeps the solver (no upload, no new hierarchy); a new strategy, device,
        delta, threads, batch_size or hierarchy builds a new one (an upload of the graph; with
        'phast', a new hierarchy or a load of the file).
        tune['driver']: the GPU batch engine. 'auto' runs one thread block per source (each source
        Near-Far on its own, several per SM; an order of magnitude faster than the shared-bound
        batches on road networks, bench/results/block_driver.md) on graphs of mean out-degree
        below 6, and the vertex-major batches (one bucket bound and one arc read for 32 sources)
        on denser graphs, where they win; 'block' and 'steps' force one or the other;
        stats['driver'] says which ran; both run float32 and float64 distances.
        Device graphs (built from cupy or torch arrays) are solved one source at a time with
        sssp(strategy=..., tune=...) into the rows (the batched solver takes a host graph).

        Results: the graph's distance type (distance_dtype_for(dtype): uint32 or uint64 with all
        ones for unreachable, float64 or float32 with inf, also for float weights of whole numbers
        solved as integers; dtype as in sssp), a numpy array for host graphs, a cupy array (torch for a torch-built graph) for device graphs.
        `out`: a C-contiguous array to write into instead, of that type in host or device memory
        (cupy, torch: the GPU's blocks are copied device to device, never through the host), or
        float64 in host memory (unreachable = inf, scipy's convention). return_stats: also return
        a dict: batched, device, on_gpu, batch_size, batches, blocks, milliseconds, iterations,
        setup_ms (phast: the time the hierarchy took to build or load, once for this solver), setup.
        """
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        delta, driver, batch_size = _tuning(tune, legacy, _MATRIX_TUNING, "distance_matrix")
        hierarchy_file = _hierarchy_path(hierarchy, strategy)
        _check_device_and_cutoff(device, cutoff)
        n = self.num_vertices
        src = _vertex_list(sources, n, "source")
        tgt = None if targets is None else _vertex_list(targets, n, "target")
        columns = n if tgt is None else len(tgt)
        real_type = _real_type(dtype, self._device)
        asked, dtype = dtype, self.distance_dtype_for(dtype)
        if out is None:
            if self._device:
                import cupy
                out = cupy.empty((len(src), columns), dtype=dtype)
            else:
                out = np.empty((len(src), columns), dtype=dtype)
            torch_out = self._device and getattr(self, "_torch", False)
        else:
            torch_out = False
            if tuple(out.shape) != (len(src), columns):
                raise ValueError(f"out must have shape {(len(src), columns)}; got {tuple(out.shape)}")
            contiguous = out.is_contiguous() if _is_torch(out) else out.flags.c_contiguous
            if not contiguous:
                raise ValueError("out must be C-contiguous (the rows are written whole)")
        if len(src) == 0 or columns == 0:
            stats = {"batched": False, "solves": 0, "milliseconds": 0.0, "device": ""}
        elif self._device:
            stats = self._rows_one_by_one(src, tgt, out, strategy, device, delta, cutoff, threads, hierarchy,
                                          driver, asked)
        else:
            if _device_module(out) is not None:
                # The output's memory may still be in use by work queued on the caller's streams;
                # the solver copies into it on a stream of its own.
                import cupy
                cupy.cuda.runtime.deviceSynchronize()
            run_on = device if strategy in GPU_STRATEGIES else "cpu"
            xp = _device_module(out) or np
            solved = out  # the solver widens integers into a float64 host matrix itself
            if self._real_answers and not (xp is np and out.dtype == np.float64):
                if out.dtype != dtype:
                    raise ValueError(f"out must be of dtype {dtype} (or float64 in host memory); got {out.dtype}")
                solved = xp.empty(tuple(out.shape), dtype=self._solve_dtype(asked))
            stats = self._core.distance_matrix_into(src, tgt, solved, run_on, strategy == "phast", float(delta),
                                                    float(cutoff), int(threads), int(batch_size or 0),
                                                    hierarchy_file, driver, real_type)
            if solved is not out:
                _real_answer(solved, dtype, _as_cupy(out) if xp is not np else out)
        if torch_out:
            import torch
            out = torch.from_dlpack(out)
        return (out, stats) if return_stats else out

    def _reached_within(self, sources, cutoff, threads=0):
        """What each source reaches within a finite cutoff, by bounded Dijkstras on the host's
        threads (each costs its ball, not the graph): (offsets uint64, targets uint32, distances
        in the graph's distance type) numpy arrays, source i's vertices by id at
        offsets[i]:offsets[i + 1], distances equal to distance_matrix's. A host graph only."""
        src = _vertex_list(sources, self.num_vertices, "source")
        return self._core.reached_within(src, float(cutoff), int(threads), _real_type(None, self._device))

    def pair_distances(self, sources, targets, *, device="auto", threads=0, hierarchy=None, dtype=None):
        """The distances of the pairs (sources[i], targets[i]), a numpy array of len(sources).

        Solved on the contraction hierarchy (strategy 'phast': built on first use and kept with
        the solver distance_matrix(strategy='phast', device=device, threads=threads,
        hierarchy=hierarchy) would use, or loaded from the file `hierarchy=`) by its bidirectional
        query: an upward search from each end, meeting at the top, no row computed. On the GPU
        when that solver's sweeps run there (uint32 or float32 distances, a hierarchy without a
        core), a warp a pair; otherwise, and for pairs whose searches outgrow a warp's memory, on
        `threads` host threads (0 = all). Pairs of many different sources cost their two searches each (a few
        hundred vertices on a road network), where rows would cost a sweep of the graph per source.
        Duplicate pairs are allowed. The distances are the hierarchy's types: uint32 (all ones
        where unreachable) for integer weights, uint64 where their paths may pass 2^32 - 2,
        float32 (inf) for real weights with dtype=numpy.float32, float64 (inf) for float weights
        of whole numbers (solved as integers, then converted); float64 solves are refused
        with ValueError (sums through shortcuts would not be scipy's; distance_matrix solves them
        exactly)."""
        if self._device:
            raise ValueError("pair_distances reads a host graph (its hierarchy is built on the host)")
        if device not in ("auto", "gpu", "cpu"):
            raise ValueError(f"device must be 'auto', 'gpu' or 'cpu'; got {device!r}")
        n = self.num_vertices
        src = _vertex_list(sources, n, "source")
        tgt = _vertex_list(targets, n, "target")
        if len(src) != len(tgt):
            raise ValueError(f"{len(src)} sources for {len(tgt)} targets")
        real_type = _real_type(dtype, self._device)
        solve = self._solve_dtype(dtype)
        if solve == np.float64:
            raise ValueError("pair_distances: the hierarchy computes uint32, uint64 or float32 distances; this graph's "
                             "are float64 (dtype=numpy.float32 for real weights; distance_matrix for float64)")
        out = np.empty(len(src), dtype=solve)
        if len(src):
            self._core.pair_distances_into(src, tgt, out, device, int(threads), _hierarchy_path(hierarchy, "phast"),
                                           real_type)
        return _real_answer(out, self.distance_dtype_for(dtype)) if self._real_answers else out

    def row_summaries(self, sources=None, *, strategy="multisplit", device="auto", cutoff=math.inf, threads=0,
                      return_stats=False, hierarchy=None, dtype=None, tune=None):
        """Per source, over the vertices it reaches (within `cutoff`; the source itself included):
        how many, the sum of their distances and the farthest one, without the rows: a dict of
        numpy arrays of len(sources), 'reached' (int64), 'sum' and 'farthest'. sources None = every
        vertex (all pairs reduced). What closeness (reached - 1) / sum, mean distances and
        eccentricity (farthest) are made of.

        Solved as distance_matrix(sources, strategy=..., ...) solves (the same solver, kept between
        the calls), with every vertex a target: with strategy 'phast' on the GPU each batch is
        reduced where it lies instead of leaving as rows; every other solve reduces its rows as
        they come. Types: integer distances are summed exactly, 'sum' uint64 (an OverflowError
        names the source whose sum passes 2^64 - 1) and 'farthest' of the distance type (uint32 or
        uint64); real ones in float64, 'sum' float64 (the same from run to run; within 1e-12
        relative of another summation order), 'farthest' of the distance type (float64, or float32
        with dtype=numpy.float32); float weights of whole numbers (solved as integers) give float64
        sums and farthest. return_stats: also a dict (device, on_gpu, method, batch_size, batches,
        milliseconds, setup_ms, setup)."""
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        delta, driver, batch_size = _tuning(tune, {}, _MATRIX_TUNING, "row_summaries")
        _check_device_and_cutoff(device, cutoff)
        n = self.num_vertices
        src = np.arange(n, dtype=np.uint32) if sources is None else _vertex_list(sources, n, "source")
        answer = self.distance_dtype_for(dtype)
        if self._device:
            reached, sums, farthest, stats = self._summaries_by_rows(src, strategy, device, cutoff, threads,
                                                                     hierarchy, dtype, tune, answer)
        else:
            run_on = device if strategy in GPU_STRATEGIES else "cpu"
            reached, sums, farthest, stats = self._core.summarize_rows(
                src, run_on, strategy == "phast", float(delta), float(cutoff), int(threads), int(batch_size or 0),
                _hierarchy_path(hierarchy, strategy), driver, _real_type(dtype, self._device))
        result = {"reached": reached.astype(np.int64),
                  "sum": sums.astype(np.float64) if answer.kind == "f" else sums,
                  "farthest": farthest.astype(answer)}
        return (result, stats) if return_stats else result

    def _summaries_by_rows(self, src, strategy, device, cutoff, threads, hierarchy, dtype, tune, answer):
        """row_summaries on a device graph: distance_matrix's rows (one sssp each) in blocks,
        reduced on the device."""
        import cupy
        count = len(src)
        solve = cupy.dtype(answer)
        integral = solve.kind == "u"
        reached = np.zeros(count, dtype=np.uint64)
        sums = np.zeros(count, dtype=np.uint64 if integral else np.float64)
        farthest = np.zeros(count, dtype=np.uint64 if integral else np.float64)
        none = np.iinfo(solve).max if integral else np.inf
        rows = max(1, _SUMMARY_BLOCK_BYTES // max(1, self.num_vertices * solve.itemsize))
        total = 0.0
        for first in range(0, count, rows):
            part = src[first:first + rows]
            block, st = self.distance_matrix(part, strategy=strategy, device=device, cutoff=cutoff, threads=threads,
                                             hierarchy=hierarchy, dtype=dtype, tune=tune, return_stats=True)
            block = _as_cupy(block)
            hit = block != none
            wide = block.astype(cupy.uint64 if integral else cupy.float64)
            kept = cupy.where(hit, wide, wide.dtype.type(0))
            reached[first:first + len(part)] = cupy.asnumpy(hit.sum(axis=1))
            sums[first:first + len(part)] = cupy.asnumpy(kept.sum(axis=1))
            farthest[first:first + len(part)] = cupy.asnumpy(kept.max(axis=1))
            total += st["milliseconds"]
        stats = {"device": st["device"] if count else "", "on_gpu": True, "method": "rows one by one",
                 "batch_size": rows, "batches": (count + rows - 1) // rows, "milliseconds": total, "setup_ms": 0.0,
                 "setup": ""}
        return reached, sums, farthest, stats

    def _rows_one_by_one(self, sources, targets, out, strategy, device, delta, cutoff, threads, hierarchy, driver,
                         dtype):
        """distance_matrix on a device graph: one sssp per source, written into its row (through
        a row of all vertices when targets pick the columns)."""
        import cupy
        if _device_module(out) is None:
            raise ValueError("a device graph writes device memory: out must be a cupy or torch array")
        rows = _as_cupy(out)
        full = None if targets is None else cupy.empty(self.num_vertices, dtype=rows.dtype)
        picks = None if targets is None else cupy.asarray(targets.astype(np.int64))
        stats = {"batched": False, "solves": 0, "milliseconds": 0.0, "device": ""}
        for i, s in enumerate(sources):
            r = self.sssp(int(s), strategy, device=device, cutoff=cutoff, threads=threads, hierarchy=hierarchy,
                          dtype=dtype, tune={"delta": delta, "driver": driver},
                          out=(rows[i] if full is None else full, None))
            if full is not None:
                rows[i] = full[picks]
            stats["solves"] += 1
            stats["milliseconds"] += r.stats["milliseconds"]
            stats["device"] = r.stats["device"]
        return stats


def _weight_range(weight_range):
    lo, hi = (int(x) for x in weight_range)
    if not 0 <= lo <= hi < 2**32:
        raise ValueError(f"weight_range must be (lo, hi) with 0 <= lo <= hi < 2**32; got {tuple(weight_range)}")
    return lo, hi


def _stored_as_integers(given, stored):
    """Whether float weights `given` were stored as integers (choose_weights: all whole numbers)."""
    return given.dtype.kind == "f" and stored.dtype.kind == "u"


def _real_answer(a, dtype, into=None):
    """Integer distances `a` (uint32 or uint64, unreachable all ones; numpy or cupy) in the real
    type `dtype` (unreachable inf): a new array, or written into `into`. Each is the exact distance
    rounded once. How float weights stored as integers are answered, and scipy's convention."""
    unreachable = a == np.iinfo(a.dtype).max
    if into is None:
        into = a.astype(dtype)
    else:
        into[...] = a
    into[unreachable] = np.inf
    return into


def _host_array(a, dtype=None):
    """a as a C-contiguous, writable host array (the extension takes writable arrays only; pandas'
    copy-on-write columns and other read-only views are copied)."""
    a = np.ascontiguousarray(a, dtype=dtype)
    return a if a.flags.writeable else a.copy()


def device_rows(offsets):
    """The row of every arc of a CSR on the device (the last row whose offset is <= the arc)."""
    import cupy
    offsets = offsets.astype(cupy.int64)
    arcs = cupy.arange(int(offsets[-1]), dtype=cupy.int64)
    return cupy.searchsorted(offsets[1:], arcs, side="right").astype(cupy.int64)


def _check_device_and_cutoff(device, cutoff):
    """The many-source calls' device= and cutoff= checked (ValueError)."""
    if device not in ("auto", "gpu", "cpu"):
        raise ValueError(f"device must be 'auto', 'gpu' or 'cpu'; got {device!r}")
    if math.isnan(cutoff) or cutoff < 0:
        raise ValueError(f"cutoff must be >= 0; got {cutoff}")


def _tuning(tune, legacy, keys, where):
    """The values of `keys` from tune= (a mapping) and the deprecated flat keywords (legacy),
    checked, defaults filled in from TUNING, in the order of keys."""
    unknown = set(legacy) - set(keys)
    if unknown:
        raise TypeError(f"{where}() got an unexpected keyword argument {sorted(unknown)[0]!r}")
    if tune is None:
        tune = {}
    elif not hasattr(tune, "keys"):
        raise TypeError(f"tune must be a mapping of tuning keys ({', '.join(keys)}); got {type(tune).__name__}")
    wrong = set(tune) - set(keys)
    if wrong:
        raise ValueError(f"unknown tuning key {sorted(wrong)[0]!r} for {where}; expected some of {', '.join(keys)}")
    if legacy:
        import warnings
        warnings.warn(f"{where}({', '.join(f'{k}=' for k in legacy)}): pass tuning as tune={{...}}; the flat "
                      "keywords are deprecated", DeprecationWarning, stacklevel=3)
        both = set(legacy) & set(tune)
        if both:
            raise TypeError(f"{sorted(both)[0]!r} given both as a keyword and in tune=")
    values = {k: TUNING[k] for k in keys}
    values.update(tune)
    values.update(legacy)
    delta = values.get("delta")
    if "delta" in keys and (not _is_number(delta) or not math.isfinite(delta) or delta < 0):
        raise ValueError(f"delta must be a number >= 0 (0 = automatic); got {delta!r}")
    buckets = values.get("buckets")
    if "buckets" in keys and (not _is_integer(buckets) or not 0 < buckets < 2**32):
        raise ValueError(f"buckets must be a positive integer; got {buckets!r}")
    if "driver" in keys:
        _check_driver(values["driver"])
    batch_size = values.get("batch_size")
    if batch_size is not None and (not _is_integer(batch_size) or not 0 < batch_size < 2**32):
        raise ValueError(f"batch_size must be a positive integer or None; got {batch_size!r}")
    return tuple(values[k] for k in keys)


def _is_integer(x):
    """x is an integer (Python or numpy), not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _is_number(x):
    """x is a real number (Python or numpy, integer or float), not a bool."""
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def _check_driver(driver):
    if not isinstance(driver, str) or driver not in DRIVERS:
        raise ValueError(f"unknown driver {driver!r}; expected one of {', '.join(DRIVERS)}")


def _hierarchy_path(hierarchy, strategy):
    """The hierarchy= keyword as the C++ option's path ("" for None); it goes with phast only."""
    if hierarchy is None:
        return ""
    if strategy != "phast":
        raise ValueError(f"hierarchy= is phast's contraction hierarchy file; strategy {strategy!r} builds none")
    path = os.fspath(hierarchy)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not path:
        raise ValueError("hierarchy= must name a file (or be None)")
    return path


def _vertex_list(values, n, what):
    """Vertex ids (a 1-D sequence or array of integers, host or device) as a host uint32 array,
    every one checked against 0..n-1."""
    a = _as_cupy(values).get() if _device_module(values) is not None else np.asarray(values)
    if a.ndim != 1:
        raise ValueError(f"{what}s must be a one-dimensional list of vertex ids; got shape {a.shape}")
    if a.size and a.dtype.kind not in "iu":
        raise TypeError(f"{what}s must be integer vertex ids; got dtype {a.dtype}")
    if a.size:
        bad = a[(a < 0) | (a >= n)]
        if bad.size:
            raise IndexError(f"{what} vertex {int(bad[0])} is out of range: valid ids are 0..{n - 1}")
    return _host_array(a, np.uint32)


def _check_index_array(a, name):
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got shape {a.shape}")
    if a.size and a.dtype.kind not in "iu":
        raise TypeError(f"{name} must be an integer array; got dtype {a.dtype}")
