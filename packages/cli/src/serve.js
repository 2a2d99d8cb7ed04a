// `playground serve`: the site `build` would write at /, the description's mock at /mock/, and
// both made again when the description changes, open pages told to reload (or shown the error),
// as crates/cli/src/serve.rs does. The site is held in memory (the page with the live-reload
// script, openapi.json, the logo and favicon); the app's files are served from the app's folder.
// Changes are found by polling the files' modification times and sizes.
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";

import { Command, unsigned } from "./args.js";
import { SITE_OPTIONS } from "./build.js";
import { Failure, PROGRAM, joinShown, messageOf, say } from "./common.js";
import { answerWithMock, listen, loadApiMock, stopOn, stopSignals } from "./http.js";
import { appFolder, fileReader, loadSiteModule, makeSite, operationsText, printWarnings, readImage } from "./site.js";

export const SERVE = new Command(
  "serve",
  "Serve the site `build` would write at /, and the description's mock at /mock/, until Ctrl-C or SIGTERM; both are rebuilt, and open pages reloaded, when the description changes.",
  [
    ...SITE_OPTIONS,
    { name: "host", value: "HOST", default: "127.0.0.1", help: "Address to listen on (only this one)" },
    { name: "port", value: "PORT", default: "8080", parse: unsigned(65535), help: "Port to listen on; 0 picks a free one (the URL printed at start tells which)" },
  ],
);

/** Where pages listen for changes. */
export const EVENTS_PATH = "/__playground/events";

/** Where the mock is served (its paths follow). */
export const MOCK_PATH = "/mock";

/** At most this many pages listen at once; more are refused (503), each one holds a connection. */
export const MAX_EVENT_CLIENTS = 64;

/** How often the description's files are looked at. */
export const POLL_INTERVAL_MS = 300;

/** A change is read once the files have kept still this long (an editor's several writes make one version). */
export const SETTLE_TIME_MS = 200;

/** Files that keep changing are read anyway after this long. */
export const MAX_SETTLE_TIME_MS = 3000;

/** How often an event stream gets a comment, so that nothing between closes it as idle (axum's default). */
const KEEP_ALIVE_MS = 15000;

/**
 * The script added to the served page (never to a built site): reloads the page on `reload`,
 * shows a banner on `error` (the native one's, character for character).
 */
export const LIVE_RELOAD_SCRIPT = String.raw`<script data-playground-serve>(()=>{const s=new EventSource("/__playground/events");s.addEventListener("reload",()=>location.reload());s.addEventListener("error",e=>{if(typeof e.data!=="string")return;let b=document.getElementById("playground-serve-error");if(!b){b=document.createElement("div");b.id="playground-serve-error";b.setAttribute("role","alert");b.setAttribute("data-testid","playground-serve-error");b.style.cssText="position:fixed;top:0;left:0;right:0;z-index:2147483647;margin:0;padding:.75em 3em .75em 1em;background:#8b0000;color:#fff;font:14px/1.45 system-ui,sans-serif;white-space:pre-wrap;overflow-wrap:anywhere;max-height:50vh;overflow:auto;box-shadow:0 2px 8px rgba(0,0,0,.5)";const m=document.createElement("span");const x=document.createElement("button");x.type="button";x.textContent="\u00d7";x.setAttribute("aria-label","Dismiss");x.style.cssText="position:absolute;top:.3em;right:.5em;background:none;border:0;color:inherit;font-size:1.5em;line-height:1;cursor:pointer";x.onclick=()=>b.remove();b.append(m,x);document.body.prepend(b)}b.firstChild.textContent="playground serve: the description has an error; the last good version is shown.\n"+e.data})})()</script>`;

/** The page with the live-reload script last in its `<body>`. */
export function withLiveReload(index) {
  const at = index.lastIndexOf("</body>");
  return at < 0 ? index + LIVE_RELOAD_SCRIPT : index.slice(0, at) + LIVE_RELOAD_SCRIPT + index.slice(at);
}

/** The content type of a site file, by its extension (the native server's list). */
export function contentType(name) {
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
  switch (extension) {
    case "html":
    case "htm":
      return "text/html; charset=utf-8";
    case "js":
    case "mjs":
      return "text/javascript; charset=utf-8";
    case "css":
      return "text/css; charset=utf-8";
    case "json":
    case "map":
      return "application/json";
    case "wasm":
      return "application/wasm";
    case "svg":
      return "image/svg+xml";
    case "png":
      return "image/png";
    case "jpg":
    case "jpeg":
      return "image/jpeg";
    case "gif":
      return "image/gif";
    case "webp":
      return "image/webp";
    case "ico":
      return "image/x-icon";
    case "woff2":
      return "font/woff2";
    case "woff":
      return "font/woff";
    case "md":
      return "text/markdown; charset=utf-8";
    case "txt":
      return "text/plain; charset=utf-8";
    case "yaml":
    case "yml":
      return "application/yaml";
    default:
      return "application/octet-stream";
  }
}

/**
 * Makes a version of the site and its mock, and says so (the warnings, then what is served).
 * `missing` collects the files the description names that do not exist. Throws a `Failure`.
 */
function makeVersion({ module, ApiMock }, source, missing) {
  const site = makeSite(module, source, fileReader(missing));
  let mock;
  try {
    mock = new ApiMock(site.document);
  } catch (error) {
    const problem = messageOf(error).replace(/^ApiMock cannot mock this description: /, "");
    throw new Failure(`cannot mock ${source.spec}: ${problem}`);
  }
  let index = "";
  const files = new Map();
  for (const file of site.files) {
    if (file.name === "index.html") index = withLiveReload(new TextDecoder().decode(file.bytes));
    else files.set(file.name, Buffer.from(file.bytes));
  }
  for (const image of site.images) files.set(image.name, readImage(image.from));
  printWarnings(site.warnings, say);
  say(
    `site of ${source.spec} (${site.title}, ${operationsText(site.operations)}); mock of ${mock.api} at ${MOCK_PATH}/ (${mock.resources().length} stored resources)`,
  );
  return { version: { index, files, copy: new Set(site.copy), read: [...site.read] }, mock };
}

/** What a file looks like: its modification time and size, or null when it cannot be looked at. */
function stamp(file) {
  try {
    const stats = statSync(file, { bigint: true });
    return `${stats.mtimeNs}/${stats.size}`;
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `serve` with its parsed flags until Ctrl-C or SIGTERM; gives the exit code. */
export async function serve(args) {
  const modules = { module: await loadSiteModule(), ApiMock: await loadApiMock() };
  const source = { spec: args.spec, config: args.config, app: appFolder(args.app), servedMock: MOCK_PATH };
  let made;
  try {
    made = makeVersion(modules, source, new Set());
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    say(error.message);
    return 1;
  }
  const state = new Served(source.app, made.version, made.mock, modules.module);
  const signal = stopSignals();
  let listening;
  try {
    listening = await listen((request, response) => state.handle(request, response), args.host, args.port);
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    say(error.message);
    return 1;
  }
  // stdout is the one line a script or test reads to find the port.
  process.stdout.write(`${PROGRAM} serving http://${listening.address}/\n`);
  say(`the mock answers at http://${listening.address}${MOCK_PATH}/ (the page's try-it sends there); Ctrl-C stops`);
  const watching = state.watch(modules, source);
  await stopOn(signal, listening.server, () => state.stop());
  await watching;
  return 0;
}

/** What `serve` serves, and the pages listening for changes. */
class Served {
  constructor(app, version, mock, siteModule) {
    this.app = app;
    this.siteModule = siteModule;
    this.version = version;
    this.mock = mock;
    /** The error of the last reading, while the last good version is served (told to pages that connect meanwhile). */
    this.error = null;
    this.listeners = new Set();
    this.stopped = false;
    this.keepAlive = setInterval(() => this.send(":\n\n"), KEEP_ALIVE_MS);
  }

  /** Ends the event streams and the watching. */
  stop() {
    this.stopped = true;
    clearInterval(this.keepAlive);
    for (const listener of this.listeners) listener.end();
  }

  /** Writes `text` to every listening page. */
  send(text) {
    for (const listener of this.listeners) listener.write(text);
  }

  /** Answers one request: the events, the mock under /mock, or a file of the site. */
  async handle(request, response) {
    try {
      const [path, query] = splitTarget(request.url);
      if (path === EVENTS_PATH) return this.events(request, response);
      if (path === MOCK_PATH || path.startsWith(`${MOCK_PATH}/`)) {
        const target = (path.slice(MOCK_PATH.length) || "/") + query;
        return await answerWithMock(this.mock, request, response, target, underMock);
      }
      return await this.file(path, request.headers.accept, response);
    } catch (error) {
      say(`the request ${request.method} ${request.url} failed: ${messageOf(error)}`);
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      response.end();
    }
  }

  /** The Server-Sent Events stream pages listen to: `reload`, or `error` with the message. */
  events(request, response) {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET,HEAD" }).end();
      return;
    }
    if (this.listeners.size >= MAX_EVENT_CLIENTS) {
      response.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
      response.end("too many pages are listening for changes");
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    // Stopping: the stream ends at once, so the connection can close.
    if (this.stopped) return void response.end();
    response.flushHeaders();
    this.listeners.add(response);
    response.on("close", () => this.listeners.delete(response));
    if (this.error !== null) response.write(event("error", this.error));
  }

  /**
   * A file of the site: the page and what the build made from memory, the app's from its folder;
   * a client that asks for Markdown (`Accept: text/markdown`) gets a page's Markdown twin where the
   * site has one (the site module decides, as the native server does).
   */
  async file(path, accept, response) {
    const name = path.replace(/^\/+/, "");
    const version = this.version;
    const twin = this.siteModule.markdownTwin(name, accept);
    const markdown = twin === undefined ? undefined : version.files.get(twin);
    if (markdown !== undefined) return send(response, 200, markdown, contentType(twin), { vary: "accept" });
    if (name === "" || name === "index.html") {
      return send(response, 200, Buffer.from(version.index), "text/html; charset=utf-8", { vary: "accept" });
    }
    // Only plain names below the site's folder: no `..`, no hidden files, no empty segments.
    const segments = name.split("/");
    if (segments.some((segment) => segment === "" || segment.startsWith(".") || segment.includes("\\"))) {
      return notFound(response);
    }
    // The build's files include the Markdown pages in their folders (`operations/getPet.md`).
    const made = version.files.get(name);
    if (made !== undefined) return send(response, 200, made, contentType(name));
    if (!version.copy.has(segments[0])) return notFound(response);
    let bytes;
    try {
      bytes = await readFile(joinShown(this.app, name));
    } catch {
      return notFound(response);
    }
    return send(response, 200, bytes, contentType(segments.at(-1)));
  }

  /**
   * Polls the description's files (and playground.toml) and makes a new version when one
   * changed: swapped in and pages reloaded when it is good, pages told the error otherwise.
   */
  async watch(modules, source) {
    let files = this.version.read;
    let seen = files.map(stamp);
    while (!this.stopped) {
      await sleep(POLL_INTERVAL_MS);
      if (this.stopped) return;
      let now = files.map(stamp);
      if (same(now, seen)) continue;
      now = await settled(files, now);
      if (this.stopped) return;
      const previous = files;
      const missing = new Set();
      try {
        const made = makeVersion(modules, source, missing);
        files = made.version.read;
        this.version = made.version;
        this.mock = made.mock;
        this.error = null;
        say("reloaded; the mock starts again with an empty state");
        this.send(event("reload", "reload"));
      } catch (error) {
        // A file the description now names but that is missing is watched too, so that creating
        // it brings the site back.
        files = [...files, ...[...missing].filter((file) => !files.includes(file))];
        const message = messageOf(error);
        say(message);
        say("still serving the last good version");
        this.error = message;
        this.send(event("error", message));
      }
      // A file watched before keeps the look it had before this reading, so that an edit made
      // while it was read is seen at the next tick; a file new to the list is taken as it is.
      const before = new Map(previous.map((file, i) => [file, now[i]]));
      seen = files.map((file) => (before.has(file) ? before.get(file) : stamp(file)));
    }
  }
}

/** The files' looks once they have not changed for SETTLE_TIME_MS (or after MAX_SETTLE_TIME_MS). */
async function settled(files, now) {
  const started = Date.now();
  while (Date.now() - started < MAX_SETTLE_TIME_MS) {
    await sleep(SETTLE_TIME_MS);
    const later = files.map(stamp);
    if (same(later, now)) break;
    now = later;
  }
  return now;
}

function same(a, b) {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** An event as the native server writes it; a message's lines are `data:` lines of their own. */
function event(name, data) {
  const lines = data.replace(/\r\n?/g, "\n").split("\n");
  return `event: ${name}\n${lines.map((line) => `data: ${line}\n`).join("")}\n`;
}

/** The path (percent-encoded, as sent) and the query (with its `?`, or empty) of a request's target. */
function splitTarget(url) {
  let target = url;
  // An absolute-form target (`GET http://host/path`) is read as its path.
  if (!target.startsWith("/")) {
    try {
      const parsed = new URL(target);
      target = parsed.pathname + parsed.search;
    } catch {
      target = "/";
    }
  }
  const at = target.indexOf("?");
  return at < 0 ? [target, ""] : [target.slice(0, at), target.slice(at)];
}

/** The mock's `Location` (`/notes/7` for a created note) made an address under /mock, where it is served. */
function underMock(headers) {
  return headers.map(([name, value]) =>
    name.toLowerCase() === "location" && value.startsWith("/") && !value.startsWith("//") ? [name, `${MOCK_PATH}${value}`] : [name, value],
  );
}

function send(response, status, bytes, type, headers = {}) {
  // Every file may change with the description (and the app with a new build).
  response.writeHead(status, { "content-type": type, "cache-control": "no-cache", ...headers });
  response.end(bytes);
}

function notFound(response) {
  response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
  response.end("not found");
}
