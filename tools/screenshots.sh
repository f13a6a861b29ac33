#!/usr/bin/env bash
# Takes the README's window screenshots under Xvfb: the class overview (classmates and
# references, English, 1920×1080), the same in Chinese at 1024×700 with the lists folded
# away and in English with them shown, a pair side by side at 1024×700 (the lists folded
# by themselves), at 1280×800 with the lists shown, and in Chinese at 1920×1080, and the suspects against an archive. The window is started with a remembered last
# session (lists, mode, language, window size), which it checks again on start, so no
# clicks are needed.
#
#   tools/screenshots.sh [BINARY] [DEVSET] [OUT]
#       BINARY  default target/debug/twinspot
#       DEVSET  default ../shared/devset (suspect/ and reference/ folders)
#       OUT     default target/screenshots
#
# Needs xvfb, xauth and imagemagick. Set TWINSPOT_WINDOW_WAIT (seconds, default 25) on
# a slow machine.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-target/debug/twinspot}")
DEVSET=$(realpath "${2:-../shared/devset}")
OUT=$(realpath -m "${3:-target/screenshots}")
WAIT=${TWINSPOT_WINDOW_WAIT:-25}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# shoot NAME WIDTH HEIGHT LANG SIDEBAR_HIDDEN [FILES...]; with ARCHIVE set, the suspects
# are checked against that archive instead of the class against itself and its sources.
shoot() {
  local name=$1 width=$2 height=$3 lang=$4 hidden=$5
  shift 5
  local home="$WORK/home-$name" display=$((90 + RANDOM % 9))
  mkdir -p "$home/data/twinspot" "$home/run"
  chmod 700 "$home/run"
  python3 - "$home/data/twinspot/app.ron" "$width" "$height" "$lang" "$hidden" "$DEVSET" "${ARCHIVE:-}" <<'PY'
import json, sys
path, width, height, lang, hidden, devset, archive = sys.argv[1:]
# A fixed-size array is a tuple in RON: the three lists are written in parentheses.
if archive:
    app = ("(lang: %s, mode: suspects_vs_references, mode_chosen: true, sidebar_hidden: %s, "
           "archive: Some(%s), use_archive: true, session: (lists: ([], [%s], []), had_results: true))") % (
        lang, hidden, json.dumps(archive), json.dumps(devset + "/suspect"))
else:
    app = ("(lang: %s, mode: classmates, mode_chosen: true, sidebar_hidden: %s, session: (lists: "
           "([%s], [%s], []), had_results: true, check_name: Some(\"Class 3B, essay 2\")))") % (
        lang, hidden, json.dumps(devset + "/reference"), json.dumps(devset + "/suspect"))
window = ("(normal_geometry: (outer_position_pixels: Some((x: 0.0, y: 0.0)), scale_factor: 1.0, "
          "inner_size_points: (x: %s.0, y: %s.0)), fullscreen: false, maximized: false)") % (width, height)
with open(path, "w") as f:
    f.write("{\n    \"app\": %s,\n    \"window\": %s,\n}\n" % (json.dumps(app), json.dumps(window)))
PY
  Xvfb ":$display" -screen 0 "${width}x${height}x24" -nolisten tcp > "$WORK/xvfb-$name.log" 2>&1 &
  local xvfb=$!
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
  env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET DISPLAY=":$display" HOME="$home" XDG_DATA_HOME="$home/data" \
    XDG_RUNTIME_DIR="$home/run" "$BIN" "$@" > "$WORK/$name.log" 2>&1 &
  local app=$!
  sleep "$WAIT"
  DISPLAY=":$display" import -window root "$OUT/$name.png"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
  wait "$xvfb" 2>/dev/null || true
  echo "$OUT/$name.png"
}

shoot overview-en-1920 1920 1080 En false
shoot overview-zh-1024 1024 700 Zh true
shoot overview-en-1024 1024 700 En false
# Two files given: compared at once, the pair opened (one with three passages).
shoot pair-en-1024 1024 700 En true "$DEVSET/suspect/s012.txt" "$DEVSET/reference/r009.txt"
# With the lists shown: both texts must end inside the window. Below 1200 px a pair folds
# the lists by itself (Ctrl+B shows them), so this one is taken at 1280 px.
shoot pair-en-1280-lists 1280 800 En false "$DEVSET/suspect/s012.txt" "$DEVSET/reference/r009.txt"
shoot pair-zh-1920 1920 1080 Zh false "$DEVSET/suspect/s012.txt" "$DEVSET/reference/r009.txt"
# The suspects against an archive of the references, made first with the command line.
"$BIN" archive add "$WORK/archive" "$DEVSET/reference" -q > /dev/null
ARCHIVE="$WORK/archive" shoot archive-en-1280 1280 800 En false
