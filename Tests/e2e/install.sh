#!/usr/bin/env bash
# `make install` and `make uninstall`, end to end: every file in its place under a temporary
# PREFIX (and under DESTDIR), the desktop entry valid, the manual page readable, the installed
# program finding its resources from / and through PATH, and nothing left after uninstall.
# Usage: Tests/e2e/install.sh path/to/nightmap
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-.build/release/nightmap}")
WORK=$(mktemp -d)
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
pass=0
fail() { echo "install FAIL: $*"; exit 1; }
ok() { echo "install ok: $*"; pass=$((pass + 1)); }

# The files `make install` puts under a prefix, one a line.
expected() {
    local p=$1 f s
    echo "$p/bin/nightmap"
    for f in Resources/{basemap,fonts,icons,places,radar,routes,streets,style,tle}/*; do echo "$p/share/nightmap/${f#Resources/}"; done
    echo "$p/share/applications/nightmap.desktop"
    echo "$p/share/icons/hicolor/scalable/apps/nightmap.svg"
    for s in 48 128 256; do echo "$p/share/icons/hicolor/${s}x$s/apps/nightmap.png"; done
    echo "$p/share/man/man1/nightmap.1"
}

# Runs a command from / without NIGHTMAP_RESOURCES and, where a private mount namespace is
# allowed, with the checkout's Resources/ hidden, so only the installed copy can be found.
mkdir "$WORK/empty"
# shellcheck disable=SC2016  # the inner shell expands its own arguments
hidden() { unshare --mount --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && cd / && exec "$@"' sh "$WORK/empty" "$PWD/Resources" "$@"; }
if hidden true 2>/dev/null; then
    isolated() { hidden env -u NIGHTMAP_RESOURCES "$@"; }
else
    echo "install: no private mount namespace here: the checkout's Resources/ stays visible"
    isolated() { (cd / && exec env -u NIGHTMAP_RESOURCES "$@"); }
fi

# check ROOT LABEL: the installed tree under ROOT (the prefix as seen on disk).
check() {
    local root=$1 label=$2 f
    expected "$root" | sort > "$WORK/want"
    find "$root" -type f | sort > "$WORK/have"
    while read -r f; do [ -f "$f" ] || fail "$label: $f is missing"; done < "$WORK/want"
    diff "$WORK/want" "$WORK/have" > "$WORK/diff" || fail "$label: installed files differ from the list: $(cat "$WORK/diff")"
    cmp -s "$BIN" "$root/bin/nightmap" || fail "$label: bin/nightmap is not $BIN"
    [ -x "$root/bin/nightmap" ] || fail "$label: bin/nightmap is not executable"
    ok "$label: all $(wc -l < "$WORK/want") files in place, nothing else"

    local out
    out=$(desktop-file-validate "$root/share/applications/nightmap.desktop" 2>&1) || fail "$label: desktop-file-validate: $out"
    [ -z "$out" ] || fail "$label: desktop-file-validate says: $out"
    ok "$label: desktop-file-validate passes without a hint"
    local s
    for s in 48 128 256; do
        [ "$(identify -format '%wx%h' "$root/share/icons/hicolor/${s}x$s/apps/nightmap.png")" = "${s}x$s" ] \
            || fail "$label: the ${s}x$s icon is not ${s}x$s"
    done
    ok "$label: icons 48, 128 and 256 px"

    local page=$root/share/man/man1/nightmap.1 section
    MANWIDTH=80 man -l "$page" > "$WORK/man.txt" 2> "$WORK/man.err" || fail "$label: man -l: $(cat "$WORK/man.err")"
    [ -s "$WORK/man.txt" ] || fail "$label: man -l printed nothing"
    for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS KEYS FILES ENVIRONMENT "EXIT STATUS" "SEE ALSO"; do
        grep -q "^$section" "$WORK/man.txt" || fail "$label: the manual page has no $section section"
    done
    MANWIDTH=80 man --warnings -l "$page" 2>&1 > /dev/null | { ! grep .; } || fail "$label: man warns about the page"
    [ "$(man -M "$root/share/man" -w nightmap)" = "$page" ] || fail "$label: man -M .../share/man does not find nightmap(1)"
    ok "$label: man renders nightmap(1) ($(wc -l < "$WORK/man.txt") lines, every section, no warnings)"

    rm -f "$WORK/x.png"
    isolated "$root/bin/nightmap" snapshot --iss tle --tle-url none --alerts-url none --radar demo --size 320x200 -o "$WORK/x.png" 2> "$WORK/err" \
        || fail "$label: the installed binary, run from /: $(cat "$WORK/err")"
    [ "$(identify -format '%wx%h' "$WORK/x.png")" = 320x200 ] || fail "$label: the snapshot is not a 320x200 PNG"
    ok "$label: $root/bin/nightmap snapshot from / finds its resources"
    rm -f "$WORK/x.png"
    isolated env PATH="$root/bin:$PATH" nightmap snapshot --iss tle --tle-url none --alerts-url none --radar demo --size 320x200 -o "$WORK/x.png" 2> "$WORK/err" \
        || fail "$label: nightmap through PATH, from /: $(cat "$WORK/err")"
    [ -s "$WORK/x.png" ] || fail "$label: no snapshot through PATH"
    ok "$label: nightmap through PATH from / finds its resources"
}

# uninstalled ROOT LABEL MAKEARGS...: `make uninstall` removes every file it installed, not others.
uninstalled() {
    local root=$1 label=$2; shift 2
    mkdir -p "$root/share/applications"
    echo keep > "$root/share/applications/other.desktop"
    make -s uninstall "$@" > "$WORK/log" 2>&1 || fail "$label: make uninstall: $(tail -5 "$WORK/log")"
    [ "$(cat "$root/share/applications/other.desktop" 2>/dev/null)" = keep ] || fail "$label: make uninstall removed another file"
    rm "$root/share/applications/other.desktop"
    local left
    left=$(find "$root" -type f)
    [ -z "$left" ] || fail "$label: files left after make uninstall: $left"
    [ ! -e "$root/share/nightmap" ] || fail "$label: share/nightmap is still there"
    make -s uninstall "$@" > "$WORK/log" 2>&1 || fail "$label: a second make uninstall fails: $(tail -5 "$WORK/log")"
    ok "$label: make uninstall leaves no file (and a second one does no harm)"
}

# 1. PREFIX. (`-o build`: install the binary given, built already, rather than build it again.)
prefix=$WORK/prefix
make -o build install PREFIX="$prefix" BIN="$BIN" > "$WORK/log" 2>&1 || fail "make install PREFIX=: $(tail -5 "$WORK/log")"
check "$prefix" "PREFIX"
uninstalled "$prefix" "PREFIX" PREFIX="$prefix"

# 2. DESTDIR (a package's staging folder) with PREFIX=/usr.
stage=$WORK/stage
make -o build install DESTDIR="$stage" PREFIX=/usr BIN="$BIN" > "$WORK/log" 2>&1 || fail "make install DESTDIR=: $(tail -5 "$WORK/log")"
[ "$(find "$stage" -mindepth 1 -maxdepth 1)" = "$stage/usr" ] || fail "DESTDIR: something outside $stage/usr"
check "$stage/usr" "DESTDIR"
uninstalled "$stage/usr" "DESTDIR" DESTDIR="$stage" PREFIX=/usr
echo "install: all $pass checks passed"
