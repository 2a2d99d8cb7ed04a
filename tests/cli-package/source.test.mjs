// The npm package's `playground` (packages/cli) keeps some of the native command line's
// constants as its own: this checks, in the repository, that each is still the Rust one (run by
// tests/cli-package/run.sh before the package is packed).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { MARKER } from "../../packages/cli/src/build.js";
import { DIFF, UNREADABLE } from "../../packages/cli/src/diff.js";
import { ALLOW_METHODS, DRAIN_LIMIT, DRAIN_TIME_MS, EXPOSE_HEADERS } from "../../packages/cli/src/http.js";
import {
  EVENTS_PATH,
  LIVE_RELOAD_SCRIPT,
  MAX_EVENT_CLIENTS,
  MAX_SETTLE_TIME_MS,
  MOCK_PATH,
  POLL_INTERVAL_MS,
  SETTLE_TIME_MS,
  contentType,
} from "../../packages/cli/src/serve.js";
import { MAX_IMAGE_BYTES, MAX_INDEX_BYTES, MAX_WARNINGS } from "../../packages/cli/src/site.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Every Rust source under crates/, as `[path, text]`. */
function rustSources() {
  const sources = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "target" && entry.name !== "tests") walk(path);
      else if (entry.isFile() && entry.name.endsWith(".rs")) sources.push([path, readFileSync(path, "utf8")]);
    }
  };
  walk(join(ROOT, "crates"));
  return sources;
}

const SOURCES = rustSources();

/**
 * The value of the Rust constant `name` (`const NAME: TYPE = VALUE;`, in the one file under
 * `under` that defines it): a string
 * (plain or raw), an integer product (`8 * 1024 * 1024`), or a `Duration` in milliseconds.
 */
function rust(name, under = "crates/") {
  const found = [];
  for (const [path, text] of SOURCES) {
    if (!path.includes(under)) continue;
    const match = new RegExp(`const ${name}: [^=]+= (r#".*?"#|".*?"|[^;]+);`, "s").exec(text);
    if (match) found.push([path, match[1].trim()]);
  }
  assert.equal(found.length, 1, `${name} is defined once under ${under} (found in ${found.map(([path]) => path).join(", ") || "none"})`);
  const value = found[0][1];
  if (value.startsWith('r#"')) return value.slice(3, -2);
  if (value.startsWith('"')) return JSON.parse(value);
  const duration = /^Duration::from_(millis|secs)\((\d+)\)$/.exec(value);
  if (duration) return Number(duration[2]) * (duration[1] === "secs" ? 1000 : 1);
  assert.match(value, /^[\d_]+( \* [\d_]+)*$/, `${name} = ${value} is a product of integers`);
  return value.split("*").reduce((product, factor) => product * Number(factor.trim().replaceAll("_", "")), 1);
}

test("the constants the package keeps are the native command line's", () => {
  const pairs = {
    LIVE_RELOAD_SCRIPT: [LIVE_RELOAD_SCRIPT, "LIVE_RELOAD_SCRIPT"],
    EVENTS_PATH: [EVENTS_PATH, "EVENTS_PATH"],
    MOCK_PATH: [MOCK_PATH, "MOCK_PATH"],
    MAX_EVENT_CLIENTS: [MAX_EVENT_CLIENTS, "MAX_EVENT_CLIENTS"],
    POLL_INTERVAL_MS: [POLL_INTERVAL_MS, "POLL_INTERVAL"],
    SETTLE_TIME_MS: [SETTLE_TIME_MS, "SETTLE_TIME"],
    MAX_SETTLE_TIME_MS: [MAX_SETTLE_TIME_MS, "MAX_SETTLE_TIME"],
    MAX_WARNINGS: [MAX_WARNINGS, "MAX_WARNINGS"],
    MAX_INDEX_BYTES: [MAX_INDEX_BYTES, "MAX_INDEX_BYTES"],
    MAX_IMAGE_BYTES: [MAX_IMAGE_BYTES, "MAX_IMAGE_BYTES"],
    MARKER: [MARKER, "MARKER"],
    ALLOW_METHODS: [ALLOW_METHODS, "ALLOW_METHODS"],
    EXPOSE_HEADERS: [EXPOSE_HEADERS, "EXPOSE_HEADERS"],
    DRAIN_LIMIT: [DRAIN_LIMIT, "DRAIN_LIMIT"],
    // crates/host has a DRAIN_TIME of its own.
    DRAIN_TIME_MS: [DRAIN_TIME_MS, "DRAIN_TIME", "crates/server/"],
    UNREADABLE: [UNREADABLE, "UNREADABLE", "crates/cli/src/diff.rs"],
  };
  for (const [js, [value, name, under]] of Object.entries(pairs)) {
    assert.equal(value, rust(name, under), `${js} is the Rust ${name}`);
  }
});

test("site files get the native server's content types", () => {
  const serve = readFileSync(join(ROOT, "crates/cli/src/serve.rs"), "utf8");
  const body = /fn content_type\(.*?\n\}/s.exec(serve)?.[0];
  assert.ok(body, "crates/cli/src/serve.rs has fn content_type");
  const arms = [...body.matchAll(/Some\(([^)]*)\) => "([^"]*)"/g)];
  assert.ok(arms.length > 10, "the arms of content_type are read");
  for (const [, extensions, type] of arms) {
    for (const extension of extensions.match(/"[^"]*"/g).map((quoted) => JSON.parse(quoted))) {
      assert.equal(contentType(`file.${extension}`), type, `.${extension}`);
      assert.equal(contentType(`FILE.${extension.toUpperCase()}`), type, `.${extension.toUpperCase()}`);
    }
  }
  assert.equal(contentType("LICENSE"), "application/octet-stream");
});

test("diff's --format and --fail-on take the native command line's values", () => {
  const source = readFileSync(join(ROOT, "crates/cli/src/diff.rs"), "utf8");
  // clap's value_enum: each variant of the enum, in kebab-case, in order.
  const variants = (name) => {
    const body = new RegExp(`pub enum ${name} \\{(.*?)\\n\\}`, "s").exec(source)?.[1];
    assert.ok(body, `crates/cli/src/diff.rs has enum ${name}`);
    return [...body.matchAll(/^\s+([A-Z][A-Za-z]*),$/gm)].map(([, variant]) =>
      variant.replace(/(?<!^)([A-Z])/g, "-$1").toLowerCase(),
    );
  };
  assert.deepEqual(DIFF.option("format").possible, variants("Format"));
  assert.deepEqual(DIFF.option("fail-on").possible, variants("FailOn"));
  assert.equal(DIFF.option("format").default, "text");
});
