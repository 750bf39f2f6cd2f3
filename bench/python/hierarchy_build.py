"""The contraction hierarchy's build on the CPU: for each graph and thread count, RUNS fresh builds
(a new Graph each time, the hierarchy file removed first) by
Graph.sssp(0, strategy="phast", device="cpu", threads=T, hierarchy=FILE), printing the solver's
stats['setup_ms'] (fingerprint, contraction, the file written, the contractor's teardown), the
file header's build_ms (the contraction alone) and the sha1 of the file's payload (the bytes after
the 128-byte header), which must not change with the thread count or a change that keeps the
order. bench/results/phast.md.

Usage: python bench/python/hierarchy_build.py GRAPH... [--threads 16,8] [--runs 3] [--dir /tmp]
"""
import argparse
import hashlib
import os
import struct
import time

from deltasplit import Graph

HEADER_BYTES = 8 + 15 * 8  # magic, then fifteen 64-bit fields (src/sssp/hierarchy_file.hpp)
BUILD_MS_AT = 8 + 12 * 8   # build_ms: the bits of a double


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--threads", default="16")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default="/tmp")
    args = ap.parse_args()
    for spec in args.graphs:
        name = os.path.basename(spec)
        for threads in (int(t) for t in args.threads.split(",")):
            path = os.path.join(args.dir, f"hierarchy_build_{os.getpid()}_{name}_{threads}.dsch")
            try:
                for _ in range(args.runs):
                    g = Graph.from_file(spec)
                    if os.path.exists(path):
                        os.remove(path)
                    t0 = time.perf_counter()
                    res = g.sssp(0, strategy="phast", device="cpu", threads=threads, hierarchy=path)
                    wall = (time.perf_counter() - t0) * 1e3
                    with open(path, "rb") as f:
                        data = f.read()
                    build_ms = struct.unpack_from("<d", data, BUILD_MS_AT)[0]
                    digest = hashlib.sha1(data[HEADER_BYTES:]).hexdigest()[:16]
                    print(f"{name} threads={threads} setup_ms={res.stats['setup_ms']:.0f} build_ms={build_ms:.0f} "
                          f"wall_ms={wall:.0f} payload_sha1={digest}", flush=True)
                    del g, res
            finally:
                if os.path.exists(path):
                    os.remove(path)


if __name__ == "__main__":
    main()
