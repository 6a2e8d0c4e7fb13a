#!/usr/bin/env bash
# Builds the libFuzzer targets (Sources/Fuzz, declared in Package.swift only with NIGHTMAP_FUZZ=1)
# with -sanitize=fuzzer,address into .build/fuzz, then runs each one, one after another, for
# FUZZ_SECONDS seconds (default 600) on a copy of its committed seed corpus (Tests/Fuzz/<kind>),
# after running the inputs earlier runs found (Tests/Fuzz/regressions/<kind>) once. A run fails on
# a crash, a sanitizer report, an input taking over 1 s, an allocation over 256 MB or a process
# over 2 GB.
# Prints executions per second and coverage for each target; exits non-zero on any finding.
#
#   tools/fuzz.sh                 every target
#   tools/fuzz.sh gif tle         some of them (kinds: gif png style geojson tle issfeed worldfile svg config state radaranswer mvt pmtiles jpeg webp tilejson tilecache glyphs fonts)
#   FUZZ_SECONDS=60 tools/fuzz.sh
#   FUZZ_KEEP_CORPUS=1            keep the working corpus of an earlier run instead of starting from the seeds
#   FUZZ_BUILD=0                  use the targets already built
#
# Work files: .build/fuzz/corpus/<kind> (working corpus), .build/fuzz/artifacts/<kind>/ (crash,
# timeout and out-of-memory inputs), .build/fuzz/logs/<kind>.log (libFuzzer's output).
set -uo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-600}
SCRATCH=.build/fuzz
ALL_KINDS=(gif png style geojson tle issfeed worldfile svg config state radaranswer rainviewerindex gibsdomains nwsalerts nwszone mvt pmtiles jpeg webp tilejson tilecache glyphs fonts)
KINDS=("$@")
[ ${#KINDS[@]} -eq 0 ] && KINDS=("${ALL_KINDS[@]}")

target() {
    case "$1" in
        gif) echo FuzzGIF ;; png) echo FuzzPNG ;; style) echo FuzzStyle ;; geojson) echo FuzzGeoJSON ;;
        tle) echo FuzzTLE ;; issfeed) echo FuzzIssFeed ;; worldfile) echo FuzzWorldFile ;; svg) echo FuzzSVG ;;
        config) echo FuzzConfig ;; state) echo FuzzState ;; radaranswer) echo FuzzRadarAnswer ;; rainviewerindex) echo FuzzRainViewerIndex ;; gibsdomains) echo FuzzGIBSDomains ;; nwsalerts) echo FuzzNWSAlerts ;; nwszone) echo FuzzNWSZone ;;
        mvt) echo FuzzMVT ;; pmtiles) echo FuzzPMTiles ;; jpeg) echo FuzzJPEG ;; webp) echo FuzzWebP ;;
        tilejson) echo FuzzTileJSON ;; tilecache) echo FuzzTileCache ;; glyphs) echo FuzzGlyphs ;; fonts) echo FuzzFonts ;;
        *) return 1 ;;
    esac
}
for k in "${KINDS[@]}"; do
    target "$k" >/dev/null || { echo "fuzz.sh: unknown kind '$k' (kinds: ${ALL_KINDS[*]})" >&2; exit 2; }
done
[[ "$FUZZ_SECONDS" =~ ^[0-9]+$ ]] && [ "$FUZZ_SECONDS" -gt 0 ] || { echo "fuzz.sh: FUZZ_SECONDS must be a whole number > 0" >&2; exit 2; }

if [ "${FUZZ_BUILD:-1}" != 0 ]; then
    for k in "${KINDS[@]}"; do
        t=$(target "$k")
        echo "== building $t"
        # -sanitize=fuzzer,address reaches every Swift module (coverage for libFuzzer, ASan checks);
        # giflib, libpng, FreeType and Foundation are the system's, uninstrumented.
        NIGHTMAP_FUZZ=1 "$SWIFT" build -c release --scratch-path "$SCRATCH" \
            -Xswiftc -sanitize=fuzzer,address --product "$t" || { echo "fuzz.sh: building $t failed" >&2; exit 2; }
    done
fi
BIN=$(NIGHTMAP_FUZZ=1 "$SWIFT" build -c release --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer,address --show-bin-path)

symbolizer=$(command -v llvm-symbolizer || true)
[ -z "$symbolizer" ] && [ -x "$(dirname "$(command -v "$SWIFT")")/llvm-symbolizer" ] && symbolizer="$(dirname "$(command -v "$SWIFT")")/llvm-symbolizer"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:symbolize=1}"
[ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"

mkdir -p "$SCRATCH/logs"
rows=()
failed=()
for k in "${KINDS[@]}"; do
    t=$(target "$k")
    corpus="$SCRATCH/corpus/$k" artifacts="$SCRATCH/artifacts/$k" log="$SCRATCH/logs/$k.log"
    [ "${FUZZ_KEEP_CORPUS:-0}" = 1 ] || rm -rf "$corpus"
    rm -rf "$artifacts"
    mkdir -p "$corpus" "$artifacts"
    cp Tests/Fuzz/"$k"/* "$corpus"/
    limits=(-timeout=1 -rss_limit_mb=2048 -malloc_limit_mb=256 -artifact_prefix="$artifacts/")
    # Found inputs first, each run once (not fuzzed from: some are slow on purpose).
    regressions=(Tests/Fuzz/regressions/"$k"/*)
    if [ -e "${regressions[0]}" ]; then
        echo "== $t: ${#regressions[@]} regression input(s)"
        if ! "$BIN/$t" "${limits[@]}" "${regressions[@]}" >"$SCRATCH/logs/$k-regressions.log" 2>&1; then
            echo "    FAILED: see $SCRATCH/logs/$k-regressions.log"
            grep -E '^==[0-9]+==ERROR|^SUMMARY|Running:' "$SCRATCH/logs/$k-regressions.log" | tail -3 | sed 's/^/    /'
            failed+=("$k(regressions)")
        fi
    fi
    echo "== $t: $FUZZ_SECONDS s, corpus $corpus ($(ls "$corpus" | wc -l) seeds), log $log"
    start=$(date +%s)
    "$BIN/$t" -max_total_time="$FUZZ_SECONDS" "${limits[@]}" -print_final_stats=1 "$corpus" >"$log" 2>&1
    status=$?
    elapsed=$(( $(date +%s) - start ))
    # The last status line ("#N DONE cov: ... ft: ... corp: ... exec/s: ...", or the last before a finding).
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    field() { sed -nE "s|.* $1: ([^ ]+).*|\1|p" <<<"$last"; }
    runs=$(sed -nE 's/.*stat::number_of_executed_units:[[:space:]]*([0-9]+).*/\1/p' "$log" | tail -1)
    eps=$(sed -nE 's/.*stat::average_exec_per_sec:[[:space:]]*([0-9]+).*/\1/p' "$log" | tail -1)
    rss=$(sed -nE 's/.*stat::peak_rss_mb:[[:space:]]*([0-9]+).*/\1/p' "$log" | tail -1)
    found=$(ls "$artifacts" | wc -l)
    result=ok
    if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
        result="FINDING (exit $status)"
        failed+=("$k")
        grep -E '^==[0-9]+==ERROR|^SUMMARY|ERROR: libFuzzer|Fatal error|deadly signal|Test unit written' "$log" | head -5 | sed 's/^/    /'
    fi
    rows+=("$(printf '%-10s %-14s %5s %10s %8s %6s %7s %-13s %6s  %s' "$k" "$t" "$elapsed" "${runs:-?}" \
        "${eps:-$(field exec/s)}" "$(field cov)" "$(field ft)" "$(field corp)" "${rss:-?}" "$result")")
done

echo
printf '%-10s %-14s %5s %10s %8s %6s %7s %-13s %6s  %s\n' kind target secs execs exec/s cov ft corpus rss_mb result
for r in "${rows[@]}"; do echo "$r"; done
if [ ${#failed[@]} -gt 0 ]; then
    echo
    echo "fuzz.sh: findings in: ${failed[*]} (inputs in $SCRATCH/artifacts/<kind>/, logs in $SCRATCH/logs/)" >&2
    exit 1
fi
