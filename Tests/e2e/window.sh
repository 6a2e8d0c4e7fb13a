#!/usr/bin/env bash
# End-to-end test of the real window under Xvfb: launch, click (pauses the timer: the title
# changes), press + (zoom changes: a log line), resize, screenshot (map pixels are there), quit.
# Usage: Tests/e2e/window.sh path/to/nightmap
set -euo pipefail
BIN=$(realpath "${1:-.build/release/nightmap}")
WORK=$(mktemp -d)
LOG=$WORK/view.log
# The window's saved state, configuration and pictures go to folders of this test's own.
export HOME="$WORK/home" XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config"
mkdir -p "$HOME/Pictures" "$XDG_CONFIG_HOME"
STATE="$XDG_STATE_HOME/nightmap/state.json"
pass=0
fail() { echo "e2e FAIL: $*"; echo "--- log"; cat "$LOG" 2>/dev/null || true; exit 1; }
ok() { echo "e2e ok: $*"; pass=$((pass + 1)); }

# 1. Without a display, `view` exits 1 at once with a one-line hint.
set +e
out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 10 "$BIN" view 2>&1); rc=$?
set -e
[ "$rc" = 1 ] || fail "view without a display exited $rc, expected 1 ($out)"
echo "$out" | grep -q "snapshot" || fail "no-display message does not suggest snapshot: $out"
[ "$(echo "$out" | wc -l)" = 1 ] || fail "no-display message is not one line: $out"
ok "no display: exit 1, '$out'"

# 2. A virtual X server on a free display number.
exec 3> "$WORK/displayfd"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp > "$WORK/xvfb.log" 2>&1 &
XVFB=$!
trap 'kill $APP $XVFB 2>/dev/null || true; rm -rf "$WORK"' EXIT
APP=""
for _ in $(seq 50); do [ -s "$WORK/displayfd" ] && break; sleep 0.1; done
export DISPLAY=":$(head -1 "$WORK/displayfd")"
unset SDL_VIDEODRIVER

"$BIN" view --verbose --iss tle --tle-url none --alerts-url none --radar demo > "$LOG" 2>&1 &      # tests never touch the internet
APP=$!
WID=$(timeout 10 xdotool search --sync --name '^nightmap - playing' | head -1) || fail "no window titled 'nightmap - playing ...'"
ok "window $WID opened, title '$(xdotool getwindowname "$WID")'"

wait_for() { # wait_for DESCRIPTION COMMAND...
  local what=$1; shift
  for _ in $(seq 50); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  fail "timed out waiting for $what"
}
title_is() { case "$(xdotool getwindowname "$WID")" in "$1"*) return 0 ;; *) return 1 ;; esac; }
frame_of() { xdotool getwindowname "$WID" | sed -n 's/.* - frame \([0-9]*\)\/.*/\1/p'; }
frame_is_not() { [ "$(frame_of)" != "$1" ]; }

# 3. The radar advances once a second; a click pauses it (title and frame), a second click resumes.
wait_for "first frame" grep -q "camera lat=41.87400 lon=-75.78900 zoom=5.000" "$LOG"
f0=$(frame_of); sleep 2.2; f1=$(frame_of)
[ -n "$f0" ] && [ "$f0" != "$f1" ] || fail "radar frame did not advance while playing ($f0 -> $f1)"
ok "playing: radar frame $f0 -> $f1"
xdotool mousemove --window "$WID" 640 400 click 1
wait_for "title 'nightmap - paused'" title_is "nightmap - paused"
f2=$(frame_of); sleep 2.2; f3=$(frame_of)
[ "$f2" = "$f3" ] || fail "radar frame advanced while paused ($f2 -> $f3)"
ok "click: title '$(xdotool getwindowname "$WID")', frame stays $f3"
sleep 0.6                                    # not a double-click
xdotool click 1
wait_for "title 'nightmap - playing'" title_is "nightmap - playing"
wait_for "the frame to advance again" frame_is_not "$f3"
ok "click again: playing, frame $(frame_of)"
sleep 0.6
xdotool click 1
wait_for "title 'nightmap - paused'" title_is "nightmap - paused"

# 4. + zooms in by one, clamped to maxZoom 5.99, eased.
xdotool windowfocus "$WID" 2>/dev/null || true
xdotool key --window "$WID" plus
wait_for "zoom 5.99 in the log" grep -q "zoom=5.990" "$LOG"
ok "+: $(grep 'zoom=5.990' "$LOG" | tail -1)"

# 5. Space plays again.
xdotool key --window "$WID" space
wait_for "title 'nightmap - playing'" title_is "nightmap - playing"
ok "space: title 'nightmap - playing'"

# 6. p stops the pulse; with the timer paused too, nothing animates and the window idles.
xdotool key --window "$WID" p
wait_for "pulse stopped" grep -q "pulse stopped" "$LOG"
xdotool key --window "$WID" space
wait_for "title 'nightmap - paused'" title_is "nightmap - paused"
sleep 0.8                                   # let the steps' fade-out transitions end
t0=$(awk '{print $14 + $15}' "/proc/$APP/stat"); sleep 2; t1=$(awk '{print $14 + $15}' "/proc/$APP/stat")
[ $((t1 - t0)) -le 4 ] || fail "idle window used $((t1 - t0)) CPU ticks (1/100 s) in 2 s"
ok "idle (pulse stopped, timer paused): $((t1 - t0)) CPU ticks in 2 s"
xdotool key --window "$WID" p
wait_for "pulse running" grep -q "pulse running" "$LOG"

# 7. 3 goes to the route scene: the camera fits the route (zoom about 7.8 at 1280x800).
xdotool key --window "$WID" 3
wait_for "route scene camera" grep -qE "camera lat=41\.[0-9]+ lon=-72\.[0-9]+ zoom=7\.[0-9]+" "$LOG"
ok "3: $(grep 'zoom=7\.' "$LOG" | tail -1)"
xdotool key --window "$WID" 1
wait_for "radar scene camera" sh -c "tail -1 '$LOG' | grep -q 'camera lat=41.87400 lon=-75.78900 zoom=5.000'"
ok "1: back to the radar scene"

# 8. 2 goes to the ISS scene, which follows the ISS; f stops following; 1 returns.
xdotool key --window "$WID" 2
wait_for "ISS scene" grep -q "scene iss" "$LOG"
xdotool key --window "$WID" f
wait_for "follow off" grep -q "follow off" "$LOG"
wait_for "ISS scene camera at rest" grep -qE "camera lat=-?[0-9.]+ lon=-?[0-9.]+ zoom=(1|2|3)\.[0-9]+" "$LOG"
ok "2, f: $(grep -E 'zoom=(1|2|3)\.' "$LOG" | tail -1)"
xdotool key --window "$WID" 1
wait_for "radar scene camera" sh -c "tail -1 '$LOG' | grep -q 'camera lat=41.87400 lon=-75.78900 zoom=5.000'"

# 9. h shows the help panel, h again hides it.
xdotool key --window "$WID" h
wait_for "help shown" grep -q "help shown" "$LOG"
xdotool key --window "$WID" h
wait_for "help hidden" grep -q "help hidden" "$LOG"
ok "h: help shown and hidden"

# 10. Resizing keeps drawing (the camera is re-clamped).
xdotool windowsize "$WID" 900 600
sleep 0.5
kill -0 "$APP" || fail "viewer died on resize"
xdotool windowsize "$WID" 1280 800
sleep 0.5

# 10b. Abuse: 1x1 and back, minimised and restored, 2,000 wheel events each way in one burst, an
# arrow key held for 2 s, a click in the middle of an ease. The viewer stays up, keeps answering,
# and the camera stays within the radar scene's bounds.
bounds=$("$BIN" state --iss tle --tle-url none --alerts-url none --radar demo | sed -n 's/.*"bounds":{\([^}]*\)}.*/\1/p')
bound() { echo "$bounds" | sed -n "s/.*\"$1\":\([-0-9.e]*\).*/\1/p"; }
west=$(bound west); east=$(bound east); south=$(bound south); north=$(bound north); maxz=$(bound maxZoom); minz=$(bound minZoom)
[ -n "$west" ] && [ -n "$maxz" ] || fail "no bounds in nightmap state ($bounds)"
xdotool windowsize "$WID" 1 1
sleep 0.5
kill -0 "$APP" || fail "viewer died at 1x1"
xdotool windowsize "$WID" 1280 800
xdotool windowminimize "$WID" 2>/dev/null || true
sleep 0.5
kill -0 "$APP" || fail "viewer died when minimised"
xdotool windowmap "$WID" 2>/dev/null || true
xdotool windowactivate "$WID" 2>/dev/null || true
sleep 0.5
xdotool mousemove --window "$WID" 300 200
xdotool click --repeat 2000 --delay 0 4
xdotool click --repeat 2000 --delay 0 5
xdotool keydown --window "$WID" Left; sleep 2; xdotool keyup --window "$WID" Left
xdotool key --window "$WID" minus
xdotool click 1                                      # during the zoom ease
sleep 2
kill -0 "$APP" || fail "viewer died under the input burst"
xdotool key --window "$WID" h
wait_for "help shown after the burst" sh -c "grep -c 'help shown' '$LOG' | grep -q 2"
xdotool key --window "$WID" h
cam=$(grep "camera lat=" "$LOG" | tail -1)
read -r lat lon zoom <<< "$(echo "$cam" | sed -n 's/.*lat=\([-0-9.]*\) lon=\([-0-9.]*\) zoom=\([0-9.]*\).*/\1 \2 \3/p')"
awk -v la="$lat" -v lo="$lon" -v z="$zoom" -v w="$west" -v e="$east" -v s="$south" -v n="$north" -v a="$minz" -v b="$maxz" \
  'BEGIN { exit !(la >= s && la <= n && lo >= w && lo <= e && z >= a - 1e-9 && z <= b + 1e-9) }' \
  || fail "camera left its bounds: $cam (bounds $bounds)"
ok "1x1, minimise, 4,000 wheel events, key held 2 s, click during an ease: still up, $cam"
xdotool windowsize "$WID" 1280 800
sleep 0.5

# 11. A screenshot shows the map: land and ocean colours both cover a good share of the screen
# (with day and night hidden, `t`: the night side's shading depends on the hour).
xdotool key --window "$WID" t
share() { # share R,G,B -> percentage of pixels with that colour (within 3 per channel)
  awk -v want="$1" -v total=$((1280 * 800)) '
    BEGIN { split(want, w, ",") }
    { if (match($0, /\( *[0-9]+, *[0-9]+, *[0-9]+/)) {
        split(substr($0, RSTART + 1, RLENGTH - 1), c, ",")
        if ((c[1]-w[1])^2 <= 9 && (c[2]-w[2])^2 <= 9 && (c[3]-w[3])^2 <= 9) n += $1 } }
    END { printf "%d", 100 * n / total }' "$WORK/hist.txt"
}
# (After the burst the viewer may still be loading the new view's tiles: the screen is taken
# again until it shows the map or 10 s have passed; the last one is judged.)
for _ in $(seq 40); do
  import -window root "$WORK/shot.png"
  convert "$WORK/shot.png" -format %c histogram:info:- > "$WORK/hist.txt"
  # (Land and ocean, each also as the ISS footprint's translucent disc tints it: where the
  # station is depends on the hour.)
  land=$(( $(share 26,31,39) + $(share 35,43,54) )); ocean=$(( $(share 11,16,22) + $(share 21,29,38) ))
  colours=$(wc -l < "$WORK/hist.txt")
  [ "$land" -ge 20 ] && [ "$ocean" -ge 5 ] && [ "$colours" -ge 20 ] && break
  sleep 0.25
done
[ "$land" -ge 20 ] || fail "land colour covers only $land % of the screenshot"
[ "$ocean" -ge 5 ] || fail "ocean colour covers only $ocean % of the screenshot"
[ "$colours" -ge 20 ] || fail "only $colours colours in the screenshot (no anti-aliased lines?)"
ok "screenshot: land $land %, ocean $ocean %, $colours colours"

# 12. F11: full screen at the desktop's size keeping the map's centre; F11 again: the window's size.
# Full screen is the window manager's to grant: openbox stands in for the desktop's.
openbox --sm-disable > "$WORK/openbox.log" 2>&1 &
WM=$!
trap 'kill $APP $WM $XVFB 2>/dev/null || true; rm -rf "$WORK"' EXIT
sleep 1
xdotool windowsize "$WID" 900 600
sleep 0.5
size_is() { xdotool getwindowgeometry "$WID" | grep -q "Geometry: $1"; }
centre() { grep "camera lat=" "$LOG" | tail -1 | sed -n 's/.*lat=\([-0-9.]*\) lon=\([-0-9.]*\).*/\1 \2/p'; }
c0=$(centre)
xdotool key --window "$WID" F11
wait_for "fullscreen on" grep -q "fullscreen on" "$LOG"
wait_for "the desktop's size" size_is 1280x800
sleep 0.5
c1=$(centre)
xdotool key --window "$WID" F11
wait_for "fullscreen off" grep -q "fullscreen off" "$LOG"
wait_for "the window's size again" size_is 900x600
sleep 0.5
[ "$c0" = "$c1" ] && [ "$(centre)" = "$c0" ] || fail "the centre moved with full screen: $c0 -> $c1 -> $(centre)"
ok "F11: full screen 1280x800 and back to 900x600, centre $c0 kept"

# 12b. A right-drag sideways 250 px below the centre, from 250 px right of it to 250 px left,
# sweeps a quarter turn clockwise around it and turns the map (bearing -90); Shift+Right turns
# it 15 degrees back; Shift+Up tilts it 10 degrees, a right-drag 20 px up 10 more; n eases back
# to north up and flat.
xdotool mousemove --window "$WID" 700 550 mousedown 3 mousemove --window "$WID" 600 550 \
  mousemove --window "$WID" 400 550 mousemove --window "$WID" 200 550 mouseup 3
wait_for "bearing -90 after the right-drag" sh -c "tail -1 '$LOG' | grep -q 'bearing=-90.0$'"
xdotool key --window "$WID" shift+Right
wait_for "bearing -75 after Shift+Right" sh -c "tail -1 '$LOG' | grep -q 'bearing=-75.0$'"
xdotool key --window "$WID" shift+Up
wait_for "pitch 10 after Shift+Up" sh -c "tail -1 '$LOG' | grep -q 'bearing=-75.0 pitch=10.0$'"
xdotool mousemove --window "$WID" 450 550 mousedown 3 mousemove --window "$WID" 450 545 \
  mousemove --window "$WID" 450 538 mousemove --window "$WID" 450 530 mouseup 3
wait_for "pitch 20 after a right-drag up" sh -c "tail -1 '$LOG' | grep -q 'bearing=-75.0 pitch=20.0$'"
xdotool key --window "$WID" n
wait_for "north up and flat after n" sh -c "tail -1 '$LOG' | grep -q 'camera lat=' && ! tail -1 '$LOG' | grep -q 'bearing\|pitch'"
ok "right-drag sideways: bearing -90; Shift+Right: -75; Shift+Up: pitch 10, right-drag up: 20; n: north up and flat again"

# 13. Ctrl+S writes the view into the pictures folder and the log says where.
xdotool key --window "$WID" ctrl+s
wait_for "the view saved" grep -q "saved the view to $HOME/Pictures/nightmap-" "$LOG"
shot=$(ls "$HOME"/Pictures/nightmap-*.png | head -1)
[[ "$(basename "$shot")" =~ ^nightmap-[0-9]{8}-[0-9]{6}\.png$ ]] || fail "saved view named $(basename "$shot")"
identify "$shot" | grep -q "PNG 900x600" || fail "saved view is not a 900x600 PNG: $(identify "$shot")"
ok "Ctrl+S: $(basename "$shot") (900x600)"

# 14. The next window restores what this one leaves: zoom in, tilt, next light preset, quit.
xdotool key --window "$WID" plus
xdotool key --window "$WID" shift+Up
wait_for "pitch 10 to keep" sh -c "tail -1 '$LOG' | grep -q 'pitch=10.0$'"
xdotool key --window "$WID" l
wait_for "light dawn" grep -q "light dawn" "$LOG"
sleep 0.8
saved_cam=$(grep "camera lat=" "$LOG" | tail -1 | sed 's/.*camera //')

# 15. q quits cleanly and saves the state.
xdotool key --window "$WID" q 2>/dev/null || true   # the window may vanish before the key-up
for _ in $(seq 50); do kill -0 "$APP" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$APP" 2>/dev/null; then fail "viewer still running after q"; fi
wait "$APP" && rc=0 || rc=$?
[ "$rc" = 0 ] || fail "viewer exited $rc after q"
ok "q: exited 0"
[ -s "$STATE" ] || fail "no state file at $STATE"
grep -q '"light" : "dawn"' "$STATE" || fail "state file does not keep the light: $(cat "$STATE")"
grep -q '"pitch" : 10' "$STATE" || fail "state file does not keep the pitch: $(cat "$STATE")"
"$BIN" view --verbose --iss tle --tle-url none --alerts-url none --radar demo > "$LOG" 2>&1 &
APP=$!
WID=$(timeout 10 xdotool search --sync --name '^nightmap - playing' | head -1) || fail "no window after relaunch"
wait_for "restored state" grep -q "restored $STATE" "$LOG"
wait_for "restored camera" grep -q "camera $saved_cam" "$LOG"
title_is "nightmap - playing - frame" && xdotool getwindowname "$WID" | grep -q " - dawn" || fail "title after restore: $(xdotool getwindowname "$WID")"
wait_for "the window's size restored" size_is 900x600
ok "restored: '$(xdotool getwindowname "$WID")', camera $saved_cam, 900x600"
xdotool key --window "$WID" q 2>/dev/null || true
wait "$APP" || fail "relaunched viewer exited $?"

# 16. A corrupt state file: one warning naming it, and the defaults.
echo '{"version": 1, "camera": [' > "$STATE"
"$BIN" view --verbose --iss tle --tle-url none --alerts-url none --radar demo > "$LOG" 2>&1 &
APP=$!
WID=$(timeout 10 xdotool search --sync --name '^nightmap - playing' | head -1) || fail "no window with a corrupt state file"
wait_for "default camera" grep -q "camera lat=41.87400 lon=-75.78900 zoom=5.000" "$LOG"
[ "$(grep -c "$STATE" "$LOG")" = 1 ] || fail "corrupt state: expected one warning naming it: $(cat "$LOG")"
xdotool getwindowname "$WID" | grep -q " - night" || fail "corrupt state: not the default light: $(xdotool getwindowname "$WID")"
ok "corrupt state: '$(grep "$STATE" "$LOG")', defaults shown"
xdotool key --window "$WID" q 2>/dev/null || true
wait "$APP" || fail "viewer exited $? after a corrupt state file"
APP=""

# 17. The live radar from a local stand-in for a time-enabled WMS: the title and the status line
# show each frame's time, advancing through the slots; a click pauses on one.
export XDG_CACHE_HOME="$WORK/cache"
python3 "$(dirname "$0")/wms-standin.py" "$WORK/wms.port" &
WMS=$!
trap 'kill $APP $XVFB $WMS 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do [ -s "$WORK/wms.port" ] && break; sleep 0.1; done
[ -s "$WORK/wms.port" ] || fail "the WMS stand-in did not start"
TEMPLATE="http://127.0.0.1:$(cat "$WORK/wms.port")/wms?SERVICE=WMS&REQUEST=GetMap&LAYERS=radar&SRS=EPSG:4326&BBOX={bbox}&WIDTH={width}&HEIGHT={height}&FORMAT=image/png&TRANSPARENT=true&TIME={time}"
"$BIN" view --verbose --iss tle --tle-url none --alerts-url none --no-restore --clouds-url none --radar-url "$TEMPLATE" > "$LOG" 2>&1 &
APP=$!
WID=$(timeout 10 xdotool search --sync --name '^nightmap - playing' | head -1) || fail "no window with the live radar"
radar_time() { xdotool getwindowname "$WID" | sed -n 's/.* - radar \([0-9][0-9]:[0-9][0-9]\) UTC \([0-9]*\/[0-9]*\).*/\1 \2/p'; }
wait_for "a time-stamped frame in the title" sh -c "xdotool getwindowname $WID | grep -q ' - radar [0-9][0-9]:[0-9][0-9] UTC 12/12'"
seen=$(radar_time)
for _ in $(seq 40); do sleep 0.25; t=$(radar_time); case " $seen " in *" $t "*) ;; *) seen="$seen, $t" ;; esac; done
[ "$(echo "$seen" | tr ',' '\n' | wc -l)" -ge 5 ] || fail "the title did not advance through the frames: $seen"
grep -q "radar: 127.0.0.1: 12 of 12 frames" "$LOG" || fail "the log does not show twelve live frames: $(grep radar: "$LOG")"
ok "live radar: the title went through $seen"
xdotool mousemove --window "$WID" 640 400 click 1
wait_for "paused" title_is "nightmap - paused"
p1=$(radar_time); sleep 2.2; p2=$(radar_time)
[ -n "$p1" ] && [ "$p1" = "$p2" ] || fail "the radar moved while paused ($p1 -> $p2)"
ok "click: paused on $p2, '$(xdotool getwindowname "$WID")'"
xdotool key --window "$WID" q 2>/dev/null || true
wait "$APP" || fail "the live-radar viewer exited $?"
APP=""
ls "$XDG_CACHE_HOME"/nightmap/radar/*/*.png > /dev/null 2>&1 || fail "no radar frames in the cache $XDG_CACHE_HOME/nightmap/radar"
ok "the frames are in the cache: $(ls "$XDG_CACHE_HOME"/nightmap/radar/*/ | grep -c png) files"
echo "e2e: all $pass checks passed"
