#!/usr/bin/env bash
# make release: `playground` as one self-contained program, the app's release build (trunk's
# dist/) packed into it (feature embed-app, crates/cli/build.rs), statically linked against musl
# for x86_64 Linux and stripped, in
#   target/release-artifacts/playground-VERSION-x86_64-unknown-linux-musl.tar.gz
# holding playground-VERSION-x86_64-unknown-linux-musl/{playground,README.md,LICENSE-MIT,LICENSE-APACHE},
# and beside it the two npm packages: petstore-playground-VERSION.tgz (the `playground` command on
# Node: build, serve, mock) and petstore-playground-mock-VERSION.tgz (the mocks).
# Prints each artifact's size. tests/cli-package/run.sh --artifacts tests them as installed.
#
# RELEASE_SKIP_APP=1 packs dist/ as it is instead of running `trunk build --release` first.
# PLAYGROUND_COMMIT names the commit `playground --version` prints (default: HEAD's short hash,
# with -dirty when `git status --porcelain` lists anything).
# `make build && cargo install --locked --profile native --path crates/cli --features embed-app` gives the same program
# for the host's target (dynamically linked, not stripped).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

TARGET=x86_64-unknown-linux-musl
log() { printf '[release] %s\n' "$*"; }

scripts/ensure-tools.sh release

VERSION="$(sed -n 's/^version = "\(.*\)"$/\1/p' crates/cli/Cargo.toml | head -n 1)"
NAME="playground-$VERSION-$TARGET"
OUT="$ROOT/target/release-artifacts"
STAGE="$ROOT/target/release-stage/$NAME"

# Taken here rather than by build.rs, which takes it again only when HEAD moves: the -dirty
# mark is then the one of this build.
if [ -z "${PLAYGROUND_COMMIT:-}" ]; then
  PLAYGROUND_COMMIT="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  if [ "$PLAYGROUND_COMMIT" != unknown ] && [ -n "$(git status --porcelain 2>/dev/null)" ]; then
    PLAYGROUND_COMMIT="$PLAYGROUND_COMMIT-dirty"
  fi
fi
export PLAYGROUND_COMMIT

if [ "${RELEASE_SKIP_APP:-0}" = 1 ]; then
  log "RELEASE_SKIP_APP=1: packing dist/ as it is"
else
  log "scripts/trunk-release.sh"
  scripts/trunk-release.sh
fi

log "building playground $VERSION (commit $PLAYGROUND_COMMIT) for $TARGET, the app built in"
# musl-gcc (Debian's musl-tools) compiles the C of the bundled SQLite and of ring.
CC_x86_64_unknown_linux_musl=musl-gcc \
  cargo build --profile native --locked -p playground --features embed-app --target "$TARGET"
TARGET_DIR="$(cargo metadata --format-version 1 --no-deps --locked \
  | node -e 'let s = ""; process.stdin.on("data", d => s += d).on("end", () => console.log(JSON.parse(s).target_directory))')"
BINARY="$TARGET_DIR/$TARGET/native/playground"

rm -rf "$STAGE"
mkdir -p "$STAGE" "$OUT"
cp "$BINARY" "$STAGE/playground"
strip "$STAGE/playground"
cp README.md packages/mock/LICENSE-MIT packages/mock/LICENSE-APACHE "$STAGE/"

# The program must run alone: it says so, and names the app it carries.
version_line="$("$STAGE/playground" --version)"
log "$version_line"
case "$version_line" in
  *"app embedded"*) ;;
  *) echo "release: the program built has no app in it: $version_line" >&2; exit 1 ;;
esac

# The same files give the same archive: names sorted, no owner, no dates.
rm -f "$OUT"/playground-*-"$TARGET".tar.gz
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
  -C "$(dirname "$STAGE")" -cf - "$NAME" | gzip -9 -n >"$OUT/$NAME.tar.gz"

# The two npm packages, from fresh inputs: the mocks' (packages/mock, scripts/package.sh) and
# the command line's (packages/cli/pack.sh: the site module, this dist/, the mocks' package
# bundled in).
rm -f "$OUT"/petstore-playground-*.tgz
log "the mocks' npm package (scripts/package.sh)"
scripts/package.sh
log "the command line's npm package (packages/cli/pack.sh)"
TRUNK_PROFILE=release scripts/build-modules.sh "$ROOT/target/cli-package/modules" site
packages/cli/pack.sh --app "$ROOT/dist" --mock "$(ls "$ROOT"/target/package/petstore-playground-mock-[0-9]*.tgz)"
cp "$ROOT"/target/package/petstore-playground-mock-[0-9]*.tgz "$ROOT"/target/cli-package/petstore-playground-[0-9]*.tgz "$OUT/"

log "playground (stripped): $(stat -c %s "$STAGE/playground") bytes"
for artifact in "$OUT"/*; do
  [ -f "$artifact" ] && log "$(basename "$artifact"): $(stat -c %s "$artifact") bytes"
done
