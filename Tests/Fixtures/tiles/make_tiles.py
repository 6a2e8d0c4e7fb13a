"""Fixtures for the tile readers' tests, made with independent tools at test-writing time.

In a venv with `pip install mapbox-vector-tile==2.2.0 pmtiles==3.8.1`:

    python3 make_tiles.py

writes
- basic.mvt: an uncompressed Mapbox Vector Tile (mapbox-vector-tile's encoder) with polygons
  (one with a hole, a multipolygon), lines, points and every kind of property value;
  basic.json: the same tile decoded by mapbox-vector-tile (y down), what our decoder must give;
- small.pmtiles: a PMTiles v3 archive (pmtiles' serializers) of the 21 tiles of zooms 0 to 2,
  each a gzipped MVT with one point whose `tile` property names it, the directories gzipped and
  split into leaves of four entries (a root of leaf pointers), tiles 2/3/3 and 2/0/3 sharing
  one run of bytes; small.json: each tile's z/x/y, PMTiles tile id and name, and the ids of
  four deep tiles (as decimal strings);
- small.mbtiles: the same 21 tiles as an MBTiles 1.3 file (Python's sqlite3): rows in TMS order,
  gzipped MVT, metadata with format pbf and a json of vector_layers; notiles.mbtiles: an SQLite
  file with a metadata table only;
- bomb.gz: 64 MB of zeros, gzipped (65 KB): what a tile must not inflate to.
"""
import gzip
import json
import os
import sqlite3

import mapbox_vector_tile
from pmtiles.tile import Compression, Entry, TileType, serialize_directory, serialize_header, zxy_to_tileid


def basic():
    layers = [
        {"name": "water", "features": [
            {"geometry": "POLYGON ((100 100, 100 900, 900 900, 900 100, 100 100), (300 300, 600 300, 600 600, 300 600, 300 300))",
             "properties": {"kind": "lake", "area": 123456, "depth": -12}, "id": 7},
            {"geometry": "MULTIPOLYGON (((1000 1000, 1000 1500, 1500 1500, 1000 1000)), ((2000 2000, 2000 2600, 2600 2600, 2600 2000, 2000 2000)))",
             "properties": {"kind": "pond", "ratio": 0.25, "deep": False}, "id": 8}]},
        {"name": "roads", "features": [
            {"geometry": "LINESTRING (0 0, 4096 4096, 4096 0)", "properties": {"class": "motorway", "lanes": 4, "oneway": True}},
            {"geometry": "MULTILINESTRING ((10 10, 20 30), (-64 -64, 4160 4160))", "properties": {"class": "path", "name": "Käpylä"}}]},
        {"name": "places", "features": [
            {"geometry": "POINT (2048 1024)", "properties": {"name": "Helsinki", "population": 674500, "rank": 1.5}},
            {"geometry": "MULTIPOINT (10 20, 30 40, 50 60)", "properties": {"name": "islands", "big": 18446744073709551615 // 2}}]},
    ]
    data = mapbox_vector_tile.encode(layers, default_options={"y_coord_down": True})
    open("basic.mvt", "wb").write(data)
    decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    json.dump({"source": "mapbox-vector-tile 2.2.0 encode and decode (y_coord_down)", "layers": decoded},
              open("basic.json", "w"), indent=1, sort_keys=True)


def small():
    tiles = []
    for z in range(3):
        for x in range(1 << z):
            for y in range(1 << z):
                tiles.append((zxy_to_tileid(z, x, y), z, x, y))
    tiles.sort()
    blobs, entries, offset = [], [], 0
    shared = None
    for tid, z, x, y in tiles:
        name = f"{z}/{x}/{y}"
        if (z, x, y) in ((2, 3, 3), (2, 0, 3)):
            name = "shared"
        mvt = mapbox_vector_tile.encode([{"name": "tiles", "features": [{"geometry": "POINT (2048 2048)", "properties": {"tile": name}}]}],
                                        default_options={"y_coord_down": True})
        blob = gzip.compress(mvt, mtime=0)
        if name == "shared" and shared is not None:
            entries.append(Entry(tid, shared[0], shared[1], 1))
            continue
        entries.append(Entry(tid, offset, len(blob), 1))
        if name == "shared":
            shared = (offset, len(blob))
        blobs.append(blob)
        offset += len(blob)
    leaf_size = 4
    leaves, root = b"", []
    for i in range(0, len(entries), leaf_size):
        d = serialize_directory(entries[i:i + leaf_size])  # (gzipped by pmtiles)
        root.append(Entry(entries[i].tile_id, len(leaves), len(d), 0))
        leaves += d
    root_bytes = serialize_directory(root)
    metadata = gzip.compress(json.dumps({"name": "small", "vector_layers": [{"id": "tiles", "fields": {"tile": "String"}}]}).encode(), mtime=0)
    tile_data = b"".join(blobs)
    header = {
        "root_offset": 127, "root_length": len(root_bytes),
        "metadata_offset": 127 + len(root_bytes), "metadata_length": len(metadata),
        "leaf_directory_offset": 127 + len(root_bytes) + len(metadata), "leaf_directory_length": len(leaves),
        "tile_data_offset": 127 + len(root_bytes) + len(metadata) + len(leaves), "tile_data_length": len(tile_data),
        "addressed_tiles_count": len(tiles), "tile_entries_count": len(entries), "tile_contents_count": len(blobs),
        "clustered": True, "internal_compression": Compression.GZIP, "tile_compression": Compression.GZIP,
        "tile_type": TileType.MVT, "min_zoom": 0, "max_zoom": 2,
        "min_lon_e7": -1800000000, "min_lat_e7": -850511287, "max_lon_e7": 1800000000, "max_lat_e7": 850511287,
        "center_zoom": 1, "center_lon_e7": 249384000, "center_lat_e7": 601699000,
    }
    with open("small.pmtiles", "wb") as f:
        f.write(serialize_header(header) + root_bytes + metadata + leaves + tile_data)
    json.dump({"source": "pmtiles 3.8.1 serialize_header, serialize_directory, zxy_to_tileid",
               "tiles": [{"z": z, "x": x, "y": y, "id": tid, "name": "shared" if (z, x, y) in ((2, 3, 3), (2, 0, 3)) else f"{z}/{x}/{y}"}
                         for tid, z, x, y in tiles],
               # (As decimal strings: an id past 2^53 is not exact as a JSON number read into a double.)
               "ids": {f"{z}/{x}/{y}": str(zxy_to_tileid(z, x, y)) for z, x, y in [(10, 583, 296), (15, 18659, 9484), (20, 597085, 303510), (30, 1 << 29, (1 << 30) - 1)]}},
              open("small.json", "w"), indent=1)


def mbtiles():
    for name in ("small.mbtiles", "notiles.mbtiles"):
        if os.path.exists(name):
            os.remove(name)
    db = sqlite3.connect("small.mbtiles")
    db.execute("CREATE TABLE metadata (name text, value text)")
    db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
    db.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
    meta = {"name": "small", "format": "pbf", "minzoom": "0", "maxzoom": "2", "bounds": "-180,-85.05113,180,85.05113",
            "json": json.dumps({"vector_layers": [{"id": "tiles", "fields": {"tile": "String"}}]})}
    db.executemany("INSERT INTO metadata VALUES (?, ?)", meta.items())
    for z in range(3):
        for x in range(1 << z):
            for y in range(1 << z):
                mvt = mapbox_vector_tile.encode([{"name": "tiles", "features": [{"geometry": "POINT (2048 2048)", "properties": {"tile": f"{z}/{x}/{y}"}}]}],
                                                default_options={"y_coord_down": True})
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, gzip.compress(mvt, mtime=0)))
    db.commit()
    db.execute("VACUUM")
    db.close()
    db = sqlite3.connect("notiles.mbtiles")
    db.execute("CREATE TABLE metadata (name text, value text)")
    db.commit()
    db.close()


basic()
small()
mbtiles()
open("bomb.gz", "wb").write(gzip.compress(bytes(64 << 20), mtime=0))
