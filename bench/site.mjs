// `make bench-site` (bench/run.sh site runs this after building both sites): the published
// site's time to the operation list on GitHub's description, against Redocly's pre-rendered
// static page and the peers of bench/bench.mjs, in one run on this machine.
//
// Measured, each load in a fresh browser context (cold cache) in headless Chromium driven over
// the DevTools protocol (lib/cdp.mjs), every request that leaves 127.0.0.1 refused, the time
// from the navigation's start to the first animation frame at which the operation list is
// visible, for:
//   - Petstore Playground (published site): `playground build --spec <GitHub's description>`'s
//     folder (BENCH_SITE_DIR); the first row of the list (`[data-testid=operation]`) has a box,
//     the pre-rendered one included: that is what the page shows before its WebAssembly runs;
//   - Redocly build-docs: `redocly build-docs <the same description>`'s page (BENCH_REDOCLY_DIR),
//     Redoc's server-side rendered menu and content in one HTML file;
//   - every renderer of bench/lib/renderers.mjs (Swagger UI, Redoc 2 and 3, Scalar, Elements,
//     and our app opening the document by `?url=`), with the conditions bench/bench.mjs uses;
//   - a static page of one row: the floor under every figure of this harness.
// Runs are interleaved: after one throw-away load of every tool, each round loads every tool
// once, in a rotated order. Prints Markdown, writes bench/SITE.md and replaces its section of
// bench/RESULTS.md (bench/bench.mjs includes SITE.md when it writes RESULTS.md again).
//
// Environment: BENCH_SITE_DIR and BENCH_REDOCLY_DIR (required: the two built sites),
// BENCH_RUNS (3), BENCH_TIMEOUT (180000 ms per load), BENCH_DIST, BENCH_REDOC3 and CHROMIUM as
// for bench/bench.mjs, BENCH_OUT (RESULTS.md path; "-" = neither RESULTS.md nor SITE.md).
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import os from "node:os";
import { serve } from "./lib/server.mjs";
import { renderers, visible } from "./lib/renderers.mjs";
import { firstFrame, launch as launchCdp, openPage } from "./lib/cdp.mjs";
import { watcher } from "./lib/load.mjs";
import { ARGS, CHROMIUM, VIEWPORT, githubDescription, median, ms } from "./lib/chromium.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..");
const NODE_MODULES = join(HERE, "node_modules");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TIMEOUT = Number(process.env.BENCH_TIMEOUT ?? 180_000);
const DIST = resolve(process.env.BENCH_DIST ?? join(ROOT, "dist"));
const need = (name) => process.env[name] ? resolve(process.env[name]) : (console.error(`bench/site.mjs: ${name} is not set (bench/run.sh site sets it)`), process.exit(2));
const SITE_DIR = need("BENCH_SITE_DIR");
const REDOCLY_DIR = need("BENCH_REDOCLY_DIR");
const TARGET = 10; // the published site's list at least this many times sooner than the fastest peer's

const OURS = "Petstore Playground (published site)";
const REDOCLY = "Redocly build-docs";
// Our own app opening the description by `?url=`: measured beside the others, not a peer.
const OURS_APP = "Petstore Playground";
// A static page holding only one row: the floor of this harness (a navigation in a fresh
// context, a new renderer process, one frame); no page can list sooner. Not a peer.
const FLOOR = "Floor: a static page of one row";

// --- the description ----------------------------------------------------------------------------
const file = githubDescription(NODE_MODULES);
const text = await readFile(file, "utf8");
const value = JSON.parse(text);
const doc = {
  key: "github",
  path: "docs/github.json",
  title: value.info.title,
  bytes: Buffer.byteLength(text),
  operations: Object.values(value.paths).reduce(
    (n, item) => n + Object.keys(item).filter((k) => /^(get|put|post|delete|options|head|patch|trace)$/.test(k)).length,
    0,
  ),
};
const docRoutes = { [`/${doc.path}`]: file };

// --- tools ------------------------------------------------------------------------------------
const redoc3 = process.env.BENCH_REDOC3 && (await stat(join(process.env.BENCH_REDOC3, "bundles/redoc.standalone.js")).catch(() => null))
  ? process.env.BENCH_REDOC3
  : null;
// Redocly's page imports Redoc's bundle from its CDN (the server-side rendered page is
// hydrated by it). Every online request is refused here, so when the bundle of the same
// version is at hand (redoc@3, unpacked by bench/run.sh; the page's integrity hash still
// checks it), a copy of the page imports it from the page's own server instead.
const REDOCLY_CDN = /https:\/\/cdn\.redocly\.com\/redoc\/v([\d.]+)\/bundles\/redoc\.standalone\.js/g;
const redoclyPage = await readFile(join(REDOCLY_DIR, "index.html"), "utf8");
const redoclyBundle = [...redoclyPage.matchAll(REDOCLY_CDN)][0]?.[1];
const redoc3Version = redoc3 && JSON.parse(await readFile(join(redoc3, "package.json"), "utf8")).version;
const redoclyLocal = Boolean(redoclyBundle && redoclyBundle === redoc3Version);
if (redoclyLocal) await writeFile(join(REDOCLY_DIR, "local.html"), redoclyPage.replace(REDOCLY_CDN, "/redoc.standalone.js"));
const floorDir = await mkdtemp(join(os.tmpdir(), "bench-site-floor-"));
await writeFile(join(floorDir, "index.html"), '<!doctype html><meta charset="utf-8"><title>Floor</title><div data-testid="operation">GET /</div>\n');
const peers = renderers({ dist: DIST, nodeModules: NODE_MODULES, redoc3, pages: join(HERE, "pages") });
/** Each tool: `routes`, `index`, `url(site)`, `list` (a condition checked in the page), `describe`. */
const tools = {
  [OURS]: {
    routes: { "/": `${SITE_DIR}/` },
    index: "index.html",
    url: (site) => site,
    list: visible("[data-testid=operation]"),
    describe: "the first row of the operation list (`[data-testid=operation]`, pre-rendered in index.html) has a box",
  },
  [REDOCLY]: {
    routes: redoclyLocal
      ? { "/redoc.standalone.js": join(redoc3, "bundles/redoc.standalone.js"), "/": `${REDOCLY_DIR}/` }
      : { "/": `${REDOCLY_DIR}/` },
    index: redoclyLocal ? "local.html" : "index.html",
    url: (site) => site,
    // Redoc 3's menu, rendered on the server: a group per tag, collapsed, so the page holds no
    // operation entry until a tag is opened; the first tag is the list's first row.
    list: visible("[data-component-name='Menu/MenuItem'].menu-item-type-group"),
    describe: "the first tag of the side menu (`[data-component-name='Menu/MenuItem'].menu-item-type-group`, server-side rendered in the page; its operations are collapsed under it) has a box",
  },
  [FLOOR]: {
    routes: { "/": `${floorDir}/` },
    index: "index.html",
    url: (site) => site,
    list: visible("[data-testid=operation]"),
    describe: "its one row (`[data-testid=operation]`) has a box",
  },
  ...Object.fromEntries(Object.entries(peers).map(([name, tool]) => [name, {
    routes: tool.routes(docRoutes),
    index: tool.index,
    url: (site) => (tool.url ? tool.url(site, doc) : `${site}?doc=${encodeURIComponent(doc.path)}`),
    list: tool.list(doc),
    describe: tool.describe.list,
  }])),
};
const names = Object.keys(tools);
const isPeer = (name) => name !== OURS && name !== OURS_APP && name !== FLOOR;

const packageVersion = async (pkg) => JSON.parse(await readFile(join(NODE_MODULES, pkg, "package.json"), "utf8")).version;
const commit = (() => {
  try {
    return execFileSync("git", ["-C", ROOT, "rev-parse", "--short", "HEAD"]).toString().trim();
  } catch {
    return "working tree";
  }
})();
const versions = {
  [OURS]: commit,
  [OURS_APP]: commit,
  [REDOCLY]: `@redocly/cli ${await packageVersion("@redocly/cli")}`,
};
for (const [name, tool] of Object.entries(peers)) {
  if (!tool.version) continue;
  versions[name] = tool.version === "redoc@3"
    ? JSON.parse(await readFile(join(redoc3, "package.json"), "utf8")).version
    : await packageVersion(tool.version);
}
const pageSize = async (dir) => (await stat(join(dir, "index.html"))).size;

/** One load: the time to the first frame at which `tool.list` holds, and the origins refused. */
async function measureList(browser, servers, name) {
  const blocked = new Set();
  const page = await openPage(browser, { viewport: VIEWPORT, blocked, scripts: [watcher(firstFrame, tools[name].list, "__benchListed")] });
  try {
    await page.navigate(tools[name].url(servers[name].url));
    const listed = await page.poll("globalThis.__benchListed", TIMEOUT, "the operation list did not show");
    return { list: listed.t, blocked: [...blocked] };
  } catch (error) {
    return { error: String(error.message ?? error).split("\n")[0], blocked: [...blocked] };
  } finally {
    await page.close();
  }
}

// --- run ----------------------------------------------------------------------------------------
const started = new Date();
const load = os.loadavg()[0];
const servers = {};
for (const name of names) servers[name] = await serve(tools[name].routes, { index: tools[name].index });
const browser = await launchCdp(CHROMIUM, ARGS);
const results = Object.fromEntries(names.map((n) => [n, []]));
try {
  // One throw-away load per tool: the browser's own first start is nobody's cost.
  for (const name of names) await measureList(browser, servers, name);
  for (let run = 0; run < RUNS; run++) {
    const order = names.map((_, i) => names[(i + run) % names.length]);
    for (const name of order) {
      const r = await measureList(browser, servers, name);
      results[name].push(r);
      console.error(`[run ${run + 1}/${RUNS}] ${name.padEnd(38)} ${r.error ? `error: ${r.error}` : `list ${ms(r.list)}`}`);
    }
  }
} finally {
  await browser.close();
  for (const s of Object.values(servers)) await s.close();
  await rm(floorDir, { recursive: true, force: true });
}

// --- report ---------------------------------------------------------------------------------------
const good = (name) => results[name].filter((r) => !r.error).map((r) => r.list);
const medians = Object.fromEntries(names.map((n) => [n, good(n).length ? median(good(n)) : NaN]));
const ours = medians[OURS];
const [fastest, best] = names.filter(isPeer).map((n) => [n, medians[n]]).filter(([, v]) => Number.isFinite(v)).sort((a, b) => a[1] - b[1])[0] ?? ["none", NaN];
const ratio = best / ours;
const met = ratio >= TARGET;
// The same verdict among the peers that render in the browser (all but Redocly's static page).
const [fastestClient, bestClient] = names.filter((n) => isPeer(n) && n !== REDOCLY).map((n) => [n, medians[n]]).filter(([, v]) => Number.isFinite(v)).sort((a, b) => a[1] - b[1])[0] ?? ["none", NaN];
const cpu = os.cpus()[0]?.model ?? "unknown CPU";

const lines = [];
const out = (s = "") => lines.push(s);
out("<!-- site:start (written by bench/site.mjs) -->");
out("## Published site: time to the list (GitHub's description)");
out();
out(`Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC by \`make bench-site\` (bench/site.mjs) on ${os.cpus().length} × ${cpu}, ` +
  `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()} (load average ${load.toFixed(1)} when the run started, ${os.loadavg()[0].toFixed(1)} when it ended); Chromium ${browser.version} headless ` +
  `(${VIEWPORT.width}×${VIEWPORT.height}), Node ${process.version}. GitHub's REST description (@octokit/openapi ${await packageVersion("@octokit/openapi")}, ` +
  `${doc.operations} operations, ${(doc.bytes / 1e6).toFixed(2)} MB of JSON). Median of ${RUNS} interleaved runs, range in brackets.`);
out();
out("| Tool | Version | Operation list visible | Runs | This / ours |");
out("|---|---|---:|---:|---:|");
for (const name of names) {
  const times = good(name);
  const failed = results[name].length - times.length;
  const failure = failed ? ` (${failed} of ${results[name].length} failed: ${results[name].find((r) => r.error).error})` : "";
  const figure = times.length ? `${ms(medians[name])} (${ms(Math.min(...times))}–${ms(Math.max(...times))})` : "failed";
  const label = name === OURS ? `**${name}**` : name;
  out(`| ${label}${failure} | ${versions[name] ?? ""} | ${figure} | ${times.length} | ${Number.isFinite(medians[name] / ours) ? `${(medians[name] / ours).toFixed(1)}×` : "–"} |`);
}
out();
out(`**Target (the list at least ${TARGET}× sooner than the fastest peer): ${met ? "met" : "missed"}.** ` +
  `Our published site listed in ${ms(ours)}, the fastest peer (${fastest}) in ${ms(best)}: ${ratio >= 1 ? `${ratio.toFixed(1)}× sooner` : `${(1 / ratio).toFixed(1)}× later`}. ` +
  `Among the peers that render in the browser (all but Redocly's static page), the fastest (${fastestClient}) listed in ${ms(bestClient)}: ${(bestClient / ours).toFixed(1)}×. ` +
  `A static page of one row listed in ${ms(medians[FLOOR])}: no page can list sooner on this machine, so ${TARGET}× sooner than ${fastest} would take ${ms(best / TARGET)}.`);
out();
out("What was measured:");
out();
out(`- The published site is \`playground build --spec api.github.com.json --out <dir> --app <release dist>\`: index.html (${(await pageSize(SITE_DIR) / 1024).toFixed(0)} KiB) with the reference's first paint pre-rendered, the release app and the description as openapi.json. ` +
  `Redocly's is \`redocly build-docs api.github.com.json\`: one index.html (${(await pageSize(REDOCLY_DIR) / 1e6).toFixed(1)} MB) with Redoc's server-side rendered page and the description inlined, ` +
  (redoclyLocal
    ? `which imports Redoc ${redoclyBundle}'s bundle from cdn.redocly.com to hydrate the page: served here from the page's own server (the same file, from the redoc@${redoc3Version} package; the page's integrity hash checks it). `
    : `which imports Redoc's bundle${redoclyBundle ? ` ${redoclyBundle}` : ""} from cdn.redocly.com to hydrate the page: refused here (no local copy of that version), so the page stays as rendered on the server. `) +
  `The peers open the description from their own server by \`?doc=\` (our app by \`?url=\`), as in the tables above.`);
out("- Each load is a fresh browser context (empty cache) on a server of its own at 127.0.0.1, which sends files as they are (no compression, `Cache-Control: no-store`); every request that leaves 127.0.0.1 is refused (listed below). The loads drive Chromium over the DevTools protocol directly (lib/cdp.mjs), as `make bench` does.");
out("- Time from the navigation's start (`performance.now()` in the page) to the first animation frame at which the condition holds:");
for (const name of names) out(`  - ${name}: ${tools[name].describe}.`);
const blocked = [...new Set(names.flatMap((n) => results[n].flatMap((r) => r.blocked)))];
out(`- Refused requests in this run: ${blocked.length ? blocked.join(", ") : "none"}. "Fastest peer" leaves out both of ours and the floor.`);
out("<!-- site:end -->");

const section = `${lines.join("\n")}\n`;
console.log(section);
const outPath = process.env.BENCH_OUT ?? join(HERE, "RESULTS.md");
if (outPath !== "-") {
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
  console.error(`site: wrote ${join(HERE, "SITE.md")}${existing !== null ? ` and its section of ${outPath}` : ""}`);
}
