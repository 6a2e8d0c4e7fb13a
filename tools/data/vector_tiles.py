"""Vector tiles for nightmap's data tools: Mapbox Vector Tile 2.1 encoding, clipping of
normalised Web Mercator geometry to a zoom's tiles, and PMTiles v3 archives (PyPI's `pmtiles`).

Coordinates are normalised Web Mercator (x, y in [0, 1], y grows south). A tile's geometry is
quantised to EXTENT units per tile side with floor(v + 0.5) on the world grid of its zoom, so
neighbouring tiles agree exactly on the points they share; it is clipped to the tile plus
BUFFER units on every side. Exterior rings have a positive shoelace sum in tile coordinates
(y down), holes a negative one, as the MVT specification asks.
"""

import gzip
import math
import struct

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer

EXTENT = 4096
BUFFER = 64

POINT, LINESTRING, POLYGON = 1, 2, 3


# --------------------------------------------------------------------------------------------
# Encoding (protobuf by hand: the MVT schema has a dozen fields)

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return (n << 1) if n >= 0 else ((-n) << 1) - 1


def field(number, wire, payload):
    key = varint((number << 3) | wire)
    if wire == 0:
        return key + varint(payload)
    if wire == 2:
        return key + varint(len(payload)) + payload
    if wire == 1:
        return key + payload
    raise ValueError(wire)


def packed(number, values):
    return field(number, 2, b"".join(varint(v) for v in values))


def geometry_commands(kind, parts):
    """Command integers for `parts` (lists of integer (x, y) points) of one feature."""
    out = []
    cx = cy = 0

    def moves(points):
        nonlocal cx, cy
        for x, y in points:
            out.append(zigzag(x - cx))
            out.append(zigzag(y - cy))
            cx, cy = x, y

    if kind == POINT:
        out.append(1 | (len(parts) << 3))
        moves(parts)
        return out
    for part in parts:
        out.append(1 | (1 << 3))
        moves(part[:1])
        out.append(2 | ((len(part) - 1) << 3))
        moves(part[1:])
        if kind == POLYGON:
            out.append(7 | (1 << 3))
    return out


class Layer:
    """One layer of one tile: features with properties, keys and values shared in first-use order."""

    def __init__(self, name):
        self.name = name
        self.features = []
        self.keys = {}
        self.values = {}

    def add(self, fid, kind, parts, properties=None):
        tags = []
        for k, v in (properties or {}).items():
            if v is None:
                continue
            ki = self.keys.setdefault(k, len(self.keys))
            vk = (type(v).__name__, v)
            vi = self.values.setdefault(vk, len(self.values))
            tags += [ki, vi]
        self.features.append((fid, kind, tags, geometry_commands(kind, parts)))

    @staticmethod
    def value(v):
        kind, x = v
        if kind == "str":
            return field(1, 2, x.encode())
        if kind == "bool":
            return field(7, 0, 1 if x else 0)
        if kind == "int":
            return field(6, 0, zigzag(x))
        if kind == "float":
            return field(3, 1, struct.pack("<d", x))
        raise ValueError(kind)

    def encode(self):
        out = field(15, 0, 2) + field(1, 2, self.name.encode())
        for fid, kind, tags, geometry in self.features:
            f = b""
            if fid is not None:
                f += field(1, 0, fid)
            if tags:
                f += packed(2, tags)
            f += field(3, 0, kind) + packed(4, geometry)
            out += field(2, 2, f)
        for k in self.keys:
            out += field(3, 2, k.encode())
        for v in self.values:
            out += field(4, 2, self.value(v))
        out += field(5, 0, EXTENT)
        return out


def encode_tile(layers):
    """The MVT bytes of the non-empty `layers` (in the order given)."""
    return b"".join(field(3, 2, l.encode()) for l in layers if l.features)


# --------------------------------------------------------------------------------------------
# Clipping and quantising

def tile_rect(z, x, y, buffer=BUFFER):
    n = 1 << z
    b = buffer / EXTENT
    return ((x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n)


def clip_to_tiles(items, z, lines):
    """{(x, y): [(id, geometry clipped to the tile plus its buffer)]} for `items`, a list of
    (id, shapely geometry); recursively by quadrants, so each clip works on a small piece."""
    out = {}

    def parts(g):
        if g is None or g.is_empty:
            return []
        if hasattr(g, "geoms"):
            res = []
            for h in g.geoms:
                res.extend(parts(h))
            return res
        if lines:
            return [g] if isinstance(g, LineString) and len(g.coords) >= 2 else []
        return [g] if isinstance(g, Polygon) else []

    def visit(pieces, depth, x, y):
        if not pieces:
            return
        x0, y0, x1, y1 = tile_rect(depth, x, y, BUFFER / (1 << (z - depth)))
        sub = []
        for fid, g in pieces:
            bx0, by0, bx1, by1 = g.bounds
            if bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1:
                continue
            if bx0 >= x0 and bx1 <= x1 and by0 >= y0 and by1 <= y1:
                sub.append((fid, g))
                continue
            for p in parts(shapely.clip_by_rect(g, x0, y0, x1, y1)):
                sub.append((fid, p))
        if not sub:
            return
        if depth == z:
            out[(x, y)] = sub
            return
        for qy in (0, 1):
            for qx in (0, 1):
                visit(sub, depth + 1, 2 * x + qx, 2 * y + qy)

    visit(list(items), 0, 0, 0)
    return out


def quantise(coords, z, x, y):
    """(N, 2) normalised coordinates -> (N, 2) int64 tile coordinates, consecutive repeats dropped."""
    scale = float(EXTENT << z)
    q = np.floor(np.asarray(coords, dtype=np.float64) * scale + 0.5).astype(np.int64)
    q[:, 0] -= x * EXTENT
    q[:, 1] -= y * EXTENT
    if len(q) > 1:
        keep = np.ones(len(q), dtype=bool)
        keep[1:] = np.any(q[1:] != q[:-1], axis=1)
        q = q[keep]
    return q


def shoelace(ring):
    x = ring[:, 0]
    y = ring[:, 1]
    return int(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def polygon_rings(polys, z, x, y):
    """Quantised rings of Polygon parts: each exterior (positive) followed by its holes
    (negative); rings that collapse when quantised are dropped (an exterior with its holes)."""
    rings = []
    for p in polys:
        p = shapely.orient_polygons(p, exterior_cw=False)
        ext = quantise(p.exterior.coords[:-1], z, x, y)
        while len(ext) > 1 and np.array_equal(ext[0], ext[-1]):
            ext = ext[:-1]
        if len(ext) < 3 or shoelace(ext) <= 0:
            continue
        rings.append(ext.tolist())
        for h in p.interiors:
            hr = quantise(h.coords[:-1], z, x, y)
            while len(hr) > 1 and np.array_equal(hr[0], hr[-1]):
                hr = hr[:-1]
            if len(hr) >= 3 and shoelace(hr) < 0:
                rings.append(hr.tolist())
    return rings


def line_parts(lines, z, x, y):
    out = []
    for g in lines:
        q = quantise(g.coords, z, x, y)
        if len(q) >= 2:
            out.append(q.tolist())
    return out


def encode_zoom(per_tile, z, layers, kinds, properties=None):
    """Encodes one zoom's tiles: per_tile {(x, y): {layer: [(id, geometry)]}} (from
    clip_to_tiles), layers in the order tiles list them, kinds {layer: POLYGON or LINESTRING},
    properties (layer, id) -> dict or None. The pieces of one id in a tile become one feature.
    Returns ({(z, x, y): MVT bytes} for the tiles with data, the points written)."""
    tiles, points = {}, 0
    for (x, y), present in sorted(per_tile.items()):
        encoded = []
        for name in layers:
            pieces = present.get(name)
            if not pieces:
                continue
            kind = kinds[name]
            layer = Layer(name)
            by_id = {}
            for fid, g in pieces:
                by_id.setdefault(fid, []).append(g)
            for fid in sorted(by_id):
                parts = polygon_rings(by_id[fid], z, x, y) if kind == POLYGON else line_parts(by_id[fid], z, x, y)
                if parts:
                    layer.add(fid, kind, parts, properties(name, fid) if properties else None)
                    points += sum(len(q) for q in parts)
            encoded.append(layer)
        data = encode_tile(encoded)
        if data:
            tiles[(z, x, y)] = data
    return tiles, points


# --------------------------------------------------------------------------------------------
# Archives

def write_pmtiles(path, tiles, max_zoom, metadata, bounds, center):
    """Writes `tiles` ({(z, x, y): MVT bytes}) as a PMTiles v3 archive of gzip'ed tiles; every
    tile of zooms 0 to max_zoom is stored (an empty one where nothing is), so that a missing
    tile means a damaged archive. bounds: (west, south, east, north); center: (lon, lat, zoom)."""
    empty = gzip.compress(b"", mtime=0)
    ids = []
    for z in range(max_zoom + 1):
        for x in range(1 << z):
            for y in range(1 << z):
                ids.append((zxy_to_tileid(z, x, y), z, x, y))
    ids.sort()
    with open(path, "wb") as f:
        w = Writer(f)
        for tid, z, x, y in ids:
            data = tiles.get((z, x, y))
            w.write_tile(tid, gzip.compress(data, compresslevel=9, mtime=0) if data else empty)
        e7 = lambda v: int(round(v * 1e7))
        w.finalize({
            "tile_type": TileType.MVT, "tile_compression": Compression.GZIP,
            "min_lon_e7": e7(bounds[0]), "min_lat_e7": e7(bounds[1]),
            "max_lon_e7": e7(bounds[2]), "max_lat_e7": e7(bounds[3]),
            "center_zoom": center[2], "center_lon_e7": e7(center[0]), "center_lat_e7": e7(center[1]),
        }, metadata)


def world_px(zoom):
    """One screen pixel at `zoom` in normalised units (a world is 512 x 2^zoom pixels)."""
    return 1.0 / (512.0 * 2.0 ** zoom)


def lat_of(y):
    return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y))))
