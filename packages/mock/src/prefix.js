// Which URLs a handler under a prefix answers, and the path the mock then sees: the rule of the
// module's installFetch (crates/web/src/intercept.rs), for the MSW and Playwright helpers.

/**
 * `(url) => target | null` for `prefix`: a path (`"/api"`: that path on any origin, or on
 * `origin` when one is given) or an absolute http(s) URL. `/api` takes `/api`, `/api/pets` and
 * `/api?x=1` (the mock sees `/`, `/pets`, `/?x=1`), not `/apiary`.
 */
export function prefixMatcher(prefix, origin) {
  if (typeof prefix !== "string") throw new TypeError("The prefix is a string: a path such as \"/api\" or an absolute URL.");
  const text = prefix.trim().replace(/\/+$/, "");
  const absolute = /^https?:\/\//i.test(text);
  if ((!absolute && !text.startsWith("/") && text !== "") || text.startsWith("//")) {
    throw new TypeError(
      `The prefix ${JSON.stringify(prefix)} is not usable: give a path starting with "/" (such as "/api") or an absolute http(s) URL.`,
    );
  }
  const base = absolute ? new URL(text).href.replace(/\/+$/, "") : text;
  return (url) => {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    let rest;
    if (absolute) {
      const href = parsed.href.split("#")[0];
      if (!href.startsWith(base)) return null;
      rest = href.slice(base.length);
    } else {
      if (origin && parsed.origin !== origin) return null;
      const path = parsed.pathname + parsed.search;
      if (!path.startsWith(base)) return null;
      rest = path.slice(base.length);
    }
    if (rest === "") return "/";
    if (rest.startsWith("/")) return rest;
    if (rest.startsWith("?")) return `/${rest}`;
    return null;
  };
}

/**
 * The mock's `Response` to a request given by its parts, whose mock path is `target`, or `null`
 * when the mock's options injected a network failure. `headers` is a `Headers` or `[name, value]`
 * pairs, `body` the bytes (ignored for GET and HEAD). The parts go to the mock as they are: no
 * `Request` is built and no body read twice. An aborted `signal` rejects with its reason.
 */
export async function answer(mock, { method, headers, body, signal }, target) {
  if (signal && signal.aborted) throw signal.reason;
  const sent = method !== "GET" && method !== "HEAD" && body && body.length ? body : undefined;
  // A Buffer is a Uint8Array already: the bytes go to the mock without another copy.
  const bytes = sent instanceof Uint8Array || sent === undefined ? sent : new Uint8Array(sent);
  try {
    return await mock.answer(method, target, headers instanceof Headers ? headerBlock(headers) : headers, bytes);
  } catch (error) {
    if (signal && signal.aborted) throw error;
    return null;
  }
}

/**
 * A `Headers`' header block, `name: value` lines: one string crosses into the mock rather than a
 * pair at a time (a `Headers` value holds no line break).
 */
function headerBlock(headers) {
  let block = "";
  for (const [name, value] of headers) block += `${name}: ${value}\r\n`;
  return block;
}

/** `answer`'s parts of a Fetch API `request` (its body read once; none read when it has none). */
export async function partsOf(request) {
  const { method, headers, signal } = request;
  const none = method === "GET" || method === "HEAD" || request.body === null;
  const body = none ? undefined : new Uint8Array(await request.arrayBuffer());
  return { method, headers, body, signal };
}
