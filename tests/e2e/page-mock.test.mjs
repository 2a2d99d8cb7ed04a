// The in-browser mock of a loaded document (Swagger's petstore3 YAML by ?url=): the Mock block
// counts its resources, the try-it panel sends to it by default, what is created reads back and
// survives a reload, and Reset, Export and Import work as for the Petstore. Back on the
// built-in document, the Petstore's mock is there again.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ARTIFACTS, launch, openPage, send, serveStatic } from "./harness.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
// In CI the repository is cloned with `../shared` beside it.
const PETSTORE3 = join(HERE, "../fixtures/swagger-petstore3.yaml");
const TITLE = "Swagger Petstore - OpenAPI 3.0";

let site;
let browser;

before(async () => {
  site = await serveStatic(undefined, { extra: { "/fixtures/swagger-petstore3.yaml": PETSTORE3 } });
  browser = await launch();
  await mkdir(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await site?.close();
});

async function openPetstore3(options) {
  const opened = await openPage(browser, `${site.url}?url=fixtures/swagger-petstore3.yaml`, options);
  await opened.page.waitForFunction((title) => document.querySelector("[data-testid=doc-title]")?.textContent === title, TITLE, {
    timeout: 30_000,
  });
  return opened;
}

/** The Mock block's summary once the mock is ready ("N items in M resources"). */
async function counts(page) {
  const summary = page.locator("[data-testid=mock-panel] [data-testid=mock-counts]");
  await summary.waitFor({ timeout: 30_000 });
  return summary.textContent();
}

async function goTo(page, id) {
  await page.locator(`[data-testid=operation][data-operation-id=${id}] a`).click();
  await page.locator(`[data-testid=operation-detail][data-operation-id=${id}]`).waitFor();
  await page.locator("[data-testid=try-send]").waitFor({ timeout: 30_000 });
}


/** Gives the panel an OAuth 2 token, in its "Extra headers". */
async function withToken(page) {
  const details = page.locator("details:has([data-testid=try-headers])");
  if (!(await details.evaluate((d) => d.open))) await details.locator("summary").click();
  await page.locator("[data-testid=try-headers]").fill("Authorization: Bearer a-token");
}

const body = (page) => page.locator("[data-testid=try-body-view]").textContent().then(JSON.parse);

test("a loaded document's own mock: try-it creates and reads back, a reload keeps it, Reset, Export and Import", async () => {
  const { page, context, problems } = await openPetstore3();
  try {
    assert.equal(await page.locator("[data-testid=mock-unavailable]").count(), 0);
    const empty = await counts(page);
    const resources = Number(empty.match(/^0 items in (\d+) resources?$/)?.[1]);
    assert.ok(resources >= 1, `the mock stores something: ${empty}`);

    // The try-it panel starts on the document's server and offers its mock; the choice is kept.
    await goTo(page, "addPet");
    assert.equal(await page.locator("[data-testid=try-target]").inputValue(), "server:https://petstore3.swagger.io/api/v3");
    await page.locator("[data-testid=try-target]").selectOption("mock");
    await page.locator("[data-testid=try-body]").fill(JSON.stringify({ name: "Biscuit", photoUrls: [], status: "available" }));
    // The document asks for OAuth 2 here: without a token the mock answers 401, as the API would.
    assert.equal(await send(page), "401");
    assert.match(await page.locator("[data-testid=try-error]").textContent(), /unauthorized/);
    await withToken(page);
    assert.equal(await send(page), "200");
    const created = await body(page);
    assert.equal(created.name, "Biscuit");
    assert.ok(created.id !== undefined, JSON.stringify(created));
    await page.waitForFunction(() => /^1 item in/.test(document.querySelector("[data-testid=mock-counts]")?.textContent));

    await goTo(page, "getPetById");
    assert.equal(await page.locator("[data-testid=try-target]").inputValue(), "mock");
    await withToken(page);
    await page.locator("[data-testid=try-param][data-name=petId]").fill(String(created.id));
    assert.equal(await send(page), "200");
    assert.deepEqual(await body(page), created);
    // One never created is not found, with the Error object.
    await page.locator("[data-testid=try-param][data-name=petId]").fill("987654321");
    assert.equal(await send(page), "404");
    assert.match(await page.locator("[data-testid=try-error]").textContent(), /not_found/);

    // A reload keeps the state (saved per document).
    await page.reload();
    await page.waitForFunction((title) => document.querySelector("[data-testid=doc-title]")?.textContent === title, TITLE);
    assert.match(await counts(page), /^1 item in/);
    await page.locator("[data-testid=mock-counts]").click();
    assert.match(await page.locator("[data-testid=mock-resources]").textContent(), /\/pet\s*1/);

    // Export is the snapshot; a broken file is refused and changes nothing.
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("[data-testid=mock-export]").click()]);
    assert.match(download.suggestedFilename(), /^swagger-petstore-openapi-3-0-mock-state\.json$/);
    const exported = await readFile(await download.path(), "utf8");
    assert.ok(exported.includes("Biscuit"), exported.slice(0, 300));
    const bad = join(ARTIFACTS, "bad-api-state.json");
    await writeFile(bad, '{"kind": "api-mock", "items": [');
    await page.locator("[data-testid=mock-import]").setInputFiles(bad);
    const result = page.locator("[data-testid=mock-transfer-result]");
    await result.waitFor();
    assert.match(await result.textContent(), /bad-api-state\.json was not imported, and the mock is unchanged: ./);
    assert.match(await counts(page), /^1 item in/);

    // Reset empties it (there is no demo data to go back to); Import brings the export back.
    await page.locator("[data-testid=mock-reset]").click();
    assert.equal(await page.locator("[data-testid=mock-reset-confirm]").count(), 0);
    await page.locator("[data-testid=mock-reset-empty]").click();
    await page.waitForFunction(() => /^0 items in/.test(document.querySelector("[data-testid=mock-counts]")?.textContent));
    await goTo(page, "getPetById");
    await withToken(page);
    await page.locator("[data-testid=try-param][data-name=petId]").fill(String(created.id));
    assert.equal(await send(page), "404");
    const good = join(ARTIFACTS, "api-state.json");
    await writeFile(good, exported);
    await page.locator("[data-testid=mock-import]").setInputFiles(good);
    await page.waitForFunction(() => /^Imported api-state\.json/.test(document.querySelector("[data-testid=mock-transfer-result]")?.textContent));
    assert.match(await counts(page), /^1 item in/);
    assert.equal(await send(page), "200");

    // Back to the built-in document: the Petstore's own mock and its counts.
    await page.locator("[data-testid=document-builtin]").click();
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Petstore API");
    await page.waitForFunction(() => /^\d+ pets?/.test(document.querySelector("[data-testid=mock-counts]")?.textContent));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a document's Mock block in light and dark, desktop and phone (screenshots in artifacts/)", async () => {
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const { page, context, problems } = await openPetstore3({ colorScheme, viewport });
      try {
        await counts(page);
        await page.locator("[data-testid=mock-counts]").click();
        await page.locator("[data-testid=mock-resources]").waitFor();
        await page.screenshot({ path: join(ARTIFACTS, `page-mock-${name}-${colorScheme}.png`) });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});
