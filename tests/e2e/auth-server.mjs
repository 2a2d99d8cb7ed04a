// A real API with real authentication for the try-it console's end-to-end tests: an OAuth 2
// authorization server (PKCE code, implicit, client credentials, password, refresh; and a
// token endpoint as FastAPI makes one, the password grant without a client), bearer,
// Basic, API-key (header, query, cookie) and combined security, uploads (multipart, form,
// text, binary), answers of several kinds (text, PNG, attachment, 10 MB JSON), a redirect to
// another origin, and versioned servers. It answers CORS for a page served from another
// origin. Only node:http, node:crypto, node:zlib and node:fs; no dependencies.
//
//   const api = await startAuthServer();
//   api.origin   // "http://127.0.0.1:PORT"
//   api.log      // [{ method, path, url, query, headers, body: Buffer }] in arrival order
//   api.log2     // the same for the second ("away") server, plus hasAuthorization, hasApiKey
//   await api.close();
//
// fixtures/auth-api.json describes it; authApiDocument(origin) fills the origin in, and
// fastapiAuthDocument(origin) is the same with FastAPI's OAuth2PasswordBearer as `oauth`.
import { createServer } from "node:http";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { deflateSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const AUTH_API_FIXTURE = fileURLToPath(new URL("./fixtures/auth-api.json", import.meta.url));

/** The credentials the server knows, for tests. */
export const CREDENTIALS = Object.freeze({
  apiKey: "k-123",
  apiKeyHeader: "X-API-Key",
  apiKeyQuery: "api_key",
  apiKeyCookie: "session_key",
  user: "alice",
  password: "wonderland",
  staticToken: "static-token",
  publicClient: "playground",
  confidentialClient: "machine",
  confidentialSecret: "s3cret",
  scopes: ["read:pets", "write:pets"],
});

const CLIENTS = {
  // A public client (a browser app): no secret, PKCE required for the code flow.
  playground: { secret: null, grants: ["authorization_code", "implicit", "password", "refresh_token"] },
  // A confidential client.
  machine: { secret: "s3cret", grants: ["client_credentials", "password", "refresh_token"] },
};
const KNOWN_SCOPES = ["read:pets", "write:pets", "openid"];
const DEFAULT_SCOPES = ["read:pets"];
const STATIC_TOKEN = { sub: "static-user", scopes: ["read:pets"], client_id: null };
const MAX_BODY = 64 * 1024 * 1024;
const LARGE_SIZE = 10 * 1024 * 1024;

// Headers this server sets that a cross-origin script may only read when exposed.
const EXPOSED = ["X-Request-Id", "WWW-Authenticate", "Content-Disposition", "X-Content-SHA256", "X-Item-Count", "Location"];

/**
 * Starts the API (and a second tiny server on another port, the target of /redirect-away).
 * Options: `tokenLifetime` (seconds, default 3600) for tokens from /oauth/token.
 */
export async function startAuthServer({ tokenLifetime = 3600 } = {}) {
  const log = [];
  const log2 = [];
  const away = await listen((req, res) => handleAway(req, res, log2));
  const awayOrigin = `http://127.0.0.1:${away.address().port}`;
  const state = {
    origin: "",
    awayOrigin,
    tokenLifetime,
    signingKey: randomBytes(32),
    tokens: new Map(), // access token -> { sub, scopes, client_id, exp }
    refreshTokens: new Map(), // refresh token -> { sub, scopes, client_id }
    codes: new Map(), // code -> { client_id, redirect_uri, challenge, scopes, sub, exp, used, issued: [] }
    requests: 0,
  };
  const server = await listen((req, res) => handle(req, res, state, log));
  state.origin = `http://127.0.0.1:${server.address().port}`;
  let closed;
  return {
    origin: state.origin,
    awayOrigin,
    log,
    log2,
    close() {
      closed ??= Promise.all([server, away].map((s) => new Promise((ok) => {
        s.close(() => ok());
        s.closeAllConnections();
      })));
      return closed;
    },
  };
}

/**
 * The OpenAPI document of this server (fixtures/auth-api.json) with every `origin` server
 * variable defaulting to `origin`. With `absoluteUrls`, the OAuth and OpenID Connect URLs
 * (relative in the fixture) are made absolute against `origin` too.
 */
export function authApiDocument(origin, { absoluteUrls = false } = {}) {
  const doc = JSON.parse(readFileSync(AUTH_API_FIXTURE, "utf8"));
  const base = String(origin).replace(/\/+$/, "");
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== "object") return;
    if (node.variables?.origin && typeof node.url === "string") node.variables.origin.default = base;
    Object.values(node).forEach(walk);
  };
  walk(doc);
  if (absoluteUrls) {
    for (const scheme of Object.values(doc.components.securitySchemes)) {
      if (scheme.openIdConnectUrl) scheme.openIdConnectUrl = new URL(scheme.openIdConnectUrl, base).href;
      for (const flow of Object.values(scheme.flows ?? {})) {
        for (const key of ["authorizationUrl", "tokenUrl", "refreshUrl"]) {
          if (flow[key]) flow[key] = new URL(flow[key], base).href;
        }
      }
    }
  }
  return doc;
}

/**
 * authApiDocument(origin) whose `oauth` scheme is what FastAPI's `OAuth2PasswordBearer`
 * documents: the password flow alone, at /fastapi/token (relative, as FastAPI writes it).
 */
export function fastapiAuthDocument(origin) {
  const doc = authApiDocument(origin);
  doc.components.securitySchemes.oauth = {
    type: "oauth2",
    flows: { password: { tokenUrl: "/fastapi/token", scopes: { "read:pets": "Read pets" } } },
  };
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Plumbing

function listen(handler) {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((err) => {
      if (!res.headersSent) json(res, 500, { error: "server_error", error_description: String(err?.stack ?? err) });
      else res.destroy(err);
    });
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok(server));
  });
}

class TooLarge extends Error {}

function readBody(req) {
  return new Promise((ok, fail) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        fail(new TooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => ok(Buffer.concat(chunks)));
    req.on("error", fail);
  });
}

/** CORS answer headers: the request Origin echoed, credentials allowed, our headers exposed. */
function cors(req, res) {
  res.setHeader("Vary", "Origin");
  const origin = req.headers.origin;
  if (origin) {
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Allow-Credentials", "true");
    res.setHeader("Access-Control-Expose-Headers", EXPOSED.join(", "));
  }
}

/** Answers a preflight (OPTIONS with Access-Control-Request-Method) or a plain OPTIONS. */
function options(req, res, allow) {
  const method = req.headers["access-control-request-method"];
  if (method) {
    res.setHeader("Access-Control-Allow-Methods", method);
    const headers = req.headers["access-control-request-headers"];
    if (headers) res.setHeader("Access-Control-Allow-Headers", headers);
    res.setHeader("Access-Control-Max-Age", "5");
    if (req.headers["access-control-request-private-network"]) res.setHeader("Access-Control-Allow-Private-Network", "true");
    res.setHeader("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
  }
  res.writeHead(204, { Allow: allow }).end();
}

function json(res, status, value, headers = {}) {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length, ...headers });
  res.end(body);
}

function text(res, status, value, headers = {}) {
  const body = Buffer.from(value);
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": body.length, ...headers });
  res.end(body);
}

const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");
const base64url = (buf) => Buffer.from(buf).toString("base64url");
const randomToken = (prefix, bytes = 24) => `${prefix}${randomBytes(bytes).toString("base64url")}`;

function safeEqual(a, b) {
  const x = Buffer.from(String(a));
  const y = Buffer.from(String(b));
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Parses `type/subtype; a=b; c="d"` into { type, params } (type lower-cased). */
function parseMediaType(value = "") {
  const [type, ...rest] = splitParams(value);
  const params = {};
  for (const param of rest) {
    const eq = param.indexOf("=");
    if (eq < 0) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    params[key] = unquote(param.slice(eq + 1).trim());
  }
  return { type: (type ?? "").trim().toLowerCase(), params };
}

/** Splits on `;` outside quoted strings. */
function splitParams(value) {
  const out = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === "\\" && i + 1 < value.length) {
      current += c + value[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ";" && !quoted) {
      out.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  out.push(current);
  return out;
}

function unquote(value) {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(.)/g, "$1");
  return value;
}

function parseCookies(header = "") {
  const out = {};
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (!(name in out)) out[name] = unquote(pair.slice(eq + 1).trim());
  }
  return out;
}

/** `Authorization: Basic` → { user, pass } (null when absent or malformed). */
function parseBasic(header = "") {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}

/** `Authorization: Bearer` → the token, null when absent, "" when the scheme is Bearer but malformed. */
function parseBearer(header = "") {
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  if (!match) return null;
  const token = (match[1] ?? "").trim();
  return /^[A-Za-z0-9\-._~+/]+=*$/.test(token) ? token : "";
}

/** URL-encoded form → object; a repeated name becomes an array. */
function formObject(params) {
  const out = {};
  for (const [key, value] of params) {
    if (key in out) out[key] = [].concat(out[key], value);
    else out[key] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The main server

const ROUTES = {
  "/oauth/authorize": ["GET", authorize],
  "/oauth/token": ["POST", token],
  "/fastapi/token": ["POST", fastapiToken],
  "/.well-known/openid-configuration": ["GET", discovery],
  "/bearer/whoami": ["GET", bearerWhoami],
  "/basic/whoami": ["GET", basicWhoami],
  "/apikey/header": ["GET", apiKeyHeader],
  "/apikey/query": ["GET", apiKeyQuery],
  "/apikey/cookie": ["GET", apiKeyCookie],
  "/both": ["GET", both],
  "/either": ["GET", either],
  "/upload": ["POST", upload],
  "/answers/text": ["GET", answerText],
  "/answers/image": ["GET", answerImage],
  "/answers/binary": ["GET", answerBinary],
  "/answers/large": ["GET", answerLarge],
  "/redirect-away": ["GET", redirectAway],
  "/v1/ping": ["GET", (ctx) => json(ctx.res, 200, { version: "v1" })],
  "/v2/ping": ["GET", (ctx) => json(ctx.res, 200, { version: "v2" })],
};

async function handle(req, res, state, log) {
  const url = new URL(req.url, "http://127.0.0.1");
  let body;
  try {
    body = await readBody(req);
  } catch (err) {
    if (err instanceof TooLarge) {
      cors(req, res);
      json(res, 413, { error: "payload_too_large" }, { Connection: "close" });
      return;
    }
    throw err;
  }
  log.push({ method: req.method, path: url.pathname, url: req.url, query: Object.fromEntries(url.searchParams), headers: { ...req.headers }, body });
  res.setHeader("X-Request-Id", `req-${++state.requests}`);
  cors(req, res);
  const route = ROUTES[url.pathname];
  if (!route) return json(res, 404, { error: "not_found", error_description: `no route for ${url.pathname}` });
  const [method, fn] = route;
  const allow = method === "GET" ? "GET, HEAD, OPTIONS" : `${method}, OPTIONS`;
  if (req.method === "OPTIONS") return options(req, res, allow);
  if (req.method !== method && !(method === "GET" && req.method === "HEAD")) {
    return json(res, 405, { error: "method_not_allowed", error_description: `${req.method} is not allowed; use ${method}` }, { Allow: allow });
  }
  return fn({ req, res, url, body, state });
}

// --- OAuth 2 -------------------------------------------------------------------------------

function parseScopes(value, fallback) {
  if (value === undefined || value === null || value.trim() === "") return { scopes: [...fallback] };
  const scopes = [...new Set(value.trim().split(/\s+/))];
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.includes(s));
  if (unknown.length) return { error: "invalid_scope", error_description: `unknown scope: ${unknown.join(" ")}` };
  return { scopes };
}

/**
 * A token endpoint as FastAPI's `OAuth2PasswordRequestForm` makes one: the password grant with
 * no client (`client_id` and `client_secret` are optional and not checked; `grant_type`, when
 * given, must be "password"), 422 with FastAPI's `detail` list for a missing field, 400
 * `{"detail": "Incorrect username or password"}` for wrong ones, and `token_type: "bearer"`
 * without `expires_in`. Its tokens are the API's bearer tokens.
 */
function fastapiToken({ req, res, body, state }) {
  const { type } = parseMediaType(req.headers["content-type"]);
  const form = new URLSearchParams(type === "application/x-www-form-urlencoded" ? body.toString("utf8") : "");
  const problems = [];
  for (const name of ["username", "password"]) {
    if (!form.has(name)) problems.push({ type: "missing", loc: ["body", name], msg: "Field required", input: null });
  }
  const grantType = form.get("grant_type");
  if (grantType !== null && grantType !== "password") {
    problems.push({ type: "string_pattern_mismatch", loc: ["body", "grant_type"], msg: "String should match pattern '^password$'", input: grantType });
  }
  if (problems.length) return json(res, 422, { detail: problems });
  if (!(safeEqual(form.get("username"), CREDENTIALS.user) && safeEqual(form.get("password"), CREDENTIALS.password))) {
    return json(res, 400, { detail: "Incorrect username or password" });
  }
  const scoped = parseScopes(form.get("scope"), DEFAULT_SCOPES);
  if (scoped.error) return json(res, 400, { detail: scoped.error_description });
  const accessToken = issueAccessToken(state, { sub: form.get("username"), scopes: scoped.scopes, client_id: form.get("client_id") });
  json(res, 200, { access_token: accessToken, token_type: "bearer" });
}

function isHttpUrl(value) {
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && !u.hash && value === value.trim();
  } catch {
    return false;
  }
}

function issueAccessToken(state, { sub, scopes, client_id, lifetime = state.tokenLifetime }) {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify({ iss: state.origin, sub, scope: scopes.join(" "), client_id, iat: now, exp: now + lifetime, jti: randomBytes(8).toString("hex") }));
  const signature = createHmac("sha256", state.signingKey).update(`${header}.${payload}`).digest("base64url");
  const accessToken = `${header}.${payload}.${signature}`;
  state.tokens.set(accessToken, { sub, scopes, client_id, exp: Date.now() + lifetime * 1000 });
  return accessToken;
}

/** The record of a valid access token (issued here or the static one), or null. */
function lookupToken(state, tokenValue) {
  if (tokenValue === "static-token") return STATIC_TOKEN;
  const record = state.tokens.get(tokenValue);
  if (!record) return null;
  if (record.exp <= Date.now()) {
    state.tokens.delete(tokenValue);
    return null;
  }
  return record;
}

function authorize({ res, url, state }) {
  const q = url.searchParams;
  const clientId = q.get("client_id");
  const redirectUri = q.get("redirect_uri");
  const noStore = { "Cache-Control": "no-store" };
  // RFC 6749 4.1.2.1: with a bad client or redirect URI, tell the user; never redirect.
  if (!clientId || !CLIENTS[clientId]) {
    return json(res, 400, { error: "invalid_request", error_description: clientId ? `unknown client_id "${clientId}"` : "client_id is required" }, noStore);
  }
  if (!redirectUri || !isHttpUrl(redirectUri)) {
    return json(res, 400, { error: "invalid_request", error_description: "redirect_uri must be an absolute http(s) URL without a fragment" }, noStore);
  }
  const responseType = q.get("response_type");
  const stateParam = q.get("state");
  const inFragment = responseType === "token";
  const redirect = (params) => {
    const target = new URL(redirectUri);
    if (stateParam !== null) params.state = stateParam;
    if (inFragment) {
      target.hash = new URLSearchParams(params).toString();
    } else {
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    }
    res.writeHead(302, { Location: target.href, ...noStore }).end();
  };
  const fail = (error, error_description) => redirect({ error, error_description });

  if (!responseType) return fail("invalid_request", "response_type is required");
  if (responseType !== "code" && responseType !== "token") return fail("unsupported_response_type", `response_type "${responseType}" is not supported`);
  const grant = responseType === "code" ? "authorization_code" : "implicit";
  if (!CLIENTS[clientId].grants.includes(grant)) return fail("unauthorized_client", `client "${clientId}" may not use response_type ${responseType}`);
  const scoped = parseScopes(q.get("scope"), DEFAULT_SCOPES);
  if (scoped.error) return fail(scoped.error, scoped.error_description);

  if (responseType === "token") {
    const lifetime = 3600;
    const accessToken = issueAccessToken(state, { sub: "alice", scopes: scoped.scopes, client_id: clientId, lifetime });
    return redirect({ access_token: accessToken, token_type: "Bearer", expires_in: String(lifetime), scope: scoped.scopes.join(" ") });
  }

  const challenge = q.get("code_challenge");
  const method = q.get("code_challenge_method");
  if (!challenge) return fail("invalid_request", "code_challenge is required (PKCE)");
  if (method !== "S256") return fail("invalid_request", `code_challenge_method must be S256 (got ${method === null ? "none, which means plain" : `"${method}"`})`);
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail("invalid_request", "code_challenge must be base64url(sha256(code_verifier)), 43 characters");
  const code = randomToken("c-", 18);
  state.codes.set(code, { client_id: clientId, redirect_uri: redirectUri, challenge, scopes: scoped.scopes, sub: "alice", exp: Date.now() + 120_000, used: false, issued: [], issuedRefresh: [] });
  return redirect({ code });
}

function oauthError(res, status, error, error_description, headers = {}) {
  return json(res, status, { error, error_description }, { "Cache-Control": "no-store", Pragma: "no-cache", ...headers });
}

/** Client authentication at the token endpoint (RFC 6749 2.3): Basic or body, never both. */
function authenticateClient(req, form) {
  const usedBasic = /^Basic\b/i.test(req.headers.authorization ?? "");
  const basic = usedBasic ? parseBasic(req.headers.authorization) : null;
  const challenge = usedBasic ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {};
  const invalidClient = (description) => ({ status: 401, error: "invalid_client", error_description: description, headers: challenge });
  if (usedBasic && !basic) return invalidClient("malformed Basic credentials");
  const decode = (s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return s;
    }
  };
  if (basic && form.has("client_secret")) return { status: 400, error: "invalid_request", error_description: "use one client authentication method, not Basic and client_secret together" };
  const id = basic ? decode(basic.user) : form.get("client_id");
  const secret = basic ? decode(basic.pass) : form.get("client_secret");
  if (basic && form.has("client_id") && form.get("client_id") !== id) return { status: 400, error: "invalid_request", error_description: "client_id in the body differs from the Basic credentials" };
  if (!id) return invalidClient("client authentication is required (client_id)");
  const client = CLIENTS[id];
  if (!client) return invalidClient(`unknown client "${id}"`);
  if (client.secret) {
    if (!secret || !safeEqual(secret, client.secret)) return invalidClient(`wrong or missing secret for client "${id}"`);
  } else if (secret) {
    return invalidClient(`client "${id}" is public and has no secret`);
  }
  return { client: { id, ...client } };
}

function token({ req, res, body, state }) {
  const { type } = parseMediaType(req.headers["content-type"]);
  if (type !== "application/x-www-form-urlencoded") return oauthError(res, 400, "invalid_request", "the token request must be application/x-www-form-urlencoded");
  const form = new URLSearchParams(body.toString("utf8"));
  for (const key of new Set(form.keys())) {
    if (form.getAll(key).length > 1) return oauthError(res, 400, "invalid_request", `parameter "${key}" is repeated`);
  }
  const grantType = form.get("grant_type");
  if (!grantType) return oauthError(res, 400, "invalid_request", "grant_type is required");
  const GRANTS = ["authorization_code", "client_credentials", "password", "refresh_token"];
  if (!GRANTS.includes(grantType)) return oauthError(res, 400, "unsupported_grant_type", `grant_type "${grantType}" is not supported`);
  const auth = authenticateClient(req, form);
  if (auth.error) return oauthError(res, auth.status, auth.error, auth.error_description, auth.headers);
  const { client } = auth;
  if (!client.grants.includes(grantType)) return oauthError(res, 400, "unauthorized_client", `client "${client.id}" may not use grant_type ${grantType}`);

  const answer = ({ sub, scopes, refresh }) => {
    const accessToken = issueAccessToken(state, { sub, scopes, client_id: client.id });
    const out = { access_token: accessToken, token_type: "Bearer", expires_in: state.tokenLifetime };
    if (refresh) {
      out.refresh_token = randomToken("r-");
      state.refreshTokens.set(out.refresh_token, { sub, scopes, client_id: client.id });
    }
    out.scope = scopes.join(" ");
    json(res, 200, out, { "Cache-Control": "no-store", Pragma: "no-cache" });
    return out;
  };

  if (grantType === "authorization_code") {
    const code = form.get("code");
    const redirectUri = form.get("redirect_uri");
    const verifier = form.get("code_verifier");
    if (!code) return oauthError(res, 400, "invalid_request", "code is required");
    if (!redirectUri) return oauthError(res, 400, "invalid_request", "redirect_uri is required (it was sent to /oauth/authorize)");
    if (!verifier) return oauthError(res, 400, "invalid_request", "code_verifier is required (PKCE)");
    const record = state.codes.get(code);
    if (!record) return oauthError(res, 400, "invalid_grant", "unknown authorization code");
    if (record.used) {
      // RFC 6749 4.1.2: a code used twice revokes what it was exchanged for.
      for (const t of record.issued) state.tokens.delete(t);
      for (const t of record.issuedRefresh) state.refreshTokens.delete(t);
      return oauthError(res, 400, "invalid_grant", "authorization code already used");
    }
    if (record.exp <= Date.now()) return oauthError(res, 400, "invalid_grant", "authorization code expired");
    if (record.client_id !== client.id) return oauthError(res, 400, "invalid_grant", "authorization code was issued to another client");
    if (record.redirect_uri !== redirectUri) return oauthError(res, 400, "invalid_grant", "redirect_uri does not match the one sent to /oauth/authorize");
    if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return oauthError(res, 400, "invalid_request", "code_verifier must be 43 to 128 unreserved characters");
    if (base64url(createHash("sha256").update(verifier, "ascii").digest()) !== record.challenge) {
      return oauthError(res, 400, "invalid_grant", "PKCE verification failed: base64url(sha256(code_verifier)) differs from code_challenge");
    }
    record.used = true;
    const out = answer({ sub: record.sub, scopes: record.scopes, refresh: true });
    record.issued = [out.access_token];
    record.issuedRefresh = [out.refresh_token];
    return;
  }

  if (grantType === "client_credentials") {
    const scoped = parseScopes(form.get("scope"), CREDENTIALS.scopes);
    if (scoped.error) return oauthError(res, 400, scoped.error, scoped.error_description);
    return void answer({ sub: client.id, scopes: scoped.scopes, refresh: false });
  }

  if (grantType === "password") {
    const username = form.get("username");
    const password = form.get("password");
    if (!username || password === null) return oauthError(res, 400, "invalid_request", "username and password are required");
    if (!(safeEqual(username, CREDENTIALS.user) && safeEqual(password, CREDENTIALS.password))) {
      return oauthError(res, 400, "invalid_grant", "wrong username or password");
    }
    const scoped = parseScopes(form.get("scope"), DEFAULT_SCOPES);
    if (scoped.error) return oauthError(res, 400, scoped.error, scoped.error_description);
    return void answer({ sub: username, scopes: scoped.scopes, refresh: true });
  }

  // refresh_token
  const refreshToken = form.get("refresh_token");
  if (!refreshToken) return oauthError(res, 400, "invalid_request", "refresh_token is required");
  const record = state.refreshTokens.get(refreshToken);
  if (!record) return oauthError(res, 400, "invalid_grant", "unknown or already used refresh token");
  if (record.client_id !== client.id) return oauthError(res, 400, "invalid_grant", "refresh token was issued to another client");
  const scoped = parseScopes(form.get("scope"), record.scopes);
  if (scoped.error) return oauthError(res, 400, scoped.error, scoped.error_description);
  const wider = scoped.scopes.filter((s) => !record.scopes.includes(s));
  if (wider.length) return oauthError(res, 400, "invalid_scope", `scope exceeds the original grant: ${wider.join(" ")}`);
  state.refreshTokens.delete(refreshToken); // rotation: each refresh token is used once
  return void answer({ sub: record.sub, scopes: scoped.scopes, refresh: true });
}

function discovery({ res, state }) {
  const o = state.origin;
  json(res, 200, {
    issuer: o,
    authorization_endpoint: `${o}/oauth/authorize`,
    token_endpoint: `${o}/oauth/token`,
    grant_types_supported: ["authorization_code", "implicit", "client_credentials", "password", "refresh_token"],
    response_types_supported: ["code", "token"],
    response_modes_supported: ["query", "fragment"],
    scopes_supported: KNOWN_SCOPES,
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    code_challenge_methods_supported: ["S256"],
    subject_types_supported: ["public"],
  });
}

// --- Protected API -------------------------------------------------------------------------

const BEARER_CHALLENGE = 'Bearer realm="test"';

/** { ok: record } | { error, description, challenge } for the request's bearer token. */
function checkBearer(req, state) {
  const value = parseBearer(req.headers.authorization ?? "");
  if (value === null) return { error: "unauthorized", description: "a bearer token is required", challenge: BEARER_CHALLENGE };
  if (value === "") return { error: "invalid_request", description: "malformed bearer token", challenge: `${BEARER_CHALLENGE}, error="invalid_request"` };
  const record = lookupToken(state, value);
  if (!record) return { error: "invalid_token", description: "the token is unknown or expired", challenge: `${BEARER_CHALLENGE}, error="invalid_token", error_description="the token is unknown or expired"` };
  return { ok: record };
}

function checkApiKeyHeader(req) {
  const value = req.headers["x-api-key"];
  if (value === undefined) return { error: "unauthorized", description: "the X-API-Key header is required" };
  if (!safeEqual(value, CREDENTIALS.apiKey)) return { error: "invalid_api_key", description: "the X-API-Key header is wrong" };
  return { ok: true };
}

function bearerWhoami({ req, res, state }) {
  const check = checkBearer(req, state);
  if (!check.ok) return json(res, 401, { error: check.error, error_description: check.description }, { "WWW-Authenticate": check.challenge });
  json(res, 200, { sub: check.ok.sub, scopes: check.ok.scopes, via: "bearer" });
}

function basicWhoami({ req, res }) {
  const basic = parseBasic(req.headers.authorization ?? "");
  if (basic && safeEqual(basic.user, CREDENTIALS.user) && safeEqual(basic.pass, CREDENTIALS.password)) {
    return json(res, 200, { sub: basic.user, via: "basic" });
  }
  json(res, 401, { error: "unauthorized", error_description: basic ? "wrong user name or password" : "HTTP Basic credentials are required" }, { "WWW-Authenticate": 'Basic realm="test"' });
}

function apiKeyHeader({ req, res }) {
  const check = checkApiKeyHeader(req);
  if (!check.ok) return json(res, 401, { error: check.error, error_description: check.description });
  json(res, 200, { via: "apikey-header" });
}

function apiKeyQuery({ res, url }) {
  const value = url.searchParams.get("api_key");
  if (value === null) return json(res, 401, { error: "unauthorized", error_description: "the api_key query parameter is required" });
  if (!safeEqual(value, CREDENTIALS.apiKey)) return json(res, 401, { error: "invalid_api_key", error_description: "the api_key query parameter is wrong" });
  json(res, 200, { via: "apikey-query" });
}

function apiKeyCookie({ req, res }) {
  const value = parseCookies(req.headers.cookie)[CREDENTIALS.apiKeyCookie];
  if (value === undefined) return json(res, 401, { error: "unauthorized", error_description: "the session_key cookie is required" });
  if (!safeEqual(value, CREDENTIALS.apiKey)) return json(res, 401, { error: "invalid_api_key", error_description: "the session_key cookie is wrong" });
  json(res, 200, { via: "apikey-cookie" });
}

function both({ req, res, state }) {
  const key = checkApiKeyHeader(req);
  const bearer = checkBearer(req, state);
  if (key.ok && bearer.ok) return json(res, 200, { sub: bearer.ok.sub, scopes: bearer.ok.scopes, via: "apikey-header+bearer" });
  const missing = [];
  if (!key.ok) missing.push("apiKeyHeader");
  if (!bearer.ok) missing.push("bearerAuth");
  json(res, 401, { error: "unauthorized", error_description: "both an X-API-Key header and a bearer token are required", missing }, { "WWW-Authenticate": bearer.challenge ?? BEARER_CHALLENGE });
}

function either({ req, res, state }) {
  const key = checkApiKeyHeader(req);
  if (key.ok) return json(res, 200, { via: "apikey-header" });
  const bearer = checkBearer(req, state);
  if (bearer.ok) return json(res, 200, { sub: bearer.ok.sub, scopes: bearer.ok.scopes, via: "bearer" });
  json(res, 401, { error: "unauthorized", error_description: "an X-API-Key header or a bearer token is required" }, { "WWW-Authenticate": bearer.challenge });
}

// --- Uploads -------------------------------------------------------------------------------

function upload({ req, res, body }) {
  const { type, params } = parseMediaType(req.headers["content-type"]);
  if (type === "multipart/form-data") {
    let parts;
    try {
      parts = parseMultipart(body, params.boundary);
    } catch (err) {
      return json(res, 400, { error: "bad_multipart", error_description: err.message });
    }
    const fields = {};
    const files = [];
    for (const part of parts) {
      if (part.filename !== undefined) {
        files.push({ field: part.name, filename: part.filename, contentType: part.contentType, size: part.data.length, sha256: sha256(part.data) });
      } else {
        const value = part.data.toString("utf8");
        fields[part.name] = part.name in fields ? [].concat(fields[part.name], value) : value;
      }
    }
    return json(res, 200, { fields, files });
  }
  if (type === "application/x-www-form-urlencoded") {
    return json(res, 200, { form: formObject(new URLSearchParams(body.toString("utf8"))) });
  }
  if (type === "text/plain") {
    const charset = (params.charset ?? "utf-8").toLowerCase();
    const encoding = { "utf-8": "utf8", utf8: "utf8", "us-ascii": "latin1", "iso-8859-1": "latin1", latin1: "latin1", "utf-16le": "utf16le" }[charset];
    if (!encoding) return json(res, 415, { error: "unsupported_charset", error_description: `charset ${charset} is not supported` });
    const value = body.toString(encoding);
    return json(res, 200, { text: value, length: value.length });
  }
  if (type === "application/octet-stream") {
    return json(res, 200, { size: body.length, sha256: sha256(body) });
  }
  json(res, 415, {
    error: "unsupported_media_type",
    error_description: `Content-Type ${type || "(none)"} is not accepted; use multipart/form-data, application/x-www-form-urlencoded, text/plain or application/octet-stream`,
  }, { "Accept-Post": "multipart/form-data, application/x-www-form-urlencoded, text/plain, application/octet-stream" });
}

/**
 * A multipart/form-data parser (RFC 7578 / RFC 2046 5.1): binary safe, CRLF line breaks.
 * Returns [{ name, filename?, contentType, headers, data: Buffer }]; throws on bad input.
 */
export function parseMultipart(body, boundary) {
  if (!boundary) throw new Error("the Content-Type has no boundary parameter");
  if (boundary.length > 70) throw new Error("the boundary is longer than 70 characters");
  const dash = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter may be at the very start or after a preamble ending in CRLF.
  let pos;
  if (body.subarray(0, dash.length).equals(dash)) pos = dash.length;
  else {
    const found = body.indexOf(delimiter);
    if (found < 0) throw new Error("no boundary delimiter in the body");
    pos = found + delimiter.length;
  }
  const parts = [];
  for (;;) {
    // After a delimiter: "--" closes, else optional transport padding then CRLF.
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return parts;
    while (body[pos] === 0x20 || body[pos] === 0x09) pos++;
    if (body[pos] !== 0x0d || body[pos + 1] !== 0x0a) throw new Error("a boundary line is not followed by CRLF");
    pos += 2;
    const headerEnd = body.indexOf("\r\n\r\n", pos);
    // A part with no headers at all starts directly with the blank line.
    let headerText;
    let dataStart;
    if (body[pos] === 0x0d && body[pos + 1] === 0x0a) {
      headerText = "";
      dataStart = pos + 2;
    } else {
      if (headerEnd < 0) throw new Error("a part's headers never end (no blank line)");
      headerText = body.subarray(pos, headerEnd).toString("utf8");
      dataStart = headerEnd + 4;
    }
    const next = body.indexOf(delimiter, dataStart);
    if (next < 0) throw new Error("the body ends without a closing boundary");
    const headers = {};
    for (const line of headerText.split("\r\n")) {
      if (!line) continue;
      const colon = line.indexOf(":");
      if (colon <= 0) throw new Error(`bad part header line: ${JSON.stringify(line)}`);
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const disposition = parseMediaType(headers["content-disposition"] ?? "");
    if (disposition.type !== "form-data" || disposition.params.name === undefined) {
      throw new Error("a part has no Content-Disposition: form-data; name=...");
    }
    let filename = disposition.params.filename;
    const extended = disposition.params["filename*"];
    if (extended) {
      const match = /^([^']*)'[^']*'(.*)$/.exec(extended);
      if (match) {
        try {
          filename = decodeURIComponent(match[2]);
        } catch {
          /* keep the plain filename */
        }
      }
    }
    const part = { name: disposition.params.name, contentType: headers["content-type"] ?? (filename !== undefined ? "application/octet-stream" : "text/plain"), headers, data: body.subarray(dataStart, next) };
    if (filename !== undefined) part.filename = filename;
    parts.push(part);
    pos = next + delimiter.length;
    if (pos > body.length) throw new Error("truncated body");
  }
}

// --- Answers -------------------------------------------------------------------------------

function answerText({ res }) {
  text(res, 200, "hello, text");
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A real 2x2 RGBA PNG: red, green / blue, white (half transparent). */
export function makePng() {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0); // width
  ihdr.writeUInt32BE(2, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // no interlace
  const raw = Buffer.from([
    0, 255, 0, 0, 255, 0, 255, 0, 255, // filter byte, red, green
    0, 0, 0, 255, 255, 255, 255, 255, 128, // filter byte, blue, white at half alpha
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

const PNG = makePng();

function answerImage({ res }) {
  res.writeHead(200, { "Content-Type": "image/png", "Content-Length": PNG.length, "X-Content-SHA256": sha256(PNG) }).end(PNG);
}

/** 1024 deterministic bytes that start like a zip file (PK\x03\x04) and cover every byte value. */
export function makeBinary() {
  const buf = Buffer.alloc(1024);
  for (let i = 0; i < buf.length; i++) buf[i] = (i * 131 + 7) & 0xff;
  buf.set([0x50, 0x4b, 0x03, 0x04], 0);
  return buf;
}

const BINARY = makeBinary();

function answerBinary({ res }) {
  res.writeHead(200, {
    "Content-Type": "application/octet-stream",
    "Content-Length": BINARY.length,
    "Content-Disposition": 'attachment; filename="data.bin"',
    "X-Content-SHA256": sha256(BINARY),
  }).end(BINARY);
}

/**
 * The large answer's layout: `[` item `,` item ... `]`, every item the same length except the
 * last, padded so the whole is exactly LARGE_SIZE bytes.
 */
const ITEM_LENGTH = 128;
function largeItem(id, length) {
  const head = `{"id":${id},"name":"item ${id}","tags":["a","b"],"pad":"`;
  const tail = `"}`;
  return head + "x".repeat(length - head.length - tail.length) + tail;
}
const LARGE_COUNT = Math.floor((LARGE_SIZE - 2 + 1) / (ITEM_LENGTH + 1));
const LARGE_LAST_LENGTH = LARGE_SIZE - 2 - (LARGE_COUNT - 1) * (ITEM_LENGTH + 1);
export const LARGE = Object.freeze({ size: LARGE_SIZE, count: LARGE_COUNT });

function answerLarge({ req, res }) {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": LARGE_SIZE, "X-Item-Count": String(LARGE_COUNT) });
  if (req.method === "HEAD") return res.end();
  let id = 0;
  const BATCH = 512; // ~64 KB per write
  const pump = () => {
    while (id < LARGE_COUNT) {
      let chunk = id === 0 ? "[" : "";
      const stop = Math.min(LARGE_COUNT, id + BATCH);
      for (; id < stop; id++) {
        if (id > 0) chunk += ",";
        chunk += largeItem(id, id === LARGE_COUNT - 1 ? LARGE_LAST_LENGTH : ITEM_LENGTH);
      }
      if (id === LARGE_COUNT) chunk += "]";
      if (!res.write(chunk)) {
        if (id < LARGE_COUNT) res.once("drain", pump);
        else res.once("drain", () => res.end());
        return;
      }
    }
    res.end();
  };
  res.on("close", () => res.removeAllListeners("drain"));
  pump();
}

function redirectAway({ res, url, state }) {
  const target = new URL("/landed", state.awayOrigin);
  target.search = url.search;
  res.writeHead(302, { Location: target.href, "Content-Length": 0 }).end();
}

// --- The second ("away") server --------------------------------------------------------------

async function handleAway(req, res, log2) {
  const body = await readBody(req);
  const url = new URL(req.url, "http://127.0.0.1");
  const entry = {
    method: req.method,
    path: url.pathname,
    url: req.url,
    query: Object.fromEntries(url.searchParams),
    headers: { ...req.headers },
    body,
    hasAuthorization: req.headers.authorization !== undefined,
    hasApiKey: req.headers["x-api-key"] !== undefined,
    hasCookie: req.headers.cookie !== undefined,
  };
  log2.push(entry);
  cors(req, res);
  if (req.method === "OPTIONS") return options(req, res, "GET, HEAD, OPTIONS");
  json(res, 200, { landed: true, path: url.pathname, receivedAuthorization: entry.hasAuthorization, receivedApiKey: entry.hasApiKey, receivedCookie: entry.hasCookie });
}
