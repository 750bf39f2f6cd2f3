"""One-source GPU figures per driver, for comparing two builds of the package (run it once with
each build's package on PYTHONPATH, alternating): for every graph and driver (auto, steps,
partitioned, wide), the median and minimum of stats['milliseconds'] (the figure the summary
prints) over 3 sources x 5 solves after a warm-up, each solve's distances checked equal to the
first's, with the first solve's setup (the partitioned driver's regions); then 1,024 sources of the
first graph as one distance_matrix call on the GPU, for each batch engine. One JSON line a figure.
Real weights run in float32 (every driver takes it). bench/results/seam.md has its runs.

Usage: python bench/python/driver_figures.py LABEL GRAPH [GRAPH ...]
"""
import json
import statistics
import sys

import numpy as np

import deltasplit


def main():
    label, paths = sys.argv[1], sys.argv[2:]
    for path in paths:
        g = deltasplit.Graph.from_file(path)
        dtype = np.float32 if g.weight_kind == "real" else None
        n = g.num_vertices
        sources = [0, n // 3, (2 * n) // 3]
        for driver in ("auto", "steps", "partitioned", "wide"):
            try:
                first = g.sssp(0, device="gpu", tune={"driver": driver}, dtype=dtype)[2]
            except Exception as e:  # a driver this graph cannot take
                print(json.dumps({"build": label, "graph": path, "driver": driver, "error": str(e)[:80]}))
                continue
            ms, name = [], ""
            for s in sources:
                ref = None
                for _ in range(5):
                    d, _, st = g.sssp(s, device="gpu", tune={"driver": driver}, dtype=dtype)
                    ms.append(st["milliseconds"])
                    name = st["driver"].split(":")[0].split(";")[0]
                    if ref is None:
                        ref = d
                    assert np.array_equal(ref, d)
            print(json.dumps({"build": label, "graph": path.split("/")[-1], "driver": driver, "ran": name,
                              "median_ms": round(statistics.median(ms), 3), "min_ms": round(min(ms), 3),
                              "first_setup_ms": round(first.get("setup_ms", 0), 1), "setup": first.get("setup", "")}))
    g = deltasplit.Graph.from_file(paths[0])
    src = np.random.default_rng(7).choice(g.num_vertices, 1024, replace=False)
    for engine in ("auto", "block", "steps"):
        ms = []
        for _ in range(4):
            _, st = g.distance_matrix(src, device="gpu", tune={"driver": engine}, return_stats=True)
            ms.append(st.get("milliseconds", float("nan")))
        print(json.dumps({"build": label, "graph": paths[0].split("/")[-1] + " x1024", "driver": engine,
                          "median_ms": round(statistics.median(ms[1:]), 3), "min_ms": round(min(ms[1:]), 3)}))


if __name__ == "__main__":
    main()
