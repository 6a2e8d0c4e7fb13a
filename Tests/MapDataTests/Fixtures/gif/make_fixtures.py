#!/usr/bin/env python3
"""Writes the GIF decoder test fixtures, expected.json and nothing else.

    python3 make_fixtures.py [OUTDIR]      (default: the folder of this script)

Standard library only; the output is byte-for-byte deterministic. The GIF bytes are
written by hand (LZW encoder + block writer below) so that interlacing, disposal,
graphics control blocks, local/global colour tables and broken files are fully controlled.

Expected results come from the reference compositor below, which implements the decoder
semantics documented in README.md. Every probe is also written here with a hand-derived
expected colour, and the script refuses to write anything if the compositor disagrees.
"""

import hashlib
import json
import math
import os
import random
import re
import struct
import sys
import zlib

# --------------------------------------------------------------------------------------
# Colours. Every opaque colour has three different channel values so that an RGBA/BGRA/
# ARGB mix-up is visible. MAGENTA is only ever used for palette slots that must never be
# drawn (transparent indices, unused entries).
# --------------------------------------------------------------------------------------
RED = (220, 40, 20)
GREEN = (30, 200, 60)
BLUE = (20, 70, 230)
YELLOW = (250, 210, 40)
CYAN = (40, 210, 225)
ORANGE = (240, 130, 10)
PURPLE = (120, 40, 180)
BROWN = (140, 80, 30)
NAVY = (10, 20, 100)
PINK = (250, 150, 190)
OLIVE = (110, 120, 20)
LIME = (160, 240, 40)
TEAL = (0, 128, 120)
GREY = (128, 129, 130)
BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
MAGENTA = (255, 0, 255)

CLEAR = (0, 0, 0, 0)  # fully transparent canvas pixel (straight alpha)


def opaque(c):
    return (c[0], c[1], c[2], 255)


# --------------------------------------------------------------------------------------
# LZW encoder and GIF block writer
# --------------------------------------------------------------------------------------
class BitWriter:
    """GIF packs variable-width codes least-significant bit first."""

    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.nbits = 0

    def write(self, code, width):
        self.acc |= code << self.nbits
        self.nbits += width
        while self.nbits >= 8:
            self.out.append(self.acc & 0xFF)
            self.acc >>= 8
            self.nbits -= 8

    def flush(self):
        if self.nbits:
            self.out.append(self.acc & 0xFF)
        self.acc = self.nbits = 0
        return bytes(self.out)


def lzw_encode(indices, min_code_size):
    """Variable-width LZW as in the GIF89a spec: starts with a clear code, grows the
    code width up to 12 bits, emits a clear code when the table is full, ends with EOI."""
    clear = 1 << min_code_size
    eoi = clear + 1
    bw = BitWriter()

    def reset():
        return {(i,): i for i in range(clear)}, eoi + 1, min_code_size + 1

    table, next_code, width = reset()
    bw.write(clear, width)
    if not indices:
        bw.write(eoi, width)
        return bw.flush()
    w = (indices[0],)
    for p in indices[1:]:
        wp = w + (p,)
        if wp in table:
            w = wp
            continue
        bw.write(table[w], width)
        if next_code < 4096:
            table[wp] = next_code
            # The decoder learns this entry one code later; the next code we write may be
            # next_code itself, so widen as soon as next_code no longer fits.
            if next_code == (1 << width) and width < 12:
                width += 1
            next_code += 1
        else:
            bw.write(clear, width)
            table, next_code, width = reset()
        w = (p,)
    bw.write(table[w], width)
    # A code added just before EOI may already have widened the code size: the decoder
    # does the same, so EOI is written at the current width.
    bw.write(eoi, width)
    return bw.flush()


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        out.append(len(chunk))
        out += chunk
    out.append(0)
    return bytes(out)


def colour_table(colours):
    """Returns (size_field, bytes); pads with MAGENTA to a power of two (2..256)."""
    n = 2
    while n < len(colours):
        n *= 2
    assert n <= 256
    padded = list(colours) + [MAGENTA] * (n - len(colours))
    return int(math.log2(n)) - 1, b"".join(bytes(c) for c in padded)


def interlace_order(height):
    rows = []
    for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)):
        rows += list(range(start, height, step))
    return rows


class Frame:
    def __init__(self, left, top, width, height, pixels, lct=None, interlace=False,
                 gcb=True, disposal=0, delay=0, transparent=None):
        assert len(pixels) == width * height
        self.left, self.top, self.width, self.height = left, top, width, height
        self.pixels = list(pixels)  # row-major, natural row order
        self.lct = lct
        self.interlace = interlace
        self.gcb = gcb
        self.disposal = disposal
        self.delay = delay
        self.transparent = transparent


def graphics_control_block(f):
    flags = (f.disposal & 7) << 2 | (1 if f.transparent is not None else 0)
    return b"\x21\xf9\x04" + struct.pack("<BHB", flags, f.delay, f.transparent or 0) + b"\x00"


def netscape_loop(count):
    return b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", count) + b"\x00"


def image_block(f, palette_size, min_code_size=None, data=None):
    """Image descriptor + optional local table + LZW data. `data` overrides the encoded
    code stream (already split into sub-blocks) for the broken fixtures."""
    packed = 0x40 if f.interlace else 0
    lct_bytes = b""
    if f.lct is not None:
        size_field, lct_bytes = colour_table(f.lct)
        packed |= 0x80 | size_field
        palette_size = 2 << size_field
    out = b"\x2c" + struct.pack("<HHHHB", f.left, f.top, f.width, f.height, packed) + lct_bytes
    if min_code_size is None:
        min_code_size = max(2, int(math.log2(max(palette_size, 2))))
    if data is None:
        rows = interlace_order(f.height) if f.interlace else range(f.height)
        ordered = []
        for y in rows:
            ordered += f.pixels[y * f.width:(y + 1) * f.width]
        data = sub_blocks(lzw_encode(ordered, min_code_size))
    return out + bytes([min_code_size]) + data


def build_gif(width, height, gct, frames, loop=None, version=b"GIF89a", background=0):
    out = bytearray(version)
    packed = 0
    gct_bytes = b""
    palette_size = 0
    if gct is not None:
        size_field, gct_bytes = colour_table(gct)
        packed = 0x80 | (7 << 4) | size_field  # colour resolution 8 bits
        palette_size = 2 << size_field
    out += struct.pack("<HHBBB", width, height, packed, background, 0) + gct_bytes
    if loop is not None:
        out += netscape_loop(loop)
    for f in frames:
        if f.gcb:
            out += graphics_control_block(f)
        out += image_block(f, palette_size)
    out += b"\x3b"
    return bytes(out)


# --------------------------------------------------------------------------------------
# Reference compositor (the semantics in README.md)
# --------------------------------------------------------------------------------------
def composite(width, height, gct, frames):
    """Returns one RGBA canvas (list of 4-tuples, row-major) per frame."""
    canvas = [CLEAR] * (width * height)
    result = []
    for f in frames:
        before = list(canvas)
        palette = f.lct if f.lct is not None else gct
        assert palette is not None
        for fy in range(f.height):
            y = f.top + fy
            if y >= height:
                break
            for fx in range(f.width):
                x = f.left + fx
                if x >= width:
                    break
                idx = f.pixels[fy * f.width + fx]
                if idx == f.transparent:
                    continue
                c = palette[idx] if idx < len(palette) else MAGENTA
                canvas[y * width + x] = opaque(c)
        result.append(list(canvas))
        if f.disposal == 2:
            for y in range(f.top, min(f.top + f.height, height)):
                for x in range(f.left, min(f.left + f.width, width)):
                    canvas[y * width + x] = CLEAR
        elif f.disposal == 3:
            canvas = before
    return result


# --------------------------------------------------------------------------------------
# Fixtures
# --------------------------------------------------------------------------------------
GOOD = []  # (name, description, bytes, width, height, frames, loop, probes-per-frame)
BAD = []   # (name, description, bytes, error kind)


def good(name, desc, width, height, gct, frames, probes, loop=None, version=b"GIF89a"):
    """probes: one list per frame of (x, y, expected RGBA) written by hand."""
    assert len(probes) == len(frames)
    data = build_gif(width, height, gct, frames, loop=loop, version=version)
    GOOD.append((name, desc, data, width, height, gct, frames, loop, probes))


def bad(name, desc, data, kind, giflib):
    """giflib: what giflib 5.2.1 (Debian 12) does with the file, observed with
    DGifOpenFileName + DGifSlurp; informational, tells which checks giflib does not do."""
    assert kind in ("truncated", "not a GIF", "zero size", "too large", "corrupt data")
    BAD.append((name, desc, data, kind, giflib))


def grid(width, height, fn):
    return [fn(x, y) for y in range(height) for x in range(width)]


# 1. Single frame, global palette, no extensions at all (GIF87a).
#    Quadrants: top-left RED, top-right BLUE, bottom-left YELLOW, bottom-right BLACK,
#    plus a WHITE marker pixel at (1,1) (catches flips and off-by-one).
def _ok01(x, y):
    if (x, y) == (1, 1):
        return 4
    return (0 if x < 8 else 1) + (0 if y < 6 else 2)


good("ok_01_single_global.gif",
     "single frame, 4+1 colour global palette, no extensions (GIF87a), quadrants + marker",
     16, 12, [RED, BLUE, YELLOW, BLACK, WHITE],
     [Frame(0, 0, 16, 12, grid(16, 12, _ok01), gcb=False)],
     [[(0, 0, opaque(RED)), (1, 1, opaque(WHITE)), (7, 5, opaque(RED)),
       (8, 0, opaque(BLUE)), (15, 5, opaque(BLUE)), (0, 6, opaque(YELLOW)),
       (7, 11, opaque(YELLOW)), (8, 6, opaque(BLACK)), (15, 11, opaque(BLACK))]],
     version=b"GIF87a")


# 2. Single frame with GCB transparent index 3 (not 0: decoders that assume 0 fail).
#    Index 3 is MAGENTA in the palette: if it ever shows up it was drawn by mistake.
#    1-pixel transparent border, opaque BLACK checkerboard next to transparent pixels in
#    rows 2..3 (opaque black must stay [0,0,0,255], distinct from transparent [0,0,0,0]).
def _ok02(x, y):
    if x == 0 or y == 0 or x == 11 or y == 9:
        return 3
    if y in (2, 3):
        return 1 if (x + y) % 2 == 0 else 3
    return 0 if x < 6 else 2


good("ok_02_transparent_index.gif",
     "single frame, GCB transparent index 3 (palette colour magenta): border and a "
     "checkerboard of transparent vs opaque black pixels",
     12, 10, [GREEN, BLACK, ORANGE, MAGENTA],
     [Frame(0, 0, 12, 10, grid(12, 10, _ok02), transparent=3)],
     [[(0, 0, CLEAR), (11, 9, CLEAR), (5, 0, CLEAR), (0, 5, CLEAR),
       (2, 2, opaque(BLACK)), (3, 2, CLEAR), (3, 3, opaque(BLACK)), (4, 3, CLEAR),
       (1, 5, opaque(GREEN)), (10, 8, opaque(ORANGE)), (6, 4, opaque(ORANGE))]])


# 3. Interlaced, 10x17: each row y has its own colour ROWS[y], so a decoder that skips
#    de-interlacing (or gets a pass wrong) puts the wrong colour on the row.
ROWS = [(15 * y + 5, 250 - 13 * y, 40 + 11 * y) for y in range(17)]
_ok03_probes = [(y % 10, y, opaque(ROWS[y])) for y in range(17)] + [(9, 16, opaque(ROWS[16]))]
good("ok_03_interlaced.gif",
     "interlaced 10x17 (all four passes), every row a different colour",
     10, 17, ROWS,
     [Frame(0, 0, 10, 17, grid(10, 17, lambda x, y: y), interlace=True, gcb=False)],
     [_ok03_probes])


# 4. Local colour table overriding the global one.
#    Frame 0: whole screen from the global table: left half index 1 (GREEN), right half
#             index 2 (BLUE). Disposal 1.
#    Frame 1: rect (4,2) 6x4 with an 8-entry local table (indices 0..7 are all different
#             from the global colours, and it is bigger than the global table); pixel
#             index = (fx + fy) % 8. Disposal 1.
#    Frame 2: rect (0,6) 4x2, no local table again -> back to the global table (the local
#             one must not stick): indices 1, 2, 3.
GCT4 = [BLACK, GREEN, BLUE, WHITE]
LCT8 = [RED, YELLOW, CYAN, ORANGE, PURPLE, BROWN, PINK, TEAL]
_ok04_f0 = Frame(0, 0, 12, 8, grid(12, 8, lambda x, y: 1 if x < 6 else 2), disposal=1, delay=10)
_ok04_f1 = Frame(4, 2, 6, 4, grid(6, 4, lambda x, y: (x + y) % 8), lct=LCT8, disposal=1, delay=10)
_ok04_f2 = Frame(0, 6, 4, 2, grid(4, 2, lambda x, y: 1 + (x % 3)), disposal=1, delay=10)
good("ok_04_local_overrides_global.gif",
     "frame 1 has an 8-colour local table overriding a 4-colour global one; frame 2 "
     "has none and must use the global table again",
     12, 8, GCT4, [_ok04_f0, _ok04_f1, _ok04_f2],
     [[(0, 0, opaque(GREEN)), (5, 7, opaque(GREEN)), (6, 0, opaque(BLUE)), (11, 7, opaque(BLUE))],
      [(4, 2, opaque(RED)),        # local index 0 (global 0 would be BLACK)
       (5, 2, opaque(YELLOW)),     # local 1 (global 1 = GREEN)
       (6, 2, opaque(CYAN)),       # local 2 (global 2 = BLUE)
       (7, 2, opaque(ORANGE)),
       (9, 3, opaque(PINK)),       # fx 5, fy 1 -> local 6
       (8, 5, opaque(TEAL)),       # fx 4, fy 3 -> local 7
       (9, 5, opaque(RED)),        # fx 5, fy 3 -> 8 % 8 = local 0
       (3, 2, opaque(GREEN)), (10, 2, opaque(BLUE)), (4, 6, opaque(GREEN))],
      [(0, 6, opaque(GREEN)), (1, 6, opaque(BLUE)), (2, 7, opaque(WHITE)), (3, 7, opaque(GREEN)),
       (4, 6, opaque(GREEN)), (9, 5, opaque(RED)), (4, 2, opaque(RED))]])


# 5. Animation, 20x16, NETSCAPE2.0 loop 0 (forever), sub-rectangles, all disposals.
#    F0 (0,0) 20x16 opaque: x<10 GREEN (1), x>=10 BLUE (2). Disposal 1 (keep).
#    F1 (2,2) 6x5 = x 2..7, y 2..6: YELLOW (3), transparent index 0 at frame pixels
#       (0,0) and (3,2) -> canvas (2,2) and (5,4) keep GREEN. Disposal 2: afterwards the
#       WHOLE rectangle is cleared to transparent, including the two pixels the frame
#       did not draw.
#    F2 (6,4) 8x8 = x 6..13, y 4..11: checkerboard ORANGE (4) / transparent (0) where
#       (fx+fy) odd. Transparent pixels over the cleared hole stay transparent, over
#       GREEN/BLUE stay GREEN/BLUE. Disposal 3: restores the canvas as it was before F2
#       (with the hole).
#    F3 (12,0) 8x6 = x 12..19, y 0..5: PURPLE (5), column fx == 2 transparent.
#       No disposal specified (0). F2's pixels are gone, the hole is still there.
#    F4 (1,1) 4x4 = x 1..4, y 1..4: PINK (6) where (fx+fy) even, transparent otherwise;
#       straddles the hole's top-left corner. Disposal 1.
GCT16 = [MAGENTA, GREEN, BLUE, YELLOW, ORANGE, PURPLE, PINK, NAVY,
         OLIVE, LIME, TEAL, GREY, BROWN, CYAN, WHITE, BLACK]
_ok05_frames = [
    Frame(0, 0, 20, 16, grid(20, 16, lambda x, y: 1 if x < 10 else 2), disposal=1, delay=10),
    Frame(2, 2, 6, 5, grid(6, 5, lambda x, y: 0 if (x, y) in ((0, 0), (3, 2)) else 3),
          disposal=2, delay=20, transparent=0),
    Frame(6, 4, 8, 8, grid(8, 8, lambda x, y: 4 if (x + y) % 2 == 0 else 0),
          disposal=3, delay=30, transparent=0),
    Frame(12, 0, 8, 6, grid(8, 6, lambda x, y: 0 if x == 2 else 5),
          disposal=0, delay=40, transparent=0),
    Frame(1, 1, 4, 4, grid(4, 4, lambda x, y: 6 if (x + y) % 2 == 0 else 0),
          disposal=1, delay=50, transparent=0),
]
good("ok_05_animated_disposal.gif",
     "5 frames, NETSCAPE2.0 loop 0, sub-rectangles at offsets, disposal 1 -> 2 -> 3 -> 0 -> 1, "
     "transparency in frames 1-4 (including transparent pixels over a disposal-2 hole)",
     20, 16, GCT16, _ok05_frames,
     [
         # frame 0: the background
         [(0, 0, opaque(GREEN)), (9, 15, opaque(GREEN)), (10, 0, opaque(BLUE)), (19, 15, opaque(BLUE))],
         # frame 1: yellow rect, two holes in it showing GREEN, outside untouched
         [(3, 3, opaque(YELLOW)), (7, 6, opaque(YELLOW)), (2, 2, opaque(GREEN)), (5, 4, opaque(GREEN)),
          (1, 2, opaque(GREEN)), (8, 2, opaque(GREEN)), (12, 3, opaque(BLUE))],
         # frame 2: F1 rect cleared (also where F1 was transparent), F2 checkerboard on top
         [(2, 2, CLEAR), (5, 4, CLEAR), (3, 3, CLEAR), (7, 6, CLEAR), (4, 6, CLEAR),
          (6, 4, opaque(ORANGE)), (7, 4, CLEAR),       # transparent F2 pixel over the hole
          (7, 5, opaque(ORANGE)), (6, 5, CLEAR),
          (6, 7, GREEN + (255,)),                       # transparent F2 pixel over GREEN
          (7, 7, opaque(ORANGE)), (10, 4, opaque(ORANGE)), (11, 4, opaque(BLUE)),
          (13, 11, opaque(ORANGE)), (14, 4, opaque(BLUE)), (8, 1, opaque(GREEN))],
         # frame 3: F2 undone (disposal 3), hole still there, F3 purple with a gap column
         [(6, 4, CLEAR), (7, 5, CLEAR), (7, 7, opaque(GREEN)), (10, 4, opaque(BLUE)),
          (13, 11, opaque(BLUE)), (3, 3, CLEAR), (2, 2, CLEAR),
          (12, 0, opaque(PURPLE)), (13, 5, opaque(PURPLE)), (14, 0, opaque(BLUE)),
          (14, 5, opaque(BLUE)), (19, 5, opaque(PURPLE)), (19, 6, opaque(BLUE))],
         # frame 4: pink checkerboard straddling the hole corner; F3 kept (disposal 0)
         [(1, 1, opaque(PINK)), (2, 1, opaque(GREEN)), (1, 2, opaque(GREEN)),
          (2, 2, opaque(PINK)), (3, 2, CLEAR), (2, 3, CLEAR), (3, 3, opaque(PINK)),
          (4, 4, opaque(PINK)), (4, 3, CLEAR), (5, 4, CLEAR), (4, 1, opaque(GREEN)),
          (12, 0, opaque(PURPLE)), (14, 0, opaque(BLUE)), (7, 7, opaque(GREEN))],
     ],
     loop=0)


# 6. Frames reaching past the logical screen (12x8).
#    F0 (0,0) 12x8 opaque, vertical stripes index x % 3. Disposal 1.
#    F1 (8,5) 8x6 -> x 8..15, y 5..10; only x 8..11, y 5..7 is visible. Pixel index
#       3 + (fx + 2*fy) % 3, so a wrong stride while clipping shows. Disposal 2: the
#       clear is clipped too.
#    F2 (30,20) 4x4, entirely outside the screen: draws nothing. Disposal 1.
_ok06_g = [RED, GREEN, BLUE, YELLOW, CYAN, PURPLE]
good("ok_06_frame_beyond_screen.gif",
     "12x8 screen; frame 1 is 8x6 at (8,5) (clipped, then disposal 2 clears only the "
     "visible part); frame 2 lies entirely outside the screen",
     12, 8, _ok06_g,
     [Frame(0, 0, 12, 8, grid(12, 8, lambda x, y: x % 3), disposal=1, delay=10),
      Frame(8, 5, 8, 6, grid(8, 6, lambda x, y: 3 + (x + 2 * y) % 3), disposal=2, delay=10),
      Frame(30, 20, 4, 4, grid(4, 4, lambda x, y: 4), disposal=1, delay=10)],
     [[(0, 0, opaque(RED)), (1, 0, opaque(GREEN)), (2, 7, opaque(BLUE)), (11, 7, opaque(BLUE))],
      [(8, 5, opaque(YELLOW)), (9, 5, opaque(CYAN)), (11, 5, opaque(YELLOW)),
       (8, 6, opaque(PURPLE)), (11, 6, opaque(PURPLE)), (8, 7, opaque(CYAN)), (11, 7, opaque(CYAN)),
       (7, 5, opaque(GREEN)), (11, 4, opaque(BLUE))],
      [(8, 5, CLEAR), (11, 7, CLEAR), (10, 6, CLEAR), (7, 5, opaque(GREEN)),
       (11, 4, opaque(BLUE)), (0, 0, opaque(RED))]])


# 7. No global colour table; each frame has its own local table.
#    F0 (0,0) 10x6 (the screen is 10x8: rows 6..7 are never drawn and stay transparent),
#       local table [NAVY, LIME, WHITE, BROWN], index (x // 3) % 4. Disposal 1.
#    F1 (3,2) 5x4 = x 3..7, y 2..5, 2-entry local table [OLIVE, MAGENTA], transparent
#       index 1 where fx == fy. Disposal 1.
good("ok_07_local_tables_only.gif",
     "no global colour table, two frames with different local tables (4 and 2 colours, "
     "the second with a transparent index); the first frame does not cover the screen",
     10, 8, None,
     [Frame(0, 0, 10, 6, grid(10, 6, lambda x, y: (x // 3) % 4), lct=[NAVY, LIME, WHITE, BROWN],
            disposal=1, delay=10),
      Frame(3, 2, 5, 4, grid(5, 4, lambda x, y: 1 if x == y else 0), lct=[OLIVE, MAGENTA],
            disposal=1, delay=10, transparent=1)],
     [[(0, 0, opaque(NAVY)), (3, 0, opaque(LIME)), (6, 5, opaque(WHITE)), (9, 5, opaque(BROWN)),
       (0, 6, CLEAR), (9, 7, CLEAR)],
      [(3, 2, opaque(LIME)), (4, 3, opaque(LIME)), (6, 5, opaque(WHITE)),  # fx == fy: transparent
       (7, 5, opaque(OLIVE)), (4, 2, opaque(OLIVE)), (3, 5, opaque(OLIVE)),
       (8, 2, opaque(WHITE)), (5, 6, CLEAR)]])


# 8. Radar-sized single frame, 600x573, 16-colour global table, GCB transparent index 0.
#    Concentric rings around (300,286) (ring = 1 + (r // 35) % 8, r = integer distance),
#    transparent outside r > 280, grey grid lines on x % 100 == 0 and y % 100 == 0
#    inside the disc. Big enough that the LZW table fills and clear codes are used.
RADAR = [MAGENTA, (0, 236, 236), (1, 160, 246), (0, 0, 246), (0, 255, 0), (0, 200, 0),
         (0, 144, 0), (255, 255, 0), (231, 192, 0), (140, 140, 145)]


def _radar(x, y):
    r = math.isqrt((x - 300) ** 2 + (y - 286) ** 2)
    if r > 280:
        return 0
    if x % 100 == 0 or y % 100 == 0:
        return 9
    return 1 + (r // 35) % 8


good("ok_08_radar_600x573.gif",
     "600x573 single frame (radar size): rings, grid lines, transparent outside the disc; "
     "LZW table fills up several times",
     600, 573, RADAR,
     [Frame(0, 0, 600, 573, grid(600, 573, _radar), transparent=0, disposal=1)],
     [[(0, 0, CLEAR), (599, 572, CLEAR), (599, 0, CLEAR), (0, 572, CLEAR),
       (301, 286, opaque(RADAR[1])),      # r = 1
       (301, 251, opaque(RADAR[2])),      # r = 35
       (335, 286, opaque(RADAR[2])),      # r = 35
       (334, 286, opaque(RADAR[1])),      # r = 34
       (300, 286, opaque(RADAR[9])),      # centre lies on the x = 300 grid line
       (400, 300, opaque(RADAR[9])), (350, 200, opaque(RADAR[9])),
       (301, 566, opaque(RADAR[1])),      # r = 280 (last opaque), 280 // 35 = 8 -> ring 1
       (301, 567, CLEAR),                 # r = 281
       (520, 286, opaque(RADAR[7])),      # r = 220 -> 6 -> ring 7
       (101, 286, opaque(RADAR[6]))]])    # r = 199 -> 5 -> ring 6


# --------------------------------------------------------------------------------------
# Bad fixtures
# --------------------------------------------------------------------------------------
def _bad_truncated():
    f = Frame(0, 0, 40, 30, grid(40, 30, lambda x, y: (x * 7 + y * 3 + (x * y) % 5) % 16),
              disposal=1)
    full = build_gif(40, 30, GCT16, [f])
    header_len = 6 + 7 + 48 + 8 + 10 + 1  # signature, screen, GCT, GCB, descriptor, code size
    data_len = len(full) - header_len - 1
    return full[:header_len + data_len // 2]


def _png_1x1():
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + \
            struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x00\x00\xff", 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def _screen(width, height, gct):
    size_field, table = colour_table(gct) if gct else (0, b"")
    packed = (0x80 | 0x70 | size_field) if gct else 0
    return b"GIF89a" + struct.pack("<HHBBB", width, height, packed, 0, 0) + table


def _descriptor(left, top, width, height, packed=0):
    return b"\x2c" + struct.pack("<HHHHB", left, top, width, height, packed)


def _bad_zero_size():
    # Screen 0x0, but a perfectly valid 1x1 image: the decoder must refuse the screen.
    return (_screen(0, 0, [RED, BLUE]) + _descriptor(0, 0, 1, 1) + b"\x02" +
            sub_blocks(lzw_encode([1], 2)) + b"\x3b")


def _bad_too_large():
    # Screen and image 60000x60000 (3.6 Gpixel), with a handful of data bytes.
    return (_screen(60000, 60000, [RED, BLUE]) + _descriptor(0, 0, 60000, 60000) + b"\x02" +
            sub_blocks(lzw_encode([0, 1, 0, 1], 2)) + b"\x3b")


def _bad_corrupt_lzw():
    # Valid 16x12 header, GCT and descriptor, code size 2 (clear = 4, EOI = 5, first free
    # code 6). The stream is: clear, then code 7, which is not defined (nothing has been
    # added to the table, and without a previous code there is no KwKwK case), then
    # seeded random bytes.
    bw = BitWriter()
    bw.write(4, 3)
    bw.write(7, 3)
    bw.write(7, 3)
    rng = random.Random(20240601)
    garbage = bw.flush() + bytes(rng.randrange(256) for _ in range(40))
    return (_screen(16, 12, [RED, GREEN, BLUE, YELLOW]) + _descriptor(0, 0, 16, 12) + b"\x02" +
            sub_blocks(garbage) + b"\x3b")


def _bad_code_size_12():
    # Same, but the LZW minimum code size byte is 12 (allowed maximum is 8).
    rng = random.Random(12)
    garbage = bytes(rng.randrange(256) for _ in range(40))
    return (_screen(16, 12, [RED, GREEN, BLUE, YELLOW]) + _descriptor(0, 0, 16, 12) + b"\x0c" +
            sub_blocks(garbage) + b"\x3b")


def _bad_no_colour_table():
    # No global table, no local table, otherwise a valid 8x6 image with valid LZW data.
    f = Frame(0, 0, 8, 6, grid(8, 6, lambda x, y: (x + y) % 4), gcb=False)
    return _screen(8, 6, None) + image_block(f, 4) + b"\x3b"


bad("bad_a_truncated.gif",
    "valid 40x30 GIF cut in the middle of a sub-block of the image data (no terminator, "
    "no trailer)", _bad_truncated(), "truncated",
    "DGifSlurp fails, D_GIF_ERR_READ_FAILED (102)")
bad("bad_b_png_named_gif.gif", "a real 1x1 PNG file named .gif", _png_1x1(), "not a GIF",
    "DGifOpen fails, D_GIF_ERR_NOT_GIF_FILE (103)")
bad("bad_b_html_named_gif.gif", "an HTML error page named .gif (what a failing server returns)",
    b"<html><head><title>404 Not Found</title></head><body>Not Found</body></html>\n",
    "not a GIF", "DGifOpen fails, D_GIF_ERR_NOT_GIF_FILE (103)")
bad("bad_c_empty.gif", "empty file (0 bytes)", b"", "not a GIF",
    "DGifOpen fails, D_GIF_ERR_READ_FAILED (102), the same code as a truncated file: "
    "check the 6-byte signature before calling giflib")
bad("bad_d_zero_screen.gif", "logical screen 0x0 (with a valid 1x1 image)", _bad_zero_size(),
    "zero size", "accepted: DGifOpen and DGifSlurp succeed with SWidth = SHeight = 0")
bad("bad_e_too_large.gif",
    "logical screen and image 60000x60000 with 5 bytes of LZW data: refuse before allocating",
    _bad_too_large(), "too large",
    "DGifOpen succeeds (SWidth/SHeight = 60000 are known here: refuse now); DGifSlurp "
    "returns GIF_ERROR with Error still 0 (its Width > INT_MAX / Height check)")
bad("bad_f_corrupt_lzw.gif",
    "valid 16x12 header/descriptor, LZW stream = clear, undefined code 7, random bytes",
    _bad_corrupt_lzw(), "corrupt data", "DGifSlurp fails, D_GIF_ERR_IMAGE_DEFECT (112)")
bad("bad_f_code_size_12.gif",
    "valid 16x12 header/descriptor, LZW minimum code size byte 12 (max is 8), random bytes",
    _bad_code_size_12(), "corrupt data",
    "DGifSlurp fails, D_GIF_ERR_READ_FAILED (102), the same code as a truncated file, "
    "although the file is not short")
bad("bad_g_no_colour_table.gif",
    "8x6 image with valid LZW data but no global and no local colour table",
    _bad_no_colour_table(), "corrupt data",
    "accepted: DGifSlurp succeeds, SColorMap and ImageDesc.ColorMap are both NULL")


# --------------------------------------------------------------------------------------
# Check hand-written probes against the compositor, then write everything
# --------------------------------------------------------------------------------------
def rgba_bytes(canvas):
    return b"".join(bytes(p) for p in canvas)


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    expected = {
        "semantics": "canvas = logical screen, starts transparent; frame drawn at its offset, "
                     "clipped; local table else global; GCB transparent index not drawn; "
                     "canvas after frame k = frame k; then disposal: 0/1 keep, 2 clear the "
                     "frame rectangle to transparent, 3 restore the canvas from before the "
                     "frame. Probes are [x, y, r, g, b, a], straight alpha, transparent = "
                     "[0, 0, 0, 0]. rgbaSHA256 = SHA-256 of the whole canvas as RGBA8, "
                     "row-major, top row first.",
        "good": [],
        "bad": [],
    }
    errors = []
    for name, desc, data, w, h, gct, frames, loop, probes in GOOD:
        canvases = composite(w, h, gct, frames)
        entry = {"file": name, "width": w, "height": h, "frameCount": len(frames),
                 "loopCount": loop, "frames": []}
        for k, (canvas, f, plist) in enumerate(zip(canvases, frames, probes)):
            out = []
            seen = set()
            for x, y, want in plist:
                assert 0 <= x < w and 0 <= y < h, (name, k, x, y)
                assert (x, y) not in seen, (name, k, x, y)
                seen.add((x, y))
                got = canvas[y * w + x]
                if tuple(got) != tuple(want):
                    errors.append(f"{name} frame {k} ({x},{y}): hand-written {want}, compositor {got}")
                out.append([x, y, *got])
            entry["frames"].append({
                "delayCs": f.delay if f.gcb else 0,
                "disposal": f.disposal if f.gcb else 0,
                "rgbaSHA256": hashlib.sha256(rgba_bytes(canvas)).hexdigest(),
                "probes": out,
            })
        expected["good"].append(entry)
    if errors:
        sys.exit("probe mismatch, nothing written:\n  " + "\n  ".join(errors))

    for name, desc, data, kind, giflib in BAD:
        expected["bad"].append({"file": name, "error": kind, "giflib": giflib})

    for name, desc, data, *_ in GOOD:
        with open(os.path.join(outdir, name), "wb") as fh:
            fh.write(data)
    for name, desc, data, *_ in BAD:
        with open(os.path.join(outdir, name), "wb") as fh:
            fh.write(data)
    with open(os.path.join(outdir, "expected.json"), "w") as fh:
        fh.write(_dump(expected))
    for name, desc, data, *_ in GOOD + BAD:
        print(f"{len(data):7d}  {name}")


def _dump(expected):
    """JSON with one probe per line: readable diffs, stable bytes."""
    text = json.dumps(expected, indent=2)
    # Collapse the innermost [x, y, r, g, b, a] arrays onto one line.
    return re.sub(r"\[\s+(-?\d+),\s+(-?\d+),\s+(-?\d+),\s+(-?\d+),\s+(-?\d+),\s+(-?\d+)\s+\]",
                  lambda m: "[" + ", ".join(m.groups()) + "]", text) + "\n"


if __name__ == "__main__":
    main()
