// @vitest-environment jsdom
// Vitest with a DOM (jsdom), as a frontend's unit tests run: the component code calls fetch and
// XMLHttpRequest (as axios does in a browser) with paths on the page's origin.
import { afterEach, expect, test } from "vitest";
import { ApiMock } from "petstore-playground-mock";

let undo = () => {};
afterEach(() => undo());

const json = { "Content-Type": "application/json" };

test("fetch and XMLHttpRequest under /api reach the mock", async () => {
  const mock = await ApiMock.open("api/openapi.yaml");
  undo = mock.installFetch("/api");
  const created = await fetch("/api/todos", { method: "POST", headers: json, body: JSON.stringify({ title: "From fetch" }) });
  expect(created.status).toBe(201);

  const status = await new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `${location.origin}/api/todos`);
    request.setRequestHeader("Content-Type", "application/json");
    request.onload = () => resolve(request.status);
    request.onerror = () => reject(new Error("XMLHttpRequest failed"));
    request.send(JSON.stringify({ title: "From XMLHttpRequest" }));
  });
  expect(status).toBe(201);

  const titles = (await (await fetch("/api/todos")).json()).map((t) => t.title);
  expect(titles).toEqual(["From fetch", "From XMLHttpRequest"]);
  expect((await fetch("/api/todos", { method: "POST", headers: json, body: "{}" })).status).toBe(422);
});

test("each test can start from a known state: snapshot and restore", async () => {
  const mock = await ApiMock.open("api/openapi.yaml");
  const empty = mock.snapshot();
  mock.handle({ method: "POST", url: "/todos", headers: json, body: '{"title": "Temporary"}' });
  expect(mock.resources()[0].count).toBe(1);
  mock.restore(empty);
  expect(mock.resources()[0].count).toBe(0);
});
