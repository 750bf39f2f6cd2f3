"""PHAST's batches with every vertex a target, rows in device memory (the shape of issue 39's all
pairs): USA-road-d.NY, distance_matrix of sources 0..S-1 (default 16,384) at batch sizes K
(default 8192, 4096, 2048, 1024), three runs each (the first pays the allocations); prints the
synchronized wall clock and the solver's own ms (stats['milliseconds']: the batches' upward
searches and sweeps), then checks three rows against the CPU's Dijkstra. Needs cupy.

    python bench/python/phast_rows.py LABEL [--sources S] [--batches K,K,...]

Run from the repository root on a machine with a GPU; the hierarchy is built into /tmp/NY.ch on
the first run and loaded after.
"""
import argparse
import time

import cupy as cp
import numpy as np

from deltasplit import Graph

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("label")
p.add_argument("--sources", type=int, default=16384)
p.add_argument("--batches", default="8192,4096,2048,1024")
args = p.parse_args()
g = Graph.from_file("datasets/USA-road-d.NY.gr.gz")
n = g.num_vertices
ch = "/tmp/NY.ch"
t = time.perf_counter()
g.distance_matrix([0], [0], strategy="phast", device="gpu", hierarchy=ch)
print(f"{args.label} hierarchy ready {time.perf_counter() - t:.2f} s", flush=True)
S = min(args.sources, n)
out = cp.empty((S, n), dtype=g.distance_dtype_for(None))
src = np.arange(S)
for k in (int(x) for x in args.batches.split(",")):
    walls, solver = [], []
    for _ in range(3):
        cp.cuda.runtime.deviceSynchronize()
        t0 = time.perf_counter()
        _, st = g.distance_matrix(src, strategy="phast", device="gpu", hierarchy=ch, out=out, return_stats=True,
                                  tune={"batch_size": k})
        cp.cuda.runtime.deviceSynchronize()
        walls.append((time.perf_counter() - t0) * 1e3)
        solver.append(st["milliseconds"])
    print(f"{args.label} k={k} wall_ms={' '.join(f'{x:.1f}' for x in walls)} "
          f"solver_ms={' '.join(f'{x:.1f}' for x in solver)}", flush=True)
rows = [0, S // 2, S - 1]
want = g.distance_matrix(rows, strategy="dijkstra", device="cpu")
print(f"{args.label} rows equal Dijkstra: {bool((cp.asnumpy(out[rows]) == want).all())}", flush=True)
