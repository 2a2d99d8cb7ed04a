#!/usr/bin/env bash
# `playground mcp` driven by a real MCP client: tests/mcp/test_mcp.py uses the official MCP Python
# SDK to talk to `playground mcp --spec tests/fixtures/fastapi/shelf.json` over stdio, then over
# streamable HTTP (`--port 0` on 127.0.0.1, stopped at the end): the tools listed, a search, a
# description, a create then a list, a bad body, an unknown operation, an argument too large, a
# message that is not JSON-RPC, the llms.txt resource, and a description that cannot be read.
# Any failure fails the script.
#
# Installs the pinned SDK into .tools/mcp-venv only when missing or another version; builds
# playground.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
# No __pycache__ in the repository's folders.
export PYTHONDONTWRITEBYTECODE=1

# The latest release of the official SDK that installs with Python 3.11.
MCP_VERSION="2.3.0"
VENV="$ROOT/.tools/mcp-venv"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

wanted="mcp==$MCP_VERSION"
installed="$("$VENV/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null | grep -E '^mcp==' || true)"
if [[ "$installed" != "$wanted" ]]; then
  echo "Installing $wanted into .tools/mcp-venv (found: ${installed:-none})"
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$wanted"
fi

cargo build --quiet --locked -p playground
PLAYGROUND="$TARGET_DIR/debug/playground" "$VENV/bin/python" tests/mcp/test_mcp.py
