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
const ROUNDS = Number(process.env.BENCH_ROUNDS || 40);
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

/** Percentile `p` (0..1) of sorted `times`. */
const percentile = (times, p) => times[Math.min(times.length - 1, Math.max(0, Math.ceil(p * times.length) - 1))];
const median = (sorted) =>
  sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;

/**
 * The figures of one setup from its timed round trips (`times`, ms) and their total wall time
 * (`wall`, ms), with one create whose `title` is a number sent to `base` (the setup installed).
 */
async function summary(name, times, wall, statuses, base) {
  const bad = await fetch(`${base}/todos`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ title: 42 }) });
  await bad.arrayBuffer();
  const sorted = Float64Array.from(times).sort();
  return {
    name,
    median: median(sorted) * 1000,
    p99: percentile(sorted, 0.99) * 1000,
    perRequest: (wall * 1000) / (times.length * 4),
    rps: (times.length * 4) / (wall / 1000),
    statuses,
    badStatus: bad.status,
  };
}

/** `count` timed round trips against `base`, each pushed to `times`; resolves to the loop's wall time (ms) and the last statuses. */
async function timed(base, count, times, offset) {
  let statuses;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    statuses = await roundTrip(base, offset + i);
    times.push(performance.now() - t0);
  }
  return { wall: performance.now() - start, statuses };
}

/**
 * The in-process setups, interleaved. Each `{ name, enter }` (enter() installs it and resolves to
 * its `exit`) takes WARMUP round trips first; then ROUNDS rounds each give every setup a block of
 * ITERATIONS / ROUNDS timed round trips, in an order rotated by one per round, so that no setup is
 * favoured by when it ran (the JIT's state, the heap, the machine's load). One setup is installed
 * at a time.
 */
async function interleaved(setups) {
  const block = Math.max(1, Math.round(ITERATIONS / ROUNDS));
  const runs = setups.map(() => ({ times: [], wall: 0, statuses: undefined, perRound: [], wallPerRound: [] }));
  for (const setup of setups) {
    log(`${setup.name}: ${WARMUP} warm-up round trips`);
    const exit = await setup.enter();
    try {
      for (let i = 0; i < WARMUP; i++) await roundTrip(MOCK_BASE, i);
    } finally {
      exit();
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    log(`round ${round + 1} of ${ROUNDS}: ${block} round trips per setup`);
    for (let j = 0; j < setups.length; j++) {
      const k = (round + j) % setups.length;
      const run = runs[k];
      const exit = await setups[k].enter();
      try {
        const before = run.times.length;
        const { wall, statuses } = await timed(MOCK_BASE, block, run.times, round * block);
        run.wall += wall;
        run.wallPerRound.push(wall);
        run.statuses = statuses;
        run.perRound.push(median(Float64Array.from(run.times.slice(before)).sort()));
      } finally {
        exit();
      }
    }
  }
  const figures = [];
  for (const [k, setup] of setups.entries()) {
    const exit = await setup.enter();
    try {
      const { times, wall, statuses, perRound, wallPerRound } = runs[k];
      figures.push({ ...(await summary(setup.name, times, wall, statuses, MOCK_BASE)), perRound, wallPerRound });
    } finally {
      exit();
    }
  }
  return figures;
}

/** json-server's figures: WARMUP round trips, then ITERATIONS timed ones against `base`. */
async function measure(name, base) {
  log(`${name}: ${WARMUP} warm-up and ${ITERATIONS} measured round trips`);
  for (let i = 0; i < WARMUP; i++) await roundTrip(base, i);
  const times = [];
  const { wall, statuses } = await timed(base, ITERATIONS, times, 0);
  return summary(name, times, wall, statuses, base);
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

/**
 * A setup's `enter` for MSW over `handlers`: a `setupServer` of its own each time (the handlers
 * keep their state), closed by the `exit` it resolves to.
 */
function msw(handlers) {
  return async () => {
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: "error" });
    return () => server.close();
  };
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

const NAMES = {
  fetch: "petstore-playground-mock: `installFetch` (in process)",
  hand: "MSW `setupServer`, hand-written handlers (in process)",
  behind: "our mock as MSW handlers: `setupServer(...mswHandlers(mock))` (in process)",
};
const fetchMock = await ApiMock.open(DESCRIPTION);
const mswMock = await ApiMock.open(DESCRIPTION);
const results = await interleaved([
  { name: NAMES.fetch, enter: async () => fetchMock.installFetch(MOCK_BASE) },
  { name: NAMES.hand, enter: msw(handWrittenHandlers(MOCK_BASE)) },
  { name: NAMES.behind, enter: msw(mswHandlers(mswMock, MOCK_BASE)) },
]);
results.push(await withJsonServer("json-server, child process on 127.0.0.1 (HTTP)"));

// The target: our mock behind MSW costs at most 1.2x a hand-written MSW handler, per round trip.
const TARGET = 1.2;
const hand = results.find((r) => r.name === NAMES.hand);
const behind = results.find((r) => r.name === NAMES.behind);
// Each round's two blocks ran one after the other, so their ratio leaves out what changed over
// the run (this machine has slower spells of several seconds). The verdict is the median of the
// rounds' ratios of the blocks' whole times: what a test suite of these requests pays, pauses
// for garbage collection included. The same of the blocks' median round trips is beside it.
const paired = (of) => median(Float64Array.from(of(behind).map((t, i) => t / of(hand)[i])).sort());
const ratio = paired((r) => r.wallPerRound);
const typical = paired((r) => r.perRound);
const spread = Float64Array.from(behind.wallPerRound.map((t, i) => t / hand.wallPerRound[i])).sort();
const overall = behind.median / hand.median;
const meanRatio = behind.perRequest / hand.perRequest;

const cpus = os.cpus();
const fixed = (n, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const lines = [
  "# The npm package's Node round trip against MSW in Node and json-server",
  "",
  "One round trip is four requests through Node's global `fetch`, the same caller code for every row:",
  "create a to-do (`POST /todos` with JSON), read it back (`GET /todos/{id}`), list (`GET /todos`),",
  `delete it (\`DELETE /todos/{id}\`). ${WARMUP} warm-up round trips per setup, then ${fixed(ITERATIONS)} timed one by one`,
  "with `performance.now()`; requests per second over the timed loops. The three in-process setups run in one Node",
  `process, interleaved: ${ROUNDS} rounds each give every setup a block of ${fixed(Math.round(ITERATIONS / ROUNDS))} round trips, in an order`,
  "rotated by one per round (one setup installed at a time; an MSW block has a `setupServer` of its own over the",
  "same handlers); json-server runs after them, in a child process of its own. The API is the to-do",
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
  "## Target",
  "",
  "Ratios of our mock behind MSW to the hand-written handlers. The verdict's: the median over the rounds of the",
  "ratio of the two blocks' whole times (what a suite of these requests pays, garbage collection included), with",
  "its range; then the same of the blocks' median round trips (the typical request, leaving the pauses out), and",
  "the ratios of the medians and of the means over the whole run, unpaired.",
  "",
  "| Target | Ours behind MSW (mean / request) | Hand-written MSW (mean / request) | Ratio (blocks' times, median of rounds) | Range over the rounds | Ratio (blocks' median round trips) | Ratio of the medians | Ratio of the means | Verdict |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---|",
  `| Our mock behind MSW within ${TARGET}× of a hand-written MSW handler | ${fixed(behind.perRequest, 1)} µs | ${fixed(hand.perRequest, 1)} µs | ${ratio.toFixed(2)}× | ${spread[0].toFixed(2)}–${spread[spread.length - 1].toFixed(2)}× | ${typical.toFixed(2)}× | ${overall.toFixed(2)}× | ${meanRatio.toFixed(2)}× | ${ratio <= TARGET ? "**met**" : "**missed**"} |`,
  "",
];
process.stdout.write(lines.join("\n"));
