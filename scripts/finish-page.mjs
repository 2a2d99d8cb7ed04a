// Finishes the reference's page, as Trunk's post_build hook (Trunk.toml) on its staging
// directory, in every build:
// - The app starts when the page's head script says so: Trunk's module script, which imports the
//   app's JavaScript and fetches its WebAssembly at once (and the `modulepreload` and WebAssembly
//   `preload` links that ask for both while the page is parsed), becomes one that first awaits
//   `window.__playgroundAppStart` (index.html): at once for the Petstore, after the first frame
//   for a published site's page, and after the frame that shows the first screen for a document
//   opened by `?url=` (www/first-screen.js). Fetched, compiled and started before that frame, the
//   WebAssembly held both back (bench/NOTES.md). `playground build` checks this shape
//   (crates/site/src/page.rs).
// - In a release build, the app's wasm, which Trunk leaves as wasm-bindgen wrote it (index.html's
//   data-wasm-opt="0"), goes through scripts/finish-wasm.sh (the exports nothing calls taken out,
//   wasm-opt); wasm-bindgen's glue (the app's .js at the top of the output) and its snippets
//   (snippets/**/*.js) are minified, and their Subresource Integrity hashes in index.html, which
//   Trunk computed before, are updated. wasm-bindgen writes readable glue and Trunk's own JS
//   minifier fails on it; esbuild (pinned in scripts/ensure-tools.sh) takes the glue from 10.2 to
//   7.9 KB gzip, in the first download.
// One hook for both: Trunk runs a stage's hooks at the same time, and both rewrite index.html.
// Usage: node scripts/finish-page.mjs [OUT_ROOT]
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const out = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!out) {
  console.error("finish-page: run by trunk, or pass the output directory");
  process.exit(2);
}

async function scripts(dir, nested) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && (nested || e.name === "snippets")) found.push(...(await scripts(path, true)));
    else if (e.isFile() && e.name.endsWith(".js")) found.push(path);
  }
  return found;
}

const indexPath = join(out, "index.html");
let index = await readFile(indexPath, "utf8");

/** `page` with the app started when the head script resolves `__playgroundAppStart`. */
function startWhenAsked(page) {
  const start = /import init, \* as bindings from (['"])([^'"]+)\1;\s*const wasm = await init\(\{ module_or_path: (['"])([^'"]+)\3 \}\);/;
  const found = page.match(start);
  if (!found || page.split(found[0]).length !== 2) {
    console.error("finish-page: index.html does not start the app as Trunk 0.21 writes it (one `import init, * as bindings from ...;` and `await init({ module_or_path: ... })`)");
    process.exit(1);
  }
  const [, , script, , wasm] = found;
  const started = [
    "await window.__playgroundAppStart;",
    `const wasmFile = fetch('${wasm}');`,
    `const { default: init, ...bindings } = await import('${script}');`,
    "const wasm = await init({ module_or_path: wasmFile });",
  ].join("\n");
  // The links that would ask for the app's files while the page is parsed.
  const early = (tag) => /\brel=["']?modulepreload\b/.test(tag) || (/\brel=["']?preload\b/.test(tag) && /application\/wasm/.test(tag));
  return page.replace(found[0], started).replace(/<link\b[^>]*>\s*/g, (tag) => (early(tag) ? "" : tag));
}
// (Last in a release build: the files are known by their hashes in the links it takes out.)
if ((process.env.TRUNK_PROFILE ?? "release") !== "release") {
  await writeFile(indexPath, startWhenAsked(index));
  process.exit(0);
}

const esbuild = createRequire(join(ROOT, ".tools/package.json"))("esbuild");
const sri = (bytes) => `sha384-${createHash("sha384").update(bytes).digest("base64")}`;

const apps = (await readdir(out)).filter((name) => /^playground-app-.*_bg\.wasm$/.test(name));
if (apps.length !== 1) {
  console.error(`finish-page: expected one playground-app-*_bg.wasm in ${out}, found ${apps.length}`);
  process.exit(1);
}
const app = join(out, apps[0]);
const appHash = sri(await readFile(app));
if (!index.includes(appHash)) {
  console.error(`finish-page: index.html has no integrity hash for ${app}`);
  process.exit(1);
}
execFileSync("bash", [join(ROOT, "scripts/finish-wasm.sh"), app, "-Os"], { stdio: "inherit" });
index = index.replaceAll(appHash, sri(await readFile(app)));
let before = 0;
let after = 0;
for (const file of await scripts(out, false)) {
  const source = await readFile(file);
  const hash = sri(source);
  // Only the files index.html loads (with their integrity): not the copies of other pages.
  if (!index.includes(hash)) continue;
  const { code } = await esbuild.transform(source.toString("utf8"), {
    minify: true,
    format: "esm",
    target: "es2020",
    legalComments: "none",
  });
  await writeFile(file, code);
  index = index.replaceAll(hash, sri(Buffer.from(code)));
  before += source.length;
  after += Buffer.byteLength(code);
}
await writeFile(indexPath, startWhenAsked(index));
console.log(`finish-page: ${(before / 1000).toFixed(1)} KB of the page's JavaScript -> ${(after / 1000).toFixed(1)} KB`);
