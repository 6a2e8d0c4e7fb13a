#!/usr/bin/env python3
"""MapLibre Native (PyPI's pymgl) drawing nightmap's maps on the CPU, for `make bench-peer`.

MapLibre Native renders through OpenGL; with Mesa's llvmpipe (EGL_PLATFORM=surfaceless) that is
the CPU. It cannot read pmtiles:// sources, so this script serves the tiles of nightmap's archives
from a local HTTP server (127.0.0.1, a port of its own) and rewrites the style's vector sources to
`tiles` templates on it. The style is nightmap's own, less what MapLibre lacks or the peer does not
draw (see Benchmarks/README.md): nightmap.json's basemap layers with the radar image and the route,
or streets.json without its labels (there are no glyphs to serve).

Every camera of the path is rendered once before timing, so all tiles are fetched, parsed and
tessellated and the timed frames are drawing (and reading the pixels back) only, as for nightmap's
bench and cairo_peer. Prints `median MS`, `p95 MS` and `frames N` lines; `--png FILE` writes the
frame at the start camera.
"""
import argparse
import gzip
import http.server
import io
import json
import math
import os
import statistics
import sys
import threading
import time

try:
    import pymgl
    from PIL import Image
    from pmtiles.reader import MmapSource, Reader
except ImportError as e:  # the venv tools/bench-peer.sh makes has them
    sys.exit(f"maplibre_peer: {e} (make bench-peer installs pymgl, numpy, pillow and pmtiles)")


def fail(message):
    sys.exit(f"maplibre_peer: {message}")


class Archive:
    """One PMTiles archive of vector tiles: its tiles, inflated, by z/x/y."""

    def __init__(self, path):
        try:
            self.file = open(path, "rb")
            self.reader = Reader(MmapSource(self.file))
            self.header = self.reader.header()
        except Exception as e:  # pmtiles raises bare Exceptions on bad archives
            fail(f"{path}: not a readable PMTiles archive ({e})")
        self.path = path
        self.lock = threading.Lock()

    def tile(self, z, x, y):
        with self.lock:
            data = self.reader.get(z, x, y)
        if data and data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        return data


def serve(archives, files):
    """Serves /<source>/<z>/<x>/<y>.pbf from the archives and /<name> from files on 127.0.0.1."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            parts = self.path.strip("/").split("/")
            if parts[0] in files:                      # a whole file (the radar image)
                data = files[parts[0]]
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            try:
                name, z, x, y = parts[0], int(parts[1]), int(parts[2]), int(parts[3].split(".")[0])
                data = archives[name].tile(z, x, y)
            except (KeyError, IndexError, ValueError):
                self.send_error(404)
                return
            if not data:
                self.send_response(204)   # no tile here: MapLibre draws nothing, without an error
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def maplibre_layer(layer):
    """A copy of a nightmap style layer without the properties MapLibre does not have."""
    out = dict(layer)
    out["paint"] = {k: v for k, v in layer.get("paint", {}).items() if not k.endswith("-emissive-strength")}
    return out


def style_for(scene, resources, port, archives, files):
    """The style MapLibre draws for a scene, its tile sources on the local server."""
    if scene == "streets":
        doc = json.load(open(os.path.join(resources, "style", "streets.json")))
        layers = [maplibre_layer(l) for l in doc["layers"] if l["type"] != "symbol"]
        vector = {"streets": os.path.join(resources, "streets", "helsinki.pmtiles")}
        extra_sources = {}
    else:
        doc = json.load(open(os.path.join(resources, "style", "nightmap.json")))
        vector = {"basemap": os.path.join(resources, "basemap", "basemap.pmtiles")}
        # The radar image as PNG (MapLibre reads no GIF), at cairo_peer's corners.
        radar = Image.open(os.path.join(resources, "radar", "radar0.gif")).convert("RGBA")
        png = io.BytesIO()
        radar.save(png, "PNG")
        files["radar.png"] = png.getvalue()
        route = json.load(open(os.path.join(resources, "routes", "default.geojson")))
        first = next(f["geometry"]["coordinates"][0] for f in route["features"])
        extra_sources = {
            "radar": {"type": "image", "url": f"http://127.0.0.1:{port}/radar.png",
                      "coordinates": [[-80.425, 46.437], [-71.516, 46.437], [-71.516, 37.936], [-80.425, 37.936]]},
            "route": {"type": "geojson", "data": route},
            "icon": {"type": "geojson", "data": {"type": "Point", "coordinates": first}},
        }
        layers = []
        for l in doc["layers"]:
            if l["type"] == "background" or l.get("source") == "basemap":
                layers.append(maplibre_layer(l))
            if l["id"] == "lakes":
                layers.append({"id": "radar", "type": "raster", "source": "radar",
                               "paint": {"raster-fade-duration": 0, "raster-resampling": "linear"}})
        layers += [
            {"id": "route", "type": "line", "source": "route",
             "layout": {"line-cap": "round", "line-join": "round"},
             "paint": {"line-color": "#ffffff", "line-width": 8}},
            {"id": "icon", "type": "circle", "source": "icon", "paint": {"circle-radius": 12, "circle-color": "#ffffff"}},
        ]
    sources = dict(extra_sources)
    for name, path in vector.items():
        archive = Archive(path)
        archives[name] = archive
        h = archive.header
        sources[name] = {"type": "vector", "tiles": [f"http://127.0.0.1:{port}/{name}/{{z}}/{{x}}/{{y}}.pbf"],
                         "minzoom": h["min_zoom"], "maxzoom": h["max_zoom"]}
    return {"version": 8, "sources": sources, "layers": layers}


def camera(path, i, frames, lat, lon, zoom):
    """nightmap's camera paths (Headless.swift: panLoop, world, streets): (lng, lat, zoom)."""
    t = max(i, 0) / frames * 2 * math.pi
    if path == "loop":
        return lon + 3 * math.sin(t), lat + 1.5 * math.sin(2 * t), zoom
    if path == "world":
        return max(i, 0) / frames * 90, 10 * math.sin(t), zoom
    if path == "streets":
        return lon + 0.005 * math.sin(t), lat + 0.0016 * math.sin(2 * t), zoom
    fail(f"unknown path {path}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--resources", default="Resources")
    p.add_argument("--scene", choices=["basemap", "streets"], default="basemap")
    p.add_argument("--path", choices=["loop", "world", "streets"], default="loop")
    p.add_argument("--size", default="1280x720")
    p.add_argument("--center", help="LAT,LON (default: the path's)")
    p.add_argument("--zoom", type=float)
    p.add_argument("--frames", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--png")
    a = p.parse_args()
    try:
        width, height = (int(v) for v in a.size.split("x"))
    except ValueError:
        fail(f"--size {a.size}: expected WIDTHxHEIGHT")
    defaults = {"loop": (41.874, -75.789, 5), "world": (0, 0, 2), "streets": (60.1716, 24.9443, 15)}[a.path]
    lat, lon = (float(v) for v in a.center.split(",")) if a.center else defaults[:2]
    zoom = a.zoom if a.zoom is not None else defaults[2]
    if a.frames < 1 or a.warmup < 0:
        fail("--frames must be at least 1 and --warmup not negative")

    archives, files = {}, {}
    server = serve(archives, files)
    style = style_for(a.scene, a.resources, server.server_address[1], archives, files)
    lng0, lat0, z0 = camera(a.path, -1, a.frames, lat, lon, zoom)
    m = pymgl.Map(json.dumps(style), width, height, 1, lng0, lat0, z0)

    def render(i):
        lng, la, z = camera(a.path, i, a.frames, lat, lon, zoom)
        m.setCenter(lng, la)
        m.setZoom(z)
        return m.renderBuffer()

    # Every camera once, untimed: tiles fetched and prepared (and the start frame for --png).
    start = render(-1)
    if a.png:
        Image.frombytes("RGBA", (width, height), bytes(start)).save(a.png)
    for i in range(a.frames):
        render(i)
    for i in range(-a.warmup, 0):
        render(i)
    times = []
    for i in range(a.frames):
        t0 = time.perf_counter()
        render(i)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    print(f"median {statistics.median(times):.2f}")
    print(f"p95 {times[min(len(times) - 1, int(0.95 * len(times)))]:.2f}")
    print(f"frames {len(times)}")
    server.shutdown()


if __name__ == "__main__":
    main()
