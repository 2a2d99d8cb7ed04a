// A page that already uses MSW in the browser (setupWorker) adds the mock's handlers beside its own.
import { http, HttpResponse } from "msw";
import { setupWorker } from "msw/browser";
import { ApiMock } from "petstore-playground-mock";
import { mswHandlers } from "petstore-playground-mock/msw";

const out = document.querySelector("#out");

async function main() {
  const mock = await ApiMock.open("./openapi.yaml", { storageKey: null });
  const worker = setupWorker(http.get("/api/health", () => HttpResponse.json({ ok: true })), ...mswHandlers(mock, "/api"));
  await worker.start({ onUnhandledRequest: "bypass", quiet: true });
  const json = { "Content-Type": "application/json" };
  const created = await fetch("/api/todos", { method: "POST", headers: json, body: JSON.stringify({ title: "Through the worker" }) });
  const refused = await fetch("/api/todos", { method: "POST", headers: json, body: "{}" });
  const titles = (await (await fetch("/api/todos")).json()).map((t) => t.title);
  const health = await (await fetch("/api/health")).json();
  const other = (await fetch("/openapi.yaml")).status;
  out.textContent = JSON.stringify({ created: created.status, refused: refused.status, titles, health, other });
}

main().catch((error) => {
  out.textContent = `error: ${error.message}`;
});
