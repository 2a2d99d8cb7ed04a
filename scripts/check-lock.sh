#!/usr/bin/env bash
# Fails when Cargo.lock holds more than one version of a crate that must be built once: the
# hashes and encodings every part shares (see [workspace.dependencies] in Cargo.toml).
#
# One exception: a version that only the crates of NATIVE_ONLY depend on is not counted. rmcp,
# the MCP SDK of `playground mcp` (crates/mcp, native only), needs sha2 0.11 and base64 0.23
# (every 3.x release does), which Leptos and instant-acme, who bring the workspace's 0.10 and
# 0.22, do not take yet; nothing built for the page or shared with it uses them.
# postgres-protocol 0.6.12, which tokio-postgres brings (the host's PostgreSQL state; crates/host,
# native only), needs sha2 0.11 (older releases would not resolve with tokio-postgres 0.7.15 or
# later); the same holds.
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE_ONLY="rmcp postgres-protocol"
status=0
for name in base64 sha2 wasm-bindgen serde_json; do
  # Each version of the crate, unless every package that depends on it is one of NATIVE_ONLY.
  versions=$(awk -v n="$name" -v allowed=" $NATIVE_ONLY " '
    /^\[\[package\]\]/ { pkg = ""; in_deps = 0; next }
    /^name = "/ && pkg == "" { pkg = $3; gsub(/"/, "", pkg); if (pkg == n) want = 1; else want = 0; next }
    /^version = "/ { if (want) { v = $3; gsub(/"/, "", v); seen[v] = 1 } want = 0; next }
    /^dependencies = \[/ { in_deps = 1; next }
    in_deps && /^\]/ { in_deps = 0; next }
    in_deps {
      dep = $0; gsub(/^ *"|",? *$/, "", dep); split(dep, parts, " ")
      if (parts[1] != n) next
      # A crate locked in one version is named without it.
      key = (parts[2] == "") ? "*" : parts[2]
      if (index(allowed, " " pkg " ") == 0) used[key] = 1
      dependents[key] = 1
    }
    END {
      for (v in seen) if (used[v] || used["*"] || !dependents[v]) print v
    }' Cargo.lock | sort -u)
  count=$(printf '%s\n' "$versions" | grep -c . || true)
  if (( count != 1 )); then
    printf 'Cargo.lock holds %d versions of %s: %s (cargo tree -i %s -d names who brings each)\n' \
      "$count" "$name" "$(echo $versions)" "$name" >&2
    status=1
  fi
done
exit "$status"
