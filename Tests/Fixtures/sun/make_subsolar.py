#!/usr/bin/env python3
"""Writes subsolar.json: the subsolar point at several instants, from PyEphem 4.2.1 (PyPI `ephem`,
VSOP87 with nutation and aberration; independent of nightmap's Astronomical Almanac formulae).
Latitude: the Sun's apparent geocentric declination; longitude: its apparent geocentric right
ascension less Greenwich apparent sidereal time. Run at test-writing time: python3 make_subsolar.py
"""
import json, math
import ephem

INSTANTS = ["2024-03-20 03:06:00", "2025-06-21 02:42:00", "2025-10-01 12:00:00", "2025-12-21 15:03:00",
            "2026-12-01 12:00:00", "2026-12-01 21:30:00", "2030-09-01 06:15:00", "2040-02-29 23:59:00"]

rows = []
for t in INSTANTS:
    d = ephem.Date(t)
    sun = ephem.Sun(d)
    greenwich = ephem.Observer()
    greenwich.lon, greenwich.lat, greenwich.date = "0", "0", d
    gast = float(greenwich.sidereal_time())
    lon = math.degrees(float(sun.g_ra) - gast)
    lon = (lon + 180) % 360 - 180
    rows.append({"utc": t.replace(" ", "T") + "Z", "latitude": round(math.degrees(float(sun.g_dec)), 5),
                 "longitude": round(lon, 5)})
json.dump({"source": "PyEphem %s (ephem.Sun, g_ra and g_dec; Greenwich apparent sidereal time)" % ephem.__version__,
           "points": rows}, open("subsolar.json", "w"), indent=1)
