// What the Node and the browser entries share: ApiMock and PetstoreMock (the WebAssembly
// module's classes, with `open`), and reading a description given as an address, text, bytes
// or an object, bundled when it is kept in many files. Each entry hands in its `platform`: how
// the module is loaded, how an address is read, what the options mean there.
import {
  ApiMock as WasmApiMock,
  PetstoreMock as WasmPetstoreMock,
  DocumentBundle,
} from "../wasm/mock.js";

/** The largest description file read (the mock reads 64 MiB of JSON at most). */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The classes for one platform. `platform`:
 * - `loaded()`: whether the WebAssembly module is ready; `load()`: a promise of it;
 * - `address(text)`: the absolute address a string or `URL` names (a path in Node);
 * - `read(address)`: a promise of `{bytes}` (a `Uint8Array`), rejecting with the reason;
 * - `apiOptions(options)`, `petstoreOptions(options)`: the options the module takes.
 */
export function defineMocks(platform) {
  const notLoaded = (name) =>
    new Error(
      `${name}: the WebAssembly module is not loaded yet. Use \`await ${name}.open(...)\`, or \`await ready()\` before \`new ${name}(...)\`.`,
    );

  class ApiMock extends WasmApiMock {
    constructor(description, options) {
      if (!platform.loaded()) throw notLoaded("ApiMock");
      super(description, platform.apiOptions(options));
    }

    /** Reads `description` (an address, text, bytes or an object) and opens its mock. */
    static async open(description, options) {
      await platform.load();
      const { document, name } = await readDescription(description, platform);
      try {
        return new this(document, options);
      } catch (error) {
        throw named(name, error);
      }
    }
  }

  class PetstoreMock extends WasmPetstoreMock {
    constructor(options) {
      if (!platform.loaded()) throw notLoaded("PetstoreMock");
      super(platform.petstoreOptions(options));
    }

    /** Opens the Petstore's mock once the module is loaded. */
    static async open(options) {
      await platform.load();
      return new this(options);
    }
  }

  return { ApiMock, PetstoreMock };
}

/** The error `error` with `name` (the file or URL) in front of its message, of the same kind. */
function named(name, error) {
  if (!name || !(error instanceof Error)) return error;
  const Kind = error instanceof TypeError ? TypeError : Error;
  return new Kind(`${name}: ${error.message}`, { cause: error });
}

/**
 * `{document, name}`: the description as the module takes it (an object, or JSON text or
 * bytes) and the name to put in front of errors (the address, none for text or an object).
 */
export async function readDescription(description, platform) {
  if (description instanceof URL || (typeof description === "string" && !looksLikeText(description))) {
    const address = platform.address(description);
    const name = description instanceof URL ? description.href : description;
    const { bytes } = await platform.read(address).catch((error) => {
      throw named(name, error);
    });
    const root = await toJson(bytes).catch((error) => {
      throw named(name, error);
    });
    return { document: await bundle(address, name, root, platform), name };
  }
  if (typeof description === "string") {
    const bytes = new TextEncoder().encode(description);
    return { document: await toJson(bytes), name: "" };
  }
  if (description instanceof Uint8Array) return { document: await toJson(description), name: "" };
  if (description !== null && typeof description === "object") return { document: description, name: "" };
  throw new TypeError(
    "ApiMock.open(description): give a path or URL, the description's JSON or YAML text, its bytes, or the object.",
  );
}

/** Text rather than an address: JSON, or YAML of more than one line that starts a description. */
function looksLikeText(text) {
  const start = text.trimStart();
  return start.startsWith("{") || (text.includes("\n") && /^\s*["']?(openapi|swagger)["']?\s*:/m.test(text));
}

/** JSON bytes of `bytes`, read as YAML when they are not JSON. */
async function toJson(bytes) {
  const first = bytes.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0xef && b !== 0xbb && b !== 0xbf);
  if (first === 0x7b || first === 0x5b) return bytes;
  const { load, CORE_SCHEMA } = await import("../vendor/js-yaml.mjs");
  let value;
  try {
    value = load(new TextDecoder().decode(bytes), { schema: CORE_SCHEMA });
  } catch (error) {
    const mark = error && error.mark;
    const where = mark ? ` (line ${mark.line + 1}, column ${mark.column + 1})` : "";
    throw new Error(`is neither JSON nor YAML: ${(error && error.reason) || error}${where}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error("is not a description: its top level is not an object (JSON or YAML)");
  }
  return new TextEncoder().encode(JSON.stringify(value));
}

/**
 * The one document of a description whose root (`root`, JSON bytes) is at `address`: the files
 * its references name are read (8 at a time) and bundled by the module's `DocumentBundle`.
 * Rejects with every reference that could not be followed.
 */
async function bundle(address, name, root, platform) {
  let documentBundle;
  try {
    documentBundle = new DocumentBundle(address, root);
  } catch (error) {
    throw named(name, error);
  }
  const one = async (url) => {
    let bytes;
    try {
      ({ bytes } = await platform.read(url));
    } catch (error) {
      return documentBundle.provide(url, undefined, error.message, 0);
    }
    try {
      documentBundle.provide(url, await toJson(bytes), undefined, bytes.length);
    } catch (error) {
      documentBundle.provide(url, undefined, error.message, bytes.length);
    }
  };
  for (;;) {
    const wanted = documentBundle.wanted();
    if (!wanted.length) break;
    let next = 0;
    const worker = async () => {
      while (next < wanted.length) await one(wanted[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(8, wanted.length) }, worker));
  }
  const { json, problems } = documentBundle.finish();
  documentBundle.free();
  if (problems.length) {
    const count = problems.length === 1 ? "a reference" : `${problems.length} references`;
    throw new Error(`${name}: ${count} could not be followed:\n${problems.map((p) => `- ${p}`).join("\n")}`);
  }
  return json;
}
