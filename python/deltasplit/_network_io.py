"""Readers for deltasplit.network: node and edge tables (pandas, Parquet, GeoParquet, CSV) and
OpenStreetMap extracts through pyosmium (the optional module ``osmium``)."""
import os
import struct

import numpy as np
import pandas as pd

EARTH_RADIUS_M = 6_371_008.8  # the mean Earth radius (IUGG)

PARQUET_SUFFIXES = (".parquet", ".geoparquet", ".pq")
CSV_SUFFIXES = (".csv", ".csv.gz", ".txt")


def table_kind(path):
    """'parquet' or 'csv' by the file name's ending; anything else raises."""
    name = os.fspath(path).lower()
    if name.endswith(PARQUET_SUFFIXES):
        return "parquet"
    if name.endswith(CSV_SUFFIXES):
        return "csv"
    raise ValueError(f"{os.fspath(path)}: unknown table format (expected .parquet, .geoparquet, .pq or .csv)")


def read_table(source, what):
    """A DataFrame as it is, or a Parquet/GeoParquet/CSV file read into one; a file that cannot
    be parsed raises ValueError naming it (and the line, where the CSV parser says which)."""
    if isinstance(source, pd.DataFrame):
        return source
    path = os.fspath(source)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such {what} file")
    try:
        if table_kind(path) == "parquet":
            return pd.read_parquet(path)
        return pd.read_csv(path)
    except (ValueError, OSError, pd.errors.ParserError) as e:
        if str(e).startswith(path):
            raise
        raise ValueError(f"{path}: cannot read the {what} table: {e}") from e


def wkb_points(geometry):
    """The x and y of WKB points (GeoParquet's geometry encoding; ISO or extended WKB, with or
    without Z/M and SRID) or of shapely points, as two float64 arrays."""
    xs = np.empty(len(geometry))
    ys = np.empty(len(geometry))
    for i, g in enumerate(geometry):
        if hasattr(g, "x") and hasattr(g, "y"):
            xs[i], ys[i] = g.x, g.y
            continue
        b = bytes(g) if g is not None else b""
        if len(b) < 21:
            raise ValueError(f"geometry of row {i} is not a WKB point")
        order = "<" if b[0] == 1 else ">"
        kind, = struct.unpack(order + "I", b[1:5])
        offset = 5
        if kind & 0x20000000:  # extended WKB: an SRID follows the type
            offset += 4
        if (kind & 0xFFFF) % 1000 != 1:
            raise ValueError(f"geometry of row {i} is not a point (WKB type {kind})")
        xs[i], ys[i] = struct.unpack(order + "dd", b[offset:offset + 16])
    return xs, ys


def haversine_m(lon1, lat1, lon2, lat2):
    """Great-circle distances in metres between points in degrees (the haversine formula)."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    h = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(np.minimum(h, 1.0)))


# Ways by highway tag. Drive: roads open to cars; walk: every way a pedestrian may use except
# motorways (and cycleways unless foot is allowed on them).
DRIVE_HIGHWAYS = frozenset({
    "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary",
    "secondary_link", "tertiary", "tertiary_link", "unclassified", "residential", "living_street",
    "service", "road"})
WALK_HIGHWAYS = (DRIVE_HIGHWAYS - {"motorway", "motorway_link"}) | frozenset({
    "footway", "pedestrian", "path", "steps", "track", "corridor", "bridleway"})
DRIVE_EXCLUDED_SERVICE = frozenset({"parking_aisle", "driveway", "emergency_access", "private"})
CLOSED = frozenset({"no", "private"})
FOOT_ALLOWED = frozenset({"yes", "designated", "permissive"})


def way_directions(tags, network_type):
    """(forward, backward) for a way's tags, or None when the network leaves the way out."""
    highway = tags.get("highway")
    if highway is None or tags.get("area") == "yes":
        return None
    if network_type == "walk":
        foot = tags.get("foot")
        if foot in CLOSED:
            return None
        if foot not in FOOT_ALLOWED and (highway not in WALK_HIGHWAYS or tags.get("access") in CLOSED):
            return None
        return True, True
    if highway not in DRIVE_HIGHWAYS:
        return None
    if tags.get("access") in CLOSED or tags.get("motor_vehicle") in CLOSED or tags.get("motorcar") in CLOSED:
        return None
    if highway == "service" and tags.get("service") in DRIVE_EXCLUDED_SERVICE:
        return None
    oneway = tags.get("oneway")
    if oneway in ("yes", "true", "1"):
        return True, False
    if oneway in ("-1", "reverse"):
        return False, True
    if oneway in ("reversible", "alternating"):  # the direction changes with the time of day
        return None
    if oneway is None and (highway == "motorway" or tags.get("junction") in ("roundabout", "circular")):
        return True, False
    return True, True


def from_osm_file(path, network_type):
    """(node ids, lon, lat, edge from ids, edge to ids, lengths in metres) of the drive or walk
    network of an OSM extract. Segments with an end outside the extract (no location) are left
    out."""
    if network_type not in ("drive", "walk"):
        raise ValueError(f"network_type must be 'drive' or 'walk'; got {network_type!r}")
    try:
        import osmium
    except ImportError as e:
        raise ImportError("reading OpenStreetMap extracts needs pyosmium: pip install osmium") from e
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such OSM extract")

    frm, to = [], []
    where = {}

    class Ways(osmium.SimpleHandler):
        def way(self, w):
            directions = way_directions({t.k: t.v for t in w.tags}, network_type)
            if directions is None:
                return
            forward, backward = directions
            refs = []
            for nd in w.nodes:
                if nd.location.valid():
                    where[nd.ref] = (nd.location.lon, nd.location.lat)
                    refs.append(nd.ref)
                else:
                    refs.append(None)
            for a, b in zip(refs, refs[1:]):
                if a is None or b is None or a == b:
                    continue
                if forward:
                    frm.append(a)
                    to.append(b)
                if backward:
                    frm.append(b)
                    to.append(a)

    try:
        Ways().apply_file(path, locations=True)
    except RuntimeError as e:
        raise ValueError(f"{path}: not a readable OSM extract: {e}") from e
    ids = np.array(sorted(where), dtype=np.int64)
    lon = np.array([where[i][0] for i in ids], dtype=np.float64)
    lat = np.array([where[i][1] for i in ids], dtype=np.float64)
    frm = np.array(frm, dtype=np.int64)
    to = np.array(to, dtype=np.int64)
    a, b = np.searchsorted(ids, frm), np.searchsorted(ids, to)
    length = haversine_m(lon[a], lat[a], lon[b], lat[b]) if len(frm) else np.empty(0)
    return ids, lon, lat, frm, to, length
