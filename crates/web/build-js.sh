#!/usr/bin/env bash
# Builds the mock's JavaScript module: petstore-web with the `js-api` feature as a cdylib, then
# wasm-bindgen --target web into OUT_DIR/petstore_mock.js + petstore_mock_bg.wasm (+ .d.ts),
# and wasm-opt in release. Trunk runs it as a post_build hook (Trunk.toml), so `trunk build`
# and `trunk serve` both leave it in dist/mock/. Usage: build-js.sh [OUT_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT="${1:-${TRUNK_STAGING_DIR:?run by trunk, or pass the output directory}/mock}"
PROFILE="${TRUNK_PROFILE:-release}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

args=(-p petstore-web --lib --crate-type cdylib --features js-api --target wasm32-unknown-unknown --locked)
[ "$PROFILE" = release ] && args+=(--release)
cargo rustc "${args[@]}"

mkdir -p "$OUT"
wasm-bindgen --target web --out-dir "$OUT" --out-name petstore_mock \
  "$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/petstore_web.wasm"

if [ "$PROFILE" = release ]; then
  # The same proposals as index.html's data-wasm-opt-params: Rust enables them for wasm32.
  wasm-opt -Oz --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    -o "$OUT/petstore_mock_bg.wasm.opt" "$OUT/petstore_mock_bg.wasm"
  mv "$OUT/petstore_mock_bg.wasm.opt" "$OUT/petstore_mock_bg.wasm"
fi
