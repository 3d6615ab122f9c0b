#!/bin/sh
# Builds the device app for the Moddable SDK's Linux target and hosts/lin/halo-lin in one command:
#   MODDABLE=/path/to/moddable hosts/lin/build.sh [-d] [mcconfig arguments, e.g. openaiBaseUrl=...]
# -d makes a debug build (it prints `instruments:` rows every second), -i an instrumented release build. Needs the SDK's lin tools built
# ($MODDABLE/build/bin/lin/release) and the repo's node_modules (`npm ci`). See README.md beside this file.
set -eu
: "${MODDABLE:?set MODDABLE to your Moddable SDK checkout}"
root=$(cd "$(dirname "$0")/../.." && pwd)
kind=release
debug=
if [ "${1:-}" = "-d" ]; then
  kind=debug
  debug=-d
  shift
elif [ "${1:-}" = "-i" ]; then
  # a release build with the SDK's instrumentation (what hosts/device/curve-bench.ts reads the heap with)
  kind=instrument
  debug=-i
  shift
fi
export MODDABLE
tools="$MODDABLE/build/bin/lin/release"
[ -x "$tools/mcconfig" ] || { echo "build.sh: no $tools/mcconfig: build the SDK's lin tools first" >&2; exit 1; }

# The SDK's xsl links with room for 8,192 keys (property names and identifiers) and cannot grow them; the app
# has more (8,842 in December 2026), so stock xsl stops with "not enough keys". A copy of the SDK's xs folder
# with that one number raised is built once, outside the SDK, and put first on PATH.
xsl_home="${HALO_XSL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/halo-xsl}"
if [ ! -x "$xsl_home/build/bin/lin/release/xsl" ]; then
  echo "build.sh: building xsl with room for 32,768 keys in $xsl_home (once)"
  rm -rf "$xsl_home"
  mkdir -p "$xsl_home"
  cp -r "$MODDABLE/xs" "$xsl_home/xs"
  sed -i 's|2048 \* 4,\(\t*\)/\* initialKeyCount \*/|2048 * 16,\1/* initialKeyCount */|' "$xsl_home/xs/tools/xsl.c"
  grep -q '2048 \* 16,.*initialKeyCount' "$xsl_home/xs/tools/xsl.c" || { echo "build.sh: xsl.c changed; cannot raise its key count" >&2; exit 1; }
  make -C "$xsl_home/xs/makefiles/lin" -f xsl.mk GOAL=release XS_DIR="$xsl_home/xs" BUILD_DIR="$xsl_home/build"
fi

# mcconfig compiles .ts with the repo's tsc.
PATH="$xsl_home/build/bin/lin/release:$root/node_modules/.bin:$tools:$PATH"
export PATH
name=$(basename "$root")
cd "$root"
# Without -m mcconfig only writes the makefile (with -m it could start the GTK simulator).
mcconfig $debug -p lin manifest.json "$@"
makefile="$MODDABLE/build/tmp/lin/mc/$kind/$name/makefile"
[ -f "$makefile" ] || { echo "build.sh: no makefile at $makefile" >&2; exit 1; }
# One tsc run for every module instead of the makefile's one run per module.
node hosts/lin/tsc-once.mjs "$makefile"
make -j"${JOBS:-2}" -f "$makefile" build
make -C hosts/lin MODDABLE="$MODDABLE"
so="$MODDABLE/build/bin/lin/mc/$kind/$name/mc.so"
[ -f "$so" ] || { echo "build.sh: no mc.so at $so" >&2; exit 1; }
echo "built $so"
echo "run:  hosts/lin/halo-lin $so <data folder>"
