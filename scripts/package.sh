#!/usr/bin/env bash
# make package: the npm package of the mocks (packages/mock), built and packed by `npm pack`
# into target/package/petstore-playground-mock-VERSION.tgz. Its WebAssembly module is
# playground-module-package (scripts/build-modules.sh ... package);
# js-yaml's ES module (the YAML reader) is copied in beside its licence, so installing the
# package downloads nothing more. Prints the packed size and the gzip size of each .wasm.
# Usage: package.sh [debug]   (debug: an unoptimised module, for a quick try)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
scripts/ensure-tools.sh build >/dev/null

OUT="$ROOT/target/package"
STAGE="$OUT/petstore-playground-mock"
BUILD="$OUT/modules"
rm -rf "$STAGE" "$BUILD"
mkdir -p "$STAGE" "$BUILD"

TRUNK_PROFILE="${1:-release}" scripts/build-modules.sh "$BUILD" package

cp -R packages/mock/package.json packages/mock/README.md packages/mock/src packages/mock/types "$STAGE/"
mkdir -p "$STAGE/wasm" "$STAGE/vendor"
cp -R "$BUILD/package/." "$STAGE/wasm/"
rm -f "$STAGE/wasm/"*_bg.wasm.d.ts
cp .tools/node_modules/js-yaml/dist/js-yaml.mjs "$STAGE/vendor/js-yaml.mjs"
cp .tools/node_modules/js-yaml/LICENSE "$STAGE/vendor/js-yaml.LICENSE"
cp packages/mock/LICENSE-MIT "$STAGE/LICENSE-MIT"
cp packages/mock/LICENSE-APACHE "$STAGE/LICENSE-APACHE"

rm -f "$OUT"/petstore-playground-mock-*.tgz
tarball="$(cd "$STAGE" && npm pack --silent --pack-destination "$OUT")"
echo "package: $OUT/$tarball ($(stat -c %s "$OUT/$tarball") bytes packed)"
for wasm in "$STAGE"/wasm/*.wasm; do
  echo "package: $(basename "$wasm"): $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzip"
done
