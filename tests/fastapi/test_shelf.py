"""The mock of a FastAPI app's description against the app itself (tests/fixtures/fastapi/
shelf.py, run in process by FastAPI's TestClient): the same requests to both, and their answers
compared field by field. A created, read back, replaced or listed book must hold the same
values on both sides, `None` as `null`; only what the server makes may differ: the id's value,
and the times (`created_at`, `updated_at`), which must both be the time of the request.

Run by tests/fastapi/run.sh, which installs FastAPI and builds the mock; PETSTORE_MOCK names
the mock's binary.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "fastapi"
DESCRIPTION = FIXTURES / "shelf.json"
sys.path.insert(0, str(FIXTURES))
# No __pycache__ beside the fixture.
sys.dont_write_bytecode = True

from fastapi.testclient import TestClient  # noqa: E402

import shelf  # noqa: E402

# What the server makes: the id (its value may differ) and the times of the request.
ID = "id"
TIMES = ("created_at", "updated_at")
# Clocks of two processes, and a date written to the millisecond on one side.
SLACK = timedelta(seconds=2)


class Mock:
    """`petstore-mock serve --spec shelf.json` on a free port of 127.0.0.1."""

    def __init__(self, binary):
        # What it says on stderr goes to a file, which no full pipe can block.
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--spec", str(DESCRIPTION)],
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
        )
        prefix = "petstore-mock listening on "
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if line.startswith(prefix):
                self.url = line[len(prefix):].strip().rstrip("/")
                return
            if not line and self.process.poll() is not None:
                break
        self.errors.seek(0)
        said = self.errors.read()
        self.stop()
        raise RuntimeError(f"petstore-mock did not start: {said}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process.stdout.close()
        self.errors.close()

    def call(self, method, path, body=None):
        """(status, parsed JSON body or None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        return status, json.loads(text) if text else None


class App:
    """The FastAPI app, with a fresh shelf."""

    def __init__(self):
        shelf.books.clear()
        shelf.last_id = 0
        self.client = TestClient(shelf.app)

    def call(self, method, path, body=None):
        response = self.client.request(method, path, json=body)
        return response.status_code, response.json() if response.content else None


def holds(got, sent):
    """Whether `got` is what was sent, an object with what it left out filled in (pydantic fills
    a nested model's defaults)."""
    if isinstance(sent, dict):
        return isinstance(got, dict) and all(key in got and holds(got[key], value) for key, value in sent.items())
    return got == sent


def moment(test, value, field):
    test.assertIsInstance(value, str, f"{field} is a date-time")
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


class Shelf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mock = Mock(os.environ.get("PETSTORE_MOCK", str(ROOT / "target" / "debug" / "petstore-mock")))

    @classmethod
    def tearDownClass(cls):
        cls.mock.stop()

    def setUp(self):
        self.app = App()
        # The mock keeps the books of earlier tests (and so other ids): each test's are told
        # apart by their ids, the app's id to the mock's.
        self.ids = {}

    def both(self, method, path_of, body=None, book=None):
        """The same request to the app and the mock: `path_of(id)` with each side's id of `book`
        (an app id); the two answers (status, body)."""
        app_path = path_of(book) if book is not None else path_of(None)
        mock_path = path_of(self.ids[book]) if book is not None else path_of(None)
        return self.app.call(method, app_path, body), self.mock.call(method, mock_path, body)

    def same_book(self, app_book, mock_book, since, until, context):
        """Field by field; the id and the times only as what the server makes."""
        self.assertEqual(sorted(app_book), sorted(mock_book), f"{context}: the same fields")
        for field, app_value in app_book.items():
            mock_value = mock_book[field]
            if field == ID:
                self.assertIsInstance(mock_value, int, f"{context}: the mock's id")
            elif field in TIMES:
                for side, value in (("app", app_value), ("mock", mock_value)):
                    at = moment(self, value, field)
                    self.assertTrue(
                        since - SLACK <= at <= until + SLACK,
                        f"{context}: the {side}'s {field} {value} is the time of the request ({since} to {until})",
                    )
            else:
                self.assertEqual(app_value, mock_value, f"{context}: {field}")

    def create(self, sent):
        since = datetime.now(timezone.utc)
        (app_status, app_book), (mock_status, mock_book) = self.both("POST", lambda _: "/books", sent)
        until = datetime.now(timezone.utc)
        self.assertEqual(app_status, 201, app_book)
        self.assertEqual(mock_status, 201, mock_book)
        self.same_book(app_book, mock_book, since, until, f"POST {sent}")
        self.ids[app_book[ID]] = mock_book[ID]
        return app_book, mock_book, since, until

    def test_a_created_book_holds_what_was_sent_and_what_the_server_makes(self):
        cases = [
            {"title": "Dune", "isbn": "9780441013593"},
            {"title": "Emma", "isbn": "9780141439587", "subtitle": None, "tags": ["classic"], "year": 1815},
            {
                "title": "Middlemarch",
                "isbn": "9780141439549",
                "subtitle": "A Study of Provincial Life",
                "tags": ["novel", "england"],
                "year": 1871,
                "publisher": {"name": "Penguin"},
                "format": "hardcover",
                "available": False,
                "pages": 880,
            },
            {"title": "Ulysses", "isbn": "9780199535675", "publisher": {"name": "OUP", "city": "Oxford"}, "tags": []},
            # What the server makes is not taken from the client (FastAPI's BookIn has neither).
            {"title": "Walden", "isbn": "9780691096124", "id": 99, "created_at": "2000-01-01T00:00:00Z"},
        ]
        for sent in cases:
            with self.subTest(sent=sent):
                app_book, mock_book, since, until = self.create(sent)
                for field, value in sent.items():
                    if field not in (ID, *TIMES):
                        self.assertTrue(holds(mock_book[field], value), f"the mock holds what was sent: {field}")
                self.assertNotEqual(mock_book[ID], 99)
                # Read back: the same book on each side, and the same on both.
                app_id = app_book[ID]
                (app_status, app_read), (mock_status, mock_read) = self.both(
                    "GET", lambda book: f"/books/{book}", book=app_id
                )
                self.assertEqual((app_status, mock_status), (200, 200), (app_read, mock_read))
                self.assertEqual(app_read, app_book)
                self.assertEqual(mock_read, mock_book, "the mock reads back what it created")
                self.same_book(app_read, mock_read, since, until, f"GET after POST {sent}")

    def test_a_replaced_book_keeps_its_creation_time_and_takes_the_defaults(self):
        app_book, mock_book, created_since, created_until = self.create(
            {"title": "Persuasion", "isbn": "9780141439686", "subtitle": "A Novel", "tags": ["austen"], "year": 1817}
        )
        time.sleep(0.05)
        sent = {"title": "Persuasion", "isbn": "9780141439686", "pages": 288}
        since = datetime.now(timezone.utc)
        (app_status, app_new), (mock_status, mock_new) = self.both(
            "PUT", lambda book: f"/books/{book}", sent, book=app_book[ID]
        )
        until = datetime.now(timezone.utc)
        self.assertEqual((app_status, mock_status), (200, 200), (app_new, mock_new))
        self.assertEqual(sorted(app_new), sorted(mock_new))
        for field in app_new:
            if field == "created_at":
                self.assertEqual(app_new[field], app_book[field])
                self.assertEqual(mock_new[field], mock_book[field], "a replace keeps the creation time")
            elif field == "updated_at":
                for side, value in (("app", app_new[field]), ("mock", mock_new[field])):
                    at = moment(self, value, field)
                    self.assertTrue(since - SLACK <= at <= until + SLACK, f"the {side}'s updated_at {value}")
            elif field != ID:
                self.assertEqual(app_new[field], mock_new[field], f"PUT {sent}: {field}")
        self.assertIsNone(mock_new["subtitle"], "left out of the replacement: its default")
        self.assertEqual(mock_new["tags"], [])
        self.assertLessEqual(created_since - SLACK, moment(self, mock_new["created_at"], "created_at"))
        self.assertLessEqual(moment(self, mock_new["created_at"], "created_at"), created_until + SLACK)

    def test_a_list_holds_the_same_books(self):
        for sent in (
            {"title": "Beloved", "isbn": "9781400033416"},
            {"title": "Hamlet", "isbn": "9780743477123", "tags": ["play"], "subtitle": None},
        ):
            self.create(sent)
        (app_status, app_list), (mock_status, mock_list) = self.both("GET", lambda _: "/books?limit=50")
        self.assertEqual((app_status, mock_status), (200, 200), (app_list, mock_list))
        mine = set(self.ids.values())
        mock_list = [book for book in mock_list if book[ID] in mine]
        app_list = [book for book in app_list if book[ID] in self.ids]
        by_title = lambda books: {book["title"]: book for book in books}  # noqa: E731
        app_books, mock_books = by_title(app_list), by_title(mock_list)
        self.assertEqual(sorted(app_books), sorted(mock_books))
        far = datetime.now(timezone.utc)
        for title, app_book in app_books.items():
            self.same_book(app_book, mock_books[title], far - timedelta(minutes=5), far, f"GET /books: {title}")

    def test_the_description_is_the_apps(self):
        written = json.loads(DESCRIPTION.read_text())
        self.assertEqual(
            written,
            json.loads(json.dumps(shelf.app.openapi())),
            "tests/fixtures/fastapi/shelf.json is not what shelf.py serves: tests/fastapi/run.sh --write",
        )


if __name__ == "__main__":
    unittest.main(verbosity=2)
