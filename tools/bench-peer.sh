#!/usr/bin/env bash
# nightmap against cairo and MapLibre Native on the same scenes (Benchmarks/README.md); `make
# bench-peer` builds them and runs this. Usage: tools/bench-peer.sh NIGHTMAP CAIRO_PEER [FRAMES [REPEATS]]
# Prints one table: scene, nightmap median ms, cairo median ms, cairo / nightmap, MapLibre median
# ms, MapLibre / nightmap. Each scene runs REPEATS times (default 3), the three alternating; the
# table keeps each one's lowest median (the run least disturbed by whatever else the machine
# does). Every program runs pinned to one core (taskset), so MapLibre's worker threads and
# llvmpipe's rasterizer threads share it as nightmap's one thread has it.
set -euo pipefail
cd "$(dirname "$0")/.."
NM=${1:-.build/release/nightmap}
PEER=${2:-build/bench-peer/cairo_peer}
FRAMES=${3:-${FRAMES:-50}}
REPEATS=${4:-${REPEATS:-3}}
for f in "$NM" "$PEER"; do
  [ -x "$f" ] || { echo "bench-peer: $f is missing (run make bench-peer)" >&2; exit 1; }
done
PIN=()
if command -v taskset >/dev/null; then PIN=(taskset -c "$(($(nproc) - 1))"); fi
# MapLibre Native through PyPI's pymgl, in a venv of its own (tools/peer-venv.sh); without it the
# MapLibre column shows n/a.
MGL_PY=$(bash tools/peer-venv.sh) || MGL_PY=""
MGL_VERSION=""
if [ -n "$MGL_PY" ]; then MGL_VERSION=$("$MGL_PY" -c 'import pymgl; print(pymgl.__version__)' 2>/dev/null) || MGL_PY=""; fi

# The median of scenario $1 from `nightmap bench` run with the other arguments; empty when the
# scenario does not exist or the run fails. The row is "<name> (<threads>)  median p95 ...".
nightmap_median() {
  local scenario=$1; shift
  local out
  out=$("${PIN[@]}" "$NM" bench --scenario "$scenario" --frames "$FRAMES" --iss tle "$@" 2>/dev/null) || return 0
  awk -v s="$scenario" '$1 == s && $2 ~ /^\([0-9]+\)$/ { print $3; exit }' <<<"$out"
}

# The lower of two numbers, either may be empty.
lower() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "") print b; else if (b == "" || a + 0 <= b + 0) print a; else print b }'; }

# Runs cairo_peer with the arguments; lowers PEER_MEDIAN, sets PEER_VERTICES and PEER_MEAN_VERTICES.
peer_run() {
  local out
  out=$("${PIN[@]}" "$PEER" --frames "$FRAMES" --warmup 5 --resources Resources "$@") || return 0
  PEER_MEDIAN=$(lower "$PEER_MEDIAN" "$(awk '$1 == "median" { print $2; exit }' <<<"$out")")
  PEER_VERTICES=$(sed -n 's/^vertices at the start camera: [0-9]* in visible chunks, \([0-9]*\) drawn.*/\1/p' <<<"$out")
  PEER_MEAN_VERTICES=$(sed -n 's/.*: mean \([0-9]*\) vertices drawn per frame/\1/p' <<<"$out")
}

# Runs maplibre_peer.py with the arguments (one word); lowers MGL_MEDIAN. Its errors go to stderr.
mgl_run() {
  [ -n "$MGL_PY" ] || return 0
  local out
  # shellcheck disable=SC2086
  out=$(EGL_PLATFORM=surfaceless "${PIN[@]}" "$MGL_PY" Benchmarks/maplibre_peer.py --frames "$FRAMES" --warmup 5 --resources Resources $1) || return 0
  MGL_MEDIAN=$(lower "$MGL_MEDIAN" "$(awk '$1 == "median" { print $2; exit }' <<<"$out")")
}

ROWS=()
NOTES=()
ratio() { if [ -n "$1" ] && [ -n "$2" ]; then awk -v n="$1" -v c="$2" 'BEGIN { printf "%.2f", c / n }'; else echo n/a; fi; }
add_row() {   # scene, nightmap median, cairo median, vertices, MapLibre median
  ROWS+=("$(printf '%-34s %12s %10s %8s %13s %10s  %s' "$1" "${2:-n/a}" "${3:-n/a}" "$(ratio "$2" "$3")" \
                   "${5:-n/a}" "$(ratio "$2" "$5")" "$4")")
}

# One scene: nightmap scenario, its extra arguments (one word), MapLibre's arguments (one word),
# then cairo_peer's arguments (none: no cairo run); sets NM_MEDIAN, MGL_MEDIAN and PEER_* to the
# lowest medians of REPEATS alternating runs.
scene() {
  local scenario=$1 nmargs=$2 mglargs=$3; shift 3
  NM_MEDIAN="" PEER_MEDIAN="" MGL_MEDIAN="" PEER_VERTICES="?" PEER_MEAN_VERTICES="?"
  for ((r = 0; r < REPEATS; r++)); do
    # shellcheck disable=SC2086
    NM_MEDIAN=$(lower "$NM_MEDIAN" "$(nightmap_median "$scenario" $nmargs)")
    if [ $# -gt 0 ]; then peer_run "$@"; fi
    mgl_run "$mglargs"
  done
}

# 1. The default view, 1280x720, panning (nightmap's pan loop, labels off).
scene pan-notext "--size 1280x720" "--size 1280x720 --path loop" --size 1280x720 --center 41.874,-75.789 --zoom 5 --path loop
add_row "1280x720, zoom 5, US Northeast" "$NM_MEDIAN" "$PEER_MEDIAN" "$PEER_VERTICES / $PEER_MEAN_VERTICES" "$MGL_MEDIAN"

# 2. The same at 1920x1080.
scene pan-notext "--size 1920x1080" "--size 1920x1080 --path loop" --size 1920x1080 --center 41.874,-75.789 --zoom 5 --path loop
add_row "1920x1080, zoom 5, US Northeast" "$NM_MEDIAN" "$PEER_MEDIAN" "$PEER_VERTICES / $PEER_MEAN_VERTICES" "$MGL_MEDIAN"

# 3. The world at zoom 2, panning east: nightmap's world scenario without text when there is one.
world=""
for s in world-notext world; do
  if [ -n "$(FRAMES=2 nightmap_median "$s" --size 1280x720)" ]; then world=$s; break; fi
done
scene "${world:-world}" "--size 1280x720" "--size 1280x720 --path world" --size 1280x720 --zoom 2 --path world
[ -n "$world" ] || NM_MEDIAN=""
nm=$NM_MEDIAN
label="1280x720, zoom 2, world"
if [ "$world" = world ]; then
  label="$label (*)"
  NOTES+=("(*) nightmap's 'world' scenario places labels and draws the overlay text; cairo draws no text.")
elif [ -z "$world" ]; then
  NOTES+=("nightmap has no world scenario here: its column shows n/a.")
fi
add_row "$label" "$nm" "$PEER_MEDIAN" "$PEER_VERTICES / $PEER_MEAN_VERTICES" "$MGL_MEDIAN"

# 4. The Helsinki street map at zoom 15, panning (nightmap's streets-notext; MapLibre only).
scene streets-notext "--size 1280x720" "--scene streets --path streets --size 1280x720"
add_row "1280x720, zoom 15, Helsinki streets" "$NM_MEDIAN" "" "(cairo draws no street map)" "$MGL_MEDIAN"

echo "bench-peer: median ms per frame (lowest of $REPEATS runs each), one core${PIN[*]:+ (${PIN[*]})}, $FRAMES frames after 5 warm-up, same camera paths"
echo "  nightmap: $NM bench --iss tle (pan-notext; ${world:-no world scenario}; streets-notext); cairo $(pkg-config --modversion cairo 2>/dev/null || echo '?'): $PEER"
if [ -n "$MGL_PY" ]; then
  echo "  MapLibre Native: pymgl $MGL_VERSION, Mesa llvmpipe (EGL_PLATFORM=surfaceless), tiles from a local HTTP server: Benchmarks/maplibre_peer.py"
else
  NOTES+=("MapLibre Native: no pymgl environment (tools/peer-venv.sh failed): its columns show n/a.")
fi
echo "  / nm: that peer's median over nightmap's (above 1: nightmap is faster)"
printf '%-34s %12s %10s %8s %13s %10s  %s\n' "scene" "nightmap ms" "cairo ms" "/ nm" "MapLibre ms" "/ nm" "cairo vertices: start / mean"
printf '%s\n' "${ROWS[@]}"
for n in "${NOTES[@]+"${NOTES[@]}"}"; do echo "$n"; done
