// The try-it panel end to end against the release build: the in-browser mock (the page loads
// dist/mock/petstore_mock.js), the native mock server started here as a custom base URL, a
// server without CORS headers, a closed port, export/import of the mock, reload, and axe-core.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ARTIFACTS, launch, openPage, serveStatic } from "./harness.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = resolve(HERE, "../..");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let site;
let browser;
let mockServer;
let plainServer;

/** Starts `petstore-mock serve --port 0` (built here when missing); resolves to its base URL. */
async function startMockServer() {
  const binary = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, "target"), "debug", "petstore-mock");
  if (!existsSync(binary)) {
    const built = spawnSync("cargo", ["build", "-p", "playground-server"], { cwd: ROOT, stdio: "inherit" });
    assert.equal(built.status, 0, "cargo build -p playground-server failed");
  }
  const child = spawn(binary, ["serve", "--host", "127.0.0.1", "--port", "0", "--seed"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((ok, fail) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (match) ok(match[1]);
    });
    child.on("exit", (code) => fail(new Error(`petstore-mock exited with ${code}`)));
  });
  return { url, close: () => new Promise((ok) => { child.on("exit", ok); child.kill("SIGTERM"); }) };
}

/** A JSON server that sends no CORS headers at all. */
async function startPlainServer() {
  const server = createServer((req, res) => {
    if (req.url.startsWith("/slow/")) {
      // Answers after the test has cancelled (or never, for the test's purposes).
      const timer = setTimeout(() => res.end("[]"), 20_000);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify([{ id: 1, name: "Plain" }]));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((ok) => server.close(ok)) };
}

before(async () => {
  site = await serveStatic();
  browser = await launch();
  mockServer = await startMockServer();
  plainServer = await startPlainServer();
  await mkdir(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await site?.close();
  await mockServer?.close();
  await plainServer?.close();
});

/** Opens `#operationId` with the mock started. */
async function openOperation(id, options) {
  const opened = await openPage(browser, new URL(`#${id}`, site.url).href, options);
  await opened.page.locator(`[data-testid=operation-detail][data-operation-id=${id}]`).waitFor();
  await opened.page.locator("[data-testid=mock-counts]").waitFor({ timeout: 15_000 });
  return opened;
}

async function goTo(page, id) {
  await page.locator(`[data-testid=operation][data-operation-id=${id}] a`).click();
  await page.locator(`[data-testid=operation-detail][data-operation-id=${id}]`).waitFor();
}

/** Sends, and resolves to the answer (or failure) of this send, never the one shown before. */
async function sendAndRead(page) {
  const shown = page.locator("[data-testid=try-result] > *");
  const before = (await shown.count()) === 0 ? null : await shown.getAttribute("data-exchange");
  await page.locator("[data-testid=try-send]").click();
  const fresh = before === null ? shown : page.locator(`[data-testid=try-result] > :not([data-exchange="${before}"])`);
  await fresh.waitFor({ timeout: 40_000 });
  await page.locator("[data-testid=try-send]:not([disabled])").waitFor({ timeout: 40_000 });
  assert.equal(await shown.count(), 1, "one answer is shown");
  const answer = page.locator("[data-testid=try-answer], [data-testid=try-failure]").first();
  assert.notEqual(await answer.getAttribute("data-exchange"), before, "the answer shown is this send's");
  return answer;
}

test("two creates in a row: the second answer's Location and body are its own, written into the same elements", async () => {
  const { page, context, problems } = await openOperation("createPet");
  try {
    const first = await sendAndRead(page);
    assert.equal(await first.getAttribute("data-status"), "201");
    await page.locator("[data-testid=try-answer] summary").click();
    const headers = page.locator("[data-testid=try-response-headers] li");
    const location = () => headers.filter({ hasText: /^location: /i }).textContent();
    const firstLocation = await location();
    assert.match(firstLocation, /^location: \/pets\/\d+$/i);
    await page.evaluate(() => {
      for (const li of document.querySelectorAll("[data-testid=try-response-headers] li")) li.marked = true;
    });
    const second = await sendAndRead(page);
    assert.equal(await second.getAttribute("data-status"), "201");
    const secondLocation = await location();
    assert.match(secondLocation, /^location: \/pets\/\d+$/i);
    assert.notEqual(secondLocation, firstLocation);
    const id = secondLocation.split("/").pop();
    assert.equal(JSON.parse(await page.locator("[data-testid=try-body-view]").textContent()).id, Number(id), "the body is the created pet's");
    assert.equal(await headers.evaluateAll((items) => items.every((li) => li.marked)), true, "the header rows stay");
    assert.equal(await headers.count(), await page.locator("[data-testid=try-answer] summary").evaluate((s) => Number(s.textContent.match(/\d+/)[0])));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a new answer is written over the one before: an opened Headers list stays open, the Recent list adds one row and keeps the others", async () => {
  const { page, context, problems } = await openOperation("getPet");
  try {
    const petId = page.locator("[data-testid=try-param][data-name=petId]");
    await petId.fill("1");
    await sendAndRead(page);
    await page.locator("[data-testid=try-answer] summary").click();
    // Marks on the elements shown: an element written again would lose its mark.
    await page.evaluate(() => {
      document.querySelector("[data-testid=try-answer]").marked = true;
    });
    const again = await sendAndRead(page);
    assert.equal(await again.getAttribute("data-status"), "200");
    assert.equal(await again.evaluate((e) => e.marked), true, "the answer's elements stay");
    assert.equal(await page.locator("[data-testid=try-answer] details").getAttribute("open"), "", "Headers stays open");
    assert.match(await page.locator("[data-testid=try-response-headers]").textContent(), /content-type: application\/json/i);

    const rows = page.locator("[data-testid=try-history] .history-entry");
    await page.evaluate(() => {
      for (const row of document.querySelectorAll("[data-testid=try-history] .history-entry")) row.marked = row.dataset.entry;
    });
    // Seven more sends, 404 and 200 by turns: five rows at most, newest first, one pressed.
    const statuses = ["200", "200"];
    for (let i = 0; i < 7; i++) {
      const missing = i % 2 === 0;
      await petId.fill(missing ? "999999" : "1");
      const answer = await sendAndRead(page);
      statuses.unshift(missing ? "404" : "200");
      assert.equal(await answer.getAttribute("data-status"), statuses[0]);
      assert.equal(await page.locator("[data-testid=try-error]").count(), missing ? 1 : 0, "the error line is the answer's own");
      assert.equal(await page.locator("[data-testid=try-body-view]").count(), 1);
      if (i === 0) {
        const kept = await page.evaluate(() =>
          [...document.querySelectorAll("[data-testid=try-history] .history-entry")].map((row) => row.marked ?? null),
        );
        assert.equal(kept[0], null, "the new row is new");
        assert.deepEqual(kept.slice(1).every((mark, i) => mark !== undefined && mark !== null), true, `the older rows stay: ${kept}`);
      }
    }
    assert.equal(await rows.count(), 5);
    const texts = await rows.allTextContents();
    texts.forEach((text, i) => assert.match(text, new RegExp(`${statuses[i]} GET /pets/${statuses[i] === "404" ? "999999" : "1"}`)));
    const pressed = await rows.evaluateAll((all) => all.map((row) => row.getAttribute("aria-pressed")));
    assert.deepEqual(pressed, ["true", "false", "false", "false", "false"]);

    // An earlier answer comes back whole: its status, its error line, its body.
    await rows.nth(1).click();
    await page.locator("[data-testid=try-answer][data-status='200']").waitFor();
    assert.equal(await page.locator("[data-testid=try-error]").count(), 0);
    assert.equal(JSON.parse(await page.locator("[data-testid=try-body-view]").textContent()).id, 1);
    assert.deepEqual(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("aria-pressed"))), ["false", "true", "false", "false", "false"]);
    await rows.nth(2).click();
    await page.locator("[data-testid=try-answer][data-status='404']").waitFor();
    assert.match(await page.locator("[data-testid=try-error]").textContent(), /not_found: Pet 999999 does not exist/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("an answer without a body shows no body box, also when written over one with a body", async () => {
  const { page, context, problems } = await openOperation("deletePet");
  try {
    const petId = page.locator("[data-testid=try-param][data-name=petId]");
    const body = page.locator("[data-testid=try-body-view]");
    for (const [id, status, shown] of [["999999", "404", true], ["1", "204", false], ["999999", "404", true]]) {
      await petId.fill(id);
      const answer = await sendAndRead(page);
      assert.equal(await answer.getAttribute("data-status"), status);
      assert.equal(await body.isVisible(), shown, `${status}: body box shown`);
      if (shown) assert.match(await body.textContent(), /"code": "not_found"/);
      else assert.doesNotMatch(await answer.innerText(), /not_found/, "the last answer's body is gone");
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("try-it POST /pets to the in-browser mock shows 201, GET /pets lists the pet, and a reload keeps it", async () => {
  const { page, context, problems } = await openOperation("createPet");
  try {
    await page.locator("[data-testid=try-body]").fill(JSON.stringify({ name: "Biscuit", categoryId: 1 }, null, 2));
    const answer = await sendAndRead(page);
    assert.equal(await answer.getAttribute("data-status"), "201");
    assert.equal(await page.locator("[data-testid=try-status]").textContent(), "201 Created");
    const created = JSON.parse(await page.locator("[data-testid=try-body-view]").textContent());
    assert.equal(created.name, "Biscuit");
    assert.match(await page.locator("[data-testid=mock-counts]").textContent(), /^7 pets/);

    await goTo(page, "listPets");
    // Descriptions are Markdown, rendered once the deferred renderer module has loaded.
    await page.locator("[data-testid=operation-detail] .markdown code", { hasText: "X-Total-Count" }).waitFor();
    await page.locator("[data-testid=try-param][data-name=limit]").fill("100");
    // Ctrl+Enter sends from anywhere in the panel.
    await page.locator("[data-testid=try-param][data-name=limit]").press("Control+Enter");
    await page.locator("[data-testid=try-answer][data-status='200']").waitFor();
    const list = JSON.parse(await page.locator("[data-testid=try-body-view]").textContent());
    assert.ok(list.some((pet) => pet.id === created.id && pet.name === "Biscuit"), JSON.stringify(list));

    await page.reload();
    await page.locator("[data-testid=operation-detail][data-operation-id=listPets]").waitFor();
    await goTo(page, "getPet");
    await page.locator("[data-testid=try-param][data-name=petId]").fill(String(created.id));
    const again = await sendAndRead(page);
    assert.equal(await again.getAttribute("data-status"), "200");
    assert.equal(JSON.parse(await page.locator("[data-testid=try-body-view]").textContent()).name, "Biscuit");
    const headers = await page.locator("[data-testid=try-response-headers]").textContent();
    assert.match(headers, /sunset: Wed, 30 Jun 2027/i, "the deprecated operation's Sunset header is shown");

    // Enter in a one-line field sends, as in a form; the Recent list brings an earlier answer back.
    await page.locator("[data-testid=try-param][data-name=petId]").fill("999999");
    await page.locator("[data-testid=try-param][data-name=petId]").press("Enter");
    await page.locator("[data-testid=try-answer][data-status='404']").waitFor();
    const recent = page.locator("[data-testid=try-history] .history-entry");
    assert.equal(await recent.count(), 2);
    assert.equal(await recent.nth(0).getAttribute("aria-pressed"), "true");
    assert.match(await recent.nth(0).textContent(), /404 GET \/pets\/999999/);
    await recent.nth(1).click();
    await page.locator("[data-testid=try-answer][data-status='200']").waitFor();
    assert.equal(JSON.parse(await page.locator("[data-testid=try-body-view]").textContent()).name, "Biscuit");
    assert.equal(await recent.nth(1).getAttribute("aria-pressed"), "true");
    assert.equal(await recent.nth(0).getAttribute("aria-pressed"), "false");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a trap in the app's WebAssembly shows a message with Reload; the saved mock is untouched and a reload works", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  // The instance's exports, as Trunk's loader announces them.
  await page.addInitScript(() => addEventListener("TrunkApplicationStarted", (event) => (window.__exports = event.detail.wasm)));
  try {
    await page.goto(new URL("#createPet", site.url).href);
    await page.locator("[data-testid=operation-detail][data-operation-id=createPet]").waitFor();
    await page.locator("[data-testid=mock-counts]").waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=try-body]").fill(JSON.stringify({ name: "Survivor", categoryId: 1 }));
    assert.equal(await (await sendAndRead(page)).getAttribute("data-status"), "201");
    const stored = () => page.evaluate(() => JSON.stringify(Object.entries(localStorage).sort()));
    const before = await stored();
    assert.match(before, /Survivor/);

    // A real trap: the allocator's free() of an address far past the instance's memory reads
    // out of bounds, in a task of its own as a broken event handler would.
    await page.evaluate(() => setTimeout(() => window.__exports.__wbindgen_free(0xfffffff0, 16, 1)));
    const message = page.locator("[data-testid=page-died]");
    await message.waitFor({ timeout: 10_000 });
    assert.equal(await message.getAttribute("role"), "alert");
    assert.match(await message.textContent(), /stopped working \(.+\)\. Your saved mock data, documents and settings are untouched/);
    assert.ok(pageErrors.some((e) => /out of bounds/.test(e)), pageErrors.join("; "));
    assert.equal(await stored(), before, "storage untouched");
    assert.ok(await message.locator("[data-testid=page-died-reload]").evaluate((b) => b === document.activeElement));
    await page.screenshot({ path: join(ARTIFACTS, "page-died-light-desktop.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, "page-died-dark-phone.png") });

    await message.locator("[data-testid=page-died-reload]").click();
    await page.locator("[data-testid=operation-detail][data-operation-id=createPet]").waitFor();
    await page.locator("[data-testid=mock-counts]", { hasText: "7 pets" }).waitFor({ timeout: 15_000 });
    assert.equal(await page.locator("[data-testid=page-died]").count(), 0);
  } finally {
    await context.close();
  }
});

test("a try-it module that cannot load leaves the operation's reference and says why", async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // The module's WebAssembly never arrives (a network that drops it).
    await page.route("**/tryit/playground_tryit_bg.wasm", (route) => route.abort());
    await page.goto(new URL("#getCategory", site.url).href);
    const detail = page.locator("[data-testid=operation-detail][data-operation-id=getCategory]");
    const failed = detail.locator("[data-testid=try-it-failed]");
    await failed.waitFor();
    assert.equal(await failed.getAttribute("role"), "alert");
    assert.match(await failed.textContent(), /^The try-it panel could not be loaded: .+\. Reload the page to try again\.$/);
    // The rest of the operation is there.
    assert.equal(await detail.locator("[data-testid=parameter]").count(), 1);
    assert.equal(await detail.locator("[data-testid=responses]").count(), 1);
    assert.equal(await page.locator("[data-testid=try-it]").count(), 0);
  } finally {
    await context.close();
  }
});

test("an Error object from the mock is shown as an error", async () => {
  const { page, context } = await openOperation("getCategory");
  try {
    await page.locator("[data-testid=try-param][data-name=categoryId]").fill("424242");
    const answer = await sendAndRead(page);
    assert.equal(await answer.getAttribute("data-status"), "404");
    assert.match(await page.locator("[data-testid=try-error]").textContent(), /^Error not_found: /);
  } finally {
    await context.close();
  }
});

test("try-it against the native mock server as a custom base URL shows its answer, and the URL is remembered", async () => {
  const { page, context, problems } = await openOperation("getCategory");
  try {
    await page.locator("[data-testid=try-target]").selectOption("custom");
    await page.locator("[data-testid=try-base-url]").fill(mockServer.url);
    await page.locator("[data-testid=try-param][data-name=categoryId]").fill("2");
    const answer = await sendAndRead(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    assert.match(await page.locator("[data-testid=try-it] .try-meta").first().textContent(), new RegExp(mockServer.url.replace(/[.:/]/g, "\\$&")));
    const sample = await page.locator("[data-testid=sample-source]").textContent();
    assert.ok(sample.includes(`${mockServer.url}/categories/2`), sample);

    await page.reload();
    await page.locator("[data-testid=operation-detail][data-operation-id=getCategory]").waitFor();
    assert.equal(await page.locator("[data-testid=try-target]").inputValue(), "custom");
    assert.equal(await page.locator("[data-testid=try-base-url]").inputValue(), mockServer.url);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a server without CORS headers, and a closed port, are explained in plain words", async () => {
  const { page, context } = await openOperation("listPets");
  try {
    await page.locator("[data-testid=try-target]").selectOption("custom");
    await page.locator("[data-testid=try-base-url]").fill(plainServer.url);
    const failure = await sendAndRead(page);
    const text = await failure.textContent();
    assert.match(text, /answered, but it does not allow this page to read its answers/);
    assert.ok(text.includes(`Access-Control-Allow-Origin: ${new URL(site.url).origin}`), text);
    assert.doesNotMatch(text, /failed to fetch/i);

    const closed = await new Promise((ok) => {
      const probe = createServer();
      probe.listen(0, "127.0.0.1", () => { const { port } = probe.address(); probe.close(() => ok(port)); });
    });
    await page.locator("[data-testid=try-base-url]").fill(`http://127.0.0.1:${closed}`);
    const down = await sendAndRead(page);
    assert.match(await down.textContent(), new RegExp(`Nothing answered at http://127.0.0.1:${closed}`));
    assert.equal(await page.locator("[data-testid=try-history] li").count(), 2, "both tries are in the history");

    // Cancel stops a request that is taking long.
    await page.locator("[data-testid=try-base-url]").fill(`${plainServer.url}/slow`);
    await page.locator("[data-testid=try-send]").click();
    await page.locator("[data-testid=try-cancel]").click();
    await page.locator("[data-testid=try-failure]", { hasText: "Cancelled." }).waitFor({ timeout: 5_000 });
    assert.equal(await page.locator("[data-testid=try-send]").textContent(), "Send");
  } finally {
    await context.close();
  }
});

test("the mock exports its state, refuses a bad import with the reason, and imports a good one", async () => {
  const { page, context } = await openOperation("listPets");
  try {
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("[data-testid=mock-export]").click()]);
    const exported = await readFile(await download.path(), "utf8");
    const state = JSON.parse(exported);
    const counts = await page.locator("[data-testid=mock-counts]").textContent();
    assert.deepEqual(Object.keys(state).sort(), ["categories", "nextIds", "orders", "pets", "stock", "version"], "the export is the snapshot JSON");
    assert.equal(state.version, 1);
    assert.equal(`${state.pets.length} pets`, counts.match(/^\d+ pets/)?.[0], "every pet the block counts is exported");

    const bad = join(ARTIFACTS, "bad-state.json");
    await writeFile(bad, "{\"version\": 1, \"pets\": [");
    await page.locator("[data-testid=mock-import]").setInputFiles(bad);
    const refused = page.locator("[data-testid=mock-transfer-result]");
    await refused.waitFor();
    assert.match(await refused.textContent(), /bad-state\.json was not imported, and the mock is unchanged: /);
    assert.equal(await refused.getAttribute("role"), "alert");
    assert.equal(await page.locator("[data-testid=mock-counts]").textContent(), counts);

    const empty = join(ARTIFACTS, "empty-state.json");
    await page.locator("[data-testid=mock-reset]").click();
    await page.locator("[data-testid=mock-reset-empty]").click();
    await page.locator("[data-testid=mock-counts]", { hasText: "0 pets" }).waitFor();
    await writeFile(empty, exported);
    await page.locator("[data-testid=mock-import]").setInputFiles(empty);
    await page.locator("[data-testid=mock-transfer-result]", { hasText: "Imported empty-state.json." }).waitFor();
    assert.equal(await page.locator("[data-testid=mock-counts]").textContent(), counts);
  } finally {
    await context.close();
  }
});

test("the reference links to Project settings > Domains, which loads its own module", async () => {
  const { page, context, problems } = await openOperation("listPets");
  try {
    // The try-it module is in (a navigation while its download runs would abort that request).
    await page.locator("[data-testid=try-send]").waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=domains-link]").click();
    await page.locator("[data-testid=domains-page]").waitFor({ timeout: 15_000 });
    assert.match(page.url(), /domains\.html$/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("at phone width a parameter's location and required mark read as two words", async () => {
  const { page, context } = await openOperation("getPet", { viewport: { width: 390, height: 844 } });
  try {
    const row = page.locator("[data-testid=parameter][data-name=petId]");
    assert.match(await row.innerText(), /\bin path required/);
    const [where, required] = await Promise.all([row.locator(".param-in"), row.locator(".required")].map((l) => l.boundingBox()));
    assert.ok(required.x >= where.x + where.width || required.y > where.y, "the mark does not touch the location");
  } finally {
    await context.close();
  }
});

for (const colorScheme of ["light", "dark"]) {
  test(`axe-core finds no serious or critical violation (${colorScheme}), and the try-it panel looks right`, async () => {
    for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const { page, context } = await openOperation("createPet", { colorScheme, viewport });
      try {
        await page.locator("[data-testid=try-send]").click();
        await page.locator("[data-testid=try-answer]").waitFor();
        await page.addScriptTag({ path: AXE });
        const results = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
        const bad = results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
        assert.deepEqual(bad, [], `axe violations at ${name} width`);
        await page.locator("[data-testid=try-it]").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(ARTIFACTS, `try-it-${colorScheme}-${name}.png`) });
      } finally {
        await context.close();
      }
    }
  });
}
