// The site of a description, made by the site module (crates/modules/site: the native command
// line's own code, compiled to WebAssembly) from what this side reads: the description's files
// (through `readFile`), `playground.toml`, the app's `index.html` and the names in its folder.
// The module touches no file; `build` writes what it gives, `serve` serves it from memory.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { Failure, ioMessage, joinShown, messageOf } from "./common.js";

/** At most this many warnings are printed; the rest are counted (`MAX_WARNINGS` of crates/site). */
export const MAX_WARNINGS = 20;

/** The largest app page read (`MAX_INDEX_BYTES`). */
export const MAX_INDEX_BYTES = 1024 * 1024;

/** The largest logo or favicon copied (`config::MAX_IMAGE_BYTES`). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

/** The app the package ships (`pack.sh` puts the release build's `dist/` there). */
export const PACKAGED_APP = fileURLToPath(new URL("../app", import.meta.url));

/** What the native command line adds to a problem with the app's files. */
const APP_HINT = "; run `make build` first (or give the app's folder with --app)";

let siteModule;

/**
 * The site module (`wasm/playground_site.js`), compiled on first use: `--help`, `--version` and
 * `host` never load it.
 */
export async function loadSiteModule() {
  if (siteModule) return siteModule;
  const wasm = new URL("../wasm/playground_site_bg.wasm", import.meta.url);
  let module;
  try {
    module = await import(new URL("../wasm/playground_site.js", import.meta.url).href);
  } catch (error) {
    throw new Failure(`the site module cannot be loaded (${messageOf(error)}); this package is incomplete: reinstall it`);
  }
  module.initSync({ module: readFileSync(wasm) });
  siteModule = module;
  return module;
}

/**
 * `readFile(path, limit)` as the site module asks for files: the bytes, or an `Error` whose
 * message follows the file's name ("does not exist", ...), as the native command line words it.
 * `missing`, when given, collects the paths that do not exist (`serve` watches them, so that
 * creating one brings the site back).
 */
export function fileReader(missing) {
  return (path, limit) => {
    let stats;
    try {
      stats = statSync(path);
    } catch (error) {
      if (error.code === "ENOENT") {
        missing?.add(path);
        throw new Error("does not exist");
      }
      throw new Error(`cannot be read: ${ioMessage(error)}`);
    }
    if (stats.isDirectory()) throw new Error("is a folder, not a file");
    if (stats.size > limit) throw new Error(`is ${stats.size} bytes; the limit is ${limit}`);
    try {
      return new Uint8Array(readFileSync(path));
    } catch (error) {
      throw new Error(`cannot be read: ${ioMessage(error)}`);
    }
  };
}

/** The app's folder, as given (`--app DIR`) or the package's own. */
export function appFolder(given) {
  return given ?? PACKAGED_APP;
}

/** A failure about the app's files, with the native command line's hint. */
function appFailure(path, problem) {
  return new Failure(`${path}: ${problem}${APP_HINT}`);
}

/**
 * The app's page and the names at its top (sorted), checked as the native command line checks
 * them: the folder exists and has an `index.html` of at most 1 MiB, in UTF-8.
 */
export function readApp(app) {
  if (!isDirectory(app)) throw appFailure(app, "the app's folder does not exist");
  const indexPath = joinShown(app, "index.html");
  if (!isFile(indexPath)) throw appFailure(app, "the app's folder has no index.html");
  let size;
  try {
    size = statSync(indexPath).size;
  } catch (error) {
    throw appFailure(indexPath, ioMessage(error));
  }
  if (size > MAX_INDEX_BYTES) throw appFailure(indexPath, `it is ${size} bytes; the limit is ${MAX_INDEX_BYTES}`);
  let index;
  try {
    index = new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(indexPath));
  } catch (error) {
    throw appFailure(indexPath, error.code ? ioMessage(error) : "stream did not contain valid UTF-8");
  }
  let names;
  try {
    names = readdirSync(app).sort();
  } catch (error) {
    throw appFailure(app, ioMessage(error));
  }
  return { index, names };
}

/**
 * The site of `source` (`{spec, config, app, servedMock, previous}`, the paths as the user gave
 * them; `previous`: the earlier versions' descriptions of `build --previous`, newest first), made
 * in memory by the site module: `{title, operations, warnings, files, copy, mounts, images, read,
 * document}` (`mounts`: the folders, such as `v/1.0/`, that get a copy of the app's entries `copy`
 * as well as the top). Throws a `Failure` naming the file at fault.
 */
export function makeSite(module, source, readFile = fileReader()) {
  const { index, names } = readApp(source.app);
  const options = {
    // The paths as the user named them, for messages; the description's also absolute.
    spec: source.spec,
    specRoot: resolve(source.spec),
    config: source.config ?? null,
    index,
    indexPath: joinShown(source.app, "index.html"),
    appNames: names,
    servedMock: source.servedMock ?? null,
    cwd: process.cwd(),
    // As named: the module takes relative ones from `cwd`, as the native command line does.
    previous: source.previous ?? [],
  };
  try {
    return module.buildSite(options, readFile);
  } catch (error) {
    throw new Failure(messageOf(error));
  }
}

/** Prints the warnings of a site, at most `MAX_WARNINGS` of them, with `say`. */
export function printWarnings(warnings, say) {
  for (const warning of warnings.slice(0, MAX_WARNINGS)) say(`warning: ${warning}`);
  if (warnings.length > MAX_WARNINGS) say(`warning: and ${warnings.length - MAX_WARNINGS} more`);
}

/** `N operation` or `N operations`. */
export function operationsText(count) {
  return `${count} operation${count === 1 ? "" : "s"}`;
}

/**
 * Copies the app's entries `names` (folders with everything in them, links followed) from `app`
 * into the folder `dir`.
 */
export function copyApp(app, names, dir) {
  for (const name of names) copyEntry(joinShown(app, name), joinShown(dir, name));
}

function copyEntry(from, to) {
  if (isDirectory(from)) {
    try {
      mkdirSync(to);
    } catch (error) {
      throw appFailure(to, ioMessage(error));
    }
    let entries;
    try {
      entries = readdirSync(from);
    } catch (error) {
      throw appFailure(from, ioMessage(error));
    }
    for (const entry of entries) copyEntry(joinShown(from, entry), joinShown(to, entry));
    return;
  }
  try {
    copyFileSync(from, to);
  } catch (error) {
    throw appFailure(from, ioMessage(error));
  }
}

/**
 * Checks a logo or favicon of the configuration: at most `MAX_IMAGE_BYTES` (it may have changed
 * since the site module read it). Throws a `Failure` naming it.
 */
function checkImage(from) {
  let size;
  try {
    size = statSync(from).size;
  } catch (error) {
    throw new Failure(`${from}: ${ioMessage(error)}`);
  }
  if (size > MAX_IMAGE_BYTES) throw new Failure(`${from}: it is ${size} bytes; the limit is ${MAX_IMAGE_BYTES}`);
}

/** Copies a logo or favicon to `to` (`build`). */
export function copyImage(from, to) {
  checkImage(from);
  try {
    copyFileSync(from, to);
  } catch (error) {
    throw new Failure(`${from}: ${ioMessage(error)}`);
  }
}

/** The bytes of a logo or favicon (`serve` holds them in memory). */
export function readImage(from) {
  checkImage(from);
  try {
    return readFileSync(from);
  } catch (error) {
    throw new Failure(`${from}: ${ioMessage(error)}`);
  }
}

/** Whether `path` is a folder (links followed; false when it cannot be looked at). */
export function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `path` is a file (links followed; false when it cannot be looked at). */
export function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
