#!/usr/bin/env bash
# Fails when Cargo.lock holds more than one version of a crate that must be built once: the
# hashes and encodings every part shares (see [workspace.dependencies] in Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for name in base64 sha2 wasm-bindgen serde_json; do
  versions=$(awk -v n="$name" '$0 == "name = \"" n "\"" { getline; gsub(/version = |"/, ""); print }' Cargo.lock | sort -u)
  count=$(printf '%s\n' "$versions" | grep -c . || true)
  if (( count != 1 )); then
    printf 'Cargo.lock holds %d versions of %s: %s (cargo tree -i %s -d names who brings each)\n' \
      "$count" "$name" "$(echo $versions)" "$name" >&2
    status=1
  fi
done
exit "$status"
