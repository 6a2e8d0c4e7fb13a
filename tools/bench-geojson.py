#!/usr/bin/env python3
"""Writes the GeoJSON file of the bench's `geojson` scenario: a seeded, synthetic ~50 MB
FeatureCollection over New York state (105,000 small polygons shaped like buildings, blocks
and parks, 22,000 short lines and 15,000 points), the same bytes on every run.

Usage: bench-geojson.py OUT.json
"""
import json
import math
import random
import sys

WEST, EAST, SOUTH, NORTH = -77.8, -73.2, 41.4, 43.4


def main():
    out = sys.argv[1]
    rnd = random.Random(40)
    # Towns: clusters the features gather around, as settlements do.
    towns = [(rnd.uniform(WEST, EAST), rnd.uniform(SOUTH, NORTH), rnd.uniform(0.02, 0.25)) for _ in range(400)]

    def near():
        x, y, r = rnd.choice(towns)
        return (min(max(x + rnd.gauss(0, r), WEST), EAST), min(max(y + rnd.gauss(0, r * 0.75), SOUTH), NORTH))

    def pos(lng, lat):
        return [round(lng, 6), round(lat, 6)]

    features = []
    for i in range(105_000):
        lng, lat = near()
        # Radius (degrees; 0.00009 is about 10 m): buildings of 6 to 30 m (70 %), blocks and
        # parks of 30 to 200 m (25 %), larger areas up to 1.5 km (5 %); 5 to 12 vertices around a
        # wobbly circle.
        u = rnd.random()
        low, high = (6, 30) if u < 0.7 else (30, 200) if u < 0.95 else (200, 1500)
        size = math.exp(rnd.uniform(math.log(low), math.log(high))) / 111_000
        n = rnd.randint(5, 12)
        ring = []
        for k in range(n):
            a = 2 * math.pi * k / n
            r = size * rnd.uniform(0.6, 1.0)
            ring.append(pos(lng + r * math.cos(a) / math.cos(math.radians(lat)), lat + r * math.sin(a)))
        ring.append(ring[0])
        features.append({"type": "Feature", "id": i,
                          "properties": {"kind": rnd.choice(["building", "park", "water", "block"]), "height": rnd.randint(3, 60),
                                         "name": "feature %d" % i},
                          "geometry": {"type": "Polygon", "coordinates": [ring]}})
    for i in range(22_000):
        lng, lat = near()
        heading = rnd.uniform(0, 2 * math.pi)
        line = [pos(lng, lat)]
        for _ in range(rnd.randint(3, 14)):
            heading += rnd.gauss(0, 0.4)
            step = rnd.uniform(0.0005, 0.004)
            lng += step * math.cos(heading)
            lat += step * math.sin(heading)
            line.append(pos(lng, lat))
        features.append({"type": "Feature", "id": 200_000 + i,
                         "properties": {"class": rnd.choice(["street", "path", "rail"]), "name": "road %d" % i},
                         "geometry": {"type": "LineString", "coordinates": line}})
    for i in range(15_000):
        lng, lat = near()
        features.append({"type": "Feature", "id": 300_000 + i,
                         "properties": {"kind": rnd.choice(["shop", "school", "stop"]), "rank": rnd.randint(1, 9),
                                        "name": "place %d with a longer name" % i},
                         "geometry": {"type": "Point", "coordinates": pos(lng, lat)}})
    with open(out, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
