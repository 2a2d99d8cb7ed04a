// `make bench-diff`: `playground diff` beside the two diff tools that install and run offline from
// npm, openapi-diff (Atlassian) and Optic, on real pairs of descriptions (two published releases
// of one API each), in one run on this machine. Figures only: nothing here fails when an aim is
// missed. Writes bench/DIFF.md (and the raw results to target/bench/diff/results.json).
//
// The pairs:
//   - crates/diff/tests/fixtures/real/ (netlify: Swagger 2.0; blockfrost: OpenAPI 3.0;
//     scalar-galaxy: OpenAPI 3.1; see the README.md there);
//   - GitHub's REST description, @octokit/openapi 19.1.0 to 20.0.0,
//     package/generated/api.github.com.json (11 MB each): `npm pack` into the cache folder
//     (BENCH_DIFF_CACHE, target/bench/diff/cache) on the first run, then kept there.
// The tools, each with a cap (BENCH_DIFF_TIMEOUT seconds, 120; memory: `ulimit -v` of
// BENCH_DIFF_MEMORY_MB, 4096, for ours, and Node's --max-old-space-size of the same for the
// peers, since V8 does not start under a `ulimit -v` that small):
//   - ours: `target/native/playground diff OLD NEW --format json` (PLAYGROUND overrides the
//     program); the median of BENCH_DIFF_RUNS (3) runs;
//   - openapi-diff (bench/package.json's version): `openapi-diff OLD NEW` (it prints a line, then
//     JSON; it exits 1 when it finds a breaking change);
//   - Optic (bench/package.json's version; OPTIC_TELEMETRY_LEVEL=off): `optic diff OLD NEW --check
//     --json --validation loose` in an empty folder with CI=true, so that it writes its checks to
//     ci-run-details.json there (`--json` prints only the changelog); a failed check of severity
//     error is a breaking change.
//   A peer runs BENCH_DIFF_RUNS times too, once only when its first run took over 30 s or failed.
// Wall time is from spawn to exit; peak RSS is /usr/bin/time's "%M" (the largest process of the
// run), when /usr/bin/time is there.
//
// Disagreements: every finding of each tool is reduced to (operation, area, breaking?), the
// operation as "METHOD /path" with the path's parameter names dropped ({}), the area one of
// operation, parameters, request body, responses, response body, response headers, security,
// servers. Per pair and peer, the report lists the (operation, area) where the peer says breaking
// and we do not (with what we say there, if anything), and the other way round.
//
// Environment: PLAYGROUND, BENCH_DIFF_RUNS (3), BENCH_DIFF_TIMEOUT (120), BENCH_DIFF_MEMORY_MB
// (4096), BENCH_DIFF_CACHE, BENCH_DIFF_PAIRS (names, comma-separated: netlify, blockfrost,
// scalar-galaxy, github), BENCH_DIFF_TOOLS (ours, openapi-diff, optic), BENCH_OUT (the report's
// path; "-" = none).
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync, spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import os from "node:os";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const BENCH = join(HERE, "..");
const ROOT = join(BENCH, "..");
const NODE_MODULES = join(BENCH, "node_modules");
const require = createRequire(join(BENCH, "package.json"));
const yaml = require("js-yaml");

const RUNS = Number(process.env.BENCH_DIFF_RUNS ?? 3);
const TIMEOUT = Number(process.env.BENCH_DIFF_TIMEOUT ?? 120);
const MEMORY_MB = Number(process.env.BENCH_DIFF_MEMORY_MB ?? 4096);
const WORK = join(ROOT, "target/bench/diff");
const CACHE = resolve(process.env.BENCH_DIFF_CACHE ?? join(WORK, "cache"));
const PLAYGROUND = resolve(process.env.PLAYGROUND ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "native/playground"));
const OUT = process.env.BENCH_OUT ?? join(BENCH, "DIFF.md");
const ONLY_PAIRS = process.env.BENCH_DIFF_PAIRS?.split(",").filter(Boolean);
const ONLY_TOOLS = process.env.BENCH_DIFF_TOOLS?.split(",").filter(Boolean);
const SLOW_MS = 30_000; // a peer slower than this runs once
const AIM_GITHUB_MS = 2000; // the GitHub pair within 2 s with ours
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

// --- the pairs ----------------------------------------------------------------------------------
const FIXTURES = join(ROOT, "crates/diff/tests/fixtures/real");
const GITHUB = { package: "@octokit/openapi", old: "19.1.0", new: "20.0.0", file: "package/generated/api.github.com.json" };

/** GitHub's description of @octokit/openapi@`version`, from the cache, packed and extracted there once. */
function githubFile(version) {
  const dir = join(CACHE, `octokit-openapi-${version}`);
  const file = join(dir, "api.github.com.json");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  console.error(`bench/diff: npm pack ${GITHUB.package}@${version} into ${dir}`);
  const tgz = execFileSync("npm", ["pack", "--silent", `${GITHUB.package}@${version}`], { cwd: dir }).toString().trim().split("\n").pop();
  execFileSync("tar", ["-xzf", tgz, GITHUB.file], { cwd: dir });
  renameSync(join(dir, GITHUB.file), file);
  rmSync(join(dir, "package"), { recursive: true, force: true });
  rmSync(join(dir, tgz), { force: true });
  return file;
}

const PAIRS = [
  { name: "netlify", what: "@netlify/open-api 2.50.0 → 2.60.0", format: "Swagger 2.0",
    old: () => join(FIXTURES, "netlify/old.json"), new: () => join(FIXTURES, "netlify/new.json") },
  { name: "blockfrost", what: "@blockfrost/openapi 0.1.49 → 0.1.60", format: "OpenAPI 3.0.0",
    old: () => join(FIXTURES, "blockfrost/old.yaml"), new: () => join(FIXTURES, "blockfrost/new.yaml") },
  { name: "scalar-galaxy", what: "@scalar/galaxy 0.2.20 → 0.6.12", format: "OpenAPI 3.1.1",
    old: () => join(FIXTURES, "scalar-galaxy/old.yaml"), new: () => join(FIXTURES, "scalar-galaxy/new.yaml") },
  { name: "github", what: `${GITHUB.package} ${GITHUB.old} → ${GITHUB.new} (api.github.com.json)`, format: "OpenAPI 3.0.3",
    old: () => githubFile(GITHUB.old), new: () => githubFile(GITHUB.new) },
].filter((pair) => !ONLY_PAIRS || ONLY_PAIRS.includes(pair.name));

// --- running with a cap -------------------------------------------------------------------------
/**
 * Runs `command args` in `cwd` under the time and memory caps; returns its wall time, peak RSS,
 * exit status (or the signal that ended it, or "timeout"), stdout and stderr's tail.
 */
function run(command, args, { cwd = ROOT, env = {}, limitVirtual = false } = {}) {
  const statsFile = join(WORK, "time.txt");
  rmSync(statsFile, { force: true });
  let argv = ["timeout", "-k", "5", String(TIMEOUT), command, ...args];
  if (limitVirtual) argv = ["bash", "-c", `ulimit -v ${MEMORY_MB * 1024} && exec "$@"`, "bash", ...argv];
  if (TIME) argv = [TIME, "-o", statsFile, "-f", "%M %x", ...argv];
  // stdout into a file, not a pipe: openapi-diff calls process.exit() right after writing its
  // JSON, which cuts what a pipe still held.
  const stdoutFile = join(WORK, "stdout.txt");
  const fd = openSync(stdoutFile, "w");
  const started = performance.now();
  const child = spawnSync(argv[0], argv.slice(1), {
    cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 30, encoding: "utf8", stdio: ["ignore", fd, "pipe"],
  });
  const wallMs = performance.now() - started;
  closeSync(fd);
  const stdout = readFileSync(stdoutFile, "utf8");
  rmSync(stdoutFile, { force: true });
  let rssKb = null;
  let signal = null;
  if (TIME && existsSync(statsFile)) {
    const lines = readFileSync(statsFile, "utf8").trim().split("\n");
    const last = lines.pop().split(" ");
    rssKb = Number(last[0]);
    const killed = lines.join("\n").match(/terminated by signal (\d+)/);
    if (killed) signal = Number(killed[1]);
    rmSync(statsFile, { force: true });
  }
  let status = child.status;
  if (status === 124) status = "timeout";
  else if (signal) status = `signal ${signal}${signal === 6 ? " (SIGABRT: out of memory)" : signal === 9 ? " (SIGKILL)" : ""}`;
  else if (status === 134) status = "signal 6 (SIGABRT: out of memory)";
  else if (status === 137) status = "signal 9 (SIGKILL)";
  return { wallMs, rssKb, status, stdout, stderr: (child.stderr ?? "").slice(-4000) };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Runs `once` RUNS times (once only when `repeat(first)` says no); median wall time, largest RSS, the last run's outcome. */
function measure(once, { repeat = () => true } = {}) {
  const runs = [once()];
  if (repeat(runs[0])) for (let i = 1; i < RUNS; i++) runs.push(once());
  const last = runs[runs.length - 1];
  return {
    runs: runs.length,
    wallMs: median(runs.map((r) => r.wallMs)),
    rssKb: runs.every((r) => r.rssKb == null) ? null : Math.max(...runs.map((r) => r.rssKb ?? 0)),
    ...last,
  };
}

// --- reading descriptions (for the peers' path-level findings) ----------------------------------
const docCache = new Map();
function readDoc(file) {
  if (!docCache.has(file)) {
    const text = readFileSync(file, "utf8");
    docCache.set(file, file.endsWith(".json") ? JSON.parse(text) : yaml.load(text));
  }
  return docCache.get(file);
}
const methodsOf = (doc, path) => METHODS.filter((m) => doc?.paths?.[path]?.[m]).map((m) => m.toUpperCase());

// --- normalising findings -----------------------------------------------------------------------
const normPath = (path) => path.replace(/\{[^}]*\}/g, "{}");
const opKey = (method, path) => `${method.toUpperCase()} ${normPath(path)}`;

/** Ours: one finding per change and operation it names. */
function ourFindings(report) {
  const findings = [];
  for (const change of report.changes) {
    const id = change.id;
    let area;
    if (/^(operation|webhook|sunset|stability|path-parameter)/.test(id)) area = "operation";
    else if (id.startsWith("parameter-")) area = "parameters";
    else if (id.startsWith("request-")) area = "request body";
    else if (id === "response-added" || id === "response-removed") area = "responses";
    else if (id.startsWith("response-header")) area = "response headers";
    else if (id.startsWith("response-")) area = "response body";
    else if (id.startsWith("security")) area = "security";
    else if (id.startsWith("server")) area = "servers";
    else if (/parameter/.test(change.where ?? "") || /\/parameters\//.test(change.pointer ?? "")) area = "parameters";
    else if (/header/.test(change.where ?? "") && change.direction === "response") area = "response headers";
    else area = change.direction === "request" ? "request body" : "response body";
    const text = `${id} (${change.level}): ${change.where ? `${change.where}: ` : ""}${change.message}`;
    const operations = change.operations.length ? change.operations : [null];
    for (const op of operations) {
      const key = op ? (op.webhook ? `WEBHOOK ${op.method} ${op.path}` : opKey(op.method, op.path)) : "(document)";
      findings.push({ key, area, breaking: change.level === "breaking", text });
    }
  }
  return findings;
}

/** openapi-diff: `paths.<path>.<method>...` locations; a path added or removed counts for each of its methods. */
function openapiDiffFindings(result, oldDoc, newDoc) {
  const findings = [];
  const areaOf = (code) => code.startsWith("path.") || code.startsWith("method.") ? "operation"
    : code.startsWith("request.") ? "request body"
    : code.startsWith("response.status-code") ? "responses"
    : code.includes("header") ? "response headers" : "response body";
  for (const [list, breaking] of [["breakingDifferences", true], ["nonBreakingDifferences", false], ["unclassifiedDifferences", false]]) {
    for (const d of result[list] ?? []) {
      const details = [...(d.sourceSpecEntityDetails ?? []), ...(d.destinationSpecEntityDetails ?? [])];
      const keys = new Set();
      for (const { location } of details) {
        const m = /^paths\.(.*?)(?:\.(get|put|post|delete|options|head|patch|trace)(?:\.|$)|$)/.exec(location ?? "");
        if (!m) { keys.add("(document)"); continue; }
        if (m[2]) keys.add(opKey(m[2], m[1]));
        else for (const method of new Set([...methodsOf(oldDoc, m[1]), ...methodsOf(newDoc, m[1])])) keys.add(opKey(method, m[1]));
      }
      const text = `${d.code}${details[0]?.location ? ` at ${details[0].location}` : ""}`;
      for (const key of keys) findings.push({ key, area: areaOf(d.code), breaking, text });
    }
  }
  return findings;
}

/** Optic: its failed checks (breaking), `where` = "METHOD /path <place>". */
function opticFindings(results) {
  const findings = [];
  for (const r of results) {
    if (r.passed || r.exempted) continue;
    const m = /^(\S+) (\/\S*)\s*(.*)$/.exec(r.where ?? "");
    const key = m ? opKey(m[1], m[2]) : "(document)";
    const rest = m ? m[3] : r.where ?? "";
    const area = /request body/.test(rest) ? "request body"
      : /response header/.test(rest) ? "response headers"
      : /response body/.test(rest) ? "response body"
      : /^response \S+\s*$/.test(rest) ? "responses"
      : /parameter/.test(rest) ? "parameters"
      : /security/.test(rest) ? "security"
      : "operation";
    findings.push({ key, area, breaking: r.severity >= 2, text: `${r.name}: ${rest || r.where}` });
  }
  return findings;
}

/** How many changes Optic's changelog lists (every entry with a `change`, nested ones counted apart). */
function countChangelog(node) {
  if (Array.isArray(node)) return node.reduce((n, x) => n + countChangelog(x), 0);
  if (!node || typeof node !== "object") return 0;
  let n = 0;
  for (const [k, v] of Object.entries(node)) if (k !== "before" && k !== "after") n += countChangelog(v);
  if (typeof node.change === "string" && (node.change !== "changed" || n === 0)) n += 1;
  return n;
}

// --- the tools ----------------------------------------------------------------------------------
function versionOf(name) {
  try { return JSON.parse(readFileSync(join(NODE_MODULES, name, "package.json"), "utf8")).version; } catch { return null; }
}

const TOOLS = [
  {
    name: "ours",
    label: "playground diff",
    version: () => (spawnSync(PLAYGROUND, ["--version"], { encoding: "utf8" }).stdout ?? "?").trim().replace(/, app not embedded.*\)$/, ")"),
    available: () => existsSync(PLAYGROUND) ? null : `${PLAYGROUND} missing (cargo build --profile native -p playground)`,
    run(pair) {
      const m = measure(() => run(PLAYGROUND, ["diff", pair.oldFile, pair.newFile, "--format", "json"], { limitVirtual: true }));
      if (m.status !== 0) return { ...m, failure: describeFailure(m) };
      const report = JSON.parse(m.stdout);
      return {
        ...m,
        counts: { breaking: report.summary.breaking, deprecation: report.summary.deprecation, "non-breaking": report.summary["non-breaking"] },
        findings: ourFindings(report),
      };
    },
  },
  {
    name: "openapi-diff",
    label: "openapi-diff",
    version: () => versionOf("openapi-diff"),
    available: () => versionOf("openapi-diff") ? null : "not installed in bench/node_modules",
    run(pair) {
      const bin = join(NODE_MODULES, "openapi-diff/bin/openapi-diff");
      const once = () => run(process.execPath, [`--max-old-space-size=${MEMORY_MB}`, bin, pair.oldFile, pair.newFile]);
      const m = measure(once, { repeat: (first) => first.wallMs < SLOW_MS && parseOpenapiDiff(first.stdout) });
      const result = parseOpenapiDiff(m.stdout);
      if (!result) return { ...m, failure: describeFailure(m) };
      return {
        ...m,
        counts: {
          breaking: result.breakingDifferences?.length ?? 0,
          "non-breaking": result.nonBreakingDifferences?.length ?? 0,
          unclassified: result.unclassifiedDifferences?.length ?? 0,
        },
        findings: openapiDiffFindings(result, readDoc(pair.oldFile), readDoc(pair.newFile)),
      };
    },
  },
  {
    name: "optic",
    label: "Optic",
    version: () => versionOf("@useoptic/optic"),
    available: () => versionOf("@useoptic/optic") ? null : "not installed in bench/node_modules",
    run(pair) {
      const bin = join(NODE_MODULES, "@useoptic/optic/build/index.js");
      const env = { CI: "true", OPTIC_TELEMETRY_LEVEL: "off" };
      let details = null;
      const once = () => {
        const cwd = mkdtempSync(join(WORK, "optic-"));
        const r = run(process.execPath, [`--max-old-space-size=${MEMORY_MB}`, bin, "diff", pair.oldFile, pair.newFile,
          "--check", "--json", "--validation", "loose"], { cwd, env });
        const file = join(cwd, "ci-run-details.json");
        details = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
        rmSync(cwd, { recursive: true, force: true });
        return r;
      };
      const m = measure(once, { repeat: (first) => first.wallMs < SLOW_MS && details?.completed?.length > 0 });
      const completed = details?.completed?.[0];
      if (!completed) {
        // `--json` silences Optic's own messages: ask again without it for the reason.
        let reason = "";
        if (m.wallMs < SLOW_MS) {
          const cwd = mkdtempSync(join(WORK, "optic-"));
          const again = run(process.execPath, [`--max-old-space-size=${MEMORY_MB}`, bin, "diff", pair.oldFile, pair.newFile,
            "--check", "--validation", "loose"], { cwd, env: { OPTIC_TELEMETRY_LEVEL: "off" } });
          rmSync(cwd, { recursive: true, force: true });
          reason = (again.stdout + again.stderr).split("\n").map((l) => l.trim()).filter(Boolean).slice(0, 2).join(" ");
        }
        return { ...m, failure: describeFailure(m, reason) };
      }
      const results = completed.comparison.results;
      const failed = results.filter((r) => !r.passed && !r.exempted);
      let changelog = 0;
      try { changelog = countChangelog(JSON.parse(m.stdout)); } catch { /* counted as 0 */ }
      return {
        ...m,
        counts: { breaking: failed.filter((r) => r.severity >= 2).length, "other failed checks": failed.filter((r) => r.severity < 2).length, "changelog entries": changelog },
        findings: opticFindings(results),
      };
    },
  },
].filter((tool) => !ONLY_TOOLS || ONLY_TOOLS.includes(tool.name));

function parseOpenapiDiff(stdout) {
  const start = stdout.indexOf("{");
  if (start < 0) return null;
  try { return JSON.parse(stdout.slice(start)); } catch { return null; }
}

function describeFailure(m, reason = "") {
  const what = m.status === "timeout" ? `timed out after ${TIMEOUT} s`
    : typeof m.status === "string" ? `killed: ${m.status}`
    : `exit ${m.status}`;
  const oom = /heap out of memory|Allocation failed|memory allocation of .* failed/i.test(m.stderr) && !/out of memory/.test(what)
    ? ", out of memory" : "";
  const stderrLines = m.stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const said = reason || stderrLines.find((l) => /FATAL ERROR/.test(l))
    || stderrLines.find((l) => /error|unsupported|not supported/i.test(l) && !l.startsWith("at "))
    || stderrLines.filter((l) => !l.startsWith("at ")).slice(0, 1).join(" ");
  const empty = m.stdout.trim() ? "" : ", no output";
  return `${what}${oom}${empty}${said ? `: ${said.slice(0, 240)}` : ""}`;
}

// --- disagreements ------------------------------------------------------------------------------
/** The (operation, area) where `a` says breaking and `b` does not. */
function breakingOnlyIn(a, b) {
  const bBreaking = new Set(b.filter((f) => f.breaking).map((f) => `${f.key}\t${f.area}`));
  const bAny = new Map();
  for (const f of b) {
    const k = `${f.key}\t${f.area}`;
    if (!bAny.has(k)) bAny.set(k, []);
    bAny.get(k).push(f.text);
  }
  const out = new Map();
  for (const f of a.filter((x) => x.breaking)) {
    const k = `${f.key}\t${f.area}`;
    if (bBreaking.has(k)) continue;
    if (!out.has(k)) out.set(k, { key: f.key, area: f.area, says: [], other: [...new Set(bAny.get(k) ?? [])] });
    out.get(k).says.push(f.text);
  }
  return [...out.values()].map((d) => ({ ...d, says: [...new Set(d.says)] }));
}

// --- main ---------------------------------------------------------------------------------------
mkdirSync(WORK, { recursive: true });
const loadBefore = os.loadavg();
const uptimeBefore = spawnSync("uptime", { encoding: "utf8" }).stdout?.trim() ?? "";
const started = new Date();
const toolInfo = TOOLS.map((t) => ({ name: t.name, label: t.label, version: t.version(), unavailable: t.available() }));

const results = [];
for (const pair of PAIRS) {
  pair.oldFile = pair.old();
  pair.newFile = pair.new();
  pair.oldBytes = statSync(pair.oldFile).size;
  pair.newBytes = statSync(pair.newFile).size;
  const row = { pair: pair.name, what: pair.what, format: pair.format, oldBytes: pair.oldBytes, newBytes: pair.newBytes, tools: {} };
  for (const tool of TOOLS) {
    const unavailable = tool.available();
    console.error(`bench/diff: ${pair.name}: ${tool.name}`);
    const r = unavailable ? { failure: unavailable } : tool.run(pair);
    delete r.stdout;
    row.tools[tool.name] = r;
    console.error(`  ${r.failure ? `failed: ${r.failure}` : JSON.stringify(r.counts)}${r.wallMs != null ? `, ${(r.wallMs / 1000).toFixed(2)} s` : ""}${r.rssKb ? `, ${Math.round(r.rssKb / 1024)} MB` : ""}`);
  }
  const ours = row.tools.ours?.findings;
  row.disagreements = {};
  for (const peer of TOOLS.filter((t) => t.name !== "ours")) {
    const theirs = row.tools[peer.name]?.findings;
    if (!ours || !theirs) continue;
    row.disagreements[peer.name] = { peerOnly: breakingOnlyIn(theirs, ours), oursOnly: breakingOnlyIn(ours, theirs) };
  }
  results.push(row);
}
const loadAfter = os.loadavg();
const uptimeAfter = spawnSync("uptime", { encoding: "utf8" }).stdout?.trim() ?? "";

writeFileSync(join(WORK, "results.json"), JSON.stringify({ started, toolInfo, loadBefore, loadAfter, results }, (k, v) => (k === "findings" ? undefined : v), 2));
writeFileSync(join(WORK, "findings.json"), JSON.stringify(results.map((r) => ({ pair: r.pair, findings: Object.fromEntries(Object.entries(r.tools).map(([t, x]) => [t, x.findings ?? null])) })), null, 1));

// --- the report ---------------------------------------------------------------------------------
const lines = [];
const out = (s = "") => lines.push(s);
const mb = (bytes) => `${(bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1)} MB`;
const secs = (ms) => ms == null ? "–" : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
const rss = (kb) => kb == null ? (TIME ? "–" : "n/a (no /usr/bin/time)") : `${Math.round(kb / 1024)} MB`;
const counts = (c) => Object.entries(c).map(([k, v]) => `${v} ${k}`).join(", ");
const MAX_LISTED = 15;

out("# `playground diff` beside openapi-diff and Optic");
out();
out("Written by `make bench-diff` (`bench/diff/run.mjs`). Each real pair is two published releases of one API's");
out("description; each tool compares them once per run under a cap of " + `${TIMEOUT} s and ${MEMORY_MB} MB (ours: \`ulimit -v\`;`);
out("the peers: Node's `--max-old-space-size`). Ours runs " + `${RUNS} time${RUNS === 1 ? "" : "s"} (the median is shown); a peer too, unless its first run took`);
out("over 30 s or failed. Peak RSS is the largest process of the run (`/usr/bin/time`'s %M). Counts are each tool's own:");
out("ours by level (docs/diff.md); openapi-diff's breaking, non-breaking and unclassified differences; Optic's failed checks");
out("(severity error = breaking) and the entries of its changelog. `docs/diff-peers.md` explains the disagreements.");
out();
out(`Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ` +
  `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}; Node ${process.version}.`);
out(`Load before: \`${uptimeBefore}\`; after: \`${uptimeAfter}\`.`);
out(`Tools: ${toolInfo.map((t) => `${t.label} ${t.version ?? "?"}${t.unavailable ? ` (${t.unavailable})` : ""}`).join("; ")}.`);
out();
out("| Pair | Format | Sizes (old → new) |");
out("|---|---|---:|");
for (const r of results) out(`| ${r.pair}: ${r.what} | ${r.format} | ${mb(r.oldBytes)} → ${mb(r.newBytes)} |`);
out();
out("| Pair | Tool | Wall time | Peak RSS | What it reports |");
out("|---|---|---:|---:|---|");
for (const r of results) {
  for (const t of toolInfo) {
    const x = r.tools[t.name];
    if (!x) continue;
    const time = x.wallMs == null ? "–" : `${secs(x.wallMs)}${x.runs > 1 ? ` (median of ${x.runs})` : ""}`;
    out(`| ${r.pair} | ${t.label} | ${time} | ${rss(x.rssKb)} | ${x.failure ? `**failed**: ${x.failure.replace(/\|/g, "\\|")}` : counts(x.counts)} |`);
  }
}
out();
const gh = results.find((r) => r.pair === "github");
if (gh?.tools.ours?.wallMs != null) {
  const ours = gh.tools.ours;
  const peers = toolInfo.filter((t) => t.name !== "ours" && gh.tools[t.name]).map((t) => {
    const x = gh.tools[t.name];
    return `${t.label} ${x.failure ? `failed after ${secs(x.wallMs)} (${x.failure.split(":")[0]})` : secs(x.wallMs)}`;
  });
  out(`**GitHub's pair** (${mb(gh.oldBytes)} → ${mb(gh.newBytes)}): ours ${secs(ours.wallMs)} ` +
    `(aim: within ${AIM_GITHUB_MS / 1000} s: ${ours.wallMs <= AIM_GITHUB_MS ? "met" : "**missed**"}), ${rss(ours.rssKb)} peak; ${peers.join("; ")}.`);
  out();
}
out("## Disagreements on what breaks");
out();
out("Each finding reduced to (operation, area); listed: where one tool says breaking and the other does not, with what");
out(`the other says there (\"–\": nothing). At most ${MAX_LISTED} rows per list; target/bench/diff/findings.json has every finding.`);
for (const r of results) {
  for (const [peer, d] of Object.entries(r.disagreements)) {
    const label = toolInfo.find((t) => t.name === peer).label;
    out();
    out(`### ${r.pair}: ${label}`);
    for (const [title, list, who, other] of [[`${label} says breaking, we do not`, d.peerOnly, label, "ours"], [`we say breaking, ${label} does not`, d.oursOnly, "ours", label]]) {
      out();
      out(`${title}: ${list.length} (operation, area)`);
      if (!list.length) continue;
      out();
      // One row per finding, with the operations it is on (a change to a shared schema or to the
      // document's security is on many).
      const groups = new Map();
      for (const x of list) {
        const k = `${x.area}\t${x.says.join("\n")}\t${x.other.join("\n")}`;
        if (!groups.has(k)) groups.set(k, { ...x, keys: [] });
        groups.get(k).keys.push(x.key);
      }
      const rows = [...groups.values()].sort((a, b) => b.keys.length - a.keys.length);
      const cell = (texts) => texts.length
        ? texts.slice(0, 2).join("; ").replace(/\|/g, "\\|").slice(0, 220) + (texts.length > 2 ? ` (+${texts.length - 2})` : "")
        : "–";
      out(`| Operations | Area | ${who} | ${other} |`);
      out("|---|---|---|---|");
      for (const g of rows.slice(0, MAX_LISTED)) {
        const ops = g.keys.length > 3 ? `${g.keys.slice(0, 3).join(", ")} and ${g.keys.length - 3} more` : g.keys.join(", ");
        out(`| ${ops.replace(/\|/g, "\\|")} | ${g.area} | ${cell(g.says)} | ${cell(g.other)} |`);
      }
      if (rows.length > MAX_LISTED) out(`| … ${rows.length - MAX_LISTED} more rows | | | |`);
    }
  }
}
const text = lines.join("\n") + "\n";
process.stdout.write(text);
if (OUT !== "-") {
  writeFileSync(OUT, text);
  console.error(`wrote ${OUT}`);
}
