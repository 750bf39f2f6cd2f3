"""deltasplit.network against references: OD distances against scipy's Dijkstra, accessibility
and nearest places against a brute force over all-pairs distances (every aggregation, decay and
radius, zero-length edges, one-way streets, unreachable places, places on one node) and against
pandana where it is installed; readers (OSMnx graphs, Parquet/GeoParquet/CSV tables, an OSM
extract written here), isochrones, plots and the command line. The solving tests run on both
paths (the `path` fixture): 'cpu', and 'gpu' where a GPU and cupy are usable (GPU solves whose
blocks stay in device memory and are reduced there by cupy); test_gpu_path_equals_cpu_path
compares the two paths' answers directly, and test_device_branches_on_the_host runs the device
path's code with numpy in cupy's place on every machine."""
import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

pd = pytest.importorskip("pandas", reason="deltasplit.network needs pandas")

import deltasplit.network  # noqa: E402
from deltasplit import Graph  # noqa: E402
from deltasplit._graph import choose_weights  # noqa: E402
from deltasplit.network import AGGREGATIONS, DECAYS, Network, main  # noqa: E402

from conftest import CUPY, ROOT  # noqa: E402

QUANTILE = {"min": 0.0, "25pct": 0.25, "median": 0.5, "75pct": 0.75, "max": 1.0}


# -- helpers --------------------------------------------------------------------------------------

def grid(rows, cols, seed=1, low=1, high=20, ids_from=1000, twoway=True, zero=0.0, real=False, device="auto"):
    """A rows x cols grid network: ids ids_from.., coordinates (col, row), random weights in
    [low, high] (real: uniform floats), a share `zero` of them 0; twoway=False lists each street
    in one random direction only (one-way streets); device: the Network's."""
    rng = np.random.default_rng(seed)
    n = rows * cols
    ids = np.arange(ids_from, ids_from + n)
    r, c = np.divmod(np.arange(n), cols)
    right = np.flatnonzero(c < cols - 1)
    down = np.flatnonzero(r < rows - 1)
    u = np.concatenate([right, down])
    v = np.concatenate([right + 1, down + cols])
    if not twoway:
        flip = rng.random(len(u)) < 0.5
        u, v = np.where(flip, v, u), np.where(flip, u, v)
    w = rng.uniform(low, high, len(u)) if real else rng.integers(low, high + 1, len(u)).astype(np.int64)
    if zero:
        w[rng.random(len(u)) < zero] = 0
    x = pd.Series(c.astype(float), index=ids)
    y = pd.Series(r.astype(float), index=ids)
    return Network(x, y, ids[u], ids[v], pd.DataFrame({"w": w}), twoway=twoway, device=device)


@pytest.fixture(params=["cpu", "gpu"])
def path(request):
    """Where a Network solves and reduces: 'cpu' (CPU solves, numpy), or 'gpu' (GPU solves whose
    blocks stay in device memory, reduced by cupy), skipped without a usable GPU and cupy."""
    if request.param == "gpu" and not CUPY:
        pytest.skip("the GPU path needs a usable GPU and cupy (deltasplit.gpu_available() and import cupy)")
    return request.param


def use(net, path):
    """net set to solve on `path`; on 'gpu', checked to keep its blocks in device memory (a
    silent fall-back to host blocks would leave the device reductions untested)."""
    net.device = path
    if path == "gpu":
        import cupy
        assert net.array_module(net.solver()[1]) is cupy
    return net


def reference_matrix(net, imp=None):
    """The network as a scipy CSR matrix (parallel edges: the lightest; both directions when two-
    way), for scipy.sparse.csgraph.dijkstra."""
    u, v = net._from, net._to
    w = net.impedances[imp or net.impedance_names[0]].to_numpy(np.float64)
    if net.twoway:
        u, v, w = np.concatenate([u, v]), np.concatenate([v, u]), np.concatenate([w, w])
    keep = u != v
    u, v, w = u[keep], v[keep], w[keep]
    order = np.lexsort((w, v, u))
    u, v, w = u[order], v[order], w[order]
    head = np.r_[True, (u[1:] != u[:-1]) | (v[1:] != v[:-1])]
    n = net.num_nodes
    return sp.csr_matrix((w[head], (u[head], v[head])), shape=(n, n))


def all_pairs(net, imp=None):
    return scg.dijkstra(reference_matrix(net, imp))


def as_float(d):
    d = np.asarray(d)
    out = d.astype(np.float64)
    if d.dtype == np.uint32:
        out[d == Graph.INT_INFINITY] = np.inf
    return out


def brute_aggregate(D, positions, values, radius, kind, decay):
    """pandana's definitions, node by node, over the full distance matrix D (node -> node)."""
    out = np.empty(D.shape[0])
    for i in range(D.shape[0]):
        d = D[i, positions]
        within = np.isfinite(d) & (d <= radius)  # unreachable places are within no radius, inf either
        v, dd = values[within], d[within]
        cnt = len(v)
        if kind == "count":
            out[i] = cnt
        elif kind in QUANTILE:
            q = QUANTILE[kind]
            out[i] = -1 if cnt == 0 else np.sort(v)[min(int(cnt * q), cnt - 1)]
        elif kind == "std":
            out[i] = 0 if cnt == 0 else math.sqrt(max(np.mean(v * v) - np.mean(v) ** 2, 0))
        else:
            if decay == "flat" or radius == 0:
                wgt = np.ones_like(dd)
            elif decay == "linear":
                wgt = 1 - dd / radius
            else:
                wgt = np.exp(-dd / radius)
            s = float(np.sum(wgt * v))
            out[i] = s if kind == "sum" else (s / cnt if cnt else 0.0)
    return out


def assert_aggregate(ours, want, kind):
    if kind in ("count",) or kind in QUANTILE:
        np.testing.assert_array_equal(ours, want)
    else:
        np.testing.assert_allclose(ours, want, rtol=1e-10, atol=1e-9)


# -- construction and errors ----------------------------------------------------------------------

def test_construction_checks_its_input():
    x = pd.Series([0.0, 1.0], index=[5, 6])
    with pytest.raises(ValueError, match="not a node id"):
        Network(x, x, [5], [7], pd.DataFrame({"w": [1]}))
    with pytest.raises(ValueError, match="negative"):
        Network(x, x, [5], [6], pd.DataFrame({"w": [-1.0]}))
    with pytest.raises(ValueError, match="not finite"):
        Network(x, x, [5], [6], pd.DataFrame({"w": [np.nan]}))
    with pytest.raises(ValueError, match="unique"):
        Network(pd.Series([0.0, 1.0], index=[5, 5]), x, [5], [5], pd.DataFrame({"w": [1]}))
    with pytest.raises(ValueError, match="2 edge weights for 1 edges"):
        Network(x, x, [5], [6], pd.DataFrame({"w": [1, 2]}))
    net = Network(x, x, [5], [6], pd.DataFrame({"w": [1]}))
    with pytest.raises(ValueError, match="unknown impedance"):
        net.shortest_path_lengths([5], [6], imp_name="time")
    with pytest.raises(ValueError, match="unknown aggregation"):
        net.set([5])
        net.aggregate(3, type="mode")
    with pytest.raises(ValueError, match="unknown decay"):
        net.aggregate(3, decay="gauss")
    with pytest.raises(ValueError, match="no variable"):
        net.aggregate(3, name="jobs")
    with pytest.raises(ValueError, match=">= 0"):
        net.aggregate(-1)


def test_empty_and_one_node_networks(path):
    empty = Network(pd.Series([], dtype=float), pd.Series([], dtype=float), [], [], pd.DataFrame({"w": []}),
                    device=path)
    assert empty.shortest_path_lengths([], []).size == 0
    empty.set([])
    assert empty.aggregate(5).size == 0
    one = Network(pd.Series([2.0], index=["a"]), pd.Series([3.0], index=["a"]), [], [],
                  pd.DataFrame({"w": np.array([], dtype=np.int64)}), device=path)
    assert as_float(one.shortest_path_lengths(["a"], ["a"])).tolist() == [0.0]
    one.set(pd.Series(["a", "a"]), pd.Series([2.0, 5.0]))
    assert one.aggregate(0, type="sum", decay="linear").tolist() == [7.0]
    assert one.aggregate(0, type="median").tolist() == [5.0]
    assert one.get_node_ids([10.0], [10.0]).tolist() == ["a"]


# -- origin-destination ---------------------------------------------------------------------------

@pytest.mark.parametrize("twoway", [True, False])
def test_pairs_on_the_hierarchy_equal_dijkstra(twoway, path, monkeypatch):
    # strategy 'phast': pairs of many origins go by the pair query (on the host threads, or on
    # the GPU a warp a pair), pairs of few origins by sweeps (network.PAIRS_PER_SWEEP, here at
    # full height on this small grid, or PAIRS_PER_SWEEP_GPU); both equal Dijkstra's.
    monkeypatch.setattr(deltasplit.network, "PAIRS_PER_SWEEP_VERTICES", 1)
    net = use(grid(9, 11, seed=5, twoway=twoway, zero=0.1), path)
    net.strategy = "phast"
    ref = all_pairs(net)
    rng = np.random.default_rng(1)
    o = rng.integers(0, net.num_nodes, 300)
    d = rng.integers(0, net.num_nodes, 300)
    d[:4] = o[:4]
    calls = []
    real_pairs = Graph.pair_distances
    monkeypatch.setattr(Graph, "pair_distances", lambda self, *a, **k: calls.append(1) or real_pairs(self, *a, **k))
    for origins in (o, np.resize(o[:3], len(o))):  # many origins (pairs), three origins (sweeps)
        ours = net.shortest_path_lengths(net.node_ids[origins], net.node_ids[d])
        assert ours.dtype == np.uint32
        np.testing.assert_array_equal(as_float(ours), ref[origins, d])
    assert len(calls) == 1


@pytest.mark.parametrize("twoway", [True, False])
@pytest.mark.parametrize("real", [False, True])
def test_shortest_path_lengths_equal_dijkstra(twoway, real, path):
    net = use(grid(9, 11, seed=3, twoway=twoway, real=real, zero=0.1), path)
    ref = all_pairs(net)
    rng = np.random.default_rng(0)
    o = rng.integers(0, net.num_nodes, 400)
    d = rng.integers(0, net.num_nodes, 400)
    d[:5] = o[:5]  # places on the same node
    ours = net.shortest_path_lengths(net.node_ids[o], net.node_ids[d])
    assert ours.dtype == (np.float32 if real else np.uint32) or real and ours.dtype == np.float64
    want = ref[o, d]
    if not twoway:
        assert np.isinf(want).any()  # one-way streets leave pairs unreachable
    got = as_float(ours)
    assert np.array_equal(np.isinf(got), np.isinf(want))
    f = np.isfinite(want)
    np.testing.assert_allclose(got[f], want[f], rtol=1e-6 if real else 0)
    # few destinations: solved from them on the reverse graph, same answers
    d2 = np.resize(d[:3], len(o))
    np.testing.assert_allclose(as_float(net.shortest_path_lengths(net.node_ids[o], net.node_ids[d2])),
                               ref[o, d2], rtol=1e-6 if real else 0)


def test_huge_weights(path):
    """Integer weights whose paths could pass 2**32: the package's exact uint64 distances."""
    ids = np.arange(6)
    w = np.array([3_000_000_000, 4_000_000_000, 1, 0, 2_500_000_000], dtype=np.int64)
    net = Network(pd.Series(ids * 1.0), pd.Series(ids * 0.0), ids[:-1], ids[1:], pd.DataFrame({"w": w}),
                  twoway=False, device=path)
    got = net.shortest_path_lengths(np.zeros(6, dtype=np.int64), ids)
    assert got.dtype == np.uint64
    np.testing.assert_array_equal(got, np.concatenate([[0], np.cumsum(w)]))
    net.set(ids[[5, 2]], [1.0, 2.0])
    np.testing.assert_array_equal(net.aggregate(1e10, type="count", decay="flat").to_numpy(), [2, 2, 2, 1, 1, 1])


def test_a_float_column_of_whole_numbers_answers_in_float64(tmp_path, path):
    """pandana's float `distance` column whose values happen to be whole: float64 distances with
    inf for unreachable, in every output (the solver takes them as integers: exact, then
    converted); the same column as integers keeps uint32 and INT_INFINITY."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:  # Parquet output is the optional 'road' extra's
        pa = pq = None
    base = grid(6, 7, seed=5, twoway=False, zero=0.1)
    whole = base.impedances["w"].to_numpy()
    ids = base.node_ids
    for column, dtype, none in ((whole.astype(np.float64), np.float64, np.inf),
                                (whole, np.uint32, Graph.INT_INFINITY)):
        net = use(Network(pd.Series(base.x, index=ids), pd.Series(base.y, index=ids), ids[base._from], ids[base._to],
                          pd.DataFrame({"w": column, "m": column * 3}), twoway=False), path)
        ref = all_pairs(net)
        o = np.arange(net.num_nodes)
        d = np.roll(o, 5)
        assert np.isinf(ref[o, d]).any()  # one-way streets leave pairs unreachable
        got = net.shortest_path_lengths(ids[o], ids[d])
        assert got.dtype == dtype
        np.testing.assert_array_equal(as_float(got), ref[o, d])
        assert (got[np.isinf(ref[o, d])] == none).all()
        lengths, sums = net.shortest_path_lengths(ids[o], ids[d], sum_along="m")
        assert lengths.dtype == dtype and sums.dtype == dtype
        np.testing.assert_array_equal(as_float(sums), 3 * ref[o, d])
        table = net.od_table(ids[:9], ids[:9])
        assert (table.dtypes == dtype).all()
        np.testing.assert_array_equal(as_float(table.to_numpy()), ref[:9, :9])
        if pq is not None:
            net.to_parquet(tmp_path / "od.parquet", ids[:9], ids[:9], overwrite=True)
            assert pq.read_table(tmp_path / "od.parquet").column("distance").type == pa.from_numpy_dtype(dtype)
        iso = net.isochrones(ids[:3], [10, 30])
        assert iso["distance_to_node"].dtype == dtype


def test_auto_strategy_contracts_for_many_origins_on_the_cpu(monkeypatch):
    monkeypatch.setattr(deltasplit.network, "PHAST_SOURCES", 20)
    base = grid(7, 8, seed=12, twoway=False)
    net = Network(pd.Series(base.x, index=base.node_ids), pd.Series(base.y, index=base.node_ids),
                  base.node_ids[base._from], base.node_ids[base._to], base.impedances, twoway=False, device="cpu")
    assert net.solver(sources=20)[1] == "phast" and net.solver(sources=19)[1] == "multisplit"
    assert net.solver(sources=500, cutoff=10.0)[1] == "multisplit"
    ref = all_pairs(base)
    ids = base.node_ids
    np.testing.assert_array_equal(as_float(net.od_table(ids, ids).to_numpy()), ref)
    np.testing.assert_array_equal(as_float(net.od_table(ids[:5], ids).to_numpy()), ref[:5])
    net.set(ids[[3, 9, 9]], [1.0, 2.0, 4.0])
    np.testing.assert_array_equal(net.aggregate(12.0, type="sum", decay="flat").to_numpy(),
                                  brute_aggregate(ref, np.array([3, 9, 9]), np.array([1.0, 2, 4]), 12, "sum", "flat"))
    assert {key[2] for key in net._graphs} == {True, False}  # a graph for each, neither rebuilt
    with pytest.raises(ValueError, match="unknown strategy"):
        Network(base.x, base.y, [], [], pd.DataFrame({"w": []}), strategy="fastest")


def test_od_table_and_blocks_bounded(path):
    net = use(grid(8, 8, seed=5, twoway=False), path)
    ref = all_pairs(net)
    o, d = np.arange(0, 64, 3), np.arange(1, 64, 5)
    small = Network(pd.Series(net.x, index=net.node_ids), pd.Series(net.y, index=net.node_ids),
                    net.node_ids[net._from], net.node_ids[net._to], net.impedances, twoway=False, block_entries=7,
                    device=path)
    for n in (net, small):
        table = n.od_table(net.node_ids[o], net.node_ids[d])
        assert list(table.index) == list(net.node_ids[o]) and list(table.columns) == list(net.node_ids[d])
        np.testing.assert_array_equal(as_float(table.to_numpy()), ref[np.ix_(o, d)])
    cut = small.od_table(net.node_ids[o], net.node_ids[d], cutoff=15)
    want = np.where(ref[np.ix_(o, d)] <= 15, ref[np.ix_(o, d)], np.inf)
    np.testing.assert_array_equal(as_float(cut.to_numpy()), want)


def test_to_parquet_writes_the_long_table(tmp_path, path):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")
    net = use(grid(6, 7, seed=2, twoway=False), path)
    net.block_entries = 50  # blocks of a row or two: the file is written in many parts
    ref = all_pairs(net)
    path = tmp_path / "od.parquet"
    rows = net.to_parquet(path, net.node_ids, net.node_ids[:10], cutoff=40)
    t = pq.read_table(path).to_pandas()
    want = [(net.node_ids[i], net.node_ids[j], ref[i, j]) for i in range(42) for j in range(10) if ref[i, j] <= 40]
    assert rows == len(t) == len(want)
    got = sorted(zip(t.origin, t.destination, t.distance.astype(float)))
    assert got == sorted(want)
    with pytest.raises(FileExistsError):
        net.to_parquet(path, net.node_ids[:1], net.node_ids[:1])
    assert len(pq.read_table(path)) == rows
    assert net.to_parquet(tmp_path / "none.parquet", [], net.node_ids) == 0
    assert pq.read_table(tmp_path / "none.parquet").column_names == ["origin", "destination", "distance"]


@pytest.mark.parametrize("twoway", [True, False])
@pytest.mark.parametrize("float_metres", [False, True])
def test_second_impedance_summed_along_the_path(twoway, float_metres):
    """Integer metres exactly; float metres exactly as summing the path's weights from the origin
    in order (left to right) gives them."""
    rng = np.random.default_rng(11)
    base = grid(7, 9, seed=4, twoway=twoway, real=True)
    metres = rng.uniform(0, 500, base.num_edges) if float_metres else rng.integers(0, 500, base.num_edges)
    net = Network(pd.Series(base.x, index=base.node_ids), pd.Series(base.y, index=base.node_ids),
                  base.node_ids[base._from], base.node_ids[base._to],
                  pd.DataFrame({"time": base.impedances["w"], "metres": metres}), twoway=twoway)
    m = reference_matrix(net, "time")
    o = rng.integers(0, net.num_nodes, 120)
    d = rng.integers(0, net.num_nodes, 120)
    lengths, sums = net.shortest_path_lengths(net.node_ids[o], net.node_ids[d], sum_along="metres")
    dist, pred = scg.dijkstra(m, indices=np.unique(o), return_predecessors=True)
    row = {s: i for i, s in enumerate(np.unique(o))}
    lookup = {}
    w2 = np.concatenate([metres, metres]) if twoway else metres
    uu = np.concatenate([net._from, net._to]) if twoway else net._from
    vv = np.concatenate([net._to, net._from]) if twoway else net._to
    for a, b, w in zip(uu, vv, w2):
        lookup[(a, b)] = w
    assert sums.dtype == (np.float64 if float_metres else np.uint32)
    for i in range(len(o)):
        r, t = row[o[i]], d[i]
        if np.isinf(dist[r, t]):
            assert lengths[i] == np.inf and sums[i] == (np.inf if float_metres else Graph.INT_INFINITY)
            continue
        arcs = []
        while t != o[i]:
            arcs.append(lookup[(pred[r, t], t)])
            t = pred[r, t]
        total = 0
        for w in reversed(arcs):  # from the origin
            total += w
        assert sums[i] == total
        np.testing.assert_allclose(float(lengths[i]), dist[r, d[i]], rtol=1e-6)


def test_path_sums_follow_the_tree_and_refuse_a_cycle():
    from deltasplit.network import _ArcLookup
    net = Network(pd.Series(np.zeros(4)), pd.Series(np.zeros(4)), [0, 1, 2, 1], [1, 2, 1, 3],
                  pd.DataFrame({"a": [1, 0, 0, 1], "b": [5, 6, 7, 8]}), twoway=False)
    lookup = _ArcLookup(net, "a", "b")
    none = Graph.NO_VERTEX
    assert lookup.path_sums(np.array([none, 0, 1, 1], dtype=np.uint32), 0).tolist() == [0, 5, 11, 13]
    with pytest.raises(RuntimeError, match="cycle"):  # 1 <-> 2 by zero-length arcs
        lookup.path_sums(np.array([none, 2, 1, 1], dtype=np.uint32), 0)


# -- accessibility --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small_city():
    """A one-way 6 x 7 grid with zero-length edges, an unreachable corner, and values: several
    on one node, negative and fractional ones."""
    net = grid(6, 7, seed=9, twoway=False, zero=0.15, high=9)
    rng = np.random.default_rng(4)
    places = rng.integers(0, net.num_nodes, 30)
    places[:3] = places[0]
    values = np.round(rng.normal(5, 3, 30), 2)
    return net, places, values, all_pairs(net)


@pytest.mark.parametrize("decay", DECAYS)
def test_aggregate_equals_brute_force(small_city, decay, path):
    net, places, values, D = small_city
    use(net, path)
    net.set(pd.Series(net.node_ids[places]), pd.Series(values), name="v")
    radii = [0.0, 7.0, 12.5, 1e9]  # zero, inside, and beyond the diameter
    got = net.aggregate(radii, type=list(AGGREGATIONS), decay=decay, name="v")
    for kind in AGGREGATIONS:
        for r in radii:
            assert_aggregate(got[(kind, r)].to_numpy(), brute_aggregate(D, places, values, r, kind, decay), kind)
    single = net.aggregate(7.0, type="mean", decay=decay, name="v")
    assert isinstance(single, pd.Series) and list(single.index) == list(net.node_ids)
    np.testing.assert_allclose(single.to_numpy(), got[("mean", 7.0)].to_numpy())


def test_aggregate_of_64_bit_distances_leaves_unreachable_places_out(path):
    """Integer impedances whose paths may pass 2^32 - 2 give uint64 distances, unreachable all
    ones (UINT64_INFINITY, not INT_INFINITY): an infinite radius still leaves the places a node
    cannot reach out of its aggregations; isochrones and OD pairs too."""
    net = use(grid(6, 7, seed=9, twoway=False, zero=0.15, high=9 * 10**8), path)
    assert net.distance_dtype(net.solver()[0]) == np.uint64
    D = all_pairs(net)
    assert np.isinf(D).any()
    rng = np.random.default_rng(4)
    places = rng.integers(0, net.num_nodes, 30)
    values = np.round(rng.normal(5, 3, 30), 2)
    net.set(pd.Series(net.node_ids[places]), pd.Series(values), name="v")
    for radius in (math.inf, 3e9):
        got = net.aggregate([radius], type=["count", "sum", "max"], decay="flat", name="v")
        for kind in ("count", "sum", "max"):
            assert_aggregate(got[(kind, radius)].to_numpy(), brute_aggregate(D, places, values, radius, kind, "flat"), kind)
    o, d = np.divmod(np.arange(net.num_nodes ** 2), net.num_nodes)
    lengths = net.shortest_path_lengths(net.node_ids[o], net.node_ids[d])
    assert lengths.dtype == np.uint64
    reach = np.isfinite(D[o, d])
    assert (lengths[~reach] == Network.UINT64_INFINITY).all()
    np.testing.assert_array_equal(lengths[reach], D[o, d][reach].astype(np.uint64))
    iso = net.isochrones(net.node_ids[[0]], [math.inf])
    assert sorted(iso["node_id"]) == sorted(net.node_ids[np.isfinite(D[0])])


def test_aggregate_in_small_blocks(small_city, path):
    net, places, values, D = small_city
    tiny = Network(pd.Series(net.x, index=net.node_ids), pd.Series(net.y, index=net.node_ids),
                   net.node_ids[net._from], net.node_ids[net._to], net.impedances, twoway=False, block_entries=1,
                   device=path)
    tiny.set(pd.Series(net.node_ids[places]), pd.Series(values))
    for kind in ("sum", "median", "max", "std"):
        assert_aggregate(tiny.aggregate(9.0, type=kind, decay="exp").to_numpy(),
                         brute_aggregate(D, places, values, 9.0, kind, "exp"), kind)


def test_range_index_node_ids_take_positions_without_a_lookup():
    """Node ids of a RangeIndex (pandas' default, here from 10) map to positions by subtraction:
    the answers equal those of the same ids in a plain index, and ids outside the range, of
    other integer types, or not integers are refused or matched as an index would."""
    ref = grid(5, 6, ids_from=10, device="cpu")
    n = ref.num_nodes
    rng_ids = pd.RangeIndex(10, 10 + n)
    net = Network(pd.Series(ref.x, index=rng_ids), pd.Series(ref.y, index=rng_ids), ref.node_ids[ref._from],
                  ref.node_ids[ref._to], ref.impedances, twoway=True, device="cpu")
    assert isinstance(net.node_ids, pd.RangeIndex)
    ids = np.array([10, 11, 10 + n - 1, 20], dtype=np.int32)
    np.testing.assert_array_equal(net.node_positions(ids), ref.node_positions(ids))
    np.testing.assert_array_equal(net.node_positions(ids.astype(np.uint16)), [0, 1, n - 1, 10])
    np.testing.assert_array_equal(net.node_positions(np.array([12.0, 13.0])), [2, 3])
    np.testing.assert_array_equal(net.node_positions(np.array([2**63 - 1 - 5, 15], dtype=np.uint64)[1:]), [5])
    for bad in ([9], [10 + n], [-1], [2**62], np.array([2**64 - 1], dtype=np.uint64), [10.5]):
        with pytest.raises(ValueError, match="is not a node id"):
            net.node_positions(bad)
    o, d = ids[[0, 1, 2]], ids[[3, 3, 0]]
    np.testing.assert_array_equal(net.shortest_path_lengths(o, d), ref.shortest_path_lengths(o, d))


def test_set_drops_missing_rows_with_a_warning(path):
    net = use(grid(3, 3), path)
    with pytest.warns(UserWarning, match="dropped 1"):
        net.set(pd.Series([1000, 1001, 1002]), pd.Series([1.0, np.nan, 2.0]))
    assert net.aggregate(0, type="count", decay="flat").sum() == 2
    with pytest.raises(ValueError, match="not a node id"):
        net.set(pd.Series([1000, 5]))


# -- nearest places -------------------------------------------------------------------------------

def brute_nearest(D, poi_nodes, radius, k):
    n = D.shape[0]
    dist = np.full((n, k), np.inf)
    which = np.full((n, k), -1)
    for i in range(n):
        d = D[i, poi_nodes]
        order = np.lexsort((np.arange(len(d)), d))
        order = order[d[order] <= radius][:k]
        dist[i, :len(order)] = d[order]
        which[i, :len(order)] = order
    return dist, which


def test_nearest_pois_equal_brute_force(small_city, path):
    net, places, _, D = small_city
    use(net, path)
    ids = [f"shop{i}" for i in range(12)]
    nodes = places[:12]
    x = pd.Series(net.x[nodes] + 0.1, index=ids)
    y = pd.Series(net.y[nodes] - 0.1, index=ids)
    net.set_pois("shops", 20, 4, x, y)
    got = net.nearest_pois(15, "shops", num_pois=4, include_poi_ids=True)
    dist, which = brute_nearest(D, nodes, 15, 4)
    assert list(got.columns) == [1, 2, 3, 4, "poi1", "poi2", "poi3", "poi4"]
    np.testing.assert_array_equal(got[[1, 2, 3, 4]].to_numpy(), np.where(which >= 0, dist, 15.0))
    for j in range(4):
        want = [ids[w] if w >= 0 else None for w in which[:, j]]
        assert [None if pd.isna(v) else v for v in got[f"poi{j + 1}"]] == want
    full = net.nearest_pois(20, "shops", num_pois=2, max_distance=-1)
    dist20, which20 = brute_nearest(D, nodes, 20, 2)
    np.testing.assert_array_equal(full.to_numpy(), np.where(which20 >= 0, dist20, -1))
    with pytest.raises(ValueError, match="maxdist"):
        net.nearest_pois(21, "shops")
    with pytest.raises(ValueError, match="maxitems"):
        net.nearest_pois(15, "shops", num_pois=5)
    with pytest.raises(ValueError, match="category"):
        net.nearest_pois(15, "schools")


# -- nearest nodes, isochrones, pictures ----------------------------------------------------------

def test_get_node_ids_projected_and_lonlat():
    rng = np.random.default_rng(2)
    x, y = rng.uniform(0, 100, 50), rng.uniform(0, 100, 50)
    net = Network(pd.Series(x, index=range(10, 60)), pd.Series(y, index=range(10, 60)), [], [],
                  pd.DataFrame({"w": np.array([], dtype=np.int64)}))
    px = pd.Series(rng.uniform(0, 100, 30), index=[f"p{i}" for i in range(30)])
    py = pd.Series(rng.uniform(0, 100, 30), index=px.index)
    got = net.get_node_ids(px, py)
    d2 = (px.to_numpy()[:, None] - x) ** 2 + (py.to_numpy()[:, None] - y) ** 2
    assert list(got.index) == list(px.index)
    np.testing.assert_array_equal(got.to_numpy(), np.argmin(d2, axis=1) + 10)
    near = net.get_node_ids(px, py, mapping_distance=3.0)
    assert list(near.index) == list(px.index[np.sqrt(d2.min(axis=1)) <= 3.0])
    lon, lat = rng.uniform(-0.05, 0.05, 50) + 13.4, rng.uniform(-0.05, 0.05, 50) + 52.5
    geo = Network(pd.Series(lon), pd.Series(lat), [], [], pd.DataFrame({"w": np.array([], dtype=np.int64)}),
                  lonlat=True)
    plon, plat = rng.uniform(-0.05, 0.05, 20) + 13.4, rng.uniform(-0.05, 0.05, 20) + 52.5
    from deltasplit._network_io import haversine_m
    metres = haversine_m(plon[:, None], plat[:, None], lon[None, :], lat[None, :])
    np.testing.assert_array_equal(geo.get_node_ids(plon, plat).to_numpy(), np.argmin(metres, axis=1))
    limit = float(np.median(metres.min(axis=1)))
    assert len(geo.get_node_ids(plon, plat, mapping_distance=limit)) == int((metres.min(axis=1) <= limit).sum())


def test_isochrones(small_city, path):
    net, _, _, D = small_city
    use(net, path)
    origins = net.node_ids[[0, 17, 17]]
    iso = net.isochrones(origins, [0, 6, 1e9])
    for o in (0, 17):
        for r in (0, 6, 1e9):
            rows = iso[(iso.origin == net.node_ids[o]) & (iso.distance == r)]
            want = set(net.node_ids[np.flatnonzero(D[o] <= r)])
            assert set(rows.node_id) == want
            assert len(rows) == (2 if o == 17 else 1) * len(want)
    shapely = pytest.importorskip("shapely", reason="isochrone polygons need shapely")
    polys = net.isochrone_polygons(net.node_ids[[17]], [6.0])
    reach = np.flatnonzero(D[17] <= 6)
    hull = shapely.multipoints(np.column_stack([net.x[reach], net.y[reach]])).convex_hull
    assert polys.geometry.iloc[0].equals(hull) and polys.nodes.iloc[0] == len(reach)
    concave = net.isochrone_polygons(net.node_ids[[17]], [6.0], hull="concave", ratio=0.2)
    assert concave.geometry.iloc[0].area <= hull.area + 1e-12


def test_plot_renders_a_png(small_city, tmp_path):
    pytest.importorskip("matplotlib", reason="plots need matplotlib")
    net, places, values, _ = small_city
    net.set(pd.Series(net.node_ids[places]), pd.Series(values))
    fig = net.plot(net.aggregate(8.0), title="sum within 8")
    path = tmp_path / "map.png"
    fig.savefig(path, dpi=50)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="one number per node"):
        net.plot(np.zeros(3))


# -- the two paths: blocks, and the GPU's answers against the CPU's ------------------------------

def test_blocks_solved_and_reduced_in_different_rows(small_city, path, monkeypatch):
    """Blocks of 7 rows solved at once, handed to the reductions 3 rows at a time (as on the
    device, where the solver gets far more rows per call than a reduction takes)."""
    net, places, values, D = small_city
    use(net, path)
    monkeypatch.setattr(Network, "block_rows", lambda self, xp, columns, dtype: (7, 3))
    net.set(pd.Series(net.node_ids[places]), pd.Series(values), name="v")
    got = net.aggregate([0.0, 9.0], type=list(AGGREGATIONS), decay="linear", name="v")
    for kind in AGGREGATIONS:
        for r in (0.0, 9.0):
            assert_aggregate(got[(kind, r)].to_numpy(), brute_aggregate(D, places, values, r, kind, "linear"), kind)
    ids = [f"shop{i}" for i in range(12)]
    net.set_pois("shops", 20, 3, pd.Series(net.x[places[:12]], index=ids), pd.Series(net.y[places[:12]], index=ids))
    dist, which = brute_nearest(D, places[:12], 14, 3)
    np.testing.assert_array_equal(net.nearest_pois(14, "shops", num_pois=3).to_numpy(),
                                  np.where(which >= 0, dist, 14.0))
    everyone = net.node_ids
    np.testing.assert_array_equal(as_float(net.od_table(everyone, everyone[::5]).to_numpy()), D[:, ::5])
    rng = np.random.default_rng(3)
    o, d = rng.integers(0, net.num_nodes, 200), rng.integers(0, net.num_nodes, 200)
    np.testing.assert_array_equal(as_float(net.shortest_path_lengths(everyone[o], everyone[d])), D[o, d])
    iso = net.isochrones(everyone, [5.0])
    assert len(iso) == int((D <= 5).sum())
    np.testing.assert_array_equal(iso.distance_to_node.to_numpy(np.float64),
                                  D[everyone.get_indexer(iso.origin), everyone.get_indexer(iso.node_id)])


def _answers(net):
    """Every kind of answer the layer gives, on one network, for comparing the two paths."""
    rng = np.random.default_rng(17)
    n, ids = net.num_nodes, net.node_ids
    places = rng.integers(0, n, 40)
    places[:4] = places[0]
    net.set(pd.Series(ids[places]), pd.Series(np.round(rng.normal(5, 3, 40), 2)), name="v")
    out = {}
    for decay in DECAYS:
        out[decay] = net.aggregate([0.0, 6.0, 11.5, 1e9], type=list(AGGREGATIONS), decay=decay, name="v")
    poi = [f"p{i}" for i in range(15)]
    net.set_pois("p", 30, 4, pd.Series(net.x[places[:15]], index=poi), pd.Series(net.y[places[:15]], index=poi))
    out["nearest"] = net.nearest_pois(25, "p", num_pois=4, include_poi_ids=True)
    o, d = rng.integers(0, n, 500), rng.integers(0, n, 500)
    out["pairs"] = net.shortest_path_lengths(ids[o], ids[d])
    out["pairs to few"] = net.shortest_path_lengths(ids[o], ids[np.resize(d[:3], 500)])
    out["table"] = net.od_table(ids[::3], ids[1::4], cutoff=30)
    out["isochrones"] = net.isochrones(ids[[0, 5, 5]], [0, 7.5, 1e9])
    return out


def _numpy_as_device_module(free_bytes):
    """numpy dressed as cupy: what the device branches call (stable argsort, repeat by a
    scalar only, no lexsort; the memory pool and memGetInfo, reporting free_bytes)."""
    import types
    fake = types.ModuleType("device_numpy")
    fake.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
    fake.argsort = lambda a: np.argsort(a, kind="stable")

    def repeat(a, repeats):
        assert isinstance(repeats, int), "cupy.repeat takes no array of counts"
        return np.repeat(a, repeats)

    def lexsort(keys):
        raise AssertionError("cupy.lexsort takes one 2-D array of one type: not used")

    fake.repeat, fake.lexsort = repeat, lexsort
    fake.get_default_memory_pool = lambda: types.SimpleNamespace(free_all_blocks=lambda: None)
    fake.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(memGetInfo=lambda: (free_bytes, 8 * free_bytes)))
    return fake


@pytest.mark.parametrize("real", [False, True])
def test_host_lists_nearest_equal_the_generic_path(real, monkeypatch):
    """Nearest places on the CPU from reached lists (_core.nearest_reached, a node's entries in
    row order): the generic path's answer (sorts of every candidate) exactly, for k of 1, 3 and
    40, places sharing nodes, radii 0, inside the graph and past every distance, in groups of a
    few rows or one."""
    import deltasplit._network_aggregate as agg
    net = grid(17, 19, seed=6, twoway=False, zero=0.1, high=9, real=real, device="cpu")
    rng = np.random.default_rng(5)
    positions = rng.integers(0, net.num_nodes, 90)
    positions[:6] = positions[0]
    solver = net.solver(None, reverse=True)
    for radius in (0.0, 7.5, 1e9):
        for k in (1, 3, 40):
            for entries in (None, 2 * net.num_nodes):
                net.block_entries = entries
                got = agg.nearest_blocks(net, solver, positions, radius, k)
                with monkeypatch.context() as m:
                    m.setattr(Network, "lists_on_host", lambda self, strategy, cutoff: False)
                    want = agg.nearest_blocks(net, solver, positions, radius, k)
                for a, b in zip(got, want):
                    assert a.dtype == b.dtype
                    np.testing.assert_array_equal(a, b)
    net.block_entries = None


@pytest.mark.parametrize("real", [False, True])
def test_host_lists_sum_in_row_order(real, monkeypatch):
    """Accessibility on the CPU from reached lists (_core.accumulate_reached, a node's entries in
    row order): the same sums bit for bit whatever the groups of rows; against the dense blocks'
    bincount sums, equal counts and extremes and sums within 1e-12; entries outside the results
    (and, for nearest_reached, places outside its lists) refused."""
    import deltasplit._core as core
    net = grid(17, 19, seed=8, twoway=False, zero=0.1, high=9, real=real, device="cpu")
    rng = np.random.default_rng(2)
    places = net.node_ids[rng.integers(0, net.num_nodes, 120)]
    net.set(pd.Series(places), pd.Series(np.round(rng.normal(5, 3, 120), 2)), name="v")
    radii, kinds = [0.0, 5.0, 12.5], ["sum", "mean", "std", "count", "min", "max"]
    assert net.lists_on_host(net.solver(None, reverse=True)[1], max(radii))
    for decay in DECAYS:
        whole = net.aggregate(radii, type=kinds, decay=decay, name="v")
        net.block_entries = 3 * net.num_nodes  # groups of a few rows
        pd.testing.assert_frame_equal(net.aggregate(radii, type=kinds, decay=decay, name="v"), whole, check_exact=True)
        net.block_entries = None
        with monkeypatch.context() as m:
            m.setattr(Network, "lists_on_host", lambda self, strategy, cutoff: False)
            dense = net.aggregate(radii, type=kinds, decay=decay, name="v")
        for kind, r in whole.columns:
            if kind in ("sum", "mean", "std"):
                np.testing.assert_allclose(whole[(kind, r)].to_numpy(), dense[(kind, r)].to_numpy(), rtol=1e-12, atol=1e-12)
            else:
                np.testing.assert_array_equal(whole[(kind, r)].to_numpy(), dense[(kind, r)].to_numpy())
    acc = np.zeros((1, 6, 4))
    per_node = np.ones((5, 2))
    one = np.ones(1, dtype=np.int64)
    best_d, best_p = np.full((4, 2), np.inf), np.full((4, 2), -1, dtype=np.int64)
    with pytest.raises(ValueError, match="outside the results"):
        core.nearest_reached(one, one * 4, np.zeros(1), 0, one * 0, np.zeros(2, np.int64), np.ones(2, np.int64), 1.0,
                             best_d, best_p)
    with pytest.raises(ValueError, match="outside by_node"):
        core.nearest_reached(one, one, np.zeros(1), 0, one * 0, np.zeros(2, np.int64), np.full(2, 2, np.int64), 1.0,
                             best_d, best_p)
    with pytest.raises(ValueError, match="outside the results"):
        core.accumulate_reached(one, one * 4, np.zeros(1), 0, per_node, np.ones(1), 0, acc)
    with pytest.raises(ValueError, match="outside the results"):
        core.accumulate_reached(one, one, np.zeros(1), 1, per_node, np.ones(1), 0, acc)
    with pytest.raises(ValueError, match="radii, 6, n"):
        core.accumulate_reached(one, one, np.zeros(1), 0, per_node, np.ones(2), 0, acc)


@pytest.mark.parametrize("real", [False, True])
def test_device_branches_on_the_host(real, monkeypatch):
    """The device path's code (blocks sized from the free memory, solved into an `out` array,
    handed out in smaller groups; sorts without lexsort) run with numpy in cupy's place, so that
    it is checked on every machine: the answers equal the CPU path's exactly."""
    fake = _numpy_as_device_module(3_000_000)
    kw = dict(seed=31, twoway=False, zero=0.1, high=9, real=real)
    want = _answers(grid(11, 12, device="cpu", **kw))
    net = grid(11, 12, device="cpu", **kw)
    monkeypatch.setattr(Network, "array_module", lambda self, strategy: fake)
    solve, reduce = net.block_rows(fake, net.num_nodes, np.uint32)
    assert (solve, reduce) == (3_000_000 // 8 // (132 * 4), 3_000_000 // 8 // (132 * deltasplit.network.WORK_BYTES))
    got = _answers(net)
    for key, w in want.items():
        if isinstance(w, np.ndarray):
            assert got[key].dtype == w.dtype
            np.testing.assert_array_equal(got[key], w)
        else:
            pd.testing.assert_frame_equal(got[key], w)


@pytest.mark.skipif(not CUPY, reason="the GPU path needs a usable GPU and cupy (deltasplit.gpu_available() and "
                                     "import cupy)")
@pytest.mark.parametrize("real", [False, True])
@pytest.mark.parametrize("block_entries", [None, 5])
def test_gpu_path_equals_cpu_path(real, block_entries):
    """The same network answered with blocks reduced by cupy in device memory and by numpy on the
    host: the same dtypes and shapes; distances, counts, extremes, quantiles and nearest places
    equal; float sums (added by atomics on the device, in no fixed order) within 1e-12."""
    import cupy
    kw = dict(seed=31, twoway=False, zero=0.1, high=9, real=real)
    cpu, gpu = grid(11, 12, device="cpu", **kw), use(grid(11, 12, **kw), "gpu")
    cpu.block_entries = gpu.block_entries = block_entries
    solve, reduce = gpu.block_rows(cupy, gpu.num_nodes, np.uint32)
    assert solve >= 1 and reduce >= 1
    if block_entries is None:
        assert solve * gpu.num_nodes * 4 <= cupy.cuda.runtime.memGetInfo()[1]
    want, got = _answers(cpu), _answers(gpu)
    for decay in DECAYS:
        w, g = want[decay], got[decay]
        assert list(w.columns) == list(g.columns) and (w.dtypes == g.dtypes).all()
        for kind, r in w.columns:
            if kind in ("sum", "mean", "std"):
                np.testing.assert_allclose(g[(kind, r)].to_numpy(), w[(kind, r)].to_numpy(), rtol=1e-12, atol=1e-12)
            else:
                np.testing.assert_array_equal(g[(kind, r)].to_numpy(), w[(kind, r)].to_numpy())
    pd.testing.assert_frame_equal(got["nearest"], want["nearest"])
    for key in ("pairs", "pairs to few"):
        assert got[key].dtype == want[key].dtype
        np.testing.assert_array_equal(got[key], want[key])
    pd.testing.assert_frame_equal(got["table"], want["table"])
    iso_w, iso_g = (t.sort_values(["origin", "distance", "node_id"], kind="stable").reset_index(drop=True)
                    for t in (want["isochrones"], got["isochrones"]))
    pd.testing.assert_frame_equal(iso_g, iso_w)


@pytest.mark.skipif(not CUPY, reason="the GPU path needs a usable GPU and cupy (deltasplit.gpu_available() and "
                                     "import cupy)")
@pytest.mark.parametrize("weights", ["integer", "real", "past 32 bits"])
def test_gpu_kernels_equal_the_cpu_path(weights):
    """The device kernels of the aggregations (more radii than accumulate_on_device keeps in one
    pass) and of nearest places (k within and past NEAREST_ON_DEVICE, places sharing nodes), on
    blocks of uint32, float64 and uint64 distances (integer paths past 2^32 - 2): the GPU path's
    answers equal the CPU path's (float sums within 1e-12)."""
    import deltasplit._network_aggregate as agg
    scale = 10**8 if weights == "past 32 bits" else 1
    kw = dict(seed=5, twoway=False, zero=0.1, high=9 * scale, real=weights == "real")
    cpu, gpu = grid(11, 12, device="cpu", **kw), use(grid(11, 12, **kw), "gpu")
    radii = [0.0, 2.0 * scale, 5.0 * scale, 8.0 * scale, 11.5 * scale, 40.0 * scale, 1e18]
    assert len(radii) > agg.RADII_PER_PASS
    rng = np.random.default_rng(3)
    places = cpu.node_ids[rng.integers(0, cpu.num_nodes, 50)]
    values = pd.Series(np.round(rng.normal(5, 3, 50), 2))
    for net in (cpu, gpu):
        net.set(pd.Series(places), values, name="v")
    assert gpu.distance_dtype(gpu.solver(None, reverse=True, sources=50, cutoff=1e18)[0]) == \
        (np.uint64 if weights == "past 32 bits" else np.float64 if weights == "real" else np.uint32)
    for decay in DECAYS:
        want = cpu.aggregate(radii, type=list(AGGREGATIONS), decay=decay, name="v")
        got = gpu.aggregate(radii, type=list(AGGREGATIONS), decay=decay, name="v")
        for kind, r in want.columns:
            if kind in ("sum", "mean", "std"):
                np.testing.assert_allclose(got[(kind, r)].to_numpy(), want[(kind, r)].to_numpy(), rtol=1e-12, atol=1e-12)
            else:
                np.testing.assert_array_equal(got[(kind, r)].to_numpy(), want[(kind, r)].to_numpy())
    # The device's sums are the same bit for bit whatever the blocks' rows.
    whole = gpu.aggregate(radii, type=["sum", "mean", "std"], decay="exp", name="v")
    gpu.block_entries = 7 * gpu.num_nodes
    pd.testing.assert_frame_equal(gpu.aggregate(radii, type=["sum", "mean", "std"], decay="exp", name="v"), whole,
                                  check_exact=True)
    gpu.block_entries = None
    k_past = agg.NEAREST_ON_DEVICE + 1
    poi = [f"p{i}" for i in range(60)]
    at = rng.integers(0, cpu.num_nodes, 60)
    at[:5] = at[0]
    for net in (cpu, gpu):
        net.set_pois("p", 1e18, k_past, pd.Series(net.x[at], index=poi), pd.Series(net.y[at], index=poi))
    for k, radius in ((3, 8.0 * scale), (3, 1e18), (k_past, 1e18)):
        pd.testing.assert_frame_equal(gpu.nearest_pois(radius, "p", num_pois=k, include_poi_ids=True),
                                      cpu.nearest_pois(radius, "p", num_pois=k, include_poi_ids=True))


def test_arcs_on_device_type_their_distances_as_the_host_graph():
    """ArcsOnDevice (the road layer's device CSR; built here with numpy, the same array code) on
    random one-way and two-way arc sets with self-loops, parallel arcs, integer weights around
    the 32-bit bound, integral and real floats: the host Graph's distance type (the path bound
    over the cleaned graph, both types seen) and, as a matrix of its lightest parallel arcs, the
    host Graph's distances."""
    import deltasplit._reached_on_device as rod
    rng = np.random.default_rng(12)
    seen = set()
    for trial in range(600):
        n = int(rng.integers(0, 12))
        m = int(rng.integers(0, 30)) if n else 0
        u, v = rng.integers(0, max(n, 1), m), rng.integers(0, max(n, 1), m)
        kind = trial % 4
        if kind == 0:
            w = rng.integers(0, 2**32 // max(n, 1) * 2, m).astype(np.int64)
        elif kind == 1:
            w = rng.integers(2**32 - 40, 2**32 + 3, m).astype(np.int64) * (rng.random(m) < 0.2)
        elif kind == 2:
            w = rng.integers(0, 2**29, m).astype(np.float64)
        else:
            w = rng.uniform(0, 10, m)
        twoway = bool(trial % 3 == 0)
        arcs = rod.ArcsOnDevice(np, u, v, w, n, twoway, None)
        g = Graph.from_edges(u, v, choose_weights(w, n), n, directed=not twoway)  # as Network.solver builds it
        assert arcs.distance_dtype == g.distance_dtype, (trial, n, u, v, w, twoway)
        seen.add(arcs.distance_dtype.str)
        if trial % 20 == 0 and n:
            offsets, targets, weights = arcs.csr
            rows = np.repeat(np.arange(n), np.diff(offsets).astype(np.int64))
            keep = rows != targets
            order = np.lexsort((weights[keep], targets[keep], rows[keep]))
            r, t, ww = rows[keep][order], targets[keep][order], weights[keep][order].astype(np.float64)
            head = np.r_[True, (r[1:] != r[:-1]) | (t[1:] != t[:-1])] if len(r) else np.zeros(0, bool)
            matrix = sp.csr_matrix((ww[head], (r[head], t[head])), shape=(n, n))
            want = g.distance_matrix(np.arange(n)).astype(np.float64)
            want[want == float(Graph.INT_INFINITY if g.distance_dtype == np.uint32 else Graph.UINT64_INFINITY)] = np.inf
            np.testing.assert_array_equal(scg.dijkstra(matrix), want)
    assert {"<u4", "<u8", "<f8"} <= seen


@pytest.mark.skipif(not CUPY, reason="the GPU path needs a usable GPU and cupy (deltasplit.gpu_available() and "
                                     "import cupy)")
@pytest.mark.parametrize("weights", ["integer", "real", "past 32 bits", "zero", "two-way"])
@pytest.mark.parametrize("capacities", ["default", "small"])
def test_reached_lists_on_device_equal_the_dense_rows(weights, capacities, monkeypatch):
    """The device's reached lists (_reached_on_device: a warp's ball in shared memory), with the
    default capacities and with capacities so small that the second pass and the dense rows
    answer many sources, in groups of a few sources, read from the host Graph's CSR and from the
    arcs' own device CSR (ArcsOnDevice, what the road layer takes): the entries of the dense
    cut-off rows, in their own type, in the order asked for; and the aggregations (quantiles too)
    and nearest places from them the dense rows' bit for bit. Cutoffs 0, inside the graph and
    past every distance; one-way and two-way streets."""
    import cupy
    import deltasplit._network_aggregate as agg
    import deltasplit._reached_on_device as rod
    if capacities == "small":
        monkeypatch.setattr(rod, "FIRST_CAPACITY", 16)
        monkeypatch.setattr(rod, "SECOND_CAPACITY", 64)
        monkeypatch.setattr(rod, "FIRST_GROUP_ROWS", 7)
        monkeypatch.setattr(rod, "GROUP_ENTRIES", 900)
    scale = 10**8 if weights == "past 32 bits" else 1
    kw = dict(seed=9, twoway=weights == "two-way", zero=0.6 if weights == "zero" else 0.05, high=9 * scale,
              real=weights == "real")
    net = use(grid(23, 31, **kw), "gpu")
    rng = np.random.default_rng(4)
    sources = np.unique(rng.integers(0, net.num_nodes, 300))
    for cutoff in (0.0, 6.0 * scale, 30.0 * scale, 1e18):
        solver = net.solver(None, reverse=True, sources=len(sources), cutoff=cutoff)
        arcs = net.lists_solver(None, reverse=True, sources=len(sources), cutoff=cutoff)
        assert net.lists_on_device(solver[1], cutoff) and isinstance(arcs[0], rod.ArcsOnDevice)
        assert arcs[0].distance_dtype == net.distance_dtype(solver[0])
        want = []
        for start, block in net._rows(*solver, sources, None, cutoff):
            r, c = cupy.nonzero(block != agg.unreachable(block.dtype))
            want.append((start + r, c, block[r, c]))
        want = [cupy.concatenate(parts) for parts in zip(*want)]
        for order, g in (("row", solver[0]), ("vertex", solver[0]), ("row", arcs[0]), ("vertex", arcs[0])):
            got = [(start + r, v, d) for start, r, v, d in rod.reached_groups(net, g, solver[1], sources, cutoff,
                                                                              order)]
            got = [cupy.concatenate(parts) for parts in zip(*got)]
            assert got[2].dtype == want[2].dtype == net.distance_dtype(solver[0])
            if order == "vertex":
                # Rows ascend within each vertex (groups in turn, (vertex, row) within a group):
                # in (row, vertex) order they are the dense rows' entries.
                by_vertex = cupy.argsort(got[1])  # stable
                rows, cols = got[0][by_vertex], got[1][by_vertex]
                same = cols[1:] == cols[:-1]
                assert bool(cupy.all(rows[1:][same] > rows[:-1][same]))
                by_row = agg.lexsort(cupy, (got[1], got[0]))
                got = [a[by_row] for a in got]
            for a, b in zip(got, want):
                cupy.testing.assert_array_equal(a, b)
    places = net.node_ids[rng.integers(0, net.num_nodes, 200)]
    net.set(pd.Series(places), pd.Series(np.round(rng.normal(5, 3, 200), 2)), name="v")
    poi = [f"p{i}" for i in range(40)]
    at = rng.integers(0, net.num_nodes, 40)
    net.set_pois("p", 1e18, 5, pd.Series(net.x[at], index=poi), pd.Series(net.y[at], index=poi))
    radii = [0.0, 6.0 * scale, 30.0 * scale]
    lists = {d: net.aggregate(radii, type=list(AGGREGATIONS), decay=d, name="v") for d in DECAYS}
    near = net.nearest_pois(30.0 * scale, "p", num_pois=5, include_poi_ids=True)
    monkeypatch.setattr(Network, "lists_on_device", lambda self, strategy, cutoff: False)
    for d in DECAYS:
        pd.testing.assert_frame_equal(lists[d], net.aggregate(radii, type=list(AGGREGATIONS), decay=d, name="v"),
                                      check_exact=True)
    pd.testing.assert_frame_equal(near, net.nearest_pois(30.0 * scale, "p", num_pois=5, include_poi_ids=True))


# -- readers --------------------------------------------------------------------------------------

def test_from_osmnx_graph():
    nx = pytest.importorskip("networkx")
    G = nx.MultiDiGraph(crs="epsg:4326")
    coords = {101: (13.40, 52.50), 102: (13.41, 52.50), 103: (13.41, 52.51), 104: (13.50, 52.60)}
    for v, (x, y) in coords.items():
        G.add_node(v, x=x, y=y)
    G.add_edge(101, 102, length=700.0, travel_time=50.0)
    G.add_edge(102, 101, length=700.0, travel_time=50.0)
    G.add_edge(102, 103, length=1100.0, travel_time=60.0)  # one-way
    G.add_edge(102, 103, length=900.0, travel_time=90.0)   # a parallel, shorter but slower street
    net = Network.from_osmnx(G, impedances=("length", "travel_time"))
    assert net.lonlat and not net.twoway and net.num_edges == 4
    assert as_float(net.shortest_path_lengths([101, 103, 101], [103, 101, 104], imp_name="length")).tolist() == \
        [1600.0, np.inf, np.inf]
    t, m = net.shortest_path_lengths([101], [103], imp_name="travel_time", sum_along="length")
    assert float(t[0]) == 110.0 and float(m[0]) == 1800.0
    assert net.get_node_ids([13.409], [52.509]).tolist() == [103]
    two = Network.from_osmnx(nx.MultiGraph(G), impedances="length")  # undirected: two-way streets
    assert two.twoway and as_float(two.shortest_path_lengths([103], [101])).tolist() == [1600.0]


def test_from_tables_parquet_geoparquet_and_csv(tmp_path):
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow")
    base = grid(4, 5, seed=8, twoway=True)
    nodes = pd.DataFrame({"id": base.node_ids, "x": base.x, "y": base.y})
    edges = pd.DataFrame({"u": base.node_ids[base._from], "v": base.node_ids[base._to], "key": 0,
                          "length": base.impedances["w"]})
    nodes.to_parquet(tmp_path / "nodes.parquet")
    edges.to_parquet(tmp_path / "edges.parquet")
    wkb = [b"\x01\x01\x00\x00\x00" + np.array([x, y], "<f8").tobytes() for x, y in zip(base.x, base.y)]
    pd.DataFrame({"osmid": base.node_ids, "geometry": wkb}).to_parquet(tmp_path / "nodes.geoparquet")
    nodes.to_csv(tmp_path / "nodes.csv", index=False)
    edges.to_csv(tmp_path / "edges.csv", index=False)
    ref = all_pairs(base)
    for n_path, e_path in (("nodes.parquet", "edges.parquet"), ("nodes.geoparquet", "edges.parquet"),
                           ("nodes.csv", "edges.csv")):
        net = Network.from_tables(tmp_path / n_path, tmp_path / e_path)
        assert net.impedance_names == ["length"]
        np.testing.assert_array_equal(net.x, base.x)
        np.testing.assert_array_equal(as_float(net.od_table(base.node_ids, base.node_ids).to_numpy()), ref)
    (tmp_path / "nodes.bz2").write_text("id,x,y\n")
    with pytest.raises(ValueError, match="unknown table format"):
        Network.from_tables(tmp_path / "nodes.bz2", edges)
    with pytest.raises(FileNotFoundError, match="missing.parquet"):
        Network.from_parquet(tmp_path / "missing.parquet", tmp_path / "edges.parquet")


OSM_XML = """<?xml version='1.0' encoding='UTF-8'?>
<osm version="0.6" generator="deltasplit-test">
  <node id="1" lat="52.5000" lon="13.4000"/>
  <node id="2" lat="52.5000" lon="13.4010"/>
  <node id="3" lat="52.5010" lon="13.4010"/>
  <node id="4" lat="52.5010" lon="13.4000"/>
  <node id="5" lat="52.5020" lon="13.4000"/>
  <node id="6" lat="52.5020" lon="13.4020"/>
  <node id="7" lat="52.5030" lon="13.4020"/>
  <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="residential"/></way>
  <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="tertiary"/><tag k="oneway" v="yes"/></way>
  <way id="12"><nd ref="4"/><nd ref="1"/><tag k="highway" v="residential"/><tag k="oneway" v="-1"/></way>
  <way id="13"><nd ref="4"/><nd ref="5"/><tag k="highway" v="footway"/></way>
  <way id="14"><nd ref="5"/><nd ref="6"/><tag k="highway" v="service"/><tag k="access" v="private"/></way>
  <way id="15"><nd ref="3"/><nd ref="6"/><nd ref="99"/><tag k="highway" v="primary"/>
    <tag k="junction" v="roundabout"/></way>
  <way id="16"><nd ref="6"/><nd ref="7"/><tag k="building" v="yes"/></way>
</osm>
"""


def test_from_osm_extract(tmp_path):
    pytest.importorskip("osmium", reason="reading OSM extracts needs pyosmium (module osmium)")
    path = tmp_path / "town.osm"
    path.write_text(OSM_XML)
    from deltasplit._network_io import haversine_m
    drive = Network.from_osm(path, "drive")
    arcs = set(zip(drive.node_ids[drive._from], drive.node_ids[drive._to]))
    # residential both ways, the one-ways as tagged (oneway=-1 runs 1 -> 4), the roundabout one-way,
    # no footway, no private service road, no building, no segment to the missing node 99
    assert arcs == {(1, 2), (2, 1), (2, 3), (3, 2), (3, 4), (1, 4), (3, 6)}
    assert list(drive.node_ids) == [1, 2, 3, 4, 6] and drive.lonlat
    lengths = dict(zip(zip(drive.node_ids[drive._from], drive.node_ids[drive._to]), drive.impedances["length"]))
    assert lengths[(1, 2)] == pytest.approx(haversine_m(13.4, 52.5, 13.401, 52.5), rel=1e-12)
    assert 60 < lengths[(1, 2)] < 75  # 0.001 degrees of longitude at 52.5 N: about 67.7 m
    walk = Network.from_osm(path, "walk")
    warcs = set(zip(walk.node_ids[walk._from], walk.node_ids[walk._to]))
    assert (4, 3) in warcs and (4, 5) in warcs and (5, 4) in warcs and (5, 6) not in warcs
    d = as_float(drive.shortest_path_lengths([4], [1]))
    assert np.isinf(d[0])  # 4 -> 1 only against the one-way streets
    bad = tmp_path / "bad.osm"
    bad.write_text("<osm><way id='1'>")
    with pytest.raises(ValueError, match="bad.osm"):
        Network.from_osm(bad)


# -- the bundled road graphs ----------------------------------------------------------------------

def bundled(name):
    """A bundled graph's arcs: (n, sources, targets, weights), 0-based."""
    g = Graph.from_file(ROOT / "datasets" / name)
    off, tgt, w = g.arrays()
    n = g.num_vertices
    src = np.repeat(np.arange(n), np.diff(off.astype(np.int64)))
    return n, src, tgt.astype(np.int64), w.astype(np.float64)


def test_chicago_regional_od_and_accessibility(path):
    n, src, tgt, w = bundled("chicago-regional.mtx.gz")
    net = Network(pd.Series(np.zeros(n)), pd.Series(np.zeros(n)), src, tgt, pd.DataFrame({"miles": w}), twoway=False,
                  device=path)
    rng = np.random.default_rng(3)
    o, d = rng.integers(0, n, 150), rng.integers(0, n, 150)
    ref = scg.dijkstra(reference_matrix(net), indices=np.unique(o))
    row = np.searchsorted(np.unique(o), o)
    got = as_float(net.shortest_path_lengths(o, d))
    np.testing.assert_allclose(got, ref[row, d], rtol=1e-6)
    places = rng.integers(0, n, 40)
    values = rng.integers(1, 100, 40).astype(float)
    net.set(places, values)
    sub = rng.integers(0, n, 40)  # checked nodes: the reverse solves from them give their rows
    D = scg.dijkstra(reference_matrix(net), indices=sub)
    agg = net.aggregate([2.0, 5.0], type=["sum", "count", "max"], decay="linear")
    for kind in ("sum", "count", "max"):
        for r in (2.0, 5.0):
            want = brute_aggregate(D, places, values, r, kind, "linear")
            np.testing.assert_allclose(agg[(kind, r)].to_numpy()[sub], want, rtol=1e-5, atol=1e-5)


# -- pandana as the reference ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def pandana_pair():
    pandana = pytest.importorskip("pandana", reason="pandana (a test reference only) is not installed")
    # integer lengths >= 1: pandana's hierarchy stores thousandths of a unit and lifts 0 to one
    net = grid(12, 13, seed=21, twoway=False, low=1, high=30)
    x = pd.Series(net.x, index=net.node_ids)
    y = pd.Series(net.y, index=net.node_ids)
    theirs = pandana.Network(x, y, pd.Series(net.node_ids[net._from]), pd.Series(net.node_ids[net._to]),
                             net.impedances.astype(float), twoway=False)
    return net, theirs


@pytest.mark.parametrize("decay", DECAYS)
def test_aggregate_equals_pandana(pandana_pair, decay, path):
    ours, theirs = pandana_pair
    use(ours, path)
    rng = np.random.default_rng(6)
    nodes = pd.Series(ours.node_ids[rng.integers(0, ours.num_nodes, 80)])
    values = pd.Series(rng.integers(-20, 200, 80) / 4.0)  # exact in pandana's float32
    ours.set(nodes, values, name="jobs")
    theirs.set(nodes, values, name="jobs")
    radii = [0.0 if decay == "flat" else 1.0, 25.0, 60.0, 1e6]
    got = ours.aggregate(radii, type=list(AGGREGATIONS), decay=decay, name="jobs")
    for kind in AGGREGATIONS:
        for r in radii:
            want = theirs.aggregate(r, type=kind, decay=decay, name="jobs")
            assert list(want.index) == list(got.index)
            assert_aggregate(got[(kind, r)].to_numpy(), want.to_numpy(), kind)


def test_nearest_pois_and_lengths_equal_pandana(pandana_pair, path):
    ours, theirs = pandana_pair
    use(ours, path)
    D = all_pairs(ours)
    rng = np.random.default_rng(8)
    at = rng.integers(0, ours.num_nodes, 25)
    at[1] = at[0]  # two places on one node
    ids = pd.Index([f"clinic{i}" for i in range(25)])
    x = pd.Series(ours.x[at], index=ids)
    y = pd.Series(ours.y[at], index=ids)
    ours.set_pois("clinics", 80, 3, x, y)
    theirs.set_pois("clinics", 80, 3, x, y)
    for distance in (0, 30, 80):
        got = ours.nearest_pois(distance, "clinics", num_pois=3, include_poi_ids=True)
        want = theirs.nearest_pois(distance, "clinics", num_pois=3, include_poi_ids=True)
        np.testing.assert_array_equal(got[[1, 2, 3]].to_numpy(), want[[1, 2, 3]].to_numpy())
        # pandana orders places at one distance arbitrarily: both name, in each column, a place at
        # that column's distance
        for table in (got, want):
            for j in range(1, 4):
                named = table[f"poi{j}"].notna().to_numpy()
                assert (table[j].to_numpy()[~named] == distance).all()
                where = at[ids.get_indexer(table[f"poi{j}"][named])]
                np.testing.assert_array_equal(D[np.flatnonzero(named), where], table[j].to_numpy()[named])
    o = ours.node_ids[rng.integers(0, ours.num_nodes, 500)]
    d = ours.node_ids[rng.integers(0, ours.num_nodes, 500)]
    mine = as_float(ours.shortest_path_lengths(o, d))
    # pandana warns of the pairs the one-way streets leave unreachable
    with pytest.warns(UserWarning, match="unconnected"):
        theirs_l = np.asarray(theirs.shortest_path_lengths(o, d))
    reached = np.isfinite(mine)
    np.testing.assert_array_equal(mine[reached], theirs_l[reached])
    assert np.all(theirs_l[~reached] == 4294967.295)  # pandana's unreachable


# -- the command line -----------------------------------------------------------------------------

@pytest.fixture
def city_files(tmp_path):
    net = grid(5, 6, seed=13, twoway=False)
    nodes = pd.DataFrame({"id": net.node_ids, "x": net.x, "y": net.y})
    edges = pd.DataFrame({"from": net.node_ids[net._from], "to": net.node_ids[net._to], "w": net.impedances["w"],
                          "metres": np.arange(net.num_edges) * 10})
    nodes.to_csv(tmp_path / "nodes.csv", index=False)
    edges.to_csv(tmp_path / "edges.csv", index=False)
    return net, tmp_path


def test_cli_od_pairs_and_matrix(city_files, capsys):
    net, tmp = city_files
    ref = all_pairs(net)
    rng = np.random.default_rng(1)
    o, d = rng.integers(0, 30, 50), rng.integers(0, 30, 50)
    pd.DataFrame({"origin": net.node_ids[o], "destination": net.node_ids[d]}).to_csv(tmp / "pairs.csv", index=False)
    common = ["--nodes", str(tmp / "nodes.csv"), "--edges", str(tmp / "edges.csv"), "--impedance", "w", "--oneway"]
    assert main(["od", *common, "--pairs", str(tmp / "pairs.csv"), "-o", str(tmp / "out.csv"),
                 "--sum-along", "metres"]) == 0
    out = pd.read_csv(tmp / "out.csv")
    np.testing.assert_array_equal(as_float(out.distance.to_numpy(np.uint32)), ref[o, d])
    pd.DataFrame({"node_id": net.node_ids[:4]}).to_csv(tmp / "origins.csv", index=False)
    pd.DataFrame({"node_id": net.node_ids[10:20]}).to_csv(tmp / "dest.csv", index=False)
    for name in ("m.csv", "m.parquet") if _has("pyarrow") else ("m.csv",):
        assert main(["od", *common, "--origins", str(tmp / "origins.csv"), "--destinations", str(tmp / "dest.csv"),
                     "-o", str(tmp / name)]) == 0
        t = pd.read_csv(tmp / name) if name.endswith("csv") else pd.read_parquet(tmp / name)
        want = {(net.node_ids[i], net.node_ids[j]): ref[i, j] for i in range(4) for j in range(10, 20)
                if np.isfinite(ref[i, j])}
        assert {(a, b): float(c) for a, b, c in zip(t.origin, t.destination, t.distance)} == want


def test_python_m_deltasplit_runs_the_road_commands(city_files):
    """python -m deltasplit od / accessibility are the same commands as deltasplit.network.main."""
    import subprocess
    import sys
    net, tmp = city_files
    pd.DataFrame({"origin": net.node_ids[:3], "destination": net.node_ids[3:6]}).to_csv(tmp / "p.csv", index=False)
    run = subprocess.run([sys.executable, "-m", "deltasplit", "od", "--nodes", str(tmp / "nodes.csv"), "--edges",
                          str(tmp / "edges.csv"), "--impedance", "w", "--oneway", "--pairs", str(tmp / "p.csv"),
                          "-o", str(tmp / "via_m.csv")], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert main(["od", "--nodes", str(tmp / "nodes.csv"), "--edges", str(tmp / "edges.csv"), "--impedance", "w",
                 "--oneway", "--pairs", str(tmp / "p.csv"), "-o", str(tmp / "via_main.csv")]) == 0
    pd.testing.assert_frame_equal(pd.read_csv(tmp / "via_m.csv"), pd.read_csv(tmp / "via_main.csv"))


def test_cli_accessibility(city_files):
    net, tmp = city_files
    ref = all_pairs(net)
    pd.DataFrame({"node_id": net.node_ids[[1, 5, 5, 20]], "jobs": [3.0, 4.0, 1.5, 7.0]}).to_csv(tmp / "jobs.csv",
                                                                                              index=False)
    assert main(["accessibility", "--nodes", str(tmp / "nodes.csv"), "--edges", str(tmp / "edges.csv"),
                 "--impedance", "w", "--oneway", "--values", str(tmp / "jobs.csv"), "--value-column", "jobs",
                 "--distance", "10", "30", "--type", "sum", "count", "--decay", "flat", "-o",
                 str(tmp / "acc.csv")]) == 0
    acc = pd.read_csv(tmp / "acc.csv")
    assert list(acc.columns) == ["node_id", "sum_10", "sum_30", "count_10", "count_30"]
    np.testing.assert_allclose(acc.sum_30, brute_aggregate(ref, np.array([1, 5, 5, 20]), np.array([3.0, 4, 1.5, 7]),
                                                           30, "sum", "flat"))
    # places by coordinates, snapped to their nearest nodes; a count
    pd.DataFrame({"x": net.x[[1, 20]] + 0.2, "y": net.y[[1, 20]]}).to_csv(tmp / "shops.csv", index=False)
    assert main(["accessibility", "--nodes", str(tmp / "nodes.csv"), "--edges", str(tmp / "edges.csv"),
                 "--impedance", "w", "--oneway", "--values", str(tmp / "shops.csv"), "--distance", "25",
                 "--type", "count", "-o", str(tmp / "shops_out.csv")]) == 0
    np.testing.assert_array_equal(pd.read_csv(tmp / "shops_out.csv").count_25,
                                  brute_aggregate(ref, np.array([1, 20]), np.ones(2), 25, "count", "flat"))


def test_cli_errors_name_the_file_and_line(city_files, capsys):
    net, tmp = city_files
    edges = pd.read_csv(tmp / "edges.csv")
    edges.loc[3, "to"] = 77
    edges.to_csv(tmp / "bad_edges.csv", index=False)
    pd.DataFrame({"origin": [net.node_ids[0]], "destination": [net.node_ids[1]]}).to_csv(tmp / "p.csv", index=False)
    args = ["od", "--nodes", str(tmp / "nodes.csv"), "--pairs", str(tmp / "p.csv"), "-o", str(tmp / "o.csv")]
    assert main([*args[:1], "--edges", str(tmp / "bad_edges.csv"), *args[1:]]) == 2
    assert "bad_edges.csv:5: to node 77" in capsys.readouterr().err
    edges = pd.read_csv(tmp / "edges.csv")
    edges["w"] = edges["w"].astype(object)
    edges.loc[6, "w"] = "far"
    edges.to_csv(tmp / "bad_w.csv", index=False)
    assert main([*args[:1], "--edges", str(tmp / "bad_w.csv"), "--impedance", "w", *args[1:]]) == 2
    assert "bad_w.csv:8: impedance w 'far'" in capsys.readouterr().err
    (tmp / "o.csv").write_text("keep me\n")
    assert main([*args[:1], "--edges", str(tmp / "edges.csv"), *args[1:]]) == 2
    assert "exists" in capsys.readouterr().err and (tmp / "o.csv").read_text() == "keep me\n"
    assert main(["od", "--nodes", str(tmp / "nowhere.csv"), "--edges", str(tmp / "edges.csv"), "--pairs",
                 str(tmp / "p.csv"), "-o", str(tmp / "o2.csv")]) == 2
    assert "nowhere.csv" in capsys.readouterr().err
    assert main(["bogus"]) == 2


def _has(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def test_bundled_ny_subgraph_od(path):
    """USA-road-d.NY's first 4,000 vertices (the arcs among them) against scipy."""
    keep = 4000
    _, src, tgt, w = bundled("USA-road-d.NY.gr.gz")
    inside = (src < keep) & (tgt < keep)
    net = Network(pd.Series(np.zeros(keep)), pd.Series(np.zeros(keep)), src[inside], tgt[inside],
                  pd.DataFrame({"d": w[inside].astype(np.int64)}), twoway=False, device=path)
    rng = np.random.default_rng(5)
    o, d = rng.integers(0, keep, 300), rng.integers(0, keep, 300)
    got = net.shortest_path_lengths(o, d)
    assert got.dtype == np.uint32
    ref = scg.dijkstra(reference_matrix(net), indices=np.unique(o))
    np.testing.assert_array_equal(as_float(got), ref[np.searchsorted(np.unique(o), o), d])
