// A document read as it downloads: its list is on screen while the rest still arrives, an
// operation asked for meanwhile is shown once it is in, the download of the document gives the
// text as it came, and a download that stops midway is said so. A real HTTP server on
// 127.0.0.1 (another origin than the page, as a published description would be) holds the
// rest of the document until the test lets it go.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ARTIFACTS, launch, openPage, serveStatic } from "./harness.mjs";

let browser;
let site;
let api;
/** What the document server does with the rest of each document: set by each test. */
const held = {};

/** A document of `count` operations whose components are about `padding` bytes, indented. */
function documentText(title, count, padding, webhooks = 0) {
  const paths = {};
  const schemas = {};
  for (let i = 0; i < count; i++) {
    paths[`/things${i}/{id}`] = {
      get: {
        operationId: `getThing${i}`,
        tags: [`group${i % 3}`],
        summary: `Get thing ${i}`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { 200: { description: "The thing", content: { "application/json": { schema: { $ref: `#/components/schemas/Thing${i}` } } } } },
      },
    };
    schemas[`Thing${i}`] = {
      type: "object",
      description: "x".repeat(Math.ceil(padding / count)),
      properties: { id: { type: "integer" }, name: { type: "string", description: `The name of thing ${i}` } },
    };
  }
  const doc = {
    openapi: "3.0.3",
    info: { title, version: "1.0.0" },
    tags: [0, 1, 2].map((i) => ({ name: `group${i}` })),
    paths,
    components: { schemas },
  };
  // Redoc's `x-webhooks`, after the components: the list learns of them at the last byte.
  if (webhooks) {
    doc["x-webhooks"] = Object.fromEntries(Array.from({ length: webhooks }, (_, i) => [
      `thingChanged${i}`,
      { post: { operationId: `thingChanged${i}`, summary: `Thing changed ${i}`, responses: { 200: { description: "Received" } } } },
    ]));
  }
  return JSON.stringify(doc, null, 2);
}

before(async () => {
  site = await serveStatic();
  api = createServer((req, res) => {
    const name = new URL(req.url, "http://x").pathname.slice(1);
    const doc = held[name];
    if (!doc) {
      res.writeHead(404, { "Access-Control-Allow-Origin": "*" }).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" });
    // Everything up to the components (or the document's own cut) now; the rest when the
    // test says.
    const cut = doc.cut ?? doc.text.indexOf('"components"');
    res.write(doc.text.slice(0, cut));
    doc.rest.then((how) => {
      if (how === "stop") res.socket.destroy();
      else res.end(doc.text.slice(cut));
    });
  });
  await new Promise((ok) => api.listen(0, "127.0.0.1", ok));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await new Promise((ok) => api?.close(ok) ?? ok());
});

/**
 * A held document, sent up to its components (or to byte `cut`): `release(how)` sends the rest
 * ("end") or breaks the connection ("stop").
 */
function hold(name, text, cut = undefined) {
  let release;
  const rest = new Promise((ok) => (release = ok));
  held[name] = { text, rest, cut };
  return { url: `http://127.0.0.1:${api.address().port}/${name}`, release };
}

test("the list is on screen while the rest downloads; a deep link's operation shows once it is in; the download is the text as it came", async () => {
  const text = documentText("Held", 30, 400_000);
  const doc = hold("held.json", text);
  const { page, context, problems } = await openPage(browser, `${site.url}?url=${encodeURIComponent(doc.url)}#getThing7`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Held", null, { timeout: 20_000 });
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "30 operations");
    assert.ok((await page.locator("[data-testid=operation]").count()) > 5, "the rows are drawn");
    // The operation asked for waits for the components, which the server still holds.
    const waiting = page.locator("[data-testid=document-arriving]");
    await waiting.waitFor();
    assert.match(await waiting.textContent(), /still downloading/);
    assert.equal(await page.locator("[data-testid=operation-detail]").count(), 0);
    doc.release("end");
    const detail = page.locator("[data-testid=operation-detail][data-operation-id=getThing7]");
    await detail.waitFor({ timeout: 20_000 });
    assert.match(await detail.textContent(), /Thing7/);
    assert.equal(await waiting.count(), 0);
    // The overview's download is the document as served, indentation and all (the page keeps
    // it without indentation).
    await page.evaluate(() => (location.hash = ""));
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("[data-testid=download-document]").click()]);
    assert.equal(download.suggestedFilename(), "held.json");
    assert.equal(await readFile(await download.path(), "utf8"), text);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a deep link whose document comes at once is painted once, with its operation: the list never waits for the rest on screen", async () => {
  const doc = hold("whole.json", documentText("Whole", 30, 100_000));
  doc.release("end");
  // Whether the notice of an operation waiting for the rest of its document was ever in the page.
  const init = `new MutationObserver(() => {
    if (document.querySelector("[data-testid=document-arriving]")) globalThis.__arrivingSeen = true;
  }).observe(document, { childList: true, subtree: true });`;
  const { page, context, problems } = await openPage(browser, `${site.url}?url=${encodeURIComponent(doc.url)}#getThing7`, { init });
  try {
    const detail = page.locator("[data-testid=operation-detail][data-operation-id=getThing7]");
    await detail.waitFor({ timeout: 20_000 });
    assert.match(await detail.textContent(), /Thing7/);
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "30 operations");
    assert.match(await page.locator("[data-testid=operation] [aria-current=page]").textContent(), /Get thing 7/);
    assert.equal(await page.evaluate(() => globalThis.__arrivingSeen ?? false), false, "the list was shown waiting for the rest");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the rest of a document arrives in place: the rows in view keep their elements and place, and the list takes the webhooks that came last", async () => {
  // 150 operations: a virtual list (only the rows in view are in the page).
  const doc = hold("inplace.json", documentText("In place", 150, 300_000, 2));
  const { page, context, problems } = await openPage(browser, `${site.url}?url=${encodeURIComponent(doc.url)}#getThing140`);
  try {
    await page.locator("[data-testid=document-arriving]").waitFor({ timeout: 20_000 });
    const list = page.locator("[data-testid=operation-scroller]");
    assert.equal(await list.getAttribute("data-rows"), "153", "3 tag headings and 150 operations");
    assert.equal(await page.locator("[data-testid=webhook-count]").count(), 0);
    // The deep link's row was scrolled to; mark the page's parts to find them again after.
    const selected = page.locator("[data-testid=operation] [aria-current=page]");
    await selected.waitFor();
    assert.match(await selected.textContent(), /Get thing 140/);
    // The reader scrolls a little while the rest downloads.
    await list.evaluate(async (el) => {
      el.scrollTop -= 150;
      await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
    });
    const before = await page.evaluate(() => {
      const scroller = document.querySelector("[data-testid=operation-scroller]");
      for (const element of [scroller, document.querySelector("[aria-current=page]"), document.querySelector("[data-testid=doc-title]")]) element.dataset.mark = "kept";
      const row = document.querySelector("[aria-current=page]").getBoundingClientRect().top;
      return { top: scroller.scrollTop, row: row - scroller.getBoundingClientRect().top, height: scroller.clientHeight, window: innerHeight };
    });
    assert.ok(before.top > 1000, `scrolled to the selected row (${before.top} px)`);
    assert.ok(before.row > 0 && before.row < before.height, `the selected row is in view (${JSON.stringify(before)})`);
    doc.release("end");
    await page.locator("[data-testid=operation-detail][data-operation-id=getThing140]").waitFor({ timeout: 20_000 });
    await page.locator("[data-testid=webhook-count]").waitFor();
    assert.equal(await page.locator("[data-testid=webhook-count]").textContent(), "2 webhooks");
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "150 operations");
    // The same elements: the page and the rows in view were not made again (a click on a row
    // as the document arrives is not lost).
    assert.equal(await page.locator("[data-mark=kept]").count(), 3);
    const rows = Number(await list.getAttribute("data-rows"));
    assert.ok(rows > 153, `the webhooks are listed too (${rows} rows)`);
    const after = await page.evaluate(() => {
      const scroller = document.querySelector("[data-testid=operation-scroller]");
      const row = document.querySelector("[aria-current=page]").getBoundingClientRect().top;
      return { top: scroller.scrollTop, row: row - scroller.getBoundingClientRect().top, height: scroller.clientHeight, window: innerHeight };
    });
    assert.deepEqual(after, before, "the selected row stays where it was on screen");
    // The webhooks are at the end of the list.
    await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.locator("[data-testid=operation]", { hasText: "Thing changed 1" }).waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a long list opened at its top shows its first rows while the rest of its paths downloads, then every row in place", async () => {
  // 600 operations in three tags, in turn: `group0` (declared first) has its 20 first rows
  // in the first 60 path items, long before the end of `paths`.
  const text = documentText("Half", 600, 100_000);
  const doc = hold("half.json", text, text.indexOf('"/things90/{id}"'));
  const { page, context, problems } = await openPage(browser, `${site.url}?url=${encodeURIComponent(doc.url)}`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Half", null, { timeout: 20_000 });
    const list = page.locator("[data-testid=operation-scroller]");
    const first = page.locator("[data-testid=operation]").first();
    await first.waitFor();
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "Listing operations\u2026");
    assert.equal(await list.getAttribute("data-rows"), "93", "the 90 operations read and their three tag headings");
    assert.equal(await first.getAttribute("data-operation-id"), "getThing0");
    // The document's mock waits for the rest of it, and says so.
    assert.equal(await page.locator("[data-testid=mock-loading]").textContent(), "This document's mock waits for the document to finish downloading.");
    // An operation still to come is not found yet; found once it is in.
    await page.locator("[data-testid=search]").fill("getThing597");
    await page.locator("[data-testid=search-empty]").waitFor();
    await page.locator("[data-testid=search]").fill("");
    await first.evaluate((el) => (el.dataset.mark = "kept"));
    doc.release("end");
    await page.waitForFunction(() => document.querySelector("[data-testid=op-count]")?.textContent === "600 operations", null, { timeout: 20_000 });
    await page.locator("[data-testid=mock-counts], [data-testid=mock-idle]").first().waitFor();
    assert.equal(await list.getAttribute("data-rows"), "603");
    // The first row is the same element: the rows shown first were final.
    assert.equal(await page.locator("[data-testid=operation][data-mark=kept]").getAttribute("data-operation-id"), "getThing0");
    // Every row of the first tag, in document order, then the second tag's.
    const ids = await page.evaluate(async () => {
      const scroller = document.querySelector("[data-testid=operation-scroller]");
      const seen = [];
      for (let top = 0; top < 52 * 210; top += 52 * 10) {
        scroller.scrollTop = top;
        await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
        for (const row of scroller.querySelectorAll("[data-testid=operation]")) if (!seen.includes(row.dataset.operationId)) seen.push(row.dataset.operationId);
      }
      return seen;
    });
    assert.deepEqual(ids.slice(0, 200), Array.from({ length: 200 }, (_, i) => `getThing${i * 3}`));
    assert.equal(ids[200], "getThing1");
    await page.locator("[data-testid=search]").fill("getThing597");
    await page.locator("[data-testid=operation][data-operation-id=getThing597]").waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("screenshots of a deep link waiting for the rest of its document, light and dark, desktop and phone (artifacts/)", async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  const sizes = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of Object.entries(sizes)) {
      const doc = hold(`shot-${colorScheme}-${name}.json`, documentText("Held", 30, 100_000));
      const { page, context } = await openPage(browser, `${site.url}?url=${encodeURIComponent(doc.url)}#getThing7`, { colorScheme, viewport });
      try {
        await page.locator("[data-testid=document-arriving]").waitFor({ timeout: 20_000 });
        await page.screenshot({ path: join(ARTIFACTS, `arriving-${colorScheme}-${name}.png`) });
      } finally {
        doc.release("end");
        await context.close();
      }
    }
  }
});

test("a download that stops midway is said so, and the Petstore reference is shown", async () => {
  const doc = hold("cut.json", documentText("Cut", 10, 200_000));
  const { page, context, problems } = await openPage(browser, `${site.url}?url=${encodeURIComponent(doc.url)}`);
  try {
    // Listed from what arrived; then the connection breaks.
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Cut", null, { timeout: 20_000 });
    doc.release("stop");
    const error = page.locator("[data-testid=document-error-message]");
    await error.waitFor({ timeout: 20_000 });
    assert.match(await error.textContent(), new RegExp(`^The download of ${doc.url} stopped after \\d+ bytes, before the end of the document\\.`));
    await page.locator("[data-testid=doc-title]", { hasText: "Petstore API" }).waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("[data-testid=operation]").count(), 18);
    // The browser reports the broken answer itself; nothing else went wrong.
    assert.deepEqual(problems.filter((p) => !p.includes("cut.json") && !p.includes("ERR_INCOMPLETE_CHUNKED_ENCODING")), []);
  } finally {
    await context.close();
  }
});
