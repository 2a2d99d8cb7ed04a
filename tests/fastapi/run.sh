#!/usr/bin/env bash
# The mock against a real FastAPI app: tests/fastapi/test_shelf.py sends the same requests to
# the app of tests/fixtures/fastapi/shelf.py (in process, FastAPI's TestClient) and to
# `petstore-mock serve --spec tests/fixtures/fastapi/shelf.json`, and compares the answers field
# by field. Any failure fails the script.
#
# Installs the pinned FastAPI (and httpx, which its TestClient needs) into .tools/fastapi-venv
# only when missing or another version; builds petstore-mock.
# Usage: run.sh            the comparison
#        run.sh --write    writes shelf.json anew from shelf.py (after changing the app)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# No __pycache__ in the repository's folders.
export PYTHONDONTWRITEBYTECODE=1

# tests/fixtures/fastapi/app.py names the same FastAPI and pydantic.
FASTAPI_VERSION="0.115.14"
PYDANTIC_VERSION="2.14.4"
HTTPX_VERSION="0.28.1"
VENV="$ROOT/.tools/fastapi-venv"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# In `pip freeze` order, to compare with what is installed.
wanted="fastapi==$FASTAPI_VERSION httpx==$HTTPX_VERSION pydantic==$PYDANTIC_VERSION"
installed="$("$VENV/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null \
  | grep -E '^(fastapi|pydantic|httpx)==' | sort | tr '\n' ' ' | sed 's/ $//' || true)"
if [[ "$installed" != "$wanted" ]]; then
  echo "Installing $wanted into .tools/fastapi-venv (found: ${installed:-none})"
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  # shellcheck disable=SC2086 # one word per package
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $wanted
fi

if [[ "${1:-}" == "--write" ]]; then
  "$VENV/bin/python" tests/fixtures/fastapi/shelf.py >tests/fixtures/fastapi/shelf.json
  echo "wrote tests/fixtures/fastapi/shelf.json"
  exit 0
fi

cargo build --quiet --locked -p playground-server --bin petstore-mock
PETSTORE_MOCK="$TARGET_DIR/debug/petstore-mock" "$VENV/bin/python" tests/fastapi/test_shelf.py
