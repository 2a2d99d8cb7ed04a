// The builds bench/site.mjs times: `playground build` and `redocly build-docs` on one
// description, each into a fresh empty folder, under GNU time for the peak resident set.
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** GNU time: `-f %M` writes the peak resident set (KiB) of the command, as wait4's rusage gives it. */
export const TIME = process.env.BENCH_TIME_BIN ?? "/usr/bin/time";

/**
 * Runs `command args` under GNU time in `cwd`; resolves to { ms: its wall-clock time, from the
 * spawn to the exit, rss: its peak resident set in bytes }, or throws with its output's tail.
 */
export async function timed(command, args, { cwd, env = process.env }) {
  const report = join(cwd, ".bench-time");
  const start = performance.now();
  const output = [];
  const code = await new Promise((resolve, reject) => {
    const child = spawn(TIME, ["-f", "%M", "-o", report, command, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", reject);
    child.on("exit", resolve);
  });
  const ms = performance.now() - start;
  const text = await readFile(report, "utf8").catch(() => "");
  await rm(report, { force: true });
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${code}: ${Buffer.concat(output).toString().trim().split("\n").slice(-5).join(" | ")}`);
  const kib = Number(text.trim().split("\n").pop());
  return { ms, rss: Number.isFinite(kib) ? kib * 1024 : NaN };
}

/** The two builds of a description: `site(file, dir)` runs one into the empty folder `dir`. */
export function builders({ playground, redocly, dist }) {
  return {
    ours: {
      command: `playground build --spec <file> --out <dir> --app <release dist>`,
      run: (file, dir) => timed(playground, ["build", "--spec", file, "--out", join(dir, "site"), "--app", dist], { cwd: dir }),
      root: (dir) => join(dir, "site"),
    },
    redocly: {
      command: "redocly build-docs <file> -o <dir>/index.html",
      run: (file, dir) => timed(redocly, ["build-docs", file, "-o", join(dir, "site", "index.html")], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      }),
      root: (dir) => join(dir, "site"),
    },
  };
}

/**
 * `runs` builds of each kind for `doc` ({key, file}), interleaved (ours first in odd rounds,
 * Redocly's first in even ones), each into a fresh folder under `out/<key>/<kind>/`; the last
 * one's site is kept for the page loads. Resolves to { ours: {runs, root}, redocly: {runs, root} }
 * where each run is {ms, rss} or {error}.
 */
export async function buildBoth(doc, { out, runs, tools, log }) {
  const result = {};
  for (const kind of Object.keys(tools)) result[kind] = { runs: [], root: tools[kind].root(join(out, doc.key, kind)) };
  for (let round = 0; round < runs; round++) {
    const order = round % 2 ? Object.keys(tools).reverse() : Object.keys(tools);
    for (const kind of order) {
      const dir = join(out, doc.key, kind);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const r = await tools[kind].run(doc.file, dir).catch((error) => ({ error: String(error.message ?? error).split("\n")[0] }));
      result[kind].runs.push(r);
      log(`[build ${round + 1}/${runs}] ${doc.key.padEnd(11)} ${kind.padEnd(8)} ${r.error ? `error: ${r.error}` : `${Math.round(r.ms)} ms, ${(r.rss / 2 ** 20).toFixed(0)} MiB`}`);
    }
  }
  return result;
}

/** Bytes of the files under `dir`. */
export async function folderSize(dir) {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath ?? entry.path, entry.name))).size;
  }
  return total;
}
