"""PHAST's batches on the GPU (Graph.distance_matrix, strategy phast): 1,000 random sources and
16,384 sources (ids 0, 1, ...) to 1,000 random targets, at batch sizes 1,024 and 4,096, on
USA-road-d.NY and road-FLA; each call twice (the first also loads the hierarchy file).

    python bench/python/phast_batches.py

Run from the repository root on a machine with a GPU. Prints to stderr, a line a call:
`# GRAPH TASK batch K rep R: MS ms`, and the hierarchy's build. The answers are the engine's
(tested against Dijkstra in phast_gpu_tests); this script only times them.
"""
import sys
import time

import numpy as np

from deltasplit import Graph

for name, path in (("NY", "datasets/USA-road-d.NY.gr.gz"), ("FLA", "datasets/road-FLA.mtx.gz")):
    g = Graph.from_file(path)
    rng = np.random.default_rng(1)
    targets = rng.integers(0, g.num_vertices, 1000)
    origins = rng.integers(0, g.num_vertices, 1000)
    ch = f"/tmp/{name}.ch"
    t = time.perf_counter()
    g.distance_matrix(origins[:10], targets, strategy="phast", device="gpu", hierarchy=ch)
    print(f"# {name} build {time.perf_counter() - t:.3f} s", file=sys.stderr, flush=True)
    for b in (1024, 4096):
        for label, src in (("od1000", origins), ("block16384", np.arange(16384) % g.num_vertices)):
            for rep in range(2):
                t = time.perf_counter()
                g.distance_matrix(src, targets, strategy="phast", device="gpu", hierarchy=ch, tune={"batch_size": b})
                print(f"# {name} {label} batch {b} rep {rep}: {1e3 * (time.perf_counter() - t):.1f} ms", file=sys.stderr,
                      flush=True)
