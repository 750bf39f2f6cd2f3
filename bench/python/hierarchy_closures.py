"""The sizes of a contraction hierarchy's search spaces, read from a hierarchy file (the layout in
src/sssp/hierarchy_file.hpp): for random vertices, the positions the upward search from a
vertex can reach over up arcs (its closure) with their arcs, the levels they lie in, and the
union of one vertex's upward closure with another's backward one (over down in-arcs), which is
what the GPU's pair query holds in a warp's shared memory (src/sssp/gpu/phast/pair_query.cuh).

    python bench/python/hierarchy_closures.py FILE.ch [--samples 200]

Make a file with Graph.sssp(0, strategy="phast", device="cpu", hierarchy="FILE.ch").
"""
import argparse
import sys

import numpy as np

HEADER_WORDS = 15  # after the 8 magic bytes: every field 64-bit (hierarchy_header)


def read(path):
    raw = open(path, "rb").read()
    h = [int(x) for x in np.frombuffer(raw, dtype=np.uint64, count=HEADER_WORDS, offset=8)]
    _, _, kind, n, _, _, core, levels, up, down = h[:10]
    weight = {0: np.uint32, 1: np.float32, 2: np.uint64}[kind]
    at = 8 + 8 * HEADER_WORDS
    arrays = []
    for dtype, count in [(np.uint32, n), (np.uint32, levels + 1), (np.uint64, n + 1), (np.uint32, up), (weight, up),
                         (np.uint64, n + 1), (np.uint32, down), (weight, down)]:
        a = np.frombuffer(raw, dtype=dtype, count=count, offset=at)
        at += a.nbytes
        arrays.append(a)
    _, level_offsets, up_offsets, up_targets, _, down_offsets, down_sources, _ = arrays
    return n, core, levels, level_offsets, (up_offsets, up_targets), (down_offsets, down_sources)


def closure(p, arcs):
    offsets, heads = arcs
    seen, stack, count = {p}, [p], 0
    while stack:
        x = stack.pop()
        a, b = int(offsets[x]), int(offsets[x + 1])
        count += b - a
        for q in heads[a:b].tolist():
            if q not in seen:
                seen.add(q)
                stack.append(q)
    return seen, count


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file")
    p.add_argument("--samples", type=int, default=200)
    args = p.parse_args()
    n, core, levels, level_offsets, up, down = read(args.file)
    level_of = np.repeat(np.arange(levels), np.diff(level_offsets.astype(np.int64)))
    rng = np.random.default_rng(1)
    sizes, arcs, touched, unions = [], [], [], []
    for s, t in zip(rng.integers(0, n, args.samples), rng.integers(0, n, args.samples)):
        forward, count = closure(int(s), up)
        backward, _ = closure(int(t), down)
        sizes.append(len(forward))
        arcs.append(count)
        touched.append(len(np.unique(level_of[list(forward)])))
        unions.append(len(forward | backward))
    print(f"{args.file}: {n} vertices, core {core}, {levels} levels, {len(up[1])} up arcs; {args.samples} samples")
    print("| | median | 90th percentile | max |\n|---|---:|---:|---:|")
    for name, x in [("upward closure, positions", sizes), ("its up arcs", arcs), ("levels it touches", touched),
                    ("union with a backward closure", unions)]:
        x = np.array(x)
        print(f"| {name} | {np.median(x):g} | {np.percentile(x, 90):g} | {x.max()} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
