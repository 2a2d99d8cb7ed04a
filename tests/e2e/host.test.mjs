// The Domains page served by `playground host`, in headless Chromium, against the host's real
// state: a site made by `playground build` (tests/fixtures/library), an owner whose argon2 hash
// comes from `playground host hash-password`, and Debian's Pebble (ACME) with
// pebble-challtestsrv (DNS, records set over HTTP) on 127.0.0.1 as the certificate authority and
// the DNS the host asks. The walk: the page knows it is on a host, a wrong password is refused,
// sign-in, a Pro project's domain added with its CNAME shown, the record set, Verify, the
// certificate issued by Pebble and the domain live (and served over HTTPS with its SNI),
// Remove, a Free project's add refused with the plan message, sign-out; screenshots and axe-core
// in light and dark, desktop and phone; an admin page over plain HTTP that is not localhost (the
// browser keeps no Secure cookie there, and the page says so); too many wrong passwords. Every
// process started here is stopped in `after`.
//
// The admin host is admin.docs.localhost: Chromium resolves every *.localhost name to the
// loopback address and treats it as a secure context, so the host's Secure session cookie is
// kept over plain HTTP in the test, as it is over HTTPS for real.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";
import { ARTIFACTS, CHROMIUM_ARGS, DIST } from "./harness.mjs";

const run = promisify(execFile);
const HERE = fileURLToPath(new URL(".", import.meta.url));
const REPO = join(HERE, "../..");
const LIBRARY = join(REPO, "tests/fixtures/library/openapi.yaml");
const TARGET = process.env.CARGO_TARGET_DIR ?? join(REPO, "target");
const PLAYGROUND = join(TARGET, "debug/playground");
const PEBBLE = "/usr/bin/pebble";
const CHALLTESTSRV = "/usr/bin/pebble-challtestsrv";

const PLATFORM = "docs.localhost";
const ADMIN = `admin.${PLATFORM}`;
const CNAME_TARGET = `cname.${PLATFORM}`;
const OWNER = "ana@example.com";
const PASSWORD = "correct horse battery staple";
const DOMAIN = "docs.example.test";
const CA = "pebble.letsencrypt.org";
/** An admin host that is not localhost, reached over plain HTTP (the browser keeps no Secure
 * cookie there). */
const PLAIN_ADMIN = "admin.docs-host.test";
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let work;
let browser;
let host;
let pebble;
let plain;
const children = [];

/** A TCP port on 127.0.0.1 that was free a moment ago. */
async function freePort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

/** Starts `command args` with its output in `log`; stopped in `after`. */
function start(command, args, { log, env, cwd } = {}) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  child.output = "";
  const keep = (chunk) => {
    child.output += chunk;
    if (log) writeFile(log, child.output).catch(() => {});
  };
  child.stdout.setEncoding("utf8").on("data", keep);
  child.stderr.setEncoding("utf8").on("data", keep);
  children.push(child);
  return child;
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const exited = once(child, "exit");
  const late = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(late);
}

/** Waits until `check` resolves truthy, or fails with `what` and the children's logs. */
async function until(what, check, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() > deadline) {
      const logs = children.map((c) => `--- ${c.spawnargs.join(" ")}\n${c.output.slice(-2000)}`).join("\n");
      throw new Error(`${what} did not happen within ${timeout} ms\n${logs}`);
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/** An HTTPS request trusting `ca`, to 127.0.0.1:`port` with the SNI and Host `name`. */
function httpsGet(port, path, { ca, name } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: "127.0.0.1", port, path, servername: name, headers: name ? { host: name } : {}, ca, rejectUnauthorized: Boolean(ca) },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Pebble and its DNS server on free ports, validating HTTP-01 on `http01Port`. */
async function startPebble(dir, http01Port) {
  await mkdir(dir, { recursive: true });
  // A self-signed end-entity certificate (CA:FALSE): rustls refuses a CA certificate as a
  // server's own, and the host trusts this one as `acme.extra_root`.
  await writeFile(join(dir, "openssl.cnf"), [
    "[req]", "distinguished_name = dn", "x509_extensions = ext", "prompt = no",
    "[dn]", "CN = Pebble listener (tests)",
    "[ext]", "basicConstraints = critical, CA:FALSE", "keyUsage = critical, digitalSignature, keyEncipherment",
    "extendedKeyUsage = serverAuth", "subjectAltName = IP:127.0.0.1, DNS:localhost", "",
  ].join("\n"));
  const made = spawnSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-config", join(dir, "openssl.cnf"),
    "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
  ], { stdio: "ignore" });
  assert.equal(made.status, 0, "openssl could not make Pebble's listener certificate");
  const ports = { acme: await freePort(), management: await freePort(), dns: await freePort(), dnsManagement: await freePort(), tls: await freePort() };
  start(CHALLTESTSRV, [
    "-dns01", `127.0.0.1:${ports.dns}`, "-management", `127.0.0.1:${ports.dnsManagement}`,
    "-http01", "", "-https01", "", "-tlsalpn01", "", "-defaultIPv4", "", "-defaultIPv6", "",
  ], { log: join(dir, "challtestsrv.log") });
  await writeFile(join(dir, "pebble.json"), JSON.stringify({
    pebble: {
      listenAddress: `127.0.0.1:${ports.acme}`,
      managementListenAddress: `127.0.0.1:${ports.management}`,
      certificate: join(dir, "cert.pem"),
      privateKey: join(dir, "key.pem"),
      httpPort: http01Port,
      tlsPort: ports.tls,
      ocspResponderURL: "",
      externalAccountBindingRequired: false,
    },
  }));
  start(PEBBLE, ["-config", join(dir, "pebble.json"), "-dnsserver", `127.0.0.1:${ports.dns}`], {
    cwd: dir,
    log: join(dir, "pebble.log"),
    env: { PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" },
  });
  const listenerCa = await readFile(join(dir, "cert.pem"), "utf8");
  const dns = async (path, body) => {
    const res = await fetch(`http://127.0.0.1:${ports.dnsManagement}${path}`, { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`pebble-challtestsrv ${path} answered ${res.status}: ${await res.text()}`);
  };
  await until("pebble-challtestsrv answering", async () => (await dns("/set-default-ipv4", { ip: "" }), true));
  await until("Pebble answering", async () => (await httpsGet(ports.acme, "/dir", { ca: listenerCa })).status === 200);
  const root = await httpsGet(ports.management, "/roots/0", { ca: listenerCa });
  return {
    directoryUrl: `https://127.0.0.1:${ports.acme}/dir`,
    listenerCa: join(dir, "cert.pem"),
    issuingRoot: root.body,
    dnsServer: `127.0.0.1:${ports.dns}`,
    dns,
  };
}

/** `playground host hash-password` of `password`. */
async function hashPassword(password) {
  const child = spawn(PLAYGROUND, ["host", "hash-password"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (c) => (out += c));
  child.stderr.setEncoding("utf8").on("data", (c) => (err += c));
  child.stdin.end(`${password}\n`);
  const [code] = await once(child, "exit");
  assert.equal(code, 0, err);
  return out.trim();
}

before(async () => {
  // The CLI, as `cargo test --workspace` left it (built again only if something changed).
  await run("cargo", ["build", "--quiet", "--locked", "-p", "playground"], { cwd: REPO, maxBuffer: 1 << 24 });
  await mkdir(ARTIFACTS, { recursive: true });
  work = await mkdtemp(join(tmpdir(), "playground-host-"));
  const site = join(work, "site");
  await run(PLAYGROUND, ["build", "--spec", LIBRARY, "--out", site, "--app", DIST]);
  const hash = await hashPassword(PASSWORD);
  assert.match(hash, /^\$argon2id\$/);

  const http = await freePort();
  const https = await freePort();
  assert.ok(existsSync(PEBBLE) && existsSync(CHALLTESTSRV), "Debian's pebble package is missing: run scripts/ensure-tools.sh test");
  pebble = await startPebble(join(work, "pebble"), http);
  // Pebble reaches the host's HTTP-01 answers at the addresses its DNS gives the domain: the
  // CNAME target's, 127.0.0.1.
  await pebble.dns("/add-a", { host: CNAME_TARGET, addresses: ["127.0.0.1"] });

  const config = (admin, data, listen) => `
platform_domain = "${PLATFORM}"
cname_target = "${CNAME_TARGET}"
admin_host = "${admin}"
data_dir = "${data}"
dashboard_dir = ${JSON.stringify(DIST)}
[listen]
${listen}
[acme]
directory_url = "${pebble.directoryUrl}"
contact = "mailto:ops@example.com"
ca_identifier = "${CA}"
extra_root = ${JSON.stringify(pebble.listenerCa)}
renew_check_secs = 1
[dns]
server = "${pebble.dnsServer}"
[[owners]]
email = "${OWNER}"
password_hash = "${hash}"
[[projects]]
name = "library"
site = "site"
owner = "${OWNER}"
plan = "pro"
[[projects]]
name = "sandbox"
site = "site"
owner = "${OWNER}"
plan = "free"
`;
  await writeFile(join(work, "host.toml"), config(ADMIN, "data", `http = "127.0.0.1:${http}"\nhttps = "127.0.0.1:${https}"`));
  const child = start(PLAYGROUND, ["host", "--config", join(work, "host.toml")], { log: join(work, "host.log") });
  await until("playground host listening", () => /listening on http:\/\//.test(child.output));
  host = { http, https, admin: `http://${ADMIN}:${http}`, child };
  // A second host on its own state whose admin host is not localhost.
  const plainPort = await freePort();
  await writeFile(join(work, "plain.toml"), config(PLAIN_ADMIN, "data-plain", `http = "127.0.0.1:${plainPort}"`));
  const second = start(PLAYGROUND, ["host", "--config", join(work, "plain.toml")], { log: join(work, "plain.log") });
  await until("the second playground host listening", () => /listening on http:\/\//.test(second.output));
  plain = `http://${PLAIN_ADMIN}:${plainPort}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    // *.localhost is the loopback address already; the rule keeps it to 127.0.0.1, where the
    // host listens.
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP *.${PLATFORM} 127.0.0.1, MAP ${PLAIN_ADMIN} 127.0.0.1`],
  });
});

after(async () => {
  await browser?.close();
  for (const child of children.reverse()) await stop(child);
  if (work) await rm(work, { recursive: true, force: true });
});

const id = (page, testid) => page.locator(`[data-testid=${testid}]`);
const card = (page, domain) => page.locator(`[data-testid=domain][data-domain="${domain}"]`);

/** The Domains page on the admin host; failed requests other than the API's expected 4xx are
 * problems. */
async function openHostPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on("response", (res) => {
    if (res.status() >= 400 && !res.url().includes("/_host/api/")) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  await page.goto(`${host.admin}/domains.html`);
  await id(page, "domains-page").waitFor();
  return { page, context, problems };
}

/** axe-core finds no serious or critical violation on `page`. */
async function axeClean(page, where) {
  await page.addScriptTag({ path: AXE });
  const results = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ["violations"] }));
  const bad = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  assert.deepEqual(bad, [], `axe violations (${where})`);
}

/** Waits until the card of `name` is in one of `states`; fails with the card's text and the
 * host's log. */
async function waitState(page, name, states, timeout) {
  try {
    await page.waitForFunction(
      ([n, s]) => s.includes(document.querySelector(`[data-domain="${n}"]`)?.dataset.state),
      [name, states],
      { timeout },
    );
  } catch (error) {
    const shown = await card(page, name).innerText().catch(() => "(no card)");
    throw new Error(`${name} is not ${states.join(" or ")}: ${error.message}\n--- the card\n${shown}\n--- the host\n${host.child.output.slice(-3000)}`);
  }
}

/** Whether the host has a real DNS resolver and certificate authority wired in. */

test("on the host the page signs the owner in and works on the host's domains, from Add to live and removed", async () => {
  const { page, context, problems } = await openHostPage();
  try {
    // The host named its API in the page: no demo, no simulated zone, no settings.
    assert.equal(await page.locator("meta[name=playground-host-api]").getAttribute("content"), "/_host/api");
    assert.equal(await id(page, "domains-page").getAttribute("data-mode"), "host");
    // The host's module only: the demo's (simulated zone, settings, DNS-over-HTTPS) is not loaded.
    const modules = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    assert.ok(modules.includes("/dashboard-host/playground_dashboard_bg.wasm"), modules.join(" "));
    assert.ok(!modules.some((p) => p.startsWith("/dashboard/")), modules.join(" "));
    assert.equal(await page.locator("[data-testid=back-to-reference]").count(), 0);
    await id(page, "sign-in-form").waitFor();
    for (const absent of ["demo-label", "zone", "settings"]) assert.equal(await id(page, absent).count(), 0, `no ${absent}`);

    // A wrong password is refused with the host's sentence.
    await id(page, "sign-in-email").fill(OWNER);
    await id(page, "sign-in-password").fill("not the password");
    await id(page, "sign-in-button").click();
    await id(page, "sign-in-error").filter({ hasText: "The email or password is not right." }).waitFor();
    assert.equal(await id(page, "account").count(), 0);

    // Signed in: the owner's two projects, the Pro one first.
    await id(page, "sign-in-password").fill(PASSWORD);
    await id(page, "sign-in-button").click();
    await id(page, "account-email").filter({ hasText: OWNER }).waitFor();
    const cookies = await context.cookies(host.admin);
    const session = cookies.find((c) => c.name === "host_session");
    assert.ok(session?.httpOnly && session.secure && session.sameSite === "Strict", JSON.stringify(cookies));
    await id(page, "published-address").filter({ hasText: `library.${PLATFORM}` }).waitFor();
    assert.deepEqual(await id(page, "project-select").locator("option").allTextContents(), ["library (Pro plan)", "sandbox (Free plan)"]);
    await id(page, "no-domains").waitFor();

    // The name check answers at once, before the host is asked.
    await id(page, "add-input").fill(`x.${PLATFORM}`);
    await id(page, "add-button").click();
    await id(page, "add-error").filter({ hasText: PLATFORM }).waitFor();

    // Add: the CNAME to create, from the host.
    await id(page, "add-input").fill(DOMAIN);
    await id(page, "add-button").click();
    await id(page, "add-status").filter({ hasText: DOMAIN }).waitFor();
    const domain = card(page, DOMAIN);
    await domain.waitFor();
    assert.equal(await domain.getAttribute("data-state"), "added");
    assert.equal(await domain.locator("[data-testid=instr-type]").textContent(), "CNAME");
    assert.equal(await domain.locator("[data-testid=instr-name]").textContent(), "docs");
    assert.equal(await domain.locator("[data-testid=instr-value]").textContent(), CNAME_TARGET);
    await page.screenshot({ path: join(ARTIFACTS, "host-added.png"), fullPage: true });

    // Verify before the record exists: the host's answer, readable, and the card stays added.
    await domain.locator("[data-testid=verify]").click();
    const result = domain.locator("[data-testid=domain-result-text]");
    await result.waitFor();
    const first = await result.textContent();
    assert.equal(await domain.getAttribute("data-state"), "added");
    assert.ok(first.length > 20, first);

    // Real DNS (pebble-challtestsrv) has no record yet: the host's verification says so.
    assert.match(first, /CNAME/, first);
    // The record set at the "DNS provider": Verify passes, the certificate follows from Pebble.
    await pebble.dns("/set-cname", { host: DOMAIN, target: CNAME_TARGET });
    await domain.locator("[data-testid=verify]").click();
    await waitState(page, DOMAIN, ["verified", "live"], 30_000);
    // The page asks again on its own while the certificate is pending.
    await waitState(page, DOMAIN, ["live"], 60_000);
    assert.equal(await domain.locator("[data-testid=certificate]").getAttribute("data-status"), "issued");
    await domain.locator("[data-testid=domain-result-text]").filter({ hasText: "has been issued" }).waitFor();
    await id(page, "published-address").filter({ hasText: DOMAIN }).waitFor();
    // The site over HTTPS at the domain, with Pebble's certificate for its name.
    const served = await httpsGet(host.https, "/", { ca: pebble.issuingRoot, name: DOMAIN });
    assert.equal(served.status, 200);
    assert.match(served.body, /Library/);
    await page.screenshot({ path: join(ARTIFACTS, "host-live.png"), fullPage: true });

    // Remove: the warning first, then the domain is gone at once.
    await domain.locator("[data-testid=remove]").click();
    await domain.locator("[data-testid=remove-warning]").waitFor();
    await domain.locator("[data-testid=remove-confirm-button]").click();
    await id(page, "announcement").filter({ hasText: DOMAIN }).waitFor();
    await id(page, "no-domains").waitFor();
    await id(page, "published-address").filter({ hasText: `library.${PLATFORM}` }).waitFor();
    const api = await page.evaluate(async () => (await fetch("/_host/api/projects/library/domains")).json());
    assert.deepEqual(api.domains, []);

    // The Free project: the host refuses the add with the plan's sentence.
    await id(page, "project-select").selectOption("sandbox");
    await id(page, "published-address").filter({ hasText: `sandbox.${PLATFORM}` }).waitFor();
    await id(page, "plan-note").waitFor();
    await id(page, "add-input").fill(DOMAIN);
    await id(page, "add-button").click();
    await id(page, "add-error").filter({ hasText: /Pro/ }).waitFor();
    assert.equal(await card(page, DOMAIN).count(), 0);

    // Sign out: back to the form, and the API refuses the old session.
    await id(page, "sign-out").click();
    await id(page, "sign-in-form").waitFor();
    await id(page, "sign-in-status").filter({ hasText: "signed out" }).waitFor();
    const me = await page.evaluate(async () => (await fetch("/_host/api/me")).status);
    assert.equal(me, 401);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the page on the host in light and dark, desktop and phone (screenshots in artifacts/)", async () => {
  const shots = "shots.example.test";
  for (const colorScheme of ["light", "dark"]) {
    for (const [label, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
      const context = await browser.newContext({ colorScheme, viewport });
      const page = await context.newPage();
      try {
        await page.goto(`${host.admin}/domains.html`);
        await id(page, "sign-in-form").waitFor();
        await page.screenshot({ path: join(ARTIFACTS, `host-sign-in-${label}-${colorScheme}.png`), fullPage: true });
        await axeClean(page, `sign-in ${label} ${colorScheme}`);
        await id(page, "sign-in-email").fill(OWNER);
        await id(page, "sign-in-password").fill(PASSWORD);
        await id(page, "sign-in-button").click();
        await id(page, "account").waitFor();
        await id(page, "published-address").waitFor();
        if ((await card(page, shots).count()) === 0) {
          await id(page, "add-input").fill(shots);
          await id(page, "add-button").click();
        }
        await card(page, shots).waitFor();
        await card(page, shots).locator("[data-testid=verify]").click();
        await card(page, shots).locator("[data-testid=domain-result-text]").waitFor();
        // Nothing overflows the page sideways.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${label} ${colorScheme}: ${overflow}px wider than the window`);
        await page.screenshot({ path: join(ARTIFACTS, `host-${label}-${colorScheme}.png`), fullPage: true });
        await axeClean(page, `${label} ${colorScheme}`);
      } finally {
        await context.close();
      }
    }
  }
  // Leaves the project as it found it.
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${host.admin}/domains.html`);
    await id(page, "sign-in-email").fill(OWNER);
    await id(page, "sign-in-password").fill(PASSWORD);
    await id(page, "sign-in-button").click();
    await card(page, shots).locator("[data-testid=remove]").click();
    await card(page, shots).locator("[data-testid=remove-confirm-button]").click();
    await id(page, "no-domains").waitFor();
  } finally {
    await context.close();
  }
});

test("an admin page over plain HTTP that is not localhost: the page says the browser did not keep the session", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${plain}/domains.html`);
    await id(page, "sign-in-form").waitFor();
    await id(page, "sign-in-email").fill(OWNER);
    await id(page, "sign-in-password").fill(PASSWORD);
    await id(page, "sign-in-button").click();
    await id(page, "sign-in-error").filter({ hasText: "did not keep the session" }).waitFor();
    assert.match(await id(page, "sign-in-error").textContent(), /https:\/\//);
    assert.equal(await id(page, "account").count(), 0);
    assert.deepEqual((await context.cookies(plain)).filter((c) => c.name === "host_session"), []);
  } finally {
    await context.close();
  }
});

test("too many wrong passwords: the page says when to try again", async () => {
  const { page, context } = await openHostPage();
  try {
    await id(page, "sign-in-form").waitFor();
    await id(page, "sign-in-email").fill("someone@example.com");
    for (let i = 0; i < 6; i++) {
      await id(page, "sign-in-password").fill(`wrong ${i}`);
      await id(page, "sign-in-button").click();
      await page.waitForFunction(() => !document.querySelector("[data-testid=sign-in-button]").disabled);
    }
    await id(page, "sign-in-error").filter({ hasText: /try again in \d+ seconds/ }).waitFor();
  } finally {
    await context.close();
  }
});
