"""2 Dask workers against 1 on the same many-source work (CPU path): deltasplit.dask.reduce over
SOURCES random sources of a road network, each worker a process with one thread (its solver uses
one core). Prints one line per run, with the CPU time the workers spent (on a machine shared with
other work, the wall time measures the share of the cores the workers got; the CPU time, the work
itself) and the load average, then the medians; bench/results/dask.md records them.

Usage: python bench/python/dask_scaling.py [GRAPH] [--sources N] [--runs R] [--block-size B]
                                           [--without-dask] [--dask-defaults]

The workers run on deltasplit.dask.local_cluster (Dask's diagnostics turned down); with
--dask-defaults, on a LocalCluster with Dask's defaults.

--without-dask: the same blocks solved and summed in 1 and then 2 plain processes (a pool of
processes started by spawn, each given its half of the sources), each timing its own blocks once
its graph is read: what two processes get from the machine's cores with no Dask at all, the
bound the Dask figures are to be judged against.
"""
import argparse
import multiprocessing
import os
import statistics
import time

import numpy as np
from distributed import Client

from deltasplit import Graph
import deltasplit.dask as dd


def timed_runs(graph, sources, workers, runs, block_size, quiet):
    with dd.local_cluster(workers, 1, quiet=quiet, dashboard_address=None) as cluster, Client(cluster) as client:
        # A first, untimed call makes every worker read the graph: the timed runs measure the
        # solves, the graph resident as in a long job.
        dd.reduce(graph, sources[:2 * workers], client=client, block_size=1)
        times = []
        for run in range(runs):
            cpu = sum(client.run(time.process_time).values())
            start = time.perf_counter()
            dd.reduce(graph, sources, client=client, block_size=block_size)
            times.append(time.perf_counter() - start)
            cpu = sum(client.run(time.process_time).values()) - cpu
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"workers {workers} run {run + 1}: {times[-1]:.2f} s, workers' CPU {cpu:.2f} s "
                  f"(load average {load})", flush=True)
    return times


def plain_blocks(graph, sources, block_size):
    """One process's share without Dask: (seconds for its blocks, its CPU seconds)."""
    g = Graph.from_file(graph)
    g.distance_matrix(sources[:1], device="cpu", threads=1)
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(0, len(sources), block_size):
        g.distance_matrix(sources[i:i + block_size], device="cpu", threads=1).sum(axis=1, dtype=np.uint64)
    return time.perf_counter() - start, time.process_time() - cpu


def plain_runs(graph, sources, processes, runs, block_size, quiet):
    times = []
    for run in range(runs):
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            shares = pool.starmap(plain_blocks, [(graph, part, block_size)
                                                 for part in np.array_split(sources, processes)])
        times.append(max(t for t, _ in shares))
        print(f"processes {processes} run {run + 1}: {times[-1]:.2f} s (the slowest share), "
              f"CPU {sum(c for _, c in shares):.2f} s", flush=True)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("graph", nargs="?", default="datasets/USA-road-d.NY.gr.gz")
    parser.add_argument("--sources", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--block-size", type=int, default=50)
    parser.add_argument("--without-dask", action="store_true", help="plain processes instead of Dask workers")
    parser.add_argument("--dask-defaults", action="store_true",
                        help="Dask's own diagnostics at their defaults (local_cluster(quiet=False))")
    args = parser.parse_args()
    n = Graph.from_file(args.graph).num_vertices
    sources = np.random.default_rng(1).choice(n, size=args.sources, replace=False)
    runs = plain_runs if args.without_dask else timed_runs
    quiet = not args.dask_defaults
    one = statistics.median(runs(args.graph, sources, 1, args.runs, args.block_size, quiet))
    two = statistics.median(runs(args.graph, sources, 2, args.runs, args.block_size, quiet))
    one_name, two_name = ("process", "processes") if args.without_dask else ("worker", "workers")
    print(f"median: 1 {one_name} {one:.2f} s, 2 {two_name} {two:.2f} s, speedup {one / two:.2f}x")


if __name__ == "__main__":
    main()
