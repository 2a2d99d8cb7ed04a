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
# `bench/run.sh site` (`make bench-site`) installs and builds the same way, builds the native
# CLI (`playground`, profile native; with BENCH_SKIP_BUILD=1 only when target/native/playground
# is missing) and
# installs GNU time when /usr/bin/time is missing, then runs bench/site.mjs on five descriptions
# (petstore3, Twilio, Stripe, Kubernetes, GitHub): it builds each into a static site by
# `playground build` and by `redocly build-docs` (build time and peak memory, median of
# BENCH_SITE_BUILDS=3 each, into target/bench/site/), then times the operation list of both
# sites, of our app by `?url=` and of every in-browser peer, against a one-row floor, in
# Chromium; it writes bench/SITE.md (with the targets, met or missed) and its section of
# RESULTS.md. BENCH_SITE_DOCS and BENCH_SITE_TOOLS pick subsets (see bench/site.mjs).
# `bench/run.sh install` (`make bench-install`) installs the same way, makes the release artifacts
# when target/release-artifacts/ lacks one (scripts/release.sh; RELEASE_SKIP_APP=1 when
# dist/index.html exists), then times each from install to a built site, on the Petstore and on
# GitHub's description, beside `redocly build-docs`, and records their sizes (bench/install.mjs;
# writes bench/INSTALL.md). It builds nothing else (BENCH_SKIP_BUILD and BENCH_DIST do not apply).
# Environment: BENCH_SKIP_BUILD=1 uses dist/ as it is (and, for site, the native CLI as it
# is); BENCH_SKIP_SERVERS=1 skips stage 1;
# BENCH_DIST=<folder> runs a copy of the build (cp -r dist /tmp/bench-dist) instead of dist/,
# and then nothing is built into dist/;
# and bench/bench.mjs's own (BENCH_RUNS, BENCH_TOOLS, BENCH_DOCS, BENCH_DEEP_LINK, BENCH_SENDS),
# bench/growth.mjs's (BENCH_GROWTH_*) and bench/site.mjs's (BENCH_SITE_*).
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
  scripts/trunk-release.sh
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
  playground="${CARGO_TARGET_DIR:-$ROOT/target}/native/playground"
  if [[ "${BENCH_SKIP_BUILD:-0}" != 1 || ! -x "$playground" ]]; then
    stage "the CLI (cargo build --profile native -p playground)"
    cargo build --profile native --locked -p playground
    stage_done
  fi
  # GNU time measures each build's peak memory (bench/lib/site-build.mjs).
  [[ -x /usr/bin/time ]] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null; }
  stage "both sites' builds, then time to the list in Chromium, five descriptions (bench/site.mjs)"
  BENCH_PLAYGROUND="$playground" BENCH_REDOCLY="$BENCH/node_modules/.bin/redocly" BENCH_SITE_OUT="$ROOT/target/bench/site" \
    BENCH_DIST="$dist" BENCH_REDOC3="$redoc3" node "$BENCH/site.mjs"
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
