#!/usr/bin/env bash
# Builds the page's JavaScript modules, each a cdylib run through wasm-bindgen --target web (and
# wasm-opt in release), under fixed names so other pages can import them:
#   OUT_ROOT/mock/petstore_mock.js             petstore-web, feature js-api: the mock
#   OUT_ROOT/markdown/petstore_markdown.js     petstore-web, feature markdown-api: the Markdown
#                                              renderer the reference loads after its first paint
#   OUT_ROOT/convert/petstore_convert.js       petstore-web, feature convert-api: the Swagger 2.0
#                                              to OpenAPI 3.0 converter, loaded when a document needs it
#   OUT_ROOT/dashboard/petstore_dashboard.js   petstore-dashboard: Project settings > Domains
# They are kept out of the reference's wasm so its first download stays small. Trunk runs this
# as a post_build hook (Trunk.toml), so `trunk build` and `trunk serve` both leave them in dist/.
# Usage: build-modules.sh [OUT_ROOT]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
OUT_ROOT="${1:-${TRUNK_STAGING_DIR:?run by trunk, or pass the output directory}}"
PROFILE="${TRUNK_PROFILE:-release}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# build_module PACKAGE FEATURES NAME DIR
build_module() {
  local package="$1" features="$2" name="$3" out="$OUT_ROOT/$4"
  local args=(-p "$package" --lib --crate-type cdylib --target wasm32-unknown-unknown --locked)
  [ -n "$features" ] && args+=(--features "$features")
  [ "$PROFILE" = release ] && args+=(--release)
  cargo rustc "${args[@]}"

  mkdir -p "$out"
  wasm-bindgen --target web --out-dir "$out" --out-name "$name" \
    "$TARGET_DIR/wasm32-unknown-unknown/$PROFILE/${package//-/_}.wasm"

  if [ "$PROFILE" = release ]; then
    # The same proposals as index.html's data-wasm-opt-params: Rust enables them for wasm32.
    wasm-opt -Oz --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
      -o "$out/${name}_bg.wasm.opt" "$out/${name}_bg.wasm"
    mv "$out/${name}_bg.wasm.opt" "$out/${name}_bg.wasm"
  fi
}

build_module petstore-web js-api petstore_mock mock
build_module petstore-web markdown-api petstore_markdown markdown
build_module petstore-web convert-api petstore_convert convert
build_module petstore-dashboard "" petstore_dashboard dashboard
