// MSW request handlers answered by a mock: a project that already uses MSW (setupWorker in a
// page, setupServer from msw/node) adds the stateful mock of its description in one line.
import { http } from "msw";

import { answer, partsOf, prefixMatcher } from "./prefix.js";

/**
 * `[http.all(prefix + "*", ...)]`: every request under `prefix` (a path such as "/api", or an
 * absolute URL) goes to `mock` with the prefix removed; the others go on to the next handler.
 * A path takes that path on the page's origin in a browser, on any origin in Node. A network
 * failure the mock's options inject is `Response.error()`.
 */
export function mswHandlers(mock, prefix = "/") {
  if (!mock || typeof mock.answer !== "function") {
    throw new TypeError("mswHandlers(mock, prefix): mock is an ApiMock or a PetstoreMock.");
  }
  const origin = globalThis.location?.origin;
  const match = prefixMatcher(prefix, origin);
  const text = prefix.trim().replace(/\/+$/, "");
  // MSW matches a relative path only where there is a page; in Node the path may be on any origin.
  const pattern = /^https?:\/\//i.test(text) || origin ? `${text}*` : `*${text}*`;
  return [
    http.all(pattern, async ({ request }) => {
      const target = match(request.url);
      if (target === null) return undefined;
      return (await answer(mock, await partsOf(request), target)) ?? Response.error();
    }),
  ];
}
