"""2 Dask workers against 1 on the same many-source work (CPU path): deltasplit.dask.reduce over
SOURCES random sources of a road network, each worker a process with one thread (its solver uses
one core). Prints one line per run, with the CPU time the workers spent (on a machine shared with
other work, the wall time measures the share of the cores the workers got; the CPU time, the work
itself) and the load average, then the medians; bench/results/dask.md records them.

Usage: python bench/python/dask_scaling.py [GRAPH] [--sources N] [--runs R] [--block-size B]
"""
import argparse
import os
import statistics
import time

import numpy as np
from distributed import Client, LocalCluster

from deltasplit import Graph
import deltasplit.dask as dd


def timed_runs(graph, sources, workers, runs, block_size):
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("graph", nargs="?", default="datasets/USA-road-d.NY.gr.gz")
    parser.add_argument("--sources", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--block-size", type=int, default=50)
    args = parser.parse_args()
    n = Graph.from_file(args.graph).num_vertices
    sources = np.random.default_rng(1).choice(n, size=args.sources, replace=False)
    one = statistics.median(timed_runs(args.graph, sources, 1, args.runs, args.block_size))
    two = statistics.median(timed_runs(args.graph, sources, 2, args.runs, args.block_size))
    print(f"median: 1 worker {one:.2f} s, 2 workers {two:.2f} s, speedup {one / two:.2f}x")


if __name__ == "__main__":
    main()
