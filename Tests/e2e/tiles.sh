#!/usr/bin/env bash
# Tiles over HTTP, end to end, against a stand-in tile server on 127.0.0.1 (Tests/e2e/tile-standin.py):
# raster and vector tiles drawn where they belong; the same snapshots with the server stopped,
# served from the disk cache ($XDG_CACHE_HOME/nightmap/tiles); revalidation by ETag (304);
# HTML error pages, 500s, slow answers and a missing server each reported once by name while the
# rest of the map draws. Usage: tiles.sh BIN
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"; }
trap cleanup EXIT
pass=0
fail() { echo "tiles FAIL: $*"; exit 1; }
ok() { echo "tiles ok: $*"; pass=$((pass + 1)); }
export XDG_CACHE_HOME="$WORK/cache"
snap() { "$BIN" snapshot --iss tle --tle-url none --radar demo --time 2025-10-01T12:00:00Z --size 320x200 "$@"; }
pixel() { convert "$1" -alpha off -format "%[pixel:p{$2,$3}]" info:; }   # srgb(r,g,b)
start_server() {
    rm -f "$WORK/port"
    python3 Tests/e2e/tile-standin.py Tests/RenderTests/assets "$WORK/port" "$WORK/requests.log" &
    SERVER=$!
    for _ in $(seq 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
    [ -s "$WORK/port" ] || fail "the stand-in tile server did not start"
    PORT=$(cat "$WORK/port")
}
start_server
URL="http://127.0.0.1:$PORT"

# Raster tiles of 256 pixels at zoom 1: zoom-2 tiles, each one colour telling its column and row.
cat > "$WORK/raster.json" <<JSON
{"version": 8, "center": [0, 0], "zoom": 1,
 "sources": {"r": {"type": "raster", "tileSize": 256, "tiles": ["$URL/raster/{z}/{x}/{y}.png"]}},
 "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 0}}]}
JSON
# Vector tiles (the render tests' Berlin tiles at zoom 14), roads in green.
cat > "$WORK/vector.json" <<JSON
{"version": 8, "center": [13.418056, 52.499167], "zoom": 14,
 "sources": {"v": {"type": "vector", "maxzoom": 14, "tiles": ["$URL/vector/{z}-{x}-{y}.mvt"]}},
 "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#000000"}},
            {"id": "road", "type": "line", "source": "v", "source-layer": "road", "paint": {"line-color": "#00ff00", "line-width": 3}}]}
JSON
green() { convert "$1" -format %c histogram:info:- | awk '/#00FF00/ { n += $1 } END { print n + 0 }'; }

snap --style "$WORK/raster.json" -o "$WORK/r1.png" 2> "$WORK/err"
[ "$(pixel "$WORK/r1.png" 100 60)" = "srgb(60,60,200)" ] || fail "raster: tile 2/1/1 at (100, 60) is $(pixel "$WORK/r1.png" 100 60)"
[ "$(pixel "$WORK/r1.png" 220 120)" = "srgb(100,100,200)" ] || fail "raster: tile 2/2/2 at (220, 120) is $(pixel "$WORK/r1.png" 220 120)"
ok "raster tiles over HTTP: tile 2/1/1 and 2/2/2 where they belong"
snap --style "$WORK/vector.json" -o "$WORK/v1.png" 2> "$WORK/err"
roads=$(green "$WORK/v1.png")
[ "$roads" -gt 3000 ] || fail "vector: only $roads road pixels"
ok "vector tiles over HTTP: $roads road pixels"
[ -n "$(find "$XDG_CACHE_HOME/nightmap/tiles" -name '*.body' | head -1)" ] || fail "no tile in the disk cache"

# Again with the server up: every tile is revalidated (max-age=0) and answered 304.
: > "$WORK/requests.log"
snap --style "$WORK/raster.json" -o "$WORK/r2.png" 2> "$WORK/err"
grep -q " 304$" "$WORK/requests.log" || fail "no revalidation: $(head -3 "$WORK/requests.log")"
! grep -q "/raster/.* 200$" "$WORK/requests.log" || fail "a cached raster tile was downloaded again"
cmp -s "$WORK/r1.png" "$WORK/r2.png" || fail "the revalidated snapshot differs"
ok "second launch: $(grep -c ' 304$' "$WORK/requests.log") tiles revalidated by ETag (304), none downloaded again"

# The server stopped: the same pictures, from the disk cache.
kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=
snap --style "$WORK/raster.json" -o "$WORK/r3.png" 2> "$WORK/err"
cmp -s "$WORK/r1.png" "$WORK/r3.png" || fail "raster offline: the snapshot differs from the online one ($(cat "$WORK/err"))"
snap --style "$WORK/vector.json" -o "$WORK/v3.png" 2> "$WORK/err"
cmp -s "$WORK/v1.png" "$WORK/v3.png" || fail "vector offline: the snapshot differs from the online one ($(cat "$WORK/err"))"
ok "server stopped: both snapshots served from the disk cache, identical"

# Nothing cached and no server: one line naming a tile URL and the reason, and the map still draws.
XDG_CACHE_HOME="$WORK/empty" snap --style "$WORK/raster.json" -o "$WORK/r4.png" 2> "$WORK/err"
grep -q "127.0.0.1:$PORT/raster/.*connection refused" "$WORK/err" || fail "no server: $(cat "$WORK/err")"
[ "$(wc -l < "$WORK/err")" -le 2 ] || fail "no server: more than two lines: $(cat "$WORK/err")"
ok "no server, no cache: $(head -1 "$WORK/err")"

# Bad answers: an HTML page, a 500, a missing source file, beside a good source; each named once.
start_server
URL="http://127.0.0.1:$PORT"
cat > "$WORK/bad.json" <<JSON
{"version": 8, "center": [0, 0], "zoom": 1,
 "sources": {"r": {"type": "raster", "tileSize": 256, "tiles": ["$URL/raster/{z}/{x}/{y}.png"]},
             "html": {"type": "raster", "tileSize": 256, "tiles": ["$URL/html/{z}/{x}/{y}.png"]},
             "fail": {"type": "vector", "tiles": ["$URL/fail/{z}/{x}/{y}.mvt"]},
             "gone": {"type": "vector", "url": "pmtiles://$WORK/none.pmtiles"}},
 "layers": [{"id": "r", "type": "raster", "source": "r", "paint": {"raster-fade-duration": 0}},
            {"id": "h", "type": "raster", "source": "html"},
            {"id": "f", "type": "fill", "source": "fail", "source-layer": "water"},
            {"id": "g", "type": "fill", "source": "gone", "source-layer": "water"}]}
JSON
XDG_CACHE_HOME="$WORK/bad-cache" snap --style "$WORK/bad.json" -o "$WORK/b.png" 2> "$WORK/err"
grep -q "sources.gone: .*none.pmtiles" "$WORK/err" || fail "missing archive not named: $(cat "$WORK/err")"
grep -q "/html/.*not an image (the answer is text" "$WORK/err" || fail "HTML page not named: $(cat "$WORK/err")"
grep -q "/fail/.*HTTP 500" "$WORK/err" || fail "500 not named: $(cat "$WORK/err")"
[ "$(wc -l < "$WORK/err")" -le 3 ] || fail "bad answers: more than one line per source: $(cat "$WORK/err")"
[ "$(pixel "$WORK/b.png" 100 60)" = "srgb(60,60,200)" ] || fail "bad answers: the good source did not draw"
ok "bad answers: one line per source ($(wc -l < "$WORK/err")), the good source drawn"

# A slow server: the snapshot gives up on the tile within the request timeout and still draws.
cat > "$WORK/slow.json" <<JSON
{"version": 8, "center": [0, 0], "zoom": 0,
 "sources": {"s": {"type": "raster", "tileSize": 512, "maxzoom": 0, "tiles": ["$URL/slow/{z}/{x}/{y}.png"]}},
 "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#336699"}},
            {"id": "s", "type": "raster", "source": "s"}]}
JSON
start=$(date +%s)
XDG_CACHE_HOME="$WORK/slow-cache" snap --style "$WORK/slow.json" -o "$WORK/s.png" 2> "$WORK/err"
took=$(( $(date +%s) - start ))
[ "$took" -le 25 ] || fail "slow server: the snapshot took $took s"
grep -q "/slow/.*no answer within" "$WORK/err" || fail "slow server not named: $(cat "$WORK/err")"
[ "$(pixel "$WORK/s.png" 160 60)" = "srgb(51,102,153)" ] || fail "slow server: the background did not draw"
ok "slow server: given up after $took s, named, the rest drawn"

echo "tiles: $pass/$pass passed"
