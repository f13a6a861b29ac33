#!/usr/bin/env bash
# Renders the icon's PNG sizes from its two drawings: twinspot-small.svg (no text lines,
# thicker strokes) for 16-32 pixels, twinspot.svg for 48 pixels and up.
# Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"
for s in 16 22 24 32; do rsvg-convert -w "$s" -h "$s" twinspot-small.svg -o "twinspot-$s.png"; done
for s in 48 64 128 256 512; do rsvg-convert -w "$s" -h "$s" twinspot.svg -o "twinspot-$s.png"; done
