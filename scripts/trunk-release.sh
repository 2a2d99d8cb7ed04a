#!/usr/bin/env bash
# The page's release build into dist/: `trunk build --release --offline` (extra arguments are
# Trunk's), with the WebAssembly's standard library built for size. Trunk's cargo, and the
# post_build hook that builds the page's modules (scripts/build-modules.sh), take these from the
# environment; no other build does (native programs, tests and `make serve` keep Rust's own
# standard library):
#   - `-Zbuild-std` compiles core, alloc and std with the release profile (opt-level "z",
#     and core's `optimize_for_size`: its small sort and formatting code) instead of linking
#     rustup's copies, compiled for speed;
#   - the release profile's `panic = "immediate-abort"`: a panic traps at once, with no message
#     formatted (the page shows www/page-died.js' message either way);
#   - `-Zlocation-detail=none`: no file names and lines for panics that print nothing (cargo
#     adds it to the wasm32 target's flags of .cargo/config.toml).
# All three are unstable; RUSTC_BOOTSTRAP=1 lets the stable toolchain take them, and
# scripts/ensure-tools.sh installs the `rust-src` component they compile. docs/decisions.md
# has what they save.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
export CARGO_UNSTABLE_PANIC_IMMEDIATE_ABORT=true
export CARGO_PROFILE_RELEASE_PANIC=immediate-abort
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS=-Zlocation-detail=none
# The standard library's own dependencies (dlmalloc, hashbrown, ...) are crates of the
# registry that Trunk's cargo, run offline, cannot download: fetched here the first time, from
# the rust-src component's lock file (a no-op, without the network, once they are cached).
library="$(rustc --print sysroot)/lib/rustlib/src/rust/library"
[ -f "$library/Cargo.toml" ] || {
  echo "trunk-release: the standard library's sources are missing: rustup component add rust-src (scripts/ensure-tools.sh installs it)" >&2
  exit 1
}
fetch=(cargo fetch --locked --manifest-path "$library/Cargo.toml" --target wasm32-unknown-unknown)
"${fetch[@]}" --offline 2>/dev/null || "${fetch[@]}"
exec trunk build --release --offline "$@"
