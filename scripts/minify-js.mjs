// Finishes the reference's release build. First the app's wasm (scripts/finish-app-wasm.sh, which
// updates its integrity hash), then the JavaScript: it minifies wasm-bindgen's glue (the app's .js
// at the top of the output) and its snippets (snippets/**/*.js), then updates their Subresource
// Integrity hashes in index.html, which Trunk computed for the unminified files. wasm-bindgen
// writes readable glue and Trunk's own JS minifier fails on it; esbuild (pinned in
// scripts/ensure-tools.sh) takes the glue from 10.2 to 7.9 KB gzip, in the first download.
// Run by Trunk as a post_build hook (Trunk.toml) on its staging directory; does nothing in a
// debug build. Usage: node scripts/minify-js.mjs [OUT_ROOT]
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const out = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!out) {
  console.error("minify-js: run by trunk, or pass the output directory");
  process.exit(2);
}
if ((process.env.TRUNK_PROFILE ?? "release") !== "release") process.exit(0);

const esbuild = createRequire(join(ROOT, ".tools/package.json"))("esbuild");
const sri = (bytes) => `sha384-${createHash("sha384").update(bytes).digest("base64")}`;

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

execFileSync("bash", [join(ROOT, "scripts/finish-app-wasm.sh"), out], { stdio: "inherit" });

const indexPath = join(out, "index.html");
let index = await readFile(indexPath, "utf8");
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
await writeFile(indexPath, index);
console.log(`minify-js: ${(before / 1000).toFixed(1)} KB of the page's JavaScript -> ${(after / 1000).toFixed(1)} KB`);
