// Opens every document of corpus/manifest.json in the release build (dist/) in headless
// Chromium, one after the other, and writes corpus/results.json and docs/compatibility.md.
// `make corpus` fetches the documents first (corpus/fetch.mjs) and builds dist/ when missing.
//
//   node corpus/run.mjs [--only=<text>] [--limit=<n>] [--report]
//
// --only keeps the documents whose id contains the text, --limit the first n (such a partial
// run writes corpus/results.partial.json and nothing else); --report writes
// docs/compatibility.md again from corpus/results.json. CORPUS_TIMEOUT_MS (60000) is
// the time one document may take from navigation to its first operation open.
//
// For each document, in a fresh browser context, `index.html?url=/corpus/<id>`:
//   (a) listed: the page shows the document (not the Petstore one) with the operation count
//       computed here from the document (each get/put/post/delete/options/head/patch/trace of
//       each path item of `paths`, a path item's local `$ref` followed);
//   (b) its first operation opens: a click on the first row shows [data-testid=operation-detail];
//   (c) no page error, no console error, no blank page;
//   (d) when refused, the loader's message.
// Every host but 127.0.0.1 is unresolvable in the browser, so images or links in a document
// never reach the network; failed loads of what a document names (its images, on other hosts
// or relative to the page) are counted and listed, not treated as errors.
import { writeFileSync, readFileSync, existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DOCUMENTS, ROOT, loadManifest, parseDocument } from "./fetch.mjs";
import { FIRST_TRY, firstTrySection, withSection } from "./first-try.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = join(HERE, "results.json");
const PARTIAL = join(HERE, "results.partial.json");
const REPORT = join(ROOT, "docs/compatibility.md");
const TIMEOUT = Number(process.env.CORPUS_TIMEOUT_MS ?? 60_000);
let DIST_DIR = "";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const args = Object.fromEntries(process.argv.slice(2).map((a) => {
  const [key, value] = a.replace(/^--/, "").split("=");
  return [key, value ?? true];
}));

/** A local JSON pointer (`#/a/b`) in `doc`, or undefined. */
function resolvePointer(doc, ref) {
  if (!ref.startsWith("#")) return undefined;
  let value = doc;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (value === null || typeof value !== "object") return undefined;
    value = value[key];
  }
  return value;
}

/** The operations of `paths`, counted independently of the app; path items' $ref followed. */
function countOperations(doc) {
  let count = 0;
  const unresolved = [];
  const paths = doc && typeof doc.paths === "object" && doc.paths !== null ? doc.paths : {};
  for (const [path, original] of Object.entries(paths)) {
    let item = original;
    if (item && typeof item === "object" && typeof item.$ref === "string") {
      const target = resolvePointer(doc, item.$ref);
      if (target && typeof target === "object") item = { ...target, ...item };
      else unresolved.push(`${path}: ${item.$ref}`);
    }
    if (!item || typeof item !== "object") continue;
    count += METHODS.filter((m) => item[m] && typeof item[m] === "object").length;
  }
  return { count, unresolved };
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const within = (promise, ms) => Promise.race([promise, sleep(ms)]);

/** In the page: the load's outcome once the loader is idle, or false while it is not. */
function settled() {
  const title = document.querySelector("[data-testid=doc-title]");
  const loader = document.querySelector("[data-testid=document-loader]");
  if (!title || !loader) return false;
  const status = loader.querySelector("[data-testid=document-status]");
  if (status && !status.hidden && status.textContent) return false;
  const error = loader.querySelector("[data-testid=document-error]");
  if (error && !error.hidden) {
    return { state: "refused", message: error.querySelector("[data-testid=document-error-message]")?.textContent ?? "" };
  }
  const source = loader.querySelector("[data-testid=document-source]");
  if (source && !source.hidden) {
    return {
      state: "listed",
      title: title.textContent,
      count: document.querySelector("[data-testid=op-count]")?.textContent ?? "",
      rows: document.querySelectorAll("[data-testid=operation]").length,
    };
  }
  return false;
}

/** In the page: the first operation's detail, an error shown instead, or false. */
function opened() {
  const detail = document.querySelector("[data-testid=operation-detail]");
  if (detail) return { state: "opened", id: detail.dataset.operationId ?? "" };
  const failure = document.querySelector("#content .load-error, [data-testid=unknown-operation]");
  if (failure) return { state: "failed", message: failure.textContent };
  const error = document.querySelector("[data-testid=document-error]");
  if (error && !error.hidden) return { state: "failed", message: error.textContent };
  return false;
}

/** Whether a resource that failed to load is one the document names (an image of its
 *  descriptions, on another host or relative to the page) rather than the app's or the
 *  document itself: this run is offline and serves only dist/ and the corpus. */
function isDocumentResource(origin, url) {
  if (!url) return false;
  if (!url.startsWith(origin)) return true;
  const path = decodeURIComponent(new URL(url).pathname);
  return !path.startsWith("/corpus/") && !existsSync(join(DIST_DIR, path));
}

const isBlank = (page) =>
  within(page.evaluate(() => (document.body?.innerText ?? "").trim().length === 0), 5_000).then((v) => v ?? null);

async function check(browser, origin, entry, expected) {
  const result = {
    id: entry.id, package: entry.package, path: entry.path, version: entry.version, size: entry.size,
    expected: expected.count, unresolvedPathRefs: expected.unresolved.length || undefined,
    listed: false, shown: null, countMatches: false, opened: null, refused: null,
    errors: [], external: 0, resources: [], relativeResources: [], timedOut: null, blank: false, listMs: null, openMs: null,
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  let stage = "listing";
  // An uncaught error or a crash ends the waiting at once: nothing will change after it.
  let broken;
  const failed = new Promise((_, reject) => {
    broken = reject;
  });
  failed.catch(() => {});
  page.on("pageerror", (e) => {
    result.errors.push(`page error (${stage}): ${e.message}`);
    broken(new Error("page error"));
  });
  page.on("crash", () => {
    result.errors.push(`the page crashed (${stage})`);
    broken(new Error("page crashed"));
  });
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const where = msg.location()?.url ?? "";
    if (/^Failed to load resource/.test(msg.text()) && isDocumentResource(origin, where)) {
      result.external++;
      const list = where.startsWith(origin) ? result.relativeResources : result.resources;
      if (list.length < 5) list.push(where);
    } else {
      result.errors.push(`console error: ${msg.text()}${where ? ` (${where})` : ""}`);
    }
  });
  const start = Date.now();
  const left = () => Math.max(1, TIMEOUT - (Date.now() - start));
  try {
    await page.goto(`${origin}index.html?url=${encodeURIComponent(`/corpus/${entry.id}`)}`, { waitUntil: "commit", timeout: left() });
    const until = (fn) => Promise.race([failed, page.waitForFunction(fn, null, { timeout: left(), polling: 100 })])
      .then((handle) => handle.jsonValue());
    const outcome = await until(settled);
    result.listMs = Date.now() - start;
    if (outcome.state === "refused") {
      result.refused = outcome.message;
    } else {
      result.listed = true;
      result.shown = outcome.count;
      result.title = outcome.title;
      result.countMatches = outcome.count === `${expected.count} operation${expected.count === 1 ? "" : "s"}`;
      if (outcome.rows > 0) {
        stage = "opening the first operation";
        const clicked = Date.now();
        await page.locator("[data-testid=operation] a").first().click({ timeout: left() });
        const open = await until(opened);
        result.openMs = Date.now() - clicked;
        result.opened = open.state === "opened";
        if (!result.opened) result.openError = open.message;
      }
    }
    result.blank = (await isBlank(page)) === true;
  } catch (e) {
    if (e?.name === "TimeoutError" || /Timeout \d+ms exceeded/.test(e?.message ?? "")) {
      result.timedOut = stage;
      if (stage !== "listing") result.opened = false;
    } else if (!result.errors.length) {
      result.errors.push(`runner: ${(e?.message ?? String(e)).split("\n")[0]}`);
    }
    if (stage !== "listing" && result.opened === null) result.opened = false;
    result.blank = (await isBlank(page)) === true;
  } finally {
    await within(context.close(), 15_000);
  }
  result.ms = Date.now() - start;
  return result;
}

/** One word for a result: ok, refused, timeout, count, open, error, blank. */
function verdict(r) {
  if (r.refused !== null) return "refused";
  if (r.timedOut) return "timeout";
  if (r.blank) return "blank";
  if (r.errors.length) return "error";
  if (!r.listed) return "error";
  if (!r.countMatches) return "count";
  if (r.opened === false) return "open";
  return "ok";
}

const family = (version) => {
  if (/^2(\.|$)/.test(version)) return "Swagger 2.0";
  const m = /^3\.(\d+)/.exec(version);
  return m ? `OpenAPI 3.${m[1]}` : `other (${version || "none"})`;
};
const size = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} KB`);
const seconds = (ms) => (ms == null ? "" : `${(ms / 1000).toFixed(1)} s`);
const cell = (text) => String(text ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 300);

/** A message with its particulars (quoted names, numbers) replaced, to group results by cause. */
function cause(message) {
  return message
    .replace(/https?:\/\/[^\s)]+/g, "<url>")
    .replace(/`[^`]*`/g, "`…`")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\u201c[^\u201d]*\u201d/g, "\u201c…\u201d")
    .replace(/#\/[^\s,;:)]+/g, "#/…")
    .replace(/\(line \d+(, column \d+)?\)/g, "(line …)")
    .replace(/\d+(\.\d+)*/g, "N");
}

function message(r) {
  if (r.refused !== null) return r.refused;
  if (r.timedOut) return `no result within ${TIMEOUT / 1000} s (${r.timedOut})`;
  if (r.errors.length) return r.errors[0];
  if (r.blank) return "blank page";
  if (!r.countMatches) return `shows "${r.shown}", the document has ${r.expected}`;
  if (r.opened === false) return r.openError ?? "the first operation did not open";
  return "";
}

function writeReport(run) {
  const { results } = run;
  const families = [...new Set(results.map((r) => family(r.version)))].sort();
  const row = (name, rs) => [
    name, rs.length, rs.filter((r) => r.listed).length, rs.filter((r) => r.countMatches).length,
    rs.filter((r) => r.opened === true).length, rs.filter((r) => r.refused !== null).length,
    rs.filter((r) => r.timedOut).length,
    rs.filter((r) => r.errors.length || r.blank).length, rs.filter((r) => verdict(r) === "ok").length,
  ];
  const summary = [...families.map((f) => row(f, results.filter((r) => family(r.version) === f))), row("**all**", results)];
  const causes = new Map();
  for (const r of results) {
    const v = verdict(r);
    if (v === "ok") continue;
    const key = `${v}: ${cause(message(r))}`;
    if (!causes.has(key)) causes.set(key, []);
    causes.get(key).push(r);
  }
  const grouped = [...causes.entries()].sort((a, b) => b[1].length - a[1].length);
  const minutes = (run.ms / 60000).toFixed(1);
  const naming = results.filter((r) => r.external > 0);
  const relative = naming.filter((r) => r.relativeResources?.length);
  const lines = [
    "# Compatibility with real-world API descriptions",
    "",
    `The reader of the release build against ${results.length} public API descriptions (OpenAPI 3.0, 3.1 and`,
    "Swagger 2.0), each a file inside a pinned npm or PyPI package (`corpus/manifest.json`).",
    `Run on ${run.date} against the release build in \`dist/\` (the app as of commit \`${run.commit}\`), one`,
    `document after another in headless Chromium, in ${minutes} minutes.`,
    "",
    "**How to run it:** `make corpus` installs what it needs (Chromium, playwright-core), builds `dist/`",
    "when it is missing (or with `FORCE_BUILD=1`), downloads the pinned packages into the git-ignored",
    "`corpus/cache/` and checks every document's sha256 (`corpus/fetch.mjs`), then opens each document",
    "as `index.html?url=/corpus/<id>` in a fresh browser context (`corpus/run.mjs`). A document passes when",
    "the page lists it with the operation count computed independently from the document (every",
    "method of every path item of `paths`), its first operation opens on a click, and the page logs no",
    `error and is not blank; each document has ${TIMEOUT / 1000} s. It writes this file and \`corpus/results.json\`;`,
    "`node corpus/run.mjs --only=<text>` runs the documents whose id contains the text. It is not part of",
    "`make test`.",
    "",
    "## Summary",
    "",
    "| Version | Documents | Loaded | Count matches | First operation opens | Refused | Timed out | Page errors | Pass |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...summary.map((r) => `| ${r.join(" | ")} |`),
    "",
    "Loaded: the page showed the document instead of falling back to the Petstore one. Page errors:",
    "uncaught exceptions, console errors or a blank page. Pass: all of the checks.",
    "",
    `In this run ${naming.length} documents asked for images (or other resources) that an offline run`,
    "cannot load (the Markdown is rendered after the list, so the number varies a little from run to",
    "run); they are not counted as errors. In " + `${relative.length} of them the address is relative (` +
      relative.slice(0, 3).map((r) => `\`${r.id}\``).join(", ") + "),",
    "and the page asks its own origin for it, not the document's.",
    "",
    "## Failures by cause",
    "",
    "| Result | Message (particulars replaced by …/N) | Documents | Examples |",
    "|---|---|---:|---|",
    ...grouped.map(([key, rs]) => {
      const [v, ...rest] = key.split(": ");
      return `| ${v} | ${cell(rest.join(": "))} | ${rs.length} | ${rs.slice(0, 3).map((r) => `\`${r.id}\``).join(", ")} |`;
    }),
    "",
    "## Largest documents",
    "",
    "| Document | Version | Size | Result | Settled after | First operation open after |",
    "|---|---|---:|---|---:|---:|",
    ...[...results].sort((a, b) => b.size - a.size).slice(0, 12).map((r) =>
      `| \`${r.id}\` | ${cell(r.version)} | ${size(r.size)} | ${verdict(r)} | ${seconds(r.listMs)} | ${seconds(r.openMs)} |`),
    "",
    "Settled: from navigation until the loader is idle (the document listed and read whole, or refused).",
    "",
    "## Documents",
    "",
    "| Document | Version | Size | Result | Message |",
    "|---|---|---:|---|---|",
    ...[...results].sort((a, b) => a.id.localeCompare(b.id)).map((r) =>
      `| \`${r.id}\` | ${cell(r.version)} | ${size(r.size)} | ${verdict(r)} | ${cell(message(r))} |`),
    "",
    "Packages: " + [...new Set(results.map((r) => `\`${r.package.replace(/^\w+:/, "")}\``))].join(", ") + ".",
    "",
  ];
  mkdirSync(dirname(REPORT), { recursive: true });
  // The first try's section (corpus/first-try.mjs), kept from its last run.
  const firstTry = existsSync(FIRST_TRY) ? firstTrySection(JSON.parse(readFileSync(FIRST_TRY, "utf8"))) : null;
  writeFileSync(REPORT, firstTry ? withSection(lines.join("\n"), firstTry) : lines.join("\n"));
}

async function main() {
  if (args.report) {
    writeReport(JSON.parse(readFileSync(RESULTS, "utf8")));
    console.log(`wrote ${REPORT}`);
    return;
  }
  const require = createRequire(join(ROOT, "tests/e2e/package.json"));
  const { chromium } = require("playwright-core");
  const { CHROMIUM_ARGS, DIST, serveStatic } = await import(join(ROOT, "tests/e2e/harness.mjs"));
  DIST_DIR = DIST;
  const { execFileSync } = await import("node:child_process");

  let entries = loadManifest().documents;
  if (typeof args.only === "string") entries = entries.filter((e) => e.id.includes(args.only));
  if (args.limit) entries = entries.slice(0, Number(args.limit));
  const missing = entries.filter((e) => !existsSync(join(DOCUMENTS, e.id)));
  if (missing.length) {
    console.error(`${missing.length} documents are not in ${DOCUMENTS}: run node corpus/fetch.mjs first`);
    process.exit(1);
  }
  const extra = Object.fromEntries(entries.map((e) => [`/corpus/${e.id}`, join(DOCUMENTS, e.id)]));
  const site = await serveStatic(DIST, { extra });
  const launch = () => chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    // Only 127.0.0.1 resolves: a document's images and links never leave the machine.
    args: [...CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
  });
  let browser = await launch();
  const commit = (() => {
    try {
      // The last commit that changed the app (what dist/ is built from), not the corpus's own.
      const app = ["src", "crates", "www", "index.html", "Cargo.toml", "Cargo.lock", "Trunk.toml", ".cargo"];
      return execFileSync("git", ["log", "-1", "--format=%h", "--", ...app], { cwd: ROOT }).toString().trim();
    } catch {
      return "unknown";
    }
  })();
  const run = { date: new Date().toISOString().slice(0, 10), commit, timeoutMs: TIMEOUT, ms: 0, results: [] };
  // A partial run (--only, --limit) leaves the full run's results and the report as they are.
  const partial = entries.length !== loadManifest().documents.length;
  const output = partial ? PARTIAL : RESULTS;
  const started = Date.now();
  const width = String(entries.length).length;
  try {
    for (const [i, entry] of entries.entries()) {
      const expected = countOperations(await parseDocument(readFileSync(join(DOCUMENTS, entry.id))));
      if (!browser.isConnected()) browser = await launch();
      const r = await check(browser, site.url, entry, expected);
      run.results.push(r);
      const v = verdict(r);
      const note = v === "ok" ? `${(r.listMs / 1000).toFixed(1)} s` : message(r).slice(0, 120);
      console.log(`[${String(i + 1).padStart(width)}/${entries.length}] ${v.padEnd(7)} ${entry.version.padEnd(6)} ` +
        `${size(entry.size).padStart(8)}  ${entry.id}  ${note}`);
      if ((i + 1) % 25 === 0) writeFileSync(output, JSON.stringify({ ...run, ms: Date.now() - started }, null, 1));
    }
  } finally {
    await within(browser.close(), 15_000);
    await site.close();
  }
  run.ms = Date.now() - started;
  writeFileSync(output, JSON.stringify(run, null, 1));
  if (!partial) writeReport(run);
  const count = (v) => run.results.filter((r) => verdict(r) === v).length;
  console.log(`${run.results.length} documents in ${(run.ms / 60000).toFixed(1)} min: ${count("ok")} pass, ` +
    `${count("refused")} refused, ${count("timeout")} timed out, ${count("error") + count("blank")} with page errors, ` +
    `${count("count")} with another count, ${count("open")} whose first operation did not open. ` +
    `Wrote ${partial ? "" : `${REPORT} and `}${output}.`);
}

await main();
