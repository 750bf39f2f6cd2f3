"""deltasplit.dask: many-source shortest paths spread over a Dask cluster (dask.distributed).

The rows of a distance matrix (one per source) are cut into blocks of ``block_size`` sources; each
block is one Dask task, run on a worker by ``Graph.distance_matrix`` (the GPU batches on a worker
with a GPU, the CPU's Dijkstra per source otherwise). The scheduler, its retries, its dashboard and
the workers' resources are Dask's own: nothing here schedules.

The graph
    ``graph`` is a graph file path (every worker reads the same path: a shared file system), a
    host ``deltasplit.Graph``, or its CSR arrays ``(offsets, targets, weights)``. A Graph's arrays
    are scattered to the workers once (``client.scatter(broadcast=True)``), never sent with a
    task. Each worker builds the Graph once and keeps it resident, keyed by the graph's content
    hash (``graph_hash``: the cleaned CSR's bytes), so every later block, and every later call on
    the same graph, reuses it with its solver (and, with ``strategy='phast'``, its contraction
    hierarchy, built once per worker). The client reads the graph too: its size checks the sources
    and targets, its hash marks the output. A worker that reads a file whose content differs from
    the client's fails the task with a message naming the file.

Workers and devices
    When any worker advertises a ``GPU`` resource (``dask cuda worker --nthreads 2``, or
    ``LocalCluster(threads_per_worker=2, resources={'GPU': 1})``), every block asks for half a GPU
    (``BLOCKS_PER_GPU``): a GPU worker with two threads runs two blocks at a time on its GPU, their
    solves one after the other, one block's hand-over and reduction beside the next one's solve
    (with one thread, one block at a time), its solver's host work on the host's cores shared
    among the GPUs the worker sees, and ``reduce`` reduces each block in device memory (with cupy,
    where it is installed), copying back only the per-source and per-target results. Otherwise
    blocks run on the CPU path (even on a machine with a GPU), each worker's solver using as many
    threads as the worker has (its ``nthreads``).

Outputs (``out=``)
    * ``None``: a numpy array in the client's memory (small problems);
      ``distance_array`` gives the same matrix as a lazy dask array, one chunk per block.
    * A Zarr group (a path ending ``.zarr``, a ``zarr.Group``, or a store every worker can reach;
      an in-memory store is refused): array ``distances`` (rows = sources, columns = targets),
      ``sources`` and ``targets`` (the ids, plus ``id_offset``), ``done`` (one byte per block).
      Chunks hold ``block_size`` rows, so a block writes whole chunks that no other block touches:
      no locks.
    * Parquet (a path ending ``.parquet``): a dataset folder, one file per block
      (``block-000017.parquet``) in long format: columns ``source``, ``target``, ``distance``, one
      row per reachable pair (within ``limit`` when given). ``pandas.read_parquet(folder)`` and
      ``pyarrow.dataset`` read it (they skip the ``_deltasplit.json`` metadata file beside).
    Distances are in the graph's type (``Graph.distance_dtype``) unless ``dtype`` asks for another
    that holds them exactly: uint32 or uint64 with all ones for unreachable (integer weights),
    float64 or float32 with inf (float64 also for uint32 distances; float32 solves a real graph in
    single precision, the GPU's type). ``limit``: pairs farther than it are unreachable (``Graph.distance_matrix``'s
    cutoff; the solves stop there).

Reductions (``reduce``)
    Per-source and per-target sums (of reachable distances), minima, counts of reachable targets
    (within ``limit``) and per-source closeness, computed on the workers block by block and
    combined pairwise on the workers: the matrix is never materialised. Closeness is
    Wasserman and Faust's (networkx.closeness_centrality with wf_improved=True) over the targets:
    with r targets other than the source reached at total distance S, out of T targets other than
    the source, closeness = (r / T) * (r / S), and 0 when S = 0. It uses distances *from* the
    source: networkx's on an undirected graph, and on ``G.reverse()`` for a directed one.

Row summaries (``row_summaries``)
    ``Graph.row_summaries`` of every source (all vertices when ``sources`` is None) on the
    workers, a block of sources a task: per source the vertices it reaches within ``limit``, the
    sum of their distances and the farthest, without any row leaving the worker's solver (with
    ``strategy='phast'`` on a GPU worker, not even its engine), so a block can hold many more
    sources than a block of rows (``SUMMARY_BLOCK_ROWS``). Only these three numbers a source come
    back to the client.

Nothing lost, and resuming
    Blocks are submitted with Dask's ``retries``; a block lost with a worker is rerun by the
    scheduler. A block's write is idempotent (the same region, the same values) and is marked done
    only after its data are written: the Zarr block sets its byte of ``done``; the Parquet block
    writes a hidden temporary file and renames it into place (the file's presence is the mark).
    A run interrupted at any point (a worker killed, the client stopped) and started again with
    the same ``out`` skips the blocks marked done and says how many (``Run.skipped``, and the
    progress line). Before any work, ``distance_matrix`` refuses bad sources or targets (out of
    range, not integers) and an existing ``out`` made for another graph, other sources, targets,
    dtype, limit or block size (the store's attributes record them), or holding something that is
    not a deltasplit output.

Progress
    Dask's dashboard shows the tasks as usual (``client.dashboard_link``); ``progress=True`` also
    prints a line to standard error as blocks finish.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import threading
from collections import OrderedDict, namedtuple
from typing import Any, Optional

import numpy as np

from . import _core
from ._graph import STRATEGIES, Graph, _is_integer, _is_number, _real_answer, _vertex_list

__all__ = ["distance_matrix", "distance_array", "reduce", "row_summaries", "local_cluster", "graph_hash", "Run",
           "Reductions"]

FORMAT_VERSION = 1
METADATA_FILE = "_deltasplit.json"  # in a Parquet folder; readers skip names starting with "_"
# A worker keeps the last few graphs it solved on (with their solvers); older ones are dropped so
# that a long-lived worker does not accumulate every graph it ever saw.
RESIDENT_GRAPHS = 2
# Default block size: at most this many rows, at most this many bytes a block (held about twice on
# a worker: the solver's rows and the written or converted copy; 256 MiB keeps a GPU batch of a
# few hundred road-network sources in one block), and at least two blocks a worker so that the
# scheduler can balance them. docs/scaling-out.md has the rule for choosing one by hand.
MAX_BLOCK_ROWS = 1024
MAX_BLOCK_BYTES = 256 << 20
# row_summaries' default block: at most this many sources (and at least two blocks a worker). Its
# rows never leave the worker's solver, so only balance bounds it: a block of PHAST's GPU batches
# is then eight of its automatic batches, its first batch's upward searches (which no sweep hides)
# a small part of it. A choice, not measured on a cluster.
SUMMARY_BLOCK_ROWS = 65536
# reduce combines the blocks' results this many at a time, on the workers: each Dask task costs
# milliseconds of scheduling, so fewer, wider combines leave more of the run to the solves
# (bench/results/dask.md).
COMBINE_FAN_IN = 16
# Zarr chunks are block_size rows by as many columns as fit in this many bytes.
CHUNK_BYTES = 16 << 20
# A GPU worker runs up to this many blocks at once (each block asks for 1/BLOCKS_PER_GPU of its
# GPU resource; the worker needs as many threads): their solves take turns under the resident
# graph's lock, and one block's hand-over and reduction run beside the next one's solve. One at a
# time left the Dask path behind a direct loop of the same blocks; two at once put it ahead of it
# (bench/results/dask.md, two blocks at a time on one GPU).
BLOCKS_PER_GPU = 2

# local_cluster's Dask settings: every process's event-loop blockage check (the tick) ten times
# rarer than Dask's default, and no statistical profiler on the workers (a stack sample taken many
# times a second). With Dask's defaults the two take about a fifth of a core on an idle cluster of
# two one-thread workers, which a machine of few cores takes from the solves (bench/results/dask.md,
# Dask's own work on a small machine).
QUIET_DASK = {"distributed.admin.tick.interval": "200ms", "distributed.worker.profile.enabled": False}

Run = namedtuple("Run", ["out", "blocks", "skipped", "written"])
Run.__doc__ = """What distance_matrix did with an `out` store: blocks in the whole matrix, blocks
skipped because an earlier run had finished them, and blocks written by this run."""

Reductions = namedtuple("Reductions", ["source_sum", "source_min", "source_count", "closeness",
                                       "target_sum", "target_min", "target_count"])
Reductions.__doc__ = """reduce's result, one entry per source (source_*) or per target (target_*):
sums of reachable distances (uint64 for integer distances, float64 for real), minima (the distance
type; unreachable = all ones or inf), counts of reachable targets within the limit (int64) and
Wasserman-Faust closeness (float64, see the module's docstring)."""


# -- the graph, on the client and on the workers ----------------------------------------------

def graph_hash(graph: Graph) -> str:
    """The content hash of a host Graph: its vertex count and cleaned CSR arrays (blake2b). Two
    graphs with the same hash have the same arcs and weights, whatever file or arrays they came
    from."""
    offsets, targets, weights = graph.arrays()
    h = hashlib.blake2b(digest_size=16)
    h.update(f"deltasplit csr {graph.num_vertices} {weights.dtype.str}".encode())
    for a in (offsets, targets, weights):
        h.update(np.ascontiguousarray(a).data)
    return h.hexdigest()


_resident: "OrderedDict[str, tuple[Graph, threading.Lock]]" = OrderedDict()
_resident_lock = threading.Lock()

# The client keeps the graph files it planned on, with their hashes, as the workers keep theirs:
# a second call on the same, unchanged file (path, size, modification time, inode, weight seed)
# reads and hashes nothing. A changed file is read again.
_planned: "OrderedDict[tuple, tuple[Graph, str]]" = OrderedDict()
_planned_lock = threading.Lock()


def _planned_graph(path, weight_seed):
    """The Graph of a file and its content hash, from the client's cache when the file is unchanged."""
    try:
        st = os.stat(path)
    except OSError:  # the reader's own error names the file and the reason
        graph = Graph.from_file(path, weight_seed=weight_seed)
        return graph, graph_hash(graph)
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns, st.st_ino, weight_seed)
    with _planned_lock:
        entry = _planned.get(key)
        if entry is None:
            graph = Graph.from_file(path, weight_seed=weight_seed)
            entry = _planned[key] = (graph, graph_hash(graph))
            while len(_planned) > RESIDENT_GRAPHS:
                _planned.popitem(last=False)
        _planned.move_to_end(key)
        return entry


def _graph_from_source(source):
    """Builds the Graph a block's task was given: ("file", path, weight_seed) or
    ("arrays", n, offsets, targets, weights) of a cleaned CSR (rebuilt as it is, with its weight
    type: no re-cleaning, no new choice of weight type)."""
    if source[0] == "file":
        return Graph.from_file(source[1], weight_seed=source[2])
    _, n, offsets, targets, weights = source
    return Graph(_core.from_csr_arrays(n, offsets, targets, weights, symmetric=False))


def _resident_graph(key, source):
    """The worker's Graph for this content hash, built on first use and kept, with a lock: one
    solve at a time on it, as its solvers keep state between calls. The graph is built under the
    cache's lock, so that a worker's threads never build the same graph twice."""
    with _resident_lock:
        entry = _resident.get(key)
        if entry is None:
            graph = _graph_from_source(source)
            found = graph_hash(graph)
            if found != key:
                where = source[1] if source[0] == "file" else "the scattered arrays"
                raise ValueError(f"{where}: the graph read on this worker differs from the client's (content "
                                 f"hash {found} against {key}); every worker must see the same graph file")
            entry = _resident[key] = (graph, threading.Lock())
            while len(_resident) > RESIDENT_GRAPHS:
                _resident.popitem(last=False)
        _resident.move_to_end(key)
        return entry


def _worker_threads(device):
    """The host threads a block's solver uses. A CPU worker: the threads it was given (0 = every
    core, outside a worker). A GPU worker (one per GPU): the host's cores shared among the GPUs it
    sees, for the solver's host work (PHAST's upward searches), since dask-cuda workers are given
    one thread each."""
    if device != "cpu":
        visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
        gpus = len([d for d in visible.split(",") if d.strip()]) or 1
        return max(1, (os.cpu_count() or 1) // gpus)
    try:
        from distributed import get_worker
        return int(get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):
        return 0


def _device_module(device):
    """cupy when a GPU block's rows can stay in device memory (cupy importable, a GPU usable),
    else None (the rows come to host memory)."""
    if device == "cpu":
        return None
    try:
        import cupy
    except ImportError:
        return None
    return cupy if _core.gpu_available()[0] else None


def _host(block):
    """A block's rows in host memory."""
    return block.get() if hasattr(block, "get") else block


def _convert(block, dtype):
    """A block (numpy or cupy) in the type it was solved in widened to dtype; unreachable stays
    unreachable (all ones, or inf)."""
    if block.dtype == dtype:
        return block
    if block.dtype.kind == "u" and dtype.kind == "f":
        return _real_answer(block, dtype)
    if block.dtype.kind == "u":
        wide = block.astype(dtype)
        wide[block == np.iinfo(block.dtype).max] = np.iinfo(dtype).max
        return wide
    return block.astype(dtype)


def _solve(source, key, sources, targets, settings, keep_on_device=False):
    """A block's distances on a worker: the resident graph's distance_matrix in settings' dtype.
    With keep_on_device, a GPU block is written into a cupy array and stays there."""
    graph, lock = _resident_graph(key, source)
    device = settings.get("device", "auto")
    xp = _device_module(device) if keep_on_device else None
    columns = graph.num_vertices if targets is None else len(targets)
    with lock:
        out = None
        single = np.float32 if settings["solve_dtype"] == "float32" else None
        if xp is not None:
            out = xp.empty((len(sources), columns), dtype=graph.distance_dtype_for(single))
        block = graph.distance_matrix(sources, targets, strategy=settings["strategy"], device=device,
                                      cutoff=settings["cutoff"], threads=_worker_threads(device), out=out,
                                      dtype=single)
    return _convert(block, np.dtype(settings["dtype"]))


def _run_block(source, key, targets, settings, sink, index, start, sources):
    """One Dask task: solve the block's sources, hand the rows to the sink (which writes them or
    reduces them) and return what the sink returns. Reductions take the rows where they were
    solved (device memory on a GPU worker with cupy); every other sink takes them in host memory."""
    reduce_here = isinstance(sink, _ReduceSink)
    block = _solve(source, key, sources, targets, settings, keep_on_device=reduce_here)
    return sink.take(index, start, sources, targets, block if reduce_here else _host(block))


def _summarize_block(source, key, targets, settings, sink, index, start, sources):
    """One Dask task of row_summaries (_run_block's arguments; targets and sink unused): the
    resident graph's row summaries of the block's sources, with where they go."""
    graph, lock = _resident_graph(key, source)
    device = settings.get("device", "auto")
    with lock:
        got = graph.row_summaries(sources, strategy=settings["strategy"], device=device, cutoff=settings["cutoff"],
                                  threads=_worker_threads(device),
                                  dtype=np.float32 if settings["solve_dtype"] == "float32" else None)
    return start, got


# -- sinks: what a block does with its rows ---------------------------------------------------

class _Gather:
    """Returns the block's rows, with where they go, to the client."""

    def take(self, index, start, sources, targets, block):
        return start, block


class _ZarrSink:
    """Writes the block's rows (whole chunks: a chunk is block_size rows), then its done byte."""

    def __init__(self, distances, done):
        self.distances = distances
        self.done = done

    def take(self, index, start, sources, targets, block):
        self.distances[start:start + len(block)] = block
        self.done[index] = 1
        return index


class _ParquetSink:
    """Writes the block's reachable pairs as one Parquet file: a hidden temporary name first, then
    an atomic rename, so a present file is a complete one."""

    def __init__(self, folder, id_offset, limit):
        self.folder = folder
        self.id_offset = id_offset
        self.limit = limit

    def take(self, index, start, sources, targets, block):
        import pyarrow as pa
        import pyarrow.parquet as pq
        rows, cols = np.nonzero(_reached(block, self.limit))
        targets = np.arange(block.shape[1]) if targets is None else targets
        table = pa.table({"source": np.asarray(sources, dtype=np.uint64)[rows] + self.id_offset,
                          "target": np.asarray(targets, dtype=np.uint64)[cols] + self.id_offset,
                          "distance": block[rows, cols]})
        name = _parquet_name(index)
        temporary = os.path.join(self.folder, f".{name}.{os.getpid()}.{threading.get_ident()}.tmp")
        pq.write_table(table, temporary)
        os.replace(temporary, os.path.join(self.folder, name))
        return index


class _ReduceSink:
    """Reduces the block on the worker to per-source values (for its rows) and per-target partial
    sums, minima and counts (for every column)."""

    def __init__(self, limit):
        self.limit = limit

    def take(self, index, start, sources, targets, block):
        """The block's reductions, computed where the block is (numpy, or cupy for a block kept in
        device memory: one arithmetic for both) and returned in host memory."""
        xp = np if isinstance(block, np.ndarray) else __import__("cupy")
        reached = _reached(block, self.limit, xp)
        wide = np.uint64 if block.dtype.kind == "u" else np.float64
        # The block's own type throughout (the sums accumulate in the wide type): a widened copy
        # of a block of hundreds of MiB costs more than the reductions themselves. Without a
        # limit, the unreachable entries already hold the type's unreachable value.
        unreachable = np.iinfo(block.dtype).max if block.dtype.kind == "u" else np.inf
        values = xp.where(reached, block, block.dtype.type(0))
        masked = block if self.limit is None else xp.where(reached, block, block.dtype.type(unreachable))
        row_sum = _host(values.sum(axis=1, dtype=wide))
        row_count = _host(reached.sum(axis=1)).astype(np.int64)
        # Closeness leaves out the source's own column (distance 0): it is neither reached nor
        # counted among the targets.
        own = _self_columns(np.asarray(sources), None if targets is None else _host(targets))
        has_own = own >= 0
        own_reached = np.zeros(len(sources), dtype=bool)
        rows = np.nonzero(has_own)[0]
        if len(rows):
            own_reached[has_own] = _host(reached[xp.asarray(rows), xp.asarray(own[has_own])])
        others = block.shape[1] - has_own.astype(np.int64)
        r = row_count - own_reached
        total = row_sum.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            closeness = np.where((total > 0) & (others > 0), (r / np.maximum(others, 1)) * (r / total), 0.0)
        row_min = _host(masked.min(axis=1)) if block.shape[1] else np.full(len(sources), unreachable, block.dtype)
        per_source = {start: (row_sum, row_min, row_count, closeness)}
        return (per_source, _host(values.sum(axis=0, dtype=wide)), _host(masked.min(axis=0)),
                _host(reached.sum(axis=0, dtype=np.int64)))


def _combine(*parts):
    """Several blocks' reductions as one (run on a worker)."""
    per_source = {}
    for p in parts:
        per_source.update(p[0])
    first = parts[0]
    t_sum, t_min, t_count = first[1].copy(), first[2].copy(), first[3].copy()
    for p in parts[1:]:
        t_sum += p[1]
        np.minimum(t_min, p[2], out=t_min)
        t_count += p[3]
    return (per_source, t_sum, t_min, t_count)


def _self_columns(sources, targets):
    """The column of each source among the targets: -1 where it is not one, the first where a
    target is repeated (the stable sort keeps repeats in column order, searchsorted finds the
    leftmost)."""
    if targets is None:
        return sources.astype(np.int64)
    if len(targets) == 0:
        return np.full(len(sources), -1, dtype=np.int64)
    order = np.argsort(targets, kind="stable")
    ranked = targets[order]
    at = np.minimum(np.searchsorted(ranked, sources), len(ranked) - 1)
    return np.where(ranked[at] == sources, order[at], -1).astype(np.int64)


def _reached(block, limit, xp=np):
    """True where a distance is reachable (and within limit); xp: the block's array module."""
    ok = xp.isfinite(block) if block.dtype.kind == "f" else block != np.iinfo(block.dtype).max
    if limit is not None:
        ok &= block <= limit
    return ok


def _parquet_name(index):
    return f"block-{index:06d}.parquet"


# -- the plan: inputs checked and the store opened before any work ----------------------------

class _Plan:
    """A run's inputs, checked: the graph (loaded on the client for its size and hash), the
    sources and targets, the distance type, the limit and the blocks."""

    def __init__(self, graph, sources, targets, limit, dtype, block_size, strategy, weight_seed, workers,
                 rows_kept=True):
        if isinstance(graph, (str, os.PathLike)):
            path = os.fspath(graph)
            g, self.key = _planned_graph(path, weight_seed)
            self.source: tuple = ("file", os.path.abspath(path), weight_seed)
        else:
            if isinstance(graph, tuple):
                g = Graph.from_arrays(*graph)
            elif isinstance(graph, Graph):
                g = graph
            else:
                raise TypeError("graph must be a graph file path, a deltasplit.Graph or its CSR arrays "
                                f"(offsets, targets, weights); got {type(graph).__name__}")
            if g.on_device:
                raise ValueError("a Graph on the device cannot be sent to workers: build it from host arrays")
            self.source = ("arrays", g.num_vertices, *g.arrays())
            self.key = graph_hash(g)
        self.graph = g
        n = g.num_vertices
        self.sources = np.arange(n, dtype=np.uint32) if sources is None else _vertex_list(sources, n, "source")
        self.targets = None if targets is None else _vertex_list(targets, n, "target")
        self.columns = n if self.targets is None else len(self.targets)
        # The type the blocks are solved in: the graph's (uint32 or uint64; float64 for real
        # weights), float32 when asked for on a real graph; then widened to dtype where exact.
        asked = None if dtype is None else np.dtype(dtype)
        native = g.distance_dtype_for(np.float32 if asked == np.float32 and g.weight_kind == "real" else None)
        self.dtype = native if asked is None else asked
        allowed = {"uint32": ("uint32", "uint64", "float64"), "uint64": ("uint64",), "float32": ("float32", "float64"),
                   "float64": ("float64",)}[native.name]
        if self.dtype.name not in allowed:
            raise ValueError(f"dtype {self.dtype.name} cannot hold this graph's {native.name} distances "
                             f"exactly; use one of {', '.join(allowed)}")
        if limit is not None and (not _is_number(limit) or math.isnan(limit) or limit < 0):
            raise ValueError(f"limit must be a number >= 0 or None; got {limit!r}")
        self.limit = None if limit is None else float(limit)
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        self.settings = {"strategy": strategy, "dtype": self.dtype.name, "solve_dtype": native.name,
                         "cutoff": math.inf if limit is None else float(limit)}
        rows = len(self.sources)
        if block_size is None:
            spread = -(-rows // (2 * max(1, workers)))
            if rows_kept:
                fit = MAX_BLOCK_BYTES // max(1, self.columns * self.dtype.itemsize)
                block_size = max(1, min(MAX_BLOCK_ROWS, fit, spread))
            else:
                block_size = max(1, min(SUMMARY_BLOCK_ROWS, spread))
        elif not _is_integer(block_size) or block_size < 1:
            raise ValueError(f"block_size must be a positive integer or None; got {block_size!r}")
        self.block_size = int(block_size)
        self.blocks = -(-rows // self.block_size)

    def record(self, id_offset):
        """What an output store records, and compares when it is opened again."""
        return {"format": FORMAT_VERSION, "graph": self.key, "num_vertices": self.graph.num_vertices,
                "num_sources": len(self.sources), "sources": _ids_hash(self.sources),
                "num_targets": self.columns, "targets": None if self.targets is None else _ids_hash(self.targets),
                "dtype": self.dtype.name, "limit": self.limit, "block_size": self.block_size,
                "id_offset": int(id_offset)}

    def block_starts(self):
        return range(0, len(self.sources), self.block_size)


def _ids_hash(ids):
    return hashlib.blake2b(np.ascontiguousarray(ids, dtype=np.uint32).data, digest_size=16).hexdigest()


_MEANING = {"graph": "another graph (content hash)", "num_vertices": "a graph of another size",
            "sources": "other sources", "num_sources": "another number of sources", "targets": "other targets",
            "num_targets": "another number of targets", "dtype": "another distance type", "limit": "another limit",
            "block_size": "another block size", "id_offset": "another id numbering", "format": "another format version"}


def _check_record(where, found, wanted):
    """Refuses an existing output made for other inputs, naming the first difference."""
    for name, value in wanted.items():
        if found.get(name) != value:
            raise ValueError(f"{where} was made for {_MEANING[name]} ({name} {found.get(name)!r}, this run "
                             f"{value!r}); use another output, or delete it to start over")


def _adopt_block_size(plan, found, explicit):
    """Resuming without an explicit block_size takes the store's, so its done marks line up."""
    if not explicit and isinstance(found.get("block_size"), int) and found["block_size"] > 0:
        plan.block_size = found["block_size"]
        plan.blocks = -(-len(plan.sources) // plan.block_size)


def _open_zarr(out, plan, id_offset, explicit_block_size):
    """The output group, created or checked; returns (sink, blocks already done)."""
    import zarr
    if isinstance(out, zarr.Group):
        group = out
    else:
        if isinstance(out, (str, os.PathLike)) and os.path.exists(out) and not os.path.isdir(out):
            raise ValueError(f"{os.fspath(out)} exists and is not a Zarr group; refusing to overwrite it")
        group = zarr.open_group(out, mode="a")
    if isinstance(group.store, zarr.storage.MemoryStore):
        raise ValueError("out is an in-memory Zarr store, which the workers cannot write (each gets a copy); "
                         "use a path or a store every worker can reach")
    where = str(out) if isinstance(out, (str, os.PathLike)) else str(group.store_path)
    found = group.attrs.asdict().get("deltasplit")
    members = list(group.keys())
    if found is None:
        if members or group.attrs.asdict():
            raise ValueError(f"{where} holds a Zarr group that is not a deltasplit output; refusing to write into it")
        record = plan.record(id_offset)
        rows, cols = len(plan.sources), plan.columns
        col_chunk = max(1, min(max(cols, 1), CHUNK_BYTES // (plan.block_size * plan.dtype.itemsize)))
        unreachable = np.inf if plan.dtype.kind == "f" else np.iinfo(plan.dtype).max
        group.create_array("distances", shape=(rows, cols), dtype=plan.dtype, chunks=(plan.block_size, col_chunk),
                           fill_value=unreachable, dimension_names=("source", "target"))
        group.create_array("done", shape=(plan.blocks,), dtype=np.uint8, chunks=(1,), fill_value=0)
        ids = np.arange(plan.graph.num_vertices) if plan.targets is None else plan.targets
        group.create_array("sources", data=plan.sources.astype(np.uint64) + id_offset)
        group.create_array("targets", data=np.asarray(ids, dtype=np.uint64) + id_offset)
        # The attributes last: a group with them is complete.
        group.attrs["deltasplit"] = record
    else:
        _adopt_block_size(plan, found, explicit_block_size)
        _check_record(where, found, plan.record(id_offset))
        distances = group["distances"]
        if tuple(distances.shape) != (len(plan.sources), plan.columns) or distances.dtype != plan.dtype:
            raise ValueError(f"{where}: its distances are {tuple(distances.shape)} {distances.dtype}, this run's "
                             f"{(len(plan.sources), plan.columns)} {plan.dtype}")
    done = np.nonzero(group["done"][:])[0]
    return _ZarrSink(group["distances"], group["done"]), set(int(b) for b in done)


def _open_parquet(out, plan, id_offset, explicit_block_size):
    folder = os.fspath(out)
    meta = os.path.join(folder, METADATA_FILE)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ValueError(f"{folder} exists and is not a folder; refusing to overwrite it")
    if os.path.isdir(folder) and os.listdir(folder):
        if not os.path.exists(meta):
            raise ValueError(f"{folder} is not empty and holds no {METADATA_FILE}: not a deltasplit output; "
                             "refusing to write into it")
        try:
            with open(meta) as f:
                found = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError(f"{meta}: cannot read it ({e})") from e
        _adopt_block_size(plan, found, explicit_block_size)
        _check_record(folder, found, plan.record(id_offset))
    else:
        os.makedirs(folder, exist_ok=True)
        temporary = meta + ".tmp"
        with open(temporary, "w") as f:
            json.dump(plan.record(id_offset), f, indent=1)
        os.replace(temporary, meta)
    done = {b for b in range(plan.blocks) if os.path.exists(os.path.join(folder, _parquet_name(b)))}
    return _ParquetSink(folder, id_offset, plan.limit), done


def _output_kind(out):
    if isinstance(out, (str, os.PathLike)):
        name = os.fspath(out).rstrip("/")
        if name.endswith(".zarr"):
            return "zarr"
        if name.endswith(".parquet"):
            return "parquet"
        raise ValueError(f"out {name!r}: a path must end in .zarr or .parquet")
    return "zarr"  # a zarr.Group or a store: zarr.open_group says when it is neither


# -- running the blocks on the cluster --------------------------------------------------------

def local_cluster(n_workers: Optional[int] = None, threads_per_worker: Optional[int] = None, *, quiet: bool = True,
                  **kwargs: Any) -> Any:
    """A ``distributed.LocalCluster`` of worker processes on this machine for deltasplit's blocks
    (keyword arguments go to LocalCluster). With quiet (the default), Dask's own diagnostics are
    turned down for the cluster's processes (QUIET_DASK: the event-loop check ten times rarer, no
    profiler; the dashboard's Profile page stays empty), which leaves the machine's cores to the
    solves; quiet=False keeps Dask's defaults."""
    import dask
    from distributed import LocalCluster
    with dask.config.set(QUIET_DASK if quiet else {}):
        return LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker, processes=True, **kwargs)


def _client(client):
    from distributed import default_client
    return client if client is not None else default_client()


def _workers(client):
    """Every worker's information (newer distributed lists only a few unless asked for all)."""
    try:
        return client.scheduler_info(n_workers=-1)["workers"]
    except TypeError:
        return client.scheduler_info()["workers"]


def _resources(client):
    """A share of a GPU (1 / BLOCKS_PER_GPU) when any worker has a GPU resource: blocks then run on
    the GPU workers, up to BLOCKS_PER_GPU at a time each (as many as its threads allow)."""
    has_gpu = any(w.get("resources", {}).get("GPU", 0) > 0 for w in _workers(client).values())
    return {"GPU": 1 / BLOCKS_PER_GPU} if has_gpu else None


def _scatter(client, plan):
    """The graph's arrays (when it is not a file every worker reads) and the targets, as futures of
    data placed on every worker once, which the tasks then take by reference."""
    source, targets = plan.source, plan.targets
    if source[0] == "arrays":
        [source] = client.scatter([source], broadcast=True, hash=False)
    if targets is not None:
        [targets] = client.scatter([targets], broadcast=True, hash=False)
    return source, targets


def _run(client, plan, sink, skip, retries, progress, on_result, task=None):
    """Submits every block not in skip (task: _run_block, or another function of its arguments);
    calls on_result(future, pending) as each block, or each task that on_result adds to pending,
    finishes. Returns the number of blocks run."""
    task = task or _run_block
    from distributed import as_completed
    source, targets = _scatter(client, plan)
    resources = _resources(client)
    plan.settings["device"] = "auto" if resources else "cpu"
    futures = [client.submit(task, source, plan.key, targets, plan.settings, sink, index, start,
                             plan.sources[start:start + plan.block_size], retries=retries, resources=resources,
                             pure=False)
               for index, start in enumerate(plan.block_starts()) if index not in skip]
    blocks = {f.key for f in futures}
    line = _ProgressLine(len(futures), len(skip), progress, getattr(client, "dashboard_link", None))
    pending = as_completed(futures)
    for future in pending:
        if future.key in blocks:
            line.step()
        on_result(future, pending)
    line.end()
    return len(futures)


class _ProgressLine:
    """'deltasplit: 5/8 blocks (3 skipped: done before)' on standard error, rewritten in place."""

    def __init__(self, total, skipped, shown, dashboard):
        self.total, self.skipped, self.shown, self.count = total, skipped, shown, 0
        if shown:
            if dashboard:
                print(f"deltasplit: dashboard {dashboard}", file=sys.stderr)
            self._print()

    def _print(self):
        skipped = f" ({self.skipped} skipped: done before)" if self.skipped else ""
        print(f"\rdeltasplit: {self.count}/{self.total} blocks{skipped}", end="", file=sys.stderr, flush=True)

    def step(self):
        self.count += 1
        if self.shown:
            self._print()

    def end(self):
        if self.shown:
            print(file=sys.stderr, flush=True)


# -- the API ----------------------------------------------------------------------------------

def distance_matrix(graph: Any, sources: Any, targets: Any = None, *, limit: Optional[float] = None,
                    out: Any = None, client: Any = None, block_size: Optional[int] = None,
                    dtype: Any = None, strategy: str = "multisplit", retries: int = 3,
                    id_offset: int = 0, weight_seed: int = 1, progress: bool = False) -> Any:
    """Distances from every source to every target (all vertices when targets is None) computed
    on the Dask cluster of `client` (default: the current one), block_size sources a task.

    sources, targets: 0-based vertex ids (integers; duplicates allowed). out: None (a numpy
    array is returned), a .zarr path / zarr.Group / store, or a .parquet folder (a Run is returned:
    out, blocks, skipped, written). dtype: the distance type (None: the graph's, Graph.distance_dtype;
    float32 solves a real graph in float32, the GPU's type). strategy: as Graph.distance_matrix's ('phast' builds a contraction hierarchy once per
    worker). retries: Dask's retries for a block that raised. id_offset: added to the vertex ids
    written to Zarr and Parquet (1 for a Matrix Market or DIMACS file's own numbering).
    weight_seed: for graph files without weights, as Graph.from_file. See the module's docstring
    for the semantics of outputs, resuming and refusals.
    """
    client = _client(client)
    plan = _Plan(graph, sources, targets, limit, dtype, block_size, strategy, weight_seed, len(_workers(client)))
    if out is None:
        result = np.empty((len(plan.sources), plan.columns), dtype=plan.dtype)

        def place(future, pending):
            start, block = future.result()
            result[start:start + len(block)] = block
            future.release()
        _run(client, plan, _Gather(), set(), retries, progress, place)
        return result
    kind = _output_kind(out)
    opener = _open_zarr if kind == "zarr" else _open_parquet
    sink, done = opener(out, plan, id_offset, block_size is not None)
    if progress and done:
        print(f"deltasplit: resuming {out}: {len(done)} of {plan.blocks} blocks already done, skipped",
              file=sys.stderr)

    def check(future, pending):
        future.result()
        future.release()
    written = _run(client, plan, sink, done, retries, progress, check)
    return Run(out, plan.blocks, len(done), written)


def distance_array(graph: Any, sources: Any, targets: Any = None, *, limit: Optional[float] = None,
                   client: Any = None, block_size: Optional[int] = None, dtype: Any = None,
                   strategy: str = "multisplit", weight_seed: int = 1) -> Any:
    """The same matrix as distance_matrix(out=None), as a lazy dask array of one chunk per block:
    nothing runs until it is computed (on the cluster of `client`, default the current one), and a
    reduction of it (``.sum(axis=1)``, ``.min()``) streams the blocks through the workers."""
    import dask
    import dask.array as da
    client = _client(client)
    plan = _Plan(graph, sources, targets, limit, dtype, block_size, strategy, weight_seed, len(_workers(client)))
    source, targets = _scatter(client, plan)
    solve = dask.delayed(_solve, pure=True)
    resources = _resources(client)
    plan.settings["device"] = "auto" if resources else "cpu"
    with dask.annotate(**({"resources": resources} if resources else {})):
        blocks = [da.from_delayed(solve(source, plan.key, plan.sources[start:start + plan.block_size], targets,
                                        plan.settings),
                                  shape=(min(plan.block_size, len(plan.sources) - start), plan.columns),
                                  dtype=plan.dtype)
                  for start in plan.block_starts()]
    if not blocks:
        return da.empty((0, plan.columns), dtype=plan.dtype)
    return da.concatenate(blocks, axis=0)


def reduce(graph: Any, sources: Any, targets: Any = None, *, limit: Optional[float] = None, client: Any = None,
           block_size: Optional[int] = None, strategy: str = "multisplit", retries: int = 3,
           weight_seed: int = 1, progress: bool = False) -> Reductions:
    """Per-source and per-target sums, minima, counts within `limit` and per-source closeness of
    the distance matrix (see Reductions and the module's docstring), computed on the workers
    without materialising the matrix: each block is reduced where it was solved, and the blocks'
    results are combined pairwise on the workers as they finish."""
    client = _client(client)
    plan = _Plan(graph, sources, targets, limit, None, block_size, strategy, weight_seed, len(_workers(client)))
    sink = _ReduceSink(plan.limit)
    waiting = []

    def gather(future, pending):
        waiting.append(future)
        if len(waiting) == COMBINE_FAN_IN:
            pending.add(client.submit(_combine, *waiting, pure=False, retries=retries))
            waiting.clear()
    _run(client, plan, sink, set(), retries, progress, gather)
    if len(waiting) > 1:
        waiting[:] = [client.submit(_combine, *waiting, pure=False, retries=retries)]
    rows, cols = len(plan.sources), plan.columns
    unreachable = np.inf if plan.dtype.kind == "f" else np.iinfo(plan.dtype).max
    wide = np.uint64 if plan.dtype.kind == "u" else np.float64
    if not waiting:
        per_source, t_sum, t_min, t_count = {}, np.zeros(cols, wide), np.full(cols, unreachable, plan.dtype), \
            np.zeros(cols, np.int64)
    else:
        per_source, t_sum, t_min, t_count = waiting[0].result()
    s_sum, s_min = np.zeros(rows, wide), np.full(rows, unreachable, plan.dtype)
    s_count, closeness = np.zeros(rows, np.int64), np.zeros(rows, np.float64)
    for start, (a, b, c, d) in per_source.items():
        s_sum[start:start + len(a)], s_min[start:start + len(a)] = a, b
        s_count[start:start + len(a)], closeness[start:start + len(a)] = c, d
    return Reductions(s_sum, s_min, s_count, closeness, t_sum, t_min, t_count)


def row_summaries(graph: Any, sources: Any = None, *, limit: Optional[float] = None, client: Any = None,
                  block_size: Optional[int] = None, dtype: Any = None, strategy: str = "multisplit",
                  retries: int = 3, weight_seed: int = 1, progress: bool = False) -> dict:
    """Graph.row_summaries of `sources` (every vertex when None) on the Dask cluster of `client`
    (default: the current one), block_size sources a task (default: at most SUMMARY_BLOCK_ROWS,
    at least two blocks a worker): a dict of numpy arrays of len(sources) in the order of the
    sources, 'reached' (int64), 'sum' (uint64 for integer distances, float64 for real ones) and
    'farthest' (the distance type), as Graph.row_summaries gives them. limit: vertices farther
    than it are not reached. dtype: None, or float32 to solve a real graph in float32.
    strategy: as Graph.row_summaries's ('phast' builds a contraction hierarchy once per worker, and
    on a GPU worker reduces each batch in its engine). A block lost with a worker is run again."""
    client = _client(client)
    if dtype is not None and np.dtype(dtype) not in (np.float32, np.float64):
        raise ValueError(f"dtype must be None, float32 or float64 (the solve's real type); got {dtype!r}")
    plan = _Plan(graph, sources, None, limit, dtype, block_size, strategy, weight_seed, len(_workers(client)),
                 rows_kept=False)
    rows = len(plan.sources)
    answer = plan.graph.distance_dtype_for(np.float32 if plan.settings["solve_dtype"] == "float32" else None)
    result = {"reached": np.zeros(rows, np.int64),
              "sum": np.zeros(rows, np.uint64 if answer.kind == "u" else np.float64),
              "farthest": np.zeros(rows, answer)}

    def place(future, pending):
        start, got = future.result()
        for name, values in got.items():
            result[name][start:start + len(values)] = values
        future.release()
    _run(client, plan, None, set(), retries, progress, place, task=_summarize_block)
    return result
