#!/usr/bin/env bash
# `make bench-diff`: `playground diff` beside openapi-diff and Optic on real pairs of releases of
# one API's description (crates/diff/tests/fixtures/real/ and GitHub's 19.1.0 → 20.0.0), one run
# (bench/diff/run.mjs says what is measured and how; writes bench/DIFF.md). Not part of
# `make test`: the figures depend on the machine and on what else runs on it.
#
# Installs what is missing: the peers pinned in bench/package.json (into bench/node_modules, with
# `npm ci` when the lock changed since the last install), GitHub's two descriptions (`npm pack`
# into target/bench/diff/cache, once). Builds the CLI as users get it (the release profile).
# Environment: bench/diff/run.mjs's (BENCH_DIFF_*, PLAYGROUND, BENCH_OUT).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BENCH="$ROOT/bench"
cd "$ROOT"

installed_version() { node -p "require('$BENCH/node_modules/$1/package.json').version" 2>/dev/null || true; }
wanted_version() { node -p "require('$BENCH/package.json').devDependencies['$1']"; }
if [[ "$(installed_version openapi-diff)" != "$(wanted_version openapi-diff)" \
   || "$(installed_version @useoptic/optic)" != "$(wanted_version @useoptic/optic)" ]] \
   || ! cmp -s "$BENCH/package-lock.json" "$BENCH/node_modules/.package-lock.json.copy"; then
  echo "==> installing the benchmark's npm packages into bench/node_modules (several minutes)"
  (cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.package-lock.json.copy)
fi

echo "==> the CLI (cargo build --profile native -p playground)"
cargo build --profile native --locked -p playground

echo "==> the pairs, each tool side by side (bench/diff/run.mjs)"
node "$BENCH/diff/run.mjs"
