// A real server's answers checked against the description in the page, and kept in the
// in-browser mock: a loopback API that answers partly unlike its description (a wrong type, a
// missing required field, an undocumented status, a wrong media type) next to answers that
// match; each mismatch is named under its answer and marked in Recent, "Keep in the mock" and
// the Record switch store real items, which the mock then serves, also after a reload.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ARTIFACTS, launch, openPage, send, serveStatic } from "./harness.mjs";

/** The description of the loopback API, its server at `origin`. */
function description(origin) {
  const book = { $ref: "#/components/schemas/Book" };
  const json = (schema) => ({ "application/json": { schema } });
  const id = { name: "book_id", in: "path", required: true, schema: { type: "integer" } };
  return {
    openapi: "3.1.0",
    info: { title: "Drifting books", version: "1.0.0" },
    servers: [{ url: origin }],
    paths: {
      "/books": {
        get: { operationId: "listBooks", responses: { 200: { description: "The books", content: json({ type: "array", items: book }) } } },
        post: {
          operationId: "createBook",
          requestBody: { required: true, content: json(book) },
          responses: { 201: { description: "Created", content: json(book) } },
        },
      },
      "/books/{book_id}": {
        get: {
          operationId: "getBook",
          parameters: [id],
          responses: { 200: { description: "The book", content: json(book) }, 404: { description: "No such book" } },
        },
      },
    },
    components: {
      schemas: {
        Book: {
          type: "object",
          required: ["id", "title"],
          properties: { id: { type: "integer" }, title: { type: "string" } },
        },
      },
    },
  };
}

/** What the API answers: partly unlike its description. */
const ANSWERS = {
  "/books": [200, "application/json", [{ id: "7", title: "Dune" }]],
  "/books/1": [200, "application/json", { id: 1 }],
  "/books/2": [418, "application/json", { teapot: true }],
  "/books/3": [200, "text/plain", "a book"],
  "/books/4": [200, "application/json", { id: 4, title: "Solaris" }],
  "/books/5": [200, "application/json", { id: 5, title: "Ubik" }],
};

let api;
let site;
let browser;

before(async () => {
  api = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (path === "/openapi.json") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(description(api.origin)));
      return;
    }
    const answer = ANSWERS[path];
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    const [status, type, body] = answer;
    res.writeHead(status, { "Content-Type": type }).end(typeof body === "string" ? body : JSON.stringify(body));
  });
  await new Promise((done) => api.listen(0, "127.0.0.1", done));
  api.origin = `http://127.0.0.1:${api.address().port}`;
  site = await serveStatic();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await new Promise((done) => (api ? api.close(done) : done()));
});

/** Opens `operation` of the loopback API's reference. */
async function open(page, operation) {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, operation);
  await page.locator(`[data-testid=operation-detail][data-operation-id="${operation}"] [data-testid=try-send]`).waitFor({ timeout: 30_000 });
}

/** Sends the open operation to the API with `book_id` (when given); the drift note shown. */
async function sendFor(page, bookId) {
  if (bookId !== undefined) await page.locator("[data-testid=try-param][data-name=book_id]").fill(String(bookId));
  const status = await send(page);
  // The check shows "Checking the answer…" (data-state="pending") until its module has run: wait
  // for its verdict.
  const drift = page.locator("[data-testid=try-result] [data-testid=try-drift]:not([data-state=pending])");
  await drift.waitFor();
  return { status, state: await drift.getAttribute("data-state"), text: (await drift.textContent()).replace(/\s+/g, " ") };
}

test("a real server's answers are checked against the description: each mismatch named, Recent marks them", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=${encodeURIComponent(`${api.origin}/openapi.json`)}`);
  try {
    await open(page, "listBooks");
    assert.equal(await page.locator("[data-testid=try-target]").inputValue(), `server:${api.origin}`);
    const listed = await sendFor(page);
    assert.equal(listed.state, "mismatches");
    assert.match(listed.text, /\/0\/id: .*integer/);

    await open(page, "getBook");
    const missing = await sendFor(page, 1);
    assert.equal(missing.state, "mismatches");
    assert.match(missing.text, /title/);
    const teapot = await sendFor(page, 2);
    assert.equal(teapot.status, "418");
    assert.match(teapot.text, /418 is not documented/);
    const text = await sendFor(page, 3);
    assert.equal(text.state, "mismatches");
    assert.match(text.text, /text\/plain/);
    const good = await sendFor(page, 4);
    assert.equal(good.state, "matches");
    assert.match(good.text, /matches the description/);
    // Recent: the answers that did not match say so.
    const rows = await page.locator("[data-testid=try-history] li").allTextContents();
    assert.equal(rows.length, 4);
    assert.equal(rows.filter((row) => /≠ \d+ mismatch/.test(row)).length, 3, rows.join("\n"));
    // The 418 and the 404s of other requests are the API's own answers.
    assert.deepEqual(problems.filter((p) => !/418/.test(p)), []);
  } finally {
    await context.close();
  }
});

test("Keep in the mock and the Record switch store real answers, which the mock serves after a reload", async () => {
  const { page, context } = await openPage(browser, `${site.url}?url=${encodeURIComponent(`${api.origin}/openapi.json`)}`);
  try {
    await open(page, "getBook");
    await sendFor(page, 4);
    await page.locator("[data-testid=try-result] [data-testid=try-keep]").click();
    assert.match(await page.locator("[data-testid=try-kept]").textContent(), /1 item stored/);

    // The Record switch: every answer of the server is kept.
    await page.locator("[data-testid=try-record] input").check();
    await sendFor(page, 5);
    assert.match(await page.locator("[data-testid=try-result] [data-testid=try-kept]").textContent(), /1 item stored/);
    await page.locator("[data-testid=try-record] input").uncheck();

    if (process.env.SCREENSHOTS !== "0") {
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, "drift-kept-light-desktop.png"), fullPage: true });
    }

    // Served by the in-browser mock, and still after a reload (it is saved in this browser).
    for (const reload of [false, true]) {
      if (reload) await page.reload();
      await open(page, "getBook");
      await page.locator("[data-testid=try-target]").selectOption("mock");
      await page.locator("[data-testid=try-param][data-name=book_id]").fill("5");
      assert.equal(await send(page), "200");
      const body = JSON.parse(await page.locator("[data-testid=try-result] [data-testid=try-body-view]").textContent());
      assert.deepEqual(body, { id: 5, title: "Ubik" });
      // The mock's own answers are not checked.
      assert.equal(await page.locator("[data-testid=try-result] [data-testid=try-drift]").count(), 0);
    }
  } finally {
    await context.close();
  }
});

test("a mismatch under an answer, light and dark, desktop and phone (screenshots in artifacts/)", async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const { page, context } = await openPage(browser, `${site.url}?url=${encodeURIComponent(`${api.origin}/openapi.json`)}`, { colorScheme, viewport });
      try {
        await open(page, "listBooks");
        const listed = await sendFor(page);
        assert.equal(listed.state, "mismatches");
        await page.locator("[data-testid=try-result]").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(ARTIFACTS, `drift-${colorScheme}-${name}.png`) });
      } finally {
        await context.close();
      }
    }
  }
});
