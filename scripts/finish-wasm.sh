#!/usr/bin/env bash
# The last step of a release build for one of wasm-bindgen's `*_bg.wasm`, in place: the exports
# nothing calls taken out, then wasm-opt at the level given (-Os for the page's modules and the
# app, -O3 for the npm package's). Run by build-modules.sh for each module and by finish-page.mjs
# for the app. WASM_NAMES=1 keeps the functions' names (for a profile).
# Usage: finish-wasm.sh WASM LEVEL
set -euo pipefail
wasm="$1" level="$2"
# The pinned binaryen (scripts/ensure-tools.sh), never Debian's.
export PATH="$(cd "$(dirname "$0")/.." && pwd)/.tools/node_modules/.bin:$PATH"
names=()
[ "${WASM_NAMES:-0}" = 1 ] && names=(-g)
# The proposals Rust enables for wasm32: wasm-opt must accept them.
features=(--enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue)

# Leptos always builds its server functions' browser side, whose wasm-streams classes
# (IntoUnderlyingSource, ...) wasm-bindgen exports though nothing here makes one: without their
# exports, wasm-opt drops their code (1.3 KB of the app's gzip, 1.4 KB of the try-it module's).
# The glue still defines the classes; only their methods name the missing exports. Through the
# text format, which keeps the functions in LLVM's order: wasm-metadce reorders them, and gzip
# then finds 4.4 KB less in the try-it module.
wasm-dis "${features[@]}" "$wasm" -o "$wasm.wat"
if grep -q '^ (export "\(__wbg_\)\?intounderlying' "$wasm.wat"; then
  grep -v '^ (export "\(__wbg_\)\?intounderlying' "$wasm.wat" > "$wasm.kept.wat"
  wasm-as "${features[@]}" "${names[@]}" "$wasm.kept.wat" -o "$wasm"
fi
rm -f "$wasm.wat" "$wasm.kept.wat"

# -Os rather than -Oz: larger before gzip, smaller after it (2.2 KB of the app, 1.8 KB of the
# try-it module). --low-memory-unused lets wasm-opt fold an added constant below 1 KiB into a
# load's or store's offset; the two differ only for a pointer that wraps around 4 GiB into the
# first KiB, and Rust forms none (it puts its stack first in memory and grows it down towards
# 0). The producers and target features sections (about 220 bytes) no browser reads.
wasm-opt "$level" --low-memory-unused "${features[@]}" "${names[@]}" --strip-producers \
  --strip-target-features -o "$wasm.opt" "$wasm"
mv "$wasm.opt" "$wasm"
