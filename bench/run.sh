#!/usr/bin/env bash
# `make bench`: Petstore Playground side by side with the reference renderers and mocks people
# use today, in one run on this machine (see bench/bench.mjs for what is measured and how).
# Installs what is missing (the project's tools and Chromium, the pinned npm packages into
# bench/node_modules, redoc@3.0.1's bundle), builds the release site, then:
#   1. requests per second of the native mock server, Prism and json-server (bench/mock/run.sh);
#   2. the renderers and the in-page mocks in headless Chromium (bench/bench.mjs).
# Prints Markdown and writes bench/RESULTS.md. Prints how long each stage took.
# `bench/run.sh growth` (`make bench-growth`) installs and builds the same way, then runs only
# the growth benchmark, bench/growth.mjs (documents of 1 to 100 MB; writes bench/growth.svg and
# bench/GROWTH.md, and its section of RESULTS.md).
# `bench/run.sh site` (`make bench-site`) installs and builds the same way, builds the CLI
# (`playground`), builds two static sites from GitHub's description into target/bench/site/:
# ours (`playground build`) and Redocly's (`redocly build-docs`), then times the list of each,
# and of every renderer, in Chromium (bench/site.mjs; writes bench/SITE.md and its section of
# RESULTS.md).
# `bench/run.sh install` (`make bench-install`) installs the same way, makes the release artifacts
# when target/release-artifacts/ lacks one (scripts/release.sh; RELEASE_SKIP_APP=1 when
# dist/index.html exists), then times each from install to a built site, on the Petstore and on
# GitHub's description, beside `redocly build-docs`, and records their sizes (bench/install.mjs;
# writes bench/INSTALL.md). It builds nothing else (BENCH_SKIP_BUILD and BENCH_DIST do not apply).
# Environment: BENCH_SKIP_BUILD=1 uses dist/ as it is; BENCH_SKIP_SERVERS=1 skips stage 1;
# BENCH_DIST=<folder> runs a copy of the build (cp -r dist /tmp/bench-dist) instead of dist/,
# and then nothing is built into dist/;
# and bench/bench.mjs's own (BENCH_RUNS, BENCH_TOOLS, BENCH_DOCS, BENCH_DEEP_LINK, BENCH_SENDS)
# and bench/growth.mjs's (BENCH_GROWTH_*).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$ROOT/bench"
REDOC3_VERSION=3.0.1
mode="${1:-all}"
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
cd "$ROOT"

stage_start=0
stage() { stage_start=$(date +%s); echo "==> $*"; }
stage_done() { echo "    ($(( $(date +%s) - stage_start )) s)"; }

stage "tools"
scripts/ensure-tools.sh test
# Installed again only when package-lock.json changed.
if ! cmp -s "$BENCH/package-lock.json" "$BENCH/node_modules/.package-lock.json.copy" 2>/dev/null; then
  echo "Installing the benchmark's npm packages into bench/node_modules (several minutes)"
  (cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.package-lock.json.copy)
fi
# redoc@3.0.1 cannot be installed by npm (a dependency it names is not published); its
# standalone bundle needs none of them, so it is unpacked from the package itself.
redoc3="$BENCH/node_modules/.redoc-$REDOC3_VERSION/package"
if [[ ! -f "$redoc3/bundles/redoc.standalone.js" ]]; then
  echo "Unpacking redoc@$REDOC3_VERSION's bundle"
  rm -rf "${redoc3%/package}" && mkdir -p "${redoc3%/package}"
  (cd "${redoc3%/package}" && npm pack --silent "redoc@$REDOC3_VERSION" >/dev/null && tar xzf "redoc-$REDOC3_VERSION.tgz")
fi
[[ "$mode" != all || "${BENCH_SKIP_SERVERS:-0}" == 1 ]] || command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
stage_done

if [[ "$mode" == install ]]; then
  artifacts="$ROOT/target/release-artifacts"
  if ! compgen -G "$artifacts/playground-*-x86_64-unknown-linux-musl.tar.gz" >/dev/null \
    || ! compgen -G "$artifacts/petstore-playground-[0-9]*.tgz" >/dev/null \
    || ! compgen -G "$artifacts/petstore-playground-mock-[0-9]*.tgz" >/dev/null; then
    stage "the release artifacts (scripts/release.sh)"
    if [[ -f "$ROOT/dist/index.html" ]]; then RELEASE_SKIP_APP=1 scripts/release.sh; else scripts/release.sh; fi
    stage_done
  fi
  stage "from install to a built site (bench/install.mjs)"
  node "$BENCH/install.mjs"
  stage_done
  exit 0
fi

if [[ "${BENCH_SKIP_BUILD:-0}" != 1 && -z "${BENCH_DIST:-}" ]]; then
  stage "release build (trunk)"
  trunk build --release --offline
  stage_done
fi

if [[ "$mode" == growth ]]; then
  stage "growth with the document's size (bench/growth.mjs)"
  BENCH_REDOC3="$redoc3" node "$BENCH/growth.mjs"
  stage_done
  exit 0
fi

if [[ "$mode" == site ]]; then
  dist="${BENCH_DIST:-$ROOT/dist}"
  spec="$BENCH/node_modules/@octokit/openapi/generated/api.github.com.json"
  out="$ROOT/target/bench/site"
  stage "the CLI (cargo build --release -p playground)"
  cargo build --release --locked -p playground
  stage_done
  stage "our published site (playground build --spec <GitHub's description>)"
  rm -rf "$out" && mkdir -p "$out/redocly"
  "${CARGO_TARGET_DIR:-$ROOT/target}/release/playground" build --spec "$spec" --out "$out/playground-site" --app "$dist"
  stage_done
  stage "Redocly's static page (redocly build-docs <GitHub's description>)"
  (cd "$BENCH" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
    node_modules/.bin/redocly build-docs "$spec" -o "$out/redocly/index.html")
  stage_done
  stage "time to the list in Chromium (bench/site.mjs)"
  BENCH_SITE_DIR="$out/playground-site" BENCH_REDOCLY_DIR="$out/redocly" BENCH_DIST="$dist" BENCH_REDOC3="$redoc3" \
    node "$BENCH/site.mjs"
  stage_done
  exit 0
fi

mock_json=""
if [[ "${BENCH_SKIP_SERVERS:-0}" != 1 ]]; then
  stage "mock servers under wrk (bench/mock/run.sh)"
  mkdir -p "$ROOT/target/bench"
  mock_json="$ROOT/target/bench/mock.json"
  rm -f "$mock_json"
  BENCH_MOCK_CRITERION=0 BENCH_MOCK_JSON="$mock_json" bench/mock/run.sh
  stage_done
fi

stage "renderers and in-page mocks in Chromium (bench/bench.mjs)"
BENCH_REDOC3="$redoc3" BENCH_MOCK_RESULTS="$mock_json" node "$BENCH/bench.mjs"
stage_done
