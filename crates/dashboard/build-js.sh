#!/usr/bin/env bash
# Builds the Domains page (Project settings > Domains) as its own JavaScript module, a cdylib run
# through wasm-bindgen --target web (and wasm-opt in release):
#   OUT_ROOT/dashboard/petstore_dashboard.js  (+ petstore_dashboard_bg.wasm, .d.ts): mountDomains
# www/domains.html imports it. It is kept out of the reference's wasm so the reference's first
# download stays small. Trunk runs it as a post_build hook (Trunk.toml), so `trunk build` and
# `trunk serve` both leave it in dist/. Usage: build-js.sh [OUT_ROOT]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT_ROOT="${1:-${TRUNK_STAGING_DIR:?run by trunk, or pass the output directory}}"
PROFILE="${TRUNK_PROFILE:-release}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
NAME=petstore_dashboard
OUT="$OUT_ROOT/dashboard"

args=(-p petstore-dashboard --lib --crate-type cdylib --target wasm32-unknown-unknown --locked)
[ "$PROFILE" = release ] && args+=(--release)
cargo rustc "${args[@]}"

mkdir -p "$OUT"
wasm-bindgen --target web --out-dir "$OUT" --out-name "$NAME" \
  "$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/$NAME.wasm"

if [ "$PROFILE" = release ]; then
  # The same proposals as index.html's data-wasm-opt-params: Rust enables them for wasm32.
  wasm-opt -Oz --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    -o "$OUT/${NAME}_bg.wasm.opt" "$OUT/${NAME}_bg.wasm"
  mv "$OUT/${NAME}_bg.wasm.opt" "$OUT/${NAME}_bg.wasm"
fi
