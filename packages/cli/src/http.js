// What `mock` and `serve` share: a Node HTTP server answering through an `ApiMock` of
// petstore-playground-mock with the native server's CORS (crates/server/src/cors.rs) and body
// handling (crates/server/src/app.rs), listening as the native server listens, and stopping in
// order on Ctrl-C or SIGTERM.
import { createServer } from "node:http";

import { Failure, ioMessage, say } from "./common.js";

/**
 * `ApiMock` of petstore-playground-mock, imported when a command needs it (importing it
 * compiles its WebAssembly module: `--help`, `--version` and `host` go without).
 */
export async function loadApiMock() {
  return (await import("petstore-playground-mock")).ApiMock;
}

/** Every method the API uses (`cors::ALLOW_METHODS`). */
export const ALLOW_METHODS = "GET, POST, PUT, DELETE, OPTIONS";

/** Response headers a page may read besides the CORS-safelisted ones (`cors::EXPOSE_HEADERS`). */
export const EXPOSE_HEADERS = "Location, X-Total-Count, Deprecation, Sunset, Allow";

/**
 * The most body kept for the mock. The mock reads 1 MiB at most and refuses a larger body with
 * its size, so a body up to this size is handed over whole (the answer names its exact size, as
 * the native server's does up to the same 8 MiB, its `DRAIN_LIMIT`); past it, the rest is read
 * and dropped, and the mock is handed this much and one byte.
 */
export const DRAIN_LIMIT = 8 * 1024 * 1024;

/** How long open connections may run on after a stop signal (`DRAIN_TIME`). */
export const DRAIN_TIME_MS = 5000;

/** Response headers the server frames itself, as hyper does (`from_core`). */
const FRAMING = new Set(["content-length", "transfer-encoding", "connection"]);

/**
 * The answer to a CORS preflight (an `OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`): 204 with the origin echoed, never `*`. Gives false when the
 * request is not one (the mock answers any other `OPTIONS`).
 */
function preflight(request, response) {
  const { origin } = request.headers;
  if (request.method !== "OPTIONS" || origin === undefined || request.headers["access-control-request-method"] === undefined) {
    return false;
  }
  response.setHeader("access-control-allow-origin", origin);
  response.setHeader("access-control-allow-credentials", "true");
  response.setHeader("access-control-allow-methods", ALLOW_METHODS);
  const requested = request.headers["access-control-request-headers"];
  if (requested !== undefined) response.setHeader("access-control-allow-headers", requested);
  // Chrome's Private Network Access: a public page calling 127.0.0.1 must be allowed explicitly.
  if (request.headers["access-control-request-private-network"] === "true") {
    response.setHeader("access-control-allow-private-network", "true");
  }
  response.setHeader("access-control-max-age", "600");
  response.setHeader("vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
  response.writeHead(204).end();
  return true;
}

/** The CORS headers of an actual answer: `Vary: Origin` always, the rest when there is an `Origin`. */
function decorate(headers, origin) {
  headers.push(["vary", "Origin"]);
  if (origin === undefined) return headers;
  const replaced = new Set(["access-control-allow-origin", "access-control-allow-credentials", "access-control-expose-headers"]);
  return [
    ...headers.filter(([name]) => !replaced.has(name)),
    ["access-control-allow-origin", origin],
    ["access-control-allow-credentials", "true"],
    ["access-control-expose-headers", EXPOSE_HEADERS],
  ];
}

/** The request's body: all of it up to `DRAIN_LIMIT` (see there), or `null` when the connection broke. */
function readBody(request) {
  return new Promise((resolve) => {
    const chunks = [];
    let kept = 0;
    request.on("data", (chunk) => {
      if (kept > DRAIN_LIMIT) return;
      const room = DRAIN_LIMIT + 1 - kept;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(part);
      kept += part.length;
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    // Closed before its end (a promise resolves once: after "end" this changes nothing).
    request.on("close", () => resolve(null));
    request.on("error", () => resolve(null));
  });
}

/**
 * Answers `request` with `mock` (an `ApiMock`), the mock seeing `target` (the path and query it
 * answers). `rewrite(headers)` may change the answer's headers (`serve` moves `Location` under
 * /mock). The mock's own `fetch` answers it, with the delay and the failures its options ask for;
 * an injected network failure cuts the connection after the head, as the native server does.
 * (Its answer is a Fetch API `Response`, whose headers join repeated names into one value.)
 */
export async function answerWithMock(mock, request, response, target, rewrite = (headers) => headers) {
  if (preflight(request, response)) return;
  const { origin } = request.headers;
  const body = await readBody(request);
  // A client that went away gets no answer.
  if (body === null) return;
  const headers = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    headers.push([request.rawHeaders[i].toLowerCase(), request.rawHeaders[i + 1]]);
  }
  const method = request.method;
  const withBody = method !== "GET" && method !== "HEAD" && body.length > 0;
  let answer;
  try {
    const answered = await mock.fetch(`http://localhost${target}`, { method, headers, body: withBody ? body : undefined });
    answer = {
      status: answered.status,
      headers: [...answered.headers],
      body: Buffer.from(await answered.arrayBuffer()),
    };
  } catch (error) {
    if (String(error?.message).includes("injected by the mock's options")) {
      response.writeHead(200);
      response.flushHeaders();
      response.destroy();
      return;
    }
    // What the Fetch API refuses (a method such as TRACE, a header value it cannot hold) goes
    // to the mock's `handle`, which takes any request (the body as text).
    const handled = mock.handle({ method, url: target, headers, body: body.toString("utf8") });
    answer = { status: handled.status, headers: handled.headers, body: Buffer.from(handled.body) };
  }
  const out = decorate(
    rewrite(answer.headers.filter(([name]) => !FRAMING.has(name.toLowerCase()))),
    origin,
  );
  const grouped = new Map();
  for (const [name, value] of out) {
    const key = name.toLowerCase();
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  for (const [name, values] of grouped) response.setHeader(name, values.length === 1 ? values[0] : values);
  response.writeHead(answer.status);
  response.end(answer.body);
}

/** The address as Rust's `SocketAddr` shows it: `127.0.0.1:8080`, `[::1]:8080`. */
function shownAddress({ address, family, port }) {
  return family === "IPv6" || family === 6 ? `[${address}]:${port}` : `${address}:${port}`;
}

/**
 * A server of `handler` listening on `host`:`port` (0 picks a free port); gives `{server,
 * address}`, the address as the URL shows it. Throws a `Failure` worded as the native one.
 */
export async function listen(handler, host, port) {
  const server = createServer(handler);
  try {
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    if (error.code === "EADDRINUSE") {
      throw new Failure(
        `cannot listen on ${host}:${port}: the port is already in use. Stop the program that uses it, or choose another port with --port (--port 0 picks a free one).`,
      );
    }
    throw new Failure(`cannot listen on ${host}:${port}: ${ioMessage(error)}`);
  }
  return { server, address: shownAddress(server.address()) };
}

/**
 * Starts handling Ctrl-C and SIGTERM (from now on they no longer end the process at once);
 * gives a promise of the first one's name.
 */
export function stopSignals() {
  return new Promise((resolve) => {
    const stop = (name) => () => {
      process.off("SIGINT", interrupt);
      process.off("SIGTERM", terminate);
      resolve(name);
    };
    const interrupt = stop("Ctrl-C");
    const terminate = stop("SIGTERM");
    process.on("SIGINT", interrupt);
    process.on("SIGTERM", terminate);
  });
}

/**
 * Stops `server` once `signal` comes: prints it, lets open requests finish (`before()` ends what
 * would never finish, such as event streams) for up to 5 s, then closes what is still open.
 */
export async function stopOn(signal, server, before = () => {}) {
  say(`${await signal} received, stopping`);
  before();
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections?.();
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(true), DRAIN_TIME_MS);
  });
  if (await Promise.race([closed.then(() => false), late])) {
    say(`connections still open after ${DRAIN_TIME_MS / 1000}s, closing them`);
    server.closeAllConnections?.();
    await closed;
  }
  clearTimeout(timer);
}
