#!/usr/bin/env bash
# The app's WebAssembly in a release build: Trunk leaves it as wasm-bindgen wrote it
# (index.html's data-wasm-opt="0"), and this runs scripts/finish-wasm.sh on it, then updates its
# Subresource Integrity hash in index.html, which Trunk computed before. Run by
# scripts/minify-js.mjs (a post_build hook) on Trunk's staging directory; does nothing in a debug
# build.
# Usage: finish-app-wasm.sh [OUT_ROOT]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-${TRUNK_STAGING_DIR:?run by trunk, or pass the output directory}}"
[ "${TRUNK_PROFILE:-release}" = release ] || exit 0

shopt -s nullglob
apps=("$out"/playground-app-*_bg.wasm)
if [ "${#apps[@]}" -ne 1 ]; then
  echo "finish-app-wasm: expected one playground-app-*_bg.wasm in $out, found ${#apps[@]}" >&2
  exit 1
fi
wasm="${apps[0]}"
# A file's Subresource Integrity hash, as Trunk writes it.
sri() {
  node -e 'const c = require("node:crypto"), f = require("node:fs");
    const hash = c.createHash("sha384").update(f.readFileSync(process.argv[1]));
    console.log("sha384-" + hash.digest("base64"))' "$1"
}
before="$(sri "$wasm")"
if ! grep -qF "$before" "$out/index.html"; then
  echo "finish-app-wasm: index.html has no integrity hash for $wasm" >&2
  exit 1
fi
bash "$ROOT/scripts/finish-wasm.sh" "$wasm" -Os
after="$(sri "$wasm")"
# Base64 has no `|`.
sed -i "s|$before|$after|g" "$out/index.html"
