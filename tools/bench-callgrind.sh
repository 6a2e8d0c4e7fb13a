#!/usr/bin/env bash
# Instruction counts per frame for each bench scenario, from valgrind's callgrind: stable where
# wall-clock times are not (a shared, noisy machine). Each scenario runs twice, with N and 3N
# frames; the difference divided by 2N is what one frame costs, start-up and warm-up excluded.
# The map's instant is pinned (--time), so that the ISS is in the same place in every run: where
# it moves in view the labels are placed again around it.
# Usage: tools/bench-callgrind.sh [BIN] [N]   (default .build/release/nightmap, 10)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/nightmap}
N=${2:-10}
command -v valgrind >/dev/null || bash tools/ensure-packages.sh valgrind
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Valgrind 3.19 gives up on this binary's DWARF 5 debug information ("possibly corrupted
# debuginfo", since the text engine's ICU and HarfBuzz parts joined it): it measures a copy
# without it (the symbol table stays, and the instructions are the same).
objcopy --strip-debug "$BIN" "$out/nightmap"
count() {   # scenario frames -> instructions
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$out/nightmap" bench --iss tle --time 2026-12-01T12:00:00Z --size 1280x720 \
        --scenario "$1" --frames "$2" >/dev/null 2>"$out/log"
    grep -E '^summary:|^totals:' "$out/cg" | head -1 | awk '{print $2}'
}
printf '%-12s %18s\n' scenario "instructions/frame"
for s in pulse pan pan-notext pan-nosky pan-mt 1080p world zoom-sweep radar-live; do
    a=$(count "$s" "$N"); b=$(count "$s" $((3 * N)))
    printf '%-12s %18s\n' "$s" "$(( (b - a) / (2 * N) ))"
done
