"""deltasplit.dask on a LocalCluster of two worker processes (one thread each, the CPU path):
every output and reduction against Graph.distance_matrix row for row, a worker killed mid-run, an
interrupted run resumed, the refusals, and the `python -m deltasplit matrix` command."""
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from deltasplit import Graph
from deltasplit.__main__ import main as deltasplit_main

from conftest import ROOT

distributed = pytest.importorskip("distributed", reason="deltasplit.dask needs dask.distributed (the dask extra)")
zarr = pytest.importorskip("zarr", reason="deltasplit.dask's Zarr output needs zarr (the dask extra)")
pd = pytest.importorskip("pandas", reason="reading the Parquet output back needs pandas (the dask extra)")
pytest.importorskip("pyarrow", reason="deltasplit.dask's Parquet output needs pyarrow (the dask extra)")

import deltasplit.dask as dd  # noqa: E402  (after the skips: it needs the extra)

# 264,346 vertices: a source takes tens of milliseconds, so that a run of a dozen blocks is still
# running when the tests below interrupt it.
ROADS = ROOT / "datasets" / "USA-road-d.NY.gr.gz"
SMALL_FILE = ROOT / "datasets" / "chesapeake.mtx"


@pytest.fixture(scope="module")
def client():
    with dd.local_cluster(2, 1, dashboard_address=None, worker_dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_local_cluster_turns_down_dasks_diagnostics(client):
    """local_cluster's worker processes run with QUIET_DASK's settings, the rest Dask's defaults."""
    import dask
    for key, value in dd.QUIET_DASK.items():
        assert set(client.run(dask.config.get, key).values()) == {value}
    assert set(client.run(dask.config.get, "distributed.worker.memory.target").values()) == \
        {dask.config.get("distributed.worker.memory.target")}
    assert len(client.scheduler_info()["workers"]) == 2


def random_graph(kind, n=240, arcs=1400, seed=3):
    """A directed graph with zero-weight arcs, parallel arcs and vertices that reach nothing
    (the last ten have no arcs at all); integer or real weights."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n - 10, arcs)
    dst = rng.integers(0, n - 10, arcs)
    w = rng.integers(0, 30, arcs) if kind == "integer" else rng.random(arcs) * 30
    return Graph.from_edges(src, dst, w, n)


@pytest.fixture(scope="module", params=["integer", "real"])
def graph(request):
    return random_graph(request.param)


SOURCES = np.array([0, 5, 5, 239, 17, 100, 233, 42, 7, 8, 9, 120, 64])  # a duplicate, a vertex reaching nothing
TARGETS = np.array([3, 0, 239, 3, 100, 50])


def expected(graph, sources, targets, limit, dtype=None):
    d = graph.distance_matrix(sources, targets, cutoff=np.inf if limit is None else limit)
    return d if dtype is None else dd._convert(d, np.dtype(dtype))


CASES = [(None, None), (TARGETS, None), (None, 25.0), (TARGETS, 25.0)]
STORE_CASES = [CASES[0], CASES[3]]  # the stores share the solving with the in-memory case: two of them suffice


@pytest.mark.parametrize("targets,limit", CASES)
def test_in_memory_equals_distance_matrix(client, graph, targets, limit):
    got = dd.distance_matrix(graph, SOURCES, targets, limit=limit, client=client, block_size=4)
    want = expected(graph, SOURCES, targets, limit)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_distance_array_is_lazy_and_equal(client, graph):
    a = dd.distance_array(graph, SOURCES, TARGETS, client=client, block_size=5)
    assert a.chunks[0] == (5, 5, 3)
    assert np.array_equal(a.compute(), expected(graph, SOURCES, TARGETS, None))


@pytest.mark.parametrize("targets,limit", STORE_CASES)
def test_zarr_equals_distance_matrix(client, graph, targets, limit, tmp_path):
    out = tmp_path / "od.zarr"
    run = dd.distance_matrix(graph, SOURCES, targets, limit=limit, out=str(out), client=client, block_size=4)
    assert run == dd.Run(str(out), 4, 0, 4)
    group = zarr.open_group(str(out), mode="r")
    want = expected(graph, SOURCES, targets, limit)
    assert group["distances"].dtype == want.dtype and np.array_equal(group["distances"][:], want)
    assert np.array_equal(group["sources"][:], SOURCES)
    assert np.array_equal(group["targets"][:], np.arange(graph.num_vertices) if targets is None else targets)
    assert group["distances"].chunks[0] == 4 and group["done"][:].all()


def test_zarr_group_given(client, tmp_path):
    g = random_graph("integer")
    group = zarr.open_group(str(tmp_path / "results.zarr"), mode="w").create_group("od")
    run = dd.distance_matrix(g, SOURCES, out=group, client=client, block_size=7)
    assert (run.blocks, run.written) == (2, 2)
    assert np.array_equal(group["distances"][:], expected(g, SOURCES, None, None))


def test_a_worker_refuses_a_file_that_is_not_the_clients():
    with pytest.raises(ValueError, match="chesapeake.mtx: the graph read on this worker differs"):
        dd._resident_graph("0" * 32, ("file", str(SMALL_FILE), 1))


@pytest.mark.parametrize("dtype", ["uint64", "float64"])
def test_zarr_wider_dtype(client, tmp_path, dtype):
    g = random_graph("integer")
    out = str(tmp_path / "od.zarr")
    dd.distance_matrix(g, SOURCES, out=out, client=client, dtype=dtype, block_size=6)
    got = zarr.open_group(out, mode="r")["distances"][:]
    assert got.dtype == dtype and np.array_equal(got, expected(g, SOURCES, None, None, dtype))
    assert (got == (np.inf if dtype == "float64" else np.iinfo(np.uint64).max)).any()


def long_format(matrix, sources, targets, limit, offset=0):
    """The reachable pairs of a matrix as Parquet holds them, sorted."""
    reached = dd._reached(matrix, limit)
    rows, cols = np.nonzero(reached)
    targets = np.arange(matrix.shape[1]) if targets is None else np.asarray(targets)
    frame = pd.DataFrame({"source": np.asarray(sources)[rows].astype(np.uint64) + offset,
                          "target": targets[cols].astype(np.uint64) + offset, "distance": matrix[rows, cols]})
    return frame.sort_values(["source", "target", "distance"]).reset_index(drop=True)


@pytest.mark.parametrize("targets,limit", STORE_CASES)
def test_parquet_equals_distance_matrix(client, graph, targets, limit, tmp_path):
    out = tmp_path / "od.parquet"
    run = dd.distance_matrix(graph, SOURCES, targets, limit=limit, out=str(out), client=client, block_size=4)
    assert (run.blocks, run.skipped, run.written) == (4, 0, 4)
    assert sorted(os.listdir(out)) == ["_deltasplit.json"] + [f"block-00000{b}.parquet" for b in range(4)]
    got = pd.read_parquet(out).sort_values(["source", "target", "distance"]).reset_index(drop=True)
    want = long_format(expected(graph, SOURCES, targets, limit), SOURCES, targets, limit)
    assert str(got["distance"].dtype) == str(want["distance"].dtype)
    pd.testing.assert_frame_equal(got, want)


def check_reductions(r, graph, targets, limit, sources=SOURCES):
    """reduce's result r against numpy's reductions of the whole matrix."""
    d = expected(graph, sources, targets, limit)
    reached = dd._reached(d, limit)
    wide = np.uint64 if d.dtype.kind == "u" else np.float64
    values = np.where(reached, d, 0).astype(wide)
    unreachable = np.iinfo(d.dtype).max if d.dtype.kind == "u" else np.inf
    masked = np.where(reached, d, unreachable).astype(d.dtype)
    check = np.testing.assert_array_equal if d.dtype.kind == "u" else \
        lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-12)
    check(r.source_sum, values.sum(axis=1))
    check(r.target_sum, values.sum(axis=0))
    np.testing.assert_array_equal(r.source_min, masked.min(axis=1))
    np.testing.assert_array_equal(r.target_min, masked.min(axis=0))
    np.testing.assert_array_equal(r.source_count, reached.sum(axis=1))
    np.testing.assert_array_equal(r.target_count, reached.sum(axis=0))
    assert r.source_min.dtype == d.dtype and r.source_sum.dtype == wide and r.closeness.shape == (len(sources),)


@pytest.mark.parametrize("targets,limit", CASES)
def test_reductions_equal_numpy(client, graph, targets, limit):
    check_reductions(dd.reduce(graph, SOURCES, targets, limit=limit, client=client, block_size=3), graph, targets,
                     limit)


def test_reductions_of_many_blocks_combine_in_groups(client, graph):
    """More blocks than one combine takes (COMBINE_FAN_IN): groups, a group of groups and a
    remainder, still every source and target once."""
    sources = np.resize(SOURCES, 2 * dd.COMBINE_FAN_IN + 5)
    check_reductions(dd.reduce(graph, sources, client=client, block_size=1), graph, None, None, sources)


@pytest.mark.parametrize("limit", [None, 25.0])
def test_row_summaries_equal_graphs(client, graph, limit):
    """dask's row summaries, block by block on the workers, equal Graph.row_summaries on the
    client: sources given (a duplicate, a vertex reaching nothing) and every vertex (None), phast
    on integer weights, float32 asked of real ones; a type that is not a real one is refused."""
    cutoff = np.inf if limit is None else limit
    for sources, block_size in ((SOURCES, 4), (None, None)):
        got = dd.row_summaries(graph, sources, limit=limit, client=client, block_size=block_size)
        want = graph.row_summaries(sources, cutoff=cutoff)
        assert set(got) == set(want)
        for name in want:
            assert got[name].dtype == want[name].dtype, name
            np.testing.assert_array_equal(got[name], want[name], err_msg=name)
    if graph.weight_kind == "integer":
        got = dd.row_summaries(graph, SOURCES, limit=limit, client=client, strategy="phast", block_size=5)
        for name, values in graph.row_summaries(SOURCES, cutoff=cutoff).items():
            np.testing.assert_array_equal(got[name], values, err_msg=name)
    else:
        got = dd.row_summaries(graph, SOURCES, limit=limit, client=client, dtype=np.float32, block_size=6)
        want = graph.row_summaries(SOURCES, cutoff=cutoff, dtype=np.float32)
        assert got["farthest"].dtype == np.float32
        np.testing.assert_array_equal(got["reached"], want["reached"])
        np.testing.assert_allclose(got["sum"], want["sum"], rtol=1e-12)
    with pytest.raises(ValueError, match="dtype"):
        dd.row_summaries(graph, SOURCES, client=client, dtype=np.uint64)


def test_a_graph_file_changed_between_calls_is_read_again(client, tmp_path):
    """The client keeps a graph file it planned on, and reads it again once the file changes (its
    size, time or inode): the second call answers on the new weights."""
    path = tmp_path / "g.mtx"
    path.write_text("%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3 7\n")
    assert dd.distance_matrix(path, [0], client=client).tolist() == [[0, 5, 12]]
    path.write_text("%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 50\n2 3 7\n")
    assert dd.distance_matrix(path, [0], client=client).tolist() == [[0, 50, 57]]


def test_gpu_worker_reduces_in_device_memory(graph):
    """A worker with a GPU resource solves on its GPU and reduces each block in device memory
    (cupy; 32-bit distances): the same reductions as the CPU workers' numpy ones, and the same
    row summaries as the client's CPU solve."""
    import deltasplit
    if not deltasplit.gpu_available():
        pytest.skip("no usable GPU: " + deltasplit.gpu_reason())
    pytest.importorskip("cupy", reason="device-memory reductions need cupy")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=dd.BLOCKS_PER_GPU, processes=True, resources={"GPU": 1},
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as gpu:
        for targets, limit in ((None, None), (TARGETS, None), (None, 40.0)):
            check_reductions(dd.reduce(graph, SOURCES, targets, limit=limit, client=gpu, block_size=4), graph,
                             targets, limit)
        # Row summaries on the GPU worker: its engine's reduction (phast's in the sweep's buffer)
        # equals the client's CPU answer.
        for strategy in ("multisplit", "phast") if graph.weight_kind == "integer" else ("multisplit",):
            for limit in (None, 40.0):
                got = dd.row_summaries(graph, SOURCES, limit=limit, client=gpu, strategy=strategy, block_size=5)
                want = graph.row_summaries(SOURCES, cutoff=np.inf if limit is None else limit, device="cpu")
                for name, values in want.items():
                    if name == "sum" and graph.weight_kind == "real":  # float64 sums: one rounding order
                        np.testing.assert_allclose(got[name], values, rtol=1e-12, err_msg=f"{strategy} {limit}")
                    else:
                        np.testing.assert_array_equal(got[name], values, err_msg=f"{strategy} {limit} {name}")


def test_closeness_matches_networkx(client):
    nx = pytest.importorskip("networkx")
    G = nx.gnm_random_graph(60, 90, seed=5)  # undirected, several components
    for u, v in G.edges:
        G.edges[u, v]["weight"] = (u * 7 + v * 3) % 11 + 1
    g = Graph.from_networkx(G)
    r = dd.reduce(g, np.arange(60), client=client, block_size=16)
    want = nx.closeness_centrality(G, distance="weight")
    np.testing.assert_allclose(r.closeness, [want[v] for v in range(60)], rtol=1e-12)


def test_graph_file_read_by_each_worker(client, tmp_path):
    g = Graph.from_file(SMALL_FILE)
    sources = np.arange(g.num_vertices)
    got = dd.distance_matrix(str(SMALL_FILE), sources, client=client, block_size=10)
    assert np.array_equal(got, g.distance_matrix(sources))
    out = str(tmp_path / "od.zarr")
    dd.distance_matrix(SMALL_FILE, sources, out=out, client=client, id_offset=1)
    assert zarr.open_group(out, mode="r")["sources"][0] == 1


def test_edge_graphs(client):
    """No vertices, one vertex, and weights so large that the graph holds them as float32."""
    empty = Graph.from_edges([], [], [], 0)
    assert dd.distance_matrix(empty, [], client=client).shape == (0, 0)
    one = Graph.from_edges([], [], [], 1)
    assert dd.distance_matrix(one, [0, 0], client=client).tolist() == [[0], [0]]
    assert dd.reduce(one, [0], client=client).closeness.tolist() == [0.0]
    huge = Graph.from_edges([0, 1, 2], [1, 2, 0], [2**31, 2**31 + 2, 7], 4)
    got = dd.distance_matrix(huge, [0, 1, 2, 3], client=client, block_size=3)
    assert np.array_equal(got, huge.distance_matrix([0, 1, 2, 3]), equal_nan=True)


class FakeClient:
    def __init__(self, resources):
        self.resources = resources

    def scheduler_info(self, n_workers=5):
        return {"workers": {f"w{i}": {"resources": r} for i, r in enumerate(self.resources)}}


def test_blocks_ask_for_a_gpu_where_a_worker_has_one(client):
    assert dd._resources(client) is None
    assert dd._resources(FakeClient([{}, {}])) is None
    assert dd._resources(FakeClient([{}, {"GPU": 1}])) == {"GPU": 1 / dd.BLOCKS_PER_GPU}


def test_empty_sources(client, graph, tmp_path):
    assert dd.distance_matrix(graph, [], client=client).shape == (0, graph.num_vertices)
    assert dd.distance_matrix(graph, [], out=str(tmp_path / "e.zarr"), client=client).blocks == 0


def worker_pids(client):
    return client.run(os.getpid)


def wait_for_done(out, count, deadline=60):
    """Waits until the Zarr output at `out` exists (its attributes are written last) and count of
    its blocks are marked done; False at the deadline."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            group = zarr.open_group(str(out), mode="r")
            if "deltasplit" in group.attrs and int(group["done"][:].sum()) >= count:
                return True
        except (FileNotFoundError, KeyError, ValueError):
            pass
        time.sleep(0.01)
    return False


def test_worker_killed_mid_run_loses_nothing(client, tmp_path):
    sources = np.arange(0, 264346, 10007)[:24]
    out = str(tmp_path / "roads.zarr")
    pid = min(worker_pids(client).values())
    killed = []

    def kill_one_worker():
        if wait_for_done(out, 1):
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    run = dd.distance_matrix(str(ROADS), sources, out=out, client=client, block_size=2)
    killer.join()
    assert killed, "the run finished before a worker could be killed"
    assert (run.blocks, run.skipped, run.written) == (12, 0, 12)
    client.wait_for_workers(2, timeout=60)
    group = zarr.open_group(out, mode="r")
    assert np.array_equal(group["distances"][:], Graph.from_file(ROADS).distance_matrix(sources))


def test_resume_skips_finished_blocks_and_says_so(client, graph, tmp_path, capsys):
    out = str(tmp_path / "od.zarr")
    dd.distance_matrix(graph, SOURCES, out=out, client=client, block_size=4)
    group = zarr.open_group(out, mode="a")
    # An interrupted run: blocks 1 and 3 unfinished (their rows garbage, not marked done).
    group["distances"][4:8] = 0
    group["distances"][12:13] = 0
    group["done"][1] = 0
    group["done"][3] = 0
    run = dd.distance_matrix(graph, SOURCES, out=out, client=client, progress=True)
    assert (run.blocks, run.skipped, run.written) == (4, 2, 2)
    assert "2 of 4 blocks already done, skipped" in capsys.readouterr().err
    assert np.array_equal(zarr.open_group(out, mode="r")["distances"][:], expected(graph, SOURCES, None, None))
    parquet = tmp_path / "od.parquet"
    dd.distance_matrix(graph, SOURCES, out=str(parquet), client=client, block_size=4)
    os.remove(parquet / "block-000002.parquet")
    run = dd.distance_matrix(graph, SOURCES, out=str(parquet), client=client)
    assert (run.skipped, run.written) == (3, 1)
    assert len(pd.read_parquet(parquet)) == len(long_format(expected(graph, SOURCES, None, None), SOURCES, None, None))


def test_refusals_before_any_work(client, tmp_path):
    g = random_graph("integer")
    with pytest.raises(IndexError, match="source vertex 240 is out of range"):
        dd.distance_matrix(g, [1, 240], client=client)
    with pytest.raises(TypeError, match="integer vertex ids"):
        dd.distance_matrix(g, [1.5, 2.0], client=client)
    with pytest.raises(IndexError, match="target vertex -1"):
        dd.reduce(g, [1], [-1], client=client)
    with pytest.raises(ValueError, match="cannot hold this graph's uint32 distances exactly"):
        dd.distance_matrix(g, [1], dtype="float32", client=client)
    out = str(tmp_path / "od.zarr")
    dd.distance_matrix(g, SOURCES, out=out, client=client, block_size=4)
    before = zarr.open_group(out, mode="r")["distances"][:]
    refusals = [
        (dict(graph=random_graph("integer", seed=4)), "another graph"),
        (dict(sources=SOURCES[:-1]), "another number of sources"),
        (dict(sources=SOURCES[::-1]), "other sources"),
        (dict(targets=TARGETS), "other targets|another number of targets"),
        (dict(dtype="uint64"), "another distance type"),
        (dict(limit=3), "another limit"),
        (dict(block_size=5), "another block size"),
    ]
    for change, message in refusals:
        args = dict(graph=g, sources=SOURCES, targets=None, out=out, client=client) | change
        with pytest.raises(ValueError, match=message):
            dd.distance_matrix(**args)
    assert np.array_equal(zarr.open_group(out, mode="r")["distances"][:], before)
    foreign = tmp_path / "foreign.parquet"
    foreign.mkdir()
    (foreign / "data.csv").write_text("1,2\n")
    with pytest.raises(ValueError, match="not a deltasplit output"):
        dd.distance_matrix(g, SOURCES, out=str(foreign), client=client)
    other = zarr.open_group(str(tmp_path / "other.zarr"), mode="w")
    other.create_array("x", shape=(3,), dtype="uint8")
    with pytest.raises(ValueError, match="not a deltasplit output"):
        dd.distance_matrix(g, SOURCES, out=other, client=client)
    with pytest.raises(ValueError, match="in-memory Zarr store"):
        dd.distance_matrix(g, SOURCES, out=zarr.storage.MemoryStore(), client=client)
    with pytest.raises(ValueError, match="must end in .zarr or .parquet"):
        dd.distance_matrix(g, SOURCES, out=str(tmp_path / "od.npy"), client=client)


def cli(*args, timeout=120):
    """The command in a process of its own."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run([sys.executable, "-m", "deltasplit", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=timeout)


def main(capsys, *args):
    """The command run in this process (no second import of dask): (exit status, stdout, stderr)."""
    try:
        status = deltasplit_main([str(a) for a in args])
    except SystemExit as e:
        status = e.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_cli_interrupted_and_resumed(client, tmp_path):
    address = client.scheduler.address
    sources = tmp_path / "sources.txt"
    ids = np.arange(1, 264346, 6007)[:40]  # DIMACS numbering: 1-based
    sources.write_text("# road sources\n" + "\n".join(map(str, ids)) + "\n")
    out = tmp_path / "roads.zarr"
    command = [sys.executable, "-m", "deltasplit", "matrix", ROADS, "--sources", sources, "--out", out,
               "--scheduler", address, "--block-size", "4"]
    first = subprocess.Popen(list(map(str, command)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = wait_for_done(out, 2)
    first.kill()  # the client stopped mid-run
    _, err = first.communicate()
    assert started, f"the first run did not finish two blocks: {err}"
    again = cli("matrix", ROADS, "--sources", sources, "--out", out, "--scheduler", address)
    assert again.returncode == 0, again.stderr
    skipped = int(again.stdout.split(" written, ")[1].split(" skipped")[0])
    assert 2 <= skipped < 10 and "10 blocks" in again.stdout
    group = zarr.open_group(str(out), mode="r")
    assert np.array_equal(group["sources"][:], ids)
    assert np.array_equal(group["distances"][:], Graph.from_file(ROADS).distance_matrix(ids - 1))


def test_cli_parquet(client, tmp_path, capsys):
    sources, targets = tmp_path / "sources.txt", tmp_path / "targets.txt"
    sources.write_text("1\n39\n1\n20  # a comment\n\n")
    targets.write_text("1\n39\n4\n")
    out = tmp_path / "od.parquet"
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--sources", sources, "--targets", targets, "--out", out,
                          "--limit", 600, "--scheduler", client.scheduler.address)
    assert status == 0, err
    g = Graph.from_file(SMALL_FILE)
    d = g.distance_matrix([0, 38, 0, 19], [0, 38, 3], cutoff=600)
    want = long_format(d, np.array([0, 38, 0, 19]), [0, 38, 3], 600.0, offset=1)
    got = pd.read_parquet(out).sort_values(["source", "target", "distance"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want)


def test_cli_random_sources_on_a_local_cluster(tmp_path, capsys):
    out = tmp_path / "od.zarr"
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--random-sources", 5, "--seed", 3, "--out", out,
                          "--workers", 1, "--dtype", "float64")
    assert status == 0, err
    group = zarr.open_group(str(out), mode="r")
    ids = group["sources"][:]
    assert len(set(ids.tolist())) == 5 and ids.min() >= 1
    g = Graph.from_file(SMALL_FILE)
    want = dd._convert(g.distance_matrix(ids.astype(np.int64) - 1), np.dtype("float64"))
    assert np.array_equal(group["distances"][:], want)


def test_cli_errors(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n2\nx7\n")
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--sources", bad, "--out", tmp_path / "o.zarr")
    assert status == 1 and f"{bad}:3: 'x7' is not a vertex id" in err
    far = tmp_path / "far.txt"
    far.write_text("40\n")
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--sources", far, "--out", tmp_path / "o.zarr")
    assert status == 1 and f"{far}:1: vertex 40 is out of range" in err
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--sources", tmp_path / "none.txt", "--out", tmp_path / "o.zarr")
    assert status == 1 and "none.txt: cannot read it" in err
    status, _, err = main(capsys, "matrix", tmp_path / "missing.mtx", "--random-sources", 2, "--out", tmp_path / "o.zarr")
    assert status == 1 and "missing.mtx" in err
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--random-sources", 2)
    assert status == 2 and "--out" in err
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--random-sources", 99, "--out", tmp_path / "o.zarr")
    assert status == 2 and "only 39 vertices with out-arcs" in err
    status, _, err = main(capsys, "matrix", SMALL_FILE, "--random-sources", 2, "--sources", bad, "--out", "o.zarr")
    assert status == 2 and "not allowed with" in err
    assert not (tmp_path / "o.zarr").exists()
