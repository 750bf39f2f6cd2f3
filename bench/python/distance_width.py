"""64-bit distances against 32-bit on one GPU, the same graph and sources in one run (issue 36's
benchmark): each graph's weights w become tenths (w / 10 as float64, which float32 does not hold),
and one-source solves run with

  float32 auto    dtype=numpy.float32, the automatic driver (what the 32-bit type gets)
  float32 steps   dtype=numpy.float32 on the step loop
  float64 auto    dtype=numpy.float64 (the default), the automatic driver

and, for the integer graph as given, uint32 with the automatic driver (today's figures). Each row
is the median of stats['milliseconds'] (the figure the summary prints) over SOURCES sources x RUNS
runs after one untimed solve; the float64 distances are checked against the CPU's Dijkstra for the
first source (--no-check: not, for graphs where Dijkstra takes minutes; with --uint64 too). --also DRIVER,... adds
uint32, float32 and float64 solves forced onto those drivers (JSON only; a driver that refuses a
type is reported as its error).

--uint64 times uint64 distances instead, on the GPU, against uint32 on the integer graph as given
(the automatic driver each): the weights times 4,096 (32-bit weights whose paths may pass
2^32 - 2: the GPU solves in 32 bits, finds the overflow and solves again in 64 bits; the solver's
later sources go to 64 bits directly; where none passes, the 32-bit solve stands), the weights
times F, the largest factor that keeps them in 32 bits ("32-bit": paths past 2^32 - 2 on any
graph of long paths, so solved in 64 bits), and the weights times 2^34 + 1 as 64-bit weights
(paths past 2^53, sums a double does not hold: the 64-bit engine directly). One-source figures are the medians of
stats['milliseconds'] and of the wall clock around each call; with --many K also distance_matrix
from K random sources (all targets) in uint32 and in 64-bit weights, wall clock. Every uint64
result is checked against the CPU Dijkstra's for the first source (many: the first 8 rows).
Graphs: files, or kron:S for a Graph500 Kronecker graph of
scale S: Graph.rmat(S, 16, undirected=True, weight_range=(1, 255)), what `deltasplit generate rmat
--scale S --undirected --weight-range 1:255` writes, or grid:RxC for Graph.grid(R, C) (`deltasplit
generate grid --rows R --cols C`: weights 0..1000).

--many K times many-source solves instead: distance_matrix from K random sources (all vertices
as targets) of the integer graph in uint32 and of the tenths in float32 and float64, each with the
automatic engine (one block per source on sparse graphs) and on the vertex-major batches (driver
steps), on the GPU; the wall clock around each call, median of RUNS; both GPU float64 results'
first 32 rows checked against the CPU's Dijkstra. --cpu also times float64 on the CPU (one
Dijkstra per source on every core).

Usage: python bench/python/distance_width.py GRAPH... [--sources N] [--runs R] [--md FILE] [--uint64 [--many K]]
                                            [--also partitioned,steps] [--no-check] [--many K] [--cpu]
"""
import argparse
import json
import statistics
import time

import numpy as np

from deltasplit import Graph


def load(spec):
    if spec.startswith("kron:"):
        g = Graph.rmat(int(spec[5:]), 16, undirected=True, weight_range=(1, 255))
    elif spec.startswith("grid:"):
        rows, cols = (int(x) for x in spec[5:].split("x"))
        g = Graph.grid(rows, cols)
    else:
        g = Graph.from_file(spec)
    offsets, targets, weights = g.arrays()
    return spec.split("/")[-1], offsets, targets, weights, g.num_vertices


def integer_and_tenths(spec):
    """The graph of spec with its integer weights and as tenths (w / 10 in float64), and its name,
    arrays and size: (name, offsets, targets, n, integer, tenths)."""
    name, offsets, targets, weights, n = load(spec)
    integer = Graph.from_arrays(offsets, targets, weights, num_vertices=n)
    tenths = Graph.from_arrays(offsets, targets, np.asarray(weights, dtype=np.float64) / 10, num_vertices=n)
    return name, offsets, targets, n, integer, tenths


def timed_ms(graph, sources, runs, **kw):
    """Medians of stats['milliseconds'] and of the wall clock (ms) over sources x runs GPU solves
    after one untimed solve, and the last solve's driver and note."""
    graph.sssp(int(sources[0]), "near-far", device="gpu", **kw)
    solve, wall, st = [], [], {}
    for s in sources:
        for _ in range(runs):
            t0 = time.perf_counter()
            _, _, st = graph.sssp(int(s), "near-far", device="gpu", **kw)
            wall.append((time.perf_counter() - t0) * 1e3)
            solve.append(st["milliseconds"])
    return statistics.median(solve), statistics.median(wall), st["driver"], st.get("note", "")


def median_ms(graph, sources, runs, **kw):
    """timed_ms's median of stats['milliseconds'] and driver."""
    solve, _, driver, _ = timed_ms(graph, sources, runs, **kw)
    return solve, driver


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("graphs", nargs="+")
    p.add_argument("--sources", type=int, default=3)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--md", help="append the table (markdown) to this file")
    p.add_argument("--uint64", action="store_true", help="time uint64 distances (above) instead of the float cases")
    p.add_argument("--also", default="", help="drivers to force float32 and float64 onto, comma-separated (JSON only)")
    p.add_argument("--no-check", action="store_true", help="skip the comparison with Dijkstra")
    p.add_argument("--many", type=int, default=0, help="time distance_matrix from this many sources instead")
    p.add_argument("--cpu", action="store_true", help="with --many: also time float64 on the CPU")
    args = p.parse_args()
    if args.uint64:
        return uint64_rows(args)
    if args.many:
        return many_rows(args)
    rows = []
    for spec in args.graphs:
        name, offsets, targets, n, integer, tenths = integer_and_tenths(spec)
        rng = np.random.default_rng(7)
        degree = np.diff(np.asarray(offsets))
        sources = rng.choice(np.flatnonzero(degree > 0), args.sources, replace=False)
        exact = None
        if not args.no_check:
            want = tenths.sssp(int(sources[0]), "dijkstra")[0]
            exact = bool(np.array_equal(want, tenths.sssp(int(sources[0]), "near-far", device="gpu")[0]))
        cases = {
            "uint32 auto": dict(),
            "float32 auto": dict(dtype=np.float32),
            "float32 steps": dict(dtype=np.float32, tune={"driver": "steps"}),
            "float64 auto": dict(),
        }
        row = {"graph": name, "vertices": int(n), "arcs": int(len(targets)), "float64 equals Dijkstra": exact}
        for case, kw in cases.items():
            g = integer if case.startswith("uint32") else tenths
            row[case], row[case + " driver"] = median_ms(g, sources, args.runs, **kw)
        for driver in filter(None, args.also.split(",")):
            for dtype in (np.uint32, np.float32, np.float64):
                case = f"{np.dtype(dtype).name} {driver}"
                g, kw = (integer, {}) if dtype == np.uint32 else (tenths, dict(dtype=dtype))
                try:
                    row[case], row[case + " driver"] = median_ms(g, sources, args.runs, tune={"driver": driver}, **kw)
                except (ValueError, RuntimeError) as e:
                    row[case] = str(e)
        row["float64 / float32 auto"] = row["float64 auto"] / row["float32 auto"]
        row["float64 / float32 steps"] = row["float64 auto"] / row["float32 steps"]
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.md:
        append_table(args.md, ["graph", "vertices", "arcs", "uint32 auto ms", "float32 auto ms", "float32 steps ms",
                               "float64 ms", "float64 / float32 auto", "float64 / float32 steps", "float64 = Dijkstra"],
                     [[r["graph"], f"{r['vertices']:,}", f"{r['arcs']:,}", f"{r['uint32 auto']:.3f}",
                       f"{r['float32 auto']:.3f}", f"{r['float32 steps']:.3f}", f"{r['float64 auto']:.3f}",
                       f"{r['float64 / float32 auto']:.2f}", f"{r['float64 / float32 steps']:.2f}",
                       {True: "yes", False: "NO", None: "not checked"}[r["float64 equals Dijkstra"]]] for r in rows])


def append_table(path, columns, cells):
    """Appends a markdown table: one header row of columns, then one row per list of cells."""
    with open(path, "a") as f:
        f.write("| " + " | ".join(columns) + " |\n")
        f.write("|" + "---|" * len(columns) + "\n")
        for row in cells:
            f.write("| " + " | ".join(row) + " |\n")

WIDE_FACTOR = 2**34 + 1


def uint64_rows(args):
    rows = []
    for spec in args.graphs:
        name, offsets, targets, weights, n = load(spec)
        weights = np.asarray(weights, dtype=np.uint64)
        fill = (2**32 - 1) // max(int(weights.max()), 1) if len(weights) else 1
        cases = {"uint32": Graph.from_arrays(offsets, targets, weights.astype(np.uint32), num_vertices=n),
                 "x 4096": Graph.from_arrays(offsets, targets, weights * 4096, num_vertices=n),
                 "32-bit": Graph.from_arrays(offsets, targets, weights * np.uint64(fill), num_vertices=n),
                 "64-bit": Graph.from_arrays(offsets, targets, weights * np.uint64(WIDE_FACTOR), num_vertices=n)}
        rng = np.random.default_rng(7)
        degree = np.diff(np.asarray(offsets))
        sources = rng.choice(np.flatnonzero(degree > 0), args.sources, replace=False)
        row = {"graph": name, "vertices": int(n), "arcs": int(len(targets)), "32-bit factor": fill}
        for case, g in cases.items():
            got = g.sssp(int(sources[0]), "near-far", device="gpu")[0]
            row[case + " dtype"] = str(got.dtype)
            if case != "uint32":
                want = got if args.no_check else g.sssp(int(sources[0]), "dijkstra")[0]
                row[case + " equals Dijkstra"] = None if args.no_check else bool(np.array_equal(want, got))
                row[case + " farthest"] = int(want[want != np.iinfo(want.dtype).max].max())
            row[case + " solve ms"], row[case + " wall ms"], row[case + " driver"], row[case + " note"] = \
                timed_ms(g, sources, args.runs)
        if args.many:
            many = rng.choice(n, args.many, replace=False)
            for case in ("uint32", "64-bit"):
                row[case + " many ms"], d, row[case + " many engine"] = matrix_ms(cases[case], many, args.runs,
                                                                                  device="gpu")
            want = cases["64-bit"].distance_matrix(many[:8], device="cpu")
            row["64-bit many equals Dijkstra"] = bool(np.array_equal(d[:8], want))
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.md:
        yes = {True: "yes", False: "NO", None: "not checked"}
        append_table(args.md, ["graph", "uint32 ms (solve / wall)", "x 4096: uint64 ms",
                               "32-bit weights x F: uint64 ms", "32-bit x F / uint32", "64-bit weights: uint64 ms",
                               "64-bit / uint32 (solve)", "farthest (32-bit x F, 64-bit)", "uint64 = Dijkstra"],
                     [[r["graph"], f"{r['uint32 solve ms']:.3f} / {r['uint32 wall ms']:.3f} ({r['uint32 driver']})",
                       f"{r['x 4096 solve ms']:.3f} / {r['x 4096 wall ms']:.3f}",
                       f"{r['32-bit solve ms']:.3f} / {r['32-bit wall ms']:.3f} (F = {r['32-bit factor']}; {r['32-bit driver']})",
                       f"{r['32-bit solve ms'] / r['uint32 solve ms']:.2f}",
                       f"{r['64-bit solve ms']:.3f} / {r['64-bit wall ms']:.3f} ({r['64-bit driver']})",
                       f"{r['64-bit solve ms'] / r['uint32 solve ms']:.2f}",
                       f"{r['32-bit farthest']:.3e}, {r['64-bit farthest']:.3e}",
                       yes[None if args.no_check else all(r[c + " equals Dijkstra"] for c in ("x 4096", "32-bit", "64-bit"))]]
                      for r in rows])
        if args.many:
            append_table(args.md, ["graph", "sources", "uint32 ms", "64-bit weights: uint64 ms", "ratio",
                                   "uint64 = Dijkstra (8 rows)"],
                         [[r["graph"], str(args.many), f"{r['uint32 many ms']:.1f} ({r['uint32 many engine']})",
                           f"{r['64-bit many ms']:.1f} ({r['64-bit many engine']})",
                           f"{r['64-bit many ms'] / r['uint32 many ms']:.2f}", yes[r["64-bit many equals Dijkstra"]]]
                          for r in rows])

def matrix_ms(graph, sources, runs, **kw):
    """Median wall-clock ms of graph.distance_matrix(sources, **kw) over runs (after one untimed
    call), the last result and its stats['driver'] (or the device on the CPU)."""
    graph.distance_matrix(sources, **kw)
    ms = []
    for _ in range(runs):
        t0 = time.perf_counter()
        d, st = graph.distance_matrix(sources, return_stats=True, **kw)
        ms.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ms), d, st["driver"] or st["device"]


def many_rows(args):
    rows = []
    for spec in args.graphs:
        name, offsets, targets, n, integer, tenths = integer_and_tenths(spec)
        rng = np.random.default_rng(7)
        sources = rng.choice(n, args.many, replace=False)
        row = {"graph": name, "vertices": int(n), "arcs": int(len(targets)), "sources": args.many}
        cases = {
            "uint32 auto": (integer, dict(device="gpu")),
            "float32 auto": (tenths, dict(device="gpu", dtype=np.float32)),
            "float32 vertex-major": (tenths, dict(device="gpu", dtype=np.float32, tune={"driver": "steps"})),
            "float64 auto": (tenths, dict(device="gpu")),
            "float64 vertex-major": (tenths, dict(device="gpu", tune={"driver": "steps"})),
        }
        if args.cpu:
            cases["float64 cpu"] = (tenths, dict(device="cpu"))
        out = {}
        for case, (g, kw) in cases.items():
            row[case], out[case], row[case + " driver"] = matrix_ms(g, sources, args.runs, **kw)
        want = tenths.distance_matrix(sources[:32], device="cpu")
        row["float64 equals cpu"] = bool(np.array_equal(out["float64 auto"][:32], want) and
                                         np.array_equal(out["float64 vertex-major"][:32], want))
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.md:
        append_table(args.md, ["graph", "sources", "uint32 auto ms", "float32 auto ms", "float32 vertex-major ms",
                               "float64 auto ms", "float64 vertex-major ms", "float64 / float32, auto",
                               "float64 CPU ms", "float64 GPU = CPU"],
                     [[r["graph"], str(r["sources"]), f"{r['uint32 auto']:.1f} ({r['uint32 auto driver']})",
                       f"{r['float32 auto']:.1f} ({r['float32 auto driver']})", f"{r['float32 vertex-major']:.1f}",
                       f"{r['float64 auto']:.1f} ({r['float64 auto driver']})", f"{r['float64 vertex-major']:.1f}",
                       f"{r['float64 auto'] / r['float32 auto']:.2f}",
                       f"{r['float64 cpu']:.1f}" if "float64 cpu" in r else "",
                       "yes" if r["float64 equals cpu"] else "NO"] for r in rows])


if __name__ == "__main__":
    main()
