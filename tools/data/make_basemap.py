#!/usr/bin/env python3
"""Generate the embedded night basemap (Resources/basemap/basemap.pmtiles) from Natural Earth:
vector tiles of zooms 0 to 7, one layer per theme, simplified per zoom.

Run through tools/data/make_data.sh (`make data`), which prepares the pinned venv and the
Natural Earth shapefiles. See tools/data/README.md.

All geometry work (simplification, clipping, area/length filters) happens in normalised Web
Mercator: x = (lon + 180) / 360, y = 0.5 - ln(tan(pi/4 + lat*pi/360)) / (2*pi), y grows south.
Output is deterministic: same inputs + same pinned library versions -> byte-identical files.
"""

import argparse
import hashlib
import math
import os
import struct
import sys
import time

import numpy as np
import shapefile  # pyshp
import shapely
from shapely.geometry import LineString, Polygon, shape

import vector_tiles as vt

MAX_LAT = 85.051129
# Tiles of zooms 0 to MAX_ZOOM; deeper views overzoom the last (Natural Earth 10 m has little
# detail past it).
MAX_ZOOM = 7
# The layers, in the order each tile lists them.
LAYERS = ["land", "lakes", "coastline", "countries", "states"]


def px(zoom):
    """Size of one screen pixel at `zoom` in normalised units (a world is 512 * 2^z px)."""
    return vt.world_px(zoom)


def log(*args):
    print(*args, flush=True)


# --------------------------------------------------------------------------------------------
# Projection

def project_coords(coords):
    """(N, 2) lon/lat -> (N, 2) normalised Web Mercator (y down)."""
    lon = coords[:, 0]
    lat = np.clip(coords[:, 1], -MAX_LAT, MAX_LAT)
    x = (lon + 180.0) / 360.0
    y = 0.5 - np.log(np.tan(np.pi / 4.0 + lat * np.pi / 360.0)) / (2.0 * np.pi)
    return np.column_stack([x, y])


def project(geom):
    return shapely.transform(geom, project_coords)


def project_lonlat(lon, lat):
    p = project_coords(np.array([[lon, lat]], dtype=np.float64))
    return float(p[0, 0]), float(p[0, 1])


# --------------------------------------------------------------------------------------------
# Reading

def read_polygons(path, stats):
    """Polygon shapefile -> list of projected, valid shapely Polygons (source order)."""
    out = []
    reader = shapefile.Reader(path)
    invalid = 0
    for shp in reader.iterShapes():
        if shp.shapeType == shapefile.NULL:
            continue
        geom = shape(shp.__geo_interface__)
        # The Mercator y is undefined at the poles: cut the geometry at +/-MAX_LAT in
        # geographic space (cleaner than clamping points, which would fold Antarctica's
        # south rim onto one line).
        geom = shapely.clip_by_rect(geom, -180.0, -MAX_LAT, 180.0, MAX_LAT)
        geom = project(geom)
        if not geom.is_valid:
            invalid += 1
            geom = shapely.make_valid(geom)
        out.extend(polygon_parts(geom))
    reader.close()
    stats["invalid_input_shapes"] = invalid
    stats["input_polygons"] = len(out)
    return out


def polygon_parts(geom):
    """Explode any geometry into its non-empty Polygon parts (deterministic order)."""
    if geom is None or geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if hasattr(geom, "geoms"):
        res = []
        for g in geom.geoms:
            res.extend(polygon_parts(g))
        return res
    return []  # points / lines produced by make_valid or clipping


def read_lines(path, keep=None):
    """Line shapefile -> list of (N, 2) lon/lat arrays, one per part (source order).

    keep: optional predicate on a part's (N, 2) lon/lat array.
    """
    out = []
    reader = shapefile.Reader(path)
    for shp in reader.iterShapes():
        if shp.shapeType == shapefile.NULL or not shp.points:
            continue
        pts = np.asarray(shp.points, dtype=np.float64)[:, :2]
        starts = list(shp.parts) + [len(pts)]
        for a, b in zip(starts[:-1], starts[1:]):
            part = pts[a:b]
            if len(part) < 2:
                continue
            # Natural Earth cuts its lines at the antimeridian; make sure.
            jumps = np.nonzero(np.abs(np.diff(part[:, 0])) > 180.0)[0]
            if len(jumps):
                raise SystemExit(f"{path}: a line jumps across the antimeridian; not handled")
            if keep is not None and not keep(part):
                continue
            out.append(part)
    reader.close()
    return out


def north_america_filter(countries_path, buffer_deg, threshold):
    """Predicate: most points of a line lie within USA + Canada + Mexico.

    The 110 m outlines are coarse, so they are buffered by buffer_deg (keeps coastal and
    island lines); the buffer would also take in Guatemala's and Belize's department lines,
    so the (unbuffered) outlines of every other country are cut out of it again.
    """
    reader = shapefile.Reader(countries_path)
    names = [f[0] for f in reader.fields[1:]]
    key = "ADM0_A3" if "ADM0_A3" in names else "ISO_A3"
    polys = []
    others = []
    for sr in reader.iterShapeRecords():
        g = shapely.make_valid(shape(sr.shape.__geo_interface__))
        (polys if sr.record[key] in ("USA", "CAN", "MEX") else others).append(g)
    reader.close()
    if len(polys) != 3:
        raise SystemExit(f"{countries_path}: expected USA, CAN and MEX, found {len(polys)} shapes")
    region = shapely.union_all(polys).buffer(buffer_deg)
    region = shapely.difference(region, shapely.union_all(others))
    shapely.prepare(region)

    def keep(part):
        inside = shapely.contains_xy(region, part[:, 0], part[:, 1])
        return inside.mean() > threshold

    return keep



# --------------------------------------------------------------------------------------------
# Simplification per zoom (0.5 px at the tile's zoom: at most 1 px off one zoom deeper, where
# the next tiles take over)

def simplified_polygons(polys, z):
    """[(id, Polygon)]: each input polygon (id = its index + 1) simplified for zoom z; parts and
    holes under 1 px^2 dropped."""
    unit = px(z)
    out = []
    for i, poly in enumerate(polys):
        g = shapely.simplify(poly, 0.5 * unit, preserve_topology=True)
        for p in polygon_parts(g):
            if Polygon(p.exterior).area < unit * unit:
                continue
            holes = [h for h in p.interiors if Polygon(h).area >= unit * unit]
            if len(holes) != len(p.interiors):
                p = Polygon(p.exterior, holes)
            out.append((i + 1, p))
    return out


def simplified_lines(projected, z):
    """[(id, LineString)]: each input line (id = its index + 1) simplified for zoom z; lines
    under 1 px long dropped."""
    unit = px(z)
    geoms = np.array([LineString(p) for p in projected], dtype=object)
    simp = shapely.simplify(geoms, 0.5 * unit, preserve_topology=False)
    return [(i + 1, g) for i, (g, n) in enumerate(zip(simp, shapely.length(simp))) if n >= unit and not g.is_empty]


def build_tiles(themes):
    """{(z, x, y): MVT bytes} for themes {layer: (kind, geometry)}, and counts per zoom."""
    tiles = {}
    counts = []
    for z in range(MAX_ZOOM + 1):
        t0 = time.time()
        per_tile = {}
        features = {}
        for name in LAYERS:
            kind, geometry = themes[name]
            items = simplified_polygons(geometry, z) if kind == vt.POLYGON else simplified_lines(geometry, z)
            features[name] = len(items)
            for key, pieces in vt.clip_to_tiles(items, z, lines=kind == vt.LINESTRING).items():
                per_tile.setdefault(key, {})[name] = pieces
        encoded, points = vt.encode_zoom(per_tile, z, LAYERS, {n: themes[n][0] for n in LAYERS})
        tiles.update(encoded)
        size = sum(len(d) for (tz, _, _), d in tiles.items() if tz == z)
        counts.append((z, features, sum(1 for k in tiles if k[0] == z), points, size))
        log(f"  z{z}: " + ", ".join(f"{n} {features[n]}" for n in LAYERS)
            + f" features; {counts[-1][2]} tiles, {points} points, {size} bytes of MVT  [{time.time() - t0:.1f}s]")
    return tiles, counts


# --------------------------------------------------------------------------------------------
# Checks, reading the archive back with independent decoders (pmtiles, mapbox-vector-tile)

def read_back(path):
    import gzip
    import mapbox_vector_tile
    from pmtiles.reader import MmapSource, Reader
    f = open(path, "rb")
    reader = Reader(MmapSource(f))

    def tile(z, x, y):
        data = reader.get(z, x, y)
        assert data is not None, f"tile {z}/{x}/{y} missing"
        return mapbox_vector_tile.decode(gzip.decompress(data), default_options={"y_coord_down": True})

    return reader, tile


def tile_point(lon, lat, z):
    x, y = project_lonlat(lon, lat)
    n = 1 << z
    tx, ty = int(x * n), int(y * n)
    return tx, ty, (x * n - tx) * vt.EXTENT, (y * n - ty) * vt.EXTENT


def point_in_polygons(px_, py_, geometry):
    """Non-zero winding of (px_, py_) over every ring of a decoded (Multi)Polygon."""
    polys = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
    winding = 0
    for poly in polys:
        for ring in poly:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
                if (y0 <= py_) != (y1 <= py_):
                    t = (py_ - y0) / (y1 - y0)
                    if px_ < x0 + t * (x1 - x0):
                        winding += 1 if y1 > y0 else -1
    return winding != 0


def contains(tile, z, layer, lon, lat):
    tx, ty, x, y = tile_point(lon, lat, z)
    data = tile(z, tx, ty)
    return any(point_in_polygons(x, y, f["geometry"]) for f in data.get(layer, {}).get("features", []))


def check(cond, msg):
    if not cond:
        raise SystemExit("SANITY CHECK FAILED: " + msg)
    log("  ok: " + msg)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--src", required=True, help="folder with ne_10m_*.shp/.shx")
    ap.add_argument("--countries", required=True,
                    help="ne_110m_admin_0_countries (path without extension, needs .dbf)")
    ap.add_argument("--out", required=True, help="the archive to write (Resources/basemap/basemap.pmtiles)")
    ap.add_argument("--na-buffer", type=float, default=1.0,
                    help="degrees of buffer around USA+CAN+MEX for state lines")
    args = ap.parse_args()

    t_start = time.time()
    src = lambda n: os.path.join(args.src, n)
    themes = {}

    log("land (ne_10m_land)")
    st = {}
    themes["land"] = (vt.POLYGON, read_polygons(src("ne_10m_land"), st))
    log(f"  {st['input_polygons']} polygons, {st['invalid_input_shapes']} invalid shapes repaired")

    log("lakes (ne_10m_lakes)")
    st = {}
    themes["lakes"] = (vt.POLYGON, read_polygons(src("ne_10m_lakes"), st))
    log(f"  {st['input_polygons']} polygons, {st['invalid_input_shapes']} invalid shapes repaired")

    log("coastline (ne_10m_coastline)")
    themes["coastline"] = (vt.LINESTRING, [project_coords(p) for p in read_lines(src("ne_10m_coastline"))])

    log("countries (ne_10m_admin_0_boundary_lines_land)")
    themes["countries"] = (vt.LINESTRING, [project_coords(p) for p in read_lines(src("ne_10m_admin_0_boundary_lines_land"))])

    log("states (ne_10m_admin_1_states_provinces_lines, USA + Canada + Mexico)")
    all_states = read_lines(src("ne_10m_admin_1_states_provinces_lines"))
    keep = north_america_filter(args.countries, args.na_buffer, 0.5)
    lines = [p for p in all_states if keep(p)]
    log(f"  {len(all_states)} lines in the world file, {len(lines)} kept for USA/CAN/MEX "
        f"(> 50% of points within {args.na_buffer:g} deg of them and not in another country)")
    # Pennsylvania - New York border runs along lat 42.0 from about -80.5 to -75.4.
    pa_ny = [p for p in lines if np.any((np.abs(p[:, 1] - 42.0) < 0.01) &
                                        (p[:, 0] > -79.7) & (p[:, 0] < -75.5))]
    check(len(pa_ny) > 0, "Pennsylvania-New York state line kept")
    themes["states"] = (vt.LINESTRING, [project_coords(p) for p in lines])

    log("tiles")
    tiles, counts = build_tiles(themes)
    metadata = {
        "name": "nightmap basemap",
        "description": "Natural Earth 10 m land, lakes, coastline, country borders and the state and province lines of the USA, Canada and Mexico, simplified per zoom",
        "attribution": "Natural Earth",
        "version": "2",
        "vector_layers": [{"id": n, "fields": {}, "minzoom": 0, "maxzoom": MAX_ZOOM} for n in LAYERS],
    }
    tmp = args.out + ".tmp"
    vt.write_pmtiles(tmp, tiles, MAX_ZOOM, metadata, (-180.0, -85.051129, 180.0, 85.051129), (-75.789, 41.874, 5))
    os.replace(tmp, args.out)
    gen_time = time.time() - t_start
    with open(os.path.join(os.path.dirname(args.out), "SHA256SUMS"), "w", newline="\n") as f:
        with open(args.out, "rb") as g:
            f.write(f"{hashlib.sha256(g.read()).hexdigest()}  {os.path.basename(args.out)}\n")

    log("")
    log(f"{'zoom':<6}{'tiles':>7}{'points':>10}{'MVT bytes':>12}")
    for z, _, n, points, size in counts:
        log(f"{'z' + str(z):<6}{n:>7}{points:>10}{size:>12}")
    log(f"archive: {os.path.getsize(args.out)} bytes")

    log("")
    log("sanity checks (reading the archive back with pmtiles and mapbox-vector-tile)")
    reader, tile = read_back(args.out)
    h = reader.header()
    check(h["min_zoom"] == 0 and h["max_zoom"] == MAX_ZOOM, f"the archive holds zooms 0 to {MAX_ZOOM}")
    check(contains(tile, 3, "lakes", -81.2, 42.2), "Lake Erie (-81.2, 42.2) is water at z3")
    check(contains(tile, 2, "lakes", -87.0, 44.0), "Lake Michigan (-87.0, 44.0) is water at z2")
    check(contains(tile, 3, "land", -77.5, 40.8), "central Pennsylvania (-77.5, 40.8) is land at z3")
    check(not contains(tile, 3, "lakes", -77.5, 40.8), "central Pennsylvania is not a lake at z3")
    check(not contains(tile, 3, "land", -40.0, 30.0), "mid-Atlantic (-40, 30) is not land at z3")
    check(contains(tile, 0, "land", 20.0, 0.0), "central Africa (20, 0) is land at z0")
    check(contains(tile, 7, "land", -77.5, 40.8), "central Pennsylvania is land at z7 (a tile inside a polygon)")
    tx, ty, _, _ = tile_point(-81.0, 42.2, 5)
    check(len(tile(5, tx, ty).get("countries", {}).get("features", [])) > 0,
          "the US-Canada border runs through Lake Erie's tile at z5")
    log(f"generator time: {gen_time:.1f} s (+ {time.time() - t_start - gen_time:.1f} s checks)")


if __name__ == "__main__":
    main()
