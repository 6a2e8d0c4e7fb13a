#!/usr/bin/env python3
"""A time-enabled WMS stand-in on 127.0.0.1 for the end-to-end tests (the tests never touch the
internet): a GetMap with TIME=...Z gets a transparent PNG of the asked WIDTH x HEIGHT with one
opaque magenta square whose column depends on the slot (8 pixels per 5-minute slot since the
Unix epoch, wrapping). Usage: wms-standin.py PORTFILE  (writes the port it listens on)."""
import http.server
import socketserver
import struct
import sys
import urllib.parse
import zlib
from datetime import datetime, timezone


def png(width, height, slot):
    """An 8-bit palette PNG: index 0 transparent, index 1 magenta."""
    across = max(1, (width - 4) // 8)
    x0, y0 = 2 + 8 * (slot % across), height // 2 - 2
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        line = bytearray(width)
        if y0 <= y < y0 + 4:
            for x in range(x0, min(width, x0 + 4)):
                line[x] = 1
        rows += line

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
            + chunk(b"PLTE", bytes([0, 0, 0, 255, 0, 255])) + chunk(b"tRNS", bytes([0, 255]))
            + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b""))


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        q = {k.upper(): v[0] for k, v in urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query).items()}
        try:
            t = datetime.strptime(q["TIME"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp()
            w, h = int(q["WIDTH"]), int(q["HEIGHT"])
            assert 0 < w <= 4096 and 0 < h <= 4096
        except (KeyError, ValueError, AssertionError):
            body = b'<?xml version="1.0"?><ServiceExceptionReport><ServiceException>bad request</ServiceException></ServiceExceptionReport>'
            self.send_response(200)
            self.send_header("Content-Type", "application/vnd.ogc.se_xml")
        else:
            body = png(w, h, int(t // 300))
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


if __name__ == "__main__":
    server = Server(("127.0.0.1", 0), Handler)
    with open(sys.argv[1], "w") as f:
        f.write(str(server.server_address[1]))
    server.serve_forever()
