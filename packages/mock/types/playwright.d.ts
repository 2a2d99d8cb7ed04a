/** What `routeMock` needs of a mock: an `ApiMock` or a `PetstoreMock`. */
export interface FetchingMock {
  fetch(input: RequestInfo | URL, init?: RequestInit | null): Promise<Response>;
}

/**
 * A Playwright `Page` or `BrowserContext`: only `route` and `unroute` are used, and what their
 * promises resolve to is not, so any Playwright version fits (`route` resolves to nothing up to
 * 1.58, to a `Disposable` from 1.59).
 */
export interface Routable {
  route(url: (url: URL) => boolean, handler: (route: any) => unknown): Promise<unknown>;
  unroute(url: (url: URL) => boolean, handler?: (route: any) => unknown): Promise<unknown>;
}

/**
 * Routes the requests of `page` (or a browser context) under `prefix` (a path such as "/api",
 * on any origin, or an absolute URL) to `mock`, running in the test's own process, with the
 * prefix removed. Cross-origin calls get CORS headers and their preflights are answered; a
 * network failure the mock's options inject aborts the request. Resolves to a function that
 * removes the route.
 *
 * ```js
 * await routeMock(page, await ApiMock.open("openapi.yaml"), "/api");
 * ```
 */
export declare function routeMock(page: Routable, mock: FetchingMock, prefix?: string): Promise<() => Promise<void>>;
