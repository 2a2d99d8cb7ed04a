// The mock in the browser, end to end against the release build: the example page
// (dist/mock-example.html) whose plain fetch("/api/...") calls the mock answers, and the app's
// Mock block. One behaviour per test; each test has its own browser context (its own storage).
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

const exampleUrl = () => new URL("mock-example.html", site.url).href;

/** Waits until the example page is wired (it sets data-ready once its first list is shown). */
async function exampleReady(page) {
  await page.locator("body[data-ready=true]").waitFor({ timeout: 15_000 });
}

const petNames = (page) => page.locator("[data-testid=pet-name]").allTextContents();

async function addPet(page, name) {
  await page.locator("[data-testid=new-pet-name]").fill(name);
  await page.locator("[data-testid=pet-create]").click();
  await page.locator("[data-testid=status]", { hasText: `Created ${name}` }).waitFor();
}

test("the example page answers fetch('/api/pets') from the mock, and a created pet survives a reload", async () => {
  const { page, context, problems } = await openPage(browser, exampleUrl());
  try {
    await exampleReady(page);
    const seeded = await petNames(page);
    assert.ok(seeded.length > 0, "the demo data is listed");
    assert.equal(await page.locator("[data-testid=pet-total]").textContent(), `(${seeded.length})`);
    assert.ok((await page.locator("[data-testid=new-pet-category] option").count()) > 0, "categories are loaded");

    await addPet(page, "Rex the e2e dog");
    assert.match(await page.locator("[data-testid=status]").textContent(), /\(201, Location: \/pets\/\d+\)/);
    assert.ok((await petNames(page)).includes("Rex the e2e dog"));

    await page.reload();
    await exampleReady(page);
    assert.ok((await petNames(page)).includes("Rex the e2e dog"), "the pet is still there after a reload");
    assert.equal((await petNames(page)).length, seeded.length + 1);
    assert.equal(await page.locator("[data-testid=mock-notice]").count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the example page's fetch: the mock's real Response objects, errors, and pass-through outside /api", async () => {
  const { page, context, problems } = await openPage(browser, exampleUrl());
  try {
    await exampleReady(page);
    const result = await page.evaluate(async () => {
      const invalid = await fetch("/api/pets", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "", categoryId: 1 }),
      });
      const outside = await fetch("./mock-example.html");
      return {
        isResponse: invalid instanceof Response,
        status: invalid.status,
        code: (await invalid.json()).code,
        outsideStatus: outside.status,
        outsideType: outside.headers.get("Content-Type"),
      };
    });
    assert.deepEqual(result, {
      isResponse: true,
      status: 422,
      code: "validation_failed",
      outsideStatus: 200,
      outsideType: "text/html; charset=utf-8",
    });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("two tabs of the example page stay consistent: each sees the other's new pet without reloading", async () => {
  const { page: first, context, problems } = await openPage(browser, exampleUrl());
  try {
    await exampleReady(first);
    const second = await context.newPage();
    second.on("pageerror", (err) => problems.push(`second tab: ${err.message}`));
    await second.goto(exampleUrl());
    await exampleReady(second);

    await addPet(first, "From the first tab");
    await second.locator("[data-testid=pet-name]", { hasText: "From the first tab" }).waitFor();

    await addPet(second, "From the second tab");
    await first.locator("[data-testid=pet-name]", { hasText: "From the second tab" }).waitFor();

    const [a, b] = [await petNames(first), await petNames(second)];
    assert.deepEqual(a, b);
    assert.ok(a.includes("From the first tab") && a.includes("From the second tab"));
    // The second tab's write was made on top of the first tab's: nothing was lost, nothing to report.
    assert.equal(await first.locator("[data-testid=mock-notice]").count(), 0);
    assert.equal(await second.locator("[data-testid=mock-notice]").count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the list does not move when the mock is ready: the Mock block keeps its size while it starts", async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // The mock's WebAssembly is held back until the list has been measured.
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route("**/mock/petstore_mock_bg.wasm", async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(site.url);
      await page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
      await page.locator("[data-testid=mock-loading]").waitFor();
      // At phone width the overview is above the list: its descriptions change height when the
      // Markdown module renders them (loaded after the first paint too), which is not the Mock
      // block's doing.
      await page.waitForFunction(() => !document.querySelector("[data-markdown]"), null, { timeout: 15_000 });
      const top = () => page.locator("[data-testid=operation][data-operation-id=createPet]").evaluate((e) => e.getBoundingClientRect().top);
      const before = await top();
      release();
      await page.locator("[data-testid=mock-counts]").waitFor({ timeout: 15_000 });
      assert.equal(await top(), before, `at ${viewport.width}px the list moved when the mock was ready`);
    } finally {
      release();
      await context.close();
    }
  }
});

test("the app's Mock block shows the counts and resets after a confirmation", async () => {
  const { page, context, problems } = await openPage(browser, site.url);
  try {
    const counts = page.locator("[data-testid=mock-counts]");
    await counts.waitFor({ timeout: 15_000 });
    const seeded = await counts.textContent();
    assert.match(seeded, /\d+ pets/);
    assert.match(seeded, /\d+ categories/);

    // A change saved by another tab of the app (same key) shows up in the counts.
    const other = await context.newPage();
    await other.goto(site.url);
    await other.locator("[data-testid=mock-counts]").waitFor({ timeout: 15_000 });
    await other.locator("[data-testid=mock-reset]").click();
    await other.locator("[data-testid=mock-reset-cancel]").click();
    assert.equal(await other.locator("[data-testid=mock-reset-confirm]").count(), 0, "cancel closes it");
    await other.locator("[data-testid=mock-reset]").click();
    await other.locator("[data-testid=mock-reset-empty]").click();
    await counts.filter({ hasText: "0 pets" }).waitFor();
    assert.match(await counts.textContent(), /0 categories/);

    await page.locator("[data-testid=mock-reset]").click();
    await page.locator("[data-testid=mock-reset-confirm]").click();
    await counts.filter({ hasText: seeded }).waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("what an earlier version saved under petstore-playground/ is read and moved: the mock's state and the theme", async () => {
  const { page, context, problems } = await openPage(browser, site.url);
  try {
    const counts = page.locator("[data-testid=mock-counts]");
    await counts.waitFor({ timeout: 15_000 });
    // A state that differs from the seeded one: empty.
    await page.locator("[data-testid=mock-reset]").click();
    await page.locator("[data-testid=mock-reset-empty]").click();
    await counts.filter({ hasText: "0 pets" }).waitFor();
    // The storage as the earlier version left it: every key under its old prefix.
    const moved = await page.evaluate(() => {
      const keys = Object.keys(localStorage).filter((key) => key.startsWith("playground/"));
      for (const key of keys) {
        localStorage.setItem(`petstore-${key}`, localStorage.getItem(key));
        localStorage.removeItem(key);
      }
      localStorage.setItem("petstore-playground/theme", "dark");
      return keys.length;
    });
    assert.ok(moved >= 2, `the mock's state is a header and a base at least (${moved} keys)`);
    await page.reload();
    await counts.waitFor({ timeout: 15_000 });
    assert.match(await counts.textContent(), /\b0 pets/, "the state saved under the old key is the mock's");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    const left = await page.evaluate(() => ({
      old: Object.keys(localStorage).filter((key) => key.startsWith("petstore-playground/")),
      theme: localStorage.getItem("playground/theme"),
      mock: localStorage.getItem("playground/mock/v1") !== null,
    }));
    assert.deepEqual(left, { old: [], theme: "dark", mock: true });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the app starts fresh from unreadable saved data and says so", async () => {
  const { page, context, problems } = await openPage(browser, site.url);
  try {
    await page.locator("[data-testid=mock-counts]").waitFor({ timeout: 15_000 });
    await page.evaluate(() => localStorage.setItem("playground/mock/v1", "{not json"));
    await page.reload();
    const notice = page.locator("[data-testid=mock-notice]");
    await notice.waitFor({ timeout: 15_000 });
    assert.match(await notice.textContent(), /could not be read, so the mock started fresh/);
    assert.equal(await notice.getAttribute("data-kind"), "started-fresh");
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "mock-notice-light-desktop.png") });

    await page.locator("[data-testid=mock-notice-dismiss]").click();
    assert.equal(await notice.count(), 0);
    await page.reload();
    await page.locator("[data-testid=mock-counts]").waitFor({ timeout: 15_000 });
    assert.equal(await notice.count(), 0, "the unreadable value was replaced");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the example page in light and dark, desktop and phone (screenshots in artifacts/)", async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  const sizes = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of Object.entries(sizes)) {
      const { page, context, problems } = await openPage(browser, exampleUrl(), { colorScheme, viewport });
      try {
        await exampleReady(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${name}: the page scrolls sideways by ${overflow}px`);
        await page.screenshot({ path: join(ARTIFACTS, `mock-example-${colorScheme}-${name}.png`), fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});
