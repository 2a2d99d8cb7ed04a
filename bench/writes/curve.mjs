// `make bench-writes`: the time of one acknowledged create against how many items are stored,
// for the native server (`petstore-mock serve --state FILE`), json-server (its db.json), and the
// page's mock (`PetstoreMock.handle`, saved to localStorage), in one run; then, at the largest
// size, creates and reads per second from 4 concurrent connections (wrk). Each size starts from a state
// holding that many pets (written directly, so the curve does not wait for thousands of slow
// creates), then times CREATES sequential creates of pets with 90-character names. Prints
// Markdown (stdout); progress on stderr.
//
//   node bench/writes/curve.mjs PETSTORE_MOCK_BINARY JSON_SERVER_BINARY DIST_DIR
// Environment: BENCH_SIZES ("100,1000,5000,10000,20000"), BENCH_PAGE_SIZES ("100,1000,5000,10000,20000"),
// BENCH_CREATES (200), BENCH_SECONDS (3, for the concurrent part).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const [BIN, JSON_SERVER, DIST] = process.argv.slice(2);
if (!BIN || !JSON_SERVER || !DIST) {
  console.error("usage: node bench/writes/curve.mjs PETSTORE_MOCK_BINARY JSON_SERVER_BINARY DIST_DIR");
  process.exit(2);
}
const list = (text) => text.split(",").map((n) => Number(n.trim())).filter((n) => n > 0);
const SIZES = list(process.env.BENCH_SIZES ?? "100,1000,5000,10000,20000");
const PAGE_SIZES = list(process.env.BENCH_PAGE_SIZES ?? "100,1000,5000,10000,20000");
const CREATES = Number(process.env.BENCH_CREATES ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const NAME = "N".repeat(90);
const log = (...args) => console.error(...args);

/** N pets in the Petstore mock's snapshot (the server's state file and the page's restore). */
function petstoreState(n) {
  const pets = [];
  const stock = [];
  for (let id = 1; id <= n; id++) {
    pets.push({ id, name: `${NAME.slice(0, 80)}${String(id).padStart(10, "0")}`, categoryId: 1 + (id % 3), status: "available" });
    stock.push({ petId: id, quantity: 0 });
  }
  return {
    version: 1,
    nextIds: { category: 4, pet: n + 1, order: 1 },
    categories: [
      { id: 1, name: "Dogs", description: "Loyal and loud." },
      { id: 2, name: "Cats", description: "Independent and curious." },
      { id: 3, name: "Birds", description: "They sing." },
    ],
    pets,
    orders: [],
    stock,
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One request; resolves to the status once the whole answer is read. */
function call(base, method, path, body) {
  return new Promise((done, fail) => {
    const url = new URL(path, base);
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      { method, agent, headers: data ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) } : {} },
      (res) => {
        res.resume();
        res.on("end", () => done(res.statusCode));
      },
    );
    req.on("error", fail);
    if (data) req.write(data);
    req.end();
  });
}

/** Times `creates` sequential creates; the median and mean in milliseconds. */
async function timeCreates(base, creates) {
  const times = [];
  for (let i = 0; i < creates; i++) {
    const started = performance.now();
    const status = await call(base, "POST", "/pets", { name: NAME, categoryId: 1 });
    times.push(performance.now() - started);
    if (status !== 201) throw new Error(`a create at ${base} answered ${status}`);
  }
  return summary(times);
}

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], mean: times.reduce((a, b) => a + b, 0) / times.length };
}

/** Answered requests per second from 4 concurrent connections for SECONDS, under wrk (a C
 * client, so the figure is the server's, not node's): `script` is wrk's Lua. */
async function throughput(base, script) {
  const file = join(work, `wrk-${Math.random().toString(36).slice(2)}.lua`);
  writeFileSync(
    file,
    `${script}\ndone = function(summary) io.write(string.format("answered %d non2xx %d\\n", summary.requests, summary.errors.status)) end\n`,
  );
  const output = await new Promise((done, fail) => {
    const child = spawn("wrk", ["-t2", "-c4", `-d${SECONDS}s`, "-s", file, base], { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    child.on("exit", (code) => (code === 0 ? done(text) : fail(new Error(`wrk exited with ${code}: ${text}`))));
  });
  const [, answered, failed] = output.match(/answered (\d+) non2xx (\d+)/) ?? [];
  if (answered === undefined) throw new Error(`wrk said: ${output}`);
  return { perSecond: (Number(answered) - Number(failed)) / SECONDS, failed: Number(failed) };
}

const CREATE_SCRIPT = `wrk.method = "POST"
wrk.path = "/pets"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '${JSON.stringify({ name: NAME, categoryId: 1 })}'`;
const readScript = (n) => `request = function() return wrk.format("GET", "/pets/" .. math.random(1, ${n})) end`;

/** Starts `command` and resolves to [child, base URL] once `ready(line)` gives the URL. */
function start(command, args, ready) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
    let seen = "";
    const look = (chunk) => {
      seen += chunk;
      for (const line of seen.split("\n")) {
        const url = ready(line);
        if (url) return done([child, url]);
      }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.on("exit", (code) => fail(new Error(`${command} exited with ${code}: ${seen.slice(-2000)}`)));
    setTimeout(() => fail(new Error(`${command} did not start within 60 s: ${seen.slice(-2000)}`)), 60_000);
  });
}

function stop(child) {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
}

/** The creates timed at `base` holding `n` pets; with `concurrent`, creates and reads per second
 * from 4 clients too. */
async function measure(base, n, concurrent) {
  const result = { creates: await timeCreates(base, CREATES) };
  if (concurrent) {
    result.writes = await throughput(base, CREATE_SCRIPT);
    result.reads = await throughput(base, readScript(n));
  }
  return result;
}

async function ours(work, n, concurrent) {
  const state = join(work, `state-${n}.json`);
  writeFileSync(state, JSON.stringify(petstoreState(n)));
  const [child, base] = await start(BIN, ["serve", "--host", "127.0.0.1", "--port", "0", "--state", state], (line) =>
    line.match(/petstore-mock listening on (\S+)/)?.[1],
  );
  try {
    return await measure(base, n, concurrent);
  } finally {
    stop(child);
  }
}

async function jsonServer(work, n, concurrent) {
  const db = join(work, `db-${n}.json`);
  const state = petstoreState(n);
  writeFileSync(db, JSON.stringify({ pets: state.pets, categories: state.categories }, null, 2));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  // --quiet: json-server otherwise logs every request. It says nothing then: asked until it answers.
  const child = spawn(JSON_SERVER, ["--host", "127.0.0.1", "--port", String(port), "--quiet", db], { stdio: "ignore", detached: true });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const status = await call(base, "GET", "/pets/1").catch(() => 0);
    if (status === 200) break;
    if (tries > 600) {
      stop(child);
      throw new Error("json-server did not answer within 60 s");
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  try {
    return await measure(base, n, concurrent);
  } finally {
    stop(child);
  }
}

/** The page's mock in Chromium: restored to N pets (saved to localStorage), then timed. */
async function page(sizes) {
  const { chromium } = await import(resolve(HERE, "../node_modules/playwright-core/index.mjs"));
  const { serveStatic } = await import(resolve(HERE, "../../tests/e2e/harness.mjs"));
  const site = await serveStatic(DIST);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const rows = [];
  try {
    for (const n of sizes) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(`${site.url}mock-example.html`);
      log(`page: ${n} pets`);
      const measured = await tab.evaluate(
        async ({ snapshot, creates, name }) => {
          const { default: init, PetstoreMock } = await import("./mock/petstore_mock.js");
          await init();
          localStorage.clear();
          const mock = new PetstoreMock({ storageKey: "bench-writes" });
          mock.restore(snapshot);
          const times = [];
          const body = JSON.stringify({ name, categoryId: 1 });
          for (let i = 0; i < creates; i++) {
            const started = performance.now();
            const answer = mock.handle({ method: "POST", url: "/pets", headers: { "Content-Type": "application/json" }, body });
            times.push(performance.now() - started);
            if (answer.status !== 201) return { error: `a create answered ${answer.status}` };
          }
          // The header under the key, the base and the log entries under keys below it.
          const keys = Object.keys(localStorage).filter((k) => k === "bench-writes" || k.startsWith("bench-writes/"));
          const saved = keys.reduce((n, k) => n + k.length + localStorage.getItem(k).length, 0);
          return { times, notices: mock.notices().map((n) => n.message ?? String(n)), saved, keys: keys.length };
        },
        { snapshot: JSON.stringify(petstoreState(n)), creates: CREATES, name: NAME },
      );
      await context.close();
      if (measured.error) throw new Error(measured.error);
      rows.push({ n, creates: summary(measured.times), notices: measured.notices, saved: measured.saved, keys: measured.keys });
    }
  } finally {
    await browser.close();
    await site.close();
  }
  return rows;
}

const ms = (x) => (x >= 10 ? x.toFixed(1) : x.toFixed(2));
const work = mkdtempSync(join(tmpdir(), "bench-writes-"));
try {
  const server = [];
  for (const n of SIZES) {
    const concurrent = n === SIZES[SIZES.length - 1];
    log(`server: ${n} pets`);
    const us = await ours(work, n, concurrent);
    log(`json-server: ${n} pets`);
    const them = await jsonServer(work, n, concurrent);
    server.push({ n, us, them });
  }
  const pageRows = await page(PAGE_SIZES);

  const out = [];
  out.push("# Writes against the stored items");
  out.push("");
  out.push(
    `One run on ${new Date().toISOString().slice(0, 10)}: ${CREATES} sequential creates (a pet with a 90-character name, one keep-alive client) after the state was set to N pets; median and mean time per acknowledged create. \`make bench-writes\` (bench/writes/).`,
  );
  out.push("");
  out.push("## Servers");
  out.push("");
  out.push("| Pets stored | petstore-mock --state: median | mean | json-server: median | mean |");
  out.push("|---:|---:|---:|---:|---:|");
  for (const { n, us, them } of server) {
    out.push(`| ${n} | ${ms(us.creates.median)} ms | ${ms(us.creates.mean)} ms | ${ms(them.creates.median)} ms | ${ms(them.creates.mean)} ms |`);
  }
  const first = server[0];
  const last = server[server.length - 1];
  out.push("");
  out.push(
    `Time per create at ${last.n} against ${first.n}: petstore-mock ${(last.us.creates.median / first.us.creates.median).toFixed(1)}x, json-server ${(last.them.creates.median / first.them.creates.median).toFixed(1)}x (target for petstore-mock: within 1.5x).`,
  );
  out.push("");
  out.push(`At ${last.n} pets, 4 concurrent connections for ${SECONDS} s (wrk -t2 -c4; answered with a 2xx, per second):`);
  out.push("");
  out.push("| | petstore-mock --state | json-server |");
  out.push("|---|---:|---:|");
  out.push(`| Acknowledged creates/s | ${last.us.writes.perSecond.toFixed(0)} | ${last.them.writes.perSecond.toFixed(0)} |`);
  out.push(`| Reads/s (GET /pets/{id}) | ${last.us.reads.perSecond.toFixed(0)} | ${last.them.reads.perSecond.toFixed(0)} |`);
  out.push("");
  out.push("## The page's mock (PetstoreMock.handle, saved to localStorage)");
  out.push("");
  out.push("Each create appends one log entry and rewrites the small header (RELIABILITY.md); saved: the characters of the mock's keys after the creates, and how many keys (header, base, log entries).");
  out.push("");
  out.push("| Pets stored | median | mean | saved (characters) | keys | notices |");
  out.push("|---:|---:|---:|---:|---:|---|");
  for (const row of pageRows) {
    out.push(`| ${row.n} | ${ms(row.creates.median)} ms | ${ms(row.creates.mean)} ms | ${row.saved} | ${row.keys} | ${row.notices.join("; ") || "none"} |`);
  }
  const p0 = pageRows[0];
  const p1 = pageRows[pageRows.length - 1];
  out.push("");
  out.push(`Time per create at ${p1.n} against ${p0.n}: ${(p1.creates.median / p0.creates.median).toFixed(1)}x (target: within 1.5x).`);
  console.log(out.join("\n"));
} finally {
  agent.destroy();
  rmSync(work, { recursive: true, force: true });
}
