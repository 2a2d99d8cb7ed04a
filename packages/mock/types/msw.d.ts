import type { HttpHandler } from "msw";

/** What the handlers need of a mock: an `ApiMock` or a `PetstoreMock`. */
export interface FetchingMock {
  fetch(input: RequestInfo | URL, init?: RequestInit | null): Promise<Response>;
}

/**
 * MSW request handlers (`http.all(prefix + "*", ...)`) answered by `mock`: every request under
 * `prefix` (a path such as "/api": on the page's origin in a browser, on any origin in Node; or
 * an absolute URL) goes to the mock with the prefix removed; other requests go on to the next
 * handler. A network failure the mock's options inject is `Response.error()`.
 *
 * ```js
 * const server = setupServer(...mswHandlers(await ApiMock.open("openapi.yaml"), "/api"));
 * ```
 */
export declare function mswHandlers(mock: FetchingMock, prefix?: string): HttpHandler[];
