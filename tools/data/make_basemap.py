#!/usr/bin/env python3
"""Generate the embedded night basemap (Resources/basemap/*.nmgeo) from Natural Earth.

Run through tools/data/make_data.sh (`make data`), which prepares the pinned venv and the
Natural Earth shapefiles. See tools/data/README.md for the format.

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
from shapely.geometry import LineString, MultiPolygon, Polygon, shape

MAX_LAT = 85.051129
MAGIC = b"NMGEO1\0\0"
KIND_POLYGONS = 1
KIND_LINES = 2

# (minZoom, maxZoom, tolerance zoom, grid cells per side)
LEVELS = [
    (0.0, 2.0, 1, 4),
    (2.0, 3.0, 2, 4),
    (3.0, 4.0, 3, 4),
    (4.0, 6.0, 5, 16),
    (6.0, 99.0, 7, 32),
]


def px(zoom):
    """Size of one screen pixel at `zoom` in normalised units (a world is 512 * 2^z px)."""
    return 1.0 / (512.0 * 2.0 ** zoom)


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
# Polygons

def ring_area(coords):
    """Shoelace sum / 2 of an (N, 2) open or closed ring (positive = 'clockwise on screen')."""
    x = coords[:, 0]
    y = coords[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def simplify_polygons(polys, tol, min_area):
    """Simplify and drop polygons / holes under min_area. Returns list of Polygons."""
    out = []
    dropped_polys = dropped_holes = 0
    for poly in polys:
        g = shapely.simplify(poly, tol, preserve_topology=True) if tol > 0 else poly
        for p in polygon_parts(g):
            if Polygon(p.exterior).area < min_area:
                dropped_polys += 1
                continue
            holes = []
            for h in p.interiors:
                if Polygon(h).area < min_area:
                    dropped_holes += 1
                else:
                    holes.append(h)
            if len(holes) != len(p.interiors):
                p = Polygon(p.exterior, holes)
            out.append(p)
    return out, dropped_polys, dropped_holes


def clip_quadtree(polys, depth, x0, y0, x1, y1, ix, iy, cells):
    """Recursively clip to a 2^depth grid; appends Polygon parts to cells[(iy, ix)]."""
    if not polys:
        return
    if depth == 0:
        cells.setdefault((iy, ix), []).extend(polys)
        return
    xm = (x0 + x1) / 2.0
    ym = (y0 + y1) / 2.0
    scale = 1 << (depth - 1)
    for qy, (cy0, cy1) in enumerate(((y0, ym), (ym, y1))):
        for qx, (cx0, cx1) in enumerate(((x0, xm), (xm, x1))):
            sub = []
            for p in polys:
                bx0, by0, bx1, by1 = p.bounds
                if bx1 <= cx0 or bx0 >= cx1 or by1 <= cy0 or by0 >= cy1:
                    continue
                if bx0 >= cx0 and bx1 <= cx1 and by0 >= cy0 and by1 <= cy1:
                    sub.append(p)
                    continue
                sub.extend(polygon_parts(shapely.clip_by_rect(p, cx0, cy0, cx1, cy1)))
            clip_quadtree(sub, depth - 1, cx0, cy0, cx1, cy1,
                          ix + qx * scale, iy + qy * scale, cells)


def clean_ring(coords):
    """float32-round, drop closing point and consecutive duplicates. Returns (N, 2) float32."""
    a = np.asarray(coords, dtype=np.float64).astype(np.float32)
    if len(a) == 0:
        return a.reshape(0, 2)
    keep = np.ones(len(a), dtype=bool)
    keep[1:] = np.any(a[1:] != a[:-1], axis=1)
    a = a[keep]
    while len(a) > 1 and np.array_equal(a[0], a[-1]):
        a = a[:-1]
    return a


def ring_ok(a):
    return len(a) >= 3 and len(np.unique(a, axis=0)) >= 3


def encode_polygon_cell(parts, stats):
    """Cell's Polygon parts -> list of rings (float32 arrays), exterior first, oriented."""
    rings = []
    for p in parts:
        p = shapely.orient_polygons(p, exterior_cw=False)  # positive shoelace in y-down numbers
        ext = clean_ring(p.exterior.coords)
        if not ring_ok(ext):
            stats["degenerate_rings"] += 1
            continue
        a = ring_area(ext.astype(np.float64))
        if a <= 0:
            # Only possible for slivers that collapse when rounded to float32.
            stats["collapsed_rings"] += 1
            continue
        poly_rings = [ext]
        for h in p.interiors:
            hr = clean_ring(h.coords)
            if not ring_ok(hr):
                stats["degenerate_rings"] += 1
                continue
            if ring_area(hr.astype(np.float64)) >= 0:
                stats["collapsed_rings"] += 1
                continue
            poly_rings.append(hr)
        # Orientation contract of the format: exterior > 0, holes < 0 (y-down shoelace).
        assert ring_area(poly_rings[0].astype(np.float64)) > 0
        for hr in poly_rings[1:]:
            assert ring_area(hr.astype(np.float64)) < 0
        rings.extend(poly_rings)
    return rings


def build_polygon_levels(polys, name):
    levels = []
    for (zmin, zmax, tz, grid) in LEVELS:
        t0 = time.time()
        unit = px(tz)
        simp, dp, dh = simplify_polygons(polys, 0.5 * unit, unit * unit)
        depth = int(math.log2(grid))
        assert 1 << depth == grid
        cells = {}
        clip_quadtree(simp, depth, 0.0, 0.0, 1.0, 1.0, 0, 0, cells)
        stats = {"degenerate_rings": 0, "collapsed_rings": 0}
        chunks = []
        for key in sorted(cells):  # row-major: (cell y, cell x)
            rings = encode_polygon_cell(cells[key], stats)
            if rings:
                chunks.append(rings)
        log(f"  {name} level z{zmin:g}-{zmax:g}: {len(polys)} polygons -> {len(simp)} kept "
            f"(dropped {dp} polygons, {dh} holes < 1 px^2 at z{tz}); "
            f"rings dropped after clipping: {stats['degenerate_rings']} degenerate, "
            f"{stats['collapsed_rings']} collapsed by float32  [{time.time() - t0:.1f}s]")
        levels.append((zmin, zmax, chunks))
    return levels


# --------------------------------------------------------------------------------------------
# Lines

def dedupe(a):
    keep = np.ones(len(a), dtype=bool)
    keep[1:] = np.any(a[1:] != a[:-1], axis=1)
    return a[keep]


def split_runs(a, grid):
    """Split a float32 polyline into runs per grid cell.

    A run starts at a point, stays while points remain in the start point's cell, and ends
    with the first point that leaves it; that point also starts the next run.
    Yields ((cy, cx), run).
    """
    cx = np.clip(np.floor(a[:, 0].astype(np.float64) * grid), 0, grid - 1).astype(np.int64)
    cy = np.clip(np.floor(a[:, 1].astype(np.float64) * grid), 0, grid - 1).astype(np.int64)
    cell = cy * grid + cx
    n = len(a)
    i = 0
    while i < n - 1:
        c = cell[i]
        j = i + 1
        while j < n and cell[j] == c:
            j += 1
        end = min(j, n - 1)  # include the first point outside the cell (if any)
        yield (int(cy[i]), int(cx[i])), a[i:end + 1]
        i = end


def build_line_levels(lines_ll, name):
    projected = [project_coords(p) for p in lines_ll]
    levels = []
    for (zmin, zmax, tz, grid) in LEVELS:
        t0 = time.time()
        unit = px(tz)
        tol = 0.5 * unit
        geoms = np.array([LineString(p) for p in projected], dtype=object)
        simp = shapely.simplify(geoms, tol, preserve_topology=False)
        lengths = shapely.length(simp)
        cells = {}
        kept = short = 0
        for g, length in zip(simp, lengths):
            if length < unit:
                short += 1
                continue
            a = dedupe(shapely.get_coordinates(g).astype(np.float32))
            if len(a) < 2:
                short += 1
                continue
            kept += 1
            for key, run in split_runs(a, grid):
                cells.setdefault(key, []).append(run)
        chunks = [cells[k] for k in sorted(cells)]
        log(f"  {name} level z{zmin:g}-{zmax:g}: {len(projected)} lines -> {kept} kept "
            f"(dropped {short} shorter than 1 px at z{tz})  [{time.time() - t0:.1f}s]")
        levels.append((zmin, zmax, chunks))
    return levels


# --------------------------------------------------------------------------------------------
# Writing / reading .nmgeo

def encode(kind, levels):
    out = bytearray()
    out += MAGIC
    out += struct.pack("<II", kind, len(levels))
    summary = []
    for zmin, zmax, chunks in levels:
        start = len(out)
        out += struct.pack("<ffI", zmin, zmax, len(chunks))
        parts_total = points_total = 0
        for parts in chunks:
            xy = np.concatenate(parts).astype("<f4")
            mn = xy.min(axis=0)
            mx = xy.max(axis=0)
            out += struct.pack("<ffff", mn[0], mn[1], mx[0], mx[1])
            out += struct.pack("<II", len(parts), len(xy))
            out += np.array([len(p) for p in parts], dtype="<u4").tobytes()
            out += xy.tobytes()
            parts_total += len(parts)
            points_total += len(xy)
        summary.append((zmin, zmax, len(chunks), parts_total, points_total, len(out) - start))
    assert len(out) % 4 == 0
    return bytes(out), summary


def decode(data):
    """Parse a .nmgeo file -> (kind, [(minZoom, maxZoom, [(bbox, [part arrays])])])."""
    assert data[:8] == MAGIC, "bad magic"
    kind, nlev = struct.unpack_from("<II", data, 8)
    off = 16
    levels = []
    for _ in range(nlev):
        zmin, zmax, nchunks = struct.unpack_from("<ffI", data, off)
        off += 12
        chunks = []
        for _ in range(nchunks):
            bbox = struct.unpack_from("<ffff", data, off)
            npart, npts = struct.unpack_from("<II", data, off + 16)
            off += 24
            lens = np.frombuffer(data, dtype="<u4", count=npart, offset=off)
            off += 4 * npart
            xy = np.frombuffer(data, dtype="<f4", count=2 * npts, offset=off).reshape(-1, 2)
            off += 8 * npts
            assert int(lens.sum()) == npts
            bounds = np.concatenate([[0], np.cumsum(lens, dtype=np.int64)]).tolist()
            parts = [xy[bounds[i]:bounds[i + 1]] for i in range(npart)]
            chunks.append((bbox, parts))
        levels.append((zmin, zmax, chunks))
    assert off == len(data), "trailing bytes"
    return kind, levels


def point_in_ring(x, y, ring):
    xs = ring[:, 0].astype(np.float64)
    ys = ring[:, 1].astype(np.float64)
    xn = np.roll(xs, -1)
    yn = np.roll(ys, -1)
    cond = (ys > y) != (yn > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xi = xs + (y - ys) * (xn - xs) / (yn - ys)
    return bool(np.count_nonzero(cond & (x < xi)) % 2)


def polygons_contain(path, level_index, lon, lat):
    """True if the point is inside a polygon of the given level (reads the file back)."""
    with open(path, "rb") as f:
        kind, levels = decode(f.read())
    assert kind == KIND_POLYGONS
    x, y = project_lonlat(lon, lat)
    for bbox, parts in levels[level_index][2]:
        if not (bbox[0] <= x <= bbox[2] and bbox[1] <= y <= bbox[3]):
            continue
        # group rings: an exterior (positive) followed by its holes (negative)
        i = 0
        while i < len(parts):
            assert ring_area(parts[i].astype(np.float64)) > 0, "hole without exterior"
            j = i + 1
            while j < len(parts) and ring_area(parts[j].astype(np.float64)) < 0:
                j += 1
            if point_in_ring(x, y, parts[i]) and not any(
                    point_in_ring(x, y, h) for h in parts[i + 1:j]):
                return True
            i = j
    return False


def lines_near(path, level_index, lon0, lat0, lon1, lat1):
    """Number of line points inside a lon/lat box (reads the file back)."""
    with open(path, "rb") as f:
        kind, levels = decode(f.read())
    assert kind == KIND_LINES
    xa, ya = project_lonlat(lon0, lat1)
    xb, yb = project_lonlat(lon1, lat0)
    n = 0
    for _, parts in levels[level_index][2]:
        for p in parts:
            n += int(np.count_nonzero((p[:, 0] >= xa) & (p[:, 0] <= xb) &
                                      (p[:, 1] >= ya) & (p[:, 1] <= yb)))
    return n


# --------------------------------------------------------------------------------------------

def write(out_dir, name, kind, levels, report):
    data, summary = encode(kind, levels)
    path = os.path.join(out_dir, name + ".nmgeo")
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    report.append((name, len(data), summary))
    # read-back check: structure round-trips
    k, lv = decode(data)
    assert k == kind and len(lv) == len(levels)


def check(cond, msg):
    if not cond:
        raise SystemExit("SANITY CHECK FAILED: " + msg)
    log("  ok: " + msg)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--src", required=True, help="folder with ne_10m_*.shp/.shx")
    ap.add_argument("--countries", required=True,
                    help="ne_110m_admin_0_countries (path without extension, needs .dbf)")
    ap.add_argument("--out", required=True, help="output folder (Resources/basemap)")
    ap.add_argument("--na-buffer", type=float, default=1.0,
                    help="degrees of buffer around USA+CAN+MEX for state lines")
    args = ap.parse_args()

    t_start = time.time()
    os.makedirs(args.out, exist_ok=True)
    src = lambda n: os.path.join(args.src, n)
    report = []

    log("land (ne_10m_land)")
    st = {}
    polys = read_polygons(src("ne_10m_land"), st)
    log(f"  {st['input_polygons']} polygons, {st['invalid_input_shapes']} invalid shapes repaired")
    write(args.out, "land", KIND_POLYGONS, build_polygon_levels(polys, "land"), report)

    log("lakes (ne_10m_lakes)")
    st = {}
    polys = read_polygons(src("ne_10m_lakes"), st)
    log(f"  {st['input_polygons']} polygons, {st['invalid_input_shapes']} invalid shapes repaired")
    write(args.out, "lakes", KIND_POLYGONS, build_polygon_levels(polys, "lakes"), report)

    log("coastline (ne_10m_coastline)")
    lines = read_lines(src("ne_10m_coastline"))
    write(args.out, "coastline", KIND_LINES, build_line_levels(lines, "coastline"), report)

    log("countries (ne_10m_admin_0_boundary_lines_land)")
    lines = read_lines(src("ne_10m_admin_0_boundary_lines_land"))
    write(args.out, "countries", KIND_LINES, build_line_levels(lines, "countries"), report)

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
    write(args.out, "states", KIND_LINES, build_line_levels(lines, "states"), report)

    gen_time = time.time() - t_start

    # SHA256SUMS (same format as `sha256sum *.nmgeo`)
    names = sorted(n + ".nmgeo" for n, _, _ in report)
    with open(os.path.join(args.out, "SHA256SUMS"), "w", newline="\n") as f:
        for n in names:
            with open(os.path.join(args.out, n), "rb") as g:
                f.write(f"{hashlib.sha256(g.read()).hexdigest()}  {n}\n")

    log("")
    log(f"{'file':<18}{'level':<10}{'chunks':>8}{'parts':>9}{'points':>10}{'bytes':>12}")
    total = 0
    for name, size, summary in report:
        for zmin, zmax, nch, npart, npts, nbytes in summary:
            log(f"{name + '.nmgeo':<18}{f'z{zmin:g}-{zmax:g}':<10}{nch:>8}{npart:>9}{npts:>10}{nbytes:>12}")
        log(f"{name + '.nmgeo':<18}{'total':<10}{'':>8}{'':>9}{'':>10}{size:>12}")
        total += size
    log(f"{'all':<18}{'':<10}{'':>8}{'':>9}{'':>10}{total:>12}")

    log("")
    log("sanity checks (reading the files back)")
    lakes = os.path.join(args.out, "lakes.nmgeo")
    land = os.path.join(args.out, "land.nmgeo")
    check(polygons_contain(lakes, 2, -81.2, 42.2), "Lake Erie (-81.2, 42.2) is water in lakes level 2")
    check(polygons_contain(lakes, 1, -87.0, 44.0), "Lake Michigan (-87.0, 44.0) is water in lakes level 1")
    check(polygons_contain(land, 2, -77.5, 40.8), "central Pennsylvania (-77.5, 40.8) is in land level 2")
    check(not polygons_contain(lakes, 2, -77.5, 40.8), "central Pennsylvania is not in lakes level 2")
    check(not polygons_contain(land, 2, -40.0, 30.0), "mid-Atlantic (-40, 30) is not land")
    check(polygons_contain(land, 0, 20.0, 0.0), "central Africa (20, 0) is land in level 0")
    check(lines_near(os.path.join(args.out, "countries.nmgeo"), 1, -81.8, 41.9, -80.5, 42.5) > 0,
          "US-Canada border runs through Lake Erie in countries level 1")
    log(f"generator time: {gen_time:.1f} s (+ {time.time() - t_start - gen_time:.1f} s checks)")


if __name__ == "__main__":
    main()
