#!/usr/bin/env python3
"""deltasplit's CPU solver beside scipy.sparse.csgraph.dijkstra, in one run on one machine.

For every graph: the arcs deltasplit reads (generated weights included) are exported with
`deltasplit convert` to an edge list, loaded into a CSR matrix (parallel arcs keep their lightest
weight, as a shortest path would), and solved from the first vertex by scipy (the `dijkstra`
call alone is timed) and by `deltasplit sssp --device cpu --strategy cpu` at each thread count
(the solve alone, as the CLI reports it). Both answers are compared vertex by vertex. Prints a
markdown table of medians.

  python3 bench/sssp/cpu_vs_scipy.py --deltasplit build-h200/deltasplit --threads 1,2 --runs 7
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

GRAPHS = ["USA-road-d.NY.gr.gz", "road-FLA.mtx.gz", "chicago-regional.mtx.gz", "soc-slashdot0902.mtx.gz",
          "cit-HepPh.mtx.gz", "email-Enron.mtx.gz"]


def load_edges(path):
    data = np.loadtxt(path, comments="#", dtype=np.float64, ndmin=2)
    with open(path) as f:
        f.readline()
        n = int(f.readline().split()[2])
    u, v, w = data[:, 0].astype(np.int64), data[:, 1].astype(np.int64), data[:, 2]
    order = np.lexsort((w, v, u))  # lightest first within each (u, v)
    u, v, w = u[order], v[order], w[order]
    first = np.ones(len(u), dtype=bool)
    first[1:] = (u[1:] != u[:-1]) | (v[1:] != v[:-1])
    return csr_matrix((w[first], (u[first], v[first])), shape=(n, n)), n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deltasplit", default="build-h200/deltasplit")
    ap.add_argument("--datasets", default="datasets")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--graphs", default=",".join(GRAPHS))
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    print(f"scipy {scipy.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs; median of {a.runs} runs, source = first vertex")
    head = "| graph | vertices | arcs | scipy dijkstra ms |" + "".join(f" deltasplit cpu, {t} thr. ms | speedup |" for t in threads)
    print(head + " deltasplit path | distances equal |")
    print("|---" * (head.count("|") + 1) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.graphs.split(","):
            src = os.path.join(a.datasets, name)
            edges = os.path.join(tmp, "g.edges")
            subprocess.run([a.deltasplit, "convert", src, edges, "--force"], check=True, capture_output=True)
            m, n = load_edges(edges)
            times = []
            for _ in range(a.runs):
                t0 = time.perf_counter()
                dist = dijkstra(m, directed=True, indices=0)
                times.append((time.perf_counter() - t0) * 1e3)
            scipy_ms = statistics.median(times)
            row = f"| {name} | {n} | {m.nnz} | {scipy_ms:.2f} |"
            equal, path = True, ""
            for t in threads:
                js, out = os.path.join(tmp, "r.json"), os.path.join(tmp, "d.txt")
                first = "0" if name.endswith((".edges", ".txt")) else "1"
                subprocess.run([a.deltasplit, "sssp", src, "--device", "cpu", "--strategy", "cpu", "--source", first,
                                "--threads", str(t), "--runs", str(a.runs), "--json", js, "--output", out, "--force"],
                               check=True, capture_output=True)
                run = json.load(open(js))["runs"][0]
                ours = np.loadtxt(out, dtype=str)
                d = np.array([np.inf if x == "inf" else float(x) for x in ours[:, 1]])
                equal = equal and np.allclose(d, dist, rtol=1e-5, atol=0) and bool(np.all(np.isinf(d) == np.isinf(dist)))
                row += f" {run['milliseconds']:.2f} | {scipy_ms / run['milliseconds']:.2f}x |"
                path += ("; " if path else "") + run["device"]
            print(row + f" {path} | {'yes' if equal else 'NO'} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
