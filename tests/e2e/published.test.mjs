// Publishing: sites written by the real `playground build` from the release build (dist/), served
// under a sub-path (/docs/) by a plain static server, read in headless Chromium: a description
// kept in many files (tests/fixtures/library) and one FastAPI generated (tests/fixtures/fastapi).
// Each shows its own title, tags and summaries (from other files too), no Petstore, the list
// before the WebAssembly has loaded, and a try-it round trip to its mock. A broken description
// fails the build with its file and place; `playground serve` reloads the page after an edit, and
// its page's try-it sends to the mock it serves.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile, mkdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DIST, launch, openPage, send, serveStatic } from "./harness.mjs";

const run = promisify(execFile);
const HERE = fileURLToPath(new URL(".", import.meta.url));
const REPO = join(HERE, "../..");
const LIBRARY = join(REPO, "tests/fixtures/library/openapi.yaml");
const FASTAPI = join(REPO, "tests/fixtures/fastapi/books.json");
const TARGET = process.env.CARGO_TARGET_DIR ?? join(REPO, "target");
const PLAYGROUND = join(TARGET, "debug/playground");

let browser;
let work;
let www;

/** `playground build` of `spec` into `out`, from the release build; its output and exit code. */
async function build(spec, out, extra = []) {
  try {
    const { stdout, stderr } = await run(PLAYGROUND, ["build", "--spec", spec, "--out", out, "--app", DIST, ...extra]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

before(async () => {
  // The CLI, as `cargo test --workspace` left it (built again only if something changed).
  await run("cargo", ["build", "--quiet", "--locked", "-p", "playground"], { cwd: REPO, maxBuffer: 1 << 24 });
  work = await mkdtemp(join(tmpdir(), "playground-sites-"));
  www = join(work, "www");
  await mkdir(www, { recursive: true });
  await writeFile(join(www, "index.html"), "<!doctype html><title>Home</title><p>The project's home</p>");
  for (const [spec, name] of [[LIBRARY, "library"], [FASTAPI, "bookshelf"]]) {
    const built = await build(spec, join(www, name, "docs"));
    assert.equal(built.code, 0, built.stderr);
  }
  // The FastAPI app's description with an earlier version: 1.3.0 had no /health, a shorter
  // title and an optional ISBN on the way in.
  const earlier = JSON.parse(await readFile(FASTAPI, "utf8"));
  earlier.info.version = "1.3.0";
  delete earlier.paths["/health"];
  earlier.components.schemas.BookIn.properties.title.maxLength = 100;
  earlier.components.schemas.BookIn.required = ["title"];
  await writeFile(join(work, "books-1.3.0.json"), JSON.stringify(earlier));
  const versioned = await build(FASTAPI, join(www, "versions", "docs"), ["--previous", join(work, "books-1.3.0.json")]);
  assert.equal(versioned.code, 0, versioned.stderr);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The groups of the list, in order. */
const groups = (page) => page.locator("[data-testid=group]").evaluateAll((els) => els.map((e) => e.dataset.group));


async function open(page, id) {
  await page.locator(`[data-testid=operation][data-operation-id="${id}"] a`).click();
  await page.locator(`[data-testid=operation-detail][data-operation-id="${id}"]`).waitFor({ timeout: 15_000 });
  await page.locator("[data-testid=try-send]").waitFor({ timeout: 30_000 });
}

const answerBody = (page) => page.locator("[data-testid=try-body-view]").textContent().then(JSON.parse);

test("the list is on screen before any WebAssembly: readers without it get the reference", async () => {
  const site = await serveStatic(www);
  const context = await browser.newContext();
  const page = await context.newPage();
  const wasm = [];
  // No WebAssembly at all: what shows is the build's first paint.
  await page.route("**/*.wasm", (route) => {
    wasm.push(route.request().url());
    return route.abort();
  });
  try {
    await page.goto(`${site.url}library/docs/`);
    const rows = page.locator("#prerendered [data-testid=operation]");
    await rows.first().waitFor({ timeout: 10_000 });
    assert.equal(await rows.count(), 5);
    assert.equal(await page.title(), "Library reference");
    assert.match(await page.locator("#prerendered h1").textContent(), /Library/);
    assert.equal(await page.locator("meta[property='og:title']").getAttribute("content"), "Library");
    assert.deepEqual(await groups(page), ["Books", "Shelves"]);
    const text = await page.locator("#prerendered").innerText();
    for (const summary of ["List the books", "Add a book", "Read a book", "Remove a book", "List the shelves"]) {
      assert.ok(text.includes(summary), `${summary} in ${text}`);
    }
    assert.match(text, /Books and the shelves that hold them/, "the overview");
    assert.doesNotMatch(await page.locator("body").innerText(), /petstore/i);
    assert.ok(wasm.length > 0, "the page asked for its WebAssembly, which did not come");
  } finally {
    await context.close();
    await site.close();
  }
});

test("a site's page asks for its document only after its first frame, and the app gets all of it", async () => {
  // The page's first frame is held back by a stylesheet that comes 500 ms late: the document
  // must still wait for the frame, its request and the reads of its body (the first fetch() of a
  // fresh page, and a large document's chunks, would otherwise be main-thread work between the
  // parse and the first paint).
  const site = await serveStatic(www);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__framed = false;
    requestAnimationFrame(() => { window.__framed = true; });
    window.__asked = null;
    const fetch = window.fetch;
    // The head's early request of the document is the page's first.
    window.fetch = function (...args) {
      if (window.__asked === null) window.__asked = { framed: window.__framed, url: String(args[0]) };
      return fetch.apply(this, args);
    };
    window.__reads = [];
    const read = ReadableStreamDefaultReader.prototype.read;
    ReadableStreamDefaultReader.prototype.read = function () {
      window.__reads.push(window.__framed);
      return read.call(this);
    };
  });
  await page.route("**/library/docs/", async (route) => {
    const answer = await route.fetch();
    const html = (await answer.text()).replace("</head>", '<link rel="stylesheet" href="late.css"></head>');
    await route.fulfill({ response: answer, body: html });
  });
  await page.route("**/late.css", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.fulfill({ contentType: "text/css", body: "" });
  });
  const documents = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/openapi.json")) documents.push(request.url());
  });
  try {
    await page.goto(`${site.url}library/docs/`);
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent.includes("Library"), null, { timeout: 20_000 });
    await page.locator("[data-testid=operation]").first().waitFor();
    assert.equal(documents.length, 1, `the app took the early request: ${documents}`);
    const { asked, reads } = await page.evaluate(() => ({ asked: window.__asked, reads: window.__reads }));
    assert.deepEqual(asked, { framed: true, url: `${site.url}library/docs/openapi.json` }, "the document, asked for after the first frame");
    assert.ok(reads.length > 0, "the document's body was read");
    assert.deepEqual(reads.filter((framed) => !framed), [], `reads before the first frame: ${JSON.stringify(reads)}`);
  } finally {
    await context.close();
    await site.close();
  }
});

test("before a site's first frame only the theme is read; an earlier version's keys move after it", async () => {
  const site = await serveStatic(www);
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    // What an earlier version saved, under its old names (a page of the origin without the app).
    await page.goto(`${site.url}index.html`);
    await page.evaluate(() => {
      localStorage.setItem("petstore-playground/theme", "dark");
      localStorage.setItem("petstore-playground/tryit/listPets", "{}");
    });
    await page.addInitScript(() => {
      window.__framed = false;
      window.__storage = [];
      requestAnimationFrame(() => {
        window.__framed = true;
        window.__themeAtFrame = document.documentElement.dataset.theme ?? null;
      });
      for (const name of ["getItem", "setItem", "removeItem", "key"]) {
        const method = Storage.prototype[name];
        Storage.prototype[name] = function (...args) {
          if (!window.__framed) window.__storage.push([name, ...args]);
          return method.apply(this, args);
        };
      }
      const length = Object.getOwnPropertyDescriptor(Storage.prototype, "length");
      Object.defineProperty(Storage.prototype, "length", {
        get() {
          if (!window.__framed) window.__storage.push(["length"]);
          return length.get.call(this);
        },
      });
    });
    await page.goto(`${site.url}library/docs/`);
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent.includes("Library"), null, { timeout: 20_000 });
    const seen = await page.evaluate(() => ({
      before: window.__storage,
      theme: window.__themeAtFrame,
      keys: Object.keys(localStorage).sort(),
    }));
    assert.deepEqual(seen.before, [["getItem", "playground/theme"], ["getItem", "petstore-playground/theme"]], "storage read before the first frame");
    assert.equal(seen.theme, "dark", "the earlier version's theme, applied at the first frame");
    assert.deepEqual(seen.keys.filter((key) => key.startsWith("petstore-playground/")), [], `keys left under the old names: ${seen.keys}`);
    assert.ok(seen.keys.includes("playground/tryit/listPets"), `the try-it key moved: ${seen.keys}`);
    assert.equal(await page.evaluate(() => localStorage.getItem("playground/theme")), "dark");
  } finally {
    await context.close();
    await site.close();
  }
});

test("a long list: the first screen's rows in index.html, the others filled in after the first frame, every one on a page without JavaScript", async () => {
  // 150 operations under 3 tags: 153 rows, more than the first screen's 40.
  const paths = {};
  for (let i = 0; i < 150; i++) {
    paths[`/items/${i}`] = { get: { tags: [`tag${i % 3}`], operationId: `item${i}`, summary: `Item ${i}`, responses: { 200: { description: "OK" } } } };
  }
  const spec = join(work, "long.json");
  await writeFile(spec, JSON.stringify({ openapi: "3.1.0", info: { title: "Long", version: "1" }, paths }));
  const built = await build(spec, join(www, "long", "docs"));
  assert.equal(built.code, 0, built.stderr);
  const html = await readFile(join(www, "long", "docs", "index.html"), "utf8");
  assert.equal(html.match(/data-testid="operation"/g).length, 39, "40 rows: a tag heading and 39 operations");
  const whole = await readFile(join(www, "long", "docs", "all-operations.html"), "utf8");
  assert.equal(whole.match(/data-testid="operation"/g).length, 150, "every row on the list's own page");

  const site = await serveStatic(www);
  const rows = "#prerendered [data-testid=operation]";
  const expected = [0, 1, 2].flatMap((tag) => Array.from({ length: 50 }, (_, k) => `item${3 * k + tag}`));
  try {
    // Without JavaScript: the first screen's rows, and a link to the page of every row.
    const still = await browser.newContext({ javaScriptEnabled: false });
    const page = await still.newPage();
    await page.goto(`${site.url}long/docs/`);
    assert.equal(await page.locator(rows).count(), 39);
    await page.getByRole("link", { name: "All 150 operations, on one page" }).click();
    await page.waitForURL(/all-operations\.html$/);
    assert.equal(await page.locator(rows).count(), 150);
    assert.ok(await page.locator(`${rows}[data-operation-id=item149]`).isVisible());
    await still.close();

    // With JavaScript but no WebAssembly: the rows are filled in after the first frame, in order.
    const context = await browser.newContext();
    const withScript = await context.newPage();
    await withScript.route("**/*.wasm", (route) => route.abort());
    await withScript.goto(`${site.url}long/docs/`);
    await withScript.waitForFunction((selector) => document.querySelectorAll(selector).length === 150, rows, { timeout: 10_000 });
    const ids = await withScript.locator(rows).evaluateAll((els) => els.map((e) => e.dataset.operationId));
    assert.deepEqual(ids, expected);
    // No marker or end of the page came with them.
    assert.equal(await withScript.locator("#prerendered .list-spacer > :not(.list-row)").count(), 0);
    await context.close();

    // With the app: it starts after the first paint and takes over the list.
    const { page: app, context: appContext, problems } = await openPage(browser, `${site.url}long/docs/`);
    await app.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent.trim() === "Long", null, { timeout: 20_000 });
    assert.equal(await app.locator("#prerendered").count(), 0);
    assert.deepEqual(problems, []);
    await appContext.close();
  } finally {
    await site.close();
  }
});

test("a site of a description kept in many files: its title, tags and summaries, no Petstore, and its mock", async () => {
  const site = await serveStatic(www);
  const { page, context, problems } = await openPage(browser, `${site.url}library/docs/`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent.trim() === "Library", null, {
      timeout: 20_000,
    });
    assert.equal(await page.locator("#prerendered").count(), 0, "the app took over the first paint");
    assert.deepEqual(await groups(page), ["Books", "Shelves"]);
    assert.match(await page.locator("[data-testid=operation][data-operation-id=listShelves]").textContent(), /List the shelves/);
    // No word of the Petstore in what a reader or a search engine reads.
    assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /petstore/i);
    const head = await page.evaluate(() => [...document.querySelectorAll("title, meta")].map((e) => e.outerHTML).join("\n"));
    assert.doesNotMatch(head, /petstore/i);
    // Every request stayed under the sub-path.
    const outside = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => !p.startsWith("/library/docs/")),
    );
    assert.deepEqual(outside, []);

    // Try-it to the in-browser mock: a book created, then read back in the list.
    await open(page, "addBook");
    await page.locator("[data-testid=try-body]").fill(JSON.stringify({ title: "Mort", isbn: "9780552131063", pages: 272 }));
    assert.equal(await send(page), "201");
    const created = await answerBody(page);
    assert.equal(created.title, "Mort");
    await open(page, "listBooks");
    assert.equal(await send(page), "200");
    assert.deepEqual((await answerBody(page)).map((b) => b.title), ["Mort"]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await site.close();
  }
});

test("a site's pages name their Markdown twins, which resolve under the sub-path, as llms.txt's links do", async () => {
  const site = await serveStatic(www);
  const { page, context, problems } = await openPage(browser, `${site.url}library/docs/`);
  try {
    const twin = () => page.locator("link#markdown-twin").evaluate((link) => [link.rel, link.type, link.href]);
    assert.deepEqual(await twin(), ["alternate", "text/markdown", `${site.url}library/docs/index.md`]);
    await page.locator("[data-testid=operation][data-operation-id=getBook] a").click();
    await page.waitForFunction(() => document.querySelector("link#markdown-twin").href.endsWith("/operations/getBook.md"), null, {
      timeout: 15_000,
    });
    const markdown = await page.evaluate(async () => {
      const answer = await fetch(document.querySelector("link#markdown-twin").href);
      return [answer.status, await answer.text()];
    });
    assert.equal(markdown[0], 200);
    assert.match(markdown[1], /^# Read a book/m);
    assert.ok(markdown[1].includes("GET /books/{bookId}"), markdown[1]);
    // Every link of llms.txt is relative and resolves where the site is.
    const llms = await page.evaluate(async () => (await fetch("llms.txt")).text());
    assert.match(llms, /^# Library/);
    const links = [...llms.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(links.length >= 6, llms);
    for (const link of links) {
      assert.doesNotMatch(link, /^(\/|[a-z]+:)/, `${link} is relative`);
      const status = await page.evaluate(async (href) => (await fetch(href)).status, link);
      assert.equal(status, 200, link);
    }
    await page.goto(`${site.url}library/docs/#schemas`);
    await page.waitForFunction(() => document.querySelector("link#markdown-twin").href.endsWith("/schemas/index.md"));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await site.close();
  }
});

test("a site of a FastAPI description: its title, tags and summaries, and a try-it round trip", async () => {
  const site = await serveStatic(www);
  const { page, context, problems } = await openPage(browser, `${site.url}bookshelf/docs/`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent.trim() === "Bookshelf", null, {
      timeout: 20_000,
    });
    assert.equal(await page.title(), "Bookshelf reference");
    assert.deepEqual(await groups(page), ["books", "meta"]);
    assert.match(await page.locator("[data-testid=operation][data-operation-id=create_book_books_post]").textContent(), /Create Book/);
    assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /petstore/i);

    await open(page, "create_book_books_post");
    await page.locator("[data-testid=try-body]").fill(JSON.stringify({ title: "Small Gods", isbn: "9780552138901", year: 1992 }));
    assert.equal(await send(page), "201");
    const created = await answerBody(page);
    assert.equal(created.title, "Small Gods");
    // What the description forbids is refused as FastAPI would: 422.
    await page.locator("[data-testid=try-body]").fill(JSON.stringify({ title: "No number", isbn: "12" }));
    assert.equal(await send(page), "422");
    await open(page, "read_book_books__book_id__get");
    await page.locator("[data-testid=try-param][data-name=book_id]").fill(String(created.id));
    assert.equal(await send(page), "200");
    assert.equal((await answerBody(page)).title, "Small Gods");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await site.close();
  }
});

test("a broken description fails the build with its file and place, and writes nothing", async () => {
  const dir = join(work, "broken");
  await cp(join(REPO, "tests/fixtures/library"), dir, { recursive: true });
  // A reference to a file that is not there, in a file the root refers to.
  const books = join(dir, "paths/books.yaml");
  await writeFile(books, (await readFile(books, "utf8")).replace("items: {$ref: ../schemas/Book.yaml}", "items: {$ref: ../schemas/Missing.yaml}"));
  const out = join(work, "broken-site");
  const built = await build(join(dir, "openapi.yaml"), out);
  assert.notEqual(built.code, 0);
  assert.match(built.stderr, /paths\/books\.yaml/);
  assert.match(built.stderr, /\/get\/responses\/200\/content\/application~1json\/schema\/items/);
  assert.match(built.stderr, /Missing\.yaml does not exist/);
  await assert.rejects(stat(out), "nothing is written");
});

test("playground serve reloads the page when the description changes, and shows a broken edit's error", async () => {
  const dir = join(work, "serve");
  await cp(join(REPO, "tests/fixtures/library"), dir, { recursive: true });
  const spec = join(dir, "openapi.yaml");
  const server = spawn(PLAYGROUND, ["serve", "--spec", spec, "--app", DIST, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (chunk) => (stderr += chunk));
  try {
    const url = await new Promise((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (chunk) => {
        out += chunk;
        const found = out.match(/serving (http:\/\/\S+)/);
        if (found) resolve(found[1]);
      });
      server.on("exit", (code) => reject(new Error(`playground serve exited (${code}): ${stderr}`)));
    });
    const { page, context } = await openPage(browser, url);
    try {
      const title = (text) =>
        page.waitForFunction((t) => document.querySelector("[data-testid=doc-title]")?.textContent.trim() === t, text, { timeout: 20_000 });
      await title("Library");
      // The page's try-it sends to the served mock, so what it creates is there for curl and
      // an app under development too.
      await open(page, "addBook");
      await page.locator("[data-testid=try-body]").fill(JSON.stringify({ title: "Eric", isbn: "9780575046368", pages: 160 }));
      assert.equal(await send(page), "201");
      const books = await (await fetch(`${url}mock/books`)).json();
      assert.deepEqual(books.map((b) => b.title), ["Eric"]);
      const text = await readFile(spec, "utf8");
      await writeFile(spec, text.replace("title: Library", "title: Lending Library"));
      await title("Lending Library");
      // A broken edit: the page says why, and keeps what it shows.
      await writeFile(spec, text.replace("paths:", "paths: [broken"));
      const banner = page.locator("[role=alert]", { hasText: "openapi.yaml" });
      await banner.waitFor({ timeout: 10_000 });
      assert.equal((await page.locator("[data-testid=doc-title]").textContent()).trim(), "Lending Library");
      await writeFile(spec, text);
      await title("Library");
    } finally {
      await context.close();
    }
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.on("exit", resolve)));
  }
});

/** The text a mark's style puts after `selector`'s element ("none" for no mark). */
const mark = (page, selector) =>
  page.locator(selector).first().evaluate((el) => getComputedStyle(el, "::after").content);

test("a versioned site: the switcher, the marks, the earlier version's own app and banner, the Changes page's links", async () => {
  const site = await serveStatic(www);
  const { page, context, problems } = await openPage(browser, `${site.url}versions/docs/`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent.trim() === "Bookshelf", null, {
      timeout: 20_000,
    });
    // The switcher and the marks stay once the app has taken over the first paint.
    assert.equal(await page.locator("#prerendered").count(), 0);
    assert.equal((await page.locator(".site-versions summary").textContent()).trim(), "Version 1.4.0");
    const row = (id) => `[data-testid=operation][data-operation-id="${id}"] .summary`;
    assert.equal(await mark(page, row("health_health_get")), '"New in 1.4.0"');
    assert.equal(await mark(page, row("create_book_books_post")), '"Breaking change in 1.4.0"');
    assert.equal(await mark(page, row("list_books_books_get")), "none", "an operation that did not change has no mark");

    // The earlier version, from the switcher: its own page, app and document, and the banner.
    // (The modules loaded after the first paint are let finish, so that leaving aborts none.)
    await page.waitForLoadState("networkidle");
    await page.locator(".site-versions summary").click();
    await page.locator(".site-versions a", { hasText: "1.3.0" }).click();
    await page.waitForURL(/\/versions\/docs\/v\/1\.3\.0\/$/);
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent.trim() === "Bookshelf", null, {
      timeout: 20_000,
    });
    assert.match(await page.locator(".version-banner").innerText(), /You are reading version 1\.3\.0\. Version 1\.4\.0 is the newest\./);
    assert.equal(await page.locator("[data-testid=operation][data-operation-id=health_health_get]").count(), 0);
    const outside = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => !p.startsWith("/versions/docs/v/1.3.0/")),
    );
    assert.deepEqual(outside, [], "the earlier version loads its own app and document");
    await page.waitForLoadState("networkidle");
    await page.locator(".version-banner a").click();
    await page.waitForURL(/\/versions\/docs\/$/);
    await page.waitForLoadState("networkidle");

    // The Changes page: breaking first, and a change's link opens its operation, marked.
    await page.goto(`${site.url}versions/docs/changes/`);
    const headings = await page.locator("main h2").allInnerTexts();
    assert.match(headings[0], /^Breaking changes/);
    await page.locator("main h3 a", { hasText: "/books" }).first().click();
    const detail = page.locator('[data-testid=operation-detail][data-operation-id="create_book_books_post"]');
    await detail.waitFor({ timeout: 20_000 });
    assert.equal(await mark(page, '[data-testid=operation-detail][data-operation-id="create_book_books_post"] .detail-header'), '"Breaking change in 1.4.0"');

    // The newest version's own folder sends the reader to the top, to the same operation.
    await page.waitForLoadState("networkidle");
    await page.goto(`${site.url}versions/docs/v/1.4.0/#read_book_books__book_id__get`);
    await page.waitForURL(/\/versions\/docs\/#read_book_books__book_id__get$/);
    await page.locator('[data-testid=operation-detail][data-operation-id="read_book_books__book_id__get"]').waitFor({ timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await site.close();
  }
});
