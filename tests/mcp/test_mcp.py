"""`playground mcp` through the official MCP Python SDK: the same walk over stdio and over
streamable HTTP, with the initialize handshake (`ClientSession`) and with the SDK's `Client`,
which negotiates the newest protocol (2026-07-28, no handshake), against the mock of a FastAPI
app's description (tests/fixtures/fastapi/shelf.json): the four tools listed, a search that ranks the create operation first, its
description with its required fields, a create then a list that shows the book, a bad body whose
answer names the field, an unknown operation (an error, and the next call still works), an
argument past the 1 MiB bound, the llms.txt resource. Over HTTP also a message that is not
JSON-RPC (the SDK's error, and the session goes on), and a description that cannot be read (a
message naming the file, a non-zero exit).

Run by tests/mcp/run.sh, which installs the SDK and builds playground; PLAYGROUND names the
binary.
"""

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[2]
DESCRIPTION = ROOT / "tests" / "fixtures" / "fastapi" / "shelf.json"
BINARY = os.environ.get("PLAYGROUND", str(ROOT / "target" / "debug" / "playground"))
TOOLS = ["search_operations", "describe_operation", "call_operation", "reset_mock"]
CREATE = "create_book_books_post"
BOOK = {"title": "The Left Hand of Darkness", "isbn": "9780441478125", "year": 1969}


def text(result):
    """The text of a tool's answer (one text block)."""
    return "\n".join(block.text for block in result.content if block.type == "text")


class Walk:
    """The calls every transport and protocol make, checked by `test`'s assertions; `session` is
    a `ClientSession` (initialized here) or a connected `Client`."""

    def __init__(self, test, session):
        self.test = test
        self.session = session

    async def call(self, tool, arguments):
        return await self.session.call_tool(tool, arguments)

    async def run(self):
        t = self.test
        if isinstance(self.session, ClientSession):
            await self.session.initialize()
        tools = await self.session.list_tools()
        t.assertEqual([tool.name for tool in tools.tools], TOOLS)
        for tool in tools.tools:
            t.assertTrue(tool.description, tool.name)
            t.assertEqual(tool.input_schema["type"], "object", tool.name)
        call_tool = next(tool for tool in tools.tools if tool.name == "call_operation")
        t.assertIn("Authorization: Bearer test", call_tool.description)

        found = await self.call("search_operations", {"query": "create book"})
        t.assertFalse(found.is_error, text(found))
        first = text(found).splitlines()[0]
        t.assertTrue(first.startswith(f"{CREATE}  POST /books"), text(found))

        described = await self.call("describe_operation", {"operation": CREATE})
        t.assertFalse(described.is_error, text(described))
        markdown = text(described)
        t.assertIn("POST /books", markdown)
        for field in ("title", "isbn"):
            t.assertRegex(markdown, rf"`{field}` \([^)]*required", f"{field} is named as required")

        await self.call("reset_mock", {})
        created = await self.call("call_operation", {"operation": CREATE, "body": BOOK})
        t.assertFalse(created.is_error, text(created))
        t.assertTrue(text(created).startswith("201 Created"), text(created))
        t.assertIn("location: /books/", text(created))
        listed = await self.call("call_operation", {"operation": "GET /books"})
        t.assertTrue(text(listed).startswith("200 OK"), text(listed))
        t.assertIn(BOOK["title"], text(listed))

        bad = await self.call("call_operation", {"operation": CREATE, "body": {**BOOK, "isbn": 12}})
        t.assertTrue(text(bad).startswith("422"), text(bad))
        t.assertIn("isbn", text(bad))
        t.assertIn("`/isbn`", text(bad), "the problem names the field")

        unknown = await self.call("call_operation", {"operation": "launchRocket"})
        t.assertTrue(unknown.is_error, text(unknown))
        t.assertIn("launchRocket", text(unknown))
        t.assertIn("search_operations", text(unknown))
        after = await self.call("call_operation", {"operation": "list_books_books_get", "query": {"limit": 5}})
        t.assertFalse(after.is_error, text(after))
        t.assertTrue(text(after).startswith("200 OK"), text(after))

        huge = await self.call("call_operation", {"operation": CREATE, "body": {"title": "x" * (1100 * 1024)}})
        t.assertTrue(huge.is_error, text(huge)[:200])
        t.assertIn("at most 1048576 bytes", text(huge))

        resources = await self.session.list_resources()
        uris = [str(resource.uri) for resource in resources.resources]
        t.assertIn("playground://docs/llms.txt", uris)
        llms = await self.session.read_resource("playground://docs/llms.txt")
        t.assertEqual(llms.contents[0].mime_type, "text/plain")
        t.assertIn("Shelf", llms.contents[0].text)
        t.assertIn(".md", llms.contents[0].text)


class Http:
    """`playground mcp --port 0` on 127.0.0.1; its URL read from its first line."""

    def __init__(self, *extra):
        # What it says on stderr goes to a file, which no full pipe can block.
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [BINARY, "mcp", "--spec", str(DESCRIPTION), "--port", "0", *extra],
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            found = re.search(r"listening on (http://127\.0\.0\.1:\d+/mcp)", line)
            if found:
                self.url = found.group(1)
                return
            if not line and self.process.poll() is not None:
                break
        self.stop()
        raise RuntimeError(f"playground mcp did not start: {self.stderr()}")

    def stderr(self):
        self.errors.seek(0)
        return self.errors.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def post(url, body, headers=None):
    """POSTs raw bytes; gives the status and the body."""
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json, text/event-stream")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class McpTest(unittest.TestCase):
    def test_stdio(self):
        params = StdioServerParameters(command=BINARY, args=["mcp", "--spec", str(DESCRIPTION)], cwd=str(ROOT))

        async def walk(errors):
            async with stdio_client(params, errlog=errors) as (read, write):
                async with ClientSession(read, write) as session:
                    await Walk(self, session).run()

        with tempfile.TemporaryFile(mode="w+") as errors:
            asyncio.run(walk(errors))
            errors.seek(0)
            self.assertIn("MCP server of Shelf (5 operations)", errors.read())

        async def modern():
            async with Client(params) as client:
                self.assertEqual(client.protocol_version, "2026-07-28")
                await Walk(self, client).run()

        asyncio.run(modern())

    def test_streamable_http(self):
        server = Http()
        try:

            async def walk():
                async with streamable_http_client(server.url) as (read, write):
                    async with ClientSession(read, write) as session:
                        await Walk(self, session).run()
                        # Not JSON at all, then JSON that is not JSON-RPC: each gets an error
                        # answer, and the session still answers.
                        status, body = post(server.url, b"{not json")
                        self.assertGreaterEqual(status, 400, body)
                        status, body = post(server.url, json.dumps({"hello": "world"}).encode())
                        self.assertGreaterEqual(status, 400, body)
                        again = await session.call_tool("search_operations", {"query": "list books"})
                        self.assertTrue(text(again).startswith("list_books_books_get"), text(again))

            asyncio.run(walk())
            # Another session shares the one mock: the book created above is there.
            async def second():
                async with streamable_http_client(server.url) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        listed = await session.call_tool("call_operation", {"operation": "GET /books"})
                        self.assertIn(BOOK["title"], text(listed))

            asyncio.run(second())

            async def modern():
                async with Client(server.url) as client:
                    self.assertEqual(client.protocol_version, "2026-07-28")
                    await Walk(self, client).run()

            asyncio.run(modern())
        finally:
            server.stop()
        self.assertEqual(server.process.returncode, 0, server.stderr())
        self.assertIn("SIGTERM received, stopping", server.stderr())

    def test_a_description_that_cannot_be_read(self):
        missing = ROOT / "tests" / "mcp" / "no-such-description.json"
        done = subprocess.run([BINARY, "mcp", "--spec", str(missing)], capture_output=True, text=True, timeout=60)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn(str(missing), done.stderr)
        self.assertIn("does not exist", done.stderr)
        self.assertEqual(done.stdout, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
