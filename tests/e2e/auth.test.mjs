// The try-it panel against a real API with real authentication (tests/e2e/auth-server.mjs, on
// another 127.0.0.1 port, so every request is cross-origin): API keys in a header, the query
// and a cookie, HTTP basic and bearer, a combination, OAuth 2 (client credentials, the
// authorization code flow with PKCE through the page's oauth2-redirect.html, implicit, the
// password flow, with no client ID against a token endpoint as FastAPI makes one),
// OpenID Connect discovery, Remember and Forget, server variables, placeholders in the code
// samples, and credentials that never follow a redirect to another origin.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ARTIFACTS, launch, openPage, serveStatic } from "./harness.mjs";
import { CREDENTIALS, authApiDocument, fastapiAuthDocument, makePng, startAuthServer } from "./auth-server.mjs";

let api;
let site;
let browser;
// The site's extra answers: tests add documents of their own servers.
const extra = {};

before(async () => {
  api = await startAuthServer();
  extra["/auth-api.json"] = { type: "application/json", body: JSON.stringify(authApiDocument(api.origin)) };
  site = await serveStatic(undefined, { extra });
  browser = await launch();
  await mkdir(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await site?.close();
  await api?.close();
});

/** Opens the test API's `#operationId` (a fresh browser profile unless `context` is given). */
async function open(id, options, document = "auth-api.json") {
  const opened = await openPage(browser, new URL(`?url=${document}#${id}`, site.url).href, options);
  await opened.page.locator(`[data-testid=operation-detail][data-operation-id=${id}] [data-testid=try-it]`).waitFor();
  return opened;
}

async function goTo(page, id) {
  await page.evaluate((hash) => (location.hash = hash), id);
  await page.locator(`[data-testid=operation-detail][data-operation-id=${id}] [data-testid=try-it]`).waitFor();
}

/** The card of `scheme` in the open operation's Authorization part. */
const card = (page, scheme) => page.locator(`[data-testid=auth-scheme][data-scheme=${scheme}]`);
const input = (page, scheme, part) => card(page, scheme).locator(`[data-testid=auth-input][data-part=${part}]`);

/** Sends; resolves to the answer element of this send. */
async function send(page) {
  const shown = page.locator("[data-testid=try-result] > *");
  const before = (await shown.count()) === 0 ? null : await shown.getAttribute("data-exchange");
  await page.locator("[data-testid=try-send]").click();
  const fresh = before === null ? shown : page.locator(`[data-testid=try-result] > :not([data-exchange="${before}"])`);
  await fresh.waitFor({ timeout: 20_000 });
  await page.locator("[data-testid=try-send]:not([disabled])").waitFor();
  return page.locator("[data-testid=try-answer], [data-testid=try-failure]").first();
}

async function answerJson(answer) {
  return JSON.parse(await answer.locator("[data-testid=try-body-view]").textContent());
}

/** Runs a sign-in that opens a window: it goes to the authorization server, which sends it
 *  back to oauth2-redirect.html; that hands the answer to the page and closes. */
async function signIn(page, scheme) {
  const popup = page.waitForEvent("popup");
  await scheme.locator("[data-testid=auth-get-token]").click();
  const window = await popup;
  await scheme.locator("[data-testid=auth-message]", { hasText: "Token received." }).waitFor({ timeout: 15_000 });
  for (let i = 0; i < 50 && !window.isClosed(); i++) await page.waitForTimeout(100);
  assert.ok(window.isClosed(), "the sign-in window closed itself");
}

const lastRequest = (path) => [...api.log].reverse().find((r) => r.path === path);

test("API keys (header, query, cookie), basic and bearer: what is missing is named, then each endpoint answers 200", async () => {
  const { page, context } = await open("apiKeyHeader");
  try {
    const status = page.locator("[data-testid=try-auth-status]");
    assert.equal(await status.getAttribute("data-state"), "missing");
    assert.match(await status.textContent(), /^Missing: apiKeyHeader\./);
    // Sent anyway: the server's refusal is the answer.
    assert.equal(await (await send(page)).getAttribute("data-status"), "401");

    await input(page, "apiKeyHeader", "key").fill(CREDENTIALS.apiKey);
    assert.equal(await status.getAttribute("data-state"), "ok");
    assert.equal(await status.textContent(), "Sends apiKeyHeader.");
    let answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    assert.equal((await answerJson(answer)).via, "apikey-header");
    assert.equal(lastRequest("/apikey/header").headers["x-api-key"], CREDENTIALS.apiKey);
    assert.equal(await card(page, "apiKeyHeader").getAttribute("data-set"), "true");

    // The query key is in the request, not in the address the answer shows.
    await goTo(page, "apiKeyQuery");
    await input(page, "apiKeyQuery", "key").fill(CREDENTIALS.apiKey);
    answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    assert.equal(lastRequest("/apikey/query").query.api_key, CREDENTIALS.apiKey);
    assert.doesNotMatch(await page.locator("[data-testid=try-result]").textContent(), /k-123/);

    // A cookie: the page sets it for its own host, which is the API's (ports aside).
    await goTo(page, "apiKeyCookie");
    await input(page, "apiKeyCookie", "key").fill(CREDENTIALS.apiKey);
    answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200", await answer.textContent());
    assert.equal((await answerJson(answer)).via, "apikey-cookie");

    await goTo(page, "basicWhoami");
    await input(page, "basicAuth", "user").fill(CREDENTIALS.user);
    await input(page, "basicAuth", "password").fill(CREDENTIALS.password);
    answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    assert.deepEqual(await answerJson(answer), { sub: "alice", via: "basic" });

    // Two schemes together: the key entered above is used again, the token is missing.
    await goTo(page, "both");
    assert.match(await status.textContent(), /^Missing: bearerAuth\./);
    await input(page, "bearerAuth", "token").fill(CREDENTIALS.staticToken);
    assert.equal(await status.textContent(), "Sends apiKeyHeader and bearerAuth.");
    answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    const both = lastRequest("/both").headers;
    assert.equal(both.authorization, `Bearer ${CREDENTIALS.staticToken}`);
    assert.equal(both["x-api-key"], CREDENTIALS.apiKey);
  } finally {
    await context.close();
  }
});

test("Remember keeps a scheme's credentials across a reload, Forget clears them; without Remember nothing is stored", async () => {
  const { page, context } = await open("apiKeyHeader");
  try {
    const key = input(page, "apiKeyHeader", "key");
    await key.fill(CREDENTIALS.apiKey);
    const stored = () => page.evaluate(() => JSON.stringify({ ...localStorage }));
    assert.doesNotMatch(await stored(), /k-123/, "not remembered: not stored");
    await page.reload();
    await key.waitFor();
    assert.equal(await key.inputValue(), "", "the page session's credentials go with the page");

    await key.fill(CREDENTIALS.apiKey);
    await card(page, "apiKeyHeader").locator("[data-testid=auth-remember]").check();
    assert.match(await stored(), /k-123/);
    await page.reload();
    await key.waitFor();
    assert.equal(await key.inputValue(), CREDENTIALS.apiKey);
    assert.equal(await (await send(page)).getAttribute("data-status"), "200");

    await card(page, "apiKeyHeader").locator("[data-testid=auth-forget]").click();
    assert.equal(await key.inputValue(), "");
    assert.equal(await card(page, "apiKeyHeader").locator("[data-testid=auth-remember]").isChecked(), false);
    assert.doesNotMatch(await stored(), /k-123/);
    await page.reload();
    await key.waitFor();
    assert.equal(await key.inputValue(), "");
  } finally {
    await context.close();
  }
});

test("OAuth 2: client credentials, the code flow with PKCE through the redirect page, and implicit give tokens the API takes", async () => {
  const { page, context } = await open("bearerWhoami");
  try {
    const oauth = card(page, "oauth");
    // The operation's scope is asked for.
    assert.equal(await oauth.locator("[data-testid=auth-scope][data-scope='read:pets']").isChecked(), true);
    await input(page, "oauth", "flow").selectOption({ label: "Client credentials" });
    await input(page, "oauth", "client-id").fill(CREDENTIALS.confidentialClient);
    await input(page, "oauth", "client-secret").fill("wrong");
    await oauth.locator("[data-testid=auth-get-token]").click();
    await oauth.locator("[data-testid=auth-message]", { hasText: "invalid_client" }).waitFor();
    await input(page, "oauth", "client-secret").fill(CREDENTIALS.confidentialSecret);
    await oauth.locator("[data-testid=auth-get-token]").click();
    await oauth.locator("[data-testid=auth-message]", { hasText: "Token received." }).waitFor();
    assert.match(await oauth.locator("[data-testid=auth-token-state]").textContent(), /expires in \d+ min/);
    let answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    assert.equal((await answerJson(answer)).sub, "machine");

    // The code flow: a window opens at the authorization server, which sends it back to
    // oauth2-redirect.html; the code and the PKCE verifier are exchanged for a token.
    await oauth.locator("[data-testid=auth-forget]").click();
    await input(page, "oauth", "flow").selectOption({ label: "Authorization code (PKCE)" });
    await input(page, "oauth", "client-id").fill(CREDENTIALS.publicClient);
    await signIn(page, oauth);
    const authorize = lastRequest("/oauth/authorize");
    assert.equal(authorize.query.code_challenge_method, "S256");
    assert.equal(authorize.query.redirect_uri, new URL("oauth2-redirect.html", site.url).href);
    const exchanged = new URLSearchParams(lastRequest("/oauth/token").body.toString());
    assert.equal(exchanged.get("grant_type"), "authorization_code");
    assert.match(exchanged.get("code_verifier"), /^[A-Za-z0-9_-]{43}$/);
    answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    assert.equal((await answerJson(answer)).sub, "alice");

    await oauth.locator("[data-testid=auth-forget]").click();
    await input(page, "oauth", "flow").selectOption({ label: "Implicit" });
    await input(page, "oauth", "client-id").fill(CREDENTIALS.publicClient);
    await signIn(page, oauth);
    assert.equal(await (await send(page)).getAttribute("data-status"), "200");
  } finally {
    await context.close();
  }
});

test("OpenID Connect: the discovery document is read, then its flows work as OAuth 2's", async () => {
  const { page, context } = await open("bearerWhoami");
  try {
    const oidc = card(page, "oidc");
    await oidc.locator("[data-testid=auth-discover]").click();
    await oidc.locator("[data-testid=auth-message]", { hasText: "Discovery read" }).waitFor();
    await input(page, "oidc", "flow").selectOption({ label: "Client credentials" });
    await input(page, "oidc", "client-id").fill(CREDENTIALS.confidentialClient);
    await input(page, "oidc", "client-secret").fill(CREDENTIALS.confidentialSecret);
    await oidc.locator("[data-testid=auth-get-token]").click();
    await oidc.locator("[data-testid=auth-message]", { hasText: "Token received." }).waitFor();
    const answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
  } finally {
    await context.close();
  }
});

test("credentials go only to the chosen address: a redirect to another origin is not followed", async () => {
  const { page, context } = await open("redirectAway");
  try {
    await input(page, "apiKeyHeader", "key").fill(CREDENTIALS.apiKey);
    const answer = await send(page);
    assert.equal(await answer.getAttribute("data-testid"), "try-failure");
    assert.match(await answer.textContent(), /redirect, which was not followed/);
    assert.equal(api.log2.length, 0, "the other origin got nothing");
  } finally {
    await context.close();
  }
});

test("server variables: the version chosen is where requests and samples go, remembered per document", async () => {
  const { page, context } = await open("ping");
  try {
    const version = page.locator("[data-testid=try-server-variable][data-name=version]");
    assert.equal(await version.inputValue(), "v1");
    assert.equal((await answerJson(await send(page))).version, "v1");
    await version.selectOption("v2");
    assert.equal((await answerJson(await send(page))).version, "v2");
    assert.match(await page.locator("[data-testid=sample-source]").textContent(), new RegExp(`${api.origin}/v2/ping`));
    await page.reload();
    await version.waitFor();
    assert.equal(await version.inputValue(), "v2");
  } finally {
    await context.close();
  }
});

test("code samples show placeholders for credentials unless the reader asks for them; screenshots of the panel", async () => {
  for (const [colorScheme, viewport, name] of [
    ["light", { width: 1280, height: 900 }, "light-desktop"],
    ["dark", { width: 390, height: 844 }, "dark-phone"],
    ["dark", { width: 1280, height: 900 }, "dark-desktop"],
    ["light", { width: 390, height: 844 }, "light-phone"],
  ]) {
    const { page, context, problems } = await open("bearerWhoami", { colorScheme, viewport });
    try {
      await input(page, "bearerAuth", "token").fill(CREDENTIALS.staticToken);
      const source = page.locator("[data-testid=sample-source]");
      assert.match(await source.textContent(), /Authorization: Bearer <TOKEN>/);
      assert.doesNotMatch(await source.textContent(), /static-token/);
      await page.locator("[data-testid=auth-in-samples]").check();
      assert.match(await source.textContent(), /Authorization: Bearer static-token/);
      await page.locator("[data-testid=auth-in-samples]").uncheck();
      await page.locator("[data-testid=try-auth]").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `authorize-${name}.png`), fullPage: false });
      assert.deepEqual(problems.filter((p) => !/HTTP 40[13]/.test(p)), []);
    } finally {
      await context.close();
    }
  }
});

test("answers beyond JSON: text as text, an image shown, a binary offered as a download, 10 MB shown in part without freezing", async () => {
  const { page, context } = await open("answerText");
  try {
    let answer = await send(page);
    assert.equal(await answer.locator("[data-testid=try-body-view]").textContent(), "hello, text");

    await goTo(page, "answerImage");
    answer = await send(page);
    const image = answer.locator("[data-testid=try-body-image]");
    await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await image.elementHandle());
    assert.equal(await image.evaluate((img) => [img.naturalWidth, img.naturalHeight].join("x")), "2x2");
    assert.match(await answer.locator("[data-testid=try-body-file]").textContent(), /^image\/png, \d+ bytes · Download answer\.png$/);

    await goTo(page, "answerBinary");
    answer = await send(page);
    assert.equal(await answer.locator("[data-testid=try-body-file]").textContent(), "A binary answer: application/octet-stream, 1.0 KB. Download data.bin");
    const link = answer.locator("[data-testid=try-body-download]");
    assert.equal(await link.getAttribute("download"), "data.bin");
    const bytes = await link.evaluate(async (a) => new Uint8Array(await (await fetch(a.href)).arrayBuffer()).length);
    assert.equal(bytes, 1024, "the download is the whole body");

    await goTo(page, "answerLarge");
    // The page keeps taking input while the 10 MB answer arrives and is shown.
    await page.evaluate(() => {
      window.__longest = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
      }).observe({ type: "longtask" });
    });
    answer = await send(page);
    assert.match(await answer.locator("[data-testid=try-body-truncated]").textContent(), /^The answer is application\/json, 10\.0 MB: the first 256\.0 KB are shown\. Download answer\.json$/);
    const shown = await answer.locator("[data-testid=try-body-view]").textContent();
    assert.ok(shown.length > 200_000 && shown.length <= 256 * 1024, `${shown.length} characters shown`);
    const whole = await answer.locator("[data-testid=try-body-download]").evaluate(async (a) => (await (await fetch(a.href)).blob()).size);
    assert.equal(whole, 10 * 1024 * 1024);
    const blocked = await page.evaluate(() => window.__longest);
    // A figure, not an assertion (machines are noisy): the longest task over 50 ms, 0 if none.
    console.log(`# 10 MB answer: longest main-thread task over 50 ms: ${Math.round(blocked)} ms`);
  } finally {
    await context.close();
  }
});

test("bodies beyond JSON: multipart with several files, a URL-encoded form, text and a file as the body; the samples follow; screenshots", async () => {
  const { createHash } = await import("node:crypto");
  const sha = (buffer) => createHash("sha256").update(buffer).digest("hex");
  const png = makePng();
  const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
  const second = Buffer.from([0, 255, 13, 10, 45, 45, 0, 1]);
  const { page, context } = await open("upload");
  try {
    const type = page.locator("[data-testid=try-body-type]");
    assert.equal(await type.inputValue(), "multipart/form-data", "the document's first media type");
    // A required field left empty is named before anything is sent.
    await page.locator("[data-testid=try-form-field][data-name=title]").fill("Holiday");
    await page.locator("[data-testid=try-form-file][data-name=photo]").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png });
    await page.locator("[data-testid=try-form-file][data-name=extra]").setInputFiles([
      { name: "data.bin", mimeType: "application/octet-stream", buffer: binary },
      { name: "tricky \"name\".bin", mimeType: "application/octet-stream", buffer: second },
    ]);
    const sample = page.locator("[data-testid=sample-source]");
    assert.match(await sample.textContent(), /-F 'photo=@photo\.png;type=image\/png'/);
    let answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200", await answer.textContent());
    const received = await answerJson(answer);
    assert.deepEqual(received.fields, { title: "Holiday" });
    assert.deepEqual(
      received.files.map((f) => [f.field, f.filename, f.contentType, f.size, f.sha256]),
      [
        ["photo", "photo.png", "image/png", png.length, sha(png)],
        ["extra", "data.bin", "application/octet-stream", binary.length, sha(binary)],
        // A quote in a file name goes as %22, as the HTML standard (and a browser's FormData) writes it.
        ["extra", "tricky %22name%22.bin", "application/octet-stream", second.length, sha(second)],
      ],
    );
    for (const [colorScheme, viewport, name] of [
      ["light", { width: 1280, height: 900 }, "light-desktop"],
      ["dark", { width: 390, height: 844 }, "dark-phone"],
      ["dark", { width: 1280, height: 900 }, "dark-desktop"],
      ["light", { width: 390, height: 844 }, "light-phone"],
    ]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      await type.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, `upload-${name}.png`) });
    }

    await type.selectOption("application/x-www-form-urlencoded");
    await page.locator("[data-testid=try-form-field][data-name=title]").fill("A & B");
    await page.locator("[data-testid=try-form-field][data-name=note]").fill("ü=1");
    assert.match(await sample.textContent(), /--data-urlencode/);
    answer = await send(page);
    assert.deepEqual((await answerJson(answer)).form, { title: "A & B", note: "ü=1" });

    await type.selectOption("text/plain");
    await page.locator("[data-testid=try-body]").fill("plain words");
    answer = await send(page);
    assert.deepEqual(await answerJson(answer), { text: "plain words", length: 11 });

    await type.selectOption("application/octet-stream");
    await page.locator("[data-testid=try-body-file]").setInputFiles({ name: "raw.bin", mimeType: "application/octet-stream", buffer: binary });
    answer = await send(page);
    assert.deepEqual(await answerJson(answer), { size: binary.length, sha256: sha(binary) });
  } finally {
    await context.close();
  }
});

test("OAuth 2 password flow: the user's name and password get a token; a wrong password is explained", async () => {
  const { page, context } = await open("bearerWhoami");
  try {
    const oauth = card(page, "oauth");
    await input(page, "oauth", "flow").selectOption({ label: "Password" });
    await input(page, "oauth", "client-id").fill(CREDENTIALS.publicClient);
    await input(page, "oauth", "username").fill(CREDENTIALS.user);
    await input(page, "oauth", "password").fill("not it");
    await oauth.locator("[data-testid=auth-get-token]").click();
    await oauth.locator("[data-testid=auth-message]", { hasText: "invalid_grant" }).waitFor();
    await input(page, "oauth", "password").fill(CREDENTIALS.password);
    await oauth.locator("[data-testid=auth-get-token]").click();
    await oauth.locator("[data-testid=auth-message]", { hasText: "Token received." }).waitFor();
    const answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    assert.equal((await answerJson(answer)).sub, "alice");
  } finally {
    await context.close();
  }
});

test("OAuth 2 password flow without a client ID (FastAPI's OAuth2PasswordRequestForm): the token is fetched and the request carries it", async () => {
  extra["/fastapi-auth.json"] = { type: "application/json", body: JSON.stringify(fastapiAuthDocument(api.origin)) };
  const { page, context } = await open("bearerWhoami", undefined, "fastapi-auth.json");
  try {
    const oauth = card(page, "oauth");
    // The password flow is the scheme's only one; the client ID stays empty.
    assert.equal(await input(page, "oauth", "client-id").inputValue(), "");
    await input(page, "oauth", "username").fill(CREDENTIALS.user);
    await input(page, "oauth", "password").fill(CREDENTIALS.password);
    await oauth.locator("[data-testid=auth-get-token]").click();
    await oauth.locator("[data-testid=auth-message]", { hasText: "Token received." }).waitFor();
    const tokenRequest = lastRequest("/fastapi/token");
    const form = new URLSearchParams(tokenRequest.body.toString());
    assert.equal(form.get("grant_type"), "password");
    assert.equal(form.get("username"), CREDENTIALS.user);
    assert.equal(form.get("password"), CREDENTIALS.password);
    assert.equal(form.has("client_id"), false, "no client ID is sent");
    assert.equal(form.has("client_secret"), false);
    assert.equal(tokenRequest.headers.authorization, undefined, "no client authentication");
    const answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    // A token the server issued (the static one's subject is another), sent as a bearer.
    assert.deepEqual(await answerJson(answer), { sub: "alice", scopes: ["read:pets"], via: "bearer" });
    const sent = lastRequest("/bearer/whoami").headers.authorization;
    assert.match(sent, /^Bearer [A-Za-z0-9\-._~+/]+=*$/);
    assert.notEqual(sent, `Bearer ${CREDENTIALS.staticToken}`);
  } finally {
    await context.close();
  }
});

test("an expired token is renewed with its refresh token before the request goes", async () => {
  const short = await startAuthServer({ tokenLifetime: 1 });
  extra["/auth-api-short.json"] = { type: "application/json", body: JSON.stringify(authApiDocument(short.origin)) };
  const { page, context } = await open("bearerWhoami", undefined, "auth-api-short.json");
  try {
    const oauth = card(page, "oauth");
    await input(page, "oauth", "flow").selectOption({ label: "Password" });
    await input(page, "oauth", "client-id").fill(CREDENTIALS.publicClient);
    await input(page, "oauth", "username").fill(CREDENTIALS.user);
    await input(page, "oauth", "password").fill(CREDENTIALS.password);
    await oauth.locator("[data-testid=auth-get-token]").click();
    await oauth.locator("[data-testid=auth-message]", { hasText: "Token received." }).waitFor();
    // The token lives one second.
    await page.waitForTimeout(1500);
    const answer = await send(page);
    assert.equal(await answer.getAttribute("data-status"), "200");
    const grants = short.log.filter((r) => r.path === "/oauth/token").map((r) => new URLSearchParams(r.body.toString()).get("grant_type"));
    assert.deepEqual(grants, ["password", "refresh_token"]);
  } finally {
    await context.close();
    await short.close();
  }
});
