"""Expected ISS passes for PassFinderTests, from skyfield (and PyEphem for visibility).

Run at test-writing time, in a venv with `pip install skyfield ephem` (skyfield 1.55,
sgp4 2.27, PyEphem 4.2.1 when written):

    python3 make_passes.py ../../../Resources/tle/iss.tle > passes.json

Rise and set are skyfield's `find_events` crossings of the geometric horizon (altitude 0, no
refraction) for an observer on the WGS-84 ellipsoid; the culmination and its elevation are
skyfield's too. Azimuths are skyfield's at the rise and set instants. "visible" means that at
some instant of the pass (every 10 s) the station is sunlit (PyEphem's `eclipsed` is false) and
the Sun is at or below -6 degrees for the observer (PyEphem, geometric). Skyfield needs no
ephemeris file for this; PyEphem carries its own Sun theory.
"""
import json
import math
import sys

import ephem
from skyfield.api import EarthSatellite, load, wgs84

OBSERVERS = [
    ("Helsinki", 60.1699, 24.9384),
    ("New York", 40.7128, -74.0060),
    ("Quito", -0.1807, -78.4678),
    ("Sydney", -33.8688, 151.2093),
    ("Moscow", 55.7558, 37.6173),
]
START = (2025, 10, 1, 12, 0, 0)
DAYS = 3


def main(path):
    lines = [l.rstrip() for l in open(path) if l.strip()]
    name, l1, l2 = lines[-3], lines[-2], lines[-1]
    ts = load.timescale(builtin=True)
    sat = EarthSatellite(l1, l2, name, ts)
    t0 = ts.utc(*START)
    t1 = ts.utc(START[0], START[1], START[2] + DAYS, START[3], START[4], START[5])
    esat = ephem.readtle(name, l1, l2)
    out = {"source": "skyfield 1.55 find_events (sgp4 2.27), visibility from PyEphem 4.2.1",
           "tle": [l1, l2], "start": t0.utc_iso(), "days": DAYS, "observers": []}
    for label, lat, lon in OBSERVERS:
        topos = wgs84.latlon(lat, lon)
        times, events = sat.find_events(topos, t0, t1, altitude_degrees=0.0)
        passes, current = [], {}
        for t, e in zip(times, events):
            if e == 0:
                current = {"rise": t}
            elif e == 1 and "rise" in current:
                current["culminate"] = t
            elif e == 2 and "rise" in current and "culminate" in current:
                current["set"] = t
                passes.append(current)
                current = {}
        obs = ephem.Observer()
        obs.lat, obs.lon, obs.elevation, obs.pressure = str(lat), str(lon), 0, 0
        rows = []
        for p in passes:
            def altaz(t):
                alt, az, _ = (sat - topos).at(t).altaz()
                return alt.degrees, az.degrees
            visible = False
            span = (p["set"] - p["rise"]) * 86400
            k = 0
            while k <= span:
                dt = p["rise"].utc_datetime().timestamp() + k
                obs.date = ephem.Date((dt / 86400.0) + 2440587.5 - 2415020.0)
                esat.compute(obs)
                sun = ephem.Sun(obs)
                if not esat.eclipsed and math.degrees(sun.alt) <= -6:
                    visible = True
                    break
                k += 10
            rows.append({
                "rise": p["rise"].utc_iso(places=2), "culminate": p["culminate"].utc_iso(places=2),
                "set": p["set"].utc_iso(places=2), "maxElevation": round(altaz(p["culminate"])[0], 4),
                "riseAzimuth": round(altaz(p["rise"])[1], 3), "setAzimuth": round(altaz(p["set"])[1], 3),
                "visible": visible})
        out["observers"].append({"name": label, "lat": lat, "lon": lon, "passes": rows})
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1])
