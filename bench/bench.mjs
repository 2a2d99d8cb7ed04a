// `make bench` (bench/run.sh runs this after building): Petstore Playground against the
// reference renderers and mocks people use today, measured in one run on this machine, in
// headless Chromium driven by playwright-core. Prints Markdown and writes bench/RESULTS.md.
//
//   1. Renderers x documents: time to the operation list visible and to the first operation
//      interactive, JS heap (plus WebAssembly memory) after load, and the code loaded before
//      the list was visible. Runs are interleaved: each round loads every tool once per
//      document, in a rotated order, each in a fresh browser context (cold cache). These loads
//      drive Chromium over the DevTools protocol directly (lib/cdp.mjs says why). Then, in the
//      same round, each tool opens a deep link to one operation of GitHub's document (the last
//      operation of its last tag, so that no tool shows it with the first screen), timed to
//      the operation on screen.
//   2. The try-it round trip (click Send to the answer in the DOM) with the in-browser mock,
//      against MSW answering the same requests through its service worker.
//   3. The native server's requests per second against Prism and json-server, from
//      bench/mock/run.sh in the same `make bench` run (BENCH_MOCK_RESULTS).
//   4. The sizes of the modules the page loads later (try-it, the mocks, ...), with their
//      size targets.
//
// Environment: BENCH_RUNS (3), BENCH_TOOLS / BENCH_DOCS (comma-separated subsets),
// BENCH_DEEP_LINK (documents whose deep link is timed: "github"; "" = none),
// BENCH_SENDS (30, try-it sends per request; 0 = no try-it stage), BENCH_REDOC3 (unpacked
// redoc@3 folder), BENCH_DIST (our release build: ../dist; give a copy, `cp -r dist
// /tmp/bench-dist`, when dist/ may be rebuilt during the run), BENCH_MOCK_RESULTS (JSON from
// bench/mock/run.sh), BENCH_OUT (RESULTS.md path; "-" = none). The growth benchmark
// (bench/growth.mjs, `make bench-growth`) writes bench/GROWTH.md, and the published site's
// (bench/site.mjs, `make bench-site`) bench/SITE.md, both included here when present.
import { readFile, stat, writeFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import os from "node:os";
import { serve } from "./lib/server.mjs";
import { renderers } from "./lib/renderers.mjs";
import { firstFrame, launch as launchCdp, openPage } from "./lib/cdp.mjs";
import { WASM_TRACKER, memory, watcher } from "./lib/load.mjs";
import { ARGS, CHROMIUM, VIEWPORT, githubDescription, median, ms } from "./lib/chromium.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..");
const NODE_MODULES = join(HERE, "node_modules");
const require = createRequire(join(HERE, "package.json"));
const { chromium } = require("playwright-core");
const yaml = createRequire(join(ROOT, ".tools/package.json"))("js-yaml");

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SENDS = Number(process.env.BENCH_SENDS ?? 30);
const TIMEOUT = Number(process.env.BENCH_TIMEOUT ?? 180_000);
const DIST = resolve(process.env.BENCH_DIST ?? join(ROOT, "dist"));
const DEEP_LINK = (process.env.BENCH_DEEP_LINK ?? "github").split(",").filter(Boolean);

// --- documents ------------------------------------------------------------------------------
const DOCUMENTS = [
  { key: "petstore", name: "Petstore (ours, 18 operations, YAML)", file: join(ROOT, "openapi/petstore.yaml"), path: "docs/petstore.yaml", builtin: true },
  { key: "petstore3", name: "Swagger petstore3 (19 operations, YAML)", file: join(ROOT, "tests/fixtures/swagger-petstore3.yaml"), path: "docs/petstore3.yaml" },
  { key: "github", name: "GitHub REST (@octokit/openapi, JSON)", file: githubDescription(NODE_MODULES), path: "docs/github.json" },
];
const docs = DOCUMENTS.filter((d) => !process.env.BENCH_DOCS || process.env.BENCH_DOCS.split(",").includes(d.key));
for (const doc of docs) {
  const text = await readFile(doc.file, "utf8");
  const value = doc.file.endsWith(".json") ? JSON.parse(text) : yaml.load(text);
  doc.title = value.info.title;
  doc.bytes = Buffer.byteLength(text);
  doc.operations = Object.values(value.paths).reduce(
    (n, item) => n + Object.keys(item).filter((k) => /^(get|put|post|delete|options|head|patch|trace)$/.test(k)).length,
    0,
  );
  if (DEEP_LINK.includes(doc.key)) doc.deepLink = deepLinkTarget(value);
}

/**
 * The operation a deep link opens: the last operation (in document order) of the last tag the
 * document declares that has operations. Every tool that groups by tag shows it at the end of
 * its list, far from the first screen.
 */
function deepLinkTarget(value) {
  const byTag = new Map();
  for (const [path, item] of Object.entries(value.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!/^(get|put|post|delete|options|head|patch|trace)$/.test(method) || !op.operationId || !op.tags?.length) continue;
      byTag.set(op.tags[0], { operationId: op.operationId, tag: op.tags[0], method, path, summary: op.summary ?? op.operationId });
    }
  }
  const tag = (value.tags ?? []).map((t) => t.name).filter((t) => byTag.has(t)).at(-1) ?? [...byTag.keys()].at(-1);
  return byTag.get(tag);
}
const docRoutes = Object.fromEntries(DOCUMENTS.map((d) => [`/${d.path}`, d.file]));

// --- tools ----------------------------------------------------------------------------------
const redoc3 = process.env.BENCH_REDOC3 && (await stat(join(process.env.BENCH_REDOC3, "bundles/redoc.standalone.js")).catch(() => null))
  ? process.env.BENCH_REDOC3
  : null;
const allTools = renderers({ dist: DIST, nodeModules: NODE_MODULES, redoc3, pages: join(HERE, "pages") });
const toolNames = Object.keys(allTools).filter((n) => !process.env.BENCH_TOOLS || process.env.BENCH_TOOLS.split(",").includes(n));
const OURS = "Petstore Playground";

const versionOf = async (pkg) => {
  if (pkg === "redoc@3") return JSON.parse(await readFile(join(redoc3, "package.json"), "utf8")).version;
  return JSON.parse(await readFile(join(NODE_MODULES, pkg, "package.json"), "utf8")).version;
};
const versions = {};
for (const name of toolNames) {
  versions[name] = allTools[name].version ? await versionOf(allTools[name].version) : gitVersion();
}
function gitVersion() {
  try {
    return execFileSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"]).toString().trim();
  } catch {
    return "working tree";
  }
}

const CODE = new Set([".js", ".mjs", ".wasm", ".css"]);
const sizes = new Map();
async function sizeOf(file) {
  if (!sizes.has(file)) {
    const body = await readFile(file);
    sizes.set(file, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return sizes.get(file);
}

/** Run in the page from its start: notes the first animation frame at which `condition` holds. */
const listWatcher = (condition) => watcher(firstFrame, condition, "__benchListed");

/** One load of `doc` in `name`: timings, memory, code before the list, blocked requests. */
async function measureLoad(browser, servers, name, doc) {
  const tool = allTools[name];
  const site = servers[name];
  const blocked = new Set();
  const page = await openPage(browser, { viewport: VIEWPORT, blocked, scripts: [WASM_TRACKER, listWatcher(tool.list(doc))] });
  try {
    const url = tool.url ? tool.url(site.url, doc) : `${site.url}?doc=${encodeURIComponent(doc.path)}`;
    await page.navigate(url);
    const listed = await page.poll("globalThis.__benchListed", TIMEOUT, "the operation list did not show");
    const opened = await tool.open(page, TIMEOUT);
    // Let deferred work settle (our mock and Markdown modules load after the first paint).
    await new Promise((ok) => setTimeout(ok, 1000));
    const { heap: usedSize, wasm } = await memory(page);
    const code = { raw: 0, gzip: 0, files: 0 };
    for (const address of new Set(listed.resources)) {
      const file = site.fileFor(address);
      if (!file || !CODE.has(extname(file))) continue;
      const size = await sizeOf(file);
      code.raw += size.raw;
      code.gzip += size.gzip;
      code.files += 1;
    }
    return { list: listed.t, open: opened, heap: usedSize, wasm, code, blocked: [...blocked] };
  } catch (error) {
    return { error: String(error.message ?? error).split("\n")[0], blocked: [...blocked] };
  } finally {
    await page.close();
  }
}

/** One load of `tool.deepLink(doc)`: the time until the operation is on screen. */
async function measureDeepLink(browser, servers, name, doc) {
  const tool = allTools[name];
  const blocked = new Set();
  const page = await openPage(browser, { viewport: VIEWPORT, blocked, scripts: [watcher(firstFrame, tool.shown(doc.deepLink), "__benchShown")] });
  try {
    await page.navigate(tool.deepLink(servers[name].url, doc, doc.deepLink));
    // A tool known not to open this link gets 30 s to prove it wrong.
    const limit = tool.deepLinkLimit?.(doc.deepLink);
    const shown = await page.poll("globalThis.__benchShown", limit ? 30_000 : TIMEOUT, "the operation did not show")
      .catch((error) => { throw limit ? Object.assign(new Error(limit), { limit: true }) : error; });
    return { shown: shown.t, hash: await page.evaluate("decodeURIComponent(location.hash)") };
  } catch (error) {
    return { error: String(error.message ?? error).split("\n")[0], limit: Boolean(error.limit) };
  } finally {
    await page.close();
  }
}

// --- try-it round trip ------------------------------------------------------------------------
/**
 * In the page: click `button`, resolve with the ms until an `answer` element with a new
 * `data-exchange` value is in the DOM (views may be patched in place, so the element itself
 * can be the same one).
 */
function roundTrip({ button, answer }) {
  const before = new Set([...document.querySelectorAll(answer)].map((e) => e.dataset.exchange));
  return new Promise((resolve, reject) => {
    let t0 = 0;
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`no new ${answer} within 10 s`));
    }, 10_000);
    const check = () => {
      const fresh = [...document.querySelectorAll(answer)].find((e) => !before.has(e.dataset.exchange));
      if (!fresh) return;
      const ms = performance.now() - t0;
      observer.disconnect();
      clearTimeout(timer);
      resolve({ ms, status: fresh.dataset.status });
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    t0 = performance.now();
    document.querySelector(button).click();
    check();
  });
}

async function sendMany(page, button, answer, status) {
  const times = [];
  for (let i = 0; i < SENDS + 3; i++) {
    const result = await page.evaluate(roundTrip, { button, answer });
    if (result.status !== status) throw new Error(`${button} answered ${result.status}, expected ${status}`);
    if (i >= 3) times.push(result.ms); // 3 warm-up sends
    await page.waitForTimeout(20);
  }
  return times;
}

/**
 * Our try-it round trip in the page: for each step `[key, operationId, status, fill]`, open the
 * operation, wait for the mock, pick it as the target when `pickMock` (a loaded document's
 * panel starts on its server), fill the form and send.
 */
async function tryItInPage(browser, { routes, query = "", pickMock = false, steps }) {
  const site = await serve(routes);
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    const out = {};
    for (const [key, id, status, fill] of steps) {
      await page.goto(`${site.url}${query}#${id}`);
      await page.locator(`[data-testid=operation-detail][data-operation-id=${id}]`).waitFor({ timeout: 30_000 });
      await page.locator("[data-testid=mock-counts]").waitFor({ timeout: 30_000 });
      if (pickMock) await page.locator("[data-testid=try-target]").selectOption("mock");
      await fill(page);
      out[key] = await sendMany(page, "[data-testid=try-send]", "[data-testid=try-answer]", status);
    }
    return out;
  } finally {
    await context.close();
    await site.close();
  }
}

const tryItOurs = (browser) =>
  tryItInPage(browser, {
    routes: { "/": `${DIST}/` },
    steps: [
      ["get", "getPet", "200", async (p) => p.locator("[data-testid=try-param][data-name=petId]").fill("1")],
      ["post", "createPet", "201", async () => {}],
    ],
  });

/** The Tasks API (a loaded YAML document) with its own in-browser mock (`ApiMock`). */
const TASKS_YAML = join(ROOT, "crates/server/tests/fixtures/tasks.yaml");

const tryItOursApi = (browser) =>
  tryItInPage(browser, {
    routes: { "/tasks.yaml": TASKS_YAML, "/": `${DIST}/` },
    query: "?url=tasks.yaml",
    pickMock: true,
    // POST first: the mock starts empty, and GET reads back project 1.
    steps: [
      ["post", "createProject", "201", async (p) => p.locator("[data-testid=try-body]").fill('{"name": "Garden"}')],
      ["get", "getProject", "200", async (p) => p.locator("[data-testid=try-param][data-name=projectId]").fill("1")],
    ],
  });

async function tryItMsw(browser, index = "msw.html", buttons = { get: "#get-pet", post: "#create-pet" }) {
  const msw = join(NODE_MODULES, "msw");
  const site = await serve(
    { "/vendor/": join(msw, "lib") + "/", "/mockServiceWorker.js": join(msw, "lib/mockServiceWorker.js"), "/": join(HERE, "pages") + "/" },
    { index },
  );
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(site.url);
    await page.waitForFunction(() => document.body.dataset.ready === "true", null, { timeout: 30_000 });
    // POST first, so that GET reads back what was created.
    const post = await sendMany(page, buttons.post, ".answer", "201");
    return { get: await sendMany(page, buttons.get, ".answer", "200"), post };
  } finally {
    await context.close();
    await site.close();
  }
}

// --- statistics and formatting -----------------------------------------------------------------
const msFine = (v) => (v < 10 ? `${v.toFixed(2)} ms` : `${v.toFixed(1)} ms`);
const mb = (v) => `${(v / 1048576).toFixed(1)} MB`;
const kib = (v) => `${(v / 1024).toFixed(0)} KiB`;
const spread = (xs, f) => (xs.length ? `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})` : "–");

// --- run ----------------------------------------------------------------------------------------
const started = new Date();
const servers = {};
for (const name of toolNames) {
  const tool = allTools[name];
  servers[name] = await serve(tool.routes(docRoutes), { index: tool.index });
}
const browser = await launchCdp(CHROMIUM, ARGS);
const chromiumVersion = browser.version;
const results = {}; // results[doc][tool] = [run...]
const deepLinks = {}; // deepLinks[doc][tool] = [run...]
let tryIt;
try {
  // One throw-away load per tool: the browser's own first start is nobody's cost.
  for (const name of toolNames) await measureLoad(browser, servers, name, docs[0]);
  for (let run = 0; run < RUNS; run++) {
    for (const doc of docs) {
      const order = toolNames.map((_, i) => toolNames[(i + run) % toolNames.length]);
      for (const name of order) {
        const r = await measureLoad(browser, servers, name, doc);
        ((results[doc.key] ??= {})[name] ??= []).push(r);
        const line = r.error
          ? `error: ${r.error}`
          : `list ${ms(r.list)}, open ${ms(r.open)}, heap ${mb(r.heap)}${r.wasm ? ` + wasm ${mb(r.wasm)}` : ""}, code ${kib(r.code.gzip)} gzip`;
        console.error(`[run ${run + 1}/${RUNS}] ${doc.key.padEnd(9)} ${name.padEnd(20)} ${line}`);
      }
    }
    for (const doc of docs.filter((d) => d.deepLink)) {
      const order = toolNames.map((_, i) => toolNames[(i + run) % toolNames.length]);
      for (const name of order) {
        // A link the tool could not open (deepLinkLimit) is not tried again in later rounds.
        if (deepLinks[doc.key]?.[name]?.some((r) => r.limit)) continue;
        const r = await measureDeepLink(browser, servers, name, doc);
        ((deepLinks[doc.key] ??= {})[name] ??= []).push(r);
        console.error(`[run ${run + 1}/${RUNS}] ${doc.key.padEnd(9)} ${name.padEnd(20)} deep link: ${r.error ? `error: ${r.error}` : `shown ${ms(r.shown)} (${r.hash})`}`);
      }
    }
  }
} finally {
  await browser.close();
  for (const s of Object.values(servers)) await s.close();
}
if ((!process.env.BENCH_TOOLS || toolNames.includes(OURS)) && SENDS > 0) {
  // The try-it figures are click-to-answer times inside one loaded page, driven by Playwright.
  const playwright = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    console.error("try-it round trip: Petstore Playground");
    const ours = await tryItOurs(playwright);
    console.error("try-it round trip: MSW");
    const msw = await tryItMsw(playwright);
    console.error("try-it round trip, a loaded document: Petstore Playground");
    const oursApi = await tryItOursApi(playwright);
    console.error("try-it round trip, a loaded document: MSW");
    const mswApi = await tryItMsw(playwright, "msw-api.html", { get: "#get-project", post: "#create-project" });
    tryIt = { ours, msw, oursApi, mswApi };
  } finally {
    await playwright.close();
  }
}

// --- report --------------------------------------------------------------------------------------
const ok = (runs) => (runs ?? []).filter((r) => !r.error);
const figure = (doc, name, f) => ok(results[doc]?.[name]).map(f);
const lines = [];
const out = (s = "") => lines.push(s);
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
out(`# Benchmarks: Petstore Playground and the tools people use today`);
out();
out(`Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC by \`make bench\` on ${os.cpus().length} × ${cpu}, ` +
  `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}; Chromium ${chromiumVersion} headless ` +
  `(${VIEWPORT.width}×${VIEWPORT.height}), Node ${process.version}. Median of ${RUNS} interleaved runs, range in brackets.`);
out();
out(`Versions: ${toolNames.map((n) => `${n} ${versions[n]}`).join(", ")}; MSW ${await versionOf("msw")}.`);
out();
out("## Reference renderers");
out();
for (const doc of docs) {
  out(`### ${doc.name}: ${doc.operations} operations, ${(doc.bytes / 1e6).toFixed(2)} MB`);
  out();
  out("| Tool | Operation list visible | First operation open | JS heap after load | + WebAssembly memory | Code before the list (raw / gzip) | Blocked online requests |");
  out("|---|---:|---:|---:|---:|---:|---|");
  for (const name of toolNames) {
    const runs = results[doc.key]?.[name] ?? [];
    const good = ok(runs);
    if (!good.length) {
      out(`| ${name} | failed: ${runs[0]?.error ?? "not run"} | | | | | |`);
      continue;
    }
    const failed = runs.length - good.length;
    const code = good[0].code;
    const wasm = good.map((r) => r.wasm);
    const blocked = [...new Set(runs.flatMap((r) => r.blocked))];
    out(`| ${name}${failed ? ` (${failed} of ${runs.length} runs failed: ${runs.find((r) => r.error).error})` : ""} | ${spread(good.map((r) => r.list), ms)} | ` +
      `${spread(good.map((r) => r.open), ms)} | ${spread(good.map((r) => r.heap), mb)} | ${median(wasm) ? spread(wasm, mb) : "–"} | ` +
      `${kib(code.raw)} / ${kib(code.gzip)} (${code.files} files) | ${blocked.length ? blocked.join(", ") : "none"} |`);
  }
  out();
}

for (const doc of docs.filter((d) => d.deepLink)) {
  const op = doc.deepLink;
  out(`### Deep link: ${doc.name}, operation \`${op.operationId}\` (\`${op.method.toUpperCase()} ${op.path}\`, last of tag \`${op.tag}\`)`);
  out();
  const peerTimes = toolNames.filter((n) => n !== OURS).map((n) => median(ok(deepLinks[doc.key]?.[n]).map((r) => r.shown))).filter(Number.isFinite);
  const fastest = Math.min(...peerTimes);
  out("| Tool | Deep link (hash) | Operation shown | Fastest peer / this |");
  out("|---|---|---:|---:|");
  for (const name of toolNames) {
    const runs = deepLinks[doc.key]?.[name] ?? [];
    const good = ok(runs);
    const hash = `\`${new URL(allTools[name].deepLink("http://x/", doc, op)).hash}\``;
    if (!good.length) {
      out(`| ${name} | ${hash} | ${runs[0]?.limit ? "not shown within 30 s: " : "failed: "}${runs[0]?.error ?? "not run"} | |`);
      continue;
    }
    const failed = runs.length - good.length;
    const t = median(good.map((r) => r.shown));
    out(`| ${name}${failed ? ` (${failed} of ${runs.length} runs failed: ${runs.find((r) => r.error).error})` : ""} | ${hash} | ${spread(good.map((r) => r.shown), ms)} | ${Number.isFinite(fastest) ? `${(fastest / t).toFixed(1)}×` : "–"} |`);
  }
  out();
}

out("How each figure is taken:");
out();
out("- Each load is a fresh browser context (empty cache) on a server of its own at 127.0.0.1, which sends files as they are (no compression, `Cache-Control: no-store`). Every request that leaves 127.0.0.1 is refused and listed under *Blocked* (Redoc's are its \"API docs by Redocly\" logo image; `github.githubassets.com` is an image in GitHub's descriptions).");
out("- The loads drive Chromium over the DevTools protocol directly, not through Playwright: Playwright's network instrumentation makes Chromium decode a copy of every response body on the page's main thread (60–150 ms for GitHub's 13 MB document, for every tool), and its `waitForFunction` runs a 90 ms script in the page while it loads. The page gets only a check of the DOM condition at each animation frame, request interception and mouse events for the clicks.");
out("- Times run from the navigation's start (`performance.now()` in the page) to the first animation frame at which the condition holds:");
for (const name of toolNames) out(`  - ${name}: list: ${allTools[name].describe.list}; open: ${allTools[name].describe.open}; deep link: ${allTools[name].describe.deepLink}.`);
out("- Petstore Playground shows our document built in (`/`); the other documents, like every peer's, are fetched from `?url=`/`?doc=`.");
out("- Memory: one second after the operation opened, a forced garbage collection (`HeapProfiler.collectGarbage`), then `Runtime.getHeapUsage` (used JS heap of the page's main thread; workers are not counted), plus the size of every `WebAssembly.Memory` the page created.");
out("- Code: the `.js`, `.mjs`, `.wasm` and `.css` files in the page's resource timing when the list became visible; gzip is node's zlib at level 9.");
out();

const targets = [];
if (tryIt) {
  out("## Try-it round trip to an in-page mock");
  out();
  out(`Click on Send to the answer in the DOM (a \`MutationObserver\` in the page), ${SENDS} sends after 3 warm-up sends.`);
  out();
  /** One table: a row per request, our times beside MSW's. */
  const table = (mock, ours, msw, rows) => {
    out(`| Request | Petstore Playground (in-browser mock, \`${mock}.handle\`) | MSW (service worker) | MSW / ours |`);
    out("|---|---:|---:|---:|");
    for (const [key, label] of rows) {
      out(`| ${label} | ${spread(ours[key], msFine)} | ${spread(msw[key], msFine)} | ${(median(msw[key]) / median(ours[key])).toFixed(1)}× |`);
    }
    out();
  };
  table("PetstoreMock", tryIt.ours, tryIt.msw, [["get", "GET /pets/1 → 200"], ["post", "POST /pets → 201"]]);
  out("A loaded document: the Tasks API (`crates/server/tests/fixtures/tasks.yaml`, by `?url=`), mocked in the page by its own `ApiMock` (resources inferred from the document, requests checked against it), against MSW handlers written by hand for the same two operations (`bench/pages/msw-api.html`).");
  out();
  table("ApiMock", tryIt.oursApi, tryIt.mswApi, [["post", "POST /projects → 201"], ["get", "GET /projects/1 → 200"]]);
  const ratios = ["get", "post"].map((k) => median(tryIt.msw[k]) / median(tryIt.ours[k]));
  targets.push(["In-page try-it round trip at most one eighth of MSW's (median, GET and POST)",
    `ours ${msFine(median(tryIt.ours.get))} (GET), ${msFine(median(tryIt.ours.post))} (POST); MSW ${msFine(median(tryIt.msw.get))}, ${msFine(median(tryIt.msw.post))}: ${ratios.map((r) => `${r.toFixed(1)}×`).join(", ")}`,
    ratios.every((r) => r >= 8)]);
}

if (process.env.BENCH_MOCK_RESULTS) {
  const mock = JSON.parse(await readFile(process.env.BENCH_MOCK_RESULTS, "utf8"));
  out("## Mock server requests per second");
  out();
  out(`wrk -t${mock.threads} -c${mock.connections} -d${mock.duration} after a ${mock.warmup} warm-up, same run (bench/mock/run.sh).`);
  out();
  out(`| Request | petstore-mock | Prism ${mock.versions.prism} | json-server ${mock.versions.jsonServer} | vs Prism | vs json-server |`);
  out("|---|---:|---:|---:|---:|---:|");
  for (const row of mock.rows) {
    out(`| ${row.request} | ${Math.round(row.native)} | ${Math.round(row.prism)} | ${Math.round(row.jsonServer)} | ${(row.native / row.prism).toFixed(1)}× | ${(row.native / row.jsonServer).toFixed(1)}× |`);
  }
  out();
}

// Targets of the benchmark issue, each with the figures behind the verdict.
const peers = toolNames.filter((n) => n !== OURS);
if (toolNames.includes(OURS) && peers.length) {
  const github = docs.find((d) => d.key === "github");
  if (github) {
    const ours = median(figure("github", OURS, (r) => r.list));
    const peerList = peers.map((n) => [n, median(figure("github", n, (r) => r.list))]).filter(([, v]) => Number.isFinite(v));
    const [fastest, best] = peerList.sort((a, b) => a[1] - b[1])[0] ?? ["none", NaN];
    targets.push([`GitHub's document: our list visible at least 5× sooner than the fastest peer`,
      `ours ${ms(ours)}, fastest peer ${fastest} ${ms(best)}: ${(best / ours).toFixed(1)}×`, best / ours >= 5]);
    const mem = median(figure("github", OURS, (r) => r.heap + r.wasm));
    const peerMem = peers.map((n) => [n, median(figure("github", n, (r) => r.heap))]).filter(([, v]) => Number.isFinite(v)).sort((a, b) => a[1] - b[1]);
    if (github.deepLink) {
      const oursLink = median(ok(deepLinks.github?.[OURS]).map((r) => r.shown));
      const peerLinks = peers.map((n) => [n, median(ok(deepLinks.github?.[n]).map((r) => r.shown))]).filter(([, v]) => Number.isFinite(v)).sort((a, b) => a[1] - b[1]);
      const [fastestLink, bestLink] = peerLinks[0] ?? ["none", NaN];
      targets.push([`GitHub's document: a deep link (\`#${github.deepLink.operationId}\`) shows the operation at least 5× sooner than the fastest peer's`,
        `ours ${ms(oursLink)}, fastest peer ${fastestLink} ${ms(bestLink)}: ${(bestLink / oursLink).toFixed(1)}×`, bestLink / oursLink >= 5]);
    }
    targets.push([`GitHub's document: our JS heap + WebAssembly memory below a third of the lowest peer's heap`,
      `ours ${mb(mem)}; lowest peer ${peerMem[0]?.[0]} ${mb(peerMem[0]?.[1])} (a third: ${mb(peerMem[0]?.[1] / 3)})`,
      peerMem.length > 0 && peerMem.every(([, v]) => mem < v / 3)]);
  }
  const perDoc = docs.map((doc) => {
    const ours = figure(doc.key, OURS, (r) => r.code.gzip)[0];
    const smallest = peers.map((n) => [n, figure(doc.key, n, (r) => r.code.gzip)[0]]).filter(([, v]) => v).sort((a, b) => a[1] - b[1])[0];
    return { doc, ours, smallest };
  });
  const petstore = perDoc.find(({ doc }) => doc.builtin);
  if (petstore?.ours) {
    targets.push([`The Petstore reference's code before the list at most 260 KiB gzip`, `${(petstore.ours / 1024).toFixed(1)} KiB`, petstore.ours <= 260 * 1024]);
  }
  targets.push([`Initial download (gzip code before the list) smaller than every peer's, for every document`,
    perDoc.map(({ doc, ours, smallest }) => `${doc.key}: ours ${kib(ours)}, smallest peer ${smallest?.[0]} ${kib(smallest?.[1])}`).join("; "),
    perDoc.every(({ ours, smallest }) => ours < smallest?.[1])]);
}
// The page's WebAssembly modules in BENCH_DIST, gzip -9 by the gzip program (as scripts/size.sh
// and docs/decisions.md count them), and their size targets: the try-it module at most 250 KB,
// the mock modules no larger than when that target was set (bench/NOTES.md, "The try-it module
// at 250 KB gzip": the Petstore's 439.4 KB, any document's 496.6 KB).
// Each entry: label, path in the build, and the size target it counts for (kind, most bytes).
const MODULES = [
  ["try-it (operations with a JSON body or none, and no security scheme)", "tryit/playground_tryit_bg.wasm", "try-it", 250_000],
  ["try-it with extras (security schemes; form, text and file bodies)", "tryit-extras/playground_tryit_bg.wasm"],
  ["Petstore's mock", "mock/petstore_mock_bg.wasm", "mock", 439_400],
  ["Mock of any document", "api-mock/playground_api_mock_bg.wasm", "mock", 496_600],
  ["Markdown renderer", "markdown/playground_markdown_bg.wasm"],
  ["Swagger 2.0 converter", "convert/playground_convert_bg.wasm"],
];
const moduleSizes = [];
for (const [label, path, target, most] of MODULES) {
  const file = join(DIST, path);
  const raw = await stat(file).then((s) => s.size, () => null);
  if (raw === null) continue;
  moduleSizes.push({ label, raw, gzip: execFileSync("gzip", ["-9", "-c", file], { maxBuffer: 1 << 30 }).length, target, most });
}
if (moduleSizes.length) {
  const kb = (v) => `${(v / 1000).toFixed(1)} KB`;
  out("## The modules the page loads later");
  out();
  out(`The release build's WebAssembly modules (${DIST}), gzip -9; the reference loads each when it is first needed.`);
  out();
  out("| Module | Size | gzip -9 | At most |");
  out("|---|---:|---:|---:|");
  for (const m of moduleSizes) out(`| ${m.label} | ${kb(m.raw)} | ${kb(m.gzip)} | ${m.most ? kb(m.most) : "–"} |`);
  out();
  const panel = moduleSizes.find((m) => m.target === "try-it");
  if (panel) targets.push(["The try-it module at most 250 KB gzip", kb(panel.gzip), panel.gzip <= panel.most]);
  const mocks = moduleSizes.filter((m) => m.target === "mock");
  if (mocks.length) {
    targets.push(["The mock modules no larger than when the try-it target was set",
      mocks.map((m) => `${m.label} ${kb(m.gzip)} (at most ${kb(m.most)})`).join("; "), mocks.every((m) => m.gzip <= m.most)]);
  }
}

if (targets.length) {
  out("## Targets");
  out();
  out("| Target | Measured | Result |");
  out("|---|---|---|");
  for (const [target, measured, met] of targets) out(`| ${target} | ${measured} | **${met ? "met" : "missed"}** |`);
  out();
}

// The last figures of the growth and published-site benchmarks (bench/growth.mjs writes
// GROWTH.md, bench/site.mjs SITE.md; each has its own date).
for (const file of ["GROWTH.md", "SITE.md"]) {
  const section = await readFile(join(HERE, file), "utf8").catch(() => "");
  if (section) {
    out(section.trim());
    out();
  }
}

const report = lines.join("\n");
console.log(report);
const outPath = process.env.BENCH_OUT ?? join(HERE, "RESULTS.md");
if (outPath !== "-") {
  const notes = await readFile(join(HERE, "NOTES.md"), "utf8").catch(() => "");
  await writeFile(outPath, report + (notes ? `\n${notes}` : ""));
  console.error(`\nSaved to ${outPath}`);
}
