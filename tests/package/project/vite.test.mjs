// A Vite app that imports the package, built with no configuration beyond the import, served by
// `vite preview` and opened in Chromium: the .wasm is emitted as an asset and found. The same app
// under Vite's dev server too (its dependency pre-bundling must not lose the .wasm), and a page
// that uses MSW's service worker with the mock's handlers.
import assert from "node:assert/strict";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";

import { chromium } from "playwright-core";
import { build, createServer, preview } from "vite";

const root = join(process.cwd(), "app");
const launch = () =>
  chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });

/** Opens `url`, waits for the app, and gives its result and the failed responses (but the 422 it asks for). */
async function run(browser, url) {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("response", (response) => response.status() >= 400 && response.status() !== 422 && problems.push(`${response.status()} ${response.url()}`));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector("#out").textContent !== "loading", null, { timeout: 30_000 });
  return { page, problems, result: await page.textContent("#out") };
}
const outDir = join(root, "dist");
after(() => rmSync(outDir, { recursive: true, force: true }));

test("vite build, then the app in Chromium: its fetch and XMLHttpRequest calls reach the mock", async () => {
  await build({ root, logLevel: "warn", build: { outDir, emptyOutDir: true } });
  const assets = readdirSync(join(outDir, "assets"));
  assert.ok(assets.some((name) => name.endsWith(".wasm")), `no .wasm among ${assets.join(", ")}`);

  const server = await preview({ root, logLevel: "warn", build: { outDir }, preview: { host: "127.0.0.1", port: 0, strictPort: false } });
  const browser = await launch();
  try {
    const { page, problems, result } = await run(browser, server.resolvedUrls.local[0]);
    assert.deepEqual(JSON.parse(result), { created: 201, viaXhr: 201, refused: 422, titles: ["Plant tomatoes", "Water them"] }, result);
    assert.deepEqual(await page.locator("#todos li").allTextContents(), ["Plant tomatoes", "Water them"]);
    // Kept in localStorage: a reload finds them and adds two more.
    await page.reload();
    await page.waitForFunction(() => document.querySelector("#out").textContent !== "loading", null, { timeout: 30_000 });
    assert.equal(JSON.parse(await page.textContent("#out")).titles.length, 4);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await new Promise((resolve) => server.httpServer.close(resolve));
  }
});

test("the same app under vite's dev server", async () => {
  const server = await createServer({ root, logLevel: "warn", server: { host: "127.0.0.1", port: 0 } });
  await server.listen();
  const browser = await launch();
  try {
    const { problems, result } = await run(browser, server.resolvedUrls.local[0]);
    assert.deepEqual(JSON.parse(result), { created: 201, viaXhr: 201, refused: 422, titles: ["Plant tomatoes", "Water them"] }, result);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test("MSW in the page (setupWorker, its service worker) with the mock's handlers beside the page's own", async () => {
  // tests/package/run.sh put MSW's worker script in app/public (npx msw init).
  const server = await createServer({ root, logLevel: "warn", server: { host: "127.0.0.1", port: 0 } });
  await server.listen();
  const browser = await launch();
  try {
    const { problems, result } = await run(browser, new URL("msw.html", server.resolvedUrls.local[0]).href);
    assert.deepEqual(JSON.parse(result), { created: 201, refused: 422, titles: ["Through the worker"], health: { ok: true }, other: 200 }, result);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
