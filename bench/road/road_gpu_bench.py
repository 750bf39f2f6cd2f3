"""deltasplit.network on the GPU: the road-analytics targets of issue 39, timed on the graphs in
the repository's datasets/ folder, each task's answers checked against scipy's Dijkstra (a few
sources) before it is timed.

    python bench/road/road_gpu_bench.py OUT.md [--runs 3] [--budget 60] [--small]

(a) accessibility on road-FLA (1,070,376 nodes): 50,000 valued nodes (random, seed 1, integer
    values 1..99), the linear-decay sum around every node at three distances, set-up included
    (building the Network, its graph and solver). road-FLA has no weights of its own: the reader
    gives every edge a deterministic random integer weight in [0, 1000], mean 500. Read a unit as
    a fifth of a metre (an edge as a 100 m block): 2,000, 4,000 and 6,000 are then 400 m, 800 m
    and 1.2 km, a 5-, 10- and 15-minute walk, the 15-minute neighbourhood's scale.
(b) 1,000,000 random OD pairs on road-FLA (strategy phast; the network and its hierarchy built
    apart, then the pairs timed).
(c) a 1,000 x 1,000 OD table on road-FLA: the hierarchy build timed apart, then the table, with
    strategy phast and with the GPU's default many-source solver (multisplit).
(d) all pairs of USA-road-d.NY (264,346 vertices), reduced on the GPU: every source's sum of
    finite distances (uint64) and count of reached vertices, strategy phast, the hierarchy build
    included; distances per second beside PATHPACK's 1.14e11 on one B200. --all-pairs-via
    summaries (the default): one Graph.row_summaries call for every source, each batch reduced by
    the engine where it lies; rows: distance_matrix's rows of blocks of sources in device memory,
    each block reduced by one kernel pass (blocks of --all-pairs-share of the free device memory,
    default an eighth). Batches of --all-pairs-batch sources (default the automatic size).

Each task runs within --budget seconds: sizes or runs that would pass it are cut, and the table
says so (the whole script stays near five minutes on one H200). --small runs the same tasks on
chicago-regional (weights in thousandths of a mile; 2,000 valued nodes, 20,000 pairs, a 200 x 200
table) and on the first 5,000 vertices of USA-road-d.NY, for a machine without a GPU. The
markdown table goes to OUT.md (an existing file is kept: pass another name).
"""
import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

import deltasplit
from deltasplit import Graph
from deltasplit._network_aggregate import to_host, unreachable
from deltasplit.network import Network

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATHPACK_RATE = 1.14e11  # distances per second, all pairs of a 126,146-vertex US road graph, one B200


def load(name, scale=1.0, keep=None):
    """A dataset's arcs (n, sources, targets, int64 weights), weights times `scale` rounded;
    keep: only the first `keep` vertices and the arcs among them."""
    g = Graph.from_file(ROOT / "datasets" / name)
    off, tgt, w = g.arrays()
    n = g.num_vertices
    src = np.repeat(np.arange(n), np.diff(off.astype(np.int64)))
    tgt = tgt.astype(np.int64)
    w = np.rint(w.astype(np.float64) * scale).astype(np.int64)
    if keep is not None:
        inside = (src < keep) & (tgt < keep)
        n, src, tgt, w = keep, src[inside], tgt[inside], w[inside]
    return n, src, tgt, w


def scipy_matrix(n, src, tgt, w):
    return sp.csr_matrix((w.astype(np.float64), (src, tgt)), shape=(n, n))


def gpu_name():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=20)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    except Exception:
        return "none"


def device_module():
    """cupy where the GPU solves and cupy is importable, else numpy (as deltasplit.network)."""
    if not deltasplit.gpu_available():
        return np
    try:
        import cupy
    except ImportError:
        return np
    return cupy


def sync(xp):
    if xp is not np:
        xp.cuda.Device().synchronize()


class Report:
    def __init__(self):
        self.rows = []
        self.notes = []

    def add(self, task, size, times, rate=""):
        med, lo, hi = statistics.median(times), min(times), max(times)
        self.rows.append(f"| {task} | {size} | {med:.4f} | {lo:.4f} | {hi:.4f} | {len(times)} | {rate} |")
        print(self.rows[-1], flush=True)

    def note(self, text):
        self.notes.append(text)
        print(f"# {text}", flush=True)


def runs_within(first, runs, budget):
    """How many timed runs fit in the budget after a first run that took `first` seconds."""
    return max(1, min(runs, int(budget // max(first, 1e-9))))


def timed_runs(fn, count, xp):
    times = []
    for _ in range(count):
        t = time.perf_counter()
        fn()
        sync(xp)
        times.append(time.perf_counter() - t)
    return times


def check(what, ok):
    if not ok:
        raise SystemExit(f"{what}: the answers differ from scipy's Dijkstra")
    print(f"# {what}: checked against scipy's Dijkstra", flush=True)


def task_accessibility(rep, args, graph, xp):
    n, src, tgt, w = graph
    rng = np.random.default_rng(1)
    places = rng.integers(0, n, args.valued)
    values = rng.integers(1, 100, args.valued).astype(np.float64)
    radii = args.distances
    x = pd.Series(np.zeros(n))

    def run():
        net = Network(x, x, src, tgt, pd.DataFrame({"w": w}), twoway=False)
        net.set(places, values)
        return net.aggregate(radii, type="sum", decay="linear")

    t = time.perf_counter()
    got = run()
    first = time.perf_counter() - t
    sample = rng.integers(0, n, 4)
    D = dijkstra(scipy_matrix(n, src, tgt, w), indices=sample, limit=max(radii))[:, places]
    ok = True
    for r in radii:
        want = np.where(D <= r, (1 - D / r) * values, 0.0).sum(axis=1)
        ok &= np.allclose(got[("sum", r)].to_numpy()[sample], want, rtol=1e-9, atol=1e-9)
    check("accessibility", ok)
    times = timed_runs(run, runs_within(first, args.runs, args.budget), xp)
    rep.add(f"accessibility: linear-decay sums at {', '.join(f'{r:g}' for r in radii)}, every node, set-up "
            "included", f"{args.valued:,} valued nodes", times)


def task_pairs(rep, args, graph, xp):
    n, src, tgt, w = graph
    rng = np.random.default_rng(2)
    o, d = rng.integers(0, n, args.pairs), rng.integers(0, n, args.pairs)
    x = pd.Series(np.zeros(n))
    t = time.perf_counter()
    net = Network(x, x, src, tgt, pd.DataFrame({"w": w}), twoway=False, strategy="phast")
    net.shortest_path_lengths(o[:1], d[:1])
    rep.add("OD pairs: network and hierarchy set-up (phast)", "", [time.perf_counter() - t])
    probe = min(args.pairs, max(1, args.pairs // 100))
    t = time.perf_counter()
    got = net.shortest_path_lengths(o[:probe], d[:probe])
    per_pair = (time.perf_counter() - t) / probe
    origins = np.unique(o[:probe])[:4]
    D = dijkstra(scipy_matrix(n, src, tgt, w), indices=origins)
    pick = np.flatnonzero(np.isin(o[:probe], origins))
    want = D[np.searchsorted(origins, o[pick]), d[pick]]
    mine = got[pick].astype(np.float64)
    mine[got[pick] == Graph.INT_INFINITY] = np.inf
    check("OD pairs", np.array_equal(mine, want))
    size = args.pairs
    if per_pair * size > args.budget:
        size = max(probe, int(args.budget / per_pair))
        rep.note(f"OD pairs: {args.pairs:,} pairs predicted {per_pair * args.pairs:.1f} s from {probe:,} pairs, "
                 f"over the {args.budget:g} s budget: timed {size:,} pairs")
    times = timed_runs(lambda: net.shortest_path_lengths(o[:size], d[:size]), 1 if size < args.pairs else
                       runs_within(per_pair * size, args.runs, args.budget), xp)
    rep.add("OD pairs (strategy phast, hierarchy built)", f"{size:,} pairs", times,
            f"{size / statistics.median(times):.3g} pairs/s")


def task_table(rep, args, graph, xp):
    n, src, tgt, w = graph
    rng = np.random.default_rng(3)
    o, d = rng.integers(0, n, args.table), rng.integers(0, n, args.table)
    x = pd.Series(np.zeros(n))
    ref = dijkstra(scipy_matrix(n, src, tgt, w), indices=o[:3])[:, d]
    for strategy in ("phast", "multisplit"):
        net = Network(x, x, src, tgt, pd.DataFrame({"w": w}), twoway=False, strategy=strategy)
        g, s = net.solver(sources=len(o))
        t = time.perf_counter()
        _, stats = g.distance_matrix([0], [0], strategy=s, device=net.device, return_stats=True)
        built = time.perf_counter() - t
        if strategy == "phast":
            rep.add(f"OD table: hierarchy build (setup_ms {stats.get('setup_ms', 0):.0f})", "", [built])
        t = time.perf_counter()
        table = net.od_table(o, d)
        first = time.perf_counter() - t
        got = table.to_numpy()[:3].astype(np.float64)
        got[table.to_numpy()[:3] == Graph.INT_INFINITY] = np.inf
        check(f"OD table ({strategy})", np.array_equal(got, ref))
        times = timed_runs(lambda: net.od_table(o, d), runs_within(first, args.runs, args.budget / 2), xp)
        rep.add(f"OD table (strategy {strategy}{', hierarchy built' if strategy == 'phast' else ''})",
                f"{len(o):,} x {len(d):,}", times)


ROW_SUMS = r"""
extern "C" __global__ void row_sums(const DIST* rows, long long columns, unsigned long long* sums, long long* counts) {
  const DIST* row = rows + (long long)blockIdx.x * columns;
  unsigned long long sum = 0;
  long long count = 0;
  for (long long c = threadIdx.x; c < columns; c += blockDim.x) {
    const DIST d = row[c];
    if (d != (DIST)~0ull) sum += d, ++count;
  }
  __shared__ unsigned long long s_sum[256];
  __shared__ long long s_count[256];
  s_sum[threadIdx.x] = sum;
  s_count[threadIdx.x] = count;
  __syncthreads();
  for (unsigned half = 128; half > 0; half >>= 1) {
    if (threadIdx.x < half) s_sum[threadIdx.x] += s_sum[threadIdx.x + half], s_count[threadIdx.x] += s_count[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = s_sum[0], counts[blockIdx.x] = s_count[0];
}
"""


def row_sums_kernel(xp, dtype):
    """On the device, for unsigned integer distances: a kernel of one 256-thread block a row that
    writes each row's sum of finite distances (uint64) and count of them, reading the block once;
    else None (the array expressions)."""
    if xp is np or dtype.kind != "u":
        return None
    return xp.RawKernel(ROW_SUMS.replace("DIST", "unsigned int" if dtype.itemsize == 4 else "unsigned long long"),
                        "row_sums")


def task_all_pairs(rep, args, graph, xp):
    """Every source's row of USA-road-d.NY by PHAST, reduced where it lies (cupy on the device):
    per source the sum of its finite distances (uint64 for integer distances, float64 for real
    ones) and its count of reached vertices. Each run solves a new Graph (args.ny_graph(): read
    outside the timer), so that each run builds its hierarchy."""
    n, src, tgt, w = graph
    if xp is np:
        rows = max(1, 2**25 // n)
    else:
        xp.get_default_memory_pool().free_all_blocks()
        rows = max(1, int(xp.cuda.runtime.memGetInfo()[0] * args.all_pairs_share) // (n * 4))
    tune = {"batch_size": args.all_pairs_batch} if args.all_pairs_batch else None

    def summarized(budget):
        g = args.ny_graph()
        start = time.perf_counter()
        got, st = g.row_summaries(strategy="phast", tune=tune, return_stats=True)
        builds.append(st["setup_ms"] / 1e3)
        return time.perf_counter() - start, n, got["sum"], got["reached"]

    def run(budget):
        if args.all_pairs_via == "summaries":
            return summarized(budget)
        g = args.ny_graph()
        dtype = g.distance_matrix([], []).dtype
        none = unreachable(dtype)
        total = xp.uint64 if dtype.kind == "u" else xp.float64
        fused = row_sums_kernel(xp, dtype)
        sums = xp.zeros(n, dtype=total)
        counts = xp.zeros(n, dtype=xp.int64)
        block = xp.empty((min(rows, n), n), dtype=dtype)
        start = time.perf_counter()
        done = 0
        while done < n and time.perf_counter() - start < budget:
            part = np.arange(done, min(done + rows, n))
            out = block[:len(part)]
            _, st = g.distance_matrix(part, strategy="phast", out=out, return_stats=True, tune=tune)
            if done == 0:
                builds.append(st["setup_ms"] / 1e3)
            if fused is not None:  # one pass over the block, no temporaries
                fused((len(part),), (256,), (out, np.int64(n), sums[done:], counts[done:]))
            else:
                reached = out != none
                counts[done:done + len(part)] = reached.sum(axis=1)
                sums[done:done + len(part)] = xp.where(reached, out, 0).sum(axis=1, dtype=total)
            done += len(part)
        sums, counts = to_host(sums), to_host(counts)
        return time.perf_counter() - start, done, sums, counts

    builds = []  # each run's hierarchy build (s), part of its time
    first, done, sums, counts = run(args.budget)
    sample = np.array([0, n // 2, n - 1])
    D = dijkstra(scipy_matrix(n, src, tgt, w), indices=sample)
    finite = np.isfinite(D)
    ok = np.array_equal(counts[sample], finite.sum(axis=1)) and \
        np.array_equal(sums[sample], np.where(finite, D, 0).sum(axis=1).astype(sums.dtype))
    check("all pairs' sums and counts", ok)
    if done < n:
        rep.note(f"all pairs: {done:,} of {n:,} sources within the {args.budget:g} s budget; the rate is theirs")
        times = [first]
    else:
        times = [first] + [run(float("inf"))[0] for _ in range(runs_within(first, args.runs, args.budget) - 1)]
    batch = f"{args.all_pairs_batch} sources" if args.all_pairs_batch else "the automatic size"
    if args.all_pairs_via == "summaries":
        rep.note(f"all pairs: Graph.row_summaries, each batch reduced in the engine, batches of {batch}")
    else:
        rep.note(f"all pairs: blocks of {min(rows, n):,} rows ({args.all_pairs_share:g} of the free memory on a GPU), "
                 f"batches of {batch}")
    rep.note(f"all pairs: the hierarchy builds took {', '.join(f'{b:.2f}' for b in builds)} s of the runs' "
             f"{', '.join(f'{t:.2f}' for t in times)} s")
    rate = done * n / statistics.median(times)
    where = "on the device" if xp is not np else "on the host"
    where += ", in the engine" if args.all_pairs_via == "summaries" else ", from blocks of rows"
    rep.add(f"all pairs reduced {where} (phast, hierarchy build included)", f"{done:,} x {n:,}", times,
            f"{rate:.3g} distances/s ({rate / PATHPACK_RATE:.2f} x PATHPACK's 1.14e11 on a B200)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("output", help="the markdown table's path (an existing file is kept)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--budget", type=float, default=60.0, help="seconds per task")
    p.add_argument("--small", action="store_true", help="chicago-regional and a piece of USA-road-d.NY (CPU)")
    p.add_argument("--tasks", default="abcd", help="which of the tasks a, b, c, d to run")
    p.add_argument("--all-pairs-share", type=float, default=0.125,
                   help="task d: the share of the free device memory a block of rows takes")
    p.add_argument("--all-pairs-batch", type=int, default=0, help="task d: sources a batch (0: automatic)")
    p.add_argument("--all-pairs-via", choices=("summaries", "rows"), default="summaries",
                   help="task d: Graph.row_summaries (reduced in the engine) or blocks of rows reduced by a kernel")
    args = p.parse_args()
    if os.path.exists(args.output):
        print(f"{args.output} exists; pass another path", file=sys.stderr)
        return 2
    if args.small:
        road = load("chicago-regional.mtx.gz", scale=1000.0)
        ny = load("USA-road-d.NY.gr.gz", keep=5000)
        arcs = sp.csr_matrix((ny[3], (ny[1], ny[2])), shape=(ny[0], ny[0]))
        args.ny_graph = lambda: Graph.from_scipy(arcs)
        args.valued, args.pairs, args.table = 2000, 20_000, 200
        names = ("chicago-regional (thousandths of a mile)", "USA-road-d.NY, first 5,000 vertices")
    else:
        road = load("road-FLA.mtx.gz")
        ny = load("USA-road-d.NY.gr.gz")
        args.ny_graph = lambda: Graph.from_file(ROOT / "datasets" / "USA-road-d.NY.gr.gz")
        args.valued, args.pairs, args.table = 50_000, 1_000_000, 1000
        names = ("road-FLA", "USA-road-d.NY")
    args.distances = [2000.0, 4000.0, 6000.0]
    xp = device_module()
    rep = Report()
    head = (f"deltasplit {deltasplit.__version__}; GPU: {gpu_name()} (usable: {deltasplit.gpu_available()}, "
            f"blocks reduced by {xp.__name__}); {os.cpu_count()} CPU cores, "
            f"{platform.processor() or platform.machine()}; "
            f"graphs {names[0]} ({road[0]:,} nodes, {len(road[1]):,} arcs) and {names[1]} ({ny[0]:,} vertices, "
            f"{len(ny[1]):,} arcs); budget {args.budget:g} s per task")
    print(f"# {head}")
    print("| task | size | median s | min s | max s | runs | rate |\n|---|---|---|---|---|---|---|")
    tasks = {"a": (task_accessibility, road), "b": (task_pairs, road), "c": (task_table, road),
             "d": (task_all_pairs, ny)}
    for key in "abcd":
        if key not in args.tasks:
            rep.note(f"task {key} skipped (--tasks)")
            continue
        fn, graph = tasks[key]
        fn(rep, args, graph, xp)
    with open(args.output, "x") as f:
        f.write(f"# Road analytics on the GPU (bench/road/road_gpu_bench.py{' --small' if args.small else ''})\n\n")
        f.write(f"{head}.\n\n| task | size | median s | min s | max s | runs | rate |\n|---|---|---|---|---|---|---|\n")
        f.write("\n".join(rep.rows) + "\n")
        if rep.notes:
            f.write("\n" + "\n".join(f"- {n}" for n in rep.notes) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
