#!/usr/bin/env bash
# A new user's clone: the committed tree cloned into a fresh mode-0700 temporary folder (no
# shared/ anywhere near it), where the unit tests must pass. As root the clone belongs to an
# ordinary user (nobody, with a HOME of its own) who runs them, so nothing may need root either.
# Usage: Tests/e2e/fresh-clone.sh (from the checkout; tests what is committed, not the work tree)
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
SWIFT=$(command -v "$SWIFT")
top=$(mktemp -d)            # mktemp makes it mode 0700
trap 'rm -rf "$top"' EXIT
git clone -q "$PWD" "$top/nm"
[ ! -e "$top/shared" ] || { echo "fresh-clone: a shared/ folder is beside the clone" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then
    mkdir "$top/home"
    chown -R nobody:nogroup "$top"
    run() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$top/home" XDG_CACHE_HOME="$top/home/.cache" "$@"; }
    who="nobody"
else
    run() { "$@"; }
    who="$(id -un)"
fi
echo "fresh-clone: unit tests in $top/nm (mode $(stat -c %a "$top"), as $who)"
set +e
( cd "$top/nm" && run "$SWIFT" test ) > "$top/log" 2>&1
rc=$?
set -e
tail -n 15 "$top/log"
# A failure far up the log would scroll out of the tail: name every failing test and its issue.
if [ "$rc" != 0 ]; then
    echo "fresh-clone: failing tests and their issues:" >&2
    grep -E "recorded an issue|failed after|error: |Fatal error|Test Case .* failed" "$top/log" | head -n 40 >&2 || true
fi
[ "$rc" = 0 ] || { echo "fresh-clone: FAILED: swift test exited $rc in the fresh clone" >&2; exit 1; }
echo "fresh-clone: passed"
