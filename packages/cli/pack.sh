#!/usr/bin/env bash
# The npm package `petstore-playground` (the `playground` command on Node), staged in
# target/cli-package/stage and packed by `npm pack` into
# target/cli-package/petstore-playground-VERSION.tgz, with everything it runs inside:
#   - bin/, src/: this folder's JavaScript;
#   - wasm/: the site module (crates/modules/site, wasm-bindgen --target web):
#     playground_site.js and playground_site_bg.wasm;
#   - app/: the release app (dist/), without what no site uses: hidden entries, *.d.ts files
#     (as the native binary's embedded app), and the Petstore's own files (PETSTORE_ONLY, read
#     from the Rust source so the list is kept in one place; the site module's `copy` leaves
#     them out anyway);
#   - node_modules/petstore-playground-mock: the mock package's tarball (scripts/package.sh),
#     unpacked there and bundled (bundleDependencies), so installing needs no registry.
# Prints the sizes.
#
# Usage: packages/cli/pack.sh [--app DIR] [--mock TGZ] [--site-module DIR]
#   --app DIR          the app's folder, with index.html (default: dist/, from `make build`)
#   --mock TGZ         the mock package (default: target/package/petstore-playground-mock-*.tgz,
#                      made by scripts/package.sh when missing)
#   --site-module DIR  the site module's folder (default: target/cli-package/modules/site, made by
#                      `scripts/build-modules.sh target/cli-package/modules site` when missing)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"
# wasm-bindgen and wasm-opt, as scripts/package.sh finds them.
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

APP="$ROOT/dist"
MOCK=""
SITE_MODULE="$ROOT/target/cli-package/modules/site"
while [ $# -gt 0 ]; do
  case "$1" in
    --app) APP="$2"; shift 2 ;;
    --mock) MOCK="$2"; shift 2 ;;
    --site-module) SITE_MODULE="$2"; shift 2 ;;
    *) echo "pack.sh: unknown argument $1 (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done

fail() { echo "pack.sh: $*" >&2; exit 1; }

OUT="$ROOT/target/cli-package"
STAGE="$OUT/stage"
VERSION="$(node -p 'require(process.argv[1]).version' "$HERE/package.json")"
MOCK_VERSION="$(node -p 'require(process.argv[1]).dependencies["petstore-playground-mock"]' "$HERE/package.json")"

# The inputs, made when the defaults are missing.
[ -f "$APP/index.html" ] || fail "$APP has no index.html: run \`make build\` first, or give the app's folder with --app"
if [ -z "$MOCK" ]; then
  if ! ls "$ROOT"/target/package/petstore-playground-mock-*.tgz >/dev/null 2>&1; then
    scripts/package.sh
  fi
  MOCK="$(ls "$ROOT"/target/package/petstore-playground-mock-*.tgz | head -n 1)"
fi
[ -f "$MOCK" ] || fail "$MOCK: no such mock package tarball"
if [ ! -f "$SITE_MODULE/playground_site.js" ] && [ "$SITE_MODULE" = "$ROOT/target/cli-package/modules/site" ]; then
  scripts/build-modules.sh "$ROOT/target/cli-package/modules" site
fi
for file in playground_site.js playground_site_bg.wasm; do
  [ -f "$SITE_MODULE/$file" ] || fail "$SITE_MODULE/$file is missing: build the site module (scripts/build-modules.sh DIR site)"
done

# PETSTORE_ONLY, as the Rust source lists it: one quoted name a line up to `];`.
petstore_source="$(grep -l 'pub const PETSTORE_ONLY' crates/*/src/*.rs | head -n 1)"
[ -n "$petstore_source" ] || fail "PETSTORE_ONLY not found under crates/*/src"
mapfile -t PETSTORE_ONLY < <(sed -n '/pub const PETSTORE_ONLY/,/\];/p' "$petstore_source" | grep -o '"[^"]*"' | tr -d '"')
[ "${#PETSTORE_ONLY[@]}" -gt 0 ] || fail "PETSTORE_ONLY in $petstore_source lists no name"

rm -rf "$STAGE"
mkdir -p "$STAGE/wasm" "$STAGE/app" "$STAGE/node_modules/petstore-playground-mock"
cp -R "$HERE/package.json" "$HERE/README.md" "$HERE/bin" "$HERE/src" "$STAGE/"
cp packages/mock/LICENSE-MIT packages/mock/LICENSE-APACHE "$STAGE/"
cp "$SITE_MODULE/playground_site.js" "$SITE_MODULE/playground_site_bg.wasm" "$STAGE/wasm/"

# The app: links followed, as a site's copy follows them.
for entry in "$APP"/*; do
  name="$(basename "$entry")"
  if [[ " ${PETSTORE_ONLY[*]} " == *" $name "* ]]; then continue; fi
  cp -RL "$entry" "$STAGE/app/$name"
done
find "$STAGE/app" -mindepth 1 -name '.*' -prune -exec rm -rf {} +
find "$STAGE/app" -type f -name '*.d.ts' -delete

# The mock package, as npm would unpack it (its tarball's files are under package/).
tar -xzf "$MOCK" -C "$STAGE/node_modules/petstore-playground-mock" --strip-components=1
bundled="$(node -p 'require(process.argv[1]).version' "$STAGE/node_modules/petstore-playground-mock/package.json")"
[ "$bundled" = "$MOCK_VERSION" ] || fail "$MOCK is version $bundled; package.json depends on $MOCK_VERSION"

rm -f "$OUT"/petstore-playground-[0-9]*.tgz
tarball="$(cd "$STAGE" && npm pack --silent --offline --pack-destination "$OUT")"
tarball="$OUT/$tarball"
[ "$(basename "$tarball")" = "petstore-playground-$VERSION.tgz" ] || fail "npm pack wrote $tarball"

# npm leaves out some names by its own rules: every file of the app must be in the tarball.
staged="$(cd "$STAGE" && find app -type f | wc -l)"
packed="$(tar -tzf "$tarball" | grep -c '^package/app/.' || true)"
[ "$staged" = "$packed" ] || fail "the tarball holds $packed of the app's $staged files"

echo "cli package: $tarball ($(stat -c %s "$tarball") bytes packed, $(du -sb "$STAGE" | cut -f1) bytes staged)"
echo "cli package: app: $staged files, $(du -sb "$STAGE/app" | cut -f1) bytes"
wasm="$STAGE/wasm/playground_site_bg.wasm"
echo "cli package: playground_site_bg.wasm: $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzip"
echo "cli package: bundled petstore-playground-mock $bundled ($(du -sb "$STAGE/node_modules" | cut -f1) bytes)"
