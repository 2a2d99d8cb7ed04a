// Other OpenAPI documents: Swagger's petstore3 (YAML) by ?url=, pasted and as a file; GitHub's
// REST description (13 MB, ~1,200 operations) by ?url= in the virtual list; broken documents
// keep the Petstore reference. Fixtures are served by the test's own 127.0.0.1 server.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ARTIFACTS, launch, openPage, serveStatic } from "./harness.mjs";
// The bench's record of every WebAssembly memory a page starts (`globalThis.__benchWasmMemories`).
import { WASM_TRACKER } from "../../bench/lib/load.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const REPO = join(HERE, "../..");
// In CI the repository is cloned with `../shared` beside it.
const PETSTORE3 = join(REPO, "tests/fixtures/swagger-petstore3.yaml");
const GITHUB = join(HERE, "node_modules/@octokit/openapi/generated/api.github.com.json");
// A description kept in many files (the server's and the CLI's tests read it too).
const LIBRARY = join(REPO, "tests/fixtures/library");
const LIBRARY_FILES = [
  "openapi.yaml",
  "paths/books.yaml",
  "paths/book.yaml",
  "operations/list-shelves.yaml",
  "schemas/Book.yaml",
  "schemas/Series.yaml",
  "schemas/Shelf.yaml",
  "schemas/Error.yaml",
  "responses.yaml",
  "parameters.yaml",
];
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

// 3,000 tags, each with an operation and a Markdown description; the second one nested as
// deep as a description can go wrong.
const MANY_TAGS = {
  openapi: "3.0.3",
  info: { title: "Many tags", version: "1" },
  tags: Array.from({ length: 3000 }, (_, i) => ({
    name: `t${i}`,
    description: i === 1 ? `${">".repeat(100_000)} deep` : `Tag **${i}**`,
  })),
  paths: Object.fromEntries(
    Array.from({ length: 3000 }, (_, i) => [`/t${i}`, { get: { tags: [`t${i}`], responses: { 200: { description: "ok" } } } }]),
  ),
};

// What the first screen of a `?url=` document (www/first-screen.js) must draw as the app does:
// a tag's display name, an untagged operation (no operationId, a path that is not ASCII), an
// operation under two tags, the deprecated and stability badges, text to escape, and an
// Authorize button (a security scheme, which no operation needs).
const FIRST_SCREEN = {
  openapi: "3.0.3",
  info: { title: "First <screen> & co", version: "2024.1" },
  tags: [{ name: "pets", "x-displayName": "Pets & friends" }, { name: "unused" }],
  paths: {
    "/pets": {
      get: { operationId: "listPets", tags: ["pets"], summary: "List \"all\" <pets>", deprecated: true, responses: { 200: { description: "ok" } } },
      post: { operationId: "addPet", tags: ["pets", "store"], "x-stability": "beta", responses: { 201: { description: "ok" } } },
    },
    "/café/{id}": { get: { summary: "Untagged", responses: { 200: { description: "ok" } } } },
    "/stock": { delete: { operationId: "clear stock", tags: ["store"], "x-stability": "experimental", responses: { 204: { description: "ok" } } } },
  },
  components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } },
};

// FIRST_SCREEN in YAML, with an anchor and an alias, which the first screen's own YAML reader
// leaves to js-yaml.
const FIRST_SCREEN_ANCHORS = `openapi: 3.0.3
info: {title: "First <screen> & co", version: "2024.1"}
tags:
  - {name: pets, x-displayName: Pets & friends}
  - name: unused
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      summary: List "all" <pets>
      deprecated: true
      responses: &ok
        200: {description: ok}
    post: {operationId: addPet, tags: [pets, store], x-stability: beta, responses: {201: {description: ok}}}
  /café/{id}:
    get: {summary: Untagged, responses: *ok}
  /stock:
    delete: {operationId: clear stock, tags: [store], x-stability: experimental, responses: {204: {description: ok}}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Key}
`;

// Records the first screen when it is put in the page: its rows, where its first row and the
// list are, whether the app had started, and whether js-yaml had been asked for.
const FIRST_SCREEN_WATCH = `new MutationObserver((changes, observer) => {
  const first = document.getElementById("prerendered");
  if (!first) return;
  observer.disconnect();
  const row = first.querySelector("[data-testid=operation]").getBoundingClientRect();
  globalThis.__firstScreen = {
    rows: [...first.querySelectorAll(".list-row")].map((e) => e.outerHTML),
    title: first.querySelector("[data-testid=doc-title]").textContent,
    header: [".doc-meta", ".document-source", ".header-nav"].map((part) => first.querySelector(part).textContent),
    row: [row.left, row.top, row.width, row.height],
    appStarted: "wasmBindings" in globalThis,
    yamlAsked: document.querySelector("script[src$='/vendor/js-yaml.min.js']") !== null,
  };
}).observe(document, { childList: true, subtree: true });`;

const HOOKS31 = {
  openapi: "3.1.0",
  info: {
    title: "Hooks",
    version: "2.1.0",
    summary: "Pets, and what happens to them",
    description: "![Logo](img/logo.svg) Read [the guide](guide/index.html) or [a part](#part).",
    license: { name: "Apache 2.0", identifier: "Apache-2.0" },
  },
  externalDocs: { url: "https://example.com/guide", description: "The guide" },
  tags: [
    { name: "pets", description: "Everything about **pets**", externalDocs: { url: "https://example.com/pets" } },
  ],
  paths: {
    "/pets": {
      post: {
        operationId: "addPet",
        tags: ["pets"],
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
        callbacks: {
          onAdopted: {
            "{$request.body#/callbackUrl}": {
              post: { summary: "The pet was adopted", responses: { 204: { description: "Received" } } },
            },
          },
        },
        responses: { 201: { description: "Added" } },
      },
    },
  },
  webhooks: {
    newPet: {
      post: {
        summary: "A pet was added",
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } } },
        responses: { 200: { description: "Return 200 to acknowledge" } },
      },
    },
  },
  components: {
    schemas: {
      Pet: { type: "object", required: ["name"], properties: { name: { type: "string" }, tag: { $ref: "#/components/schemas/Tag" } } },
      Tag: { type: ["string", "null"] },
    },
  },
};

let site;
let browser;
let petstore3Ids;
let petstore3Text;
let github;

function operationIds(doc) {
  return Object.values(doc.paths).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m].operationId));
}

before(async () => {
  const yaml = await import(join(REPO, ".tools/node_modules/js-yaml/dist/js-yaml.mjs"));
  petstore3Text = await readFile(PETSTORE3, "utf8");
  petstore3Ids = operationIds(yaml.load(petstore3Text));
  github = JSON.parse(await readFile(GITHUB, "utf8"));
  site = await serveStatic(undefined, {
    extra: {
      "/fixtures/swagger-petstore3.yaml": PETSTORE3,
      "/fixtures/github.json": GITHUB,
      ...Object.fromEntries(LIBRARY_FILES.map((file) => [`/fixtures/library/${file}`, join(LIBRARY, file)])),
      // One reference to a file the server does not have, one to a file that is there.
      "/fixtures/split-broken/openapi.yaml": {
        type: "application/yaml",
        body: [
          "openapi: 3.0.3",
          "info: {title: Half there, version: '1'}",
          "paths:",
          "  /gone:",
          "    get:",
          "      summary: Refers to a missing file",
          "      responses:",
          "        '200': {$ref: 'missing.yaml#/ok'}",
          "  /here:",
          "    $ref: here.yaml",
        ].join("\n"),
      },
      "/fixtures/split-broken/here.yaml": {
        type: "application/yaml",
        body: "get:\n  summary: From another file\n  responses:\n    '200': {description: fine}\n",
      },
      // Listed before its components are read (openapi, info, tags, paths first); a missing
      // comma in the components is found after the list is painted.
      "/fixtures/broken-components.json": {
        type: "application/json",
        body: [
          '{"openapi": "3.0.3", "info": {"title": "Late error", "version": "1"}, "tags": [],',
          ' "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}},',
          ' "components": {"schemas": {"A": {"type": "string" "format": "x"}}}}',
        ].join("\n"),
      },
      // OpenAPI 3.1 with what readers look for beyond the operations: webhooks (after
      // `paths`, so listed once the rest is read), a callback, component schemas, tags with
      // Markdown descriptions and external docs, a summary and a licence.
      "/fixtures/hooks31.json": { type: "application/json", body: JSON.stringify(HOOKS31) },
      "/fixtures/many-tags.json": { type: "application/json", body: JSON.stringify(MANY_TAGS) },
      "/fixtures/first-screen.json": { type: "application/json", body: JSON.stringify(FIRST_SCREEN) },
      "/fixtures/first-screen-anchors.yaml": { type: "application/yaml", body: FIRST_SCREEN_ANCHORS },
      // As FIRST_SCREEN, with what the first screen leaves to the app.
      "/fixtures/tag-groups.json": {
        type: "application/json",
        body: JSON.stringify({ ...FIRST_SCREEN, "x-tagGroups": [{ name: "Shop", tags: ["store", "pets"] }] }),
      },
      "/fixtures/img/logo.svg": {
        type: "image/svg+xml",
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>',
      },
      "/fixtures/swagger2.json": {
        type: "application/json",
        body: JSON.stringify({
          swagger: "2.0",
          info: { title: "Old", version: "1" },
          host: "api.example.com",
          basePath: "/v1",
          schemes: ["https"],
          paths: {
            "/pets": {
              post: {
                operationId: "addPet",
                tags: ["pets"],
                consumes: ["application/json"],
                parameters: [{ in: "body", name: "pet", required: true, schema: { $ref: "#/definitions/Pet" } }],
                responses: { 201: { description: "Made", schema: { $ref: "#/definitions/Pet" } } },
              },
            },
            "/pets/{id}/photo": {
              post: {
                operationId: "uploadPhoto",
                tags: ["pets"],
                consumes: ["multipart/form-data"],
                parameters: [
                  { in: "path", name: "id", required: true, type: "integer" },
                  { in: "formData", name: "file", type: "file", required: true },
                ],
                responses: { 200: { description: "Stored" } },
              },
            },
          },
          definitions: { Pet: { type: "object", required: ["name"], properties: { name: { type: "string" } } } },
        }),
      },
    },
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const renderedIds = (page) =>
  page.locator("[data-testid=operation]").evaluateAll((els) => els.map((e) => e.dataset.operationId));

async function expectPetstore3(page) {
  await page.waitForFunction(
    () => document.querySelector("[data-testid=doc-title]")?.textContent === "Swagger Petstore - OpenAPI 3.0",
    null,
    { timeout: 15_000 },
  );
  assert.equal(petstore3Ids.length, 19);
  assert.equal(await page.locator("[data-testid=op-count]").textContent(), "19 operations");
  assert.deepEqual((await renderedIds(page)).sort(), [...petstore3Ids].sort());
  assert.deepEqual(
    await page.locator("[data-testid=group]").evaluateAll((els) => els.map((e) => e.dataset.group)),
    ["pet", "store", "user"],
  );
  // Its own mock (page-mock.test.mjs tries it).
  assert.equal(await page.locator("[data-testid=mock-panel]").count(), 1);
  // An operation opens with its detail.
  await page.locator("[data-testid=operation][data-operation-id=findPetsByStatus] a").click();
  const detail = page.locator("[data-testid=operation-detail]");
  await detail.waitFor();
  assert.equal(await detail.getAttribute("data-operation-id"), "findPetsByStatus");
  assert.equal(await page.locator("[data-testid=parameter][data-name=status]").count(), 1);
}

test("Swagger's petstore3 YAML by ?url= renders all its operations, with a Mock block of its own", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/swagger-petstore3.yaml`);
  try {
    await expectPetstore3(page);
    assert.match(await page.locator("[data-testid=document-source]").textContent(), /swagger-petstore3\.yaml/);
    // js-yaml was asked for by index.html's first script, after the first screen and before the
    // app's WebAssembly, and the app took that one load rather than adding its own.
    assert.deepEqual(
      await page.evaluate(() => {
        const yaml = [...document.head.children].filter((e) => e.localName === "script" && /\/vendor\/js-yaml\.min\.js$/.test(e.src));
        const loaded = (end) => performance.getEntriesByType("resource").filter((r) => r.name.endsWith(end));
        const [script] = loaded("/vendor/js-yaml.min.js");
        return [yaml.length, loaded("/vendor/js-yaml.min.js").length, !!script && script.startTime < loaded(".wasm")[0].startTime];
      }),
      [1, 1, true],
    );
    // Back to the built-in document: the Petstore's mock and ?url= leaves the address.
    await page.locator("[data-testid=document-builtin]").click();
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Petstore API");
    assert.equal(await page.locator("[data-testid=mock-panel]").count(), 1);
    assert.equal(await page.locator("[data-testid=operation]").count(), 18);
    assert.equal(new URL(page.url()).search, "");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/** The rows the app lists, and where its first operation is, once its own list is in. */
async function appRows(page) {
  await page.locator("[data-testid=op-count]").waitFor();
  return page.evaluate(() => {
    const row = document.querySelector("[data-testid=operation]").getBoundingClientRect();
    return {
      rows: [...document.querySelectorAll("[data-testid=operation-list] .list-row")].map((e) => e.outerHTML),
      row: [row.left, row.top, row.width, row.height],
      prerendered: document.getElementById("prerendered") !== null,
      header: [".doc-meta", ".document-source", ".header-nav"].map((part) => document.querySelector(`header ${part}`).textContent),
    };
  });
}

test("a ?url= document's first screen is drawn before the app, as the app draws it, and the app takes its place", async () => {
  // The app marks each row with the access it needs (and a padlock where it needs credentials)
  // once it runs; the rest of each row is the same.
  const unmarked = (rows) =>
    rows.map((r) => r.replace(/ data-access="[^"]*"|<span class="op-lock".*?<\/svg><span class="visually-hidden">[^<]*<\/span><\/span>/g, ""));
  // Petstore3's YAML is read by the first screen's own reader, before js-yaml is asked for; the
  // anchors are js-yaml's to read.
  for (const [address, yamlAsked] of [
    ["fixtures/first-screen.json", false],
    ["fixtures/swagger-petstore3.yaml", false],
    ["fixtures/first-screen-anchors.yaml", true],
  ]) {
    const { page, context, problems } = await openPage(browser, `${site.url}?url=${address}`, { init: FIRST_SCREEN_WATCH });
    try {
      const app = await appRows(page);
      const first = await page.evaluate(() => globalThis.__firstScreen);
      assert.ok(first, `${address}: a first screen was drawn`);
      assert.equal(first.appStarted, false, `${address}: before the app started`);
      assert.equal(first.yamlAsked, yamlAsked, `${address}: js-yaml asked for before the first screen`);
      assert.equal(first.title, await page.locator("[data-testid=doc-title]").textContent());
      assert.deepEqual(first.header, app.header, `${address}: the header's text`);
      assert.ok(first.rows.length >= 5, `${address}: ${first.rows.length} rows`);
      assert.deepEqual(first.rows, unmarked(app.rows).slice(0, first.rows.length), address);
      // The list stays where it was when the app takes over, and the first paint is gone. (Its
      // top follows the Mock block's height, which changes as the document's mock starts.)
      assert.deepEqual([first.row[0], first.row[2], first.row[3]], [app.row[0], app.row[2], app.row[3]], address);
      assert.equal(app.prerendered, false);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test("a ?url= document the first screen cannot draw as the app does is left to the app", async () => {
  // x-tagGroups, Swagger 2.0, a document over 6 MiB (GitHub's), one that does not read.
  for (const [address, shown] of [
    ["fixtures/tag-groups.json", "[data-testid=op-count]"],
    ["fixtures/swagger2.json", "[data-testid=op-count]"],
    ["fixtures/github.json", "[data-testid=op-count]"],
    ["fixtures/broken-components.json", "[data-testid=document-error], [data-testid=op-count]"],
  ]) {
    const { page, context } = await openPage(browser, `${site.url}?url=${address}`, { init: FIRST_SCREEN_WATCH });
    try {
      await page.locator(shown).first().waitFor({ timeout: 30_000 });
      assert.equal(await page.evaluate(() => globalThis.__firstScreen ?? null), null, address);
    } finally {
      await context.close();
    }
  }
});

test("a YAML document by ?url= whose early js-yaml load failed is read after a second load", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const loads = [];
  await page.route("**/vendor/js-yaml.min.js", (route) => {
    loads.push(route.request().url());
    return loads.length === 1 ? route.abort() : route.continue();
  });
  try {
    await page.goto(`${site.url}?url=fixtures/swagger-petstore3.yaml`);
    await expectPetstore3(page);
    assert.equal(loads.length, 2, loads.join(", "));
  } finally {
    await context.close();
  }
});

test("the YAML reader is fetched only for YAML: the Petstore page does not download it", async () => {
  const { page, context, problems } = await openPage(browser, site.url);
  const requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  try {
    await page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    assert.ok(!requested.some((p) => p.includes("js-yaml")), requested.join(", "));
    // Pasted YAML loads it, and then the pasted document shows.
    await page.locator("[data-testid=document-loader-toggle]").click();
    await page.locator("[data-testid=document-text]").fill(petstore3Text);
    await page.locator("[data-testid=document-text-load]").click();
    await expectPetstore3(page);
    assert.ok(requested.includes("/vendor/js-yaml.min.js"), requested.join(", "));
    assert.equal(await page.locator("[data-testid=document-source]").textContent().then((t) => t.includes("pasted text")), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a description kept in many files is read with its files: tags, summaries and schemas from each", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/library/openapi.yaml`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Library", null, { timeout: 15_000 });
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "5 operations");
    assert.deepEqual(
      await page.locator("[data-testid=group]").evaluateAll((els) => els.map((e) => e.dataset.group)),
      ["Books", "Shelves"],
    );
    assert.deepEqual((await renderedIds(page)).sort(), ["addBook", "getBook", "listBooks", "listShelves", "removeBook"]);
    assert.match(await page.locator("[data-testid=operation][data-operation-id=listShelves]").textContent(), /List the shelves/);
    // The schema of a third file, referred to from the second, in the detail.
    await page.locator("[data-testid=operation][data-operation-id=addBook] a").click();
    const detail = page.locator("[data-testid=operation-detail][data-operation-id=addBook]");
    await detail.waitFor();
    assert.match(await detail.textContent(), /isbn/);
    assert.match(await detail.textContent(), /The book is not valid/);
    // Its own mock (the bundled document's).
    assert.equal(await page.locator("[data-testid=mock-panel]").count(), 1);
    // "Download the document" gives the one bundled document.
    await page.evaluate(() => (location.hash = ""));
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("[data-testid=download-document]").click()]);
    const bundled = JSON.parse(await readFile(await download.path(), "utf8"));
    assert.equal(bundled.paths["/shelves"].get.operationId, "listShelves");
    assert.ok(!JSON.stringify(bundled).includes(".yaml"), "every reference is local");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a reference to a file that cannot be fetched is explained where it is used; the rest is shown", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/split-broken/openapi.yaml#/`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Half there", null, { timeout: 15_000 });
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "2 operations");
    assert.match(await page.locator("[data-testid=operation]").allTextContents().then((t) => t.join(" ")), /From another file/);
    await page.locator("[data-testid=operation] a", { hasText: "Refers to a missing file" }).click();
    const detail = page.locator("[data-testid=operation-detail]");
    await detail.waitFor();
    assert.match(await detail.textContent(), /missing\.yaml#\/ok could not be fetched: the server answered 404/);
    // The missing file's 404 (the request and the console's line for it), and nothing else.
    assert.deepEqual(
      problems.filter((p) => !p.includes("missing.yaml") && !p.includes("status of 404")),
      [],
    );
  } finally {
    await context.close();
  }
});

test("a YAML file chosen with the file input renders", async () => {
  const { page, context, problems } = await openPage(browser, site.url);
  try {
    await page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=document-loader-toggle]").click();
    await page.locator("[data-testid=document-file]").setInputFiles(PETSTORE3);
    await expectPetstore3(page);
    assert.match(await page.locator("[data-testid=document-source]").textContent(), /the file swagger-petstore3\.yaml/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("GitHub's description by ?url= lists its operations virtually; search finds one and it opens", async () => {
  const ids = operationIds(github);
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/github.json`, { init: WASM_TRACKER });
  const requested = [];
  page.on("request", (r) => requested.push(new URL(r.url()).pathname));
  try {
    await page.waitForFunction(
      (title) => document.querySelector("[data-testid=doc-title]")?.textContent === title,
      github.info.title,
      { timeout: 30_000 },
    );
    await page.locator("[data-testid=operation]").first().waitFor();
    // Its first rows may be listed before the rest of `paths` is read: the count follows.
    await page.waitForFunction(
      (count) => document.querySelector("[data-testid=op-count]")?.textContent === `${count} operations`,
      ids.length,
      { timeout: 30_000 },
    );
    // Virtual: the spacer holds every row, only a few are in the page.
    const rows = Number(await page.locator("[data-testid=operation-scroller]").getAttribute("data-rows"));
    assert.ok(rows >= ids.length, `${rows} rows for ${ids.length} operations`);
    const rendered = await page.locator("[data-testid=operation]").count();
    assert.ok(rendered > 5 && rendered < 80, `${rendered} operation rows in the page`);
    // 13 MB: its mock waits until it is asked for, and nothing of it is downloaded before.
    await page.locator("[data-testid=mock-idle]").waitFor();
    assert.ok(!requested.some((p) => p.includes("api-mock")), requested.join(", "));

    // Scrolled to the end, the last operation is rendered.
    await page.locator("[data-testid=operation-scroller]").evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const last = await page.locator("[data-testid=operation]").last();
    await page.waitForFunction(
      () => {
        const el = document.querySelector("[data-testid=operation-scroller]");
        const links = [...el.querySelectorAll("[data-testid=operation]")];
        const box = el.getBoundingClientRect();
        return links.length > 0 && links.at(-1).getBoundingClientRect().bottom <= box.bottom + 1;
      },
    );
    assert.ok((await last.getAttribute("data-operation-id")).length > 0);

    // Search, then open the operation.
    await page.locator("[data-testid=search]").fill("pulls/list-review-comments-for-repo");
    await page.locator("[data-operation-id='pulls/list-review-comments-for-repo']").waitFor();
    assert.deepEqual(await renderedIds(page), ["pulls/list-review-comments-for-repo"]);
    await page.locator("[data-testid=operation][data-operation-id='pulls/list-review-comments-for-repo'] a").click();
    const detail = page.locator("[data-testid=operation-detail]");
    await detail.waitFor();
    assert.equal(await detail.getAttribute("data-operation-id"), "pulls/list-review-comments-for-repo");
    assert.equal(
      await page.locator("[data-testid=operation][data-operation-id='pulls/list-review-comments-for-repo'] a").getAttribute("aria-current"),
      "page",
    );
    // An opened operation whose panel sends to a server leaves the mock asleep; picking the
    // in-browser mock as the target starts it.
    const target = page.locator("[data-testid=try-target]");
    await target.waitFor();
    assert.notEqual(await target.inputValue(), "mock");
    assert.equal(await page.locator("[data-testid=mock-idle]").count(), 1, "the mock waits");
    assert.ok(!requested.some((p) => p.includes("api-mock")), requested.join(", "));
    // The app's WebAssembly memory (which never shrinks) holds the document's text without its
    // indentation (6.9 of the 13 MB), its index and list: no copy of the text was made to learn
    // that the mock must wait (that copy held it at 19.7 MiB).
    const sizes = await page.evaluate(() => [...globalThis.__benchWasmMemories].map((m) => m.buffer.byteLength));
    const largest = Math.max(...sizes);
    assert.ok(largest < 16 * 2 ** 20, `the app's WebAssembly memory is ${(largest / 2 ** 20).toFixed(1)} MiB (every module: ${sizes.map((n) => (n / 2 ** 20).toFixed(1)).join(", ")} MiB)`);
    await target.selectOption("mock");
    await page.locator("[data-testid=mock-panel] [data-testid=mock-counts]").waitFor({ timeout: 60_000 });
    assert.match(await page.locator("[data-testid=mock-counts]").textContent(), /^0 items in \d+ resources$/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a deep link into GitHub's document scrolls its row into view, marked current; Tab reaches the rows", async () => {
  const id = "repos/delete-deployment";
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/github.json#${id}`);
  try {
    const detail = page.locator("[data-testid=operation-detail]");
    await detail.waitFor({ timeout: 30_000 });
    assert.equal(await detail.getAttribute("data-operation-id"), id);
    const link = page.locator(`[data-testid=operation][data-operation-id='${id}'] a`);
    await link.waitFor();
    assert.equal(await link.getAttribute("aria-current"), "page");
    const inView = await link.evaluate((a) => {
      const box = a.getBoundingClientRect();
      const list = document.querySelector("[data-testid=operation-scroller]").getBoundingClientRect();
      return box.top >= list.top && box.bottom <= list.bottom;
    });
    assert.ok(inView, "the selected row is scrolled into view");
    // Keyboard: from the search box, Tab goes to the first rendered operation link.
    await page.locator("[data-testid=search]").focus();
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("operation-link")), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a Swagger 2.0 document is converted as it loads, and says so", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/swagger2.json`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Old");
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "2 operations");
    assert.match(await page.locator("[data-testid=converted]").textContent(), /Converted from Swagger 2\.0 to OpenAPI 3\.0/);
    await page.locator("[data-testid=operation][data-operation-id=addPet] a").click();
    const detail = page.locator("[data-testid=operation-detail][data-operation-id=addPet]");
    await detail.waitFor();
    assert.match(await detail.locator("[data-testid=request-body]").textContent(), /application\/json/);
    await page.locator("[data-testid=operation][data-operation-id=uploadPhoto] a").click();
    const upload = page.locator("[data-testid=operation-detail][data-operation-id=uploadPhoto]");
    await upload.waitFor();
    assert.match(await upload.locator("[data-testid=request-body]").textContent(), /multipart\/form-data/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a 3.1 document: overview, tag page, webhooks, callbacks, the Schemas section and the download", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/hooks31.json`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Hooks");
    assert.equal(await page.locator("[data-testid=op-count]").textContent(), "1 operation");
    // The webhook comes after `paths`: it is listed once the rest of the text is read.
    await page.locator("[data-testid=webhook-count]").waitFor();
    assert.equal(await page.locator("[data-testid=webhook-count]").textContent(), "1 webhook");
    assert.deepEqual(
      await page.locator("[data-testid=group]").evaluateAll((els) => els.map((e) => e.dataset.group)),
      ["pets", "Webhooks"],
    );
    const overview = page.locator("[data-testid=overview]");
    assert.equal(await overview.locator("[data-testid=doc-summary]").textContent(), "Pets, and what happens to them");
    assert.equal(
      await overview.locator("[data-testid=doc-facts] a").getAttribute("href"),
      "https://spdx.org/licenses/Apache-2.0.html",
    );
    assert.equal(await overview.locator("[data-testid=external-docs] a").textContent(), "The guide");
    // Descriptions are Markdown once its renderer (a module loaded after the first paint) is in.
    const logo = overview.locator(".markdown img");
    await logo.waitFor();
    assert.match(await overview.locator("[data-testid=tag-index]").textContent(), /Everything about pets/);
    // Relative links and images in descriptions are the document's, not the page's.
    assert.equal(await logo.getAttribute("src"), `${site.url}fixtures/img/logo.svg`);
    await page.waitForFunction(() => document.querySelector(".overview .markdown img")?.naturalWidth === 40);
    assert.equal(await overview.locator(".markdown a").first().getAttribute("href"), `${site.url}fixtures/guide/index.html`);
    assert.equal(await overview.locator(".markdown a").nth(1).getAttribute("href"), "#part");

    // The download is the document's own text.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator("[data-testid=download-document]").click(),
    ]);
    assert.equal(download.suggestedFilename(), "hooks31.json");
    const saved = await readFile(await download.path(), "utf8");
    assert.deepEqual(JSON.parse(saved), HOOKS31);

    // A tag's heading opens its page: the description as Markdown, its external docs, its operations.
    await page.locator("[data-testid=group][data-group=pets] a").click();
    const tag = page.locator("[data-testid=tag-page][data-tag=pets]");
    await tag.waitFor();
    assert.equal(await tag.locator("strong").textContent(), "pets");
    assert.equal(await tag.locator("[data-testid=external-docs] a").getAttribute("href"), "https://example.com/pets");
    await tag.locator("a[href='#addPet']").click();

    // The operation: its callback, and its body's schema links to the Schemas section.
    const detail = page.locator("[data-testid=operation-detail][data-operation-id=addPet]");
    await detail.waitFor();
    const callback = detail.locator("[data-testid=callback][data-name=onAdopted]");
    assert.match(await callback.textContent(), /POST\s*\{\$request\.body#\/callbackUrl\}/);
    await callback.locator(":scope > summary").click();
    assert.match(await callback.textContent(), /The pet was adopted/);
    await detail.locator("[data-testid=request-body] [data-testid=schema-link]").first().click();
    const schema = page.locator("[data-testid=schema-page][data-schema=Pet]");
    await schema.waitFor();
    assert.equal(new URL(page.url()).hash, "#schema/Pet");
    // The example is the mock's generator's (filled in when the try-it module is in): a name
    // that looks like one, not "string".
    const example = JSON.parse(await schema.locator("[data-testid=schema-example][data-example-filled]").textContent());
    assert.equal(typeof example.name, "string");
    assert.notEqual(example.name, "string");
    await page.locator("[data-testid=header-schemas-link]").click();
    await page.locator("[data-testid=schema-index]").waitFor();
    assert.deepEqual(await page.locator("[data-testid=schema-index] li").allTextContents(), ["Pet", "Tag"]);

    // The webhook: shown with its request, and nothing to try.
    await page.locator("[data-testid=operation][data-operation-id=webhook-post-newPet] a").click();
    const hook = page.locator("[data-testid=operation-detail][data-operation-id=webhook-post-newPet]");
    await hook.waitFor();
    assert.equal(await hook.locator("[data-testid=detail-webhook]").textContent(), "Webhook");
    assert.match(await hook.locator("[data-testid=request-body]").textContent(), /application\/json/);
    assert.equal(await page.locator("[data-testid=try-it]").count(), 0);

    // An unknown anchor says so.
    await page.evaluate(() => (location.hash = "#schema/Nope"));
    await page.locator("[data-testid=unknown-schema]").waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("thousands of tag descriptions, one nested 100,000 deep, are all rendered as Markdown", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/many-tags.json`);
  try {
    await page.waitForFunction(() => document.querySelector("[data-testid=doc-title]")?.textContent === "Many tags");
    const index = page.locator("[data-testid=tag-index]");
    // Rendered a slice at a time: none is left as plain text in the end.
    await page.waitForFunction(
      () => document.querySelectorAll("[data-testid=tag-index] dd").length === 3000 &&
        document.querySelectorAll("[data-testid=tag-index] [data-markdown]").length === 0,
      null,
      { timeout: 20_000 },
    );
    assert.equal(await index.locator(".markdown strong").count(), 2999);
    assert.equal(await index.locator(".markdown strong").last().textContent(), "2999");
    // The nesting is the renderer's to walk (its stack is small): the text comes out.
    assert.match(await index.locator("dd").nth(1).textContent(), /deep/);
    assert.ok((await index.locator("dd").nth(1).locator("blockquote").count()) > 100);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("broken documents show an error naming the problem and keep the Petstore reference", async () => {
  const { page, context, problems } = await openPage(browser, site.url);
  try {
    await page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=document-loader-toggle]").click();
    const error = page.locator("[data-testid=document-error-message]");
    const keepsPetstore = async () => {
      assert.equal(await page.locator("[data-testid=doc-title]").textContent(), "Petstore API");
      assert.equal(await page.locator("[data-testid=operation]").count(), 18);
      assert.equal(await page.locator("[data-testid=mock-panel]").count(), 1);
    };

    await page.locator("[data-testid=document-text]").fill('{\n  "openapi": "3.0.0",\n  "info": }');
    await page.locator("[data-testid=document-text-load]").click();
    await error.waitFor();
    assert.equal(await error.textContent(), "The document is not valid JSON: expected value (line 3, column 11).");
    assert.equal(await page.locator("[data-testid=document-error]").getAttribute("role"), "alert");
    await keepsPetstore();

    await page.locator("[data-testid=document-text]").fill("openapi: 3.0.0\ninfo:\n  title: x\n bad: [");
    await page.locator("[data-testid=document-text-load]").click();
    await page.waitForFunction(() =>
      document.querySelector("[data-testid=document-error-message]")?.textContent.includes("nor valid YAML"),
    );
    assert.match(await error.textContent(), /\(line \d+, column \d+\)\.$/);
    await keepsPetstore();

    await page.locator("[data-testid=document-error-dismiss]").click();
    assert.equal(await page.locator("[data-testid=document-error]").isHidden(), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a ?url= that answers 404 falls back to the Petstore reference and says so", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/missing.yaml`);
  try {
    const error = page.locator("[data-testid=document-error-message]");
    await error.waitFor({ timeout: 15_000 });
    assert.equal(
      await error.textContent(),
      `The document could not be fetched from ${site.url}fixtures/missing.yaml: the server answered 404 Not Found.`,
    );
    assert.equal(await page.locator("[data-testid=doc-title]").textContent(), "Petstore API");
    assert.equal(await page.locator("[data-testid=operation]").count(), 18);
    // The failed request itself is the only problem the page reports.
    assert.deepEqual(
      problems.filter((p) => !p.includes("fixtures/missing.yaml") && !p.includes("status of 404")),
      [],
    );
  } finally {
    await context.close();
  }
});

test("a ?url= document with a syntax error after its list falls back to the Petstore reference and says where", async () => {
  const { page, context, problems } = await openPage(browser, `${site.url}?url=fixtures/broken-components.json`);
  try {
    const error = page.locator("[data-testid=document-error-message]");
    await error.waitFor({ timeout: 15_000 });
    assert.equal(await error.textContent(), "The document is not valid JSON: expected `,` or `}` (line 3, column 52).");
    // The Petstore document (petstore.json) is read once the other one has failed.
    await page.locator("[data-testid=doc-title]", { hasText: "Petstore API" }).waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("[data-testid=operation]").count(), 18);
    assert.equal(await page.locator("[data-testid=mock-panel]").count(), 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("screenshots of the loader and GitHub's list, light and dark, desktop and phone (artifacts/)", async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  const sizes = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of Object.entries(sizes)) {
      const loader = await openPage(browser, site.url, { colorScheme, viewport });
      try {
        await loader.page.locator("[data-testid=operation]").first().waitFor({ timeout: 15_000 });
        await loader.page.locator("[data-testid=document-loader-toggle]").click();
        await loader.page.locator("[data-testid=document-text]").fill("{ not json");
        await loader.page.locator("[data-testid=document-text-load]").click();
        await loader.page.locator("[data-testid=document-error]").waitFor();
        const overflow = await loader.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${name}: the loader scrolls sideways by ${overflow}px`);
        await loader.page.screenshot({ path: join(ARTIFACTS, `loader-${colorScheme}-${name}.png`) });
        assert.deepEqual(loader.problems, []);
      } finally {
        await loader.context.close();
      }
      const gh = await openPage(browser, `${site.url}?url=fixtures/github.json#pulls/list`, { colorScheme, viewport });
      try {
        await gh.page.locator("[data-testid=operation-detail]").waitFor({ timeout: 30_000 });
        const overflow = await gh.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${name}: GitHub's page scrolls sideways by ${overflow}px`);
        if (name === "phone") await gh.page.locator("[data-testid=operation-list]").scrollIntoViewIfNeeded();
        await gh.page.screenshot({ path: join(ARTIFACTS, `github-${colorScheme}-${name}.png`) });
        assert.deepEqual(gh.problems, []);
      } finally {
        await gh.context.close();
      }
    }
  }
});
