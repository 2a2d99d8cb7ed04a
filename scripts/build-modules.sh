#!/usr/bin/env bash
# Builds the page's JavaScript modules, each a cdylib run through wasm-bindgen --target web (and
# wasm-opt in release), under fixed names so other pages can import them:
#   OUT_ROOT/mock/petstore_mock.js             playground-module-mock: the Petstore's mock
#   OUT_ROOT/api-mock/playground_api_mock.js     playground-module-api-mock: the mock of any
#                                              document (ApiMock), apart so the Petstore's stays small
#   OUT_ROOT/markdown/playground_markdown.js     playground-module-markdown: the Markdown
#                                              renderer the reference loads after its first paint
#   OUT_ROOT/convert/playground_convert.js       playground-module-convert: the Swagger 2.0
#                                              to OpenAPI 3.0 converter, loaded when a document needs it
#   OUT_ROOT/dashboard/playground_dashboard.js   playground-dashboard, feature demo: Project settings >
#                                              Domains, the static demo with the simulated zone
#   OUT_ROOT/dashboard-host/playground_dashboard.js  feature host: the same page served by
#                                              `playground host`, on the host's API
#   OUT_ROOT/tryit/playground_tryit.js           playground-tryit: the try-it panel and code samples,
#                                              loaded when the reader opens an operation
#   OUT_ROOT/tryit-extras/playground_tryit.js    the same with the feature extras (Authorization,
#                                              form and file bodies), for operations that need them
# and OUT_ROOT/petstore.json, the Petstore document the reference shows. Named on the command line
# (build-modules.sh OUT_ROOT DIR...), only those are built; two more are built only when named:
#   OUT_ROOT/package/mock.js                   playground-module-package: the npm package's module
#                                              (ApiMock, PetstoreMock and DocumentBundle), for
#                                              scripts/package.sh
#   OUT_ROOT/site/playground_site.js           playground-module-site: the site builder of the
#                                              npm command line (packages/cli), buildSite
# They are kept out of the reference's wasm so its first download stays small. Trunk runs this
# as a post_build hook (Trunk.toml), so `trunk build` and `trunk serve` both leave them in dist/.
# Usage: build-modules.sh [OUT_ROOT [DIR...]]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
OUT_ROOT="${1:-${TRUNK_STAGING_DIR:?run by trunk, or pass the output directory}}"
ONLY=("${@:2}")
PROFILE="${TRUNK_PROFILE:-release}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# build_module PACKAGE NAME DIR [STACK_BYTES] [MORE CARGO ARGUMENTS...]
# Each crate under crates/modules/ is one module, with nothing to choose; the try-it and
# dashboard crates are built twice, their mode a feature (in MORE CARGO ARGUMENTS).
build_module() {
  local package="$1" name="$2" dir="$3" out="$OUT_ROOT/$3" stack="${4:-}"
  if [ "${#ONLY[@]}" -gt 0 ] && [[ " ${ONLY[*]} " != *" $3 "* ]]; then return; fi
  if [ "${#ONLY[@]}" -eq 0 ] && { [ "$3" = package ] || [ "$3" = site ]; }; then return; fi
  shift "$(( $# < 4 ? $# : 4 ))"
  local args=(-p "$package" --lib --crate-type cdylib --target wasm32-unknown-unknown --locked "$@")
  # The npm package's module runs test suites' requests in Node: its mock, checker and generator
  # are built for speed (Cargo.toml's `npm` profile) and wasm-opt'd with -O3, which answers a
  # round trip in about three quarters of the time for a quarter more bytes. The page's modules
  # stay built for size (wasm-opt's -Os: smaller than -Oz once gzipped).
  local profile="$PROFILE" opt=-Os
  if [ "$PROFILE" = release ] && [ "$dir" = package ]; then profile=npm opt=-O3; fi
  [ "$profile" = release ] && args+=(--release)
  [ "$profile" = npm ] && args+=(--profile npm)
  local rustc=()
  # A stack other than Rust's 1 MiB: every byte of it is memory the page holds while the
  # module lives. Rust puts the stack first in memory, so running out traps (the module's
  # call fails) rather than overwriting anything.
  [ -n "$stack" ] && rustc+=(-C "link-arg=-zstack-size=$stack")
  # JSON messages to a file (diagnostics still rendered): the core's build script's output
  # directory (crates/petstore's) is read from them below.
  cargo rustc "${args[@]}" --message-format=json-render-diagnostics -- "${rustc[@]}" >"$messages"

  mkdir -p "$out"
  wasm-bindgen --target web --out-dir "$out" --out-name "$name" \
    "$TARGET_DIR/wasm32-unknown-unknown/$profile/${package//-/_}.wasm"

  # The exports nothing calls taken out, and wasm-opt (scripts/finish-wasm.sh).
  if [ "$PROFILE" = release ]; then bash "$ROOT/scripts/finish-wasm.sh" "$out/${name}_bg.wasm" "$opt"; fi
}

messages="$(mktemp)"
trap 'rm -f "$messages"' EXIT

build_module playground-module-mock petstore_mock mock
build_module playground-module-api-mock playground_api_mock api-mock
build_module playground-module-package mock package
build_module playground-module-site playground_site site

# The Petstore document the reference shows (src/document.rs, BUILTIN_PATH), beside the app
# rather than inside its WebAssembly: the compact JSON the petstore crate's build script makes of
# openapi/petstore.yaml (crates/petstore/build.rs), the very text the mock embeds. Not when only
# some modules are built (their build messages may not name the petstore crate's).
if [ "${#ONLY[@]}" -eq 0 ]; then
  petstore_out="$(node -e '
    const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n");
    for (const line of lines) {
      if (!line.startsWith("{")) continue;
      const m = JSON.parse(line);
      if (m.reason === "build-script-executed" && /[#/]petstore[#@]/.test(m.package_id)) console.log(m.out_dir);
    }' "$messages")"
  [ -f "$petstore_out/petstore.json" ] || { echo "build-modules: the petstore crate's build script's petstore.json was not found" >&2; exit 1; }
  cp "$petstore_out/petstore.json" "$OUT_ROOT/petstore.json"
fi

# The Markdown renderer walks pulldown-cmark's events without recursion: 128 KiB of stack
# rather than 1 MiB leaves the page 0.9 MB (checked with deeply nested input in
# tests/e2e/documents.test.mjs).
build_module playground-module-markdown playground_markdown markdown 131072
build_module playground-module-convert playground_convert convert
# One module per mode of the Domains page: domains.html loads the host's when the host named its
# API in the page (<meta name="playground-host-api">), the demo's otherwise.
build_module playground-dashboard playground_dashboard dashboard "" --no-default-features --features demo
build_module playground-dashboard playground_dashboard dashboard-host "" --no-default-features --features host
build_module playground-tryit playground_tryit tryit
build_module playground-tryit playground_tryit tryit-extras "" --features extras
