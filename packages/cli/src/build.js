// `playground build`: the site of a description written to --out, with the native command
// line's safety (crates/cli/src/site.rs): every check first; --out refused unless it is missing,
// empty or a site built before (it holds `.playground-site`); the site written into a staging
// folder beside --out and renamed into place, the previous site moved aside and put back if the
// rename fails; nothing left behind when anything fails. With earlier versions (--previous, or
// `[[versions]]` in playground.toml) each is under `v/NAME/`, with its own copy of the app.
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";

import { Command } from "./args.js";
import { Failure, ioMessage, joinShown, say } from "./common.js";
import {
  appFolder,
  copyApp,
  copyImage,
  isFile,
  loadSiteModule,
  makeSite,
  operationsText,
  printWarnings,
} from "./site.js";

/** The file that marks a folder as a site this tool built, which a later build may replace. */
export const MARKER = ".playground-site";

/** The flags `build` and `serve` share: what a site is made of. */
export const SITE_OPTIONS = [
  { name: "spec", value: "FILE", required: true, help: "The API description (OpenAPI 3.0 to 3.2 or Swagger 2.0; JSON or YAML)" },
  { name: "config", value: "FILE", help: "The site's settings (title, logo, accent, favicon, links, try_it, mock)" },
  { name: "app", value: "DIR", help: "The app's files (default: the app this package ships)" },
];

export const BUILD = new Command("build", "Write a static site of a description's reference, with its in-browser mock.", [
  ...SITE_OPTIONS,
  { name: "out", value: "DIR", default: "site", help: "The folder to write the site to; a site built there before is replaced" },
  {
    name: "previous",
    value: "FILE",
    multiple: true,
    help:
      "An earlier version's description, published under v/VERSION/ with a version switcher and a Changes page per version; repeat it, newest first (or list them in playground.toml's [[versions]])",
  },
]);

/** Runs `build` with its parsed flags; gives the exit code. */
export async function build(args) {
  const module = await loadSiteModule();
  const source = {
    spec: args.spec,
    config: args.config,
    app: appFolder(args.app),
    servedMock: null,
    previous: args.previous,
  };
  try {
    const site = makeSite(module, source);
    writeSite(site, source.app, args.out);
    printWarnings(site.warnings, say);
    say(`wrote ${args.out} (${site.title}, ${operationsText(site.operations)})`);
    return 0;
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    say(error.message);
    return 1;
  }
}

/** Writes `site` into `out` through a staging folder beside it (see the top of this file). */
function writeSite(site, app, out) {
  const { parent, name } = splitOut(out);
  checkOut(out, name);
  try {
    mkdirSync(parent, { recursive: true });
  } catch (error) {
    throw new Failure(`${parent}: ${ioMessage(error)}`);
  }
  const staging = createStaging(parent, name);
  try {
    copyApp(app, site.copy, staging);
    // Each earlier version's page loads the app from its own folder (`v/1.0/`).
    for (const mount of site.mounts ?? []) {
      const folder = joinShown(staging, mount);
      try {
        mkdirSync(folder, { recursive: true });
      } catch (error) {
        throw new Failure(`${folder}: ${ioMessage(error)}`);
      }
      copyApp(app, site.copy, folder);
    }
    for (const file of site.files) {
      const path = joinShown(staging, file.name);
      try {
        // The Markdown pages are in folders of their own (`operations/getPet.md`).
        const slash = file.name.lastIndexOf("/");
        if (slash > 0) mkdirSync(joinShown(staging, file.name.slice(0, slash)), { recursive: true });
        writeFileSync(path, file.bytes);
      } catch (error) {
        throw new Failure(`${path}: ${ioMessage(error)}`);
      }
    }
    for (const image of site.images) copyImage(image.from, joinShown(staging, image.name));
    replace(staging, out);
  } finally {
    // Once renamed into place there is nothing left here to remove.
    if (exists(staging)) rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * `--out`'s folder and own name, as Rust's `Path::parent` and `file_name` give them: `site/`
 * is `site` in `.`, `a/b` is `b` in `a`; `.`, `..`, `a/..` and `/` have no name of their own.
 */
export function splitOut(out) {
  const absolute = out.startsWith("/");
  // Rust's components: empty parts and `.` go, but a leading `.`.
  const parts = out.split("/").filter((part, i) => part !== "" && (part !== "." || i === 0));
  const last = parts.at(-1);
  const name = last === undefined || last === "." || last === ".." ? null : last;
  const rest = (absolute ? "/" : "") + parts.slice(0, -1).join("/");
  return { parent: rest === "" ? "." : rest, name };
}

/** Refuses an --out that is a file, or a folder with files that no build of this tool wrote. */
function checkOut(out, name) {
  const refuse = (problem) => new Failure(`${out}: ${problem}`);
  if (name === null) throw refuse("--out must name a folder of its own (not `.`, `..` or a root)");
  let stats;
  try {
    stats = lstatSync(out);
  } catch {
    return;
  }
  if (!stats.isDirectory()) throw refuse("it exists and is not a folder; choose another --out");
  if (isFile(joinShown(out, MARKER))) return;
  let entries;
  try {
    entries = readdirSync(out);
  } catch (error) {
    throw new Failure(`${out}: ${ioMessage(error)}`);
  }
  if (entries.length) {
    throw refuse(
      `it is a folder with files, and not a site built by playground (it has no ${MARKER}); choose another --out, or empty it`,
    );
  }
}

/**
 * Creates `.NAME.building-PID-N` in `parent`: a plain folder, not a private temporary one, as
 * the site it becomes is read by web servers running as others.
 */
function createStaging(parent, name) {
  let last;
  for (let attempt = 0; attempt < 100; attempt++) {
    const path = joinShown(parent, `.${name}.building-${process.pid}-${attempt}`);
    try {
      mkdirSync(path);
      return path;
    } catch (error) {
      if (error.code !== "EEXIST") throw new Failure(`${path}: ${ioMessage(error)}`);
      last = error;
    }
  }
  throw new Failure(`${parent}: ${last ? ioMessage(last) : "no free name"}`);
}

/** Puts the site built at `staging` in place of `out` (a previous site or an empty folder). */
function replace(staging, out) {
  if (!exists(out)) {
    try {
      renameSync(staging, out);
    } catch (error) {
      throw new Failure(`${out}: ${ioMessage(error)}`);
    }
    return;
  }
  const old = `${staging}.old`;
  try {
    renameSync(out, old);
  } catch (error) {
    throw new Failure(`${out}: ${ioMessage(error)}`);
  }
  try {
    renameSync(staging, out);
  } catch (error) {
    // Put the previous site back rather than leave nothing.
    try {
      renameSync(old, out);
    } catch {}
    throw new Failure(`${out}: ${ioMessage(error)}`);
  }
  try {
    rmSync(old, { recursive: true });
  } catch (error) {
    throw new Failure(`${old}: ${ioMessage(error)}`);
  }
}

/** Whether anything is at `path` (a link not followed). */
function exists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
