// The package in Node: the WebAssembly module is read from beside this file and compiled when
// the package is imported, so `new ApiMock(description)` works at once. Descriptions are read
// from paths and file:, http: or https: URLs; the state is kept in memory, or in a file.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { initSync } from "../wasm/mock.js";
import { MAX_FILE_BYTES, defineMocks } from "./mocks.js";

initSync({ module: readFileSync(new URL("../wasm/mock_bg.wasm", import.meta.url)) });

/** The most a state file may hold when it is read back. */
const MAX_STATE_BYTES = 512 * 1024 * 1024;

/** Resolves at once: in Node the module is ready when the package is imported. */
export function ready() {
  return Promise.resolve();
}

/**
 * A store for the `storage` option that keeps the state in one file: read when the mock
 * opens and before each change (so two mocks on one file follow each other), written before
 * each change is answered: `FILE.tmp` written and synced, renamed over `FILE`, the directory
 * synced. A crash at any moment leaves the last answered state whole.
 */
export function fileStorage(file) {
  const path = file instanceof URL ? fileURLToPath(file) : resolve(String(file));
  const shown = file instanceof URL ? file.href : String(file);
  const dir = dirname(path);
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {}
  if (!isDirectory) throw new Error(`${shown}: the directory ${dir} does not exist.`);
  return {
    name: shown,
    getItem() {
      let size;
      try {
        size = statSync(path).size;
      } catch (error) {
        if (error.code === "ENOENT") return null;
        throw new Error(`${shown} cannot be read (${error.message})`);
      }
      if (size > MAX_STATE_BYTES) throw new Error(`${shown} holds ${size} bytes; a state file holds at most ${MAX_STATE_BYTES}`);
      try {
        return readFileSync(path, "utf8");
      } catch (error) {
        throw new Error(`${shown} cannot be read (${error.message})`);
      }
    },
    setItem(_key, value) {
      const temporary = `${path}.tmp`;
      let fd;
      try {
        fd = openSync(temporary, "w");
        writeFileSync(fd, value);
        fsyncSync(fd);
        closeSync(fd);
        fd = undefined;
        renameSync(temporary, path);
        const directory = openSync(dir, "r");
        try {
          fsyncSync(directory);
        } finally {
          closeSync(directory);
        }
      } catch (error) {
        if (fd !== undefined) closeSync(fd);
        try {
          unlinkSync(temporary);
        } catch {}
        throw new Error(`${shown} could not be written (${error.message})`);
      }
    },
  };
}

/** The options in Node: memory unless `file` (or a `storage`) is given. */
function nodeOptions(options, name) {
  if (options === undefined || options === null) return { storageKey: null };
  if (typeof options !== "object") return options;
  const { file, ...rest } = options;
  if (file !== undefined && file !== null) {
    if (rest.storage) throw new TypeError(`${name} options: give file or storage, not both.`);
    if (typeof file !== "string" && !(file instanceof URL)) throw new TypeError(`${name} options: file is a path or a file: URL.`);
    return { ...rest, storage: fileStorage(file) };
  }
  if (rest.storage === undefined && rest.storageKey === undefined) return { ...rest, storageKey: null };
  return rest;
}

/** The absolute URL a path or an address names. */
function address(description) {
  if (description instanceof URL) return description.href;
  if (/^(https?|file):/i.test(description)) return new URL(description).href;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(description)) {
    throw new TypeError(`${description}: only paths and file:, http: and https: URLs are read.`);
  }
  return pathToFileURL(resolve(description)).href;
}

/** `{bytes}` of a file: or http(s) address, at most MAX_FILE_BYTES. */
async function read(url) {
  if (url.startsWith("file:")) {
    const path = fileURLToPath(url);
    let size;
    try {
      size = (await stat(path)).size;
    } catch (error) {
      throw new Error(readableFileError(error));
    }
    if (size > MAX_FILE_BYTES) throw new Error(`is ${size} bytes; a description file is read up to ${MAX_FILE_BYTES}`);
    try {
      return { bytes: new Uint8Array(await readFile(path)) };
    } catch (error) {
      throw new Error(readableFileError(error));
    }
  }
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new Error(`could not be fetched (${(error.cause && error.cause.message) || error.message})`);
  }
  if (!response.ok) throw new Error(`could not be fetched: the server answered ${response.status} ${response.statusText}`.trimEnd());
  return { bytes: await readLimited(response) };
}

function readableFileError(error) {
  if (error.code === "ENOENT") return "cannot be read: there is no such file";
  if (error.code === "EISDIR") return "cannot be read: it is a directory";
  if (error.code === "EACCES") return "cannot be read: permission denied";
  return `cannot be read (${error.message})`;
}

/** The body of `response`, refused past MAX_FILE_BYTES without reading further. */
async function readLimited(response) {
  const chunks = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_FILE_BYTES) {
      reader.cancel().catch(() => {});
      throw new Error(`is over ${MAX_FILE_BYTES} bytes; a description is read up to that`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

export const { ApiMock, PetstoreMock } = defineMocks({
  loaded: () => true,
  load: () => Promise.resolve(),
  address,
  read,
  apiOptions: (options) => nodeOptions(options, "ApiMock"),
  petstoreOptions: (options) => nodeOptions(options, "PetstoreMock"),
});
