// Shared end-to-end harness: a real HTTP server for the built site on 127.0.0.1 and headless
// Chromium driven by playwright-core. Both are stopped by `close()`.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const HERE = fileURLToPath(new URL(".", import.meta.url));
export const DIST = resolve(process.env.DIST_DIR ?? join(HERE, "../../dist"));
export const ARTIFACTS = join(HERE, "artifacts");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".yaml": "application/yaml",
};

/**
 * Serves `root` on 127.0.0.1 at a free port. `extra` maps more URL paths to files outside
 * `root` (fixtures), or to `{ status, body, type }` answers.
 */
export async function serveStatic(root = DIST, { extra = {} } = {}) {
  await stat(join(root, "index.html")).catch(() => {
    throw new Error(`${root}/index.html is missing: build the site first (make build)`);
  });
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const mapped = extra[path];
    if (typeof mapped === "object") {
      res.writeHead(mapped.status ?? 200, { "Content-Type": mapped.type ?? "text/plain" }).end(mapped.body ?? "");
      return;
    }
    if (typeof mapped === "string") {
      try {
        const body = await readFile(mapped);
        // With its length, as a static file server sends it (a reader reserves its room once).
        res.writeHead(200, { "Content-Type": TYPES[extname(mapped)] ?? "application/octet-stream", "Content-Length": body.length }).end(body);
      } catch {
        res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      }
      return;
    }
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream", "Content-Length": body.length });
      res.end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches headless Chromium (a fresh profile each time). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

/** Opens a page that records console errors, page errors and failed requests. */
export async function openPage(browser, url, { colorScheme = "light", viewport = { width: 1280, height: 900 }, init } = {}) {
  const context = await browser.newContext({ colorScheme, viewport });
  const page = await context.newPage();
  // A script run before the page's own (such as bench/lib/load.mjs's `WASM_TRACKER`).
  if (init) await page.addInitScript(init);
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  await page.goto(url);
  return { page, context, problems };
}

/** Sends the open operation's try-it request and waits for this send's answer (an answer,
 * not a failure); returns its status. */
export async function send(page) {
  const shown = page.locator("[data-testid=try-result] > *");
  const before = (await shown.count()) === 0 ? null : await shown.getAttribute("data-exchange");
  await page.locator("[data-testid=try-send]").click();
  const fresh = before === null ? shown : page.locator(`[data-testid=try-result] > :not([data-exchange="${before}"])`);
  await fresh.waitFor({ timeout: 30_000 });
  const answer = page.locator("[data-testid=try-answer], [data-testid=try-failure]").first();
  assert.equal(await answer.getAttribute("data-testid"), "try-answer", await answer.textContent());
  return answer.getAttribute("data-status");
}
