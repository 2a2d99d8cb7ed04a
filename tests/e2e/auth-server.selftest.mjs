// Self-test of auth-server.mjs with Node's fetch (no browser): every endpoint, every grant,
// with and without credentials, CORS, multipart, the large answer and the redirect away.
// Not a *.test.mjs file, so the e2e suite does not run it; run it alone:
//   node --test tests/e2e/auth-server.selftest.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { inflateSync } from "node:zlib";
import { AUTH_API_FIXTURE, CREDENTIALS, LARGE, authApiDocument, makeBinary, parseMultipart, startAuthServer } from "./auth-server.mjs";
import { readFile } from "node:fs/promises";

let api;
const PAGE = "http://127.0.0.1:1"; // the page's origin: another port
const REDIRECT = "http://127.0.0.1:1/oauth2-redirect.html?keep=1";

before(async () => {
  api = await startAuthServer();
});

after(async () => {
  await api?.close();
});

const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");
const b64 = (s) => Buffer.from(s).toString("base64");
const basic = (user, pass) => `Basic ${b64(`${user}:${pass}`)}`;
const url = (path) => `${api.origin}${path}`;
const get = (path, headers = {}) => fetch(url(path), { headers: { Origin: PAGE, ...headers } });

async function jsonOf(res) {
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return res.json();
}

/** POSTs a form to /oauth/token. */
function tokenRequest(params, headers = {}) {
  return fetch(url("/oauth/token"), {
    method: "POST",
    headers: { Origin: PAGE, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(params).toString(),
  });
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url"); // 43 characters
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

/** GET /oauth/authorize without following; resolves to the Location as a URL. */
async function authorize(params) {
  const res = await fetch(`${url("/oauth/authorize")}?${new URLSearchParams(params)}`, { redirect: "manual" });
  assert.equal(res.status, 302, `authorize answered ${res.status}: ${await res.text()}`);
  assert.equal(res.headers.get("cache-control"), "no-store");
  return new URL(res.headers.get("location"));
}

async function codeFlow(scope = "read:pets write:pets") {
  const { verifier, challenge } = pkce();
  const location = await authorize({ response_type: "code", client_id: "playground", redirect_uri: REDIRECT, scope, state: "st-1", code_challenge: challenge, code_challenge_method: "S256" });
  return { verifier, challenge, code: location.searchParams.get("code"), location };
}

async function whoami(token) {
  const res = await get("/bearer/whoami", { Authorization: `Bearer ${token}` });
  return { status: res.status, body: await jsonOf(res) };
}

describe("OAuth 2 authorization code flow with PKCE", () => {
  test("authorize redirects with code and state, keeping the redirect URI's query", async () => {
    const { code, location } = await codeFlow();
    assert.equal(location.origin + location.pathname, "http://127.0.0.1:1/oauth2-redirect.html");
    assert.equal(location.searchParams.get("keep"), "1");
    assert.equal(location.searchParams.get("state"), "st-1");
    assert.match(code, /^c-[A-Za-z0-9_-]+$/);
    assert.equal(location.hash, "");
  });

  test("the code is exchanged once with the right verifier; the token works; a replay is refused and revokes it", async () => {
    const { code, verifier } = await codeFlow();
    const res = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: "playground" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE);
    const body = await jsonOf(res);
    assert.equal(body.token_type, "Bearer");
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, "read:pets write:pets");
    assert.ok(body.refresh_token);
    assert.equal(body.access_token.split(".").length, 3, "JWT-shaped");
    const claims = JSON.parse(Buffer.from(body.access_token.split(".")[1], "base64url"));
    assert.equal(claims.sub, "alice");
    assert.equal(claims.iss, api.origin);
    assert.deepEqual(await whoami(body.access_token), { status: 200, body: { sub: "alice", scopes: ["read:pets", "write:pets"], via: "bearer" } });

    const again = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: "playground" });
    assert.equal(again.status, 400);
    assert.equal((await jsonOf(again)).error, "invalid_grant");
    assert.equal((await whoami(body.access_token)).status, 401, "the replay revoked the token");
  });

  test("a wrong verifier, a missing verifier, another redirect URI, another client and an unknown code are refused", async () => {
    const { code, verifier } = await codeFlow();
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: "playground" };
    const cases = [
      [{ ...base, code_verifier: pkce().verifier }, 400, "invalid_grant"],
      [{ ...base }, 400, "invalid_request"],
      [{ ...base, code_verifier: "short" }, 400, "invalid_request"],
      [{ ...base, code_verifier: verifier, redirect_uri: "http://127.0.0.1:1/other" }, 400, "invalid_grant"],
      [{ ...base, code_verifier: verifier, code: "c-nope" }, 400, "invalid_grant"],
      [{ ...base, code_verifier: verifier, client_id: "nobody" }, 401, "invalid_client"],
      [{ ...base, code_verifier: verifier, client_id: "playground", client_secret: "x" }, 401, "invalid_client"],
    ];
    for (const [params, status, error] of cases) {
      const res = await tokenRequest(params);
      const body = await jsonOf(res);
      assert.equal(res.status, status, JSON.stringify({ params, body }));
      assert.equal(body.error, error, JSON.stringify({ params, body }));
      assert.equal(typeof body.error_description, "string");
    }
    // Failed attempts do not consume the code.
    const ok = await tokenRequest({ ...base, code_verifier: verifier });
    assert.equal(ok.status, 200);
  });

  test("authorize errors: redirected per RFC 6749 with state, or 400 for a bad client or redirect URI", async () => {
    const { challenge } = pkce();
    const good = { response_type: "code", client_id: "playground", redirect_uri: REDIRECT, state: "s9", code_challenge: challenge, code_challenge_method: "S256" };
    for (const [change, error] of [
      [{ code_challenge: undefined }, "invalid_request"],
      [{ code_challenge_method: undefined }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ response_type: "id_token" }, "unsupported_response_type"],
      [{ response_type: undefined }, "invalid_request"],
      [{ scope: "admin" }, "invalid_scope"],
    ]) {
      const params = Object.fromEntries(Object.entries({ ...good, ...change }).filter(([, v]) => v !== undefined));
      const location = await authorize(params);
      assert.equal(location.searchParams.get("error"), error, JSON.stringify(change));
      assert.ok(location.searchParams.get("error_description"));
      assert.equal(location.searchParams.get("state"), "s9");
      assert.equal(location.searchParams.get("code"), null);
    }
    // The confidential client may not use the browser flows.
    assert.equal((await authorize({ ...good, client_id: "machine" })).searchParams.get("error"), "unauthorized_client");
    for (const change of [{ client_id: "nobody" }, { client_id: undefined }, { redirect_uri: "/relative" }, { redirect_uri: "ftp://x/y" }, { redirect_uri: undefined }]) {
      const params = Object.fromEntries(Object.entries({ ...good, ...change }).filter(([, v]) => v !== undefined));
      const res = await fetch(`${url("/oauth/authorize")}?${new URLSearchParams(params)}`, { redirect: "manual" });
      assert.equal(res.status, 400, JSON.stringify(change));
      assert.equal((await jsonOf(res)).error, "invalid_request");
    }
  });
});

describe("other grants", () => {
  test("implicit: the token is in the fragment and works", async () => {
    const location = await authorize({ response_type: "token", client_id: "playground", redirect_uri: REDIRECT, scope: "read:pets", state: "imp" });
    assert.equal(location.searchParams.get("access_token"), null, "not in the query");
    const fragment = new URLSearchParams(location.hash.slice(1));
    assert.equal(fragment.get("token_type"), "Bearer");
    assert.equal(fragment.get("expires_in"), "3600");
    assert.equal(fragment.get("state"), "imp");
    assert.deepEqual((await whoami(fragment.get("access_token"))).body, { sub: "alice", scopes: ["read:pets"], via: "bearer" });
    const bad = await authorize({ response_type: "token", client_id: "playground", redirect_uri: REDIRECT, scope: "nope", state: "imp" });
    assert.equal(new URLSearchParams(bad.hash.slice(1)).get("error"), "invalid_scope");
    assert.equal(new URLSearchParams(bad.hash.slice(1)).get("state"), "imp");
  });

  test("client_credentials with Basic and with the secret in the body; wrong secret is 401 invalid_client", async () => {
    for (const [params, headers] of [
      [{ grant_type: "client_credentials", scope: "read:pets" }, { Authorization: basic("machine", "s3cret") }],
      [{ grant_type: "client_credentials", scope: "read:pets", client_id: "machine", client_secret: "s3cret" }, {}],
    ]) {
      const res = await tokenRequest(params, headers);
      assert.equal(res.status, 200);
      const body = await jsonOf(res);
      assert.equal(body.refresh_token, undefined, "no refresh token for client credentials");
      assert.equal(body.scope, "read:pets");
      assert.deepEqual((await whoami(body.access_token)).body, { sub: "machine", scopes: ["read:pets"], via: "bearer" });
    }
    const all = await jsonOf(await tokenRequest({ grant_type: "client_credentials" }, { Authorization: basic("machine", "s3cret") }));
    assert.equal(all.scope, "read:pets write:pets");
    const wrong = await tokenRequest({ grant_type: "client_credentials" }, { Authorization: basic("machine", "nope") });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get("www-authenticate"), 'Basic realm="oauth"');
    assert.equal((await jsonOf(wrong)).error, "invalid_client");
    const body = await tokenRequest({ grant_type: "client_credentials", client_id: "machine", client_secret: "nope" });
    assert.equal(body.status, 401);
    assert.equal((await jsonOf(body)).error, "invalid_client");
    const both = await tokenRequest({ grant_type: "client_credentials", client_secret: "s3cret" }, { Authorization: basic("machine", "s3cret") });
    assert.equal(both.status, 400);
    assert.equal((await jsonOf(both)).error, "invalid_request");
    const publicClient = await tokenRequest({ grant_type: "client_credentials", client_id: "playground" });
    assert.equal(publicClient.status, 400);
    assert.equal((await jsonOf(publicClient)).error, "unauthorized_client");
  });

  test("password grant: alice / wonderland; a wrong password is invalid_grant", async () => {
    const res = await tokenRequest({ grant_type: "password", username: "alice", password: "wonderland", client_id: "playground", scope: "write:pets" });
    assert.equal(res.status, 200);
    const body = await jsonOf(res);
    assert.ok(body.refresh_token);
    assert.deepEqual((await whoami(body.access_token)).body, { sub: "alice", scopes: ["write:pets"], via: "bearer" });
    const viaMachine = await tokenRequest({ grant_type: "password", username: "alice", password: "wonderland" }, { Authorization: basic("machine", "s3cret") });
    assert.equal(viaMachine.status, 200);
    const wrong = await tokenRequest({ grant_type: "password", username: "alice", password: "nope", client_id: "playground" });
    assert.equal(wrong.status, 400);
    assert.equal((await jsonOf(wrong)).error, "invalid_grant");
    const missing = await tokenRequest({ grant_type: "password", username: "alice", client_id: "playground" });
    assert.equal((await jsonOf(missing)).error, "invalid_request");
  });

  test("FastAPI's token endpoint: the password grant without a client; 422 with detail, 400 for a wrong password", async () => {
    const post = (params) => fetch(url("/fastapi/token"), {
      method: "POST",
      headers: { Origin: PAGE, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params).toString(),
    });
    const res = await post({ grant_type: "password", username: "alice", password: "wonderland" });
    assert.equal(res.status, 200);
    const body = await jsonOf(res);
    assert.deepEqual(Object.keys(body).sort(), ["access_token", "token_type"]);
    assert.equal(body.token_type, "bearer");
    assert.deepEqual((await whoami(body.access_token)).body, { sub: "alice", scopes: ["read:pets"], via: "bearer" });
    // No grant_type (FastAPI's form allows it), a scope, and a client it does not check.
    const scoped = await jsonOf(await post({ username: "alice", password: "wonderland", scope: "write:pets", client_id: "anyone" }));
    assert.deepEqual((await whoami(scoped.access_token)).body.scopes, ["write:pets"]);
    const wrong = await post({ username: "alice", password: "nope" });
    assert.equal(wrong.status, 400);
    assert.deepEqual(await jsonOf(wrong), { detail: "Incorrect username or password" });
    const missing = await post({ grant_type: "client_credentials", username: "alice" });
    assert.equal(missing.status, 422);
    assert.deepEqual((await jsonOf(missing)).detail.map((d) => [d.type, d.loc.join(".")]), [
      ["missing", "body.password"],
      ["string_pattern_mismatch", "body.grant_type"],
    ]);
  });

  test("refresh_token: rotated on use, can narrow but not widen the scope", async () => {
    const first = await jsonOf(await tokenRequest({ grant_type: "password", username: "alice", password: "wonderland", client_id: "playground", scope: "read:pets write:pets" }));
    const wider = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: "playground", scope: "read:pets openid" });
    assert.equal((await jsonOf(wider)).error, "invalid_scope");
    const res = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: "playground", scope: "read:pets" });
    assert.equal(res.status, 200);
    const second = await jsonOf(res);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.scope, "read:pets");
    assert.deepEqual((await whoami(second.access_token)).body.scopes, ["read:pets"]);
    const reused = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: "playground" });
    assert.equal(reused.status, 400);
    assert.equal((await jsonOf(reused)).error, "invalid_grant");
    const otherClient = await tokenRequest({ grant_type: "refresh_token", refresh_token: second.refresh_token }, { Authorization: basic("machine", "s3cret") });
    assert.equal((await jsonOf(otherClient)).error, "invalid_grant");
  });

  test("token endpoint request errors", async () => {
    const cases = [
      [{ grant_type: "magic", client_id: "playground" }, 400, "unsupported_grant_type"],
      [{ client_id: "playground" }, 400, "invalid_request"],
      [{ grant_type: "password", username: "alice", password: "wonderland" }, 401, "invalid_client"],
    ];
    for (const [params, status, error] of cases) {
      const res = await tokenRequest(params);
      assert.equal(res.status, status);
      assert.equal((await jsonOf(res)).error, error);
    }
    const asJson = await fetch(url("/oauth/token"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ grant_type: "password" }) });
    assert.equal(asJson.status, 400);
    assert.equal((await jsonOf(asJson)).error, "invalid_request");
    const asGet = await fetch(url("/oauth/token"));
    assert.equal(asGet.status, 405);
  });

  test("expired tokens are refused", async () => {
    const short = await startAuthServer({ tokenLifetime: 1 });
    try {
      const res = await fetch(`${short.origin}/oauth/token`, { method: "POST", headers: { Authorization: basic("machine", "s3cret"), "Content-Type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
      const { access_token, expires_in } = await res.json();
      assert.equal(expires_in, 1);
      assert.equal((await fetch(`${short.origin}/bearer/whoami`, { headers: { Authorization: `Bearer ${access_token}` } })).status, 200);
      await new Promise((ok) => setTimeout(ok, 1100));
      const late = await fetch(`${short.origin}/bearer/whoami`, { headers: { Authorization: `Bearer ${access_token}` } });
      assert.equal(late.status, 401);
      assert.match(late.headers.get("www-authenticate"), /error="invalid_token"/);
    } finally {
      await short.close();
    }
  });

  test("discovery document", async () => {
    const doc = await jsonOf(await get("/.well-known/openid-configuration"));
    assert.equal(doc.issuer, api.origin);
    assert.equal(doc.authorization_endpoint, `${api.origin}/oauth/authorize`);
    assert.equal(doc.token_endpoint, `${api.origin}/oauth/token`);
    for (const grant of ["authorization_code", "implicit", "client_credentials", "password", "refresh_token"]) assert.ok(doc.grant_types_supported.includes(grant));
    assert.deepEqual(doc.response_types_supported, ["code", "token"]);
    assert.ok(doc.scopes_supported.includes("read:pets") && doc.scopes_supported.includes("write:pets"));
    assert.deepEqual(doc.code_challenge_methods_supported, ["S256"]);
  });
});

describe("protected endpoints", () => {
  test("bearer: static token, none, unknown, malformed, another scheme", async () => {
    assert.deepEqual(await whoami("static-token"), { status: 200, body: { sub: "static-user", scopes: ["read:pets"], via: "bearer" } });
    const none = await get("/bearer/whoami");
    assert.equal(none.status, 401);
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="test"');
    assert.equal((await jsonOf(none)).error, "unauthorized");
    const unknown = await get("/bearer/whoami", { Authorization: "Bearer nope" });
    assert.equal(unknown.status, 401);
    assert.match(unknown.headers.get("www-authenticate"), /^Bearer realm="test", error="invalid_token"/);
    assert.equal((await jsonOf(unknown)).error, "invalid_token");
    assert.equal((await get("/bearer/whoami", { Authorization: "Bearer a b" })).status, 401);
    assert.equal((await get("/bearer/whoami", { Authorization: basic("alice", "wonderland") })).status, 401);
    assert.equal((await get("/bearer/whoami", { Authorization: "bearer static-token" })).status, 200, "the scheme is case-insensitive");
  });

  test("basic: alice / wonderland, wrong, none", async () => {
    const ok = await get("/basic/whoami", { Authorization: basic("alice", "wonderland") });
    assert.equal(ok.status, 200);
    assert.deepEqual(await jsonOf(ok), { sub: "alice", via: "basic" });
    for (const headers of [{}, { Authorization: basic("alice", "nope") }, { Authorization: "Bearer static-token" }]) {
      const res = await get("/basic/whoami", headers);
      assert.equal(res.status, 401);
      assert.equal(res.headers.get("www-authenticate"), 'Basic realm="test"');
      assert.equal(typeof (await jsonOf(res)).error, "string");
    }
  });

  test("API keys in a header, the query and a cookie", async () => {
    const cases = [
      ["/apikey/header", { "X-API-Key": "k-123" }, "apikey-header"],
      ["/apikey/query?api_key=k-123", {}, "apikey-query"],
      ["/apikey/cookie", { Cookie: "other=1; session_key=k-123" }, "apikey-cookie"],
    ];
    for (const [path, headers, via] of cases) {
      const ok = await get(path, headers);
      assert.equal(ok.status, 200, path);
      assert.deepEqual(await jsonOf(ok), { via });
    }
    for (const [path, headers] of [
      ["/apikey/header", {}],
      ["/apikey/header", { "X-API-Key": "k-124" }],
      ["/apikey/header?api_key=k-123", {}],
      ["/apikey/query", {}],
      ["/apikey/query?api_key=wrong", {}],
      ["/apikey/query", { "X-API-Key": "k-123" }],
      ["/apikey/cookie", {}],
      ["/apikey/cookie", { Cookie: "session_key=wrong" }],
      ["/apikey/cookie", { "X-API-Key": "k-123" }],
    ]) {
      const res = await get(path, headers);
      assert.equal(res.status, 401, `${path} ${JSON.stringify(headers)}`);
      assert.equal(typeof (await jsonOf(res)).error, "string");
    }
  });

  test("/both needs the key and a token; /either takes one", async () => {
    const key = { "X-API-Key": "k-123" };
    const bearer = { Authorization: "Bearer static-token" };
    const ok = await get("/both", { ...key, ...bearer });
    assert.equal(ok.status, 200);
    assert.equal((await jsonOf(ok)).via, "apikey-header+bearer");
    for (const [headers, missing] of [[key, ["bearerAuth"]], [bearer, ["apiKeyHeader"]], [{}, ["apiKeyHeader", "bearerAuth"]]]) {
      const res = await get("/both", headers);
      assert.equal(res.status, 401);
      assert.deepEqual((await jsonOf(res)).missing, missing);
    }
    assert.equal((await jsonOf(await get("/either", key))).via, "apikey-header");
    assert.equal((await jsonOf(await get("/either", bearer))).via, "bearer");
    const neither = await get("/either");
    assert.equal(neither.status, 401);
    assert.match(neither.headers.get("www-authenticate"), /^Bearer/);
    assert.equal((await get("/either", { "X-API-Key": "bad", Authorization: "Bearer bad" })).status, 401);
  });
});

describe("CORS", () => {
  test("a preflight allows the requested method and headers for the page's origin", async () => {
    const res = await fetch(url("/both"), {
      method: "OPTIONS",
      headers: { Origin: PAGE, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization,x-api-key" },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE);
    assert.equal(res.headers.get("access-control-allow-credentials"), "true");
    assert.equal(res.headers.get("access-control-allow-methods"), "GET");
    assert.equal(res.headers.get("access-control-allow-headers"), "authorization,x-api-key");
    assert.match(res.headers.get("vary"), /Origin/);
    const post = await fetch(url("/upload"), { method: "OPTIONS", headers: { Origin: "http://127.0.0.1:9", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" } });
    assert.equal(post.headers.get("access-control-allow-origin"), "http://127.0.0.1:9");
    assert.equal(post.headers.get("access-control-allow-methods"), "POST");
  });

  test("answers echo the origin, allow credentials, vary on Origin and expose the custom headers", async () => {
    const res = await get("/basic/whoami");
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE);
    assert.equal(res.headers.get("access-control-allow-credentials"), "true");
    assert.equal(res.headers.get("vary"), "Origin");
    const exposed = res.headers.get("access-control-expose-headers").split(/,\s*/).map((h) => h.toLowerCase());
    for (const header of ["www-authenticate", "x-request-id", "content-disposition", "x-content-sha256", "x-item-count"]) assert.ok(exposed.includes(header), header);
    assert.match(res.headers.get("x-request-id"), /^req-\d+$/);
    const nullOrigin = await fetch(url("/answers/text"), { headers: { Origin: "null" } });
    assert.equal(nullOrigin.headers.get("access-control-allow-origin"), "null");
    const noOrigin = await fetch(url("/answers/text"));
    assert.equal(noOrigin.headers.get("access-control-allow-origin"), null);
    assert.equal(noOrigin.headers.get("vary"), "Origin");
  });

  test("unknown paths are 404 and wrong methods 405, both with CORS headers", async () => {
    const missing = await get("/nope");
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("access-control-allow-origin"), PAGE);
    const wrong = await fetch(url("/bearer/whoami"), { method: "DELETE", headers: { Origin: PAGE } });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "GET, HEAD, OPTIONS");
  });
});

describe("uploads", () => {
  const photo = Buffer.concat([makeBinary(), Buffer.from("\r\n--not-the-boundary\r\n\r\n"), randomBytes(3000)]);
  const extra = Buffer.from([0, 255, 13, 10, 45, 45, 13, 10, 0]);

  test("multipart from FormData: two files, checked by sha256, and text fields", async () => {
    const form = new FormData();
    form.append("title", "Ünïcode title");
    form.append("photo", new Blob([photo], { type: "image/png" }), "photo.png");
    form.append("extra", new Blob([extra]), "extra.bin");
    form.append("tag", "a");
    form.append("tag", "b");
    const res = await fetch(url("/upload"), { method: "POST", body: form, headers: { Origin: PAGE } });
    assert.equal(res.status, 200);
    const body = await jsonOf(res);
    assert.deepEqual(body.fields, { title: "Ünïcode title", tag: ["a", "b"] });
    assert.deepEqual(body.files, [
      { field: "photo", filename: "photo.png", contentType: "image/png", size: photo.length, sha256: sha256(photo) },
      { field: "extra", filename: "extra.bin", contentType: "application/octet-stream", size: extra.length, sha256: sha256(extra) },
    ]);
    const logged = api.log.at(-1);
    assert.equal(logged.method, "POST");
    assert.equal(logged.path, "/upload");
    assert.ok(Buffer.isBuffer(logged.body));
    assert.ok(logged.body.includes(photo), "the raw body is logged");
  });

  test("multipart built by hand: quoted boundary, preamble, epilogue, a file with no Content-Type, an empty file", async () => {
    const boundary = "b:o u=n'd(a)r+y";
    const crlf = "\r\n";
    const body = Buffer.concat([
      Buffer.from(`preamble${crlf}--${boundary}${crlf}Content-Disposition: form-data; name="title"${crlf}${crlf}hi${crlf}`),
      Buffer.from(`--${boundary}${crlf}Content-Disposition: form-data; name="photo"; filename="a \\"q\\".bin"${crlf}${crlf}`),
      photo,
      Buffer.from(`${crlf}--${boundary}${crlf}Content-Disposition: form-data; name="extra"; filename="empty.txt"${crlf}Content-Type: text/plain${crlf}${crlf}`),
      Buffer.from(`${crlf}--${boundary}--${crlf}epilogue`),
    ]);
    const res = await fetch(url("/upload"), { method: "POST", body, headers: { "Content-Type": `multipart/form-data; boundary="${boundary}"` } });
    const out = await jsonOf(res);
    assert.equal(res.status, 200, JSON.stringify(out));
    assert.deepEqual(out.fields, { title: "hi" });
    assert.deepEqual(out.files, [
      { field: "photo", filename: 'a "q".bin', contentType: "application/octet-stream", size: photo.length, sha256: sha256(photo) },
      { field: "extra", filename: "empty.txt", contentType: "text/plain", size: 0, sha256: sha256(Buffer.alloc(0)) },
    ]);
  });

  test("malformed multipart is 400", async () => {
    for (const [type, body] of [
      ["multipart/form-data", "--x\r\n\r\n"],
      ["multipart/form-data; boundary=x", "no delimiter here"],
      ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nnever closed"],
      ["multipart/form-data; boundary=x", "--x\r\nContent-Type: text/plain\r\n\r\nno name\r\n--x--"],
    ]) {
      const res = await fetch(url("/upload"), { method: "POST", body, headers: { "Content-Type": type } });
      assert.equal(res.status, 400, `${type}: ${body}`);
      assert.equal((await jsonOf(res)).error, "bad_multipart");
    }
    assert.throws(() => parseMultipart(Buffer.from("--x--"), undefined));
  });

  test("a URL-encoded form, text, bytes, and 415 for anything else", async () => {
    const form = await fetch(url("/upload"), { method: "POST", body: new URLSearchParams([["title", "a b&c"], ["note", "ü"], ["note", "2"]]) });
    assert.deepEqual(await jsonOf(form), { form: { title: "a b&c", note: ["ü", "2"] } });
    const plain = await fetch(url("/upload"), { method: "POST", body: "héllo", headers: { "Content-Type": "text/plain;charset=UTF-8" } });
    assert.deepEqual(await jsonOf(plain), { text: "héllo", length: 5 });
    const bytes = randomBytes(5000);
    const octets = await fetch(url("/upload"), { method: "POST", body: bytes, headers: { "Content-Type": "application/octet-stream" } });
    assert.deepEqual(await jsonOf(octets), { size: 5000, sha256: sha256(bytes) });
    for (const type of ["application/json", "image/png", undefined]) {
      const res = await fetch(url("/upload"), { method: "POST", body: type ? "{}" : new Uint8Array([1]), headers: type ? { "Content-Type": type } : {} });
      assert.equal(res.status, 415, String(type));
      assert.equal((await jsonOf(res)).error, "unsupported_media_type");
    }
  });
});

describe("answers", () => {
  test("text", async () => {
    const res = await get("/answers/text");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type"), /^text\/plain/);
    assert.equal(await res.text(), "hello, text");
  });

  test("image: a valid 2x2 PNG", async () => {
    const res = await get("/answers/image");
    assert.equal(res.headers.get("content-type"), "image/png");
    const png = Buffer.from(await res.arrayBuffer());
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(res.headers.get("x-content-sha256"), sha256(png));
    // Walk the chunks, checking each CRC, and decode the pixels.
    let pos = 8;
    const chunks = [];
    while (pos < png.length) {
      const length = png.readUInt32BE(pos);
      const type = png.subarray(pos + 4, pos + 8).toString("ascii");
      const data = png.subarray(pos + 8, pos + 8 + length);
      const crc = png.readUInt32BE(pos + 8 + length);
      assert.equal(crc, crc32(png.subarray(pos + 4, pos + 8 + length)), `${type} CRC`);
      chunks.push({ type, data });
      pos += 12 + length;
    }
    assert.deepEqual(chunks.map((c) => c.type), ["IHDR", "IDAT", "IEND"]);
    assert.equal(chunks[0].data.readUInt32BE(0), 2);
    assert.equal(chunks[0].data.readUInt32BE(4), 2);
    const raw = inflateSync(chunks[1].data);
    assert.equal(raw.length, 2 * (1 + 2 * 4));
    assert.deepEqual([...raw.subarray(1, 5)], [255, 0, 0, 255], "top-left is red");
  });

  test("binary: 1024 bytes as an attachment", async () => {
    const res = await get("/answers/binary");
    assert.equal(res.headers.get("content-type"), "application/octet-stream");
    assert.equal(res.headers.get("content-disposition"), 'attachment; filename="data.bin"');
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes.length, 1024);
    assert.ok(bytes.equals(makeBinary()));
    assert.equal(bytes.subarray(0, 4).toString("latin1"), "PK\x03\x04");
    assert.equal(new Set(bytes).size, 256, "every byte value occurs");
  });

  test("large: exactly 10 MiB of JSON, streamed in many chunks", async () => {
    const res = await get("/answers/large");
    assert.equal(res.headers.get("content-length"), String(LARGE.size));
    assert.equal(res.headers.get("x-item-count"), String(LARGE.count));
    let chunks = 0;
    const parts = [];
    for await (const chunk of res.body) {
      chunks++;
      parts.push(chunk);
    }
    const body = Buffer.concat(parts);
    assert.equal(body.length, 10 * 1024 * 1024);
    assert.ok(chunks > 10, `${chunks} chunks`);
    const items = JSON.parse(body.toString("utf8"));
    assert.equal(items.length, LARGE.count);
    assert.deepEqual(Object.keys(items[0]), ["id", "name", "tags", "pad"]);
    assert.equal(items.at(-1).id, LARGE.count - 1);
  });

  test("a client that gives up on the large answer does not break the server", async () => {
    const controller = new AbortController();
    const res = await fetch(url("/answers/large"), { signal: controller.signal });
    const reader = res.body.getReader();
    await reader.read();
    controller.abort();
    await assert.rejects(reader.read());
    assert.equal((await get("/answers/text")).status, 200);
  });

  test("redirect-away: 302 to another origin, which records which credentials reached it", async () => {
    const manual = await fetch(url("/redirect-away?x=1"), { redirect: "manual" });
    assert.equal(manual.status, 302);
    const location = new URL(manual.headers.get("location"));
    assert.equal(location.origin, api.awayOrigin);
    assert.notEqual(location.origin, api.origin);
    assert.equal(location.pathname, "/landed");
    assert.equal(location.searchParams.get("x"), "1");

    const before = api.log2.length;
    const followed = await fetch(url("/redirect-away"), { headers: { Origin: PAGE, Authorization: "Bearer static-token", "X-API-Key": "k-123" } });
    assert.equal(followed.status, 200);
    assert.equal(followed.url, `${api.awayOrigin}/landed`);
    assert.equal(followed.headers.get("access-control-allow-origin"), PAGE);
    const landed = await jsonOf(followed);
    assert.equal(api.log2.length, before + 1);
    const entry = api.log2.at(-1);
    assert.equal(entry.path, "/landed");
    assert.equal(entry.method, "GET");
    // Node's fetch, like browsers, drops Authorization on a cross-origin redirect; a custom
    // header such as X-API-Key is carried along.
    assert.equal(entry.hasAuthorization, false);
    assert.equal(entry.hasApiKey, true);
    assert.equal(landed.receivedAuthorization, false);
    assert.equal(landed.receivedApiKey, true);

    // Sent directly, the second server sees (and records) Authorization.
    await fetch(`${api.awayOrigin}/landed`, { headers: { Authorization: "Bearer x" } });
    assert.equal(api.log2.at(-1).hasAuthorization, true);
  });

  test("servers: /v1/ping and /v2/ping", async () => {
    assert.deepEqual(await jsonOf(await get("/v1/ping")), { version: "v1" });
    assert.deepEqual(await jsonOf(await get("/v2/ping")), { version: "v2" });
    assert.equal((await get("/v3/ping")).status, 404);
  });
});

describe("log, close and the OpenAPI document", () => {
  test("the log records method, path, headers and body as a Buffer", async () => {
    const before = api.log.length;
    await fetch(url("/upload?q=1"), { method: "POST", body: "abc", headers: { "Content-Type": "text/plain", "X-Trace": "t1" } });
    const entry = api.log[before];
    assert.equal(entry.method, "POST");
    assert.equal(entry.path, "/upload");
    assert.equal(entry.url, "/upload?q=1");
    assert.deepEqual(entry.query, { q: "1" });
    assert.equal(entry.headers["x-trace"], "t1");
    assert.ok(Buffer.isBuffer(entry.body));
    assert.equal(entry.body.toString(), "abc");
  });

  test("close() stops both servers even with keep-alive connections open", async () => {
    const other = await startAuthServer();
    const res = await fetch(`${other.origin}/answers/text`); // leaves a keep-alive socket
    await res.text();
    await fetch(`${other.awayOrigin}/landed`).then((r) => r.text());
    const started = Date.now();
    await other.close();
    assert.ok(Date.now() - started < 2000, "close() did not wait for idle sockets");
    await assert.rejects(fetch(`${other.origin}/answers/text`));
    await assert.rejects(fetch(`${other.awayOrigin}/landed`));
    await other.close(); // twice is fine
  });

  test("the fixture is OpenAPI 3.0.3 with every endpoint, scheme and security requirement", async () => {
    const doc = JSON.parse(await readFile(AUTH_API_FIXTURE, "utf8"));
    assert.equal(doc.openapi, "3.0.3");
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      "/.well-known/openid-configuration", "/answers/binary", "/answers/image", "/answers/large", "/answers/text",
      "/apikey/cookie", "/apikey/header", "/apikey/query", "/basic/whoami", "/bearer/whoami", "/both", "/either",
      "/oauth/authorize", "/oauth/token", "/ping", "/redirect-away", "/upload",
    ]);
    const schemes = doc.components.securitySchemes;
    assert.deepEqual(schemes.apiKeyHeader, { type: "apiKey", in: "header", name: "X-API-Key", description: "k-123" });
    assert.equal(schemes.apiKeyQuery.name, "api_key");
    assert.equal(schemes.apiKeyCookie.in, "cookie");
    assert.equal(schemes.basicAuth.scheme, "basic");
    assert.equal(schemes.bearerAuth.bearerFormat, "JWT");
    assert.deepEqual(Object.keys(schemes.oauth.flows).sort(), ["authorizationCode", "clientCredentials", "implicit", "password"]);
    assert.equal(schemes.oauth.flows.authorizationCode.authorizationUrl, "/oauth/authorize");
    assert.equal(schemes.oauth.flows.authorizationCode.tokenUrl, "/oauth/token");
    assert.deepEqual(Object.keys(schemes.oauth.flows.implicit.scopes), ["read:pets", "write:pets"]);
    assert.equal(schemes.oidc.openIdConnectUrl, "/.well-known/openid-configuration");
    assert.deepEqual(doc.paths["/both"].get.security, [{ apiKeyHeader: [], bearerAuth: [] }]);
    assert.deepEqual(doc.paths["/either"].get.security, [{ apiKeyHeader: [] }, { bearerAuth: [] }]);
    assert.deepEqual(Object.keys(doc.paths["/upload"].post.requestBody.content), ["multipart/form-data", "application/x-www-form-urlencoded", "text/plain", "application/octet-stream"]);
    // Every $ref resolves and every security requirement names a scheme.
    const walk = (node, visit) => {
      if (node && typeof node === "object") {
        visit(node);
        Object.values(node).forEach((child) => walk(child, visit));
      }
    };
    walk(doc, (node) => {
      if (typeof node.$ref === "string") {
        const target = node.$ref.slice(2).split("/").reduce((at, key) => at?.[key], doc);
        assert.ok(target, `${node.$ref} resolves`);
      }
    });
    const ids = new Set();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(!ids.has(op.operationId), `${op.operationId} is unique`);
        ids.add(op.operationId);
        for (const requirement of op.security ?? []) {
          for (const name of Object.keys(requirement)) assert.ok(schemes[name], `${method} ${path}: ${name}`);
        }
      }
    }
  });

  test("authApiDocument(origin) fills in the origin, and serves every operation at a real URL", async () => {
    const doc = authApiDocument(api.origin);
    assert.equal(doc.servers[0].url, "{origin}");
    assert.equal(doc.servers[0].variables.origin.default, api.origin);
    const ping = doc.paths["/ping"].get.servers[0];
    assert.equal(ping.url, "{origin}/{version}");
    assert.equal(ping.variables.origin.default, api.origin);
    assert.deepEqual(ping.variables.version, { default: "v1", enum: ["v1", "v2"], description: "API version" });
    assert.equal(doc.components.securitySchemes.oauth.flows.password.tokenUrl, "/oauth/token", "relative unless asked");
    for (const version of ping.variables.version.enum) {
      const base = ping.url.replace("{origin}", ping.variables.origin.default).replace("{version}", version);
      assert.deepEqual(await (await fetch(`${base}/ping`)).json(), { version });
    }
    const absolute = authApiDocument(`${api.origin}/`, { absoluteUrls: true });
    assert.equal(absolute.servers[0].variables.origin.default, api.origin);
    assert.equal(absolute.components.securitySchemes.oauth.flows.authorizationCode.authorizationUrl, `${api.origin}/oauth/authorize`);
    assert.equal(absolute.components.securitySchemes.oidc.openIdConnectUrl, `${api.origin}/.well-known/openid-configuration`);
    // The fixture on disk is untouched.
    assert.equal(JSON.parse(await readFile(AUTH_API_FIXTURE, "utf8")).servers[0].variables.origin.default, "http://127.0.0.1:8080");
    assert.equal(CREDENTIALS.apiKey, "k-123");
  });
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
