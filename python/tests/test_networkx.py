"""The NetworkX backend: registered through the entry points, dispatched to on plain NetworkX
graphs, equal to NetworkX's answers, declining what it cannot do, and NetworkX's own
shortest-path and closeness test suites run with NETWORKX_TEST_BACKEND=deltasplit."""
import os
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points

import networkx as nx
import pytest

from deltasplit import nx_backend


def test_entry_points_are_registered():
    assert [e.value for e in entry_points(group="networkx.backends", name="deltasplit")] == \
        ["deltasplit.nx_backend:backend_interface"]
    assert [e.value for e in entry_points(group="networkx.backend_info", name="deltasplit")] == \
        ["deltasplit._nx_info:get_info"]
    assert "deltasplit" in nx.utils.backends.backends
    assert nx.utils.backends.backend_info["deltasplit"]["backend_name"] == "deltasplit"


def grid():
    G = nx.grid_2d_graph(6, 7)
    for i, (u, v) in enumerate(G.edges()):
        G.edges[u, v]["weight"] = (i * 7) % 5
        G.edges[u, v]["cost"] = 1 + (i * 3) % 4
    G.add_node("lonely")
    return G


@pytest.mark.parametrize("weight", ["weight", "cost", None])
def test_functions_dispatch_and_agree_with_networkx(weight):
    G = grid()
    s, t = (0, 0), (5, 6)
    before = dict(nx_backend.calls)
    got = nx.single_source_dijkstra_path_length(G, s, weight=weight, backend="deltasplit")
    assert got == nx.single_source_dijkstra_path_length(G, s, weight=weight)
    assert list(got) == sorted(got, key=got.get)  # in order of distance, as NetworkX gives them
    dist, paths = nx.single_source_dijkstra(G, s, weight=weight, backend="deltasplit")
    assert dist == nx.single_source_dijkstra(G, s, weight=weight)[0]
    for v, p in paths.items():
        assert p[0] == s and p[-1] == v
        assert (len(p) - 1 if weight is None else nx.path_weight(G, p, weight)) == dist[v]
    assert nx.dijkstra_path_length(G, s, t, weight=weight, backend="deltasplit") == \
        nx.dijkstra_path_length(G, s, t, weight=weight)
    p = nx.dijkstra_path(G, s, t, weight=weight, backend="deltasplit")
    assert p[0] == s and p[-1] == t
    assert nx.bellman_ford_path_length(G, s, t, weight=weight, backend="deltasplit") == \
        nx.bellman_ford_path_length(G, s, t, weight=weight)
    assert dict(nx.all_pairs_dijkstra_path_length(G, weight=weight, backend="deltasplit")) == \
        dict(nx.all_pairs_dijkstra_path_length(G, weight=weight))
    assert nx.single_source_dijkstra_path_length(G, s, cutoff=4, weight=weight, backend="deltasplit") == \
        nx.single_source_dijkstra_path_length(G, s, cutoff=4, weight=weight)
    assert nx.closeness_centrality(G, distance=weight, backend="deltasplit") == \
        pytest.approx(nx.closeness_centrality(G, distance=weight), rel=1e-15, abs=0)
    ran = {k: nx_backend.calls.get(k, 0) - before.get(k, 0) for k in nx_backend.calls}
    assert all(ran.get(k, 0) >= 1 for k in nx_backend._FUNCTIONS), ran


@pytest.mark.parametrize("weight", ["weight", "cost", None])
def test_closeness_centrality_agrees_with_networkx(weight):
    """Closeness from the row summaries: every node and one node, wf_improved both ways, an
    undirected grid with a lonely node and a directed graph (distances to each node) with nodes
    that reach nothing; float weights within 1e-15 (NetworkX sums them in another order)."""
    D = nx.DiGraph()
    D.add_weighted_edges_from([(0, 1, 2), (1, 2, 3), (2, 0, 1), (3, 0, 4), (1, 4, 7), (5, 5, 1)])
    nx.set_edge_attributes(D, {e: 1.5 + i for i, e in enumerate(D.edges)}, "cost")
    before = nx_backend.calls.get("closeness_centrality", 0)
    for G in (grid(), D):
        for wf in (True, False):
            want = nx.closeness_centrality(G, distance=weight, wf_improved=wf)
            got = nx.closeness_centrality(G, distance=weight, wf_improved=wf, backend="deltasplit")
            assert list(got) == list(want)
            assert got == pytest.approx(want, rel=1e-15, abs=0)
            assert all(type(v) is float for v in got.values())
            node = next(iter(G))
            assert nx.closeness_centrality(G, node, distance=weight, wf_improved=wf, backend="deltasplit") == \
                pytest.approx(want[node], rel=1e-15, abs=0)
    with pytest.raises(nx.NodeNotFound):
        nx.closeness_centrality(D, "nowhere", backend="deltasplit")
    assert nx.closeness_centrality(nx.Graph(), backend="deltasplit") == {}
    assert nx_backend.calls["closeness_centrality"] >= before + 10


def test_errors_match_networkx():
    G = grid()
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_dijkstra_path_length(G, "nowhere", backend="deltasplit")
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path_length(G, (0, 0), "lonely", backend="deltasplit")
    with pytest.raises(nx.NetworkXNoPath):
        nx.dijkstra_path(G, (0, 0), "lonely", backend="deltasplit")


def test_multigraph_takes_the_lightest_parallel_edge():
    G = nx.MultiDiGraph()
    G.add_edge("a", "b", weight=5)
    G.add_edge("a", "b", weight=2)
    G.add_edge("b", "c", weight=1)
    assert nx.single_source_dijkstra_path_length(G, "a", backend="deltasplit") == {"a": 0, "b": 2, "c": 3}


def typed(result):
    """A result with each value's type beside it (== alone says 3 == 3.0)."""
    if isinstance(result, dict):
        return {k: typed(v) for k, v in result.items()}
    return (type(result).__name__, result)


@pytest.mark.parametrize("weights", [[1.0, 2.0, 4.0], [0.1, 0.2, 0.7], [1, 2, 4], [2**60 + 3, 2**61 + 1, 5]])
def test_distances_have_networkx_types(weights):
    """Float weights give floats (also whole ones, which the solver takes as integers), integer
    weights ints, exact past 2**53; the source's 0 is an int either way."""
    G = nx.Graph()
    G.add_edge("a", "b", weight=weights[0])
    G.add_edge("b", "c", weight=weights[1])
    G.add_edge("c", "d", weight=weights[2])
    G.add_node("lonely")
    want = nx.single_source_dijkstra_path_length(G, "a")
    assert typed(nx.single_source_dijkstra_path_length(G, "a", backend="deltasplit")) == typed(want)
    assert typed(nx.single_source_dijkstra(G, "a", backend="deltasplit")[0]) == typed(want)
    assert typed(nx.dijkstra_path_length(G, "a", "d", backend="deltasplit")) == typed(want["d"])
    assert typed(nx.bellman_ford_path_length(G, "b", "d", backend="deltasplit")) == \
        typed(nx.bellman_ford_path_length(G, "b", "d"))
    assert typed(dict(nx.all_pairs_dijkstra_path_length(G, backend="deltasplit"))) == \
        typed(dict(nx.all_pairs_dijkstra_path_length(G)))


def test_integer_paths_that_could_pass_64_bits_go_to_networkx():
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=2**64)
    G.add_edge(1, 2, weight=2**63)
    assert nx_backend.should_run("single_source_dijkstra_path_length", (G, 0), {}) is not True
    with pytest.warns(RuntimeWarning, match="64 bits"):
        got = nx.single_source_dijkstra_path_length(G, 0, backend="deltasplit")
    assert typed(got) == typed(nx.single_source_dijkstra_path_length(G, 0))
    G.add_edge(0, 1, weight=2**62 + 1)  # (2**62 + 1) x 2 fits: solved here, exactly
    G.add_edge(1, 2, weight=2**62)
    assert nx_backend.should_run("single_source_dijkstra_path_length", (G, 0), {}) is True
    got = nx.single_source_dijkstra_path_length(G, 0, backend="deltasplit")
    assert typed(got) == typed({0: 0, 1: 2**62 + 1, 2: 2**63 + 1})


def test_can_run_and_should_run_decline_what_delta_stepping_cannot_do():
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=-1)
    assert nx_backend.can_run("astar_path", (G, 0, 1), {}) is False
    assert nx_backend.can_run("single_source_dijkstra", (G, 0), {"heuristic": None}) is not True
    # weights are should_run's: can_run must say yes for the forced backend="deltasplit" to fall back
    assert nx_backend.can_run("bellman_ford_path_length", (G, 0, 1), {}) is True
    assert nx_backend.should_run("bellman_ford_path_length", (G, 0, 1), {}) is not True
    assert nx_backend.should_run("single_source_dijkstra", (G, 0), {"weight": lambda u, v, d: 1}) is not True
    G[0][1]["weight"] = 3
    assert nx_backend.should_run("bellman_ford_path_length", (G, 0, 1), {}) is True


def negative_and_cycle():
    H = nx.DiGraph()
    H.add_edge(0, 1, weight=-2)
    H.add_edge(1, 2, weight=3)
    C = H.copy()
    C.add_edge(2, 0, weight=-2)
    return H, C


def test_automatic_dispatch_leaves_unsolvable_weights_to_networkx(recwarn):
    """NetworkX picks the backend (backend_priority): should_run declines negative and callable
    weights and NetworkX runs its own code, without a word from the backend."""
    H, C = negative_and_cycle()
    before = dict(nx_backend.calls)
    with nx.config.backend_priority(algos=["deltasplit"]):
        assert nx.bellman_ford_path_length(H, 0, 2) == 1
        with pytest.raises(nx.NetworkXUnbounded):
            nx.bellman_ford_path_length(C, 0, 2)
        assert nx.single_source_dijkstra_path_length(H, 1, weight=lambda u, v, d: 5) == {1: 0, 2: 5}
        H.add_edge(0, 1, weight=2)  # every weight >= 0 now: the backend solves it
        assert nx.single_source_dijkstra_path_length(H, 1) == {1: 0, 2: 3}
    assert nx_backend.calls.get("bellman_ford_path_length", 0) == before.get("bellman_ford_path_length", 0)
    assert nx_backend.calls["single_source_dijkstra_path_length"] == \
        before.get("single_source_dijkstra_path_length", 0) + 1
    assert not [w for w in recwarn if "deltasplit backend" in str(w.message)]


def test_forced_backend_falls_back_to_networkx_with_a_warning():
    """backend="deltasplit" forced: NetworkX asks can_run only and would raise NotImplementedError;
    the backend runs NetworkX's own implementation instead and says so."""
    H, C = negative_and_cycle()
    before = dict(nx_backend.calls)
    with pytest.warns(RuntimeWarning, match="bellman_ford_path_length runs NetworkX's own.*negative"):
        assert nx.bellman_ford_path_length(H, 0, 2, backend="deltasplit") == 1
    with pytest.warns(RuntimeWarning, match="negative"), pytest.raises(nx.NetworkXUnbounded):
        nx.bellman_ford_path_length(C, 0, 2, backend="deltasplit")
    weight = lambda u, v, d: 5  # noqa: E731
    with pytest.warns(RuntimeWarning, match="callable"):
        got = nx.single_source_dijkstra(H, 0, weight=weight, backend="deltasplit")
    assert got == nx.single_source_dijkstra(H, 0, weight=weight)
    with pytest.warns(RuntimeWarning, match="callable"):
        got = dict(nx.all_pairs_dijkstra_path_length(H, weight=weight, backend="deltasplit"))
    assert got == dict(nx.all_pairs_dijkstra_path_length(H, weight=weight))
    with pytest.warns(RuntimeWarning, match="negative"):
        assert nx.dijkstra_path(H, 0, 2, backend="deltasplit") == nx.dijkstra_path(H, 0, 2)
    assert nx_backend.calls == before  # no deltasplit solve ran


# NetworkX's own tests of these functions, with the backend converting every graph. The plugin
# below fails the run unless the backend really answered calls (NetworkX's fallback would hide a
# backend that never loaded).
PLUGIN = textwrap.dedent("""
    import pytest
    from deltasplit import nx_backend

    def pytest_sessionfinish(session, exitstatus):
        ran = sum(nx_backend.calls.values())
        print("\\ndeltasplit backend calls:", dict(nx_backend.calls))
        if ran < 50:
            session.exitstatus = 3
""")


def test_networkx_shortest_path_and_closeness_suites_run_on_the_backend(tmp_path):
    import networkx
    algorithms = os.path.join(os.path.dirname(networkx.__file__), "algorithms")
    tests = [os.path.join(algorithms, "shortest_paths", "tests"),
             os.path.join(algorithms, "centrality", "tests", "test_closeness_centrality.py")]
    (tmp_path / "deltasplit_ran.py").write_text(PLUGIN)
    env = dict(os.environ, NETWORKX_TEST_BACKEND="deltasplit", NETWORKX_FALLBACK_TO_NX="True",
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "deltasplit_ran",
                           "--rootdir", os.path.dirname(networkx.__file__), *tests],
                          env=env, capture_output=True, text=True, timeout=1800)
    tail = proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert "deltasplit backend calls:" in proc.stdout, tail
