// Project settings > Domains end to end against the release build (dist/domains.html, which
// loads dist/dashboard/playground_dashboard.js): the walk from Add to live by clicking and typing,
// a reload, DNS-over-HTTPS against a local HTTPS resolver answering recorded JSON, an
// unreachable and a silent resolver, axe-core, and screenshots in light and dark, desktop and phone.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createServer } from "node:https";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ARTIFACTS, launch, openPage, serveStatic } from "./harness.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const ROOT = resolve(HERE, "../..");
const FIXTURES = join(ROOT, "crates/domains/tests/fixtures/doh");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const STORAGE_KEY = "playground/domains/v1";

let site;
let browser;
let resolver;
let certDir;

/** Recorded DNS-over-HTTPS JSON answers, keyed by "name TYPE". Anything else is NXDOMAIN. */
async function recordedAnswers() {
  const cname = await readFile(join(FIXTURES, "cname_found.json"), "utf8");
  const chain = (type) =>
    JSON.stringify({
      Status: 0, TC: false, RD: true, RA: true, AD: false, CD: false,
      Question: [{ name: "docs.example.com.", type }],
      Answer: [
        { name: "docs.example.com.", type: 5, TTL: 3600, data: "cname.docs-host.dev." },
        ...(type === 1 ? [{ name: "cname.docs-host.dev.", type: 1, TTL: 60, data: "203.0.113.7" }] : []),
      ],
    });
  const noCaa = (name) =>
    JSON.stringify({ Status: 0, TC: false, RD: true, RA: true, AD: false, CD: false, Question: [{ name, type: 257 }] });
  return new Map([
    ["docs.example.com CNAME", cname],
    ["docs.example.com A", chain(1)],
    ["docs.example.com AAAA", chain(28)],
    ["docs.example.com CAA", noCaa("docs.example.com.")],
    ["example.com CAA", noCaa("example.com.")],
  ]);
}

/** An HTTPS resolver on 127.0.0.1 (self-signed certificate) that answers the JSON API with CORS
 * headers; `/hang` never answers. Records the questions it was asked. */
async function startResolver() {
  certDir = await mkdtemp(join(tmpdir(), "doh-cert-"));
  const made = spawnSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
    "-addext", "subjectAltName=IP:127.0.0.1",
    "-keyout", join(certDir, "key.pem"), "-out", join(certDir, "cert.pem"),
  ], { stdio: "ignore" });
  assert.equal(made.status, 0, "openssl could not make a test certificate");
  const answers = await recordedAnswers();
  const asked = [];
  const server = createServer(
    { key: await readFile(join(certDir, "key.pem")), cert: await readFile(join(certDir, "cert.pem")) },
    (req, res) => {
      const url = new URL(req.url, "https://127.0.0.1");
      if (url.pathname === "/hang") return; // never answers
      const question = `${url.searchParams.get("name")} ${url.searchParams.get("type")}`;
      asked.push({ question, accept: req.headers.accept });
      const body =
        answers.get(question) ??
        JSON.stringify({ Status: 3, Question: [{ name: `${url.searchParams.get("name")}.`, type: 1 }] });
      res.writeHead(200, { "Content-Type": "application/dns-json", "Access-Control-Allow-Origin": "*" });
      res.end(body);
    },
  );
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return {
    url: `https://127.0.0.1:${port}/dns-query`,
    hang: `https://127.0.0.1:${port}/hang`,
    asked,
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(ok));
    },
  };
}

before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  site = await serveStatic();
  browser = await launch();
  resolver = await startResolver();
});

after(async () => {
  await browser?.close();
  await site?.close();
  await resolver?.close();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

const id = (page, testid) => page.locator(`[data-testid=${testid}]`);
const card = (page, domain) => page.locator(`[data-testid=domain][data-domain="${domain}"]`);

async function openDomains(options = {}) {
  const opened = await openPage(browser, `${site.url}domains.html`, options);
  await id(opened.page, "domains-page").waitFor();
  return opened;
}

async function openSettings(page) {
  if (!(await id(page, "settings").evaluate((d) => d.open))) await page.locator("[data-testid=settings] summary").click();
}

/** Types a setting and commits it, as leaving the field does. */
async function setField(page, testid, value) {
  const field = id(page, testid);
  await field.fill(value);
  await field.press("Tab");
}

async function addDomain(page, name) {
  await id(page, "add-input").fill(name);
  await id(page, "add-button").click();
}

async function addRecord(page, name, type, value) {
  await id(page, "zone-name").fill(name);
  await id(page, "zone-type").selectOption(type);
  await id(page, "zone-value").fill(value);
  await id(page, "zone-save").click();
  await assert.doesNotReject(id(page, "zone-status").filter({ hasText: "Added" }).waitFor());
}

const configOf = async (page) => JSON.parse(await id(page, "config-json").textContent());

test("the walk from Add to live, two domains, primary, removal, and a reload keeps it", async () => {
  const { page, context, problems } = await openDomains();
  try {
    assert.equal(await id(page, "published-address").textContent(), "petstore.docs-host.dev");
    assert.equal(await page.title(), "Project settings › Domains");
    assert.equal(await id(page, "back-to-reference").getAttribute("href"), "./");
    // No host named its API in the page: the demo, and it says so.
    assert.equal(await id(page, "domains-page").getAttribute("data-mode"), "demo");
    assert.match(await id(page, "demo-label").textContent(), /Demo: simulated DNS zone, nothing is served/);
    const modules = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    assert.ok(modules.includes("/dashboard/playground_dashboard_bg.wasm") && !modules.some((p) => p.includes("dashboard-host")), modules.join(" "));

    await openSettings(page);
    await id(page, "setting-plan").selectOption("Free");
    await setField(page, "setting-delay", "0");
    await addDomain(page, "docs.example.com");
    await assert.doesNotReject(id(page, "add-error").filter({ hasText: "paid plan (Pro or above)" }).waitFor());
    assert.equal(await id(page, "domain").count(), 0);

    await id(page, "setting-plan").selectOption("Pro");
    await id(page, "add-button").click();
    const docs = card(page, "docs.example.com");
    await docs.waitFor();
    assert.equal(await docs.getAttribute("data-state"), "added");
    assert.equal(await docs.locator("[data-testid=instr-type]").textContent(), "CNAME");
    assert.equal(await docs.locator("[data-testid=instr-name]").textContent(), "docs");
    assert.equal(await docs.locator("[data-testid=instr-value]").textContent(), "cname.docs-host.dev");
    assert.equal(await docs.locator("[data-testid=instr-ttl]").textContent(), "3600");

    await docs.locator("[data-testid=verify]").click();
    const result = docs.locator("[data-testid=domain-result-text]");
    assert.match(await result.textContent(), /No CNAME record was found for docs\.example\.com yet.*48 hours/);

    // A conflicting A record is named; removing it lets verification pass.
    await addRecord(page, "docs.example.com", "CNAME", "cname.docs-host.dev");
    await addRecord(page, "docs.example.com", "A", "192.0.2.10");
    await docs.locator("[data-testid=verify]").click();
    assert.match(await result.textContent(), /conflicting DNS record.*A 192\.0\.2\.10/);
    await page.getByRole("button", { name: "Remove docs.example.com A 192.0.2.10 (TTL 3600)" }).click();
    await docs.locator("[data-testid=verify]").click();
    await assert.doesNotReject(docs.locator("[data-testid=domain-state]").filter({ hasText: "Live" }).waitFor());
    assert.equal(await docs.locator("[data-testid=certificate]").getAttribute("data-status"), "issued");
    assert.equal(await id(page, "published-address").textContent(), "docs.example.com");

    // A second domain whose record points elsewhere: both values shown; fix it by editing.
    await addDomain(page, "www.example.com");
    const www = card(page, "www.example.com");
    await addRecord(page, "www.example.com", "CNAME", "old-host.example.net");
    await www.locator("[data-testid=verify]").click();
    assert.equal(await www.locator("[data-testid=differs-expected]").textContent(), "cname.docs-host.dev");
    assert.equal(await www.locator("[data-testid=differs-found]").textContent(), "old-host.example.net");
    await page.getByRole("button", { name: "Edit www.example.com CNAME old-host.example.net (TTL 3600)" }).click();
    await id(page, "zone-value").fill("cname.docs-host.dev");
    await id(page, "zone-save").click();
    await www.locator("[data-testid=verify]").click();
    await assert.doesNotReject(www.locator("[data-testid=domain-state]").filter({ hasText: "Live" }).waitFor());

    await www.locator("[data-testid=make-primary]").click();
    assert.equal((await configOf(page)).domains.primary, "www.example.com");
    await docs.locator("[data-testid=make-primary]").click();
    assert.deepEqual(await configOf(page), {
      domains: { primary: "docs.example.com", redirects: [{ from: "www.example.com", to: "docs.example.com", status: 301 }] },
    });

    // The configuration downloads as JSON.
    const [download] = await Promise.all([page.waitForEvent("download"), id(page, "config-download").click()]);
    assert.equal(download.suggestedFilename(), "domains.json");
    assert.deepEqual(JSON.parse(await readFile(await download.path(), "utf8")), await configOf(page));

    // Remove asks first and offers the redirect.
    await www.locator("[data-testid=remove]").click();
    assert.match(await www.locator("[data-testid=remove-warning]").textContent(), /stops its traffic immediately/);
    assert.match(await www.locator("[data-testid=remove-redirect]").textContent(), /301 redirect to docs\.example\.com/);
    await www.locator("[data-testid=remove-confirm-button]").click();
    await www.waitFor({ state: "detached" });
    assert.match(await id(page, "announcement").textContent(), /www\.example\.com was removed/);
    assert.deepEqual((await configOf(page)).domains.redirects, []);

    // A reload keeps everything.
    await page.reload();
    await card(page, "docs.example.com").waitFor();
    assert.equal(await card(page, "docs.example.com").getAttribute("data-state"), "live");
    assert.equal(await id(page, "zone-record").count(), 2);
    assert.equal(await id(page, "published-address").textContent(), "docs.example.com");
    assert.equal(await id(page, "domain").count(), 1);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

async function useDoh(page, url) {
  await openSettings(page);
  await setField(page, "setting-delay", "0");
  await setField(page, "setting-doh", url);
  await id(page, "resolver-doh").check();
  assert.equal(await id(page, "settings-error").textContent(), "");
}

test("DNS-over-HTTPS: recorded answers verify the domain and the certificate follows", async () => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  try {
    await page.goto(`${site.url}domains.html`);
    await id(page, "domains-page").waitFor();
    await useDoh(page, resolver.url);
    await addDomain(page, "docs.example.com");
    const docs = card(page, "docs.example.com");
    await docs.locator("[data-testid=verify]").click();
    await assert.doesNotReject(docs.locator("[data-testid=domain-state]").filter({ hasText: "Live" }).waitFor());
    assert.match(await docs.locator("[data-testid=domain-result-text]").textContent(), /is verified/);
    const questions = resolver.asked.map((a) => a.question);
    for (const q of ["docs.example.com CNAME", "docs.example.com A", "docs.example.com AAAA", "docs.example.com CAA", "example.com CAA"]) {
      assert.ok(questions.includes(q), `the resolver was asked ${q}: ${questions}`);
    }
    assert.ok(resolver.asked.every((a) => a.accept === "application/dns-json"));
    // The choice is kept across a reload.
    await page.reload();
    await id(page, "domains-page").waitFor();
    assert.equal(await id(page, "resolver-doh").isChecked(), true);
  } finally {
    await context.close();
  }
});

test("DNS-over-HTTPS: an unreachable resolver and a silent one give a clear message", async () => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  try {
    await page.goto(`${site.url}domains.html`);
    await id(page, "domains-page").waitFor();
    await useDoh(page, "https://127.0.0.1:9/dns-query");
    await addDomain(page, "docs.example.com");
    const docs = card(page, "docs.example.com");
    await docs.locator("[data-testid=verify]").click();
    const result = docs.locator("[data-testid=domain-result-text]");
    await result.waitFor();
    assert.match(await result.textContent(), /could not be reached: you may be offline/);
    assert.equal(await docs.getAttribute("data-state"), "added");

    await setField(page, "setting-doh", resolver.hang);
    await docs.locator("[data-testid=verify]").click();
    await assert.doesNotReject(result.filter({ hasText: "did not answer within 5 seconds" }).waitFor({ timeout: 15000 }));
    assert.equal(await docs.getAttribute("data-state"), "added");

    // Offline: the browser says so before anything is fetched.
    await context.setOffline(true);
    await docs.locator("[data-testid=verify]").click();
    await assert.doesNotReject(result.filter({ hasText: "You are offline" }).waitFor());
    await context.setOffline(false);
  } finally {
    await context.close();
  }
});

/** A showcase state: a live primary, a re-verified live redirect, an apex waiting for DNS with a failure. */
async function showcase(page) {
  await openSettings(page);
  await setField(page, "setting-delay", "0");
  await addDomain(page, "docs.example.com");
  await addRecord(page, "docs.example.com", "CNAME", "cname.docs-host.dev");
  await card(page, "docs.example.com").locator("[data-testid=verify]").click();
  await addDomain(page, "www.example.com");
  await addRecord(page, "www.example.com", "CNAME", "cname.docs-host.dev");
  await card(page, "www.example.com").locator("[data-testid=verify]").click();
  await setField(page, "setting-delay", "120");
  // Re-verified while live: it keeps serving, a new certificate pending.
  await card(page, "www.example.com").locator("[data-testid=reverify]").click();
  await card(page, "www.example.com").locator("[data-testid=domain-state]").filter({ hasText: "re-verified" }).waitFor();
  await addDomain(page, "example.org");
  await addRecord(page, "example.org", "A", "192.0.2.10");
  await card(page, "example.org").locator("[data-testid=verify]").click();
  await card(page, "example.org").locator("[data-testid=domain-result-text]").waitFor();
}

for (const colorScheme of ["light", "dark"]) {
  test(`axe-core finds no serious or critical violation (${colorScheme}), and screenshots`, async () => {
    for (const [name, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const { page, context, problems } = await openDomains({ colorScheme, viewport });
      try {
        await showcase(page);
        await page.addScriptTag({ path: AXE });
        const results = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
        const bad = results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
        assert.deepEqual(bad, [], `axe violations at ${name} width`);
        const wide = await page.evaluate((w) =>
          [...document.querySelectorAll("body *")]
            .filter((e) => e.getBoundingClientRect().right > w + 1)
            .slice(0, 5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)}px)`),
          viewport.width);
        assert.deepEqual(wide, [], `no horizontal scrolling at ${name} width`);
        await page.screenshot({ path: join(ARTIFACTS, `domains-${colorScheme}-${name}.png`), fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  });
}

test("a corrupt saved state starts fresh with a visible notice", async () => {
  const context = await browser.newContext();
  await context.addInitScript((key) => {
    if (!sessionStorage.getItem("seeded")) {
      localStorage.setItem(key, "not json at all");
      sessionStorage.setItem("seeded", "1");
    }
  }, STORAGE_KEY);
  const page = await context.newPage();
  try {
    await page.goto(`${site.url}domains.html`);
    const notice = id(page, "notice");
    await notice.waitFor();
    assert.match(await notice.textContent(), /could not be read.*started fresh/);
    assert.equal(await page.evaluate((k) => localStorage.getItem(`${k}/unreadable`), STORAGE_KEY), "not json at all");
    await id(page, "notice-dismiss").click();
    assert.equal(await id(page, "notice").count(), 0);
  } finally {
    await context.close();
  }
});
