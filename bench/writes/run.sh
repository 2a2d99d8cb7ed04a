#!/usr/bin/env bash
# `make bench-writes`: the time of one acknowledged create against how many items are stored,
# for petstore-mock --state, json-server and the page's mock, in one run (bench/writes/curve.mjs);
# writes bench/WRITES.md. Builds petstore-mock (native-bench profile, as bench/mock/run.sh does)
# and the app (dist/, for the page's mock module) when missing, and installs json-server and
# playwright-core (bench/package.json) and wrk (Debian; the concurrent part). Not part of `make test`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BENCH="$ROOT/bench"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cd "$ROOT"
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

if ! command -v wrk >/dev/null; then
  echo "Installing wrk (Debian)" >&2
  apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
fi
if [[ ! -x "$BENCH/node_modules/.bin/json-server" || ! -d "$BENCH/node_modules/playwright-core" ]]; then
  (cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error)
fi
PROFILE=(--config 'profile.native-bench.inherits="release"' --config 'profile.native-bench.opt-level=3'
         --config 'profile.native-bench.lto=false' --config 'profile.native-bench.codegen-units=16'
         --config 'profile.native-bench.panic="unwind"')
cargo "${PROFILE[@]}" build --quiet --locked --profile native-bench -p playground-server --bin petstore-mock
if [[ ! -f "$ROOT/dist/mock/petstore_mock.js" ]]; then
  scripts/ensure-tools.sh build
  scripts/trunk-release.sh --locked
fi

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
node "$BENCH/writes/curve.mjs" "$TARGET_DIR/native-bench/petstore-mock" "$BENCH/node_modules/.bin/json-server" "$ROOT/dist" >"$out"
cp "$out" "$BENCH/WRITES.md"
cat "$BENCH/WRITES.md"
