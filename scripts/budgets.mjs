// Performance budgets of the release build (`make budgets`, and a stage of `make test`). Builds
// nothing: serves dist/ (and GitHub's REST description from tests/e2e/node_modules) on
// 127.0.0.1, measures in headless Chromium and prints a table. Timings are reported, never
// failed on: a busy machine must not break the build, and a load that does not finish is printed
// with its reason. Exit status 1 when the initial download is over its budget (bytes do not
// depend on the machine), or when it cannot measure (no dist/, no browser).
//
//   (a) Petstore reference interactive after navigation: the operation list rendered and a
//       click on an operation showing its detail (median of 3 runs);
//   (b) initial download: gzip bytes of dist/'s wasm, js (with wasm-bindgen's snippets) and
//       css, computed with node's zlib (level 9, like scripts/size.sh);
//   (c) GitHub's description (~1,200 operations, 13 MB) via ?url=: until its operation list is
//       visible (median of 3 runs).
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { createRequire } from "node:module";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const E2E = join(ROOT, "tests/e2e");
const require = createRequire(join(E2E, "package.json"));
const { chromium } = require("playwright-core");
const { CHROMIUM_ARGS, DIST, serveStatic } = await import(join(E2E, "harness.mjs"));
const GITHUB = join(E2E, "node_modules/@octokit/openapi/generated/api.github.com.json");

const RUNS = 3;
// The first download's budget is 260 KiB: the release build's standard library built for size
// (scripts/trunk-release.sh) took it from 280.2 to 259.5 KiB (docs/decisions.md).
const BUDGET = { petstoreMs: 1000, initialBytes: 260 * 1024, githubMs: 1500 };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function files(dir) {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)])),
  );
  return nested.flat();
}

/** Files copied for the Domains page (domains.html), which the reference does not load (its
 *  index.html inlines page-died.js, the message shown when the WebAssembly traps). */
const OTHER_PAGES = new Set(["domains.css", "theme.css", "page-died.js"]);

/** The files the page loads at start: dist/*.wasm, *.js, *.css and snippets/ (not mock/, vendor/,
 *  nor the Domains page's stylesheets), and the styles inline in index.html. */
async function initialDownload() {
  const all = await files(DIST);
  const initial = all.filter((f) => {
    const rel = relative(DIST, f);
    const top = !rel.includes("/");
    const own = top && /\.(wasm|js|css)$/.test(rel) && !OTHER_PAGES.has(rel);
    return own || (rel.startsWith("snippets/") && rel.endsWith(".js"));
  });
  const rows = [];
  for (const file of initial) {
    const body = await readFile(file);
    rows.push({ file: relative(DIST, file), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  // The stylesheets are inline in index.html (its first paint waits for no request): counted
  // as the files they were.
  const page = await readFile(join(DIST, "index.html"), "utf8");
  const styles = [...page.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join("");
  if (styles) {
    const body = Buffer.from(styles);
    rows.push({ file: "index.html <style>", raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }
  return rows;
}

async function timed(browser, url, until) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: "commit" });
    await until(page);
    // From the navigation's start (performance.timeOrigin) to now, measured in the page.
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

/** `runs` timed loads. A load that does not finish (a busy machine) is reported with its reason,
 *  never thrown: timings are printed, they do not fail the stage. */
async function timings(browser, url, until, runs) {
  const times = [];
  const failures = [];
  for (let i = 0; i < runs; i++) {
    try {
      times.push(await timed(browser, url, until));
    } catch (error) {
      failures.push(String(error.message ?? error).split("\n")[0]);
    }
  }
  return { times, failures };
}

async function petstoreInteractive(page) {
  await page.locator("[data-testid=operation]").first().waitFor({ timeout: 30_000 });
  await page.locator("[data-testid=operation][data-operation-id=createPet] a").click();
  await page.waitForFunction(
    () => document.querySelector("[data-testid=operation-detail]")?.dataset.operationId === "createPet",
    null,
    { timeout: 30_000, polling: "raf" },
  );
}

async function githubListed(page, title) {
  await page.waitForFunction(
    (title) =>
      document.querySelector("[data-testid=doc-title]")?.textContent === title &&
      document.querySelector("[data-testid=operation]")?.getBoundingClientRect().height > 0,
    title,
    { timeout: 60_000, polling: "raf" },
  );
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value) => `${Math.round(value)} ms`;
const verdict = (ok) => (ok ? "met" : "missed");

const downloads = await initialDownload();
const initialGzip = downloads.reduce((sum, r) => sum + r.gzip, 0);

const github = JSON.parse(await readFile(GITHUB, "utf8"));
const site = await serveStatic(DIST, { extra: { "/budgets/github.json": GITHUB } });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
let petstoreRuns;
let githubRuns;
try {
  // One warm-up load (the browser's first start is not the page's cost).
  await timings(browser, site.url, petstoreInteractive, 1);
  petstoreRuns = await timings(browser, site.url, petstoreInteractive, RUNS);
  githubRuns = await timings(browser, `${site.url}?url=budgets/github.json`, (p) => githubListed(p, github.info.title), RUNS);
} finally {
  await browser.close();
  await site.close();
}

console.log("Initial download (gzip -9, node zlib):");
for (const r of downloads) console.log(`  ${r.file.padEnd(52)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)}`);
console.log();
/** A timing row: the median of the loads that finished, and why the others did not. */
function timingRow(name, { times, failures }, budget) {
  const measured = times.length ? median(times) : null;
  const notes = [times.map(ms).join(", "), ...failures.map((f) => `did not finish: ${f}`)].filter(Boolean);
  const result = measured === null ? "not measured" : verdict(measured <= budget);
  return [name, measured === null ? "-" : ms(measured), `<= ${ms(budget)}`, result, notes.join("; ")];
}

const sizeMet = initialGzip <= BUDGET.initialBytes;
const rows = [
  timingRow("(a) Petstore: list rendered + detail after a click", petstoreRuns, BUDGET.petstoreMs),
  ["(b) Initial download wasm+js+css (gzip)", kib(initialGzip), `<= ${kib(BUDGET.initialBytes)}`,
    verdict(sizeMet), `${kib(BUDGET.initialBytes - initialGzip)} left (${kb(initialGzip)})`],
  timingRow("(c) GitHub's description via ?url=: list visible", githubRuns, BUDGET.githubMs),
];
const header = ["Budget", "Measured", "Target", "Result", "Runs / note"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));
if (!sizeMet) {
  console.error(`\nThe initial download is over its budget by ${kib(initialGzip - BUDGET.initialBytes)}.`);
  process.exit(1);
}
