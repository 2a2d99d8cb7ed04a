// A page's requests under a prefix answered by a mock in the test's own process (Playwright's
// page.route or browserContext.route): an end-to-end test of a frontend gets a stateful API
// with no server. Needs nothing from Playwright but the page (or context) it is given.
import { answer, prefixMatcher } from "./prefix.js";

/**
 * Routes the requests of `page` (or a browser context) under `prefix` (a path such as "/api",
 * on any origin, or an absolute URL) to `mock`, with the prefix removed. Cross-origin calls get
 * the CORS headers a browser needs, and their preflights are answered. A network failure the
 * mock's options inject aborts the request. Resolves to a function that removes the route.
 */
export async function routeMock(page, mock, prefix = "/") {
  if (!page || typeof page.route !== "function") {
    throw new TypeError("routeMock(page, mock, prefix): page is a Playwright Page or BrowserContext.");
  }
  if (!mock || typeof mock.answer !== "function") {
    throw new TypeError("routeMock(page, mock, prefix): mock is an ApiMock or a PetstoreMock.");
  }
  const match = prefixMatcher(prefix);
  const matches = (url) => match(url.href) !== null;
  const handler = async (route) => {
    const request = route.request();
    const target = match(request.url());
    if (target === null) return route.fallback();
    const headers = await request.allHeaders();
    const origin = headers.origin;
    if (request.method() === "OPTIONS" && headers["access-control-request-method"]) {
      return route.fulfill({ status: 204, headers: preflight(headers) });
    }
    const parts = {
      method: request.method(),
      headers: Object.entries(headers).filter(([name]) => !name.startsWith(":")),
      body: request.postDataBuffer(),
    };
    const response = await answer(mock, parts, target);
    if (!response) return route.abort("failed");
    const out = {};
    response.headers.forEach((value, name) => {
      out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
    });
    if (origin) {
      out["access-control-allow-origin"] = origin;
      out["access-control-allow-credentials"] = "true";
      out["access-control-expose-headers"] = [...response.headers.keys()].join(", ");
      out.vary = out.vary ? `${out.vary}, Origin` : "Origin";
    }
    return route.fulfill({ status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) });
  };
  // Playwright 1.59 and later resolve to a Disposable that removes the route; unroute does the
  // same in every version.
  await page.route(matches, handler);
  return async () => {
    await page.unroute(matches, handler);
  };
}

/** The answer to a CORS preflight: what it asks for is allowed. */
function preflight(headers) {
  const out = {
    "access-control-allow-origin": headers.origin ?? "*",
    "access-control-allow-methods": headers["access-control-request-method"],
    "access-control-max-age": "600",
    vary: "Origin",
  };
  if (headers.origin) out["access-control-allow-credentials"] = "true";
  if (headers["access-control-request-headers"]) out["access-control-allow-headers"] = headers["access-control-request-headers"];
  return out;
}
