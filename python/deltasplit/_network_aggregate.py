"""Accessibility aggregations and nearest places for deltasplit.network, from blocks of rows
of distances to the valued nodes (or the places), reached pairs scattered into per-node results.

The definitions are pandana's (its Accessibility::aggregateAccessibilityVariable and
quantileAccessibilityVariable): a node aggregates every value whose node lies within the radius
of it, d <= radius; decays weigh a value by 1 (flat), 1 - d/radius (linear) or exp(-d/radius)
(exp); 'mean' divides the decayed sum by the count; 'std' is the flat population standard
deviation sqrt(E[v^2] - E[v]^2); the quantiles are the value at position int(count * q) of the
sorted values (q = 0: the least, q = 1: the greatest). Where pandana's formulas divide 0 by 0
(a decayed value at distance 0 with radius 0), the weight is 1, the limit of both decays as d
goes to 0.
"""
import numpy as np

from ._graph import Graph

AGGREGATIONS = ("sum", "mean", "min", "25pct", "median", "75pct", "max", "std", "count")
DECAYS = ("exp", "linear", "flat")
# The quantiles that need the values in order (min and max are kept as running extremes).
QUANTILES = {"25pct": 0.25, "median": 0.5, "75pct": 0.75}


def unreachable(dtype):
    """What marks an unreachable node among distances of this type: INT_INFINITY for the
    unsigned integer distances of integer impedances, inf for real ones."""
    return Graph.INT_INFINITY if np.dtype(dtype).kind == "u" else np.inf


def decay_weights(d, radius, decay):
    """The weight of values at distances d (float64, each <= radius) under a decay."""
    if decay == "flat" or radius == 0:
        return np.ones_like(d)
    if decay == "linear":
        return 1.0 - d / radius
    return np.exp(-d / radius)


def reached_pairs(block):
    """The (row, column, distance) of every reached entry of a block of distances."""
    r, c = np.nonzero(block != unreachable(block.dtype))
    return r, c, block[r, c].astype(np.float64)


def group_ranks(keys):
    """For sorted keys, each entry's position within its run of equal keys."""
    if not keys.size:
        return keys
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return np.arange(len(keys)) - np.repeat(starts, np.diff(np.r_[starts, len(keys)]))


def aggregate_blocks(net, solver, positions, values, radii, types, decay):
    """{(type, radius): float64 array of n} for the values at node positions (several may share a
    node). solver: (reverse graph, strategy), so that row u of a block holds the distances from
    every node to valued node u."""
    n = net.num_nodes
    nodes, inverse = np.unique(positions, return_inverse=True)
    per_node = {
        "count": np.bincount(inverse, minlength=len(nodes)).astype(np.float64),
        "sum": np.bincount(inverse, weights=values, minlength=len(nodes)),
        "squares": np.bincount(inverse, weights=values * values, minlength=len(nodes)),
    }
    least = np.full(len(nodes), np.inf)
    greatest = np.full(len(nodes), -np.inf)
    np.minimum.at(least, inverse, values)
    np.maximum.at(greatest, inverse, values)
    acc = {r: {"count": np.zeros(n), "decayed": np.zeros(n), "sum": np.zeros(n), "squares": np.zeros(n),
               "min": np.full(n, np.inf), "max": np.full(n, -np.inf)} for r in radii}
    wanted = set(types)
    for start, block in net._rows(*solver, nodes, None, max(radii)):
        r, c, d = reached_pairs(block)
        u = start + r
        for radius in radii:
            sel = d <= radius
            uu, cc, dd = u[sel], c[sel], d[sel]
            a = acc[radius]
            a["count"] += np.bincount(cc, weights=per_node["count"][uu], minlength=n)
            if wanted & {"sum", "mean"}:
                a["decayed"] += np.bincount(cc, weights=decay_weights(dd, radius, decay) * per_node["sum"][uu],
                                            minlength=n)
            if "std" in wanted:
                a["sum"] += np.bincount(cc, weights=per_node["sum"][uu], minlength=n)
                a["squares"] += np.bincount(cc, weights=per_node["squares"][uu], minlength=n)
            if "min" in wanted:
                np.minimum.at(a["min"], cc, least[uu])
            if "max" in wanted:
                np.maximum.at(a["max"], cc, greatest[uu])
    out = {}
    for radius in radii:
        a = acc[radius]
        cnt = a["count"]
        some = cnt > 0
        safe = np.where(some, cnt, 1.0)
        for t in types:
            if t == "sum":
                res = a["decayed"]
            elif t == "count":
                res = cnt
            elif t == "mean":
                res = np.where(some, a["decayed"] / safe, 0.0)
            elif t == "std":
                mean = a["sum"] / safe
                res = np.where(some, np.sqrt(np.maximum(a["squares"] / safe - mean * mean, 0.0)), 0.0)
            elif t in ("min", "max"):
                res = np.where(some, a[t], -1.0)
            else:
                continue
            out[(t, radius)] = res
    ranked = [t for t in types if t in QUANTILES]
    if ranked:
        out.update(ranked_values(net, solver, positions, values, radii, ranked,
                                 {r: acc[r]["count"].astype(np.int64) for r in radii}))
    return out


def ranked_values(net, solver, positions, values, radii, types, counts):
    """The quantiles: the values visited from the least up, in blocks (rows: the values' nodes),
    each node's running count of values in reach telling when its wanted rank passes."""
    n = net.num_nodes
    order = np.argsort(values, kind="stable")
    item_node, item_value = positions[order], values[order]
    want = {}
    found = {}
    for radius in radii:
        for t in types:
            cnt = counts[radius]
            want[(t, radius)] = np.minimum((cnt * QUANTILES[t]).astype(np.int64), np.maximum(cnt - 1, 0))
            found[(t, radius)] = np.full(n, -1.0)
    seen = {r: np.zeros(n, dtype=np.int64) for r in radii}
    k = max(1, net.block_entries // max(n, 1))
    for start in range(0, len(order), k):
        sources, rows = np.unique(item_node[start:start + k], return_inverse=True)
        g, strategy = solver
        block = g.distance_matrix(sources, strategy=strategy, device=net.device, cutoff=max(radii))[rows]
        r, c, d = reached_pairs(block)
        for radius in radii:
            sel = d <= radius
            rs, cs = r[sel], c[sel]
            by_node = np.lexsort((rs, cs))
            rs, cs = rs[by_node], cs[by_node]
            rank = seen[radius][cs] + group_ranks(cs)
            for t in types:
                hit = rank == want[(t, radius)][cs]
                found[(t, radius)][cs[hit]] = item_value[start + rs[hit]]
            seen[radius] += np.bincount(cs, minlength=n)
    return found


def nearest_blocks(net, solver, positions, radius, k):
    """For every node, its k nearest places (positions: each place's node) within radius:
    (distances float64 (n, k), places (n, k) int64 with -1 where fewer are in reach), nearest
    first, ties in the places' order. solver: (reverse graph, strategy)."""
    n = net.num_nodes
    best_d = np.full((n, k), np.inf)
    best_p = np.full((n, k), -1, dtype=np.int64)
    nodes, inverse = np.unique(positions, return_inverse=True)
    by_node = np.argsort(inverse, kind="stable")  # places grouped by node, in their own order
    first = np.searchsorted(inverse[by_node], np.arange(len(nodes)))
    # Places on one node lie at one distance from everything, so only the first k of a node
    # can ever be among a node's k nearest.
    per_node = np.minimum(np.bincount(inverse, minlength=len(nodes)), k)
    for start, block in net._rows(*solver, nodes, None, radius):
        r, c, d = reached_pairs(block)
        u = start + r
        reps = per_node[u]
        rr = np.repeat(np.arange(len(u)), reps)
        offset = np.arange(len(rr)) - np.repeat(np.cumsum(reps) - reps, reps)
        place = by_node[first[u][rr] + offset]
        cc, dd = c[rr], d[rr]
        touched = np.unique(cc)
        old_p = best_p[touched]
        old = old_p >= 0
        cand_c = np.concatenate([cc, np.repeat(touched, k)[old.ravel()]])
        cand_d = np.concatenate([dd, best_d[touched][old]])
        cand_p = np.concatenate([place, old_p[old]])
        order = np.lexsort((cand_p, cand_d, cand_c))
        cand_c, cand_d, cand_p = cand_c[order], cand_d[order], cand_p[order]
        rank = group_ranks(cand_c)
        keep = rank < k
        best_d[touched] = np.inf
        best_p[touched] = -1
        best_d[cand_c[keep], rank[keep]] = cand_d[keep]
        best_p[cand_c[keep], rank[keep]] = cand_p[keep]
    return best_d, best_p
