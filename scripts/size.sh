#!/usr/bin/env bash
# Prints the raw and gzip (-9) size of the release build's wasm, js and css in dist/.
set -euo pipefail
DIST="${1:-$(cd "$(dirname "$0")/.." && pwd)/dist}"
shopt -s nullglob
# The reference page's own files (not the deferred modules or the other pages' CSS): its
# WebAssembly and JavaScript, and its two stylesheets (theme.css and style.css of www/).
# Both are inline in index.html (counted as "css" from there).
files=("$DIST"/playground-app-*.wasm "$DIST"/playground-app-*.js)
[ ${#files[@]} -gt 0 ] || { echo "no build in $DIST: run make build" >&2; exit 1; }
{
  for f in "${files[@]}"; do
    printf '%s %s %s\n' "${f##*.}" "$(stat -c %s "$f")" "$(gzip -9 -c "$f" | wc -c)"
  done
  styles="$(perl -0ne 'print $1 while /<style[^>]*>(.*?)<\/style>/gs' "$DIST/index.html")"
  printf 'css %s %s\n' "$(printf '%s' "$styles" | wc -c)" "$(printf '%s' "$styles" | gzip -9 | wc -c)"
} | awk '
  BEGIN { printf "%-8s %12s %12s\n", "file", "raw", "gzip" }
  { printf "%-8s %9.1f KB %9.1f KB\n", $1, $2 / 1000, $3 / 1000; raw += $2; gz += $3 }
  END { printf "%-8s %9.1f KB %9.1f KB\n", "total", raw / 1000, gz / 1000 }'
