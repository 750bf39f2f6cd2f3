"""deltasplit.network against pandana on one road graph: accessibility (values on some nodes,
aggregated around every node at several distances) and vectorised OD pairs, each timed with its
set-up (building the Network: pandana's contraction hierarchy, deltasplit's graph and solver),
the median of --runs runs, answers checked equal.

    python bench/road/road_bench.py [--graph datasets/chicago-regional.mtx.gz] [--pairs 100000]
        [--valued 2000] [--distances 2000 5000 10000] [--runs 3] [--strategy auto|multisplit|phast]
        [--skip-pandana] [--skip-od] [--skip-setup-alone]

Weights are made integers (--scale units per weight unit, rounded; chicago-regional's miles
become thousandths of a mile) so that both libraries compute the same exact distances: pandana
truncates real weights to thousandths. Prints one markdown table row per measurement.
"""
import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np
import pandas as pd

import deltasplit
from deltasplit import Graph
from deltasplit.network import Network


def load(path, scale):
    g = Graph.from_file(path)
    off, tgt, w = g.arrays()
    n = g.num_vertices
    src = np.repeat(np.arange(n), np.diff(off.astype(np.int64)))
    # at least 1: pandana lifts a zero weight to a thousandth of a unit
    w = np.maximum(np.rint(w.astype(np.float64) * scale), 1).astype(np.int64)
    return n, src, tgt.astype(np.int64), w


def timed(fn, runs):
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), max(times), result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--graph", default="datasets/chicago-regional.mtx.gz")
    p.add_argument("--scale", type=float, default=1000.0)
    p.add_argument("--pairs", type=int, default=100_000)
    p.add_argument("--valued", type=int, default=2000)
    p.add_argument("--distances", type=float, nargs="+", default=[2000.0, 5000.0, 10000.0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--strategy", default="auto")
    p.add_argument("--skip-pandana", action="store_true")
    p.add_argument("--skip-od", action="store_true", help="accessibility only")
    p.add_argument("--skip-setup-alone", action="store_true",
                   help="no separate timing of pandana's set-up (it is timed within each task anyway)")
    args = p.parse_args()

    n, src, tgt, w = load(args.graph, args.scale)
    x = pd.Series(np.zeros(n))
    y = pd.Series(np.zeros(n))
    weights = pd.DataFrame({"w": w})
    rng = np.random.default_rng(1)
    places = rng.integers(0, n, args.valued)
    values = pd.Series(rng.integers(1, 100, args.valued).astype(np.float64))
    o, d = rng.integers(0, n, args.pairs), rng.integers(0, n, args.pairs)
    print(f"# {os.path.basename(args.graph)}: {n} nodes, {len(src)} one-way edges; {args.valued} valued nodes, "
          f"distances {args.distances}; {args.pairs} OD pairs; deltasplit strategy {args.strategy}, "
          f"GPU usable {deltasplit.gpu_available()}; {os.cpu_count()} CPU cores, "
          f"{platform.processor() or platform.machine()}")
    print("| library | task | median s | min s | max s |")
    print("|---|---|---|---|---|")

    def ours_access():
        net = Network(x, y, src, tgt, weights, twoway=False, strategy=args.strategy)
        net.set(pd.Series(places), values)
        return net.aggregate(args.distances, type="sum", decay="linear")

    def ours_od():
        net = Network(x, y, src, tgt, weights, twoway=False, strategy=args.strategy)
        return net.shortest_path_lengths(o, d)

    rows = [("deltasplit", "accessibility (set-up included)", ours_access)]
    if not args.skip_od:
        rows.append(("deltasplit", f"{args.pairs} OD pairs (set-up included)", ours_od))
    results = {}
    for lib, task, fn in rows:
        med, lo, hi, res = timed(fn, args.runs)
        results[(lib, task.split(" (")[0])] = res
        print(f"| {lib} | {task} | {med:.3f} | {lo:.3f} | {hi:.3f} |", flush=True)
    if args.skip_pandana:
        return 0
    import pandana

    def theirs_setup():
        return pandana.Network(x, y, pd.Series(src), pd.Series(tgt), weights.astype(float), twoway=False)

    def theirs_access():
        net = theirs_setup()
        net.set(pd.Series(places), values)
        return pd.DataFrame({("sum", r): net.aggregate(r, type="sum", decay="linear") for r in args.distances})

    def theirs_od():
        return np.asarray(theirs_setup().shortest_path_lengths(o, d))

    tasks = [] if args.skip_setup_alone else [("network set-up alone (its contraction hierarchy)", theirs_setup)]
    tasks.append(("accessibility (set-up included)", theirs_access))
    if not args.skip_od:
        tasks.append((f"{args.pairs} OD pairs (set-up included)", theirs_od))
    for task, fn in tasks:
        # A run stopped from outside still bounds the task's time from below by the clock from here.
        print(f"# pandana {task}: started at {time.time():.1f} (epoch seconds)", flush=True)
        med, lo, hi, res = timed(fn, args.runs)
        results[("pandana", task.split(" (")[0])] = res
        print(f"| pandana | {task} | {med:.3f} | {lo:.3f} | {hi:.3f} |", flush=True)
    a, b = results[("deltasplit", "accessibility")], results[("pandana", "accessibility")]
    same_access = all(np.allclose(a[c].to_numpy(), b[c].to_numpy(), rtol=1e-9, atol=1e-9) for c in b.columns)
    same_od = True
    if not args.skip_od:
        mine = results[("deltasplit", f"{args.pairs} OD pairs")].astype(np.float64)
        theirs = results[("pandana", f"{args.pairs} OD pairs")]
        reached = mine != Graph.INT_INFINITY
        same_od = np.array_equal(mine[reached], theirs[reached]) and np.all(theirs[~reached] == 4294967.295)
    print(f"\nanswers equal: accessibility {same_access}, OD pairs {same_od}")
    return 0 if same_access and same_od else 1


if __name__ == "__main__":
    sys.exit(main())
