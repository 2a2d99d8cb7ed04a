// A CPU profile of one load of the reference in Chromium, read off as the main thread's busy
// stretches (tasks): for each stretch over THRESHOLD ms, its length and the functions that took
// its time (self time, and the deepest frames of our code). For finding long tasks; it prints
// figures only.
//
// Usage: [PROFILE_HASH=operationId] node bench/profile.mjs DIST DOCUMENT [THRESHOLD_MS=50] [WAIT_AFTER_LIST_MS=4000]
// DIST: a trunk build (a build whose wasm keeps its name section names the functions:
// `WASM_NAMES=1 scripts/trunk-release.sh --dist DIR`).
import { chromium } from "playwright-core";
import { basename, dirname, resolve } from "node:path";
import { serve } from "./lib/server.mjs";

const [dist, doc, threshold = "50", after = "4000"] = process.argv.slice(2);
const server = await serve({ "/docs/": dirname(resolve(doc)) + "/", "/": resolve(dist) + "/" });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await (await browser.newContext()).newPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
await page.addInitScript(`globalThis.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) __long.push([e.startTime, e.duration]); }).observe({ type: "longtask", buffered: true }); globalThis.__benchMarker = function __benchMarker() { const start = performance.now(); while (performance.now() < start + 10); return start; }; globalThis.__markAt = __benchMarker();`);
await cdp.send("Profiler.start");
const t0 = Date.now();
// PROFILE_HASH: an operation's anchor, opened by a deep link and waited for.
const hash = process.env.PROFILE_HASH;
await page.goto(`${server.url}?url=${encodeURIComponent(`/docs/${basename(doc)}`)}${hash ? `#${hash}` : ""}`);
await page.waitForSelector(hash ? `[data-testid=operation-detail][data-operation-id="${hash}"]` : "[data-testid=operation]", { timeout: 120_000 });
const listed = await page.evaluate("performance.now()");
await page.waitForTimeout(Number(after));
const { profile } = await cdp.send("Profiler.stop");
const long = await page.evaluate("__long");
const markAt = await page.evaluate("__markAt");
console.log(`list at ~${listed.toFixed(0)} ms; long tasks (Long Tasks API): ${long.map(([s, d]) => `${s.toFixed(0)}+${d.toFixed(0)}`).join(", ")}`);

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => n.callFrame.functionName || `(anon ${basename(n.callFrame.url)}:${n.callFrame.lineNumber})`;
const idle = new Set(["(idle)", "(program)", "(garbage collector)"]);
let t = profile.startTime;
const samples = profile.samples.map((id, i) => ((t += profile.timeDeltas[i]), { id, t }));
// The profile's clock against performance.now(): the first sample in the marker function.
const marker = samples.find((s) => name(nodes.get(s.id)) === "__benchMarker");
if (!marker) throw new Error("the marker is not in the profile");
const offset = marker.t / 1000 - markAt;
// The long tasks' samples.
// The long tasks' samples, and (first) every sample from navigation to the list.
const windows = [[0, listed], ...long];
const runs = windows.map(([start, duration], i) => ({
  start: (start + offset) * 1000,
  end: ((i === 0 ? duration : start + duration) + offset) * 1000,
  samples: samples.filter((s) => s.t >= (start + offset) * 1000 && s.t <= (start + duration + offset) * 1000),
}));
for (const r of runs.filter((r, i) => i === 0 || (r.end - r.start) / 1000 >= Number(threshold))) {
  const self = new Map();
  const incl = new Map();
  for (let i = 0; i < r.samples.length; i++) {
    const s = r.samples[i];
    const dt = ((r.samples[i + 1]?.t ?? s.t) - s.t) / 1000;
    const n = nodes.get(s.id);
    self.set(name(n), (self.get(name(n)) ?? 0) + dt);
    const seen = new Set();
    for (let id = s.id; id !== undefined; id = parent.get(id)) {
      const f = name(nodes.get(id));
      if (!seen.has(f)) { seen.add(f); incl.set(f, (incl.get(f) ?? 0) + dt); }
    }
  }
  const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([f, v]) => `    ${v.toFixed(1).padStart(7)} ms  ${f.slice(0, 140)}`).join("\n");
  console.log(`\ntask at ${(r.start / 1000 - offset).toFixed(0)} ms + ${((r.end - r.start) / 1000).toFixed(0)} ms\n  self:\n${top(self, 12)}\n  inclusive:\n${top(incl, 30)}`);
}
await browser.close();
server.close?.();
process.exit(0);
