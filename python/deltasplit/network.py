"""deltasplit.network: road-network analytics in the shape of pandana's ``Network``.

A Network holds nodes with coordinates and edges with one or more impedances (length, travel
time, ...), one-way or two-way, and answers what urban analysts ask of a street network:
origin-destination distances (pairs, tables, Parquet for long ones, a second impedance summed
along the chosen path), accessibility (values placed on nodes, aggregated within a distance of
every node with a decay), the nearest places of a category, isochrones, and a map picture of a
result per node. Every answer is computed by ``deltasplit.Graph``'s batched, cutoff-limited
many-source solves (``distance_matrix``: on the GPU when one is usable, on the CPU otherwise),
in blocks of rows so that memory stays bounded. Where the GPU solves and cupy is importable, the
blocks stay in device memory and cupy reduces them there (reached pairs scattered into per-node
results, OD pairs gathered), and only the per-node or per-pair results come to the host; on the
CPU numpy does the same arithmetic (``_network_aggregate``: written once over the array module).

Node ids are the caller's (a pandas index); results are numpy arrays or pandas objects indexed
by node id. Distances have the type of the impedance's column: float64 for a float column
(unreachable = inf), also when its values are all whole numbers (solved as integers, exact, then
converted); for an integer column uint32 where no path can pass 2**32 - 2 (unreachable =
``Network.INT_INFINITY``), else uint64 (unreachable = ``Network.UINT64_INFINITY``). pandas is required; pyarrow (Parquet), shapely (isochrone
polygons), matplotlib (plots) and pyosmium (OpenStreetMap extracts) are optional extras.
"""
import math
import os
import warnings

import numpy as np

try:
    import pandas as pd
except ImportError as e:  # pragma: no cover - pandas is in the 'road' extra
    raise ImportError("deltasplit.network needs pandas: pip install 'deltasplit[road]'") from e

from ._graph import GPU_STRATEGIES, STRATEGIES, Graph, _is_integer, _is_number, _real_answer, choose_weights
from . import gpu_available
from ._network_aggregate import (AGGREGATIONS, DECAYS, aggregate_blocks, fused_reductions, nearest_blocks, pair_groups,
                                 sorted_distinct, to_host, unreachable)
from ._reached_on_device import ArcsOnDevice, host_graph
from ._network_io import EARTH_RADIUS_M, from_osm_file, read_table, wkb_points

__all__ = ["Network", "AGGREGATIONS", "DECAYS", "main"]

# strategy='auto' contracts the graph for OD work from this many origins on the CPU: on
# chicago-regional the hierarchy costs about what 400 Dijkstras do and a sweep an eighth of one
# (bench/results/road.md), so a thousand origins pay for it with room to spare.
PHAST_SOURCES = 1000
# OD pairs on a hierarchy on the CPU go by the pair query (Graph.pair_distances: two upward
# searches a pair) rather than a sweep a distinct origin when they number fewer than
# PAIRS_PER_SWEEP per distinct origin, scaled down in proportion on graphs of fewer vertices than
# PAIRS_PER_SWEEP_VERTICES. A sweep's cost grows with the graph, a pair's searches far more slowly:
# a sweep cost 26 pairs on USA-road-d.NY (264,346 vertices) and 4.6 on chicago-regional (12,982);
# the line is drawn through 20 at NY's size and the origin, below both
# (bench/results/road.md, "Pairs by the hierarchy's bidirectional query").
PAIRS_PER_SWEEP = 20
PAIRS_PER_SWEEP_VERTICES = 264_346
# On the GPU the pair query runs a warp a pair (Graph.pair_distances with device 'gpu') and the
# sweeps run in batches; pairs win below PAIRS_PER_SWEEP_GPU pairs per distinct origin
# (bench/results/phast.md, "Pairs on the GPU").
PAIRS_PER_SWEEP_GPU = 8

# Blocks in host memory hold at most this many distances (block_entries=None): 128 MiB of uint32
# and a few times that for the float64 work arrays of their reduction.
HOST_BLOCK_ENTRIES = 2**25
# Blocks in device memory (block_entries=None) follow the device's free memory: a block of rows
# solved at once takes at most 1/DEVICE_SHARE of it (a previous block may still be alive while
# the next is solved, and the solver keeps half of what is free when it is built for its own
# batches), and the rows reduced at once another 1/DEVICE_SHARE, counted at WORK_BYTES per
# entry: the reductions' temporaries for a block whose every entry is reached (the mask, the
# nonzero scan, row and column indices, distances as float64, per-radius selections and
# weights) stay below that.
DEVICE_SHARE = 8
WORK_BYTES = 128

# pandana's other names for aggregations and decays
ALIASES = {"ave": "mean", "avg": "mean", "average": "mean", "stddev": "std", "med": "median",
           "exponential": "exp"}


def _groups(keys, distinct):
    """keys grouped by value: (order, bounds), keys[order[bounds[i]:bounds[i + 1]]] all equal to
    distinct[i] (distinct: sorted_distinct(keys)), each group in the keys' own order."""
    order = np.argsort(keys, kind="stable")
    return order, np.append(np.searchsorted(keys[order], distinct), len(order))


class Network:
    """A road network: nodes with coordinates, edges with impedances, two-way or one-way.

    Network(node_x, node_y, edge_from, edge_to, edge_weights, twoway=True) as in pandana:
    node_x, node_y: pandas Series indexed by node id (or arrays: ids 0..n-1); edge_from, edge_to:
    node ids; edge_weights: a DataFrame with one column per impedance (or a Series, or an array:
    one impedance named 'weight'); twoway: every edge runs both ways (False: from -> to only;
    list both directions of two-way streets, as OSMnx graphs do).

    lonlat: the coordinates are longitude (x) and latitude (y) in degrees; nearest-node snapping
    then measures great-circle metres. Otherwise they are projected (planar) coordinates and
    snapping measures Euclidean distance in their unit.

    strategy, device: how the solves run (``deltasplit.Graph.distance_matrix``'s arguments).
    strategy='phast' contracts the graph once (seconds) and then answers each source by one
    sweep, several times cheaper than a Dijkstra on the CPU, but a sweep always covers the
    whole graph where a cut-off Dijkstra stops at the radius. The default, 'auto', runs on the
    GPU when one is usable ('multisplit'); on the CPU it contracts for OD work from
    PHAST_SOURCES origins on and runs a Dijkstra per source otherwise (accessibility, nearest
    places and isochrones, whose solves stop at their radius). When the solves run on the GPU
    and cupy is importable, the blocks of distances stay in device memory and are reduced there
    (``array_module``). block_entries: the most distances held at once by a block of rows
    (sources x columns); None (the default) is HOST_BLOCK_ENTRIES (2**25) for blocks in host
    memory and, in device memory, a share of the device's free memory (block_rows).
    """

    INT_INFINITY = Graph.INT_INFINITY
    UINT64_INFINITY = Graph.UINT64_INFINITY

    def __init__(self, node_x, node_y, edge_from, edge_to, edge_weights, twoway=True, *, lonlat=False,
                 strategy="auto", device="auto", block_entries=None):
        ids = node_x.index if isinstance(node_x, pd.Series) else pd.RangeIndex(len(node_x))
        if not ids.is_unique:
            raise ValueError(f"node ids must be unique; {ids[ids.duplicated()][0]!r} appears more than once")
        x = np.asarray(node_x, dtype=np.float64)
        y = (node_y.reindex(ids) if isinstance(node_y, pd.Series) and isinstance(node_x, pd.Series)
             else node_y)
        y = np.asarray(y, dtype=np.float64)
        if x.ndim != 1 or x.shape != y.shape:
            raise ValueError(f"node_x and node_y must be one-dimensional and of one length; got {x.shape}, {y.shape}")
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            bad = ids[~(np.isfinite(x) & np.isfinite(y))][0]
            raise ValueError(f"node {bad!r} has a missing or non-finite coordinate")
        self.node_ids = ids
        self.x, self.y = x, y
        self.twoway = bool(twoway)
        self.lonlat = bool(lonlat)
        if strategy != "auto" and strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected 'auto' or one of {', '.join(STRATEGIES)}")
        self.strategy, self.device = strategy, device
        if block_entries is not None and (not _is_integer(block_entries) or block_entries < 1):
            raise ValueError(f"block_entries must be a positive integer or None; got {block_entries!r}")
        self.block_entries = None if block_entries is None else int(block_entries)
        self._from = self._positions(edge_from, "edge_from")
        self._to = self._positions(edge_to, "edge_to")
        if len(self._from) != len(self._to):
            raise ValueError(f"{len(self._from)} edge_from ids for {len(self._to)} edge_to ids")
        self.impedances = self._impedance_table(edge_weights, len(self._from))
        self._graphs = {}
        self._kdtree = None
        self._variables = {}
        self._pois = {}

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_osmnx(cls, G, impedances=("length",), **kwargs):
        """From an OSMnx graph: a NetworkX MultiDiGraph with node attributes x and y and edge
        attributes named by `impedances` (OSMnx's 'length' in metres; 'travel_time' once added).
        Directed graphs list both directions of two-way streets, so they become one-way edges
        (twoway=False); an undirected graph becomes a two-way network. Coordinates count as
        longitude/latitude when G.graph['crs'] names EPSG:4326 (OSMnx's unprojected graphs)."""
        nodes = list(G.nodes)
        node_x = pd.Series([G.nodes[v]["x"] for v in nodes], index=nodes, dtype=np.float64)
        node_y = pd.Series([G.nodes[v]["y"] for v in nodes], index=nodes, dtype=np.float64)
        impedances = [impedances] if isinstance(impedances, str) else list(impedances)
        frm, to, rows = [], [], []
        for u, v, data in G.edges(data=True):
            missing = [name for name in impedances if name not in data]
            if missing:
                raise ValueError(f"edge {u!r} -> {v!r} has no attribute {missing[0]!r}")
            frm.append(u)
            to.append(v)
            rows.append([data[name] for name in impedances])
        weights = pd.DataFrame(np.array(rows, dtype=np.float64).reshape(len(rows), len(impedances)),
                               columns=impedances)
        crs = str(G.graph.get("crs", "")).lower()
        kwargs.setdefault("lonlat", "4326" in crs or "wgs84" in crs or "wgs 84" in crs)
        return cls(node_x, node_y, frm, to, weights, twoway=not G.is_directed(), **kwargs)

    @classmethod
    def from_tables(cls, nodes, edges, *, x="x", y="y", node_id=None, edge_from=None, edge_to=None,
                    impedances=None, twoway=True, **kwargs):
        """From a node table and an edge table: pandas DataFrames, or paths of Parquet, GeoParquet
        or CSV files. Nodes: ids in the column `node_id` (default: the first of 'id', 'node_id',
        'osmid' present, else the frame's index, else the CSV's first column), coordinates in
        `x`/`y`, or a GeoParquet point geometry (WKB) when those columns are absent. Edges: the
        columns `edge_from`/`edge_to` (default: the first of 'from'/'to', 'u'/'v',
        'source'/'target' present) and the impedances (default: every other numeric column)."""
        nodes = read_table(nodes, "nodes")
        edges = read_table(edges, "edges")
        node_ids = _pick_node_ids(nodes, node_id)
        if x in nodes.columns and y in nodes.columns:
            xs, ys = nodes[x].to_numpy(np.float64), nodes[y].to_numpy(np.float64)
        elif "geometry" in nodes.columns:
            xs, ys = wkb_points(nodes["geometry"])
        else:
            raise ValueError(f"the node table has neither columns {x!r}/{y!r} nor a geometry column")
        frm_col, to_col = _pick_edge_columns(edges, edge_from, edge_to)
        if impedances is None:
            skip = {frm_col, to_col, "key", "geometry", "osmid"}
            impedances = [c for c in edges.columns
                          if c not in skip and pd.api.types.is_numeric_dtype(edges[c]) and
                          not pd.api.types.is_bool_dtype(edges[c])]
            if not impedances:
                raise ValueError("the edge table has no numeric impedance column")
        impedances = [impedances] if isinstance(impedances, str) else list(impedances)
        missing = [c for c in impedances if c not in edges.columns]
        if missing:
            raise ValueError(f"the edge table has no column {missing[0]!r}")
        return cls(pd.Series(xs, index=node_ids), pd.Series(ys, index=node_ids), edges[frm_col].to_numpy(),
                   edges[to_col].to_numpy(), edges[impedances].reset_index(drop=True), twoway=twoway, **kwargs)

    @classmethod
    def from_parquet(cls, nodes_path, edges_path, **kwargs):
        """From Parquet or GeoParquet node and edge tables (from_tables' columns and options)."""
        return cls.from_tables(nodes_path, edges_path, **kwargs)

    @classmethod
    def from_osm(cls, path, network_type="drive", **kwargs):
        """From an OpenStreetMap extract (.osm XML or .osm.pbf), read with pyosmium (the optional
        extra 'osmium'). network_type 'drive' or 'walk' selects ways by their highway tags (see
        docs/road-analytics.md for the rules); 'drive' keeps one-way streets one-way (oneway=yes,
        1, true, -1, reversible excluded; roundabouts and motorways one-way unless tagged
        otherwise), 'walk' walks every way both ways. Every OSM node on a kept way is a network
        node (ids are OSM node ids; x = longitude, y = latitude); each way segment is an edge
        whose impedance 'length' is its great-circle length in metres (haversine)."""
        node_ids, lon, lat, frm, to, length = from_osm_file(path, network_type)
        kwargs.setdefault("lonlat", True)
        return cls(pd.Series(lon, index=node_ids), pd.Series(lat, index=node_ids), frm, to,
                   pd.DataFrame({"length": length}), twoway=False, **kwargs)

    # -- ids and graphs -----------------------------------------------------------------------

    @property
    def num_nodes(self):
        return len(self.node_ids)

    @property
    def num_edges(self):
        return len(self._from)

    @property
    def impedance_names(self):
        return list(self.impedances.columns)

    def __repr__(self):
        return (f"<deltasplit.network.Network {self.num_nodes} nodes, {self.num_edges} "
                f"{'two-way' if self.twoway else 'one-way'} edges, impedances {self.impedance_names}>")

    def _positions(self, ids, what):
        """Node ids (a sequence) as positions 0..n-1; an unknown id raises naming it and its row."""
        values = ids.to_numpy() if isinstance(ids, (pd.Series, pd.Index)) else np.asarray(ids)
        if values.ndim != 1:
            raise ValueError(f"{what} must be one-dimensional; got shape {values.shape}")
        index = self.node_ids
        if isinstance(index, pd.RangeIndex) and index.step == 1 and (
                values.dtype.kind == "i" or (values.dtype.kind == "u" and values.dtype.itemsize < 8)):
            # Ids start, start + 1, ...: a position is an id less start, found without a lookup.
            pos = values.astype(np.int64)
            if index.start:
                pos -= index.start
            inside = not pos.size or (pos.min() >= 0 and pos.max() < len(index))
            bad = np.zeros(0, dtype=np.int64) if inside else np.flatnonzero((pos < 0) | (pos >= len(index)))
        else:
            pos = index.get_indexer(values)
            bad = np.flatnonzero(pos < 0)
        if bad.size:
            raise ValueError(f"{what}[{bad[0]}] = {values[bad[0]]!r} is not a node id of this network")
        return pos.astype(np.int64, copy=False)

    def node_positions(self, node_ids):
        """The positions (0..n-1) of node ids, in their order."""
        return self._positions(node_ids, "node id")

    def _impedance_table(self, edge_weights, m):
        if isinstance(edge_weights, pd.DataFrame):
            table = edge_weights.reset_index(drop=True)
        elif isinstance(edge_weights, pd.Series):
            table = edge_weights.reset_index(drop=True).to_frame(edge_weights.name or "weight")
        else:
            a = np.asarray(edge_weights)
            if a.ndim == 1:
                table = pd.DataFrame({"weight": a})
            elif a.ndim == 2:
                table = pd.DataFrame(a, columns=[f"weight{i}" for i in range(a.shape[1])])
            else:
                raise ValueError(f"edge_weights must be a DataFrame, a Series or a 1-D/2-D array; got shape {a.shape}")
        if table.shape[1] == 0:
            raise ValueError("edge_weights has no impedance")
        if len(table) != m:
            raise ValueError(f"{len(table)} edge weights for {m} edges")
        for name in table.columns:
            w = table[name].to_numpy()
            if w.dtype.kind not in "iuf":
                raise TypeError(f"impedance {name!r} must be numeric; got dtype {w.dtype}")
            if w.dtype.kind == "f" and not np.isfinite(w).all():
                raise ValueError(f"impedance {name!r} of edge {int(np.flatnonzero(~np.isfinite(w))[0])} is "
                                 "missing or not finite")
            if w.size and w.min() < 0:
                raise ValueError(f"impedance {name!r} of edge {int(np.argmin(w))} is negative ({w.min()})")
        return table

    def _imp(self, imp_name):
        if imp_name is None:
            return self.impedances.columns[0]
        if imp_name not in self.impedances.columns:
            raise ValueError(f"unknown impedance {imp_name!r}; this network has {self.impedance_names}")
        return imp_name

    def solver(self, imp_name=None, reverse=False, sources=0, cutoff=math.inf):
        """(Graph, strategy) for `sources` solves on one impedance cut off at `cutoff` (reverse:
        every edge turned around, for distances *to* the sources). The strategy is the Network's;
        'auto' picks 'phast' for at least PHAST_SOURCES solves without a cutoff on the CPU and
        'multisplit' otherwise. Graphs are built on first use and kept, one for phast (which
        keeps its hierarchy) apart from the other, so that OD work and accessibility in turn
        rebuild neither."""
        strategy = self._strategy(sources, cutoff)
        name, reverse, arcs = self._arcs(imp_name, reverse)
        key = (name, reverse, strategy == "phast")
        if key not in self._graphs:
            # The weights as the solver stores them (whole-number floats as integers): the Graph
            # answers in its stored type and as_given turns a float column's answers to float64.
            tails, heads, weights = arcs
            self._graphs[key] = Graph.from_edges(tails, heads, choose_weights(weights, self.num_nodes), self.num_nodes,
                                                 directed=not self.twoway)
        return self._graphs[key], strategy

    def _arcs(self, imp_name, reverse):
        """(impedance name, reverse, (tails, heads, weights)) of the arcs a solve reads: reverse
        turns every edge around, and means nothing for a two-way network."""
        name = self._imp(imp_name)
        reverse = reverse and not self.twoway
        src, dst = (self._to, self._from) if reverse else (self._from, self._to)
        return name, reverse, (src, dst, self.impedances[name].to_numpy())

    def _strategy(self, sources, cutoff):
        """The Network's strategy; 'auto': 'phast' for at least PHAST_SOURCES solves without a
        cutoff on the CPU, 'multisplit' otherwise."""
        if self.strategy != "auto":
            return self.strategy
        contract = self.solves_on_cpu() and math.isinf(cutoff) and sources >= PHAST_SOURCES
        return "phast" if contract else "multisplit"

    def lists_solver(self, imp_name=None, reverse=False, sources=0, cutoff=math.inf):
        """solver()'s (graph, strategy) for solves whose entries are taken as reached lists on the
        device (lists_on_device): there the graph is an ArcsOnDevice of the same arcs, made on
        the device by one sort and kept, and the host Graph is built only if a ball goes to the
        dense solver; elsewhere solver()'s Graph."""
        strategy = self._strategy(sources, cutoff)
        if not self.lists_on_device(strategy, cutoff):
            return self.solver(imp_name, reverse, sources, cutoff)
        name, reverse, arcs = self._arcs(imp_name, reverse)
        key = (name, reverse, "lists")
        if key not in self._graphs:
            import cupy
            self._graphs[key] = ArcsOnDevice(cupy, *arcs, self.num_nodes, self.twoway,
                                             lambda: self.solver(name, reverse, sources, cutoff)[0])
        return self._graphs[key], strategy

    @staticmethod
    def distance_dtype(g):
        """The type of g's distances (what distance_matrix returns)."""
        return g.distance_dtype

    def as_given(self, name, a):
        """Distances `a` (host) of the impedance `name` in the type its column was given in: a
        float column's as float64 (unreachable inf), also where its values are all whole numbers,
        which the solver takes as integer weights (exact, and faster) and answers in uint32 or
        uint64 (unreachable all ones); an integer column's as they are."""
        a = np.asarray(a)
        if self.impedances[name].dtype.kind != "f" or a.dtype.kind != "u":
            return a
        return _real_answer(a, np.float64)

    def solves_on_cpu(self, strategy=None):
        """Whether solves run on the host's CPU: device 'cpu', no usable GPU, or (given a
        strategy) one without a GPU engine."""
        return (self.device == "cpu" or (strategy is not None and strategy not in GPU_STRATEGIES)
                or not gpu_available())

    def array_module(self, strategy):
        """Where the blocks of a solve by `strategy` live and are reduced: cupy when the solve runs
        on the GPU (a GPU strategy, device not 'cpu', a usable GPU) and cupy is importable, so
        that distance_matrix writes the rows straight into device memory; numpy otherwise."""
        if self.solves_on_cpu(strategy):
            return np
        try:
            import cupy
        except ImportError:
            return np
        return cupy

    def block_rows(self, xp, columns, dtype):
        """(rows solved at once, rows reduced at once) for blocks of `columns` distances of `dtype`
        in xp's memory: block_entries // columns for both when block_entries is set or the block
        is in host memory (HOST_BLOCK_ENTRIES), else shares of the device's free memory
        (DEVICE_SHARE, WORK_BYTES), with cupy's cached blocks handed back first so that the
        solver sees them free too."""
        columns = max(columns, 1)
        if self.block_entries is not None or xp is np:
            k = max(1, (self.block_entries or HOST_BLOCK_ENTRIES) // columns)
            return k, k
        xp.get_default_memory_pool().free_all_blocks()
        free = xp.cuda.runtime.memGetInfo()[0] // DEVICE_SHARE
        return max(1, free // (columns * np.dtype(dtype).itemsize)), max(1, free // (columns * WORK_BYTES))

    def _block(self, g, strategy, sources, targets, cutoff, xp):
        """The distances from `sources` to `targets` (None: every node), cut off at `cutoff`, as
        an xp array: in device memory the solver writes the rows straight into it. g: a Graph or
        an ArcsOnDevice (its host Graph solves)."""
        g = host_graph(g)
        dtype = self.distance_dtype(g)
        if xp is not np and dtype.itemsize == 8:
            # 64-bit distances (float64 impedances, integer paths past 2^32 - 2) are solved into
            # host memory (by the GPU's float64 batches where they are exact, else the CPU) and
            # reduced on the device.
            return xp.asarray(g.distance_matrix(sources, targets, strategy=strategy, device="auto", cutoff=cutoff))
        out = None
        if xp is not np:
            out = xp.empty((len(sources), self.num_nodes if targets is None else len(targets)), dtype=dtype)
        return g.distance_matrix(sources, targets, strategy=strategy, device=self.device, cutoff=cutoff, out=out)

    def _rows(self, g, strategy, sources, targets=None, cutoff=math.inf, whole=False):
        """Distances from `sources` (positions) in blocks of rows: yields (start, block), block an
        array_module(strategy) array of shape (rows, len(targets) or n) in the graph's distance
        type, cut off at `cutoff`. Rows are solved block_rows' first count at a time (the GPU
        solver gets thousands of sources per call) and handed out its second count at a time (with
        whole, as solved: for a reduction that needs no temporaries per entry)."""
        xp = self.array_module(strategy)
        columns = self.num_nodes if targets is None else len(targets)
        solve, reduce = self.block_rows(xp, columns, self.distance_dtype(g))
        if whole:
            reduce = solve
        for start in range(0, len(sources), solve):
            block = self._block(g, strategy, sources[start:start + solve], targets, cutoff, xp)
            for first in range(0, len(block), reduce):
                yield start + first, block[first:first + reduce]

    def lists_on_host(self, strategy, cutoff):
        """Whether cut-off solves by `strategy` run on the host's CPU, where reached_lists hands
        out what each source reaches instead of dense rows."""
        return self.solves_on_cpu(strategy) and strategy != "phast" and math.isfinite(cutoff)

    def lists_on_device(self, strategy, cutoff):
        """Whether cut-off solves by `strategy` run on the GPU with cupy at hand, where
        _reached_on_device.reached_groups hands out what each source reaches instead of dense rows
        (any strategy but phast: the lists are the same whichever solver forms them)."""
        return (not self.solves_on_cpu(strategy) and strategy != "phast" and math.isfinite(cutoff)
                and fused_reductions(self.array_module(strategy)))

    def reached_lists(self, g, sources, cutoff, raw=False):
        """What `sources` (positions) reach within a finite cutoff, on the host's CPU: yields
        (start, rows, columns, distances float64, or in the distance type with raw) for groups
        of rows, rows relative to start and
        ascending, columns ascending within a row: the reached entries of the rows _rows would hand
        out, in nonzero's order. A group holds about HOST_BLOCK_ENTRIES entries (block_entries,
        when set): its first has block_rows' rows, each later one as many as the entries a row
        reached so far say fit (at least that many, at most 2^16)."""
        budget = self.block_entries or HOST_BLOCK_ENTRIES
        k = self.block_rows(np, self.num_nodes, self.distance_dtype(g))[1]
        rows_done = entries_done = start = 0
        while start < len(sources):
            offsets, targets, distances = g._reached_within(sources[start:start + k], cutoff)
            done = len(offsets) - 1
            rows = np.repeat(np.arange(done), np.diff(offsets).astype(np.int64))
            yield start, rows, targets.astype(np.int64), distances if raw else distances.astype(np.float64)
            start += done
            rows_done += done
            entries_done += len(targets)
            per_row = max(1.0, entries_done / rows_done)
            k = int(min(max(budget / per_row, k), 1 << 16))

    # -- nearest nodes ------------------------------------------------------------------------

    def _points(self, x, y):
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        if not self.lonlat:
            return np.column_stack([x, y])
        lon, lat = np.radians(x), np.radians(y)
        return np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)])

    def get_node_ids(self, x_col, y_col, mapping_distance=None):
        """The nearest node of every point (x_col[i], y_col[i]): a Series of node ids indexed like
        x_col (a Series) or 0..len-1. Nearest by a scipy cKDTree: on projected coordinates,
        Euclidean distance in their unit; on longitude/latitude (lonlat=True), by the chord of
        the unit sphere, which orders points as the great-circle distance does, reported in
        metres. mapping_distance: points farther than this from every node are left out, as in
        pandana."""
        from scipy.spatial import cKDTree
        index = x_col.index if isinstance(x_col, pd.Series) else pd.RangeIndex(len(x_col))
        pts = self._points(x_col, y_col)
        if not np.isfinite(pts).all():
            raise ValueError("a point to snap has a missing or non-finite coordinate")
        if self.num_nodes == 0:
            raise ValueError("the network has no nodes to snap to")
        if self._kdtree is None:
            self._kdtree = cKDTree(self._points(self.x, self.y))
        dist, idx = self._kdtree.query(pts)
        if self.lonlat:
            dist = 2 * EARTH_RADIUS_M * np.arcsin(np.minimum(dist / 2, 1.0))
        ids = pd.Series(self.node_ids[idx], index=index, name="node_id")
        if mapping_distance is not None:
            ids = ids[dist <= mapping_distance]
        return ids

    # -- origin-destination -------------------------------------------------------------------

    def shortest_path_lengths(self, origins, destinations, imp_name=None, *, sum_along=None):
        """Shortest-path lengths of the pairs (origins[i], destinations[i]) (node ids), as a numpy
        array in the impedance's distance type (module docstring).

        The pairs are grouped by origin, solved from the distinct origins with the distinct
        destinations of each block of origins as the only columns; when there are fewer
        distinct destinations than origins, from the destinations on the reverse graph instead.

        sum_along: the name of a second impedance summed along the path the first one chooses
        (metres along the fastest route): then a pair (lengths, sums). The path is the shortest-
        path tree's (``Graph.sssp(predecessors=True)``), one solve per distinct origin; where
        several paths tie, the tree picks one, and between parallel edges the one lightest in
        the first impedance (then in the second) counts. sums: uint32 for an integer second
        impedance whose paths fit (unreachable INT_INFINITY), float64 otherwise (inf)."""
        o = self._positions(origins, "origins")
        d = self._positions(destinations, "destinations")
        if len(o) != len(d):
            raise ValueError(f"{len(o)} origins for {len(d)} destinations")
        name = self._imp(imp_name)
        if sum_along is not None:
            return self._lengths_and_sums(o, d, name, self._imp(sum_along))
        distinct_o, distinct_d = sorted_distinct(o), sorted_distinct(d)
        forward = len(distinct_o) <= len(distinct_d)
        src, dst = (o, d) if forward else (d, o)
        sources, distinct_dst = (distinct_o, distinct_d) if forward else (distinct_d, distinct_o)
        g, strategy = self.solver(name, reverse=not forward, sources=len(sources))
        xp = self.array_module(strategy)
        dtype = self.distance_dtype(g)
        on_cpu = self.solves_on_cpu()
        per_sweep = (PAIRS_PER_SWEEP * min(1.0, self.num_nodes / PAIRS_PER_SWEEP_VERTICES) if on_cpu
                     else PAIRS_PER_SWEEP_GPU)
        if strategy == "phast" and dtype.itemsize == 4 and len(o) < per_sweep * len(sources):
            # Few pairs per origin: the pair query (two upward searches, or a warp, a pair) instead
            # of a sweep an origin (on the reverse graph when the destinations are fewer: the same
            # distances).
            return self.as_given(name, g.pair_distances(src, dst, device=self.device))
        out = xp.empty(len(o), dtype=dtype)
        if len(o) == 0:
            return self.as_given(name, to_host(out))
        order, bounds = _groups(src, sources)
        k = self.block_rows(xp, len(distinct_dst), dtype)[0]
        for start in range(0, len(sources), k):
            pairs = order[bounds[start]:bounds[min(start + k, len(sources))]]
            targets = sorted_distinct(dst[pairs])
            col = np.searchsorted(targets, dst[pairs])
            rows = np.searchsorted(sources[start:start + k], src[pairs])
            block = self._block(g, strategy, sources[start:start + k], targets, math.inf, xp)
            out[xp.asarray(pairs)] = block[xp.asarray(rows), xp.asarray(col)]
        return self.as_given(name, to_host(out))

    def _lengths_and_sums(self, o, d, name, second):
        sources = sorted_distinct(o)
        g, strategy = self.solver(name, sources=len(sources))
        lookup = _ArcLookup(self, name, second)
        lengths = np.empty(len(o), dtype=self.distance_dtype(g))
        sums = np.empty(len(o), dtype=lookup.dtype)
        order, bounds = _groups(o, sources)
        for i, s in enumerate(sources):
            pairs = order[bounds[i]:bounds[i + 1]]
            r = g.sssp(int(s), strategy, predecessors=True,
                       device=self.device if self.distance_dtype(g).itemsize == 4 else "auto")
            lengths[pairs] = r.distances[d[pairs]]
            sums[pairs] = lookup.path_sums(r.predecessors, int(s))[d[pairs]]
        return self.as_given(name, lengths), self.as_given(second, sums)

    def od_table(self, origins, destinations, imp_name=None, *, cutoff=None):
        """The distances from every origin to every destination (node ids): a DataFrame indexed by
        origin with one column per destination, in the impedance's distance type. cutoff: farther
        pairs are reported unreachable (the solves stop there)."""
        o = self._positions(origins, "origins")
        d = self._positions(destinations, "destinations")
        cutoff = math.inf if cutoff is None else cutoff
        g, strategy = self.solver(imp_name, sources=len(o), cutoff=cutoff)
        table = np.empty((len(o), len(d)), dtype=self.distance_dtype(g))
        for start, block in self._rows(g, strategy, o, d, cutoff):
            table[start:start + len(block)] = to_host(block)
        return pd.DataFrame(self.as_given(self._imp(imp_name), table), index=pd.Index(self.node_ids[o], name="origin"),
                            columns=pd.Index(self.node_ids[d], name="destination"))

    def to_parquet(self, path, origins, destinations, imp_name=None, *, cutoff=None, overwrite=False):
        """A long OD table (columns origin, destination, distance) written to Parquet block by
        block, so that tables larger than memory can be written; unreachable pairs (or those
        past `cutoff`) are left out. An existing file is kept (FileExistsError) unless
        overwrite=True. Returns the number of rows written."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        path = os.fspath(path)
        if os.path.exists(path) and not overwrite:
            raise FileExistsError(f"{path} exists; pass overwrite=True to replace it")
        o = self._positions(origins, "origins")
        d = self._positions(destinations, "destinations")
        cutoff = math.inf if cutoff is None else cutoff
        name = self._imp(imp_name)
        g, strategy = self.solver(name, sources=len(o), cutoff=cutoff)
        ids = self.node_ids.to_numpy()
        written = 0
        tmp = path + ".partial"
        writer = None
        try:
            xp = self.array_module(strategy)
            for start, block in self._rows(g, strategy, o, d, cutoff):
                r, c = xp.nonzero(block != unreachable(block.dtype))
                dist, r, c = self.as_given(name, to_host(block[r, c])), to_host(r), to_host(c)
                table = pa.table({"origin": ids[o[start + r]], "destination": ids[d[c]], "distance": dist})
                if writer is None:
                    writer = pq.ParquetWriter(tmp, table.schema)
                writer.write_table(table)
                written += len(r)
            if writer is None:
                empty = pa.table({"origin": ids[:0], "destination": ids[:0],
                                  "distance": self.as_given(name, np.empty(0, self.distance_dtype(g)))})
                writer = pq.ParquetWriter(tmp, empty.schema)
                writer.write_table(empty)
            writer.close()
            writer = None
            os.replace(tmp, path)
        finally:
            if writer is not None:
                writer.close()
            if os.path.exists(tmp):
                os.remove(tmp)
        return written

    # -- accessibility ------------------------------------------------------------------------

    def set(self, node_ids, variable=None, name="tmp"):
        """Place values on nodes for aggregate(): node_ids (a Series of node ids, or a sequence)
        and variable (aligned values; None: 1 for each, to count). Several values may sit on one
        node. Rows with a missing node id or value are dropped with a warning, as pandana does."""
        nodes = node_ids if isinstance(node_ids, pd.Series) else pd.Series(np.asarray(node_ids))
        if variable is None:
            values = pd.Series(np.ones(len(nodes)), index=nodes.index)
        elif isinstance(variable, pd.Series):
            values = variable.reindex(nodes.index) if isinstance(node_ids, pd.Series) else \
                pd.Series(variable.to_numpy(), index=nodes.index)
        else:
            values = pd.Series(np.asarray(variable), index=nodes.index)
        if len(values) != len(nodes):
            raise ValueError(f"{len(values)} values for {len(nodes)} node ids")
        if not pd.api.types.is_numeric_dtype(values):
            raise TypeError(f"variable {name!r} must be numeric; got dtype {values.dtype}")
        keep = nodes.notna().to_numpy() & values.notna().to_numpy()
        if not keep.all():
            warnings.warn(f"set({name!r}): dropped {int((~keep).sum())} rows with a missing node id or value",
                          stacklevel=2)
        v = values.to_numpy(np.float64)[keep]
        if not np.isfinite(v).all():
            raise ValueError(f"variable {name!r} holds an infinite value")
        self._variables[name] = (self._positions(nodes[keep], "node_ids"), v)

    def aggregate(self, distance, type="sum", decay="linear", imp_name=None, name="tmp"):
        """For every node, the values of `name` (set()) on nodes within `distance` of it,
        aggregated, exactly as pandana defines each: a Series indexed by node id.

        type: one of AGGREGATIONS (or pandana's aliases ave, avg, average, stddev, med): 'sum',
        'mean' (the decayed sum divided by the count), 'min', '25pct', 'median', '75pct', 'max'
        (the value at position int(count * q) of the sorted values within reach; q = 0 and 1 are
        the least and the greatest), 'std' (population standard deviation, never decayed),
        'count'. decay: 'flat' (weight 1), 'linear' (1 - d / distance), 'exp' or 'exponential'
        (exp(-d / distance)), d the node's distance *to* the value's node. The radius is
        inclusive (d <= distance). Nodes with nothing in reach get 0 for sum, mean, std and count
        and -1 for min, the quantiles and max (pandana's values).

        distance and type may also be lists: then a DataFrame with a column per (type, distance)
        pair (MultiIndex), computed from one set of solves cut off at the largest distance.

        How: the solves run from the distinct valued nodes (never more than the nodes) on the
        reverse graph (for a two-way network the graph itself), so that a row holds the
        distances from every node *to* one valued node; rows come in blocks (block_rows; on
        the GPU with cupy they stay in device memory and are reduced there), and each block's
        reached (node, valued node) pairs are added into per-node sums, counts and sums of
        squares (bincount) and per-node minima and maxima. The quantiles need the values in
        order: a second set of solves visits the values from the least up and records, for
        every node, the one at its rank."""
        types = [ALIASES.get(t.lower(), t.lower()) if isinstance(t, str) else t
                 for t in ([type] if isinstance(type, str) else list(type))]
        decay = ALIASES.get(decay.lower(), decay.lower()) if isinstance(decay, str) else decay
        distances = list(distance) if _is_list(distance) else [distance]
        for t in types:
            if t not in AGGREGATIONS:
                raise ValueError(f"unknown aggregation {t!r}; expected one of {', '.join(AGGREGATIONS)}")
        if decay not in DECAYS:
            raise ValueError(f"unknown decay {decay!r}; expected one of {', '.join(DECAYS)}")
        for r in distances:
            if not _is_number(r) or not r >= 0 or math.isnan(r):
                raise ValueError(f"distance must be a number >= 0; got {r!r}")
        if name not in self._variables:
            raise ValueError(f"no variable {name!r}: call set(node_ids, variable, name={name!r}) first")
        positions, values = self._variables[name]
        radii = [float(r) for r in distances]
        solver = self.lists_solver(imp_name, reverse=True, sources=len(sorted_distinct(positions)), cutoff=max(radii))
        results = aggregate_blocks(self, solver, positions, values, radii, types, decay)
        if isinstance(type, str) and not _is_list(distance):
            return pd.Series(results[(types[0], float(distances[0]))], index=self.node_ids, name=name)
        columns = pd.MultiIndex.from_tuples([(t, r) for t in types for r in distances], names=["type", "distance"])
        return pd.DataFrame({(t, r): results[(t, float(r))] for t in types for r in distances},
                            index=self.node_ids, columns=columns)

    # -- nearest places -----------------------------------------------------------------------

    def set_pois(self, category, maxdist, maxitems, x_col, y_col, mapping_distance=None):
        """Places of a category at coordinates (x_col, y_col: Series whose index holds the
        places' ids, or arrays), snapped to their nearest nodes; nearest_pois() then finds at most
        `maxitems` of them within `maxdist` of every node."""
        if not isinstance(category, str) or not category:
            raise ValueError("category must be a non-empty string")
        if not maxdist >= 0:
            raise ValueError(f"maxdist must be >= 0; got {maxdist!r}")
        if not _is_integer(maxitems) or maxitems < 1:
            raise ValueError(f"maxitems must be a positive integer; got {maxitems!r}")
        nodes = self.get_node_ids(x_col, y_col, mapping_distance=mapping_distance)
        self._pois[category] = (float(maxdist), int(maxitems), self._positions(nodes, "node"), nodes.index)

    def nearest_pois(self, distance, category, num_pois=1, max_distance=None, imp_name=None, include_poi_ids=False):
        """The distances from every node to its `num_pois` nearest places of `category` within
        `distance` (inclusive; at most set_pois' maxdist, as in pandana), in pandana's shape: a
        DataFrame indexed by node id with columns 1..num_pois, nearest first, `max_distance`
        (default: distance) where fewer places are in reach; include_poi_ids adds columns
        poi1..poiN with the places' ids (NaN where none). Places at one distance come in the
        order set_pois got them. Solved from the distinct places' nodes on the reverse graph, in
        blocks, keeping each node's best num_pois."""
        if category not in self._pois:
            raise ValueError(f"no places of category {category!r}: call set_pois first")
        maxdist, maxitems, positions, poi_ids = self._pois[category]
        if not _is_integer(num_pois) or num_pois < 1:
            raise ValueError(f"num_pois must be a positive integer; got {num_pois!r}")
        if num_pois > maxitems:
            raise ValueError(f"num_pois ({num_pois}) is more than set_pois' maxitems ({maxitems})")
        if not distance >= 0:
            raise ValueError(f"distance must be >= 0; got {distance!r}")
        if distance > maxdist:
            raise ValueError(f"distance ({distance}) is more than set_pois' maxdist ({maxdist}) for {category!r}")
        max_distance = distance if max_distance is None else max_distance
        solver = self.lists_solver(imp_name, reverse=True, sources=len(sorted_distinct(positions)), cutoff=float(distance))
        dist, which = nearest_blocks(self, solver, positions, float(distance), int(num_pois))
        found = which >= 0
        dist = np.where(found, dist, float(max_distance))
        df = pd.DataFrame(dist, index=self.node_ids, columns=list(range(1, num_pois + 1)))
        if include_poi_ids:
            for j in range(num_pois):
                col = pd.Series(poi_ids.to_numpy()[np.maximum(which[:, j], 0)], index=self.node_ids)
                df[f"poi{j + 1}"] = col.where(found[:, j])
        return df

    # -- isochrones ---------------------------------------------------------------------------

    def isochrones(self, origins, distances, imp_name=None):
        """The nodes reachable from each origin within each distance (inclusive): a DataFrame
        with columns origin, distance, node_id, distance_to_node (one row per node within each
        distance: a node within 500 of an origin is listed for 500 and for 1000)."""
        o = self._positions(origins, "origins")
        radii = sorted({float(r) for r in np.atleast_1d(distances)})
        if any(not r >= 0 for r in radii):
            raise ValueError(f"distances must be >= 0; got {distances!r}")
        cutoff = radii[-1] if radii else 0.0
        name = self._imp(imp_name)
        g, strategy = self.lists_solver(name, sources=len(o), cutoff=cutoff)
        xp = self.array_module(strategy)
        parts = []
        for start, r, c, d in pair_groups(self, (g, strategy), o, cutoff, xp, raw=True):
            for radius in radii:
                within = xp.flatnonzero(d <= radius)
                rows, cols = to_host(r[within]), to_host(c[within])
                parts.append(pd.DataFrame({"origin": self.node_ids[o[start + rows]],
                                           "distance": radius, "node_id": self.node_ids[cols],
                                           "distance_to_node": self.as_given(name, to_host(d[within]))}))
        if not parts:
            return pd.DataFrame({"origin": self.node_ids[:0], "distance": np.empty(0), "node_id": self.node_ids[:0],
                                 "distance_to_node": np.empty(0)})
        return pd.concat(parts, ignore_index=True)

    def isochrone_polygons(self, origins, distances, imp_name=None, hull="convex", ratio=0.3):
        """One polygon per (origin, distance): the convex hull (hull='convex') of the reachable
        nodes' coordinates, or shapely's concave hull (hull='concave', `ratio` as in
        shapely.concave_hull: 1 is the convex hull, smaller follows the points closer). The hull
        of nodes, not of the streets between them. A GeoDataFrame where geopandas is present
        (crs EPSG:4326 for lon/lat networks), else a DataFrame with shapely geometries. Fewer than
        three nodes give a point or a line."""
        try:
            import shapely
        except ImportError as e:
            raise ImportError("isochrone polygons need shapely: pip install shapely") from e
        if hull not in ("convex", "concave"):
            raise ValueError(f"hull must be 'convex' or 'concave'; got {hull!r}")
        nodes = self.isochrones(origins, distances, imp_name)
        pos = self.node_ids.get_indexer(nodes["node_id"])
        nodes = nodes.assign(_x=self.x[pos], _y=self.y[pos])
        rows = []
        for (origin, radius), grp in nodes.groupby(["origin", "distance"], sort=False):
            pts = shapely.multipoints(np.column_stack([grp["_x"].to_numpy(), grp["_y"].to_numpy()]))
            geom = pts.convex_hull if hull == "convex" else shapely.concave_hull(pts, ratio=ratio)
            rows.append((origin, radius, len(grp), geom))
        df = pd.DataFrame(rows, columns=["origin", "distance", "nodes", "geometry"])
        try:
            import geopandas
        except ImportError:
            return df
        return geopandas.GeoDataFrame(df, geometry="geometry", crs="EPSG:4326" if self.lonlat else None)

    # -- pictures -----------------------------------------------------------------------------

    def plot(self, values, *, ax=None, cmap="viridis", size=4.0, edges=True, title=None, colorbar=True,
             figsize=(8, 8)):
        """A map picture of a result per node (a Series indexed by node id, or an array of one
        value per node): nodes coloured by value over the edges in grey. Nodes without a finite
        value are left out. Returns the matplotlib Figure (fig.savefig('map.png') writes it);
        drawn without pyplot, so it works without a display."""
        try:
            from matplotlib.collections import LineCollection
            from matplotlib.figure import Figure
        except ImportError as e:
            raise ImportError("plot needs matplotlib: pip install matplotlib") from e
        if isinstance(values, pd.Series):
            v = values.reindex(self.node_ids).to_numpy(np.float64)
        else:
            v = np.asarray(values, dtype=np.float64)
            if v.shape != (self.num_nodes,):
                raise ValueError(f"values must hold one number per node ({self.num_nodes}); got shape {v.shape}")
        if ax is None:
            fig = Figure(figsize=figsize)
            ax = fig.add_subplot()
        else:
            fig = ax.figure
        if edges and self.num_edges:
            segments = np.stack([np.column_stack([self.x[self._from], self.y[self._from]]),
                                 np.column_stack([self.x[self._to], self.y[self._to]])], axis=1)
            ax.add_collection(LineCollection(segments, colors="0.75", linewidths=0.5, zorder=1))
        shown = np.isfinite(v)
        points = ax.scatter(self.x[shown], self.y[shown], c=v[shown], s=size, cmap=cmap, zorder=2)
        if colorbar and shown.any():
            fig.colorbar(points, ax=ax, shrink=0.7)
        ax.set_aspect(1 / math.cos(math.radians(float(np.mean(self.y)))) if self.lonlat and self.num_nodes else "equal")
        ax.autoscale_view()
        ax.ticklabel_format(useOffset=False)  # coordinates as they are, not offsets from a corner
        if title:
            ax.set_title(title)
        return fig


class _ArcLookup:
    """A second impedance of the arcs a shortest-path tree of the first uses: for each arc
    (u, v) the parallel edge lightest in the first impedance (ties: in the second)."""

    def __init__(self, net, first, second):
        u, v = net._from, net._to
        w1 = net.impedances[first].to_numpy(np.float64)
        w2 = net.impedances[second].to_numpy()
        if net.twoway:
            u, v = np.concatenate([u, v]), np.concatenate([v, u])
            w1, w2 = np.concatenate([w1, w1]), np.concatenate([w2, w2])
        n = max(net.num_nodes, 1)
        keys = u * n + v
        order = np.lexsort((w2, w1, keys))
        keys = keys[order]
        head = np.ones(len(keys), dtype=bool)
        head[1:] = keys[1:] != keys[:-1]
        self.keys, self.n = keys[head], n
        integral = w2.dtype.kind in "iu" or bool((w2 == np.floor(w2)).all()) if w2.size else True
        fits = not w2.size or float(w2.max()) * max(net.num_nodes - 1, 1) <= Graph.INT_INFINITY - 1
        self.dtype = np.uint32 if integral and fits else np.float64
        self.none = unreachable(self.dtype)
        self.weights = w2[order][head].astype(np.uint64 if self.dtype == np.uint32 else np.float64)

    def path_sums(self, predecessors, source):
        """The second impedance summed along the tree's path from the source to every vertex
        (unreachable: self.none). Pointer jumping: after round j every vertex holds the sum over
        its 2**j nearest tree arcs and points 2**j arcs up, so log2(depth) rounds finish. That
        order of the additions is exact for integers only; float sums are then formed level by
        level from the source (each vertex's sum its parent's plus its arc), the left-to-right
        sum of its path that summing the path's weights in order gives, the pointer jumping
        giving the levels (the depths, integers). A path of a tree has fewer than n arcs;
        pointers still up after bit_length(n) rounds would go round a cycle, which is an error,
        not a hang."""
        n = len(predecessors)
        parent = predecessors.astype(np.int64)
        parent[parent == Graph.NO_VERTEX] = -1
        parent[source] = -1
        reached = parent >= 0
        reached[source] = True
        child = np.flatnonzero(parent >= 0)
        arc = np.zeros(n, dtype=self.weights.dtype)
        arc[child] = self.weights[np.searchsorted(self.keys, parent[child] * self.n + child)]
        ordered = self.dtype != np.uint32
        acc = np.zeros(n, dtype=np.int64) if ordered else arc.copy()
        if ordered:
            acc[child] = 1  # the depth
        up = parent.copy()
        active = np.flatnonzero(up >= 0)
        for _ in range(n.bit_length()):
            if not active.size:
                break
            p = up[active]
            acc[active] += acc[p]
            up[active] = up[p]
            active = active[up[active] >= 0]
        if active.size:
            raise RuntimeError(f"the predecessors from {source} hold a cycle through vertex {int(active[0])}")
        if ordered:
            depth = acc[child]
            by_depth = child[np.argsort(depth, kind="stable")]
            ends = np.searchsorted(np.sort(depth), np.arange(1, int(depth.max(initial=0)) + 1), side="right")
            acc = np.zeros(n, dtype=np.float64)
            begin = 0
            for end in ends:
                level = by_depth[begin:end]
                acc[level] = acc[parent[level]] + arc[level]
                begin = end
        out = np.full(n, self.none, dtype=self.dtype)
        out[reached] = acc[reached]
        return out


def _is_list(value):
    return isinstance(value, (list, tuple, np.ndarray, pd.Index, pd.Series))


def _pick_node_ids(nodes, node_id):
    if node_id is not None:
        if node_id not in nodes.columns:
            raise ValueError(f"the node table has no column {node_id!r}")
        return pd.Index(nodes[node_id].to_numpy())
    for name in ("id", "node_id", "osmid"):
        if name in nodes.columns:
            return pd.Index(nodes[name].to_numpy())
    return nodes.index


def _pick_edge_columns(edges, edge_from, edge_to):
    if edge_from is not None or edge_to is not None:
        pair = (edge_from or "from", edge_to or "to")
    else:
        pair = next(((a, b) for a, b in (("from", "to"), ("u", "v"), ("source", "target"))
                     if a in edges.columns and b in edges.columns), None)
        if pair is None:
            raise ValueError("the edge table needs columns from/to (or u/v, source/target, or name them)")
    for c in pair:
        if c not in edges.columns:
            raise ValueError(f"the edge table has no column {c!r}")
    return pair


def main(argv=None):
    """The command line, ``python -m deltasplit.network od|accessibility ...`` (_network_cli
    says what each takes): returns the exit status, 0, or 2 on bad input."""
    from ._network_cli import main as run
    return run(argv)


if __name__ == "__main__":
    import sys
    sys.exit(main())
