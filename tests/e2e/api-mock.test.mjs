// The mock of any document in the browser, end to end against the release build: the example
// page (dist/api-mock-example.html) hands its own to-do API description to `ApiMock`, whose
// installFetch("/api") answers both its fetch and its XMLHttpRequest calls. One behaviour per
// test; each test has its own browser context (its own storage).
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

const exampleUrl = () => new URL("api-mock-example.html", site.url).href;

async function ready(page) {
  await page.locator("body[data-ready=true]").waitFor({ timeout: 15_000 });
}

const titles = (page) => page.locator("[data-testid=todo-title]").allTextContents();

async function addTodo(page, title) {
  await page.locator("[data-testid=new-todo-title]").fill(title);
  await page.locator("[data-testid=todo-create]").click();
  await page.locator("[data-testid=status]", { hasText: `Added ${title}` }).waitFor();
}

test("the example page adds with XMLHttpRequest, lists with fetch, and keeps its to-dos over a reload", async () => {
  const { page, context, problems } = await openPage(browser, exampleUrl());
  try {
    await ready(page);
    assert.deepEqual(await titles(page), [], "a new document's mock starts empty");
    await addTodo(page, "Water the plants");
    await addTodo(page, "Call the vet");
    assert.match(await page.locator("[data-testid=status]").textContent(), /\(201, Location: \/todos\/2\)/);
    assert.deepEqual(await titles(page), ["Water the plants", "Call the vet"]);
    await page.locator("[data-testid=todo-toggle]").first().click();
    await page.locator("li.done [data-testid=todo-title]", { hasText: "Water the plants" }).waitFor();

    await page.locator("[data-testid=new-todo-title]").fill("");
    await page.locator("[data-testid=todo-create]").click();
    await page.locator("[data-testid=status]", { hasText: "422" }).waitFor();
    assert.match(await page.locator("[data-testid=status]").textContent(), /422: title must be at least 1 character long/);

    await page.reload();
    await ready(page);
    assert.deepEqual(await titles(page), ["Water the plants", "Call the vet"], "the state is kept per document");
    assert.equal(await page.locator("li.done").count(), 1);
    const key = await page.evaluate(() => window.apiMock.storageKey);
    assert.equal(key, "api-mock/v1/To-do API 1.0");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("ApiMock answers fetch and XMLHttpRequest alike: read back, 404, headers, abort, pass-through", async () => {
  const { page, context, problems } = await openPage(browser, exampleUrl());
  try {
    await ready(page);
    const result = await page.evaluate(async () => {
      const created = await fetch("/api/todos", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Read me back", done: true }),
      });
      const location = created.headers.get("Location");
      const xhrRead = await new Promise((resolve) => {
        const request = new XMLHttpRequest();
        request.open("GET", `/api${location}`);
        request.onreadystatechange = () => {
          if (request.readyState === 4) {
            resolve({
              status: request.status,
              body: JSON.parse(request.responseText),
              type: request.getResponseHeader("content-type"),
              all: request.getAllResponseHeaders(),
            });
          }
        };
        request.send();
      });
      const missing = await new Promise((resolve) => {
        const request = new XMLHttpRequest();
        request.open("GET", "/api/todos/999");
        request.responseType = "json";
        request.addEventListener("load", () => resolve({ status: request.status, code: request.response.code }));
        request.send();
      });
      // As the browser's own: DONE while the abort event runs, UNSENT once abort() returns.
      const aborted = await new Promise((resolve) => {
        const request = new XMLHttpRequest();
        let during;
        request.open("GET", "/api/todos");
        request.onabort = () => { during = { status: request.status, readyState: request.readyState }; };
        request.onload = () => resolve("loaded");
        request.send();
        request.abort();
        setTimeout(() => resolve({ ...during, after: request.readyState }), 50);
      });
      const outside = await new Promise((resolve) => {
        const request = new XMLHttpRequest();
        request.open("GET", "./api-mock-example.html");
        request.onload = () => resolve({ status: request.status, html: request.responseText.startsWith("<!DOCTYPE html>") });
        request.send();
      });
      return { createdStatus: created.status, location, xhrRead, missing, aborted, outside };
    });
    assert.equal(result.createdStatus, 201);
    assert.equal(result.xhrRead.status, 200);
    assert.equal(result.xhrRead.body.title, "Read me back");
    assert.equal(result.xhrRead.body.done, true);
    assert.equal(result.xhrRead.body.id, Number(result.location.split("/").pop()));
    assert.ok(typeof result.xhrRead.body.createdAt === "string", "read-only fields are generated");
    assert.equal(result.xhrRead.type, "application/json");
    assert.match(result.xhrRead.all, /content-type: application\/json\r\n/);
    assert.deepEqual(result.missing, { status: 404, code: "not_found" });
    assert.deepEqual(result.aborted, { status: 0, readyState: 4, after: 0 });
    assert.deepEqual(result.outside, { status: 200, html: true }, "other URLs go to the network");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("ApiMock options: injected network failures, documented error statuses, delays, and clear errors", async () => {
  const { page, context, problems } = await openPage(browser, exampleUrl());
  try {
    await ready(page);
    const result = await page.evaluate(async () => {
      const { ApiMock } = await import("./api-mock/playground_api_mock.js");
      const network = new ApiMock(window.todoApi, { storageKey: null, failure: { rate: 1, network: true } });
      const rejected = await network.fetch("/todos").then(() => "answered", (e) => `${e.name}: ${e.message}`);
      const failing = new ApiMock(window.todoApi, { storageKey: null, failure: { rate: 1, status: 503 } });
      const failed = await failing.fetch("/todos");
      const slow = new ApiMock(window.todoApi, { storageKey: null, delay: { min: 200, max: 200 } });
      const start = performance.now();
      await slow.fetch("/todos");
      const waited = performance.now() - start;
      const errors = [];
      for (const make of [
        () => new ApiMock("openapi: 3.1.0\ninfo: {title: Y, version: '1'}\npaths: {}"),
        () => new ApiMock({ openapi: "3.0.3", info: { title: "T", version: "1" } }),
        () => new ApiMock(window.todoApi, { failure: { rate: 2 } }),
        () => new ApiMock(42),
      ]) {
        try {
          make();
          errors.push("no error");
        } catch (e) {
          errors.push(`${e.name}: ${e.message}`);
        }
      }
      const memory = new ApiMock(window.todoApi, { storageKey: null });
      const offline = memory.handle({ method: "POST", url: "/todos", headers: { "Content-Type": "application/json" }, body: "{\"title\":\"x\"}" });
      // The same request as JSON text, answered as JSON text; bad text is refused with a reason.
      const texted = JSON.parse(memory.handleJson(JSON.stringify({ method: "POST", url: "/todos", headers: { "Content-Type": "application/json" }, body: "{\"title\":\"y\"}" })));
      let badText = "no error";
      try {
        memory.handleJson("{\"url\": ");
      } catch (e) {
        badText = `${e.name}: ${e.message}`;
      }
      return { rejected, failedStatus: failed.status, waited, errors, offlineStatus: offline.status, texted, badText, resources: memory.resources() };
    });
    assert.match(result.rejected, /^TypeError: Failed to fetch/);
    assert.equal(result.failedStatus, 503);
    assert.ok(result.waited >= 190, `the delay is applied (waited ${result.waited} ms)`);
    assert.deepEqual(result.errors, [
      "TypeError: The description is not JSON. ApiMock reads JSON: convert YAML first (for example with js-yaml's load()) and pass the object.",
      "TypeError: ApiMock cannot mock this description: The document has no paths object.",
      "TypeError: ApiMock options: failure rate 2 is not between 0 and 1.",
      "TypeError: new ApiMock(description): the description is an OpenAPI document as JSON text, bytes or an object.",
    ]);
    assert.equal(result.offlineStatus, 201);
    assert.equal(result.texted.status, 201);
    assert.equal(JSON.parse(result.texted.body).title, "y");
    assert.match(result.badText, /^Error: handleJson\(\) takes a request as JSON text, such as \{"method": "GET", "url": "\/things"\}/);
    assert.deepEqual(result.resources, [{ collection: "/todos", item: "/todos/{id}", idField: "id", count: 2 }]);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the ApiMock example page in light and dark, desktop and phone (screenshots in artifacts/)", async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  const sizes = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
  for (const colorScheme of ["light", "dark"]) {
    for (const [name, viewport] of Object.entries(sizes)) {
      const { page, context, problems } = await openPage(browser, exampleUrl(), { colorScheme, viewport });
      try {
        await ready(page);
        await addTodo(page, "Look at this page");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${colorScheme} ${name}: the page scrolls sideways by ${overflow}px`);
        await page.screenshot({ path: join(ARTIFACTS, `api-mock-example-${colorScheme}-${name}.png`), fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});
