#!/usr/bin/env bash
# `make bench-package`: the npm package (petstore-playground-mock) in Node, side by side with
# MSW in Node (msw/node) and json-server: the same create, read, list, delete round trip through
# Node's global fetch, in one run (bench/package/roundtrip.mjs). Installs the packed tarball
# (target/package, built by scripts/package.sh when missing) with msw and json-server at the
# versions bench/package.json pins into a temporary project, removed on exit. Prints Markdown
# and writes it to bench/PACKAGE.md. Not part of `make test`: the figures depend on the machine
# and on what else runs on it. Environment: BENCH_ITERATIONS (2000), BENCH_WARMUP (200), BENCH_ROUNDS (40).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
MSW_VERSION="2.15.0"
JSON_SERVER_VERSION="0.17.4"
cd "$ROOT"

tarball="$(ls target/package/petstore-playground-mock-*.tgz 2>/dev/null | head -n 1 || true)"
if [[ -z "$tarball" ]]; then
  echo "bench-package: no packed tarball in target/package; building it (scripts/package.sh)" >&2
  scripts/package.sh >&2
  tarball="$(ls target/package/petstore-playground-mock-*.tgz | head -n 1)"
fi
tarball="$ROOT/$tarball"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat >"$work/package.json" <<'JSON'
{ "name": "petstore-playground-mock-bench", "private": true, "type": "module" }
JSON
echo "bench-package: installing $(basename "$tarball"), msw@$MSW_VERSION and json-server@$JSON_SERVER_VERSION into $work" >&2
(cd "$work" && npm install --prefer-offline --no-audit --no-fund --loglevel=error \
  "$tarball" "msw@$MSW_VERSION" "json-server@$JSON_SERVER_VERSION" >&2)

cp bench/package/roundtrip.mjs "$work/"
mkdir -p "$work/api"
cp -R tests/package/project/api/. "$work/api/"

# Progress goes to stderr; the Markdown (stdout) is kept only when the run succeeds.
(cd "$work" && node roundtrip.mjs >"$work/PACKAGE.md")
cp "$work/PACKAGE.md" bench/PACKAGE.md
cat bench/PACKAGE.md
echo "bench-package: written to bench/PACKAGE.md" >&2
