"""The command line of deltasplit.network: OD distances and accessibility from node, edge and
place tables (CSV or Parquet) to a CSV or Parquet file, for users without Python.

    od            --nodes N --edges E (--pairs P | --origins O --destinations D) -o OUT
    accessibility --nodes N --edges E --values V --distance R [R ...] [--type T ...] -o OUT

Errors name the file (and the line of a CSV file) and exit with status 2; an existing output
file is never replaced unless --overwrite is given.
"""
import argparse
import math
import os
import sys

import numpy as np
import pandas as pd

from ._network_aggregate import AGGREGATIONS, DECAYS, unreachable
from ._network_io import read_table, table_kind
from .network import Network, _pick_edge_columns


def _shown(value):
    """A table cell as a message shows it: the Python value (7, 'a'), not numpy's np.int64(7)."""
    return repr(value.item() if isinstance(value, np.generic) else value)


class InputProblem(Exception):
    """Bad input: the message names the file and, for CSV files, the line."""


def _network_options(q):
    q.add_argument("--nodes", required=True, help="node table (CSV or Parquet): id, x, y")
    q.add_argument("--edges", required=True, help="edge table (CSV or Parquet): from, to, impedances")
    q.add_argument("--node-id", help="the node table's id column (default: id, node_id, osmid or the first)")
    q.add_argument("--x", default="x", help="the node table's x column (default x)")
    q.add_argument("--y", default="y", help="the node table's y column (default y)")
    q.add_argument("--from", dest="edge_from", help="the edge table's from column (default from, u or source)")
    q.add_argument("--to", dest="edge_to", help="the edge table's to column (default to, v or target)")
    q.add_argument("--impedance", help="the impedance column (default: the first numeric column)")
    q.add_argument("--oneway", action="store_true", help="edges run from -> to only (default: both ways)")
    q.add_argument("--lonlat", action="store_true", help="x/y are longitude/latitude in degrees")
    q.add_argument("--device", choices=("auto", "gpu", "cpu"), default="auto")
    q.add_argument("-o", "--output", required=True, help="output file: .csv or .parquet")
    q.add_argument("--overwrite", action="store_true", help="replace an existing output file")


def add_arguments(parser, command):
    """The options of sub-command `command` ('od' or 'accessibility'), as python -m deltasplit
    adds them."""
    _network_options(parser)
    if command == "od":
        parser.add_argument("--pairs", help="table of pairs: columns origin, destination (node ids)")
        parser.add_argument("--origins", help="table of origin node ids (column node_id or the first)")
        parser.add_argument("--destinations", help="table of destination node ids (column node_id or the first)")
        parser.add_argument("--cutoff", type=float, help="origins x destinations: leave out pairs farther than this")
        parser.add_argument("--sum-along", help="pairs: a second impedance summed along each chosen path")
    else:
        parser.add_argument("--values", required=True,
                            help="table of values: node_id (or x, y to snap) and a value")
        parser.add_argument("--value-column", help="the values' column (default: 1 per row, a count)")
        parser.add_argument("--distance", type=float, nargs="+", required=True, help="one or more radii")
        parser.add_argument("--type", nargs="+", default=["sum"], choices=AGGREGATIONS)
        parser.add_argument("--decay", default="linear", choices=DECAYS)


def _parser():
    p = argparse.ArgumentParser(prog="deltasplit", description="Road-network OD distances and accessibility.")
    sub = p.add_subparsers(dest="command", required=True)
    add_arguments(sub.add_parser("od", help="shortest-path distances between origins and destinations"), "od")
    add_arguments(sub.add_parser("accessibility", help="aggregate values within distances of every node"),
                  "accessibility")
    return p


def _csv_line(path, row):
    """Where a table's row sits in its file, for messages: 'file:line' (CSV, after the header)
    or 'file, row N' (Parquet)."""
    return f"{path}:{row + 2}" if table_kind(path) == "csv" else f"{path}, row {row}"


def _ids(table, path, column, what):
    if column is None:
        column = "node_id" if "node_id" in table.columns else table.columns[0]
    if column not in table.columns:
        raise InputProblem(f"{path}: no column {column!r} of {what}")
    return table[column]


def _check_known(net, ids, path, what):
    pos = net.node_ids.get_indexer(ids.to_numpy())
    bad = np.flatnonzero(pos < 0)
    if bad.size:
        raise InputProblem(f"{_csv_line(path, int(bad[0]))}: {what} {_shown(ids.iloc[bad[0]])} "
                           "is not a node of the network")


def _load_network(args):
    nodes = read_table(args.nodes, "nodes")
    edges = read_table(args.edges, "edges")
    id_col = args.node_id or next((c for c in ("id", "node_id", "osmid") if c in nodes.columns), nodes.columns[0])
    if id_col not in nodes.columns:
        raise InputProblem(f"{args.nodes}: no node id column {id_col!r}")
    for c in (args.x, args.y):
        if c not in nodes.columns:
            raise InputProblem(f"{args.nodes}: no coordinate column {c!r}")
    ids = nodes[id_col]
    dup = np.flatnonzero(ids.duplicated().to_numpy())
    if dup.size:
        raise InputProblem(f"{_csv_line(args.nodes, int(dup[0]))}: node id {_shown(ids.iloc[dup[0]])} appears twice")
    for c in (args.x, args.y):
        bad = np.flatnonzero(~np.isfinite(pd.to_numeric(nodes[c], errors="coerce").to_numpy(np.float64)))
        if bad.size:
            raise InputProblem(f"{_csv_line(args.nodes, int(bad[0]))}: coordinate {c} is missing or not a number")
    try:
        frm, to = _pick_edge_columns(edges, args.edge_from, args.edge_to)
    except ValueError as e:
        raise InputProblem(f"{args.edges}: {e}") from e
    imp = args.impedance
    if imp is None:
        numeric = [c for c in edges.columns if c not in (frm, to) and pd.api.types.is_numeric_dtype(edges[c])]
        if not numeric:
            raise InputProblem(f"{args.edges}: no numeric impedance column")
        imp = numeric[0]
    if imp not in edges.columns:
        raise InputProblem(f"{args.edges}: no impedance column {imp!r}")
    w = pd.to_numeric(edges[imp], errors="coerce").to_numpy(np.float64)
    bad = np.flatnonzero(~np.isfinite(w) | (w < 0))
    if bad.size:
        raise InputProblem(f"{_csv_line(args.edges, int(bad[0]))}: impedance {imp} {_shown(edges[imp].iloc[bad[0]])} "
                           "is not a number >= 0")
    weights = edges[[imp]] if pd.api.types.is_numeric_dtype(edges[imp]) else pd.DataFrame({imp: w})
    others = [c for c in edges.columns if c not in (frm, to, imp) and pd.api.types.is_numeric_dtype(edges[c])]
    if getattr(args, "sum_along", None):
        if args.sum_along not in others:
            raise InputProblem(f"{args.edges}: no numeric column {args.sum_along!r} to sum along the paths")
        weights = pd.concat([weights, edges[[args.sum_along]]], axis=1)
    node_index = pd.Index(ids.to_numpy())
    for col in (frm, to):
        pos = node_index.get_indexer(edges[col].to_numpy())
        bad = np.flatnonzero(pos < 0)
        if bad.size:
            raise InputProblem(f"{_csv_line(args.edges, int(bad[0]))}: {col} node {_shown(edges[col].iloc[bad[0]])} "
                               f"is not in {args.nodes}")
    return Network(pd.Series(nodes[args.x].to_numpy(np.float64), index=node_index),
                   pd.Series(nodes[args.y].to_numpy(np.float64), index=node_index),
                   edges[frm].to_numpy(), edges[to].to_numpy(), weights.reset_index(drop=True),
                   twoway=not args.oneway, lonlat=args.lonlat, device=args.device)


def _write(frame, path):
    """frame into path (CSV or Parquet by its ending), through a temporary file renamed at the
    end, so that a failed write leaves no partial output."""
    kind = table_kind(path)
    tmp = f"{path}.partial"
    try:
        if kind == "parquet":
            frame.to_parquet(tmp, index=False)
        else:
            frame.to_csv(tmp, index=False)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _od(args):
    net = _load_network(args)
    if bool(args.pairs) == bool(args.origins or args.destinations):
        raise InputProblem("od needs either --pairs or both --origins and --destinations")
    if args.pairs:
        pairs = read_table(args.pairs, "pairs")
        for c in ("origin", "destination"):
            if c not in pairs.columns:
                raise InputProblem(f"{args.pairs}: no column {c!r}")
            _check_known(net, pairs[c], args.pairs, c)
        out = pairs[["origin", "destination"]].copy()
        if args.sum_along:
            lengths, sums = net.shortest_path_lengths(pairs["origin"], pairs["destination"],
                                                      imp_name=net.impedance_names[0], sum_along=args.sum_along)
            out["distance"], out[args.sum_along] = lengths, sums
        else:
            out["distance"] = net.shortest_path_lengths(pairs["origin"], pairs["destination"])
        _write(out, args.output)
        return
    if not (args.origins and args.destinations):
        raise InputProblem("od needs both --origins and --destinations")
    o = _ids(read_table(args.origins, "origins"), args.origins, None, "origins")
    d = _ids(read_table(args.destinations, "destinations"), args.destinations, None, "destinations")
    _check_known(net, o, args.origins, "origin")
    _check_known(net, d, args.destinations, "destination")
    if table_kind(args.output) == "parquet":
        net.to_parquet(args.output, o, d, cutoff=args.cutoff, overwrite=True)
        return
    table = net.od_table(o, d, cutoff=args.cutoff)
    long = table.stack().rename("distance").reset_index()
    _write(long[long["distance"] != unreachable(long["distance"].dtype)], args.output)


def _accessibility(args):
    net = _load_network(args)
    values = read_table(args.values, "values")
    if "node_id" in values.columns:
        nodes = values["node_id"]
        _check_known(net, nodes, args.values, "node")
    elif "x" in values.columns and "y" in values.columns:
        nodes = net.get_node_ids(values["x"], values["y"])
    else:
        raise InputProblem(f"{args.values}: needs a node_id column or x and y columns")
    variable = None
    if args.value_column:
        if args.value_column not in values.columns:
            raise InputProblem(f"{args.values}: no column {args.value_column!r}")
        v = pd.to_numeric(values[args.value_column], errors="coerce")
        bad = np.flatnonzero(~np.isfinite(v.to_numpy(np.float64)))
        if bad.size:
            raise InputProblem(f"{_csv_line(args.values, int(bad[0]))}: value "
                               f"{_shown(values[args.value_column].iloc[bad[0]])} is not a number")
        variable = v
    for r in args.distance:
        if not r >= 0 or math.isinf(r):
            raise InputProblem(f"--distance must be finite and >= 0; got {r}")
    net.set(nodes, variable, name="value")
    result = net.aggregate(list(args.distance), type=list(args.type), decay=args.decay, name="value")
    result.columns = [f"{t}_{r:g}" for t, r in result.columns]
    _write(result.rename_axis("node_id").reset_index(), args.output)


def main(argv=None):
    """Parse argv and run; returns the exit status (0, or 2 on bad input or usage)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    return run(args)


def run(args, parser=None):
    """Runs parsed arguments (python -m deltasplit's interface); returns the exit status."""
    try:
        table_kind(args.output)
        if os.path.exists(args.output) and not args.overwrite:
            raise InputProblem(f"{args.output} exists; pass --overwrite to replace it")
        (_od if args.command == "od" else _accessibility)(args)
    except (InputProblem, ValueError, TypeError, FileNotFoundError) as e:
        print(f"deltasplit {args.command}: error: {e}", file=sys.stderr)
        return 2
    return 0
