#!/usr/bin/env bash
# nightmap against cairo on the same scenes (Benchmarks/README.md); `make bench-peer` builds both
# and runs this. Usage: tools/bench-peer.sh NIGHTMAP CAIRO_PEER [FRAMES [REPEATS]]
# Prints one table: scene, nightmap median ms, cairo median ms, cairo / nightmap. Each scene runs
# REPEATS times (default 3), nightmap and cairo alternating; the table keeps each side's lowest
# median (the run least disturbed by whatever else the machine does).
set -euo pipefail
cd "$(dirname "$0")/.."
NM=${1:-.build/release/nightmap}
PEER=${2:-build/bench-peer/cairo_peer}
FRAMES=${3:-${FRAMES:-50}}
REPEATS=${4:-${REPEATS:-3}}
for f in "$NM" "$PEER"; do
  [ -x "$f" ] || { echo "bench-peer: $f is missing (run make bench-peer)" >&2; exit 1; }
done

# The median of scenario $1 from `nightmap bench` run with the other arguments; empty when the
# scenario does not exist or the run fails. The row is "<name> (<threads>)  median p95 ...".
nightmap_median() {
  local scenario=$1; shift
  local out
  out=$("$NM" bench --scenario "$scenario" --frames "$FRAMES" --iss tle "$@" 2>/dev/null) || return 0
  awk -v s="$scenario" '$1 == s && $2 ~ /^\([0-9]+\)$/ { print $3; exit }' <<<"$out"
}

# The lower of two numbers, either may be empty.
lower() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "") print b; else if (b == "" || a + 0 <= b + 0) print a; else print b }'; }

# Runs cairo_peer with the arguments; lowers PEER_MEDIAN, sets PEER_VERTICES and PEER_MEAN_VERTICES.
peer_run() {
  local out
  out=$("$PEER" --frames "$FRAMES" --warmup 5 --resources Resources "$@") || return 0
  PEER_MEDIAN=$(lower "$PEER_MEDIAN" "$(awk '$1 == "median" { print $2; exit }' <<<"$out")")
  PEER_VERTICES=$(sed -n 's/^vertices at the start camera: [0-9]* in visible chunks, \([0-9]*\) drawn.*/\1/p' <<<"$out")
  PEER_MEAN_VERTICES=$(sed -n 's/.*: mean \([0-9]*\) vertices drawn per frame/\1/p' <<<"$out")
}

ROWS=()
NOTES=()
add_row() {   # scene, nightmap median, cairo median, vertices
  local ratio="n/a"
  if [ -n "$2" ] && [ -n "$3" ]; then ratio=$(awk -v n="$2" -v c="$3" 'BEGIN { printf "%.2f", c / n }'); fi
  ROWS+=("$(printf '%-34s %18s %16s %17s  %28s' "$1" "${2:-n/a}" "${3:-n/a}" "$ratio" "$4")")
}

# One scene: nightmap scenario, its extra arguments (one word), then cairo_peer's arguments; sets
# NM_MEDIAN and PEER_* to the lowest medians of REPEATS alternating runs.
scene() {
  local scenario=$1 nmargs=$2; shift 2
  NM_MEDIAN="" PEER_MEDIAN="" PEER_VERTICES="?" PEER_MEAN_VERTICES="?"
  for ((r = 0; r < REPEATS; r++)); do
    # shellcheck disable=SC2086
    NM_MEDIAN=$(lower "$NM_MEDIAN" "$(nightmap_median "$scenario" $nmargs)")
    peer_run "$@"
  done
}

# 1. The default view, 1280x720, panning (nightmap's pan loop, labels off).
scene pan-notext "--size 1280x720" --size 1280x720 --center 41.874,-75.789 --zoom 5 --path loop
add_row "1280x720, zoom 5, US Northeast" "$NM_MEDIAN" "$PEER_MEDIAN" "$PEER_VERTICES / $PEER_MEAN_VERTICES"

# 2. The same at 1920x1080.
scene pan-notext "--size 1920x1080" --size 1920x1080 --center 41.874,-75.789 --zoom 5 --path loop
add_row "1920x1080, zoom 5, US Northeast" "$NM_MEDIAN" "$PEER_MEDIAN" "$PEER_VERTICES / $PEER_MEAN_VERTICES"

# 3. The world at zoom 2, panning east: nightmap's world scenario without text when there is one.
world=""
for s in world-notext world; do
  if [ -n "$(FRAMES=2 nightmap_median "$s" --size 1280x720)" ]; then world=$s; break; fi
done
scene "${world:-world}" "--size 1280x720" --size 1280x720 --zoom 2 --path world
[ -n "$world" ] || NM_MEDIAN=""
nm=$NM_MEDIAN
label="1280x720, zoom 2, world"
if [ "$world" = world ]; then
  label="$label (*)"
  NOTES+=("(*) nightmap's 'world' scenario places labels and draws the overlay text; cairo draws no text.")
elif [ -z "$world" ]; then
  NOTES+=("nightmap has no world scenario here: its column shows n/a.")
fi
add_row "$label" "$nm" "$PEER_MEDIAN" "$PEER_VERTICES / $PEER_MEAN_VERTICES"

echo "bench-peer: median ms per frame (lowest of $REPEATS runs each), one thread, $FRAMES frames after 5 warm-up, same camera paths"
echo "  nightmap: $NM bench --iss tle (pan-notext; ${world:-no world scenario}); cairo $(pkg-config --modversion cairo 2>/dev/null || echo '?'): $PEER"
printf '%-34s %18s %16s %17s  %28s\n' "scene" "nightmap median ms" "cairo median ms" "cairo / nightmap" "cairo vertices: start / mean"
printf '%s\n' "${ROWS[@]}"
for n in "${NOTES[@]+"${NOTES[@]}"}"; do echo "$n"; done
