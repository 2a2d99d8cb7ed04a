// `make bench-install` (bench/run.sh install runs this once the release artifacts are in
// target/release-artifacts/): the time from installing Petstore Playground to a built site, on
// our demo Petstore and on GitHub's 13 MB description, beside Redocly's `build-docs` on the same
// files, in one run on this machine; and the sizes of what is downloaded and installed.
// Figures only: nothing here fails when an aim is missed.
//
// Measured, for each description, each time in a fresh project folder with an empty HOME
// (nothing of the repository reachable: the descriptions are copied into the run's folder, PATH
// is Node's folder, /usr/bin and /bin):
//   - ours, npm: `npm install <petstore-playground tgz>` (timed), then
//     `npx playground build --spec <file> --out site` (timed);
//   - Redocly: `npm install @redocly/cli@<the version bench/package.json pins>` (timed), then
//     `npx redocly build-docs <file> -o site/index.html` (timed; REDOCLY_TELEMETRY=off,
//     REDOCLY_SUPPRESS_UPDATE_NOTICE=true);
//   - ours, native: `tar -xzf <playground-…-x86_64-unknown-linux-musl.tar.gz>` (timed), then
//     `<folder>/playground build --spec <file> --out site` (timed).
// Each wall-clock time runs from the command's start to its exit. Both npm installs share one
// npm cache (npm_config_cache), warmed before anything is timed by an untimed install of each
// package, and run with `--prefer-offline --no-audit --no-fund`: neither waits on the network
// for what the cache holds, and the audit (a request whose time is the registry's) is left out.
// Runs are interleaved: each round (BENCH_RUNS) runs every tool on every description once, in
// a rotated order, after `sync` (so that the writes of the step before are not written back
// during the next one).
// Also recorded: the three artifacts' sizes, the native program's unpacked, each install's
// node_modules (`du -sb`) and the packages npm put in it (its node_modules/.package-lock.json).
// Prints Markdown and writes bench/INSTALL.md.
//
// Environment: BENCH_RUNS (3), BENCH_ARTIFACTS (target/release-artifacts),
// BENCH_OUT (the report's path; "-" = none).
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync, spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import os from "node:os";
import { githubDescription, median, ms } from "./lib/chromium.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = join(HERE, "..");
const NODE_MODULES = join(HERE, "node_modules");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ARTIFACTS = resolve(process.env.BENCH_ARTIFACTS ?? join(ROOT, "target/release-artifacts"));
const OUT = process.env.BENCH_OUT ?? join(HERE, "INSTALL.md");

// The aims this run reports against.
const AIM_PETSTORE_BUILD = 3000; // `npx playground build` of the Petstore within 3 s
const AIM_TARBALL_MB = 15; // the release tarball under 15 MB (10^6 bytes)

// --- the artifacts and the peer -----------------------------------------------------------------
const artifactNames = await readdir(ARTIFACTS).catch(() => []);
const artifact = (pattern, what) => {
  const name = artifactNames.find((n) => pattern.test(n));
  if (!name) {
    console.error(`bench/install.mjs: no ${what} in ${ARTIFACTS} (make release writes it)`);
    process.exit(2);
  }
  return join(ARTIFACTS, name);
};
const NPM_TGZ = artifact(/^petstore-playground-\d[^/]*\.tgz$/, "petstore-playground-VERSION.tgz");
const MOCK_TGZ = artifact(/^petstore-playground-mock-\d[^/]*\.tgz$/, "petstore-playground-mock-VERSION.tgz");
const NATIVE_TGZ = artifact(/^playground-[^/]*-x86_64-unknown-linux-musl\.tar\.gz$/, "playground-VERSION-x86_64-unknown-linux-musl.tar.gz");
// The folder the native tarball holds (its name without .tar.gz) and the program in it.
const NATIVE_DIR = basename(NATIVE_TGZ).replace(/\.tar\.gz$/, "");
// The exact version of Redocly's CLI the bench pins (and `make bench-site` runs).
const REDOCLY_VERSION = JSON.parse(await readFile(join(HERE, "package.json"), "utf8")).devDependencies["@redocly/cli"];
const REDOCLY_SPEC = `@redocly/cli@${REDOCLY_VERSION}`;

// --- the run's folder: descriptions, the shared npm cache, one folder per measured step --------
const work = await mkdtemp(join(os.tmpdir(), "bench-install-"));
const CACHE = join(work, "npm-cache");
await mkdir(join(work, "docs"), { recursive: true });
const docs = [
  { key: "petstore", name: "Petstore", source: join(ROOT, "openapi/petstore.yaml") },
  { key: "github", name: "GitHub", source: githubDescription(NODE_MODULES) },
];
for (const doc of docs) {
  doc.file = join(work, "docs", basename(doc.source));
  await copyFile(doc.source, doc.file);
  doc.bytes = (await stat(doc.file)).size;
}
const octokitVersion = JSON.parse(await readFile(join(NODE_MODULES, "@octokit/openapi/package.json"), "utf8")).version;

/** The environment of every command: nothing inherited but Node's folder on PATH. */
const environment = (home, extra = {}) => ({
  HOME: home,
  PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
  TMPDIR: work,
  LANG: "C.UTF-8",
  npm_config_cache: CACHE,
  npm_config_update_notifier: "false",
  ...extra,
});
const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const REDOCLY_ENV = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

/** Runs `command args` in `cwd`; resolves to its wall-clock time in ms, or throws with its output's tail. */
function timed(command, args, { cwd, env }) {
  return new Promise((ok, fail) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk) => (output = (output + chunk).slice(-4000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      const time = performance.now() - start;
      if (code === 0) ok(time);
      else fail(new Error(`\`${command} ${args.join(" ")}\` exited ${signal ?? code}: ${output.trim().split("\n").slice(-3).join(" / ")}`));
    });
  });
}

/** A fresh folder with an empty HOME and a project (an empty package.json) to install into. */
async function freshProject(label) {
  const dir = await mkdtemp(join(work, `${label}-`));
  await mkdir(join(dir, "home"));
  await mkdir(join(dir, "project"));
  await writeFile(join(dir, "project/package.json"), `${JSON.stringify({ name: "bench-install-project", private: true }, null, 2)}\n`);
  return { dir, home: join(dir, "home"), project: join(dir, "project") };
}

const du = (path) => Number(execFileSync("du", ["-sb", path]).toString().split("\t")[0]);

/**
 * What npm put in node_modules, from its hidden lockfile: `packages`, those it added (the count
 * of its "added N packages"), `bundled`, those that came inside one of them; and their `bytes`.
 */
async function installed(project) {
  const lock = JSON.parse(await readFile(join(project, "node_modules/.package-lock.json"), "utf8"));
  const entries = Object.entries(lock.packages ?? {}).filter(([path]) => path.startsWith("node_modules/"));
  const bundled = entries.filter(([, p]) => p.inBundle).length;
  return { packages: entries.length - bundled, bundled, bytes: du(join(project, "node_modules")) };
}

/** A built site must have its page: what either tool writes first and last. */
async function checkSite(site) {
  const page = await stat(join(site, "index.html")).catch(() => null);
  if (!page?.size) throw new Error(`no index.html in ${site}`);
  return du(site);
}

// --- the tools: each `install` then `build` in a fresh project; the figures of one run --------
const OURS_NPM = "Petstore Playground (npm)";
const REDOCLY = "Redocly";
const OURS_NATIVE = "Petstore Playground (native)";
const tools = {
  [OURS_NPM]: {
    install: `npm install ${basename(NPM_TGZ)}`,
    build: "npx playground build --spec <file> --out site",
    async run(doc, { home, project }) {
      const env = environment(home);
      const install = await timed("npm", ["install", ...NPM_FLAGS, NPM_TGZ], { cwd: project, env });
      const build = await timed("npx", ["playground", "build", "--spec", doc.file, "--out", "site"], { cwd: project, env });
      return { install, build, site: await checkSite(join(project, "site")), modules: await installed(project) };
    },
  },
  [REDOCLY]: {
    install: `npm install ${REDOCLY_SPEC}`,
    build: "npx redocly build-docs <file> -o site/index.html",
    async run(doc, { home, project }) {
      const env = environment(home, REDOCLY_ENV);
      const install = await timed("npm", ["install", ...NPM_FLAGS, REDOCLY_SPEC], { cwd: project, env });
      const build = await timed("npx", ["redocly", "build-docs", doc.file, "-o", "site/index.html"], { cwd: project, env });
      return { install, build, site: await checkSite(join(project, "site")), modules: await installed(project) };
    },
  },
  [OURS_NATIVE]: {
    install: `tar -xzf ${basename(NATIVE_TGZ)}`,
    build: `${NATIVE_DIR}/playground build --spec <file> --out site`,
    async run(doc, { home, project }) {
      const env = environment(home);
      const install = await timed("tar", ["-xzf", NATIVE_TGZ], { cwd: project, env });
      const build = await timed(join(project, NATIVE_DIR, "playground"), ["build", "--spec", doc.file, "--out", "site"], { cwd: project, env });
      return { install, build, site: await checkSite(join(project, "site")), program: (await stat(join(project, NATIVE_DIR, "playground"))).size };
    },
  },
};
const names = Object.keys(tools);
const cases = docs.flatMap((doc) => names.map((name) => ({ doc, name })));

// --- run ------------------------------------------------------------------------------------------
const started = new Date();
const load = os.loadavg()[0];
const npmVersion = execFileSync("npm", ["--version"], { env: environment(os.tmpdir()) }).toString().trim();
const results = Object.fromEntries(cases.map(({ doc, name }) => [`${doc.key}/${name}`, []]));
const last = {}; // the last good run of each case: sizes and package counts
try {
  // The shared cache, warmed: one untimed install of each npm package.
  for (const [name, spec] of [[OURS_NPM, NPM_TGZ], [REDOCLY, REDOCLY_SPEC]]) {
    const warm = await freshProject("warm");
    console.error(`warming npm's cache: ${tools[name].install}`);
    await timed("npm", ["install", ...NPM_FLAGS, spec], { cwd: warm.project, env: environment(warm.home) }).catch((error) => {
      console.error(`bench/install.mjs: warming the cache for ${name} failed: ${error.message}`);
      process.exit(1);
    });
    await rm(warm.dir, { recursive: true, force: true });
  }
  for (let run = 0; run < RUNS; run++) {
    const order = cases.map((_, i) => cases[(i + run) % cases.length]);
    for (const { doc, name } of order) {
      execFileSync("sync");
      const folder = await freshProject(`${doc.key}-${run}`);
      const key = `${doc.key}/${name}`;
      let r;
      try {
        r = await tools[name].run(doc, folder);
        r.total = r.install + r.build;
        last[key] = r;
      } catch (error) {
        r = { error: String(error.message ?? error).split("\n")[0] };
      }
      results[key].push(r);
      console.error(`[run ${run + 1}/${RUNS}] ${doc.name.padEnd(8)} ${name.padEnd(30)} ${r.error ? `error: ${r.error}` : `install ${ms(r.install)}, build ${ms(r.build)}, total ${ms(r.total)}`}`);
      await rm(folder.dir, { recursive: true, force: true });
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

// --- report ---------------------------------------------------------------------------------------
const good = (key) => results[key].filter((r) => !r.error);
const figures = (key, step) => good(key).map((r) => r[step]);
const med = (key, step) => (good(key).length ? median(figures(key, step)) : NaN);
const cell = (key, step) => {
  const xs = figures(key, step);
  if (!xs.length) return "failed";
  return `${ms(median(xs))} (${ms(Math.min(...xs))}–${ms(Math.max(...xs))})`;
};
const MB = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
const size = async (path) => (await stat(path)).size;
const sizes = {
  native: await size(NATIVE_TGZ),
  npm: await size(NPM_TGZ),
  mock: await size(MOCK_TGZ),
};
// Sizes and counts do not change from run to run nor, for an install, with the description.
const anyGood = (name) => docs.map((d) => last[`${d.key}/${name}`]).find(Boolean);
const program = anyGood(OURS_NATIVE)?.program;
const modules = { [OURS_NPM]: anyGood(OURS_NPM)?.modules, [REDOCLY]: anyGood(REDOCLY)?.modules };
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const docLabel = (doc) => doc.key === "github"
  ? `GitHub's (${MB(doc.bytes)} of JSON)`
  : `Petstore (${(doc.bytes / 1024).toFixed(1)} KiB of YAML)`;
const petstore = docs[0];
const github = docs[1];

const lines = [];
const out = (s = "") => lines.push(s);
out("# From install to a built site (written by bench/install.mjs)");
out();
out(`Measured ${started.toISOString().slice(0, 16).replace("T", " ")} UTC by \`make bench-install\` (bench/install.mjs) on ${os.cpus().length} × ${cpu}, ` +
  `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()} (load average ${load.toFixed(1)} when the run started, ${os.loadavg()[0].toFixed(1)} when it ended); ` +
  `Node ${process.version}, npm ${npmVersion}. Median of ${RUNS} interleaved runs, range in brackets; wall-clock time of each command.`);
out();
out(`| Tool | Step | ${docs.map(docLabel).join(" | ")} |`);
out(`|---|---|${docs.map(() => "---:").join("|")}|`);
for (const name of names) {
  const label = name === REDOCLY ? `${name} (${REDOCLY_SPEC})` : `**${name}**`;
  const failed = docs.map((d) => results[`${d.key}/${name}`]).flat().filter((r) => r.error);
  const failure = failed.length ? ` (${failed.length} runs failed: ${failed[0].error})` : "";
  out(`| ${label}${failure} | \`${tools[name].install}\` | ${docs.map((d) => cell(`${d.key}/${name}`, "install")).join(" | ")} |`);
  out(`| | \`${tools[name].build}\` | ${docs.map((d) => cell(`${d.key}/${name}`, "build")).join(" | ")} |`);
  out(`| | **install to built site** | ${docs.map((d) => `**${cell(`${d.key}/${name}`, "total")}**`).join(" | ")} |`);
}
out();
const siteSize = (name, doc) => last[`${doc.key}/${name}`]?.site;
out(`The sites built: ${names.map((n) => `${n}: ${docs.map((d) => `${d.name} ${siteSize(n, d) ? MB(siteSize(n, d)) : "–"}`).join(", ")}`).join("; ")} (\`du -sb site\`).`);
out();
out("| Size | Bytes | MB (10⁶ bytes) |");
out("|---|---:|---:|");
out(`| Release tarball \`${basename(NATIVE_TGZ)}\` (the native program, the app inside) | ${sizes.native} | ${MB(sizes.native)} |`);
out(`| npm package \`${basename(NPM_TGZ)}\` (the \`playground\` command on Node, everything bundled) | ${sizes.npm} | ${MB(sizes.npm)} |`);
out(`| npm package \`${basename(MOCK_TGZ)}\` (the mocks) | ${sizes.mock} | ${MB(sizes.mock)} |`);
out(`| The native program \`${NATIVE_DIR}/playground\`, unpacked | ${program ?? "–"} | ${program ? MB(program) : "–"} |`);
for (const name of [OURS_NPM, REDOCLY]) {
  const m = modules[name];
  const what = m ? `${m.packages} package${m.packages === 1 ? "" : "s"}${m.bundled ? `, and ${m.bundled} bundled inside` : ""}` : "failed";
  out(`| node_modules after \`${tools[name].install}\` (${what}) | ${m?.bytes ?? "–"} | ${m ? MB(m.bytes) : "–"} |`);
}
out();

// The aims, each met or missed with its figures.
const buildPetstore = med(`${petstore.key}/${OURS_NPM}`, "build");
const totalPetstore = med(`${petstore.key}/${OURS_NPM}`, "total");
const oursGithub = med(`${github.key}/${OURS_NPM}`, "total");
const redoclyGithub = med(`${github.key}/${REDOCLY}`, "total");
const nativeGithub = med(`${github.key}/${OURS_NATIVE}`, "total");
const verdict = (ok) => (ok ? "met" : "missed");
const times = (a, b) => (a <= b ? `${(b / a).toFixed(1)}× sooner` : `${(a / b).toFixed(1)}× later`);
out("Aims:");
out();
out(`- **\`npx playground build\` within ${AIM_PETSTORE_BUILD / 1000} s for the Petstore: ${Number.isFinite(buildPetstore) ? verdict(buildPetstore <= AIM_PETSTORE_BUILD) : "not measured"}.** ` +
  `The build took ${ms(buildPetstore)} (median); with \`npm install\` of the tarball before it, ${ms(totalPetstore)} from install to built site` +
  `${Number.isFinite(totalPetstore) ? ` (${totalPetstore <= AIM_PETSTORE_BUILD ? "also" : "not"} within ${AIM_PETSTORE_BUILD / 1000} s)` : ""}.`);
out(`- **Faster than Redocly's on GitHub's description: ${Number.isFinite(oursGithub) && Number.isFinite(redoclyGithub) ? verdict(oursGithub < redoclyGithub) : "not measured"}.** ` +
  `From install to built site, ours by npm took ${ms(oursGithub)}, Redocly's ${ms(redoclyGithub)}: ${times(oursGithub, redoclyGithub)}. ` +
  `The builds alone: ${ms(med(`${github.key}/${OURS_NPM}`, "build"))} against ${ms(med(`${github.key}/${REDOCLY}`, "build"))}. ` +
  `The native program, from \`tar -xzf\` to built site: ${ms(nativeGithub)} (${times(nativeGithub, redoclyGithub)} than Redocly's).`);
out(`- **The release tarball under ${AIM_TARBALL_MB} MB: ${verdict(sizes.native < AIM_TARBALL_MB * 1e6)}.** ` +
  `\`${basename(NATIVE_TGZ)}\` is ${MB(sizes.native)}; the npm package \`${basename(NPM_TGZ)}\`, ${MB(sizes.npm)}` +
  ` (${sizes.npm < AIM_TARBALL_MB * 1e6 ? "also under" : "over"} ${AIM_TARBALL_MB} MB).`);
out();
out("What was measured:");
out();
out(`- The descriptions: our demo \`openapi/petstore.yaml\` and GitHub's REST description (@octokit/openapi ${octokitVersion}, \`generated/api.github.com.json\`), copied into the run's temporary folder.`);
out("- Each step is one command's wall-clock time, from its start to its exit, in a fresh project (an empty `package.json`) with an empty HOME, PATH holding only Node's folder, /usr/bin and /bin, and nothing of the repository reachable:");
for (const name of names) out(`  - ${name}: \`${tools[name].install}\`, then \`${tools[name].build}\`.`);
out(`- Both npm installs run \`npm install ${NPM_FLAGS.join(" ")}\` with one shared npm cache (\`npm_config_cache\`), warmed before anything is timed by an untimed install of each package: npm reads what the cache holds without asking the registry whether it changed; the audit, a request whose time is the registry's, is left out. ` +
  `Our package installs from its tarball alone (its one dependency, the mocks' package, is bundled in it); Redocly's CLI is resolved from the cache, the registry asked only for what the cache misses. Redocly runs with REDOCLY_TELEMETRY=off and REDOCLY_SUPPRESS_UPDATE_NOTICE=true.`);
out("- `npx <bin>` runs the bin the project installed (node_modules/.bin); the time of npx's own start is in the build's figure, as a user running the command would see it.");
out("- Runs are interleaved: every round runs each tool on each description once, in an order rotated from round to round, each after `sync`.");

const report = `${lines.join("\n")}\n`;
console.log(report);
if (OUT !== "-") {
  await writeFile(OUT, report);
  console.error(`install: wrote ${OUT}`);
}
