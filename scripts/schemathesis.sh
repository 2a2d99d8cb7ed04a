#!/usr/bin/env bash
# Conformance of the native mock server to openapi/petstore.yaml: Schemathesis sends generated
# requests (documented examples, boundary values, random and invalid data, then stateful
# sequences that follow created ids) and checks every answer against the document with all its
# checks. Any failure fails the script. Settings that differ from Schemathesis' defaults are in
# schemathesis.toml, with the reason for each.
#
# Installs the pinned Schemathesis into .tools/venv only when it is missing or another version.
# Environment: SCHEMATHESIS_MAX_EXAMPLES (default 100) bounds the cases per operation and phase;
# SCHEMATHESIS_SEED (default 20260601) makes a run repeatable: no example database is kept
# (--generation-database none), so an earlier run's finds are not replayed and every machine,
# a fresh clone included, sends the same requests. (One such replayed find was `GET /pets?status=`,
# which the style table of OpenAPI 3 gives as the form serialization of an empty array; the mock
# reads it so, an empty filter, while Schemathesis had meant a list holding one empty string.)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

SCHEMATHESIS_VERSION="4.32.5"
VENV="$ROOT/.tools/venv"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
MAX_EXAMPLES="${SCHEMATHESIS_MAX_EXAMPLES:-100}"
SEED="${SCHEMATHESIS_SEED:-20260601}"

installed="$("$VENV/bin/schemathesis" --version 2>/dev/null || true)"
if [[ "$installed" != *" $SCHEMATHESIS_VERSION" ]]; then
  echo "Installing schemathesis $SCHEMATHESIS_VERSION into .tools/venv (found: ${installed:-none})"
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

cargo build --quiet --locked -p playground-server --bin petstore-mock

work="$(mktemp -d)"
server_pid=""
stop() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT

# Port 0: the system picks a free port, and the server prints the URL it got.
"$TARGET_DIR/debug/petstore-mock" serve --host 127.0.0.1 --port 0 --seed >"$work/stdout" 2>"$work/stderr" &
server_pid=$!
url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/^petstore-mock listening on //p' "$work/stdout")"
  [[ -n "$url" ]] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "petstore-mock did not start:" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$url" ]]; then
  echo "petstore-mock printed no URL within 30 s" >&2
  exit 1
fi
echo "petstore-mock is listening on $url"

"$VENV/bin/schemathesis" run openapi/petstore.yaml \
  --url "$url" \
  --checks all \
  --phases examples,coverage,fuzzing,stateful \
  --max-examples "$MAX_EXAMPLES" \
  --seed "$SEED" \
  --generation-database none \
  --workers 1 \
  --report junit --report-dir "$TARGET_DIR/schemathesis"
