#!/usr/bin/env bash
# The real window's figures under a virtual X server: launch to first frame on screen, CPU used
# while idle (timer paused, pulse stopped) and while animating, resident memory. Runs the
# window several times and prints one line per measurement.
# Usage: tools/bench-window.sh [BIN] [RUNS]   (default .build/release/nightmap, 5)
set -euo pipefail
BIN=$(realpath "${1:-.build/release/nightmap}")
RUNS=${2:-5}
command -v Xvfb >/dev/null && command -v xdotool >/dev/null || bash "$(dirname "$0")/ensure-packages.sh" xvfb xdotool
WORK=$(mktemp -d)
# Every run starts fresh: no saved state, no configuration of the user's.
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config"
exec 3> "$WORK/displayfd"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp > "$WORK/xvfb.log" 2>&1 &
XVFB=$!
APP=""
trap 'kill $APP $XVFB 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do [ -s "$WORK/displayfd" ] && break; sleep 0.1; done
export DISPLAY=":$(head -1 "$WORK/displayfd")"
unset SDL_VIDEODRIVER
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$1/status"; }
wait_log() { for _ in $(seq 100); do grep -q "$1" "$WORK/log" && return 0; sleep 0.1; done; echo "timed out waiting for '$1'"; exit 1; }

firsts=()
for run in $(seq "$RUNS"); do
    "$BIN" view --verbose --iss tle --radar demo > "$WORK/log" 2>&1 &
    APP=$!
    wait_log "first frame on screen"
    firsts+=("$(sed -n 's/.*first frame on screen \([0-9]*\) ms.*/\1/p' "$WORK/log")")
    if [ "$run" = "$RUNS" ]; then
        WID=$(xdotool search --sync --name '^nightmap' | head -1)
        sleep 1
        t0=$(ticks "$APP"); sleep 10; t1=$(ticks "$APP")
        echo "animating (radar playing, pulse running): $((t1 - t0)) CPU ticks (1/100 s) in 10 s, $(rss "$APP") MB resident"
        xdotool key --window "$WID" p; wait_log "pulse stopped"
        xdotool key --window "$WID" space; wait_log "timer paused"
        sleep 1
        t0=$(ticks "$APP"); sleep 10; t1=$(ticks "$APP")
        echo "idle (timer paused, pulse stopped): $((t1 - t0)) CPU ticks (1/100 s) in 10 s, $(rss "$APP") MB resident"
    fi
    kill "$APP"; wait "$APP" 2>/dev/null || true
    APP=""
done
sorted=$(printf '%s\n' "${firsts[@]}" | sort -n | tr '\n' ' ')
echo "first frame on screen after process start, ms (sorted, $RUNS runs): $sorted"
