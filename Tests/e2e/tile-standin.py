#!/usr/bin/env python3
"""A tile server stand-in on 127.0.0.1 for the end-to-end tests (the tests never touch the
internet). Usage: tile-standin.py ASSETS PORTFILE LOGFILE

- /raster/{z}/{x}/{y}.png: a 256 x 256 PNG of one colour, red = 40 * x + 20, green = 40 * y + 20,
  blue = 200 (so a pixel tells its tile);
- /vector/{z}-{x}-{y}.mvt: ASSETS/tiles/{z}-{x}-{y}.mvt, gzipped (404 when there is none);
- /html/...: a 200 answer with an HTML error page; /fail/...: 500; /slow/...: an answer after 30 s.
Every answer has an ETag and `Cache-Control: max-age=0`; a request whose If-None-Match matches
gets 304. Each request is logged as "METHOD PATH STATUS" to LOGFILE."""
import gzip
import hashlib
import http.server
import os
import socketserver
import struct
import sys
import time
import zlib

ASSETS, PORTFILE, LOGFILE = sys.argv[1], sys.argv[2], sys.argv[3]


def png(r, g, b, size=256):
    raw = b"".join(b"\x00" + bytes((r, g, b)) * size for _ in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", kind="application/octet-stream"):
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        if status == 200 and self.headers.get("If-None-Match") == etag:
            status, body = 304, b""
        with open(LOGFILE, "a") as log:
            log.write("GET %s %d\n" % (self.path, status))
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("ETag", etag)
        self.send_header("Cache-Control", "max-age=0")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if parts[0] == "raster" and len(parts) == 4:
            z, x, y = int(parts[1]), int(parts[2]), int(parts[3].split(".")[0])
            return self.answer(200, png(min(255, 40 * x + 20), min(255, 40 * y + 20), 200), "image/png")
        if parts[0] == "vector" and len(parts) == 2:
            path = os.path.join(ASSETS, "tiles", parts[1])
            if not os.path.isfile(path):
                return self.answer(404, b"<html>404 Not Found</html>", "text/html")
            with open(path, "rb") as f:
                return self.answer(200, gzip.compress(f.read()), "application/vnd.mapbox-vector-tile")
        if parts[0] == "html":
            return self.answer(200, b"<!DOCTYPE html><html><body>Service temporarily unavailable</body></html>", "text/html")
        if parts[0] == "fail":
            return self.answer(500, b"internal error", "text/plain")
        if parts[0] == "slow":
            time.sleep(30)
            return self.answer(200, png(0, 0, 0), "image/png")
        return self.answer(404, b"not found", "text/plain")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
with open(PORTFILE, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
