"""The Dask path against a direct Graph.distance_matrix call on the same GPU (issue 38's measurement):
SOURCES sources of a road network reduced per source (sum of reachable distances, minimum, count of
reachable targets, closeness, per-target partials) once by a loop of distance_matrix blocks in this
process (the same block reduction, in device memory with cupy) and once by deltasplit.dask.reduce on
a LocalCluster of one worker process holding the GPU (resource GPU=1, BLOCKS_PER_GPU threads: two
blocks at a time), the same block size and
strategy; then the first --zarr-sources of them written to a Zarr store through
deltasplit.dask.distance_matrix. Each path solves one untimed block first, so the graph (and, with
phast, the contraction hierarchy) is resident in both and the timed runs compare the solves and the
reductions. Prints the medians, the worker's host memory and the GPU memory in use, and the Zarr
store's size on disk; writes them as a markdown table to --md.

Usage: python bench/python/dask_gpu.py [GRAPH] [--sources N] [--runs R] [--block-size B]
                                       [--strategy phast] [--zarr DIR] [--md FILE]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import time

import numpy as np
from distributed import Client, LocalCluster

import deltasplit
import deltasplit.dask as dd
from deltasplit import Graph


def direct(graph, sources, block_size, strategy):
    """The same reductions as deltasplit.dask.reduce (its block reduction, _ReduceSink, on blocks
    kept in device memory where cupy is installed), by distance_matrix blocks in this process:
    what the Dask path adds is the scheduling, not the arithmetic."""
    try:
        import cupy as xp
    except ImportError:
        xp = None
    sink, parts = dd._ReduceSink(None), []
    for start in range(0, len(sources), block_size):
        rows = sources[start:start + block_size]
        out = None
        if xp is not None and deltasplit.gpu_available():
            out = xp.empty((len(rows), graph.num_vertices), dtype=graph.distance_dtype)
        block = graph.distance_matrix(rows, strategy=strategy, out=out)
        parts.append(sink.take(0, start, rows, None, block))
    per_source = dd._combine(*parts)[0]
    sums = np.concatenate([per_source[k][0] for k in sorted(per_source)])
    counts = np.concatenate([per_source[k][2] for k in sorted(per_source)])
    return sums, counts


def gpu_memory_used():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return out
    except (OSError, subprocess.CalledProcessError):
        return "n/a"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("graph", nargs="?", default="datasets/USA-road-d.NY.gr.gz")
    p.add_argument("--sources", type=int, default=20000)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--block-size", type=int, default=1024)
    p.add_argument("--strategy", default="phast")
    p.add_argument("--zarr", default="/tmp/dask_gpu_bench.zarr")
    p.add_argument("--zarr-sources", type=int, default=1000, help="rows written to Zarr (the first of the sources)")
    p.add_argument("--md", default=None)
    args = p.parse_args()

    g = Graph.from_file(args.graph)
    rng = np.random.default_rng(1)
    sources = rng.choice(g.num_vertices, size=min(args.sources, g.num_vertices), replace=False)
    print(f"{args.graph}: {g.num_vertices} vertices; {len(sources)} sources, blocks of {args.block_size}, "
          f"strategy {args.strategy}; GPU usable: {deltasplit.gpu_available()}", flush=True)

    direct(g, sources[:args.block_size], args.block_size, args.strategy)  # resident hierarchy
    t_direct = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        want_sum, want_count = direct(g, sources, args.block_size, args.strategy)
        t_direct.append(time.perf_counter() - t0)
        print(f"direct: {t_direct[-1]:.3f} s", flush=True)

    with LocalCluster(n_workers=1, threads_per_worker=dd.BLOCKS_PER_GPU, processes=True, resources={"GPU": 1},
                      dashboard_address=None) as cluster, Client(cluster) as client:
        dd.reduce(args.graph, sources[:args.block_size], client=client, block_size=args.block_size,
                  strategy=args.strategy)
        t_dask = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            r = dd.reduce(args.graph, sources, client=client, block_size=args.block_size, strategy=args.strategy)
            t_dask.append(time.perf_counter() - t0)
            print(f"dask reduce: {t_dask[-1]:.3f} s", flush=True)
        same = bool(np.array_equal(r.source_sum, want_sum) and np.array_equal(r.source_count, want_count))
        print(f"dask reduce equals the direct reduction: {same}", flush=True)
        rss = client.run(lambda: __import__("psutil").Process().memory_info().rss)
        worker_rss = max(rss.values()) / 2**30
        gpu_mem = gpu_memory_used()
        shutil.rmtree(args.zarr, ignore_errors=True)
        t0 = time.perf_counter()
        written = sources[:args.zarr_sources]
        run = dd.distance_matrix(args.graph, written, out=args.zarr, client=client, block_size=args.block_size,
                                 strategy=args.strategy, id_offset=1)
        t_zarr = time.perf_counter() - t0
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.zarr) for f in fs) / 2**30
        print(f"zarr: {run.blocks} blocks written in {t_zarr:.2f} s, {size:.2f} GiB on disk", flush=True)
        shutil.rmtree(args.zarr, ignore_errors=True)

    md_direct, md_dask = statistics.median(t_direct), statistics.median(t_dask)
    lines = [
        "| path | median of %d (s) | ratio to direct |" % args.runs, "|---|---:|---:|",
        f"| direct distance_matrix blocks, the same block reductions | {md_direct:.3f} | 1.00 |",
        f"| deltasplit.dask.reduce, 1 GPU worker | {md_dask:.3f} | {md_dask / md_direct:.2f} |",
        f"| deltasplit.dask.distance_matrix to Zarr ({len(written)} rows, {size:.2f} GiB on disk) | "
        f"{t_zarr:.3f} (one run) | |",
        "", f"worker host memory (RSS) {worker_rss:.2f} GiB; GPU memory in use {gpu_mem}; results equal: {same}",
    ]
    print("\n".join(lines))
    if args.md:
        with open(args.md, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
