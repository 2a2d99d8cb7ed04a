#!/usr/bin/env bash
# `make test`: installs what is missing, then runs every check and test, printing how long
# each stage took. Stops at the first failing stage.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
# No incremental caches: a run from a fresh clone gains nothing from them, and they were as large
# as everything else in target/ together.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

timings=()
stage() {
  local name="$1"; shift
  printf '\n==> %s\n' "$name"
  local start=$SECONDS
  "$@"
  local took=$(( SECONDS - start ))
  timings+=("$(printf '%-34s %4ds' "$name" "$took")")
  printf '<== %s: %ds\n' "$name" "$took"
}
report() {
  printf '\nStage times:\n'
  printf '  %s\n' "${timings[@]}"
  printf '  %-34s %4ds\n' "total" "$SECONDS"
}
trap report EXIT

# wasm-bindgen-test-runner stops ChromeDriver before Chromium can remove the profile it made in
# $TMPDIR (up to 100 MB per test binary, with the large documents): give them a folder of their
# own and remove it afterwards, whatever the outcome.
in_browser_tmp() {
  local tmp="$ROOT/target/chromium-tmp" status=0
  rm -rf "$tmp" && mkdir -p "$tmp"
  TMPDIR="$tmp" "$@" || status=$?
  rm -rf "$tmp"
  return "$status"
}

# A full run from a fresh clone writes about 7 GB (target/ peaked at 6.7 GB); say so before a
# full disk fails a compiler.
free_kib=$(df -Pk "$ROOT" | awk 'NR == 2 { print $4 }')
if (( free_kib < 8 * 1024 * 1024 )); then
  printf 'warning: %s has %d MiB free; a full run writes about 7 GiB\n' "$ROOT" $(( free_kib / 1024 )) >&2
fi

stage "tools"                     scripts/ensure-tools.sh test
stage "rustfmt --check"           cargo fmt --all --check
stage "one version each (Cargo.lock)" scripts/check-lock.sh
stage "clippy (host)"             cargo clippy --workspace --all-targets --locked -- -D warnings
# The native mock server (tokio, sockets), the MCP server and the playground CLI over them, the host
# and the certificates crate (sockets, SQLite, ring) do not build for wasm32.
# The JavaScript modules' crates (crates/modules/) are workspace members like the others.
stage "clippy (wasm32)"           cargo clippy --workspace --exclude playground-server --exclude playground-mcp --exclude playground --exclude playground-certs --exclude playground-host --all-targets --locked --target wasm32-unknown-unknown -- -D warnings
# The try-it module without its feature `extras` (the workspace build above turns it on).
stage "clippy (try-it module, lite)" cargo clippy -p playground-tryit --locked --target wasm32-unknown-unknown -- -D warnings
stage "host tests"                cargo test --workspace --locked
stage "conformance (schemathesis)" scripts/schemathesis.sh
# The mock of a FastAPI app's description against the app itself: created, read, replaced and
# listed books agree field by field (tests/fastapi/run.sh; FastAPI pinned in .tools/fastapi-venv).
stage "FastAPI app vs mock"       tests/fastapi/run.sh
# `playground mcp` driven by the official MCP Python SDK over stdio and streamable HTTP
# (tests/mcp/run.sh; the SDK pinned in .tools/mcp-venv).
stage "MCP (Python SDK)"          tests/mcp/run.sh
stage "browser tests (Chromium)"  in_browser_tmp cargo test -p playground-app -p playground-web -p playground-module-mock -p playground-module-api-mock -p playground-module-markdown -p playground-module-convert -p playground-browser -p playground-dashboard -p playground-tryit --locked --target wasm32-unknown-unknown
# The README's command for other crates, as a user runs it: wasm-pack drives the example's
# browser tests in headless Chromium (no downloads: --mode no-install, the installed driver).
stage "wasm-pack test (example)"   in_browser_tmp bash -c 'cd examples/browser-tests && wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver --mode no-install'
stage "release build (trunk)"     scripts/trunk-release.sh --locked
stage "end-to-end (Chromium)"     bash -c 'cd tests/e2e && npm test'
# The npm package packed, installed from its tarball into a fresh project, and used from Node
# 20 and 18, MSW, a Vite app and Playwright (tests/package/run.sh).
stage "npm package"               tests/package/run.sh
# The release as users get it (scripts/release.sh, dist/ as built above): the static program with
# the app inside and the two npm packages, installed into a clean environment (no PATH but
# /usr/bin:/bin and Node, an empty HOME, nothing of the repository) and run on Node 20 and 18;
# the program's site must be the npm package's, file for file (tests/cli-package/run.sh).
stage "release, installed"        bash -c 'RELEASE_SKIP_APP=1 scripts/release.sh && tests/cli-package/run.sh --artifacts'
stage "budgets"                   node scripts/budgets.mjs
stage "size"                      scripts/size.sh
