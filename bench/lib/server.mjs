// Static file servers for the benchmark: one origin per tool on 127.0.0.1 (so service workers,
// storage and caches never mix), files sent as they are on disk (no compression, no caching
// headers), and a way back from a URL to the file it served, to size the code a page loaded.
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".woff2": "font/woff2",
};

/**
 * Serves `routes` on 127.0.0.1 at a free port. `routes` maps a URL prefix ending in "/" to a
 * folder, or an exact URL path to a file; the longest match wins, and "/" maps to `index`.
 */
export async function serve(routes, { index = "index.html" } = {}) {
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length);
  const resolve = (pathname) => {
    let path = decodeURIComponent(pathname);
    if (path === "/") path = `/${index}`;
    for (const prefix of prefixes) {
      if (prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix) {
        if (!prefix.endsWith("/")) return routes[prefix];
        const root = routes[prefix];
        const file = normalize(join(root, path.slice(prefix.length)));
        return file.startsWith(normalize(root)) ? file : null;
      }
    }
    return null;
  };
  const server = createServer(async (req, res) => {
    const file = resolve(new URL(req.url, "http://x").pathname);
    const info = file && (await stat(file).catch(() => null));
    if (!info?.isFile()) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      "Content-Length": info.size,
      "Cache-Control": "no-store",
    });
    createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    url,
    /** The file behind a URL this server answers, or null. */
    fileFor(address) {
      const parsed = new URL(address);
      return parsed.origin === new URL(url).origin ? resolve(parsed.pathname) : null;
    },
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(ok); }),
  };
}
