// The package in Node: the WebAssembly module is read from beside this file and compiled when
// the package is imported, so `new ApiMock(description)` works at once. Descriptions are read
// from paths and file:, http: or https: URLs; the state is kept in memory, or in a file.
import { closeSync, fsyncSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
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

/** The first line of a state file in the log format; a file without it is one JSON value as
 * earlier versions wrote it. */
const MARKER = "playground-mock-store/1";
/** The same log format's first line as earlier versions wrote it: read as it is, and the file
 * rewritten under MARKER at the first write. */
const EARLIER_MARKER = "petstore-mock-store/1";

/**
 * A store for the `storage` option that keeps the state in one file, as a log: each
 * `setItem(key, value)` appends one line (`\n["key","value"]`) and syncs the file before it
 * returns, so a change costs what it wrote, whatever the size of the state; `removeItem` appends
 * `\n["key"]`. Lines start with their newline, so a line a crash cut short is followed by a
 * whole one and is skipped when the file is read. The file is read when the mock opens and
 * followed before each change (two mocks on one file, in one process or two, see each other's
 * writes); once it holds more than twice what its keys hold, it is rewritten: `FILE.tmp`
 * written and synced, renamed over `FILE`, the directory synced. A crash at any moment leaves
 * every synced write whole. A file of an earlier version (one JSON value) is read as the value
 * of the mock's key, and rewritten in the log format at the first write; a log an earlier
 * version began with its own first line is read as it is and rewritten under this version's.
 */
export function fileStorage(file) {
  const path = file instanceof URL ? fileURLToPath(file) : resolve(String(file));
  const shown = file instanceof URL ? file.href : String(file);
  const dir = dirname(path);
  // The file is created when missing; its directory is not.
  let directory = null;
  try {
    directory = statSync(dir);
  } catch {}
  if (!directory) {
    throw new Error(`${shown}: the directory ${dir} does not exist; the mock creates the state file, not its directory.`);
  }
  if (!directory.isDirectory()) throw new Error(`${shown}: ${dir} is not a directory.`);

  /** What the file holds, as read up to `offset` of the file `ino`. */
  let values = new Map();
  let live = 0;
  let ino = null;
  let offset = 0;
  /** The file is an earlier version's (one JSON value, or the log under EARLIER_MARKER): the
   * first write rewrites it. */
  let earlier = false;
  /** The file is one JSON value (earlier than the log format). */
  let whole = false;
  /** The first key asked for: the mock's own. A file holds one mock's state, whatever its key:
   * the mock's key is stored as "", the keys below it as the rest ("/log/ID"), so that a mock of
   * another description (another key) finds that state and refuses it rather than share the file. */
  let root = null;
  const nameOf = (key) => {
    if (root === null) root = key;
    if (key === root) return "";
    return key.startsWith(`${root}/`) ? key.slice(root.length) : `=${key}`;
  };

  const lineOf = (key, value) => "\n" + JSON.stringify(value === undefined ? [key] : [key, value]);
  const put = (key, value) => {
    const old = values.get(key);
    if (old !== undefined) live -= key.length + old.length + 8;
    if (value === undefined) values.delete(key);
    else {
      values.set(key, value);
      live += key.length + value.length + 8;
    }
  };
  /** Applies the lines of `text` (from a line's start); returns how many characters of it were
   * whole lines (a last line still being written, or cut short, waits). */
  const apply = (text) => {
    const lines = text.split("\n");
    let used = lines[0].length;
    for (let i = 1; i < lines.length; i++) {
      let op;
      try {
        op = JSON.parse(lines[i]);
      } catch {
        if (i === lines.length - 1) return used;
      }
      used += 1 + lines[i].length;
      if (Array.isArray(op) && typeof op[0] === "string" && (op.length === 1 || typeof op[1] === "string")) put(op[0], op[1]);
    }
    return used;
  };
  const readError = (error) => new Error(`${shown} cannot be read (${error.message})`);
  /** Takes in what the file holds now: only the new lines while it is the same file. */
  const follow = () => {
    let now;
    try {
      now = statSync(path);
    } catch (error) {
      if (error.code !== "ENOENT") throw readError(error);
      values = new Map();
      live = 0;
      ino = null;
      offset = 0;
      earlier = false;
      whole = false;
      return;
    }
    if (now.size > MAX_STATE_BYTES) throw new Error(`${shown} holds ${now.size} bytes; a state file holds at most ${MAX_STATE_BYTES}`);
    if (now.ino === ino && now.size >= offset && !whole) {
      if (now.size === offset) return;
      const fd = openSync(path, "r");
      try {
        const buffer = Buffer.alloc(now.size - offset);
        readSync(fd, buffer, 0, buffer.length, offset);
        const text = buffer.toString("utf8");
        offset += Buffer.byteLength(text.slice(0, apply(text)));
      } catch (error) {
        throw readError(error);
      } finally {
        closeSync(fd);
      }
      return;
    }
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw readError(error);
    }
    values = new Map();
    live = 0;
    ino = now.ino;
    const log = text.startsWith(`${MARKER}\n`) || text === MARKER;
    const earlierLog = !log && (text.startsWith(`${EARLIER_MARKER}\n`) || text === EARLIER_MARKER);
    whole = !log && !earlierLog;
    earlier = !log;
    // An earlier version's file of one JSON value is the value of the mock's key.
    if (whole) put("", text);
    offset = whole ? now.size : Buffer.byteLength(text.slice(0, apply(text)));
  };
  /** `FILE.tmp` with every value, synced, renamed over `FILE`, the directory synced. */
  const rewrite = () => {
    const temporary = `${path}.tmp`;
    let fd;
    try {
      fd = openSync(temporary, "w");
      let chunk = MARKER;
      for (const [key, value] of values) {
        chunk += lineOf(key, value);
        if (chunk.length > 1 << 20) {
          writeSync(fd, chunk);
          chunk = "";
        }
      }
      writeSync(fd, chunk);
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
      renameSync(temporary, path);
      syncDirectory();
      const now = statSync(path);
      ino = now.ino;
      offset = now.size;
      earlier = false;
      whole = false;
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      try {
        unlinkSync(temporary);
      } catch {}
      throw error;
    }
  };
  const syncDirectory = () => {
    const directory = openSync(dir, "r");
    try {
      fsyncSync(directory);
    } finally {
      closeSync(directory);
    }
  };
  /** Appends one line; `sync`: synced before it returns. */
  const append = (key, value, sync) => {
    follow();
    if (ino === null || earlier) {
      // A new file, or an earlier version's: written whole, in the log format.
      put(key, value);
      rewrite();
      return;
    }
    const fd = openSync(path, "a");
    try {
      writeSync(fd, lineOf(key, value));
      if (sync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    follow();
    if (offset > 2 * live + (1 << 20)) rewrite();
  };

  return {
    name: shown,
    getItem(key) {
      const name = nameOf(String(key));
      follow();
      return values.get(name) ?? null;
    },
    setItem(key, value) {
      const name = nameOf(String(key));
      try {
        append(name, String(value), true);
      } catch (error) {
        throw new Error(`${shown} could not be written (${error.message})`);
      }
    },
    removeItem(key) {
      const name = nameOf(String(key));
      follow();
      if (!values.has(name)) return;
      try {
        // Not synced: a removal a crash loses only leaves a value nothing reads.
        append(name, undefined, false);
      } catch (error) {
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
