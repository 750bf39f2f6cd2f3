"""Where the Dask path's time over a direct call goes on a GPU worker (issue 38). Timings of the
same blocks of sources (all NY sources by default, strategy phast, the reduce sink), each after one
untimed pass:
  direct   dask_gpu.py's direct loop (distance_matrix into cupy, then the reduce sink), in-process
  task     the worker's task body (deltasplit.dask._run_block), called in-process, no Dask
  dask     the task bodies submitted to a 1-worker LocalCluster (resource GPU=1) one task a block,
           with the time each body took on the worker (summed): in-task against out-of-task cost;
           then deltasplit.dask.reduce itself.
--threads overrides the solver's host threads (in-process and on the worker); --no-profile turns
the workers' statistical profiler off; --malloc-trim glibc starts the worker without the
MALLOC_TRIM_THRESHOLD_ that Dask's nanny sets (distributed.nanny.pre-spawn-environ; setting it at
all turns off glibc's dynamic mmap threshold). Run the whole script with MALLOC_TRIM_THRESHOLD_=65536
in the environment to give the in-process timings the nanny's setting. --switch-interval S sets
the worker's sys.setswitchinterval (Python's default 0.005 s: how long a thread that wants the GIL
back waits for the holder, here the worker's event loop, to give it up). --worker-threads T starts
the worker with T threads and gives every block a GPU resource of 1/T, so T blocks run at once on
the one GPU (their solves one at a time, under the resident graph's lock; the rest of a block, its
hand-over and reduction, beside the next solve). Reads private functions of deltasplit.dask: a diagnostic.
bench/results/dask.md has its runs.

Usage: python bench/python/dask_overhead.py [GRAPH] [--sources N] [--block-size B] [--threads T]
                                            [--no-profile] [--malloc-trim dask|glibc]
                                            [--switch-interval S] [--worker-threads T]
"""
import argparse
import time

import numpy as np
from distributed import Client, LocalCluster
import deltasplit.dask as dd
from deltasplit import Graph


def timed_run_block(*args, **kwargs):
    t0 = time.perf_counter()
    r = dd._run_block(*args, **kwargs)
    return r, time.perf_counter() - t0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("graph", nargs="?", default="datasets/USA-road-d.NY.gr.gz")
    p.add_argument("--sources", type=int, default=264346)
    p.add_argument("--block-size", type=int, default=1024)
    p.add_argument("--threads", type=int, default=0, help="override _worker_threads (0: as the package)")
    p.add_argument("--no-profile", action="store_true", help="the workers' statistical profiler off")
    p.add_argument("--malloc-trim", choices=["dask", "glibc"], default="dask",
                   help="the worker's MALLOC_TRIM_THRESHOLD_: the nanny's (dask) or none (glibc's dynamic default)")
    p.add_argument("--switch-interval", type=float, default=0, help="the worker's sys.setswitchinterval (0: Python's)")
    p.add_argument("--worker-threads", type=int, default=1, help="worker threads; blocks ask for GPU 1/T")
    a = p.parse_args()
    if a.malloc_trim == "glibc":
        import dask
        dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})
    if a.no_profile:
        import dask
        dask.config.set({"distributed.worker.profile.enabled": False})
    if a.threads:
        dd._worker_threads = lambda device, t=a.threads: t
    g = Graph.from_file(a.graph)
    sources = np.random.default_rng(1).choice(g.num_vertices, size=min(a.sources, g.num_vertices), replace=False)
    plan = dd._Plan(a.graph, sources, None, None, None, a.block_size, "phast", 1, 1)
    plan.settings["device"] = "auto"
    sink = dd._ReduceSink(None)
    starts = list(plan.block_starts())
    import cupy
    # direct
    def direct():
        parts = []
        for s in starts:
            rows = plan.sources[s:s + plan.block_size]
            out = cupy.empty((len(rows), g.num_vertices), dtype=g.distance_dtype)
            parts.append(sink.take(0, s, rows, None, g.distance_matrix(rows, strategy="phast", out=out, threads=a.threads)))
        return dd._combine(*parts)
    direct()
    t0 = time.perf_counter(); direct(); print(f"direct (threads {a.threads or 'all'}): {time.perf_counter() - t0:.3f} s", flush=True)
    # the task body in-process
    def task():
        parts = [dd._run_block(plan.source, plan.key, None, plan.settings, sink, i, s,
                               plan.sources[s:s + plan.block_size]) for i, s in enumerate(starts)]
        return dd._combine(*parts)
    task()
    t0 = time.perf_counter(); task(); print(f"task body in-process: {time.perf_counter() - t0:.3f} s", flush=True)
    share = {"GPU": 1 / a.worker_threads}
    dd._resources = lambda client: share  # the client side of deltasplit.dask.reduce
    with LocalCluster(n_workers=1, threads_per_worker=a.worker_threads, processes=True, resources={"GPU": 1},
                      dashboard_address=None) as cluster, Client(cluster) as client:
        if a.switch_interval:
            client.run(lambda s=a.switch_interval: __import__("sys").setswitchinterval(s))
        if a.threads:
            client.run(lambda t=a.threads: setattr(__import__("deltasplit.dask").dask, "_worker_threads", lambda device: t))
        dd.reduce(a.graph, sources[:a.block_size], client=client, block_size=a.block_size, strategy="phast")
        t0 = time.perf_counter()
        futures = [client.submit(timed_run_block, plan.source, plan.key, None, plan.settings, sink, i, s,
                                 plan.sources[s:s + plan.block_size], resources=share, pure=False)
                   for i, s in enumerate(starts)]
        inside = sum(f.result()[1] for f in futures)
        total = time.perf_counter() - t0
        print(f"dask tasks: {total:.3f} s wall, {inside:.3f} s inside the task bodies", flush=True)
        t0 = time.perf_counter()
        dd.reduce(a.graph, sources, client=client, block_size=a.block_size, strategy="phast")
        print(f"dask reduce: {time.perf_counter() - t0:.3f} s", flush=True)


if __name__ == "__main__":
    main()
