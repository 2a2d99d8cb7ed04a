// The first try works: every operation of two real descriptions (a FastAPI app's, OpenAPI 3.1,
// and BBC's, 3.0 with 30 operations) sent to the in-browser mock exactly as the try-it panel
// prefills it (body and parameters from the document's examples where they fit, else from the
// mock's generator): the description's own checks refuse none of them.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch, openPage, send, serveStatic } from "./harness.mjs";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const DESCRIPTIONS = {
  "books.json": join(ROOT, "tests/fixtures/fastapi/books.json"),
  "bbci.json": join(ROOT, "crates/mock/tests/fixtures/public/bbci.co.uk.json"),
};

let site;
let browser;

before(async () => {
  site = await serveStatic(undefined, {
    extra: Object.fromEntries(Object.entries(DESCRIPTIONS).map(([name, file]) => [`/fixtures/first-try/${name}`, file])),
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

/** The operationIds of a description, in document order. */
async function operationIds(file) {
  const doc = JSON.parse(await readFile(file, "utf8"));
  const methods = ["get", "put", "post", "delete", "patch", "head", "options"];
  return Object.values(doc.paths).flatMap((item) => methods.filter((m) => item[m]).map((m) => item[m].operationId));
}

for (const [name, file] of Object.entries(DESCRIPTIONS)) {
  test(`${name}: every operation's prefilled request passes the description's checks in the in-browser mock`, async () => {
    const ids = await operationIds(file);
    const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/first-try/${name}`);
    try {
      await page.locator("[data-testid=operation]").first().waitFor({ timeout: 30_000 });
      const refused = [];
      const statuses = new Set();
      for (const id of ids) {
        await page.evaluate((hash) => {
          location.hash = hash;
        }, id);
        await page.locator(`[data-testid=operation-detail][data-operation-id="${id}"]`).waitFor();
        const target = page.locator("[data-testid=try-target]");
        await target.waitFor();
        if ((await target.inputValue()) !== "mock") await target.selectOption("mock");
        const status = await send(page);
        statuses.add(status);
        if (["400", "415", "422"].includes(status)) {
          const why = await page.locator("[data-testid=try-result]").textContent();
          refused.push(`${id}: ${status} ${why.slice(0, 300)}`);
        }
      }
      assert.deepEqual(refused, [], `${refused.length} of ${ids.length} refused`);
      assert.ok(ids.length >= 5, `${ids.length} operations`);
      // Answers, not only refusals avoided: creates and reads reach the mock's resources.
      assert.ok([...statuses].some((s) => s.startsWith("2")), [...statuses].join(", "));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test("a FastAPI description's create operation in light and dark, desktop and phone (screenshots in artifacts/)", async () => {
  const { mkdir } = await import("node:fs/promises");
  const { ARTIFACTS } = await import("./harness.mjs");
  await mkdir(ARTIFACTS, { recursive: true });
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/first-try/books.json#create_book_books_post`, {
        colorScheme,
        viewport,
      });
      try {
        await page.locator('[data-testid=operation-detail][data-operation-id="create_book_books_post"]').waitFor({ timeout: 30_000 });
        const body = page.locator("[data-testid=try-body]");
        await body.waitFor();
        // The prefilled body fits the schema: an ISBN-13 from the pattern, no id.
        const prefilled = JSON.parse(await body.inputValue());
        assert.match(prefilled.isbn, /^97[89][0-9]{10}$/);
        assert.equal(prefilled.id, undefined);
        // The reference's Example blocks are the generator's too: the request's is the body the
        // panel starts with, and the 201's Book has its id and an ISBN, not "string".
        const example = page.locator('pre[data-example="request"]');
        await page.locator('pre[data-example="request"][data-example-filled]').waitFor();
        assert.deepEqual(JSON.parse(await example.textContent()), prefilled);
        const created = JSON.parse(await page.locator('pre[data-example="response/0/0"]').textContent());
        assert.match(created.isbn, /^97[89][0-9]{10}$/);
        assert.equal(typeof created.id, "number");
        await page.locator('[data-testid=response][data-status="201"] summary').click();
        await page.screenshot({ path: join(ARTIFACTS, `first-try-fastapi-${colorScheme}-${name}.png`), fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});
