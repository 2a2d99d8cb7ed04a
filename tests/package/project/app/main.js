// A frontend that imports the package like any other: the mock of its description (read by
// fetch, YAML in two files) answers its fetch and XMLHttpRequest calls under /api.
import { ApiMock } from "petstore-playground-mock";

const out = document.querySelector("#out");

async function main() {
  const mock = await ApiMock.open("./openapi.yaml", { storageKey: "todos-app" });
  mock.installFetch("/api");
  const json = { "Content-Type": "application/json" };
  const created = await fetch("/api/todos", { method: "POST", headers: json, body: JSON.stringify({ title: "Plant tomatoes" }) });
  const viaXhr = await new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/api/todos");
    request.setRequestHeader("Content-Type", "application/json");
    request.onload = () => resolve(request.status);
    request.onerror = reject;
    request.send(JSON.stringify({ title: "Water them" }));
  });
  const refused = await fetch("/api/todos", { method: "POST", headers: json, body: JSON.stringify({}) });
  const todos = await (await fetch("/api/todos")).json();
  for (const todo of todos) {
    const item = document.createElement("li");
    item.textContent = todo.title;
    document.querySelector("#todos").append(item);
  }
  out.textContent = JSON.stringify({ created: created.status, viaXhr, refused: refused.status, titles: todos.map((t) => t.title) });
}

main().catch((error) => {
  out.textContent = `error: ${error.message}`;
});
