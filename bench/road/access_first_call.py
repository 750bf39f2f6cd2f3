"""A first accessibility call in a fresh process against the calls after it: road-FLA, 50,000
valued nodes (random, seed 1), linear-decay sums at 2,000, 4,000 and 6,000, set-up included (the
same task as road_bench.py's, the same arcs), the first call under cProfile, whose top entries
are printed: where the time of a first call goes (CUDA context, cupy's kernel compilation, the
solves).

    python bench/road/access_first_call.py [--graph datasets/road-FLA.mtx.gz] [--calls 3] [--profile-last]

--profile-last profiles the last call instead of the first: where a warm call's time goes.

Run it twice on a fresh machine: the first process compiles cupy's kernels into cupy's on-disk
cache, the second finds them there.
"""
import argparse
import cProfile
import pstats
import time

import numpy as np
import pandas as pd

from deltasplit.network import Network
from road_bench import load  # this folder's: the script's own directory is on sys.path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", default="datasets/road-FLA.mtx.gz")
    p.add_argument("--calls", type=int, default=3)
    p.add_argument("--profile-last", action="store_true", help="profile the last call, not the first")
    args = p.parse_args()
    n, src, tgt, w = load(args.graph, 1.0)  # road_bench.py's arcs at --scale 1
    rng = np.random.default_rng(1)
    places = rng.integers(0, n, 50000)
    values = pd.Series(rng.integers(1, 100, 50000).astype(np.float64))
    x = pd.Series(np.zeros(n))

    def run():
        net = Network(x, x, src, tgt, pd.DataFrame({"w": w}), twoway=False)
        net.set(pd.Series(places), values)
        return net.aggregate([2000.0, 4000.0, 6000.0], type="sum", decay="linear")

    prof = cProfile.Profile()
    profiled = args.calls - 1 if args.profile_last else 0
    for i in range(args.calls):
        t = time.perf_counter()
        if i == profiled:
            prof.enable()
        run()
        if i == profiled:
            prof.disable()
        print(f"call {i + 1}: {time.perf_counter() - t:.2f} s{' (profiled)' if i == profiled else ''}", flush=True)
    pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
