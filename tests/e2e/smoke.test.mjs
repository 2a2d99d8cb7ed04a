// Smoke test of the release build: it loads in a real browser and shows the operation list.
// Only a release build (wasm-opt applied) loaded in Chromium catches a broken optimiser.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ARTIFACTS, launch, openPage, serveStatic } from "./harness.mjs";

let site;
let browser;

before(async () => {
  site = await serveStatic();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

test("the release build shows the grouped operation list with no console errors", async () => {
  const { page, context, problems } = await openPage(browser, site.url);
  try {
    await page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("[data-testid=doc-title]").textContent(), "Petstore API");
    assert.equal(await page.locator("[data-testid=doc-version]").textContent(), "v1.0.0");
    assert.deepEqual(await page.locator("[data-testid=group]").evaluateAll((els) => els.map((e) => e.dataset.group)), [
      "Pets",
      "Store",
    ]);
    assert.deepEqual(await page.locator("[data-testid=tag]").evaluateAll((els) => els.map((e) => e.dataset.tag)), [
      "Animals",
      "Categories",
      "Orders",
      "Inventory",
    ]);
    assert.equal(await page.locator("[data-testid=operation]").count(), 18);
    assert.equal(await page.locator("[data-operation-id=getPet] [data-testid=badge-deprecated]").count(), 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("light and dark, desktop and phone: the list renders in each (screenshots in artifacts/)", async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  const sizes = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of Object.entries(sizes)) {
      const { page, context, problems } = await openPage(browser, site.url, { colorScheme, viewport });
      try {
        await page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(background, colorScheme === "dark" ? "rgb(17, 21, 28)" : "rgb(255, 255, 255)");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${name}: the page scrolls sideways by ${overflow}px`);
        await page.screenshot({ path: join(ARTIFACTS, `reference-${colorScheme}-${name}.png`), fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});

test("a deep link opens its operation; following links and going back and forward work", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}#getPet`);
  try {
    const detail = page.locator("[data-testid=operation-detail]");
    await detail.waitFor({ timeout: 15_000 });
    assert.equal(await detail.getAttribute("data-operation-id"), "getPet");
    assert.equal(
      await page.locator("[data-testid=deprecation-warning]").textContent(),
      "This operation is deprecated and will be sunset on 2027-06-30.",
    );
    await page.locator("[data-operation-id=createPet] a").click();
    await page.waitForFunction(() => document.querySelector("[data-testid=operation-detail]")?.dataset.operationId === "createPet");
    assert.equal(new URL(page.url()).hash, "#createPet");
    await page.goBack();
    await page.waitForFunction(() => document.querySelector("[data-testid=operation-detail]")?.dataset.operationId === "getPet");
    await page.goForward();
    await page.waitForFunction(() => document.querySelector("[data-testid=operation-detail]")?.dataset.operationId === "createPet");
    await mkdir(ARTIFACTS, { recursive: true });
    for (const colorScheme of ["light", "dark"]) {
      for (const [name, viewport] of Object.entries({ desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } })) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize(viewport);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${name}: the operation page scrolls sideways by ${overflow}px`);
        await page.screenshot({ path: join(ARTIFACTS, `operation-${colorScheme}-${name}.png`), fullPage: true });
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
