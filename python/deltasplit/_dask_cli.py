"""``python -m deltasplit matrix``: deltasplit.dask.distance_matrix from the command line.

Vertex ids on the command line and in files are the graph file's own numbering (1-based for
Matrix Market and DIMACS, as the C++ program's), and so are the ids written to the output.
"""
import os
import sys
import time

import numpy as np

from ._command import EXIT_SUCCESS, CommandError


def add_arguments(parser, command="matrix"):
    parser.add_argument("graph", metavar="GRAPH", help="graph file (Matrix Market, DIMACS .gr, edge list, .dsg; gzip too)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--sources", metavar="FILE", help="source ids, one a line ('#' starts a comment)")
    which.add_argument("--random-sources", metavar="N", type=int,
                       help="N distinct random vertices that have out-arcs (numpy's generator, from --seed)")
    parser.add_argument("--seed", type=int, default=1, help="seed for --random-sources (default 1)")
    parser.add_argument("--targets", metavar="FILE", help="target ids, one a line (default: every vertex)")
    parser.add_argument("--out", required=True, metavar="OUT",
                        help="od.zarr (a Zarr group: the matrix) or od.parquet (a folder: source, target, distance)")
    parser.add_argument("--limit", type=float, metavar="X", help="pairs farther than X are unreachable")
    parser.add_argument("--dtype", choices=("uint32", "uint64", "float32", "float64"),
                        help="distance type (default: the graph's, uint32 or float32)")
    parser.add_argument("--strategy", default="multisplit", help="as Graph.distance_matrix's (default multisplit)")
    cluster = parser.add_mutually_exclusive_group()
    cluster.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler (tcp://host:8786)")
    cluster.add_argument("--workers", type=int, metavar="N",
                         help="start a local cluster of N worker processes (default 1), the cores shared among them")
    parser.add_argument("--block-size", type=int, metavar="B", help="sources a task (default: chosen by size)")
    parser.add_argument("--weight-seed", type=int, default=1, help="seed of the weights of unweighted files (default 1)")
    parser.add_argument("--progress", action="store_true", default=None,
                        help="print a progress line (default: when standard error is a terminal)")


def read_vertex_file(path, graph):
    """0-based ids from a file of ids in the graph's numbering; errors name the file and line."""
    first = 1 if graph._core.one_based else 0
    n = graph.num_vertices
    ids = []
    try:
        with open(path) as f:
            for number, line in enumerate(f, start=1):
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                if not text.isdigit() or not text.isascii():
                    raise CommandError(f"{path}:{number}: '{text}' is not a vertex id (one non-negative integer per line)")
                value = int(text)
                if not first <= value < first + n:
                    raise CommandError(f"{path}:{number}: vertex {text} is out of range: the graph has {n} vertices, "
                                       f"numbered {first}..{first + n - 1}")
                ids.append(value - first)
    except OSError as e:
        raise CommandError(f"{path}: cannot read it ({e.strerror})") from e
    except UnicodeDecodeError as e:
        raise CommandError(f"{path}: not a text file ({e.reason})") from e
    if not ids:
        raise CommandError(f"{path}: no vertex ids in the file")
    return np.asarray(ids, dtype=np.uint32)


def random_sources(graph, count, seed, parser):
    offsets = graph.arrays()[0]
    candidates = np.nonzero(np.diff(offsets.astype(np.int64)) > 0)[0]
    if count < 1:
        parser.error("--random-sources must be at least 1")
    if count > len(candidates):
        parser.error(f"--random-sources {count}: the graph has only {len(candidates)} vertices with out-arcs")
    return np.random.default_rng(seed).choice(candidates, size=count, replace=False).astype(np.uint32)


def run(args, parser):
    from . import Graph, InputError
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.block_size is not None and args.block_size < 1:
        parser.error("--block-size must be at least 1")
    try:
        graph = Graph.from_file(args.graph, weight_seed=args.weight_seed)
    except (InputError, OSError) as e:
        raise CommandError(str(e)) from e
    if args.sources is not None:
        sources = read_vertex_file(args.sources, graph)
    else:
        sources = random_sources(graph, args.random_sources, args.seed, parser)
    targets = None if args.targets is None else read_vertex_file(args.targets, graph)
    try:
        from . import dask as ds_dask
        import distributed
    except ImportError as e:
        raise CommandError(f"the matrix command needs the dask extra (pip install 'deltasplit[dask]'): {e}") from e
    show = sys.stderr.isatty() if args.progress is None else args.progress
    started = time.perf_counter()
    cluster = None
    try:
        if args.scheduler is not None:
            client = distributed.Client(args.scheduler)
        else:
            workers = args.workers or 1
            cluster = ds_dask.local_cluster(workers, max(1, (os.cpu_count() or 1) // workers), dashboard_address=":0")
            client = distributed.Client(cluster)
        with client:
            run_info = ds_dask.distance_matrix(args.graph, sources, targets, limit=args.limit, out=args.out,
                                               client=client, block_size=args.block_size, dtype=args.dtype,
                                               strategy=args.strategy, id_offset=1 if graph._core.one_based else 0,
                                               weight_seed=args.weight_seed, progress=show)
    except (ValueError, TypeError, OSError) as e:
        raise CommandError(str(e)) from e
    finally:
        if cluster is not None:
            cluster.close()
    columns = graph.num_vertices if targets is None else len(targets)
    print(f"{args.out}: {len(sources)} x {columns} distances, {run_info.blocks} blocks: {run_info.written} written, "
          f"{run_info.skipped} skipped (done before); {time.perf_counter() - started:.1f} s")
    return EXIT_SUCCESS
