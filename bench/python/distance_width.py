"""64-bit distances against 32-bit on one GPU, the same graph and sources in one run (issue 36's
benchmark): each graph's weights w become tenths (w / 10 as float64, which float32 does not hold),
and one-source solves run with

  float32 auto    dtype=numpy.float32, the automatic driver (what the 32-bit type gets)
  float32 steps   dtype=numpy.float32 on the step loop
  float64 auto    dtype=numpy.float64 (the default), the automatic driver

and, for the integer graph as given, uint32 with the automatic driver (today's figures). Each row
is the median of stats['milliseconds'] (the figure the summary prints) over SOURCES sources x RUNS
runs after one untimed solve; the float64 distances are checked against the CPU's Dijkstra for the
first source (--no-check: not, for graphs where Dijkstra takes minutes). --also DRIVER,... adds
uint32, float32 and float64 solves forced onto those drivers (JSON only; a driver that refuses a
type is reported as its error).

--uint64 adds the integer graph with its weights times 4,096 (32-bit weights whose paths pass
2^32 - 2: uint64 distances, which the GPU solves in 32 bits, finds overflowing and solves again in
float64) on the GPU and on the CPU (delta-stepping on every core: where uint64 ran before), and
the integer graph as given, both timed by the wall clock around each call (the GPU's uint64 figure
includes the 32-bit attempt and the conversion); the GPU's uint64 distances are checked against the
CPU Dijkstra's for the first source. Graphs: files, or kron:S for a Graph500 Kronecker graph of
scale S: Graph.rmat(S, 16, undirected=True, weight_range=(1, 255)), what `deltasplit generate rmat
--scale S --undirected --weight-range 1:255` writes, or grid:RxC for Graph.grid(R, C) (`deltasplit
generate grid --rows R --cols C`: weights 0..1000).

--many K times many-source solves instead: distance_matrix from K random sources (all vertices
as targets) of the integer graph in uint32 and of the tenths in float32 and float64, each with the
automatic engine (one block per source on sparse graphs) and on the vertex-major batches (driver
steps), on the GPU; the wall clock around each call, median of RUNS; both GPU float64 results'
first 32 rows checked against the CPU's Dijkstra. --cpu also times float64 on the CPU (one
Dijkstra per source on every core).

Usage: python bench/python/distance_width.py GRAPH... [--sources N] [--runs R] [--md FILE] [--uint64]
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


def median_ms(graph, sources, runs, **kw):
    graph.sssp(int(sources[0]), "near-far", device="gpu", **kw)
    ms, driver = [], ""
    for s in sources:
        for _ in range(runs):
            _, _, st = graph.sssp(int(s), "near-far", device="gpu", **kw)
            ms.append(st["milliseconds"])
            driver = st["driver"]
    return statistics.median(ms), driver


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("graphs", nargs="+")
    p.add_argument("--sources", type=int, default=3)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--md", help="append the table (markdown) to this file")
    p.add_argument("--uint64", action="store_true", help="also time uint64 distances (above) and skip the float cases")
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

def wall_ms(graph, sources, runs, device, strategy="near-far"):
    graph.sssp(int(sources[0]), strategy, device=device)
    ms, note = [], ""
    for s in sources:
        for _ in range(runs):
            t0 = time.perf_counter()
            _, _, st = graph.sssp(int(s), strategy, device=device)
            ms.append((time.perf_counter() - t0) * 1e3)
            note = st.get("note", "") or st.get("driver", "")
    return statistics.median(ms), note


def uint64_rows(args):
    rows = []
    for spec in args.graphs:
        name, offsets, targets, weights, n = load(spec)
        integer = Graph.from_arrays(offsets, targets, weights, num_vertices=n)
        scaled = Graph.from_arrays(offsets, targets, np.asarray(weights, dtype=np.uint64) * 4096, num_vertices=n)
        rng = np.random.default_rng(7)
        degree = np.diff(np.asarray(offsets))
        sources = rng.choice(np.flatnonzero(degree > 0), args.sources, replace=False)
        want = scaled.sssp(int(sources[0]), "dijkstra")[0]
        got = scaled.sssp(int(sources[0]), "near-far", device="gpu")[0]
        row = {"graph": name, "vertices": int(n), "arcs": int(len(targets)), "distance dtype": str(got.dtype),
               "farthest": int(want[want != np.iinfo(want.dtype).max].max()) if want.dtype.kind == "u" else None,
               "uint64 equals Dijkstra": bool(np.array_equal(want, got))}
        row["uint32 gpu ms"], row["uint32 driver"] = wall_ms(integer, sources, args.runs, "gpu")
        row["uint64 gpu ms"], row["uint64 gpu note"] = wall_ms(scaled, sources, args.runs, "gpu")
        row["uint64 cpu ms"], row["uint64 cpu note"] = wall_ms(scaled, sources, max(1, args.runs // 2), "cpu", "cpu")
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.md:
        append_table(args.md, ["graph", "uint32 GPU ms (weights w)", "uint64 GPU ms (w x 4096)", "uint64 CPU ms (w x 4096)",
                               "uint64 GPU / uint32 GPU", "uint64 CPU / uint64 GPU", "uint64 = Dijkstra"],
                     [[r["graph"], f"{r['uint32 gpu ms']:.3f}", f"{r['uint64 gpu ms']:.3f}", f"{r['uint64 cpu ms']:.1f}",
                       f"{r['uint64 gpu ms'] / r['uint32 gpu ms']:.2f}", f"{r['uint64 cpu ms'] / r['uint64 gpu ms']:.1f}",
                       "yes" if r["uint64 equals Dijkstra"] else "NO"] for r in rows])

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
