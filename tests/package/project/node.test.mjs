// The package in Node (run under Node 18 and 20 by tests/package/run.sh): a description read
// from files (YAML, kept in two files), over HTTP and from text; the mock behind Node's global
// fetch; state in memory and in a file that a kill -9 does not lose; clear errors.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { ApiMock, PetstoreMock, fileStorage, ready } from "petstore-playground-mock";

const scratch = mkdtempSync(join(tmpdir(), "mock-package-"));
after(() => rmSync(scratch, { recursive: true, force: true }));
const json = { "Content-Type": "application/json" };

test("global fetch: create, read back, list and delete through installFetch", async () => {
  await ready();
  const mock = await ApiMock.open("api/openapi.yaml");
  assert.equal(mock.api, "To-do API 1.0");
  const undo = mock.installFetch("/api");
  try {
    const created = await fetch("/api/todos", { method: "POST", headers: json, body: JSON.stringify({ title: "Water the plants" }) });
    assert.equal(created.status, 201);
    const todo = await created.json();
    assert.deepEqual(todo, { id: 1, title: "Water the plants", done: false });
    assert.equal(created.headers.get("location"), "/todos/1");

    const read = await fetch("http://localhost/api/todos/1");
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), todo);

    await fetch("/api/todos", { method: "POST", headers: json, body: JSON.stringify({ title: "Feed the cat", done: true }) });
    const list = await (await fetch("/api/todos")).json();
    assert.deepEqual(list.map((t) => t.title), ["Water the plants", "Feed the cat"]);

    assert.equal((await fetch("/api/todos/1", { method: "DELETE" })).status, 204);
    assert.equal((await fetch("/api/todos/1")).status, 404);
    assert.deepEqual(mock.resources().map((r) => [r.collection, r.count]), [["/todos", 1]]);

    // Refused by the description: the documented error answer, never an exception.
    const refused = await fetch("/api/todos", { method: "POST", headers: json, body: JSON.stringify({ title: 7 }) });
    assert.equal(refused.status, 422);
    const error = await refused.json();
    assert.equal(error.code, "validation_failed");
    assert.match(error.message, /title/);
    const malformed = await fetch("/api/todos", { method: "POST", headers: json, body: "{" });
    assert.equal(malformed.status, 400);
  } finally {
    undo();
  }
  // Put back: a relative URL is Node's own fetch's again, which takes none.
  await assert.rejects(fetch("/api/todos"), TypeError);
});

test("answer() takes the headers as a Headers, as [name, value] pairs or as name: value lines; anything else is a TypeError", async () => {
  const mock = await ApiMock.open("api/openapi.yaml");
  const body = (title) => new TextEncoder().encode(JSON.stringify({ title }));
  const forms = [
    new Headers(json),
    [["Content-Type", "application/json"]],
    "Accept: */*\r\ncontent-type:application/json\r\n",
    "content-type: application/json\n",
  ];
  for (const [i, headers] of forms.entries()) {
    const created = await mock.answer("POST", "/todos", headers, body(`To-do ${i}`));
    assert.equal(created.status, 201, `headers ${JSON.stringify(headers)}`);
    assert.equal(created.statusText, "Created");
    assert.equal(created.headers.get("location"), `/todos/${i + 1}`);
    assert.match(created.headers.get("content-type"), /^application\/json/);
    assert.equal((await created.json()).title, `To-do ${i}`);
  }
  // The headers are read in every form: a body declared as text is refused, whichever line says so.
  for (const headers of ["Accept: */*\r\nContent-Type: text/plain\r\n", "content-type:text/plain", [["content-type", "text/plain"]]]) {
    const refused = await mock.answer("POST", "/todos", headers, body("Plain"));
    assert.equal(refused.status, 415, `headers ${JSON.stringify(headers)}`);
    assert.equal((await refused.json()).code, "unsupported_media_type");
  }
  // No body for a 204.
  const deleted = await mock.answer("DELETE", "/todos/1", "", undefined);
  assert.equal(deleted.status, 204);
  assert.equal(deleted.body, null);
  await assert.rejects(mock.answer("GET", "/todos", 42, undefined), (error) => {
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /Headers, \[name, value\] pairs or "name: value" lines/);
    return true;
  });
});

test("a description as text, as an object, over HTTP; the Petstore's mock beside it", async () => {
  const text = readFileSync("api/openapi.yaml", "utf8").replace(/\{\$ref: "schemas\/todo.yaml"\}/g, "{type: object}");
  const fromText = await ApiMock.open(text);
  assert.equal(fromText.api, "To-do API 1.0");
  const fromObject = new ApiMock({ openapi: "3.0.3", info: { title: "Tiny", version: "2" }, paths: { "/things": { get: { responses: { 200: { description: "ok" } } } } } });
  assert.equal(fromObject.handle({ method: "GET", url: "/things" }).status, 200);

  const server = createServer((request, response) => {
    const file = request.url === "/openapi.yaml" ? "api/openapi.yaml" : request.url === "/schemas/todo.yaml" ? "api/schemas/todo.yaml" : null;
    if (!file) return response.writeHead(404).end();
    response.writeHead(200, { "Content-Type": "application/yaml" }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}`;
    const overHttp = await ApiMock.open(new URL("/openapi.yaml", url));
    assert.equal(overHttp.handle({ method: "POST", url: "/todos", headers: json, body: '{"title": "x"}' }).status, 201);
    await assert.rejects(ApiMock.open(`${url}/missing.yaml`), { message: `${url}/missing.yaml: could not be fetched: the server answered 404 Not Found` });
  } finally {
    server.close();
  }

  const petstore = new PetstoreMock();
  assert.equal(petstore.storageKey, undefined, "memory by default in Node");
  const pets = await (await petstore.fetch("/pets?limit=2")).json();
  assert.equal(pets.length, 2);
});

test("descriptions that cannot be read reject with the file and the reason", async () => {
  await assert.rejects(ApiMock.open("api/nowhere.yaml"), { message: "api/nowhere.yaml: cannot be read: there is no such file" });
  writeFileSync(join(scratch, "broken.yaml"), "openapi: 3.0.3\ninfo: [\n");
  await assert.rejects(ApiMock.open(join(scratch, "broken.yaml")), {
    message: `${join(scratch, "broken.yaml")}: is neither JSON nor YAML: unexpected end of the stream within a flow collection (line 3, column 1)`,
  });
  // Beside the description, so that its other reference is followed.
  const dangling = join("api", "dangling.yaml");
  after(() => rmSync(dangling, { force: true }));
  writeFileSync(dangling, readFileSync("api/openapi.yaml", "utf8").replace("schemas/todo.yaml", "schemas/gone.yaml"));
  await assert.rejects(ApiMock.open(dangling), (error) => {
    assert.match(error.message, /^api\/dangling\.yaml: a reference could not be followed:\n- file:\/\/\/.*\/api\/dangling\.yaml /);
    assert.match(error.message, /at \/paths\/~1todos\/get\/responses\/200\/content\/application~1json\/schema\/items: the reference schemas\/gone\.yaml cannot be read: there is no such file/);
    return true;
  });
  await assert.rejects(ApiMock.open("api/schemas/todo.yaml"), { name: "TypeError", message: /api\/schemas\/todo\.yaml: ApiMock cannot mock this description: This is not an OpenAPI document/ });
  await assert.rejects(ApiMock.open(42), TypeError);
  assert.throws(() => new ApiMock("{"), TypeError);
  assert.throws(() => new ApiMock({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {} }, { failure: { rate: 2 } }), {
    message: "ApiMock options: failure rate 2 is not between 0 and 1.",
  });
  assert.throws(() => fileStorage(join(scratch, "no", "such", "dir", "state.json")), /the directory .* does not exist/);
});

test("state in a file: kept across opens, refused when it is another's, a failed write undone and answered 503", async () => {
  const file = join(scratch, "todos.json");
  const first = await ApiMock.open("api/openapi.yaml", { file });
  assert.equal(first.handle({ method: "POST", url: "/todos", headers: json, body: '{"title": "Kept"}' }).status, 201);
  const second = await ApiMock.open("api/openapi.yaml", { file });
  assert.deepEqual(JSON.parse(second.handle({ method: "GET", url: "/todos" }).body).map((t) => t.title), ["Kept"]);

  // Another description's state is refused, not replaced.
  const petstoreFile = join(scratch, "petstore.json");
  new PetstoreMock({ file: petstoreFile }).handle({ method: "POST", url: "/pets", headers: json, body: '{"name": "Rex", "categoryId": 1}' });
  const before = readFileSync(petstoreFile, "utf8");
  await assert.rejects(ApiMock.open("api/openapi.yaml", { file: petstoreFile }), { message: /cannot open its storage \(.*petstore\.json\)/ });
  assert.equal(readFileSync(petstoreFile, "utf8"), before);

  // A storage that refuses the write: the change is undone and answered 503.
  const failing = await ApiMock.open("api/openapi.yaml", {
    storage: { getItem: () => null, setItem: () => { throw new Error("the disk is full"); } },
  });
  const refused = failing.handle({ method: "POST", url: "/todos", headers: json, body: '{"title": "Lost"}' });
  assert.equal(refused.status, 503);
  assert.deepEqual(JSON.parse(refused.body), {
    code: "state_not_saved",
    message: "The change was not made: the mock's state could not be saved (the disk is full).",
  });
  assert.equal(JSON.parse(failing.handle({ method: "GET", url: "/todos" }).body).length, 0);
});

test("a state file whose folder does not exist: the message names the file and the folder", async () => {
  const file = join(scratch, "missing-folder", "todos.json");
  const says = `${file}: the directory ${join(scratch, "missing-folder")} does not exist; the mock creates the state file, not its directory.`;
  await assert.rejects(ApiMock.open("api/openapi.yaml", { file }), { message: `api/openapi.yaml: ${says}` });
  assert.throws(() => new PetstoreMock({ file }), { message: says });
  assert.throws(() => new ApiMock({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {} }, { file: new URL(`file://${file}`) }), {
    message: `file://${file}: the directory ${join(scratch, "missing-folder")} does not exist; the mock creates the state file, not its directory.`,
  });
  // A file where the folder should be.
  writeFileSync(join(scratch, "a-file"), "");
  await assert.rejects(ApiMock.open("api/openapi.yaml", { file: join(scratch, "a-file", "todos.json") }), {
    message: `api/openapi.yaml: ${join(scratch, "a-file", "todos.json")}: ${join(scratch, "a-file")} is not a directory.`,
  });
});

test("a corrupt state file is refused, not replaced, as not a saved mock (no Petstore in an ApiMock's message)", async () => {
  for (const [name, text] of [["corrupt.json", "this is not a mock's state\n"], ["corrupt-envelope.json", '{"generation":1}']]) {
    const file = join(scratch, name);
    writeFileSync(file, text);
    await assert.rejects(ApiMock.open("api/openapi.yaml", { file }), (error) => {
      assert.match(error.message, /^api\/openapi\.yaml: ApiMock cannot open its storage \(.*corrupt.*\.json\): The saved value is not a saved mock \(/);
      assert.doesNotMatch(error.message, /Petstore/);
      return true;
    });
    assert.throws(() => new PetstoreMock({ file }), { message: /^PetstoreMock cannot open its storage \(.*\): The saved value is not a saved mock \(/ });
    assert.equal(readFileSync(file, "utf8"), text, "left as it was");
  }
});

test("require() loads the package where Node can require an ES module (20.19, 22.12), and says ERR_REQUIRE_ESM before", () => {
  const require = createRequire(import.meta.url);
  if (process.features.require_module) {
    assert.equal(typeof require("petstore-playground-mock").ApiMock.open, "function");
    assert.equal(typeof require("petstore-playground-mock/playwright").routeMock, "function");
  } else {
    assert.throws(() => require("petstore-playground-mock"), { code: "ERR_REQUIRE_ESM" });
  }
});

const titles = (mock) => JSON.parse(mock.handle({ method: "GET", url: "/todos" }).body).map((t) => t.title);
const createTodo = (mock, title) => mock.handle({ method: "POST", url: "/todos", headers: json, body: JSON.stringify({ title }) }).status;

test("a state file of an earlier version (one JSON value) is read, and rewritten as a log at the first write", async () => {
  const earlier = await ApiMock.open("api/openapi.yaml");
  createTodo(earlier, "Old");
  const file = join(scratch, "earlier.json");
  const text = `{"generation":3,"snapshot":${earlier.snapshot()}}`;
  writeFileSync(file, text);
  const mock = await ApiMock.open("api/openapi.yaml", { file });
  assert.deepEqual(titles(mock), ["Old"]);
  assert.equal(readFileSync(file, "utf8"), text, "opening and reading write nothing");
  assert.equal(createTodo(mock, "New"), 201);
  assert.ok(readFileSync(file, "utf8").startsWith("playground-mock-store/1\n"));
  assert.deepEqual(titles(await ApiMock.open("api/openapi.yaml", { file })), ["Old", "New"]);
});

test("a log an earlier version began with petstore-mock-store/1 is read, and moved under this version's first line at the first write", async () => {
  const file = join(scratch, "earlier-log.json");
  const first = await ApiMock.open("api/openapi.yaml", { file });
  assert.equal(createTodo(first, "Old"), 201);
  const log = readFileSync(file, "utf8");
  assert.ok(log.startsWith("playground-mock-store/1\n"), log.slice(0, 40));
  // The same log as the earlier version wrote it.
  const text = log.replace(/^playground-mock-store\/1/, "petstore-mock-store/1");
  writeFileSync(file, text);
  const mock = await ApiMock.open("api/openapi.yaml", { file });
  assert.deepEqual(titles(mock), ["Old"]);
  assert.equal(readFileSync(file, "utf8"), text, "opening and reading write nothing");
  assert.equal(createTodo(mock, "New"), 201);
  const moved = readFileSync(file, "utf8");
  assert.ok(moved.startsWith("playground-mock-store/1\n"), moved.slice(0, 40));
  assert.ok(!moved.includes("petstore-mock-store/1"));
  assert.deepEqual(titles(await ApiMock.open("api/openapi.yaml", { file })), ["Old", "New"]);
});

test("each write appends what it changed, whatever the state holds; a last line cut short is skipped", async () => {
  const appended = async (todos) => {
    const file = join(scratch, `appended-${todos}.json`);
    const filled = await ApiMock.open("api/openapi.yaml");
    for (let i = 0; i < todos; i++) createTodo(filled, `todo ${i}`);
    const mock = await ApiMock.open("api/openapi.yaml", { file });
    mock.restore(filled.snapshot());
    const sizes = [];
    for (let i = 0; i < 20; i++) {
      const before = statSync(file).size;
      assert.equal(createTodo(mock, `more ${i}`), 201);
      sizes.push(statSync(file).size - before);
    }
    return { file, mock, median: sizes.sort((a, b) => a - b)[10] };
  };
  const small = await appended(10);
  const large = await appended(3000);
  assert.ok(large.median < small.median + 64, `bytes per create: ${small.median} at 10 to-dos, ${large.median} at 3,000`);

  // A crash in the middle of a line: the line is skipped, the writes before it are kept.
  appendFileSync(large.file, '\n["api-mock/v1/To-do API 1.0/log/9');
  const reopened = await ApiMock.open("api/openapi.yaml", { file: large.file });
  const count = (mock) => mock.resources()[0].count;
  assert.equal(count(reopened), 3020);
  assert.equal(createTodo(reopened, "after the cut"), 201);
  assert.equal(count(await ApiMock.open("api/openapi.yaml", { file: large.file })), 3021);
});

test("two mocks on one file follow each other's appended writes, and either reopens the whole", async () => {
  const file = join(scratch, "shared.json");
  const a = await ApiMock.open("api/openapi.yaml", { file });
  const b = await ApiMock.open("api/openapi.yaml", { file });
  assert.equal(createTodo(a, "from a"), 201);
  assert.deepEqual(titles(b), ["from a"]);
  assert.equal(createTodo(b, "from b"), 201);
  assert.equal(createTodo(a, "from a again"), 201);
  assert.deepEqual(titles(b), ["from a", "from b", "from a again"]);
  assert.deepEqual(a.notices(), []);
  assert.deepEqual(titles(await ApiMock.open("api/openapi.yaml", { file })), ["from a", "from b", "from a again"]);
});

test("kill -9 while writing loses no acknowledged change", async () => {
  const file = join(scratch, "crash.json");
  // In the project, where the package resolves.
  const writer = join(process.cwd(), "crash-writer.mjs");
  after(() => rmSync(writer, { force: true }));
  writeFileSync(
    writer,
    `import { ApiMock } from "petstore-playground-mock";
const mock = await ApiMock.open(${JSON.stringify(join(process.cwd(), "api/openapi.yaml"))}, { file: ${JSON.stringify(file)} });
for (let i = 0; ; i++) {
  const answer = mock.handle({ method: "POST", url: "/todos", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ title: "t" + i }) });
  if (answer.status !== 201) { console.error(answer.status, answer.body); process.exit(1); }
  process.stdout.write(JSON.parse(answer.body).title + "\\n");
}
`,
  );
  const acknowledged = new Set();
  for (let round = 0; round < 5; round++) {
    const child = spawn(process.execPath, [writer], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
    const closed = new Promise((resolve) => child.on("close", resolve));
    let pending = "";
    child.stdout.on("data", (chunk) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) acknowledged.add(line);
    });
    await new Promise((resolve) => setTimeout(resolve, 300 + round * 120));
    child.kill("SIGKILL");
    await closed;
  }
  assert.ok(acknowledged.size > 5, `only ${acknowledged.size} writes acknowledged`);
  const reopened = await ApiMock.open("api/openapi.yaml", { file });
  const stored = new Set(JSON.parse(reopened.handle({ method: "GET", url: "/todos" }).body).map((t) => t.title));
  const lost = [...acknowledged].filter((title) => !stored.has(title));
  assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.size} acknowledged writes lost`);
});
