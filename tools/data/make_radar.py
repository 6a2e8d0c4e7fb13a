#!/usr/bin/env python3
"""Generate the five SYNTHETIC demo weather-radar frames Resources/radar/radar0..4.gif.

The frames imitate an NWS base-reflectivity composite over the US Northeast: a SW-NE cold-front
band with embedded convective cores and trailing stratiform rain, scattered showers, lots of clear
air. Everything is built from seeded spectral (fBm) noise, so a rerun with the same numpy and
Pillow versions gives byte-identical GIFs. See Resources/radar/README.md.

Usage: make_radar.py --out Resources/radar [--preview /tmp/radar-preview.png]
"""
import argparse
import hashlib
import json
import math
import os

import numpy as np
from PIL import Image

# ---------------------------------------------------------------------------------------------
# Geometry: a lat/lon grid, row 0 = north, rows evenly spaced in latitude.
WIDTH, HEIGHT = 600, 573
LON_W, LON_E = -80.425, -71.516
LAT_S, LAT_N = 37.936, 46.437
FRAMES = 5
FRAME_MINUTES = 10.0

SEED = 20240617

# NWS WSR-88D base reflectivity colours (RIDGE N0R legend), 5 dBZ bins from 5 to 75 dBZ.
# The table of Tests/Fixtures/radar/nws_reflectivity_colors.json (see README.md), checked below.
NWS_BINS = [
    (5, "#04e9e7"), (10, "#019ff4"), (15, "#0300f4"),
    (20, "#02fd02"), (25, "#01c501"), (30, "#008e00"),
    (35, "#fdf802"), (40, "#e5bc00"), (45, "#fd9500"),
    (50, "#fd0000"), (55, "#d40000"), (60, "#bc0000"),
    (65, "#f800fd"), (70, "#9854c6"), (75, "#fdfdfd"),
]
TRANSPARENT = 0          # palette index 0: < 5 dBZ, transparent
TRANSPARENT_RGB = (0, 0, 0)

# Working plane: a 1 km grid, periodic (FFT), big enough to hold the box plus the drift.
GRID_N = 1024
GRID_KM = 1.0
R_EARTH_KM = 6371.0088
KM_PER_DEG = R_EARTH_KM * math.pi / 180.0
LON_C = 0.5 * (LON_W + LON_E)
LAT_C = 0.5 * (LAT_S + LAT_N)


# The same table as the repository keeps it for reference (checked when it is there).
REFERENCE_TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Fixtures",
                            "radar", "nws_reflectivity_colors.json")


def check_table():
    if not os.path.isfile(REFERENCE_TABLE):
        return
    with open(REFERENCE_TABLE) as fh:
        bins = {lo: h.lower() for lo, h in json.load(fh)["bins"]}
    for lo, h in NWS_BINS:
        assert bins[lo] == h.lower(), f"colour of the {lo} dBZ bin differs from {REFERENCE_TABLE}"
    print("colour table matches", os.path.normpath(REFERENCE_TABLE))


def hex_rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def velocity(speed_kmh, bearing_deg):
    """(east, north) km/h for a speed and a compass bearing (direction of motion)."""
    b = math.radians(bearing_deg)
    return speed_kmh * math.sin(b), speed_kmh * math.cos(b)


FRONT_V = velocity(40.0, 112.5)   # cold front: ESE at 40 km/h
CELL_V = velocity(50.0, 45.0)     # cells / showers: NE at 50 km/h (along the band)
FRONT_AZ = 38.0                   # the front runs SW-NE (azimuth of its NE direction)
FRONT_P0 = (-77.4, 41.0)          # a point of the front at t = 0 (lon, lat)
FRONT_BOW_KM = 2500.0             # radius of the front's forward bow


def lonlat_to_km(lon, lat):
    """Sinusoidal projection about the box centre (true local km; shapes stay right)."""
    x = (lon - LON_C) * KM_PER_DEG * np.cos(np.radians(lat))
    y = (lat - LAT_C) * KM_PER_DEG
    return x, y


# ---------------------------------------------------------------------------------------------
class SpectralField:
    """Band-limited fBm noise on the periodic GRID_N x GRID_N km plane.

    Amplitude |k|^(-beta/2) between the scales lmin and lmax (smooth roll-offs), optionally
    stretched along an azimuth (anisotropy). Time enters twice in Fourier space:
      * advection: phase shift exp(-i k.v t)  -> the whole field translates exactly by v t;
      * evolution: every mode's phase turns at its own random rate ~ 1/tau(L), with
        tau(L) = tau10 * (L / 10 km)^0.7, so small scales change faster than big ones and
        consecutive frames stay strongly correlated.
    The field is scaled to unit standard deviation (the same factor for every t).
    """

    def __init__(self, rng, beta, lmin, lmax, velocity_kmh, tau10_h, stretch=1.0, stretch_az=45.0):
        n = GRID_N
        kx = np.fft.rfftfreq(n, d=GRID_KM) * 2 * math.pi       # rad / km, last axis = x (east)
        ky = np.fft.fftfreq(n, d=GRID_KM) * 2 * math.pi        # first axis = y (north)
        KX, KY = np.meshgrid(kx, ky)
        self.KX, self.KY = KX, KY
        # anisotropy: shrink wavenumbers along the stretch direction -> longer features there
        a = math.radians(stretch_az)
        ua = (math.sin(a), math.cos(a))
        k_al = KX * ua[0] + KY * ua[1]
        k_cr = -KX * ua[1] + KY * ua[0]
        k = np.hypot(k_al * stretch, k_cr)
        k0 = 2 * math.pi / lmax
        k1 = 2 * math.pi / lmin
        with np.errstate(divide="ignore"):
            amp = np.where(k > 0, k, 1.0) ** (-beta / 2.0)
        amp *= (k * k) / (k * k + k0 * k0)                     # large-scale roll-off
        amp *= np.exp(-((k / k1) ** 2))                        # small-scale roll-off
        amp[0, 0] = 0.0
        phase = rng.uniform(0.0, 2 * math.pi, size=k.shape)
        kk = np.hypot(KX, KY)
        length = np.where(kk > 0, 2 * math.pi / np.where(kk > 0, kk, 1.0), 1e9)
        tau = tau10_h * (length / 10.0) ** 0.7
        rate = rng.choice([-1.0, 1.0], size=k.shape) * (1.0 + 0.3 * rng.standard_normal(k.shape)) / tau
        self.amp, self.phase, self.rate = amp, phase, rate
        self.v = velocity_kmh
        self.scale = 1.0
        f0 = self.grid(0.0)
        self.scale = 1.0 / float(f0.std())

    def grid(self, t_h):
        ph = self.phase + self.rate * t_h - (self.KX * self.v[0] + self.KY * self.v[1]) * t_h
        spec = self.amp * np.exp(1j * ph)
        return np.fft.irfft2(spec, s=(GRID_N, GRID_N)) * self.scale


class Sampler:
    """Bilinear sampling of working-plane grids at the output pixel centres."""

    def __init__(self):
        lon = LON_W + (np.arange(WIDTH) + 0.5) * (LON_E - LON_W) / WIDTH
        lat = LAT_N - (np.arange(HEIGHT) + 0.5) * (LAT_N - LAT_S) / HEIGHT
        LON, LAT = np.meshgrid(lon, lat)
        self.x, self.y = lonlat_to_km(LON, LAT)                # km, (HEIGHT, WIDTH)
        gx = self.x / GRID_KM + GRID_N / 2
        gy = self.y / GRID_KM + GRID_N / 2
        ix = np.floor(gx).astype(np.int64)
        iy = np.floor(gy).astype(np.int64)
        assert ix.min() >= 0 and iy.min() >= 0 and ix.max() + 1 < GRID_N and iy.max() + 1 < GRID_N
        self.ix, self.iy = ix, iy
        self.fx, self.fy = gx - ix, gy - iy

    def __call__(self, g):
        ix, iy, fx, fy = self.ix, self.iy, self.fx, self.fy
        g00 = g[iy, ix]
        g01 = g[iy, ix + 1]
        g10 = g[iy + 1, ix]
        g11 = g[iy + 1, ix + 1]
        return (g00 * (1 - fx) + g01 * fx) * (1 - fy) + (g10 * (1 - fx) + g11 * fx) * fy


def sig(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def relu(z):
    return np.maximum(z, 0.0)


# ---------------------------------------------------------------------------------------------
def build_fields():
    ss = np.random.SeedSequence(SEED)
    rngs = [np.random.default_rng(s) for s in ss.spawn(8)]
    f = {}
    # front meander (very large scales, moves with the front, evolves slowly)
    f["meander"] = SpectralField(rngs[0], 4.0, 200.0, 1000.0, FRONT_V, 8.0)
    # large-scale intensity / width modulation of band and shield
    f["large"] = SpectralField(rngs[1], 3.0, 30.0, 500.0, FRONT_V, 5.0)
    # multi-scale texture of all precipitation (moves with the steering flow)
    f["texture"] = SpectralField(rngs[2], 2.8, 3.5, 120.0, CELL_V, 1.5)
    # convective cells: small, elongated a little along the flow, faster life cycle
    f["cells"] = SpectralField(rngs[3], 2.4, 2.5, 40.0, CELL_V, 0.9, stretch=1.6, stretch_az=40.0)
    # scattered showers (ahead of and behind the front)
    f["showers"] = SpectralField(rngs[4], 3.4, 5.0, 70.0, CELL_V, 0.9, stretch=1.6, stretch_az=40.0)
    # where showers are allowed (large scale)
    f["activity"] = SpectralField(rngs[5], 3.5, 60.0, 600.0, CELL_V, 6.0)
    return f, rngs[6]


def frame_dbz(fields, sampler, t_h, speckle_rng):
    S = lambda name: sampler(fields[name].grid(t_h))
    x, y = sampler.x, sampler.y
    M, L, T, K, Sh, A = S("meander"), S("large"), S("texture"), S("cells"), S("showers"), S("activity")

    # front geometry: a SW-NE line (azimuth FRONT_AZ) through FRONT_P0 at t=0, moving with FRONT_V
    az = math.radians(FRONT_AZ)
    u = (math.sin(az), math.cos(az))          # along the front, towards NE
    nrm = (u[1], -u[0])                       # normal, towards SE (ahead of the front)
    p0x, p0y = lonlat_to_km(*FRONT_P0)
    px = x - (p0x + FRONT_V[0] * t_h)
    py = y - (p0y + FRONT_V[1] * t_h)
    s = px * u[0] + py * u[1]                 # km along the front
    d = px * nrm[0] + py * nrm[1]             # km ahead (+) / behind (-) of the front
    d = d + s * s / (2.0 * FRONT_BOW_KM)       # gently bowed forward in the middle
    d = d + 22.0 * M + 4.0 * L + 3.0 * T      # meandering, ragged front position

    # along-front: the band fades out towards the NE (it crosses only part of the box),
    # breaking up into separate segments near its end
    s_end = 400.0 + 50.0 * L + 40.0 * T
    along = sig((s + 700.0) / 60.0) * sig(-(s - s_end) / 70.0)

    # stratiform shield trailing the line (NW of it) and a thin pre-frontal band
    shield_w = 95.0 + 35.0 * np.tanh(0.7 * L)
    e_strat = sig((d + shield_w) / 16.0) * sig(-(d - 6.0) / 5.0) * along * (0.85 + 0.15 * np.tanh(L))
    e_pre = sig((d - 25.0) / 8.0) * sig(-(d - 70.0) / 12.0) * along * (0.5 + 0.5 * np.tanh(L - 0.3))
    depth = np.clip(-d / shield_w, 0.0, 1.0)            # 0 at the line, 1 at the back edge
    z_mean = np.where(d < 0, 24.0 - 9.0 * depth, 24.0) + 3.0 * L
    env = np.maximum(e_strat, 0.6 * e_pre)
    z = -25.0 * (1.0 - env) + z_mean * env + 7.0 * T

    # convective line: narrow (flat-topped profile), cores where the cell field peaks
    line_w = 12.0 + 5.0 * np.tanh(L)
    kk = K + 0.25 * T + 0.35 * np.tanh(L + 0.4)
    dl = d + 2.0 - 3.0 * relu(kk)             # strong cells bulge ahead of the line
    e_line = np.where(dl > 0, sig((line_w - dl) / 3.0), sig((line_w + dl) / 2.0)) * along
    core = relu(kk - 0.5)
    z_line = 36.0 + 6.0 * kk + 10.0 * core + 2.0 * core * core
    z = np.maximum(z, z_line * e_line + z * (1.0 - e_line))

    # scattered showers: peaks of the shower field where the large-scale activity allows
    # (more of them in the warm sector ahead of the front, fewer far behind it)
    sector = 0.4 + 0.6 * sig((d - 60.0) / 25.0) * sig(-(d - 380.0) / 40.0)
    act = sig((A - 0.3) / 0.3) * sector * (1.0 - e_strat)
    sh = Sh + 0.35 * T - (1.0 + 2.0 * (1.0 - act))
    z_sh = 7.0 + 15.0 * sh + 9.0 * relu(sh) ** 2
    z = np.maximum(z, z_sh)

    # soft cap: cores top out in the low 60s dBZ (a rare 65+ pixel stays possible)
    z = np.where(z > 45.0, 45.0 + 20.0 * np.tanh((z - 45.0) / 20.0), z)

    # speckle: pixel-level noise, visible only near the echo edges
    z = z + (0.6 + 1.2 * sig((25.0 - z) / 3.0)) * speckle_rng.standard_normal(z.shape)
    return z


def quantize(z):
    """dBZ -> palette index: 0 = transparent (< 5 dBZ), i = bin 5*i dBZ (1..15, 75+ -> 15)."""
    b = np.floor(z / 5.0)
    idx = np.clip(b, 0, len(NWS_BINS)).astype(np.uint8)
    return idx


def palette_bytes():
    pal = list(TRANSPARENT_RGB)
    for _, h in NWS_BINS:
        pal.extend(hex_rgb(h))
    return pal                                   # 16 entries -> a 4-bit GIF colour table


def write_gif(path, idx):
    im = Image.frombytes("P", (WIDTH, HEIGHT), np.ascontiguousarray(idx, dtype=np.uint8).tobytes())
    im.putpalette(palette_bytes())
    tmp = path + ".tmp"
    im.save(tmp, format="GIF", transparency=TRANSPARENT, optimize=False)
    os.replace(tmp, path)


def check_gif(path, idx):
    with Image.open(path) as im:
        assert im.format == "GIF" and im.mode == "P", (im.format, im.mode)
        assert im.size == (WIDTH, HEIGHT), im.size
        assert getattr(im, "n_frames", 1) == 1
        assert im.info.get("transparency") == TRANSPARENT, im.info
        back = np.asarray(im)
        assert np.array_equal(back, idx), "index data differ"
        pal = im.getpalette()
        want = palette_bytes()
        assert pal[:len(want)] == want, "palette differs"


def write_preview(path, frames_idx):
    pal = np.array(palette_bytes(), dtype=np.uint8).reshape(-1, 3)
    gap = 8
    bg = np.array([22, 24, 30], dtype=np.uint8)
    w = FRAMES * WIDTH + (FRAMES + 1) * gap
    h = HEIGHT + 2 * gap
    canvas = np.empty((h, w, 3), dtype=np.uint8)
    canvas[:] = (10, 10, 12)
    for i, idx in enumerate(frames_idx):
        rgb = pal[idx]
        rgb[idx == TRANSPARENT] = bg
        x0 = gap + i * (WIDTH + gap)
        canvas[gap:gap + HEIGHT, x0:x0 + WIDTH] = rgb
    Image.fromarray(canvas).save(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output folder (Resources/radar)")
    ap.add_argument("--preview", help="also write the five frames side by side into this PNG")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    check_table()

    fields, speckle_seed_rng = build_fields()
    speckle_seeds = speckle_seed_rng.integers(0, 2**63, size=FRAMES)
    sampler = Sampler()
    all_idx = []
    sums = []
    print("frame  t(min)  >=5 dBZ  >=40 dBZ  >=50 dBZ  bytes")
    for i in range(FRAMES):
        t_h = i * FRAME_MINUTES / 60.0
        z = frame_dbz(fields, sampler, t_h, np.random.default_rng(int(speckle_seeds[i])))
        idx = quantize(z)
        name = f"radar{i}.gif"
        path = os.path.join(args.out, name)
        write_gif(path, idx)
        check_gif(path, idx)
        all_idx.append(idx)
        with open(path, "rb") as fh:
            data = fh.read()
        sums.append((hashlib.sha256(data).hexdigest(), name))
        n = idx.size
        print(f"{i:5d}  {t_h * 60:6.0f}  {np.count_nonzero(idx >= 1) / n:7.1%}  "
              f"{np.count_nonzero(idx >= 8) / n:8.2%}  {np.count_nonzero(idx >= 10) / n:8.2%}  {len(data):5d}")
    with open(os.path.join(args.out, "SHA256SUMS"), "w") as fh:
        for h, name in sums:
            fh.write(f"{h}  {name}\n")
    # consecutive frames must be related: share of echo pixels kept from one frame to the next
    for i in range(FRAMES - 1):
        a, b = all_idx[i] >= 1, all_idx[i + 1] >= 1
        print(f"echo overlap {i}->{i + 1}: {np.count_nonzero(a & b) / max(1, np.count_nonzero(a | b)):.2f} (IoU)")
    if args.preview:
        write_preview(args.preview, all_idx)
        print("preview:", args.preview)


if __name__ == "__main__":
    main()
