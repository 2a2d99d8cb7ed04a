// Compiled with `tsc --noEmit --strict` by tests/package/run.sh: the package's declarations cover
// what the README shows, and refuse what they should.
import { ApiMock, PetstoreMock, fileStorage, ready, type ApiMockOptions, type MockAnswer, type PetstoreMockAnswer } from "petstore-playground-mock";
import { mswHandlers } from "petstore-playground-mock/msw";
import { routeMock, type Routable } from "petstore-playground-mock/playwright";
import type { HttpHandler } from "msw";
// Playwright's own pages and contexts: playwright-core as pinned (1.59 or later, whose route()
// resolves to a Disposable) and 1.58 (the last whose route() resolves to nothing), so that
// routeMock fits both.
import type { BrowserContext, Page } from "playwright-core";
import type { BrowserContext as BrowserContext158, Page as Page158 } from "playwright-core-1.58";

export async function uses(page: Routable): Promise<void> {
  await ready();
  const options: ApiMockOptions = {
    file: "state.json",
    validate: true,
    security: false,
    credentials: ["secret"],
    seed: 3,
    delay: { min: 1, max: 5 },
    failure: { rate: 0.1, status: 503 },
    operations: { createTodo: { failure: { rate: 0.5, network: true } } },
  };
  const mock: ApiMock = await ApiMock.open("openapi.yaml", options);
  const fromUrl: ApiMock = await ApiMock.open(new URL("https://example.com/openapi.json"));
  const answer: MockAnswer = mock.handle({ method: "GET", url: "/todos", headers: { accept: "application/json" } });
  const status: number = answer.status;
  // The earlier name of the same type still compiles.
  const earlierName: PetstoreMockAnswer = answer;
  const response: Response = await fromUrl.fetch("/todos", { method: "POST", body: "{}" });
  const undo: () => void = mock.installFetch("/api");
  undo();
  const counts: number[] = mock.resources().map((r) => r.count);
  const snapshot: string = mock.snapshot();
  mock.restore(snapshot);
  mock.reset();
  const pets = new PetstoreMock({ seed: false, storage: fileStorage("pets.json") });
  const petCounts: number = pets.counts().pets;
  const handlers: HttpHandler[] = mswHandlers(mock, "/api");
  const unroute: () => Promise<void> = await routeMock(page, await PetstoreMock.open({ storageKey: null }), "/api");
  await unroute();
  void [status, response, counts, petCounts, handlers];

  // @ts-expect-error a page has route and unroute
  await routeMock({}, mock, "/api");
  // @ts-expect-error the rate is a number
  new ApiMock({}, { failure: { rate: "often" } });
  // @ts-expect-error no such option
  await PetstoreMock.open({ seeds: true });
  // @ts-expect-error handle() needs a url
  mock.handle({ method: "GET" });
}

export async function playwrightPages(page: Page, context: BrowserContext, earlierPage: Page158, earlierContext: BrowserContext158): Promise<void> {
  const mock = await ApiMock.open("openapi.yaml");
  const unroute: () => Promise<void> = await routeMock(page, mock, "/api");
  await unroute();
  await routeMock(context, mock, "https://api.example.com");
  await routeMock(earlierPage, mock, "/api");
  await routeMock(earlierContext, mock, "https://api.example.com");
}
