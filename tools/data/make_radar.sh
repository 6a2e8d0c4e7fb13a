#!/usr/bin/env bash
# Body of `make radar-frames`: regenerate the SYNTHETIC demo radar frames
# Resources/radar/radar0..4.gif and Resources/radar/SHA256SUMS with tools/data/make_radar.py.
# Needs python3 (with venv) and PyPI; the venv goes under build/.
# Extra arguments go to make_radar.py (e.g. --preview /tmp/radar-preview.png).
# See Resources/radar/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."

. tools/data/venv.sh
VENV=build/radar-venv
OUT=Resources/radar

# Pinned: numpy's FFT/RNG and Pillow's GIF writer both decide the exact bytes.
PINS=(numpy==2.4.6 pillow==11.3.0)

ensure_venv "$VENV" "${PINS[@]}"

mkdir -p "$OUT"
start=$(date +%s.%N)
"$VENV/bin/python" tools/data/make_radar.py --out "$OUT" "$@"
end=$(date +%s.%N)
echo "make_radar.py wall time: $(awk "BEGIN{printf \"%.1f\", $end-$start}") s"

(cd "$OUT" && sha256sum -c --quiet SHA256SUMS)
ls -l "$OUT"
