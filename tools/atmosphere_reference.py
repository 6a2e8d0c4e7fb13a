"""MapLibre GL JS's globe atmosphere (draw_sky.ts drawAtmosphere, atmosphere.vertex.glsl and
atmosphere.fragment.glsl, after wwwtyro's glsl-atmosphere) in numpy: the premultiplied colour the
atmosphere's quad gives screen pixels of a globe view, for issue 43's unit tests. The view
direction comes from the inverse projection matrix and the globe's position from the model-view-
projection matrix, as draw_sky.ts computes them. Run: python3 tools/atmosphere_reference.py (numpy);
its output is the table in Tests/MapCoreTests/GlobeAtmosphereTests.swift."""
import math
import numpy as np

np.seterr(over="ignore", invalid="ignore")  # (exp overflows to infinity where a ray passes through the planet, as in GLSL)

from pitch_reference import perspective
from globe_reference import globe

PLANET, AIR = 6371e3, 6471e3
K_RLH, K_MIE = np.array([5.5e-6, 13.0e-6, 22.4e-6]), 21e-6
SH_RLH, SH_MIE, G, SUN = 8e3, 1.2e3, 0.758, 22.0


def rsi(r0, rd, sr):
    a = rd @ rd; b = 2 * (rd @ r0); c = r0 @ r0 - sr * sr
    d = b * b - 4 * a * c
    if d < 0:
        return 1e5, -1e5
    return (-b - math.sqrt(d)) / (2 * a), (-b + math.sqrt(d)) / (2 * a)


def atmosphere(r, r0, psun):
    psun = psun / np.linalg.norm(psun); r = r / np.linalg.norm(r)
    px, py = rsi(r0, r, AIR)
    if px > py:
        return np.zeros(3), 1.0
    px = max(px, 0.0)
    p2x, p2y = rsi(r0, r, PLANET)
    if p2x <= p2y and p2x > 0:
        py = min(py, p2x)
    step = (py - px) / 5
    t = px + step * 0.5
    tot_r, tot_m = np.zeros(3), np.zeros(3)
    od_r = od_m = 0.0
    mu = r @ psun; mumu = mu * mu; gg = G * G
    p_r = 3 / (16 * math.pi) * (1 + mumu)
    p_m = 3 / (8 * math.pi) * ((1 - gg) * (mumu + 1)) / ((1 + gg - 2 * mu * G) ** 1.5 * (2 + gg))
    for _ in range(5):
        pos = r0 + r * t
        h = np.linalg.norm(pos) - PLANET
        s_r = np.exp(-h / SH_RLH) * step; s_m = np.exp(-h / SH_MIE) * step
        od_r += s_r; od_m += s_m
        jstep = rsi(pos, psun, AIR)[1] / 3
        jt = jstep * 0.5; j_r = j_m = 0.0
        for _ in range(3):
            jh = np.linalg.norm(pos + psun * jt) - PLANET
            j_r += np.exp(-jh / SH_RLH) * jstep; j_m += np.exp(-jh / SH_MIE) * jstep
            jt += jstep
        attn = np.exp(-(K_MIE * (od_m + j_m) + K_RLH * (od_r + j_r)))
        tot_r += s_r * attn; tot_m += s_m * attn
        t += step
    opacity = math.exp(-(np.linalg.norm(K_RLH) * np.linalg.norm(tot_r) + K_MIE * np.linalg.norm(tot_m)))
    color = SUN * (p_r * K_RLH * tot_r + p_m * K_MIE * tot_m)
    return color, opacity


def pixel(x, y, width, height, inv_proj, globe_pos, radius, sun, blend):
    nx, ny = x / width * 2 - 1, 1 - y / height * 2
    view = (inv_proj @ np.array([nx, ny, 0, 1.0]))[:3]
    cam = -globe_pos * PLANET / radius
    color, opacity = atmosphere(view, cam, sun)
    rgb = (1 - np.exp(-color)) ** (1 / 2.2)
    a = opacity ** (1 / 2.2)
    return np.append(rgb, 1 - a) * blend


if __name__ == '__main__':
    width, height, fov = 800, 600, 0.6435011087932844
    # (zoom, pitch, bearing, pixels: the centre, pixels about the globe's edge where the glow
    # is, and space.)
    cases = ((1, 0, 0, ((400, 300), (400, 98), (400, 94), (400, 90), (545, 156), (5, 5))),
             (2.5, 50, 20, ((400, 300), (400, 180), (400, 200), (400, 220), (400, 240), (400, 100))))
    for zoom, pitch, bearing, pixels in cases:
        m, R, ctc, n, D, W = globe((10.0, 50.0), zoom, pitch, bearing, width, height)
        proj = perspective(fov, width / height, 0.5, ctc + 2 * R)
        inv_proj = np.linalg.inv(proj)
        # draw_sky.ts: the globe's centre through the model-view-projection, then back through the inverse projection.
        v = m @ np.array([0, 0, 0, 1.0]); v = v / v[3]
        v = inv_proj @ v; v = v / v[3]
        globe_pos = v[:3]
        # The default light: position [1.15, 210, 30], anchor viewport; the sun is its opposite.
        r, az, polar = 1.15, math.radians(210 + 90), math.radians(30)
        light = np.array([r * math.cos(az) * math.sin(polar), r * math.sin(az) * math.sin(polar), r * math.cos(polar)])
        sun = -light
        print(f"zoom {zoom} pitch {pitch} bearing {bearing}: globe {globe_pos[0]:.6f} {globe_pos[1]:.6f} {globe_pos[2]:.6f} radius {R:.6f}")
        for x, y in pixels:
            p = pixel(x + 0.5, y + 0.5, width, height, inv_proj, globe_pos, R, sun, 0.8)
            print(f"  ({x}, {y}) -> {p[0]:.9f} {p[1]:.9f} {p[2]:.9f} {p[3]:.9f}")
