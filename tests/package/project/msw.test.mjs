// The mock as MSW request handlers in Node (msw/node's setupServer): the project's own handlers
// keep working beside it, and what the mock does not take goes on to the network.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";

import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { ApiMock } from "petstore-playground-mock";
import { mswHandlers } from "petstore-playground-mock/msw";

const json = { "Content-Type": "application/json" };
let real;
let realUrl;
let server;
let mock;

before(async () => {
  // A real server for what the mock does not take.
  real = createServer((request, response) => response.writeHead(200, json).end(JSON.stringify({ real: request.url })));
  await new Promise((resolve) => real.listen(0, "127.0.0.1", resolve));
  realUrl = `http://127.0.0.1:${real.address().port}`;
  mock = await ApiMock.open("api/openapi.yaml", { failure: { rate: 0 } });
  server = setupServer(
    http.get("https://app.example/health", () => HttpResponse.json({ ok: true })),
    ...mswHandlers(mock, "/api"),
  );
  server.listen({ onUnhandledRequest: "bypass" });
});

after(() => {
  server?.close();
  real?.close();
});

test("setupServer with mswHandlers: create, read back, list, delete; refused bodies get the documented error", async () => {
  const created = await fetch("https://app.example/api/todos", { method: "POST", headers: json, body: JSON.stringify({ title: "Buy milk" }) });
  assert.equal(created.status, 201);
  const todo = await created.json();
  assert.equal(todo.title, "Buy milk");
  assert.deepEqual(await (await fetch(`https://app.example/api/todos/${todo.id}`)).json(), todo);
  assert.deepEqual((await (await fetch("http://localhost:3000/api/todos")).json()).map((t) => t.id), [todo.id]);
  assert.equal((await fetch(`https://app.example/api/todos/${todo.id}`, { method: "DELETE" })).status, 204);
  assert.equal((await fetch(`https://app.example/api/todos/${todo.id}`)).status, 404);

  const refused = await fetch("https://app.example/api/todos", { method: "POST", headers: json, body: "{}" });
  assert.equal(refused.status, 422);
  assert.equal((await refused.json()).code, "validation_failed");
  // The mock's state is what the handlers changed.
  assert.deepEqual(mock.resources().map((r) => r.count), [0]);
});

test("the project's own handlers and the network still answer what the mock does not take", async () => {
  assert.deepEqual(await (await fetch("https://app.example/health")).json(), { ok: true });
  assert.deepEqual(await (await fetch(`${realUrl}/apiary`)).json(), { real: "/apiary" });
  assert.deepEqual(await (await fetch(`${realUrl}/other`)).json(), { real: "/other" });
});

test("an injected network failure is a network error, as MSW's Response.error()", async () => {
  const flaky = await ApiMock.open("api/openapi.yaml", { failure: { rate: 1, network: true } });
  server.use(...mswHandlers(flaky, "https://flaky.example"));
  await assert.rejects(fetch("https://flaky.example/todos"), TypeError);
  assert.throws(() => mswHandlers(flaky, "api"), { name: "TypeError", message: /The prefix "api" is not usable/ });
  assert.throws(() => mswHandlers({}, "/api"), TypeError);
});
