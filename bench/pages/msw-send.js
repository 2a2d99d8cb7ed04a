// What both MSW pages do around their handlers: send a request with fetch, read the JSON
// answer and show it as the try-it benchmark expects (`.answer` with `data-status` and a new
// `data-exchange` each time); and start the worker, marking the page ready.
let exchanges = 0;

async function send(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const value = await response.json();
  const answer = document.createElement("pre");
  answer.className = "answer";
  answer.dataset.status = String(response.status);
  answer.dataset.exchange = String(++exchanges);
  answer.textContent = `${response.status} ${response.statusText}\n${JSON.stringify(value, null, 2)}`;
  document.getElementById("result").replaceChildren(answer);
}

function start(worker) {
  worker
    .start({ serviceWorker: { url: "/mockServiceWorker.js" }, quiet: true, onUnhandledRequest: "bypass" })
    .then(() => (document.body.dataset.ready = "true"));
}
