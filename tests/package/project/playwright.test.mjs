// routeMock: a page's API calls answered by a mock in the test's own Node process through
// Playwright's page.route; no server for the API. Same origin, another origin (CORS and its
// preflight), an injected network failure, and the state read back from the test.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { after, before, test } from "node:test";

import { chromium } from "playwright-core";
import { ApiMock } from "petstore-playground-mock";
import { routeMock } from "petstore-playground-mock/playwright";

let site;
let origin;
let browser;

before(async () => {
  // Serves the frontend only: /api is not here.
  site = createServer((request, response) => {
    if (new URL(request.url, "http://x").pathname === "/") {
      return response.writeHead(200, { "Content-Type": "text/html" }).end(readFileSync("page/index.html"));
    }
    response.writeHead(404).end();
  });
  await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${site.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
});

after(async () => {
  await browser?.close();
  site?.close();
});

/** Adds a to-do through the page's form; gives the status the page got. */
async function add(page, title) {
  await page.evaluate(() => (document.querySelector("#status").textContent = ""));
  await page.fill("#title", title);
  await page.click("button");
  await page.waitForFunction(() => document.querySelector("#status").textContent !== "");
  const status = await page.textContent("#status");
  if (status === "201") await page.locator("#todos li", { hasText: title }).waitFor();
  return status;
}

test("same origin: the page creates and lists through the routed mock; the test reads the mock's state", async () => {
  const mock = await ApiMock.open("api/openapi.yaml");
  const page = await browser.newPage();
  const unroute = await routeMock(page, mock, "/api");
  await page.goto(origin);
  assert.equal(await add(page, "Write the test"), "201");
  assert.equal(await add(page, "Run it"), "201");
  assert.deepEqual(await page.locator("#todos li").allTextContents(), ["Write the test", "Run it"]);
  assert.deepEqual(JSON.parse(mock.handle({ method: "GET", url: "/todos" }).body).map((t) => t.title), ["Write the test", "Run it"]);
  // Refused by the description (an empty title): the page gets the documented status.
  assert.equal(await add(page, ""), "422");
  await unroute();
  await page.close();
});

test("another origin: CORS headers and the preflight are answered; a network failure aborts", async () => {
  const mock = await ApiMock.open("api/openapi.yaml");
  const context = await browser.newContext();
  await routeMock(context, mock, "https://api.example.test/v1");
  const page = await context.newPage();
  await page.goto(`${origin}/?api=${encodeURIComponent("https://api.example.test/v1")}`);
  assert.equal(await add(page, "Across origins"), "201");
  assert.deepEqual(await page.locator("#todos li").allTextContents(), ["Across origins"]);

  const flaky = await ApiMock.open("api/openapi.yaml", { failure: { rate: 1, network: true } });
  const failing = await browser.newPage();
  await routeMock(failing, flaky, "/api");
  await failing.goto(origin);
  await failing.waitForFunction(() => document.querySelector("#status").textContent === "network error");
  await failing.close();
  await context.close();
  await assert.rejects(routeMock({}, mock, "/api"), TypeError);
});
