// The npm package's Node round trip against MSW in Node (msw/node) and json-server, in one
// process, one run (bench/package/run.sh runs it in a fresh project that installed all three).
// The same caller code for every setup: create a to-do (POST JSON), read it back (GET by id),
// list (GET /todos), delete it (DELETE), each through Node's global fetch. Prints Markdown on
// stdout, progress on stderr. Figures, never assertions on time.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { ApiMock } from "petstore-playground-mock";
import { mswHandlers } from "petstore-playground-mock/msw";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS || 2000);
const WARMUP = Number(process.env.BENCH_WARMUP || 200);
const MOCK_BASE = "http://localhost:4010";
const DESCRIPTION = "api/openapi.yaml";
const JSON_HEADERS = { "Content-Type": "application/json" };

const log = (message) => process.stderr.write(`bench-package: ${message}\n`);
const version = (name) => JSON.parse(readFileSync(join("node_modules", name, "package.json"), "utf8")).version;

/** One round trip against `base`; returns the four statuses. Throws when an answer is not the expected kind. */
async function roundTrip(base, i) {
  const created = await fetch(`${base}/todos`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ title: `To-do ${i}` }) });
  const todo = await created.json();
  if (created.status !== 201 || todo.id === undefined) throw new Error(`${base}: POST /todos answered ${created.status} ${JSON.stringify(todo)}`);
  const read = await fetch(`${base}/todos/${todo.id}`);
  const back = await read.json();
  if (read.status !== 200 || back.title !== todo.title) throw new Error(`${base}: GET /todos/${todo.id} answered ${read.status} ${JSON.stringify(back)}`);
  const listed = await fetch(`${base}/todos`);
  const list = await listed.json();
  if (listed.status !== 200 || !Array.isArray(list)) throw new Error(`${base}: GET /todos answered ${listed.status}`);
  const deleted = await fetch(`${base}/todos/${todo.id}`, { method: "DELETE" });
  await deleted.arrayBuffer();
  if (deleted.status >= 300) throw new Error(`${base}: DELETE /todos/${todo.id} answered ${deleted.status}`);
  return [created.status, read.status, listed.status, deleted.status];
}

/** Warm-up, then ITERATIONS timed round trips, then one create with `title` a number. */
async function measure(name, base) {
  log(`${name}: ${WARMUP} warm-up and ${ITERATIONS} measured round trips`);
  let statuses;
  for (let i = 0; i < WARMUP; i++) statuses = await roundTrip(base, i);
  const times = new Float64Array(ITERATIONS);
  const start = performance.now();
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    await roundTrip(base, i);
    times[i] = performance.now() - t0;
  }
  const total = performance.now() - start;
  times.sort();
  const bad = await fetch(`${base}/todos`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ title: 42 }) });
  await bad.arrayBuffer();
  const percentile = (p) => times[Math.min(ITERATIONS - 1, Math.ceil(p * ITERATIONS) - 1)] * 1000;
  return {
    name,
    median: (ITERATIONS % 2 ? times[(ITERATIONS - 1) / 2] : (times[ITERATIONS / 2 - 1] + times[ITERATIONS / 2]) / 2) * 1000,
    p99: percentile(0.99),
    perRequest: (total * 1000) / (ITERATIONS * 4),
    rps: (ITERATIONS * 4) / (total / 1000),
    statuses,
    badStatus: bad.status,
  };
}

// What an MSW user writes by hand for the same API: state in a Map.
function handWrittenHandlers(base) {
  const todos = new Map();
  let next = 1;
  return [
    http.post(`${base}/todos`, async ({ request }) => {
      const body = await request.json();
      const todo = { id: next++, title: body.title, done: body.done ?? false };
      todos.set(todo.id, todo);
      return HttpResponse.json(todo, { status: 201, headers: { Location: `/todos/${todo.id}` } });
    }),
    http.get(`${base}/todos`, () => HttpResponse.json([...todos.values()])),
    http.get(`${base}/todos/:id`, ({ params }) => {
      const todo = todos.get(Number(params.id));
      return todo ? HttpResponse.json(todo) : new HttpResponse(null, { status: 404 });
    }),
    http.delete(`${base}/todos/:id`, ({ params }) =>
      todos.delete(Number(params.id)) ? new HttpResponse(null, { status: 204 }) : new HttpResponse(null, { status: 404 }),
    ),
  ];
}

async function withMsw(name, handlers) {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    return await measure(name, MOCK_BASE);
  } finally {
    server.close();
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function withJsonServer(name) {
  writeFileSync("db.json", JSON.stringify({ todos: [] }));
  const port = await freePort();
  const bin = join("node_modules", "json-server", "lib", "cli", "bin.js");
  const child = spawn(process.execPath, [bin, "--quiet", "--port", String(port), "--host", "127.0.0.1", "db.json"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const base = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`json-server exited (${child.exitCode}) before answering`);
      try {
        const answer = await fetch(`${base}/todos`);
        await answer.arrayBuffer();
        if (answer.ok) break;
      } catch {}
      if (Date.now() > deadline) throw new Error(`json-server did not answer on ${base} within 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return await measure(name, base);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

const results = [];
{
  const mock = await ApiMock.open(DESCRIPTION);
  const undo = mock.installFetch(MOCK_BASE);
  try {
    results.push(await measure("petstore-playground-mock: `installFetch` (in process)", MOCK_BASE));
  } finally {
    undo();
  }
}
results.push(await withMsw("MSW `setupServer`, hand-written handlers (in process)", handWrittenHandlers(MOCK_BASE)));
results.push(await withMsw("our mock as MSW handlers: `setupServer(...mswHandlers(mock))` (in process)", mswHandlers(await ApiMock.open(DESCRIPTION), MOCK_BASE)));
results.push(await withJsonServer("json-server, child process on 127.0.0.1 (HTTP)"));

const cpus = os.cpus();
const fixed = (n, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const lines = [
  "# The npm package's Node round trip against MSW in Node and json-server",
  "",
  "One round trip is four requests through Node's global `fetch`, the same caller code for every row:",
  "create a to-do (`POST /todos` with JSON), read it back (`GET /todos/{id}`), list (`GET /todos`),",
  `delete it (\`DELETE /todos/{id}\`). ${WARMUP} warm-up round trips, then ${fixed(ITERATIONS)} timed one by one`,
  "with `performance.now()`; requests per second over the whole timed loop. All rows in one Node process,",
  "one run, one after the other (json-server in a child process of its own). The API is the to-do",
  "description of tests/package/project/api (two YAML files); the hand-written MSW handlers keep the",
  "to-dos in a `Map`, and json-server serves a `db.json` of `{\"todos\": []}` (written to disk on every change).",
  "\"Refuses a bad body\": the status of one create whose `title` is a number.",
  "",
  `Machine: ${cpus[0]?.model ?? "unknown CPU"}, ${cpus.length} cores, ${os.type()} ${os.release()} (${os.arch()}); Node ${process.version}.`,
  `Packages: petstore-playground-mock ${version("petstore-playground-mock")}, msw ${version("msw")}, json-server ${version("json-server")}.`,
  "",
  "| Setup | Median µs / round trip | p99 µs / round trip | Mean µs / request | Requests/s | Answers (create, read, list, delete) | Refuses a bad body |",
  "|---|---:|---:|---:|---:|---|---|",
  ...results.map(
    (r) =>
      `| ${r.name} | ${fixed(r.median)} | ${fixed(r.p99)} | ${fixed(r.perRequest, 1)} | ${fixed(r.rps)} | ${r.statuses.join(", ")} | ${r.badStatus >= 400 ? "yes" : "no"} (${r.badStatus}) |`,
  ),
  "",
];
process.stdout.write(lines.join("\n"));
