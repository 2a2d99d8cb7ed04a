// Site mode: the page of a site `playground build` publishes, whose description is its own
// (src/site.rs). The configuration element and a stand-in first paint are injected into the
// built index.html here; the full build's output gets a test of its own with the CLI.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DIST, launch, openPage, serveStatic } from "./harness.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const FIXTURE = join(HERE, "fixtures/site-api.json");
const LOGO = join(HERE, "../../www/favicon.png");

let browser;
let index;

before(async () => {
  browser = await launch();
  index = await readFile(join(DIST, "index.html"), "utf8");
});

after(async () => {
  await browser?.close();
});

/**
 * index.html with `config` (an object, or raw text) as the site's configuration, as the build
 * writes it: before index.html's first script, which reads it (the release build's minified
 * index.html has no `<head>` tag to insert after).
 */
function sitePage(config) {
  const json = typeof config === "string" ? config : JSON.stringify(config);
  return index
    .replace("<title>", `<script type="application/json" id="playground-site">${json}</script><title>`)
    .replace("<body>", '<body><div id="prerendered"><p data-testid="prerendered-marker">Acme Widgets, first paint</p></div>');
}

/** Serves the built app as a site of `config`, with the fixture as its `openapi.json`. */
async function serveSite(config, extra = {}) {
  const page = { body: sitePage(config), type: "text/html; charset=utf-8" };
  return serveStatic(DIST, { extra: { "/": page, "/index.html": page, "/openapi.json": FIXTURE, "/logo.png": LOGO, ...extra } });
}

/** Whatever the page requested that belongs to the Petstore demo. */
function petstoreRequests(page) {
  return page.evaluate(() =>
    performance.getEntriesByType("resource").map((e) => e.name).filter((name) => /petstore\.json|petstore_mock|domains/.test(name)),
  );
}

const CONFIG = {
  document: "openapi.json",
  title: "Acme Widgets",
  tryIt: "https://api.acme.example/v2",
  mock: false,
  links: { home: "https://acme.example/", support: "https://acme.example/help" },
  logo: "logo.png",
  accent: "#0b7285",
};

test("a site's page shows its own document, title, logo, links and accent, and nothing of the Petstore", async () => {
  const site = await serveSite(CONFIG);
  const { page, context, problems } = await openPage(browser, site.url);
  try {
    await page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("#prerendered").count(), 0, "the first paint is gone");
    assert.equal((await page.locator("[data-testid=doc-title]").textContent()).trim(), "Acme Widgets");
    assert.equal(await page.title(), "Acme Widgets reference");
    assert.equal(await page.locator("[data-testid=operation]").count(), 5);
    assert.equal(await page.locator("[data-testid=site-logo]").getAttribute("src"), "logo.png");
    assert.equal(await page.locator("[data-testid=site-home]").getAttribute("href"), "https://acme.example/");
    assert.equal(await page.locator("[data-testid=site-support]").getAttribute("href"), "https://acme.example/help");
    for (const absent of ["domains-link", "document-builtin", "document-loader", "mock-panel"]) {
      assert.equal(await page.locator(`[data-testid=${absent}]`).count(), 0, `no ${absent}`);
    }
    const text = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /petstore/i);
    const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent"));
    assert.match(accent, /#0b7285/);

    // The try-it panel starts on the site's server, with no mock to send to.
    await page.goto(`${site.url}#getWidget`);
    const target = page.locator("[data-testid=try-target]");
    await target.waitFor({ timeout: 15_000 });
    assert.equal(await target.inputValue(), "server:https://api.acme.example/v2");
    assert.equal(await target.locator("option[value=mock]").count(), 0);
    assert.deepEqual(await petstoreRequests(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await site.close();
  }
});

test("a site without try-it shows no panel; its Mock block shows when asked for", async () => {
  const site = await serveSite({ document: "openapi.json", tryIt: "none", mock: true });
  const { page, context, problems } = await openPage(browser, `${site.url}#createWidget`);
  try {
    await page.locator("[data-testid=operation-detail]").waitFor({ timeout: 15_000 });
    // The document's own title when the site names none.
    assert.equal((await page.locator("[data-testid=doc-title]").textContent()).trim(), "Acme Widgets API");
    assert.equal(await page.locator("[data-testid=mock-panel]").count(), 1);
    // The code samples come with the panel's module: once they are there, the panel would be too.
    await page.locator("[data-testid=code-samples]").waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("[data-testid=try-target]").count(), 0);
    assert.deepEqual(await petstoreRequests(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await site.close();
  }
});

test("a site whose document does not load says why, with no Petstore in its place", async () => {
  const site = await serveSite(CONFIG, { "/openapi.json": { status: 404, body: "not found" } });
  const { page, context } = await openPage(browser, site.url);
  try {
    const status = page.locator("[data-testid=document-status]");
    await status.filter({ hasText: "could not be loaded" }).waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("#prerendered").count(), 0);
    assert.equal(await page.locator("[data-testid=operation]").count(), 0);
    assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /petstore/i);
    assert.deepEqual(await petstoreRequests(page), []);
  } finally {
    await context.close();
    await site.close();
  }
});

test("a configuration that does not read is said in the page", async () => {
  for (const config of ['{"document": ', JSON.stringify({ document: "openapi.json", accent: "red;x:url(y)" })]) {
    const site = await serveSite(config);
    const { page, context } = await openPage(browser, site.url);
    try {
      const error = page.locator("[data-testid=site-error]");
      await error.waitFor({ timeout: 15_000 });
      assert.match(await error.textContent(), /playground-site/);
      assert.deepEqual(await petstoreRequests(page), []);
    } finally {
      await context.close();
      await site.close();
    }
  }
});
