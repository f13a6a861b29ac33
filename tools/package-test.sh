#!/usr/bin/env bash
# Tests the Debian package as a user would meet it: installs it with apt (which resolves
# its dependencies), runs `twinspot --version` and `twinspot compare` from PATH, finds the
# man pages, validates the desktop entry and the AppStream metainfo as installed, loads the
# bash completion, starts the window from the installed binary under Xvfb (empty, then with
# two files) and takes screenshots, then removes the package and checks that every file it
# installed is gone. Exits non-zero at the first failure.
#
#   tools/package-test.sh [PACKAGE.deb]     (default: the newest target/debian/twinspot_*.deb)
#
# Needs a Debian machine, root (or sudo), and: desktop-file-utils appstream man-db
# bash-completion xvfb xauth imagemagick x11-utils (all installed by .ci/setup). Screenshots go to
# target/package-test/. The package must not be installed already: it is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
APP_ID=io.github.twinspot.Twinspot
OUT=target/package-test
mkdir -p "$OUT"
WORK=$(mktemp -d)
XVFB_PID=""
APP_PID=""
INSTALLED=""

checks=0
started=$(date +%s)
step() { echo "-- package: $*"; checks=$((checks + 1)); }
fail() { echo "package test FAILED: $*" >&2; exit 1; }
cleanup() {
  [ -n "$APP_PID" ] && kill "$APP_PID" 2>/dev/null || true
  [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null || true
  # After a failure, the package goes again (with its files) so the next run starts clean.
  [ -n "$INSTALLED" ] && $SUDO dpkg -P twinspot > /dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

deb="${1:-$(ls -t target/debian/twinspot_*.deb 2>/dev/null | head -n 1 || true)}"
[ -n "$deb" ] && [ -f "$deb" ] || fail "no package: build one with 'cargo deb' (see README, Install)"
deb=$(realpath "$deb")
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
step "$deb (Cargo.toml version $version)"
dpkg-query -W -f='${Status}' twinspot 2>/dev/null | grep -q "install ok installed" \
  && fail "twinspot is installed already; remove it first (dpkg -r twinspot)"

# The files the package holds (directories aside), to check their removal at the end.
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./|/|' > "$WORK/files"
[ "$(dpkg-deb -f "$deb" Version)" = "$version-1" ] || fail "package version $(dpkg-deb -f "$deb" Version), expected $version-1"

step "install with apt"
apt_options=()
# Minimal images may keep dpkg from installing manual pages: let ours in.
if grep -rqs '^path-exclude=/usr/share/man' /etc/dpkg/dpkg.cfg.d/; then
  apt_options+=(-o "DPkg::Options::=--path-include=/usr/share/man/man1/twinspot*")
fi
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${apt_options[@]}" "$deb" \
  > "$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log"; fail "apt-get install"; }
INSTALLED=yes
dpkg-query -W -f='${Status}' twinspot | grep -q "install ok installed" || fail "not installed"
missing_libs=$(ldd /usr/bin/twinspot | grep "not found" || true)
[ -z "$missing_libs" ] || fail "libraries not found: $missing_libs"

# From here on, PATH as a fresh login has it: the installed program, not a build's.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
hash -r
[ "$(command -v twinspot)" = /usr/bin/twinspot ] || fail "twinspot on PATH is $(command -v twinspot)"

step "twinspot --version"
[ "$(twinspot --version)" = "twinspot $version" ] || fail "'twinspot --version' says '$(twinspot --version)'"

step "twinspot compare"
mkdir -p "$WORK/refs" "$WORK/subs"
printf '%s\n' "The quick brown fox jumps over the lazy dog while the farmer sleeps under the old oak tree near the river." \
  > "$WORK/refs/source.txt"
printf '%s\n' "Yesterday, the quick brown fox jumps over the lazy dog while the farmer sleeps under the old oak tree near the river, they say." \
  > "$WORK/subs/copy.txt"
(cd "$WORK" && twinspot compare -r refs -s subs --json report.json --no-cache -q) || fail "twinspot compare"
python3 - "$WORK/report.json" "$version" <<'PY' || fail "compare's report"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["tool"] == "twinspot " + sys.argv[2], report["tool"]
assert len(report["pairs"]) == 1 and report["pairs"][0]["passages"], "no shared passage found"
PY

step "man pages"
man -w twinspot > /dev/null || fail "man -w twinspot"
for page in twinspot-compare twinspot-archive twinspot-archive-add; do
  man -w "$page" > /dev/null || fail "man -w $page"
done
page=$(MANWIDTH=80 man -P cat twinspot 2>/dev/null)
grep -q "compare(1)" <<< "$page" || fail "the page twinspot(1) does not list compare"

step "desktop entry and AppStream metainfo"
desktop-file-validate "/usr/share/applications/$APP_ID.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "/usr/share/metainfo/$APP_ID.metainfo.xml" || fail "appstreamcli validate"
for size in 16x16 32x32 48x48 128x128 256x256 scalable; do
  ls /usr/share/icons/hicolor/$size/apps/twinspot.* > /dev/null || fail "no $size icon"
done

step "shell completions"
bash -c '
  set -e
  source /usr/share/bash-completion/bash_completion
  source /usr/share/bash-completion/completions/twinspot
  complete -p twinspot > /dev/null
  COMP_WORDS=(twinspot com); COMP_CWORD=1; COMP_LINE="twinspot com"; COMP_POINT=${#COMP_LINE}
  _twinspot twinspot com twinspot
  printf "%s\n" "${COMPREPLY[@]}" | grep -qx compare
' || fail "the bash completion does not load or does not complete 'com' to 'compare'"
[ -s /usr/share/zsh/vendor-completions/_twinspot ] || fail "no zsh completion"
[ -s /usr/share/fish/vendor_completions.d/twinspot.fish ] || fail "no fish completion"

step "the window under Xvfb"
display=99
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp > "$WORK/xvfb.log" 2>&1 &
XVFB_PID=$!
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.1; done
[ -e "/tmp/.X11-unix/X$display" ] || { cat "$WORK/xvfb.log"; fail "Xvfb did not start"; }

# Starts the installed program in the window with "$@", waits, takes a screenshot to $1's
# name in $OUT and checks the window still runs and the screen is not blank.
shoot() {
  local name=$1
  shift
  mkdir -p "$WORK/home-$name" "$WORK/run-$name"
  chmod 700 "$WORK/run-$name"
  (cd "$WORK" && exec env -u WAYLAND_DISPLAY -u WAYLAND_SOCKET DISPLAY=":$display" HOME="$WORK/home-$name" \
    XDG_RUNTIME_DIR="$WORK/run-$name" twinspot "$@" > "$WORK/$name.log" 2>&1) &
  APP_PID=$!
  sleep "${TWINSPOT_WINDOW_WAIT:-10}"
  kill -0 "$APP_PID" 2>/dev/null || { cat "$WORK/$name.log"; fail "the window ($name) exited"; }
  # The window's X11 class is the desktop entry's StartupWMClass, and it carries an icon
  # (xprop shows "Icon (256 x 256)" when asked for only the first 8 bytes: its size).
  local window
  window=$(DISPLAY=":$display" xwininfo -root -tree | awk '/"Twinspot":/ {print $1; exit}')
  [ -n "$window" ] || fail "no window named Twinspot ($name)"
  local props
  props=$(DISPLAY=":$display" xprop -id "$window" WM_CLASS; DISPLAY=":$display" xprop -id "$window" -len 8 _NET_WM_ICON)
  grep -q "WM_CLASS.*\"$APP_ID\"" <<< "$props" || fail "the window's WM_CLASS is not $APP_ID"
  grep -q "Icon (256 x 256)" <<< "$props" || fail "the window has no icon"
  DISPLAY=":$display" import -window root "$OUT/$name.png" || fail "screenshot $name"
  kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
  APP_PID=""
  local spread
  spread=$(convert "$OUT/$name.png" -colorspace Gray -format '%[fx:standard_deviation]' info:)
  python3 -c "import sys; sys.exit(0 if float('$spread') > 0.02 else 1)" || fail "screenshot $name is blank"
  echo "   $OUT/$name.png (grey spread $spread)"
}
shoot window
shoot pair "$WORK/subs/copy.txt" "$WORK/refs/source.txt"

step "remove"
$SUDO dpkg -r twinspot > /dev/null || fail "dpkg -r"
INSTALLED=""
left=$(while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done < "$WORK/files" || true)
[ -z "$left" ] || fail "left after dpkg -r: $left"
[ ! -e /usr/share/doc/twinspot ] || fail "/usr/share/doc/twinspot left after dpkg -r"
$SUDO dpkg -P twinspot > /dev/null 2>&1 || true
echo "$(wc -l < "$WORK/files") files installed and removed; checked in $(( $(date +%s) - started )) s"
echo "package: $checks passed, 0 failed"
