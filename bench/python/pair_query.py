"""The contraction hierarchy's pair query (Graph.pair_distances) on the GPU (a warp a pair) and on
the host threads, beside PHAST's sweeps (Graph.distance_matrix, strategy phast) from as many
sources on the GPU: the figures behind deltasplit.network's choice between pairs and sweeps.

    python bench/python/pair_query.py GRAPH [GRAPH ...] [--pairs 1000000] [--cpu-pairs 100000]
        [--sweeps 1024] [--runs 3] [--scale S] [--md OUT.md]

Per graph: the hierarchy built once (timed) and kept in a temporary file that every later solver
loads; random pairs (seed 1), timed on the GPU, then a prefix of them on the CPU; the GPU pairs of
four origins checked against Dijkstra's rows (device cpu) before any timing counts; then
`--sweeps` random sources' rows to 1,000 random targets on the GPU. The sweep's cost per source
over the GPU's cost per pair is the number of pairs an origin must have before its row is the
cheaper way (PAIRS_PER_SWEEP_GPU in python/deltasplit/network.py). `--scale S` multiplies an
integer graph's weights by S first (S = 1000 gives USA-road-d.NY and road-FLA paths past 2^32:
uint64 distances, a hierarchy of 64-bit weights), so one run of each gives 64-bit against 32-bit.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

from deltasplit import Graph


def timed(fn, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), max(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("graphs", nargs="+")
    p.add_argument("--pairs", type=int, default=1_000_000)
    p.add_argument("--cpu-pairs", type=int, default=100_000)
    p.add_argument("--sweeps", type=int, default=1024)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--scale", type=int, default=1, help="multiply integer weights by this first")
    p.add_argument("--md", help="append the markdown table here")
    args = p.parse_args()
    rows = ["| graph | distances | hierarchy build s | GPU pairs | GPU median s (min, max) | GPU pairs/s | CPU pairs/s "
            f"({os.cpu_count()} threads) | GPU sweep per source, ms | pairs a sweep costs |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for path in args.graphs:
        name = os.path.basename(path)
        for suffix in (".gz", ".gr", ".mtx"):
            name = name.removesuffix(suffix)  # USA-road-d.NY.gr.gz: USA-road-d.NY
        with tempfile.TemporaryDirectory() as tmp:
            ch = os.path.join(tmp, name + ".ch")
            g = Graph.from_file(path)
            if args.scale != 1:
                offsets, targets, weights = g.arrays()
                if weights.dtype.kind != "u":
                    print(f"{name}: --scale takes integer weights", file=sys.stderr)
                    return 1
                g = Graph.from_arrays(offsets, targets, weights.astype(np.uint64) * args.scale)
                name += f" x {args.scale}"
            # The hierarchy's distances are 32-bit: real weights are asked for in float32.
            dtype = np.float32 if g.distance_dtype_for(None) == np.float64 else None
            n = g.num_vertices
            rng = np.random.default_rng(1)
            o = rng.integers(0, n, args.pairs)
            d = rng.integers(0, n, args.pairs)
            t = time.perf_counter()
            g.pair_distances([0], [0], device="gpu", hierarchy=ch, dtype=dtype)
            build = time.perf_counter() - t
            got = g.pair_distances(o, d, device="gpu", hierarchy=ch, dtype=dtype)
            kind = got.dtype.name
            origins = np.unique(o)[:4]
            want = g.distance_matrix(origins, strategy="dijkstra", device="cpu", dtype=dtype)
            pick = np.flatnonzero(np.isin(o, origins))
            rtol = 0 if dtype is None else 1e-6  # integers exact; float32 sums through shortcuts
            if not np.allclose(got[pick], want[np.searchsorted(origins, o[pick]), d[pick]], rtol=rtol, atol=0):
                print(f"{name}: GPU pairs differ from Dijkstra", file=sys.stderr)
                return 1
            gpu = timed(lambda: g.pair_distances(o, d, device="gpu", hierarchy=ch, dtype=dtype), args.runs)
            sources = rng.integers(0, n, args.sweeps)
            targets = rng.integers(0, n, 1000)
            g.distance_matrix(sources[:32], targets, strategy="phast", device="gpu", hierarchy=ch, dtype=dtype)
            sweep = timed(lambda: g.distance_matrix(sources, targets, strategy="phast", device="gpu", hierarchy=ch,
                                                     dtype=dtype),
                          args.runs)
            m = min(args.cpu_pairs, args.pairs)
            cpu_got = g.pair_distances(o[:m], d[:m], device="cpu", hierarchy=ch, dtype=dtype)
            if not np.allclose(cpu_got, got[:m], rtol=rtol, atol=0):
                print(f"{name}: GPU pairs differ from the CPU's", file=sys.stderr)
                return 1
            cpu = timed(lambda: g.pair_distances(o[:m], d[:m], device="cpu", hierarchy=ch, dtype=dtype), args.runs)
        per_pair = gpu[0] / args.pairs
        per_source = sweep[0] / args.sweeps
        rows.append(f"| {name} | {kind} | {build:.2f} | {args.pairs:,} | {gpu[0]:.4f} ({gpu[1]:.4f}, {gpu[2]:.4f}) | "
                    f"{args.pairs / gpu[0]:.3g} | {m / cpu[0]:.3g} | {per_source * 1e3:.4f} | "
                    f"{per_source / per_pair:.0f} |")
        print(rows[-1], flush=True)
        if args.md:
            with open(args.md, "a") as f:
                f.write("\n".join(rows if len(rows) == 3 else rows[-1:]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
