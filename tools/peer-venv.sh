#!/usr/bin/env bash
# Makes the Python environment Benchmarks/maplibre_peer.py runs in: build/bench-peer/venv, with
# PyPI's pymgl (MapLibre Native), pillow and pmtiles. pymgl 0.6.1 has wheels for CPython 3.12 and
# later only; the newest Python found (python3.14 .. python3.12 on PATH, then pyenv's) gets it,
# and Debian 12's own python3 (3.11) gets pymgl 0.5.0, the newest wheel for it. Prints the venv's
# python. Usage: tools/peer-venv.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-build/bench-peer/venv}
if [ -x "$DIR/bin/python" ] && "$DIR/bin/python" -c 'import pymgl, numpy, PIL, pmtiles' 2>/dev/null; then
  echo "$DIR/bin/python"; exit 0
fi
py=""
for c in python3.14 python3.13 python3.12 "$HOME"/.pyenv/versions/3.1[2-9]*/bin/python; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys, venv; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
    py=$(command -v "$c"); break
  fi
done
if [ -n "$py" ]; then pymgl="pymgl==0.6.1"; else py=python3; pymgl="pymgl==0.5.0"; fi
rm -rf "$DIR"
"$py" -m venv "$DIR" >&2 || { echo "peer-venv: $py -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
"$DIR/bin/pip" install -q "$pymgl" numpy "pillow>=10" "pmtiles==3.8.1" >&2 ||
  { echo "peer-venv: pip could not install $pymgl, numpy, pillow and pmtiles 3.8.1 from PyPI" >&2; exit 1; }
echo "$DIR/bin/python"
