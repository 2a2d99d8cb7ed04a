// Authorize once: the header's Authorize button opens one dialog with every security scheme of
// the document (the try-it module's cards, loaded when it opens); what is entered there is
// what the next Send of any operation uses, and the operation list's padlocks say which
// operations need credentials and which have them. Against the test API of auth.test.mjs
// (tests/e2e/auth-server.mjs), with screenshots in light and dark, desktop and phone, and
// axe-core on the open dialog.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { ARTIFACTS, launch, openPage, serveStatic } from "./harness.mjs";
import { CREDENTIALS, authApiDocument, startAuthServer } from "./auth-server.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const SCHEMES = ["apiKeyHeader", "apiKeyQuery", "apiKeyCookie", "basicAuth", "bearerAuth", "oauth", "oidc"];

let api;
let site;
let browser;

before(async () => {
  api = await startAuthServer();
  const extra = {
    "/auth-api.json": { type: "application/json", body: JSON.stringify(authApiDocument(api.origin)) },
    "/plain-api.json": {
      type: "application/json",
      body: JSON.stringify({
        openapi: "3.0.3",
        info: { title: "Plain", version: "1" },
        paths: { "/ping": { get: { operationId: "ping", responses: { 200: { description: "ok" } } } } },
      }),
    },
  };
  site = await serveStatic(undefined, { extra });
  browser = await launch();
  await mkdir(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
});

async function open(document = "auth-api.json", options = {}) {
  const opened = await openPage(browser, new URL(`?url=${document}`, site.url).href, options);
  await opened.page.locator("[data-testid=operation-list] [data-testid=operation]").first().waitFor();
  return opened;
}

const row = (page, id) => page.locator(`[data-testid=operation][data-operation-id=${id}]`);
const dialog = (page) => page.locator("[data-testid=authorize-dialog]");

/** The access a row is marked with, and the words of its padlock. */
async function lockOf(page, id) {
  const words = row(page, id).locator("[data-testid=op-lock] .visually-hidden");
  return [await row(page, id).getAttribute("data-access"), (await words.count()) ? await words.textContent() : ""];
}

async function openDialog(page) {
  await page.locator("[data-testid=authorize-button]").click();
  await dialog(page).locator("[data-testid=auth-scheme]").first().waitFor();
}

test("the list marks what needs credentials; the dialog fills them for every panel; Escape gives focus back", async () => {
  const { page, context, problems } = await open();
  try {
    await page.locator("[data-testid=operation][data-access]").first().waitFor();
    assert.deepEqual(await lockOf(page, "apiKeyHeader"), ["needs", "needs credentials"]);
    assert.deepEqual(await lockOf(page, "either"), ["needs", "needs credentials"]);
    assert.deepEqual(await lockOf(page, "ping"), ["open", ""], "no security: no padlock");
    assert.deepEqual(await lockOf(page, "oauthToken"), ["open", ""], "an empty alternative: may go without");
    // The link's name says it, for a screen reader.
    assert.match(await row(page, "apiKeyHeader").locator("a").textContent(), /needs credentials/);

    await openDialog(page);
    assert.equal(await dialog(page).evaluate((d) => d.open), true);
    assert.equal(await page.getByRole("dialog", { name: "Authorize" }).count(), 1, "a dialog named by its heading");
    const schemes = await dialog(page).locator("[data-testid=auth-scheme]").evaluateAll((cards) => cards.map((c) => c.dataset.scheme));
    assert.deepEqual(schemes, SCHEMES, "every scheme of the document, in its order");

    await dialog(page).locator("[data-scheme=apiKeyHeader] [data-part=key]").fill(CREDENTIALS.apiKey);
    await page.locator("[data-testid=operation][data-operation-id=apiKeyHeader][data-access=filled]").waitFor();
    assert.deepEqual(await lockOf(page, "apiKeyHeader"), ["filled", "credentials filled"]);
    assert.deepEqual(await lockOf(page, "either"), ["filled", "credentials filled"], "one way in is enough");
    assert.deepEqual(await lockOf(page, "both"), ["needs", "needs credentials"], "a way in needs all its schemes");

    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !document.querySelector("[data-testid=authorize-dialog]").open);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "authorize-button");

    // The panel of an operation sends what the dialog filled in.
    await page.evaluate(() => (location.hash = "apiKeyHeader"));
    const panel = page.locator("[data-testid=operation-detail][data-operation-id=apiKeyHeader]");
    await panel.locator("[data-testid=try-auth-status]", { hasText: "Sends apiKeyHeader." }).waitFor();
    await panel.locator("[data-testid=try-send]").click();
    const answer = panel.locator("[data-testid=try-answer]");
    await answer.waitFor({ timeout: 20_000 });
    assert.equal(await answer.getAttribute("data-status"), "200", await answer.textContent());
    const sent = [...api.log].reverse().find((r) => r.method === "GET" && r.path === "/apikey/header");
    assert.equal(sent?.headers?.["x-api-key"], CREDENTIALS.apiKey);

    // What a panel types shows in the dialog (and the list).
    await panel.locator("[data-scheme=apiKeyHeader] [data-part=key]").fill("");
    await page.locator("[data-testid=operation][data-operation-id=apiKeyHeader][data-access=needs]").waitFor();
    await openDialog(page);
    assert.equal(await dialog(page).locator("[data-scheme=apiKeyHeader] [data-part=key]").inputValue(), "");
    await dialog(page).locator("[data-testid=authorize-close]").click();
    await page.waitForFunction(() => !document.querySelector("[data-testid=authorize-dialog]").open);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a document without security schemes has no Authorize button", async () => {
  const { page, context, problems } = await open("plain-api.json");
  try {
    await page.locator("[data-testid=doc-title]", { hasText: "Plain" }).waitFor();
    assert.equal(await page.locator("[data-testid=authorize-button]").count(), 0);
    assert.deepEqual(await lockOf(page, "ping"), ["open", ""]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const colorScheme of ["light", "dark"]) {
  test(`the dialog and the padlocks in ${colorScheme}, desktop and phone: axe-core, no sideways scrolling, screenshots`, async () => {
    for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const { page, context, problems } = await open("auth-api.json", { colorScheme, viewport });
      try {
        await page.locator("[data-testid=operation][data-access]").first().waitFor();
        await openDialog(page);
        await dialog(page).locator("[data-scheme=bearerAuth] [data-part=token]").fill(CREDENTIALS.staticToken);
        await page.locator("[data-testid=operation][data-operation-id=bearerWhoami][data-access=filled]").waitFor();
        await page.addScriptTag({ path: AXE });
        const results = await page.evaluate(async () =>
          await window.axe.run(document.querySelector("[data-testid=authorize-dialog]"), { resultTypes: ["violations"] }));
        const bad = results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
        assert.deepEqual(bad, [], `axe violations in the dialog at ${name} width`);
        const box = await dialog(page).boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= viewport.width + 1, `the dialog fits the ${name} width: ${JSON.stringify(box)}`);
        await page.screenshot({ path: join(ARTIFACTS, `authorize-dialog-${colorScheme}-${name}.png`) });
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => !document.querySelector("[data-testid=authorize-dialog]").open);
        const list = page.locator("[data-testid=operation-list]");
        await list.scrollIntoViewIfNeeded();
        await list.screenshot({ path: join(ARTIFACTS, `authorize-list-${colorScheme}-${name}.png`) });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });
}
