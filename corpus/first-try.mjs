// The "first try" of `make corpus`: for every operation of every document of the corpus, the
// request a try-it panel starts with (its body and parameters prefilled from the document's
// examples where they fit their schemas, else from the mock's generator) sent to the mock of the
// document, whose validation is the in-browser mock's (crates/tryit-core/examples/first_try.rs,
// natively: the same Rust as the page's modules). Writes corpus/first-try.json and the "First
// try" section of docs/compatibility.md (corpus/run.mjs keeps it when it rewrites the file).
//
//   node corpus/first-try.mjs [--only=<text>]
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { DOCUMENTS, ROOT, loadManifest } from "./fetch.mjs";

export const FIRST_TRY = join(ROOT, "corpus/first-try.json");
const REPORT = join(ROOT, "docs/compatibility.md");
const HEADING = "## First try";

/** The section's lines for `data` (what corpus/first-try.json holds). */
export function firstTrySection(data) {
  const { results, date, commit, seconds } = data;
  const family = (v) => (String(v).startsWith("3.1") ? "OpenAPI 3.1" : String(v).startsWith("3.") ? "OpenAPI 3.0" : "Swagger 2.0");
  const rows = new Map();
  for (const r of results) {
    const key = r.error ? "unread" : family(r.source ?? r.version);
    const row = rows.get(key) ?? { docs: 0, operations: 0, tried: 0, refused: 0, form: 0, file: 0, other: 0, contradicting: 0 };
    row.docs += 1;
    for (const k of ["operations", "tried", "refused"]) row[k] += r[k] ?? 0;
    row.form += r.formBodies ?? 0;
    row.file += r.needsFile ?? 0;
    row.other += r.otherBodies ?? 0;
    row.contradicting += r.contradicting ?? 0;
    rows.set(key, row);
  }
  const all = { docs: 0, operations: 0, tried: 0, refused: 0, form: 0, file: 0, other: 0, contradicting: 0 };
  for (const row of rows.values()) for (const k of Object.keys(all)) all[k] += row[k];
  const pct = (row) => (row.tried ? `${((100 * (row.tried - row.refused)) / row.tried).toFixed(2)}%` : "–");
  const line = (name, row) =>
    `| ${name} | ${row.docs} | ${row.operations} | ${row.tried} | ${row.tried - row.refused} | ${pct(row)} | ${row.refused} | ${row.form - row.file} | ${row.file} | ${row.other} | ${row.contradicting} |`;
  const causes = new Map();
  for (const r of results) {
    for (const x of r.listed ?? []) {
      const key = x.message.replace(/"[^"]*"/g, "\"…\"").replace(/\d+/g, "N").slice(0, 140);
      const list = causes.get(key) ?? [];
      list.push(`\`${r.id}\` ${x.operation}`);
      causes.set(key, list);
    }
  }
  const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");
  const unread = results.filter((r) => r.error);
  return [
    HEADING,
    "",
    `Every operation's request as the try-it panel prefills it (body and parameters: the document's own`,
    `examples where they fit their schemas, else values from the mock's generator; an item path's id is`,
    `the generated one here, as no item is stored yet), sent to the mock of the document, whose checks are`,
    `the in-browser mock's; a 400, 415 or 422 is a refusal. Run natively by \`node corpus/first-try.mjs\``,
    `(\`crates/tryit-core/examples/first_try.rs\`) on ${date}${commit ? ` at commit \`${commit}\`` : ""}, in ${Math.round(seconds / 60)} minutes.`,
    "",
    "| Version | Documents | Operations | Tried | Passed | First try | Refused | Of them forms | Forms needing a file (not tried) | Other bodies (not tried) | Document examples replaced |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...["OpenAPI 3.0", "OpenAPI 3.1", "Swagger 2.0"].filter((k) => rows.has(k)).map((k) => line(k, rows.get(k))),
    line("**all**", all),
    "",
    "Tried: operations with a JSON body, a form (URL-encoded or multipart, sent with the fields the",
    "panel's form starts with) or none. A form with a required file field waits for the reader's file,",
    "and other bodies (XML, text, bytes) for the reader's text: both are counted, not tried. Document",
    "examples replaced: request bodies whose documented example does not fit its own schema (the panel",
    "says so beside the generated one that replaces it).",
    unread.length ? `The mock did not read ${unread.length} documents: ${unread.map((r) => `\`${r.id}\` (${cell(r.error.slice(0, 80))})`).join(", ")}.` : "",
    "",
    "| Refused by (particulars replaced by …/N) | Operations | Examples |",
    "|---|---:|---|",
    ...[...causes.entries()].sort((a, b) => b[1].length - a[1].length).map(
      ([cause, list]) => `| ${cell(cause)} | ${list.length} | ${cell(list.slice(0, 2).join(", "))} |`,
    ),
    "",
  ];
}

/** docs/compatibility.md with its First try section replaced (or put before the failures). */
export function withSection(text, section) {
  const start = text.indexOf(`${HEADING}\n`);
  if (start >= 0) {
    const next = text.indexOf("\n## ", start + HEADING.length);
    return text.slice(0, start) + section.join("\n") + (next >= 0 ? text.slice(next + 1) : "");
  }
  const before = text.indexOf("## Failures by cause");
  return before >= 0 ? text.slice(0, before) + section.join("\n") + "\n" + text.slice(before) : `${text}\n${section.join("\n")}`;
}

async function main() {
  const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
  const entries = loadManifest().documents.filter((e) => !only || e.id.includes(only));
  const missing = entries.filter((e) => !existsSync(join(DOCUMENTS, e.id)));
  if (missing.length) throw new Error(`${missing.length} documents are not fetched: run node corpus/fetch.mjs`);
  const built = spawnSync("cargo", ["build", "--release", "--locked", "-p", "playground-tryit-core", "--example", "first_try"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (built.status !== 0) throw new Error("cargo build of the first_try example failed");
  const work = mkdtempSync(join(tmpdir(), "first-try-"));
  try {
    const ids = join(work, "ids.txt");
    writeFileSync(ids, entries.map((e) => e.id).join("\n"));
    const target = process.env.CARGO_TARGET_DIR ?? join(ROOT, "target");
    const started = Date.now();
    const run = spawnSync(join(target, "release/examples/first_try"), [DOCUMENTS, ids], {
      cwd: ROOT,
      maxBuffer: 256 * 1024 * 1024,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (run.status !== 0) throw new Error(`first_try exited with ${run.status}`);
    const byId = new Map(entries.map((e) => [e.id, e]));
    const results = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .map((r) => ({ ...r, source: byId.get(r.id)?.version ?? r.version }));
    const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim();
    const data = { date: new Date().toISOString().slice(0, 10), commit, seconds: (Date.now() - started) / 1000, results };
    if (only) {
      writeFileSync(join(ROOT, "corpus/first-try.partial.json"), JSON.stringify(data, null, 1));
      console.log(firstTrySection(data).join("\n"));
      return;
    }
    writeFileSync(FIRST_TRY, JSON.stringify(data, null, 1));
    writeFileSync(REPORT, withSection(readFileSync(REPORT, "utf8"), firstTrySection(data)));
    console.log(firstTrySection(data).slice(0, 16).join("\n"));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`first-try: ${error.message}`);
    process.exit(1);
  });
}
