"""The NetworkX backend `deltasplit` (entry points networkx.backends and networkx.backend_info).

    nx.single_source_dijkstra_path_length(G, s, backend="deltasplit")

works on a plain NetworkX graph: NetworkX converts it with convert_from_nx (a wrapper that keeps
G and builds deltasplit Graphs per weight attribute on demand) and calls the functions below.
can_run declines unknown keyword arguments. Weights delta-stepping cannot take (callable,
negative, not finite, not numbers) go to NetworkX's own implementation either way: when NetworkX
picks the backend itself, should_run declines them and NetworkX runs its own code; when the call
forces ``backend="deltasplit"`` (where NetworkX asks can_run only, and would raise rather than fall
back), the function below hands the call to NetworkX's implementation with a RuntimeWarning saying
why, so the answer (or NetworkX's error) is NetworkX's.
"""
import functools
import inspect
import math
import warnings

import networkx as nx
import numpy as np

from ._graph import Graph
from ._nx_info import FUNCTIONS, get_info

__all__ = ["backend_interface", "get_info"]

# How often each function really ran here (the test suite checks it: a backend that never loaded
# would hide behind NetworkX's fallback).
calls = {}

_FUNCTIONS = FUNCTIONS


class DeltasplitGraph:
    """A NetworkX graph as this backend holds it: the graph itself and, per weight attribute, the
    deltasplit Graph built from it (Graph.from_networkx: nodes numbered in G's order, weights in
    their own type). Float weights give float distances, as NetworkX's sums of them are, also where
    every weight is a whole number (which the Graph solves as integers: exact, and faster)."""

    __networkx_backend__ = "deltasplit"

    def __init__(self, G):
        self.G = G
        self._graphs = {}

    def solver_graph(self, weight, reverse=False):
        """The Graph of weight attribute `weight` (None: every edge 1), of G's arcs reversed when
        `reverse` (distances to each node rather than from it)."""
        if (weight, reverse) not in self._graphs:
            self._graphs[weight, reverse] = Graph.from_networkx(self.G.reverse(copy=False) if reverse else self.G,
                                                                weight)
        return self._graphs[weight, reverse]

    def is_directed(self):
        return self.G.is_directed()

    def is_multigraph(self):
        return self.G.is_multigraph()

    def __contains__(self, node):
        return node in self.G

    def __len__(self):
        return len(self.G)

    def __iter__(self):
        return iter(self.G)


def _nx_graph(G):
    return G.G if isinstance(G, DeltasplitGraph) else G


def _weights_ok(G, weight):
    """'' when every weight of G (attribute `weight`, default 1) is a finite non-negative number
    and no path of integer weights can pass 2**64 - 2 (the largest times n - 1), else why not."""
    if callable(weight):
        return "callable weights are not supported"
    if weight is None:
        return ""
    heaviest = 0  # of the integer weights, exact
    for _, _, d in G.edges(data=True):
        raw = d.get(weight, 1)
        try:
            w = float(raw)
        except (TypeError, ValueError):
            return f"edge weight {raw!r} is not a number"
        except OverflowError:  # an int past the floats
            return f"edge weight {raw} does not fit 64 bits"
        if not w >= 0 or math.isinf(w):
            return f"edge weight {w} is negative or not finite"
        if isinstance(raw, int):
            heaviest = max(heaviest, raw)
    if heaviest * max(len(G) - 1, 1) > 2**64 - 2:
        return f"integer paths could pass 2**64 - 2 (64 bits: the heaviest weight {heaviest} times n - 1)"
    return ""


# The argument naming the weight attribute, and its default, where it is not ("weight", "weight").
_WEIGHT_ARGUMENT = {"closeness_centrality": ("distance", None)}

_KEYWORDS = {
    "single_source_dijkstra": {"source", "target", "cutoff", "weight"},
    "single_source_dijkstra_path_length": {"source", "cutoff", "weight"},
    "dijkstra_path": {"source", "target", "weight"},
    "dijkstra_path_length": {"source", "target", "weight"},
    "all_pairs_dijkstra_path_length": {"cutoff", "weight"},
    "bellman_ford_path_length": {"source", "target", "weight"},
    "closeness_centrality": {"u", "distance", "wf_improved"},
}
_POSITIONAL = {
    "single_source_dijkstra": ["source", "target", "cutoff", "weight"],
    "single_source_dijkstra_path_length": ["source", "cutoff", "weight"],
    "dijkstra_path": ["source", "target", "weight"],
    "dijkstra_path_length": ["source", "target", "weight"],
    "all_pairs_dijkstra_path_length": ["cutoff", "weight"],
    "bellman_ford_path_length": ["source", "target", "weight"],
    "closeness_centrality": ["u", "distance", "wf_improved"],
}


def _arguments(name, args, kwargs):
    """The call's arguments by name (args exclude the graph)."""
    bound = dict(zip(_POSITIONAL[name], args[1:]))
    bound.update(kwargs)
    return bound


def can_run(name, args, kwargs):
    if name not in _FUNCTIONS:
        return False
    bound = _arguments(name, args, kwargs)
    if set(bound) - _KEYWORDS[name]:
        return f"unsupported arguments: {sorted(set(bound) - _KEYWORDS[name])}"
    return True if args else "no graph"


def _weight_of(name, arguments):
    key, default = _WEIGHT_ARGUMENT.get(name, ("weight", "weight"))
    return arguments.get(key, default)


def should_run(name, args, kwargs):
    why = _weights_ok(_nx_graph(args[0]), _weight_of(name, _arguments(name, args, kwargs)))
    return True if not why else why


def _or_networkx(function):
    """function, or NetworkX's own implementation of it (with a RuntimeWarning saying why) when
    the graph's weights are ones delta-stepping cannot take (the forced backend="deltasplit" case:
    see the module's documentation)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def run(G, *args, **kwargs):
        bound = signature.bind(G, *args, **kwargs)
        bound.apply_defaults()
        why = _weights_ok(_nx_graph(G), _weight_of(function.__name__, bound.arguments))
        if not why:
            return function(G, *args, **kwargs)
        warnings.warn(f"deltasplit backend: {function.__name__} runs NetworkX's own implementation ({why})",
                      RuntimeWarning, stacklevel=2)
        return getattr(nx, function.__name__)(_nx_graph(G), *args, backend="networkx", **kwargs)

    return run


def _solve(G, source, weight, cutoff=None, predecessors=False):
    """(distances by node, tree parent index array or None, nodes) from source."""
    if source not in G.G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    g = G.solver_graph(weight)
    s = _index_of(G, weight)[source]
    limit = math.inf if cutoff is None else float(cutoff)
    r = g.sssp(s, predecessors=predecessors, cutoff=limit)
    dist = _lengths(np.asarray(r.distances), g.nodes, source)
    return dist, (np.asarray(r.predecessors) if predecessors else None), g.nodes


def _lengths(d, nodes, source):
    """One row of distances as NetworkX gives them: reached nodes only, in order of distance, the
    source's 0 an int and the others floats where the weights are (the Graph answers float weights
    in float64), else ints."""
    reached = np.flatnonzero(d != (np.iinfo(d.dtype).max if d.dtype.kind == "u" else np.inf))
    values = d[reached].tolist()
    dist = {nodes[i]: v for i, v in zip(reached.tolist(), values)}
    dist[source] = 0
    order = sorted(dist, key=dist.get)  # NetworkX returns nodes in order of distance
    return {v: dist[v] for v in order}


def _path(parent, nodes, index, source, target):
    path = [target]
    i = index[target]
    while nodes[i] != source:
        i = int(parent[i])
        path.append(nodes[i])
    return path[::-1]


def _index_of(G, weight, reverse=False):
    g = G.solver_graph(weight, reverse)
    if not hasattr(g, "index"):
        g.index = {v: i for i, v in enumerate(g.nodes)}
    return g.index


def _count(name):
    calls[name] = calls.get(name, 0) + 1


@_or_networkx
def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    _count("single_source_dijkstra")
    dist, parent, nodes = _solve(G, source, weight, cutoff, predecessors=True)
    index = _index_of(G, weight)
    if target is not None:
        if target not in dist:  # also when target is not a node, as NetworkX does
            raise nx.NetworkXNoPath(f"No path to {target}.")
        return dist[target], _path(parent, nodes, index, source, target)
    paths = {v: _path(parent, nodes, index, source, v) for v in dist}
    return dist, paths


@_or_networkx
def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    _count("single_source_dijkstra_path_length")
    return _solve(G, source, weight, cutoff)[0]


@_or_networkx
def dijkstra_path(G, source, target, weight="weight"):
    _count("dijkstra_path")
    return single_source_dijkstra(G, source, target=target, weight=weight)[1]


def _path_length(G, source, target, weight):
    if source not in G.G:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if source == target:
        return 0
    dist = _solve(G, source, weight)[0]
    if target not in dist:
        raise nx.NetworkXNoPath(f"Node {target} not reachable from {source}")
    return dist[target]


@_or_networkx
def dijkstra_path_length(G, source, target, weight="weight"):
    _count("dijkstra_path_length")
    return _path_length(G, source, target, weight)


# all_pairs_dijkstra_path_length asks the batched solver for this many bytes of distances at a
# time (rows of the graph's distance type per node): a memory bound on what the generator holds, not a
# tuning of speed (every batch the solver makes within a call shares one uploaded graph).
_ALL_PAIRS_BLOCK_BYTES = 64 << 20


@_or_networkx
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    _count("all_pairs_dijkstra_path_length")
    g = G.solver_graph(weight)
    nodes = g.nodes
    limit = math.inf if cutoff is None else float(cutoff)
    rows = max(1, _ALL_PAIRS_BLOCK_BYTES // (g.distance_dtype.itemsize * max(len(nodes), 1)))
    for first in range(0, len(nodes), rows):
        block = g.distance_matrix(np.arange(first, min(first + rows, len(nodes))), cutoff=limit)
        for i, d in enumerate(block):
            yield (nodes[first + i], _lengths(d, nodes, nodes[first + i]))


@_or_networkx
def bellman_ford_path_length(G, source, target, weight="weight"):
    _count("bellman_ford_path_length")  # negative weights went to NetworkX (_or_networkx)
    return _path_length(G, source, target, weight)


@_or_networkx
def closeness_centrality(G, u=None, distance=None, wf_improved=True):
    """NetworkX's closeness from the row summaries (Graph.row_summaries) of every node, or of u,
    on the graph with its arcs reversed when directed (distances to a node, as NetworkX takes
    them): (reached - 1) / sum, times (reached - 1) / (n - 1) with wf_improved, 0 where the sum is
    0 or n < 2; computed from the counts and sums as NetworkX does (integer sums exact)."""
    _count("closeness_centrality")
    H = _nx_graph(G)
    if u is not None and u not in H:
        raise nx.NodeNotFound(f"Source {u} is not in G")
    g = G.solver_graph(distance, reverse=H.is_directed())
    nodes = g.nodes
    sources = None if u is None else [_index_of(G, distance, H.is_directed())[u]]
    s = g.row_summaries(sources, strategy="multisplit")
    n = len(nodes)
    closeness = {}
    for node, reached, total in zip(nodes if u is None else [u], s["reached"].tolist(), s["sum"].tolist()):
        c = 0.0
        if total > 0 and n > 1:
            c = (reached - 1.0) / total
            if wf_improved:
                c *= (reached - 1.0) / (n - 1)
        closeness[node] = c
    return closeness[u] if u is not None else closeness


def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                    preserve_graph_attrs=False, preserve_all_attrs=False, name=None, graph_name=None):
    return G if isinstance(G, DeltasplitGraph) else DeltasplitGraph(G)


def convert_to_nx(obj, *, name=None):
    return obj.G if isinstance(obj, DeltasplitGraph) else obj


class _Interface:
    """What the networkx.backends entry point loads."""

    convert_from_nx = staticmethod(convert_from_nx)
    convert_to_nx = staticmethod(convert_to_nx)
    can_run = staticmethod(can_run)
    should_run = staticmethod(should_run)
    single_source_dijkstra = staticmethod(single_source_dijkstra)
    single_source_dijkstra_path_length = staticmethod(single_source_dijkstra_path_length)
    dijkstra_path = staticmethod(dijkstra_path)
    dijkstra_path_length = staticmethod(dijkstra_path_length)
    all_pairs_dijkstra_path_length = staticmethod(all_pairs_dijkstra_path_length)
    bellman_ford_path_length = staticmethod(bellman_ford_path_length)
    closeness_centrality = staticmethod(closeness_centrality)


backend_interface = _Interface()

