// The package in browsers and bundled apps (Vite, webpack, Rollup, esbuild): the WebAssembly
// module is the asset `new URL("../wasm/mock_bg.wasm", import.meta.url)` names, which bundlers
// copy into the build; it is fetched and compiled by `ready()`, or by the first `open()`.
// Descriptions are read by fetch, relative to the page; the state is kept in localStorage.
import init from "../wasm/mock.js";
import { MAX_FILE_BYTES, defineMocks } from "./mocks.js";

let loading = null;
let loaded = false;

/** Loads the WebAssembly module (once); `new ApiMock(...)` works when it has resolved. */
export function ready() {
  loading ??= init({ module_or_path: new URL("../wasm/mock_bg.wasm", import.meta.url) }).then(
    () => {
      loaded = true;
    },
    (error) => {
      loading = null;
      throw new Error(`The mock's WebAssembly module could not be loaded: ${error.message}`, { cause: error });
    },
  );
  return loading;
}

/** There is no file system in a page. */
export function fileStorage() {
  throw new TypeError("fileStorage() is for Node; in a page the state is kept in localStorage (or give a storage).");
}

function pageOptions(options, name) {
  if (options && typeof options === "object" && options.file !== undefined) {
    throw new TypeError(`${name} options: file is for Node; in a page the state is kept in localStorage (storageKey).`);
  }
  return options;
}

/** The absolute URL of a description's address, relative to the page. */
function address(description) {
  const base = globalThis.document?.baseURI ?? globalThis.location?.href;
  try {
    return new URL(description, base).href;
  } catch {
    throw new TypeError(`${description} is not a URL.`);
  }
}

async function read(url) {
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new Error("could not be fetched (the network failed, or the server does not let this page read it)");
  }
  if (!response.ok) throw new Error(`could not be fetched: the server answered ${response.status} ${response.statusText}`.trimEnd());
  const length = Number(response.headers.get("content-length"));
  if (length > MAX_FILE_BYTES) throw new Error(`is ${length} bytes; a description is read up to ${MAX_FILE_BYTES}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_FILE_BYTES) throw new Error(`is ${bytes.length} bytes; a description is read up to ${MAX_FILE_BYTES}`);
  return { bytes };
}

export const { ApiMock, PetstoreMock } = defineMocks({
  loaded: () => loaded,
  load: ready,
  address,
  read,
  apiOptions: (options) => pageOptions(options, "ApiMock"),
  petstoreOptions: (options) => pageOptions(options, "PetstoreMock"),
});
