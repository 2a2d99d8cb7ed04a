#!/usr/bin/env bash
# Builds the JavaScript modules of petstore-web, each as a cdylib run through
# wasm-bindgen --target web (and wasm-opt in release):
#   OUT_ROOT/mock/petstore_mock.js          feature js-api: the mock (+ petstore_mock_bg.wasm, .d.ts)
#   OUT_ROOT/markdown/petstore_markdown.js  feature markdown-api: the safe Markdown renderer
# Trunk runs it as a post_build hook (Trunk.toml), so `trunk build` and `trunk serve` both leave
# them in dist/. Usage: build-js.sh [OUT_ROOT]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT_ROOT="${1:-${TRUNK_STAGING_DIR:?run by trunk, or pass the output directory}}"
PROFILE="${TRUNK_PROFILE:-release}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

build_module() {
  local feature="$1" name="$2" out="$OUT_ROOT/$3"
  local args=(-p petstore-web --lib --crate-type cdylib --features "$feature" --target wasm32-unknown-unknown --locked)
  [ "$PROFILE" = release ] && args+=(--release)
  cargo rustc "${args[@]}"

  mkdir -p "$out"
  wasm-bindgen --target web --out-dir "$out" --out-name "$name" \
    "$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/petstore_web.wasm"

  if [ "$PROFILE" = release ]; then
    # The same proposals as index.html's data-wasm-opt-params: Rust enables them for wasm32.
    wasm-opt -Oz --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
      -o "$out/${name}_bg.wasm.opt" "$out/${name}_bg.wasm"
    mv "$out/${name}_bg.wasm.opt" "$out/${name}_bg.wasm"
  fi
}

build_module js-api petstore_mock mock
build_module markdown-api petstore_markdown markdown
