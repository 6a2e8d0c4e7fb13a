#!/usr/bin/env bash
# File faults, end to end: what `nightmap` says and leaves behind when its files are unreadable,
# directories, changing while read, or when the disk fills while a snapshot is written.
# Usage: Tests/e2e/faults.sh path/to/nightmap
set -euo pipefail
BIN=$(realpath "${1:-.build/release/nightmap}")
WORK=$(mktemp -d)
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
pass=0
fail() { echo "faults FAIL: $*"; exit 1; }
ok() { echo "faults ok: $*"; pass=$((pass + 1)); }
# expect_error DESCRIPTION WORDS COMMAND...: exits 1 with one line on stderr containing WORDS.
expect_error() {
    local what=$1 words=$2; shift 2
    set +e; "$@" > "$WORK/out" 2> "$WORK/err"; local rc=$?; set -e
    [ "$rc" = 1 ] || fail "$what: exit $rc, expected 1 ($(cat "$WORK/err"))"
    grep -q -- "$words" "$WORK/err" || fail "$what: stderr does not say '$words': $(cat "$WORK/err")"
    [ "$(wc -l < "$WORK/err")" -le 2 ] || fail "$what: more than two lines on stderr: $(cat "$WORK/err")"
    ok "$what: $(head -1 "$WORK/err")"
}
snap() { "$BIN" snapshot --iss tle --tle-url none --alerts-url none --radar demo --size 320x200 "$@"; }

# 1. Unreadable files (root reads anything, so the check runs as nobody when we are root). The
# checkout may sit in a folder nobody cannot enter (a clone in /root or a mode-0700 temporary
# folder), so nobody runs a copy of the binary and its resources laid out as an install, in $WORK.
RESOURCES=$(cd "$(dirname "$BIN")/../../Resources" 2>/dev/null && pwd || (cd Resources && pwd))
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$WORK/app/bin" "$WORK/app/share"
    cp "$BIN" "$WORK/app/bin/nightmap"
    cp -r "$RESOURCES" "$WORK/app/share/nightmap"
    chmod -R a+rX "$WORK/app"
    USER_BIN="$WORK/app/bin/nightmap"
else
    USER_BIN="$BIN"
fi
as_user() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
cp "$RESOURCES/routes/default.geojson" "$WORK/route.geojson"
chmod 000 "$WORK/route.geojson"
expect_error "unreadable route" "route.geojson" as_user "$USER_BIN" snapshot --iss tle --tle-url none --alerts-url none --size 320x200 --route "$WORK/route.geojson" -o "$WORK/u.png"
echo '{"version": 8, "sources": {}, "layers": []}' > "$WORK/style.json"
chmod 000 "$WORK/style.json"
expect_error "unreadable style" "style.json" as_user "$USER_BIN" snapshot --iss tle --tle-url none --alerts-url none --size 320x200 --style "$WORK/style.json" -o "$WORK/u.png"

# 2. A directory where a file is expected.
mkdir -p "$WORK/dir.json" "$WORK/dir.geojson" "$WORK/dir.tle"
expect_error "style is a directory" "dir.json" snap --style "$WORK/dir.json" -o "$WORK/d.png"
expect_error "route is a directory" "dir.geojson" snap --route "$WORK/dir.geojson" -o "$WORK/d.png"
expect_error "TLE is a directory" "dir.tle" snap --tle "$WORK/dir.tle" -o "$WORK/d.png"
expect_error "snapshot onto a directory" "directory" snap -o "$WORK/dir.json"

# 3. A file that changes while it is read: another process rewrites the style with good and
# broken documents while snapshots read it. Each run succeeds or fails with a clear error.
good='{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123"}}]}'
echo "$good" > "$WORK/live.json"
( for i in $(seq 400); do
      if [ $((i % 2)) = 0 ]; then echo "$good" > "$WORK/live.json"; else head -c $((RANDOM % 120)) <<< "$good" > "$WORK/live.json"; fi
  done ) &
writer=$!
runs=0; failed=0
while kill -0 "$writer" 2>/dev/null; do
    set +e; snap --style "$WORK/live.json" -o "$WORK/live.png" > /dev/null 2> "$WORK/err"; rc=$?; set -e
    runs=$((runs + 1))
    [ "$rc" -le 1 ] || fail "changing style file: exit $rc ($(cat "$WORK/err"))"
    if [ "$rc" = 1 ]; then failed=$((failed + 1)); grep -q "live.json" "$WORK/err" || fail "changing style: error does not name the file: $(cat "$WORK/err")"; fi
done
wait "$writer"
ok "style rewritten while read: $runs snapshots, $failed refused with a one-line error, none crashed"

# 4. The disk fills while a snapshot is written (a file size limit stands in for it): the error
# says so, the earlier snapshot at that path is untouched and no temporary file is left.
snap -o "$WORK/full.png"
before=$(sha256sum < "$WORK/full.png")
expect_error "file size limit while writing" "File too large" prlimit --fsize=2048 "$BIN" snapshot --iss tle --tle-url none --alerts-url none --radar demo --size 320x200 --elapsed 0.5 -o "$WORK/full.png"
[ "$(sha256sum < "$WORK/full.png")" = "$before" ] || fail "the earlier snapshot was changed"
leftovers=$(find "$WORK" -name '.full.png.*' | wc -l)
[ "$leftovers" = 0 ] || fail "$leftovers temporary files left behind"
ok "nothing partial: the earlier snapshot is intact, no temporary file left"
# A real full device: /dev/full as the output (written directly, not replaced).
expect_error "writing to /dev/full" "No space left on device" snap -o /dev/full
[ -c /dev/full ] || fail "/dev/full is no longer a device"
# 5. A bad line in nightmap.conf: exit 2 with one line naming the file's line, before any window.
mkdir -p "$WORK/config/nightmap"
printf '# wall display\nlight = day\nzoom = 30\n' > "$WORK/config/nightmap/nightmap.conf"
set +e; env -u DISPLAY -u WAYLAND_DISPLAY XDG_CONFIG_HOME="$WORK/config" "$BIN" view > "$WORK/out" 2> "$WORK/err"; rc=$?; set -e
[ "$rc" = 2 ] || fail "bad configuration line: exit $rc, expected 2 ($(cat "$WORK/err"))"
[ "$(cat "$WORK/err")" = "nightmap: nightmap.conf:3: option --zoom: 30.0 is outside 0...24" ] || fail "bad configuration line: $(cat "$WORK/err")"
ok "bad configuration line: $(cat "$WORK/err")"
# 6. A style with one broken layer, one unknown layer type, one unsupported expression and one
# unreachable sprite: the map draws everything else (exit 0), and each of the four is named once
# on stderr and in `state`'s `skipped`.
cat > "$WORK/mixed.json" <<'JSON'
{"version": 8, "center": [0, 0], "zoom": 2, "sprite": "no-such/sprite",
 "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "properties": {},
   "geometry": {"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]]]}}}},
 "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgb(10, 20, 30)"}},
            {"id": "broken", "type": "line", "paint": {"line-color": "red"}},
            {"id": "unknown", "type": "hexagon", "source": "g"},
            {"id": "square", "type": "fill", "source": "g", "paint": {"fill-color": "rgb(200, 120, 40)",
             "fill-opacity": ["no-such-expression", 1]}}]}
JSON
pixel() { convert "$1" -alpha off -format "%[pixel:p{$2,$3}]" info:; }
set +e; snap --style "$WORK/mixed.json" --overlay none -o "$WORK/mixed.png" > /dev/null 2> "$WORK/err"; rc=$?; set -e
[ "$rc" = 0 ] || fail "style with four problems: exit $rc ($(cat "$WORK/err"))"
[ "$(pixel "$WORK/mixed.png" 160 100)" = "srgb(200,120,40)" ] || fail "style with four problems: the square is $(pixel "$WORK/mixed.png" 160 100)"
[ "$(pixel "$WORK/mixed.png" 5 5)" = "srgb(10,20,30)" ] || fail "style with four problems: the background is $(pixel "$WORK/mixed.png" 5 5)"
for words in 'layers\[1\].source: missing; layer "broken" skipped' 'unknown layer type "hexagon"; layer "unknown" skipped' \
             'layers\[3\].paint.fill-opacity\[0\]: unknown expression "no-such-expression"; left at its default' 'sprite: no-such/sprite.json: no such file'; do
    [ "$(grep -c -- "$words" "$WORK/err")" = 1 ] || fail "style with four problems: stderr does not say '$words' once: $(cat "$WORK/err")"
done
[ "$(grep -c . "$WORK/err")" = 4 ] || fail "style with four problems: not four lines on stderr: $(cat "$WORK/err")"
"$BIN" state --iss tle --tle-url none --alerts-url none --radar demo --style "$WORK/mixed.json" 2> /dev/null > "$WORK/state.json"
python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["skipped"]; assert len(s) == 4, s' "$WORK/state.json" \
    || fail "style with four problems: state's skipped is not the four: $(cat "$WORK/state.json")"
ok "style with four problems: drawn (exit 0), the four named once each on stderr and in state"
# 7. A bad option: exit 2 with one line naming it and pointing to --help, not the whole usage.
set +e; "$BIN" snapshot --zoom banana -o "$WORK/x.png" > "$WORK/out" 2> "$WORK/err"; rc=$?; set -e
[ "$rc" = 2 ] || fail "bad option: exit $rc, expected 2 ($(cat "$WORK/err"))"
[ "$(cat "$WORK/err")" = "nightmap: option --zoom: 'banana' is not a number (nightmap --help lists the options)" ] || fail "bad option: $(cat "$WORK/err")"
ok "bad option: $(cat "$WORK/err")"
echo "faults: all $pass checks passed"
