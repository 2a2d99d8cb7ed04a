// The npm package's `playground` as its users run it: installed from its tarball into this
// project (tests/cli-package/run.sh makes it, with the fixtures beside this file), nothing of the
// repository reachable. Run by Node's test runner under each Node version, from the project.
// With PLAYGROUND_NATIVE=<the release tarball's program>, the same tests run that program
// instead (where the two differ, the test says so), and its site goes to sites/native.
//
// `build` runs through `npx` where npm runs (Node 20; the npm beside Node 18 is none), and the
// servers run the installed bin directly, so that the signal that stops them reaches them.
// The site `build` writes is kept in sites/node-MAJOR (run.sh copies it out, to compare with
// the native binary's), the versioned site of `build --previous` in versioned-sites/node-MAJOR
// (run.sh compares it with the native binary's too).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";

const PROJECT = process.cwd();
const PACKAGE = join(PROJECT, "node_modules", "petstore-playground");
const BIN = join(PACKAGE, "bin", "playground.mjs");
const VERSION = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).version;
const MAJOR = Number(process.versions.node.split(".")[0]);
/** The native program under test, instead of the package's. */
const NATIVE = process.env.PLAYGROUND_NATIVE || null;
/** npm 11 (beside Node 20) runs on Node 20 and later. */
const NPX = MAJOR >= 20 && !NATIVE;
const SITE = join("sites", NATIVE ? "native" : `node-${MAJOR}`);
const VERSIONED_SITE = join("versioned-sites", NATIVE ? "native" : `node-${MAJOR}`);
/** The command and arguments that run `playground ARGS`. */
const command = (args) => (NATIVE ? [NATIVE, args] : [process.execPath, [BIN, ...args]]);
const SPEC = join("fixtures", "shelf", "openapi.yaml");

/** Runs `playground ARGS` to its end (through npx when `npx`): `{status, stdout, stderr}`. */
function playground(args, { npx = false, cwd = PROJECT } = {}) {
  const [program, argv] = npx && NPX ? ["npx", ["--offline", "playground", ...args]] : command(args);
  const result = spawnSync(program, argv, { cwd, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh folder `work/NAME` of the project, with a copy of the fixtures. */
function workFolder(name) {
  const dir = join(PROJECT, "work", `${name}-node-${MAJOR}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(PROJECT, "fixtures"), join(dir, "fixtures"), { recursive: true });
  return dir;
}

/** Every file under `dir`, as paths relative to it. */
function files(dir) {
  const found = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(dir, path));
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * A server started as `playground ARGS`, its first stdout line read: `{child, line, stderr(),
 * stop(signal)}`; `stop` resolves with the exit code.
 */
async function start(args, cwd = PROJECT) {
  const [program, argv] = command(args);
  const child = spawn(program, argv, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
  const lines = createInterface({ input: child.stdout });
  let timer;
  const line = await Promise.race([
    new Promise((resolve) => lines.once("line", resolve)),
    exited.then((code) => {
      throw new Error(`playground ${args.join(" ")} exited (${code}) before its first line: ${stderr}`);
    }),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no first line in 30 s: ${stderr}`)), 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
  return {
    child,
    line,
    stderr: () => stderr,
    stop: (signal = "SIGTERM") => {
      child.kill(signal);
      return exited;
    },
  };
}

/** Reads a Server-Sent Events stream: `next(name)` resolves with the data of the next event of that name. */
async function events(url) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const queue = [];
  // One read at a time: a read that lost the race against the clock still brings the next chunk.
  let reading = null;
  const next = async (name, timeout = 15_000) => {
    const deadline = Date.now() + timeout;
    for (;;) {
      const at = queue.findIndex((event) => event.name === name);
      if (at >= 0) return queue.splice(0, at + 1).at(-1).data;
      if (Date.now() > deadline) throw new Error(`no ${name} event in ${timeout} ms (had ${JSON.stringify(queue)})`);
      reading ??= reader.read();
      const read = await Promise.race([reading, new Promise((resolve) => setTimeout(() => resolve(null), 500))]);
      if (read === null) continue;
      reading = null;
      if (read.done) throw new Error("the event stream ended");
      buffer += decoder.decode(read.value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = { name: "message", data: [] };
        for (const field of block.split("\n")) {
          if (field.startsWith("event: ")) event.name = field.slice(7);
          else if (field.startsWith("data: ")) event.data.push(field.slice(6));
        }
        if (event.data.length) queue.push({ name: event.name, data: event.data.join("\n") });
      }
    }
  };
  return { next, close: () => controller.abort() };
}

/** Writes `path` with `edit(text)` of its text, with a later modification time. */
function edit(path, change) {
  writeFileSync(path, change(readFileSync(path, "utf8")));
}

const json = (body) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

test("--version and --help", () => {
  const version = playground(["--version"], { npx: true });
  assert.equal(version.status, 0, version.stderr);
  if (NATIVE) {
    // The native program names its commit, and carries the app.
    assert.match(version.stdout, new RegExp(`^playground ${VERSION} \\(commit [0-9a-f]{7,}(-dirty)?, app embedded\\)\n$`));
  } else {
    assert.equal(version.stdout, `playground ${VERSION}\n`);
  }
  const help = playground(["build", "--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: playground build \[OPTIONS\] --spec <FILE>/);
});

test("host needs the native binary", { skip: NATIVE && "the native program has host" }, () => {
  const host = playground(["host", "--config", "host.toml"], { npx: true });
  assert.equal(host.status, 2);
  assert.match(host.stderr, /^playground host needs the native binary: /);
  assert.ok(host.stderr.includes(`playground-${VERSION}-x86_64-unknown-linux-musl.tar.gz`), host.stderr);
  assert.ok(host.stderr.includes("cargo install --profile native --path crates/cli --features embed-app"), host.stderr);
});

test("build writes the site of a description kept in several files", () => {
  rmSync(SITE, { recursive: true, force: true });
  const built = playground(["build", "--spec", SPEC, "--out", SITE], { npx: true });
  assert.equal(built.status, 0, built.stderr);
  assert.match(built.stderr, new RegExp(`^playground: wrote ${SITE} \\(Bookshelf, 3 operations\\)$`, "m"));

  const index = readFileSync(join(SITE, "index.html"), "utf8");
  assert.ok(index.includes("<title>Bookshelf</title>"), "the page has the description's title");
  for (const summary of ["List the books", "Add a book", "Read a book"]) {
    assert.ok(index.includes(summary), `the first paint is pre-rendered: ${summary}`);
  }
  assert.ok(!index.includes("data-playground-serve"), "no live-reload script in a built site");

  const document = JSON.parse(readFileSync(join(SITE, "openapi.json"), "utf8"));
  assert.equal(document.info.title, "Bookshelf");
  assert.equal(document.paths["/books"].post.operationId, "createBook");
  assert.equal(document.paths["/books/{bookId}"].get.operationId, "getBook");
  assert.ok(!JSON.stringify(document).includes(".yaml"), "the other files' parts are in the one document");

  // The app's files, as the package ships them, and the marker.
  const app = join(PACKAGE, "app");
  for (const file of files(app).filter((name) => name !== "index.html")) {
    assert.deepEqual(readFileSync(join(SITE, file)), readFileSync(join(app, file)), `${file} is copied`);
  }
  assert.ok(statSync(join(SITE, ".playground-site")).isFile(), "the marker is there");
  const extra = files(SITE).filter((name) => !existsSync(join(app, name)));
  const markdown = (name) => /\.md$|^llms(-full)?\.txt$/.test(name);
  assert.deepEqual(extra.filter((name) => !markdown(name)), [".playground-site", "openapi.json"]);
  // The Markdown pages, in their folders (the site module makes them, Node writes them).
  for (const page of ["llms.txt", "llms-full.txt", "index.md", "operations/createBook.md", "schemas/index.md"]) {
    assert.ok(extra.includes(page), `${page} is in the site: ${extra}`);
  }
  assert.match(readFileSync(join(SITE, "llms.txt"), "utf8"), /^# Bookshelf\n/);
  assert.deepEqual(readdirSync("sites").filter((name) => name.startsWith(".")), [], "no staging folder is left");

  // A site built before is replaced.
  const again = playground(["build", "--spec", SPEC, "--out", SITE]);
  assert.equal(again.status, 0, again.stderr);
  console.log(`# the site: ${join(PROJECT, SITE)}`);
});

test("bad input is refused, naming the file", () => {
  const dir = workFolder("refused");
  const missing = playground(["build", "--spec", "missing.yaml", "--out", "site"], { cwd: dir, npx: true });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^playground: missing\.yaml: does not exist$/m);
  assert.ok(!existsSync(join(dir, "site")), "--out is not created");

  mkdirSync(join(dir, "mine"));
  writeFileSync(join(dir, "mine", "thesis.txt"), "mine");
  const mine = playground(["build", "--spec", SPEC, "--out", "mine"], { cwd: dir });
  assert.equal(mine.status, 1);
  assert.match(mine.stderr, /^playground: mine: it is a folder with files, and not a site built by playground \(it has no \.playground-site\)/m);
  assert.deepEqual(readdirSync(join(dir, "mine")), ["thesis.txt"]);

  writeFileSync(join(dir, "file"), "x");
  const file = playground(["build", "--spec", SPEC, "--out", "file"], { cwd: dir });
  assert.equal(file.status, 1);
  assert.match(file.stderr, /^playground: file: it exists and is not a folder; choose another --out$/m);

  const broken = join(dir, "fixtures", "shelf", "components", "schemas.yaml");
  writeFileSync(broken, "Book: [\n");
  const reference = playground(["build", "--spec", SPEC, "--out", "site"], { cwd: dir });
  assert.equal(reference.status, 1);
  assert.ok(reference.stderr.includes("schemas.yaml"), reference.stderr);
  assert.deepEqual(readdirSync(dir).sort(), ["file", "fixtures", "mine"], "nothing is left beside --out");

  const usage = playground(["build"], { cwd: dir });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--spec <FILE>/);

  // Without --out, the site goes to ./site.
  writeFileSync(broken, readFileSync(join(PROJECT, "fixtures", "shelf", "components", "schemas.yaml")));
  const plain = playground(["build", "--spec", SPEC], { cwd: dir });
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stderr, /^playground: wrote site \(Bookshelf, 3 operations\)$/m);
  assert.ok(statSync(join(dir, "site", ".playground-site")).isFile());
});

/** The app's files a site copies (all but its page), as the package ships them. */
const appFiles = () => files(join(PACKAGE, "app")).filter((name) => name !== "index.html");

test("build --previous: each earlier version under v/NAME/ with its own app, a switcher, a Changes page", () => {
  const dir = workFolder("versions");
  // 0.9.0: the shelf without GET /books/{bookId}, and titles up to 300 characters (1.0.0 lowers
  // them to 200: breaking for the books sent).
  const older = join(dir, "fixtures", "shelf-0.9");
  cpSync(join(dir, "fixtures", "shelf"), older, { recursive: true });
  edit(join(older, "openapi.yaml"), (text) =>
    text.replace("version: 1.0.0", "version: 0.9.0").replace("  /books/{bookId}:\n    $ref: paths/books.yaml#/item\n", ""),
  );
  edit(join(older, "components", "schemas.yaml"), (text) => text.replaceAll("maxLength: 200", "maxLength: 300"));

  const olderSpec = join("fixtures", "shelf-0.9", "openapi.yaml");
  const built = playground(["build", "--spec", SPEC, "--previous", olderSpec, "--out", "site"], { cwd: dir, npx: true });
  assert.equal(built.status, 0, built.stderr);
  assert.match(built.stderr, /^playground: wrote site \(Bookshelf, 3 operations\)$/m);
  const site = join(dir, "site");
  const read = (name) => readFileSync(join(site, name), "utf8");

  // Each version's own page, description and copy of the app.
  assert.equal(JSON.parse(read("openapi.json")).info.version, "1.0.0");
  const document = JSON.parse(read("v/0.9.0/openapi.json"));
  assert.equal(document.info.version, "0.9.0");
  assert.equal(document.paths["/books/{bookId}"], undefined);
  for (const folder of ["", "v/0.9.0/"]) {
    for (const file of appFiles()) {
      assert.deepEqual(readFileSync(join(site, folder, file)), readFileSync(join(PACKAGE, "app", file)), `${folder}${file} is copied`);
    }
    assert.ok(statSync(join(site, folder, "index.md")).isFile(), `the Markdown in ${folder || "the top"}`);
  }

  // The switcher on every page, linking each version from where the page stands; the banner on
  // the earlier one only.
  const top = read("index.html");
  const earlier = read("v/0.9.0/index.html");
  assert.ok(top.includes('<a href="./" aria-current="page">1.0.0 (newest)</a>'), top);
  assert.ok(top.includes('<a href="v/0.9.0/">0.9.0</a>'), top);
  assert.ok(earlier.includes('<a href="../../">1.0.0 (newest)</a>'), earlier);
  assert.ok(earlier.includes("You are reading version 0.9.0."), earlier);
  assert.ok(!top.includes('class="version-banner"'), "the newest has no banner");

  // The Changes page of the newest version: breaking first, linked to the operations; none
  // before the oldest.
  const changes = read("changes/index.html");
  assert.ok(changes.includes("Breaking changes"), changes);
  assert.ok(changes.includes("max-length-decreased"), changes);
  assert.ok(changes.includes('<a href="../#createBook">'), changes);
  assert.ok(changes.includes("operation-added"), changes);
  assert.ok(changes.includes('<a href="../#getBook">'), changes);
  assert.match(read("changes/index.md"), /### Breaking \(\d+\)/);
  assert.ok(!existsSync(join(site, "v", "0.9.0", "changes")), "nothing to compare the oldest with");

  assert.deepEqual(JSON.parse(read("versions.json")), [
    { name: "1.0.0", path: "", newest: true },
    { name: "0.9.0", path: "v/0.9.0/", newest: false },
  ]);

  rmSync(VERSIONED_SITE, { recursive: true, force: true });
  cpSync(site, VERSIONED_SITE, { recursive: true });

  // An earlier version that cannot be read is named, and no site is written.
  const gone = playground(["build", "--spec", SPEC, "--previous", "gone.yaml", "--out", "other"], { cwd: dir });
  assert.equal(gone.status, 1);
  assert.match(gone.stderr, /^playground: gone\.yaml: does not exist$/m);
  assert.ok(!existsSync(join(dir, "other")), "no site is written");

  // `serve` shows the newest version only: it takes no --previous.
  const serve = playground(["serve", "--spec", SPEC, "--previous", olderSpec], { cwd: dir });
  assert.equal(serve.status, 2);
  assert.match(serve.stderr, /^error: unexpected argument '--previous' found$/m);
});

/** One API in two versions for `diff` (crates/cli/tests/diff.rs's V1). */
const SHELF_V1 = `openapi: 3.0.3
info: {title: Shelf, version: "1.0.0"}
paths:
  /books:
    get:
      operationId: listBooks
      parameters:
        - {name: limit, in: query, schema: {type: integer, maximum: 100}}
      responses:
        "200":
          description: The books.
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Book"}}
    post:
      operationId: createBook
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Book"}
      responses:
        "201":
          description: Created.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Book"}
components:
  schemas:
    Book:
      type: object
      required: [title]
      properties:
        title: {type: string, maxLength: 200}
        status: {type: string, enum: [draft, published]}
`;

/**
 * SHELF_V1 with the title's maxLength lowered (breaking in the request, not in the responses), a
 * status added (breaking in the responses) and listBooks deprecated.
 */
const SHELF_V2 = SHELF_V1.replace("maxLength: 200", "maxLength: 100")
  .replace("enum: [draft, published]", "enum: [draft, published, withdrawn]")
  .replace("operationId: listBooks", "operationId: listBooks\n      deprecated: true");

test("diff: the exit code follows --fail-on; text, Markdown and JSON", () => {
  const dir = workFolder("diff");
  writeFileSync(join(dir, "v1.yaml"), SHELF_V1);
  writeFileSync(join(dir, "v2.yaml"), SHELF_V2);
  const added = SHELF_V1.replace(
    "components:",
    '  /authors:\n    get:\n      responses:\n        "200": {description: The authors.}\ncomponents:',
  );
  writeFileSync(join(dir, "added.yaml"), added);
  const diff = (args, options = {}) => playground(["diff", ...args], { cwd: dir, ...options });

  const text = diff(["v1.yaml", "v2.yaml"], { npx: true });
  assert.equal(text.status, 0, `without --fail-on, changes found are not a failure: ${text.stderr}`);
  assert.equal(text.stderr, "");
  assert.match(text.stdout, /^Shelf 1\.0\.0 \(v1\.yaml\) → Shelf 1\.0\.0 \(v2\.yaml\)\n2 breaking, 1 deprecation, 2 non-breaking changes\n/);
  assert.ok(text.stdout.indexOf("Breaking:") < text.stdout.indexOf("Deprecations:"), text.stdout);
  assert.ok(text.stdout.includes("property title: maxLength decreased from 200 to 100 [max-length-decreased]"), text.stdout);

  const code = (args) => diff(args).status;
  assert.equal(code(["v1.yaml", "v2.yaml", "--fail-on", "breaking"]), 1);
  assert.equal(code(["v1.yaml", "v2.yaml", "--fail-on=deprecation"]), 1);
  assert.equal(code(["v1.yaml", "added.yaml", "--fail-on", "breaking"]), 0, "an operation added breaks nothing");
  assert.equal(code(["v1.yaml", "added.yaml", "--fail-on", "deprecation"]), 0);
  assert.equal(code(["v1.yaml", "added.yaml", "--fail-on", "any"]), 1);
  assert.equal(code(["v1.yaml", "v1.yaml", "--fail-on", "any"]), 0, "a description equals itself");

  const json = diff(["v1.yaml", "v2.yaml", "--format", "json"]);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout);
  assert.deepEqual(report.old, { file: "v1.yaml", title: "Shelf", version: "1.0.0" });
  assert.equal(report.new.file, "v2.yaml");
  assert.deepEqual(report.summary, { breaking: 2, deprecation: 1, "non-breaking": 2 });
  const find = (id, direction) => report.changes.find((change) => change.id === id && change.direction === direction);
  const shorter = find("max-length-decreased", "request");
  assert.equal(shorter.level, "breaking");
  assert.equal(shorter.schema, "Book", "a shared schema's change is reported once, under its name");
  assert.equal(shorter.pointer, "/components/schemas/Book/properties/title");
  assert.equal(shorter.old, 200);
  assert.equal(shorter.new, 100);
  assert.deepEqual(shorter.operations, [{ path: "/books", method: "POST", operationId: "createBook" }]);
  assert.equal(find("max-length-decreased", "response").level, "non-breaking");
  assert.equal(find("enum-value-added", "response").operations.length, 2, "both operations return a Book");
  assert.equal(report.changes[0].level, "breaking", "breaking changes come first");

  const markdown = diff(["v1.yaml", "v2.yaml", "--format", "markdown"]);
  assert.equal(markdown.status, 0, markdown.stderr);
  assert.ok(markdown.stdout.includes("### Breaking (2)"), markdown.stdout);
  assert.ok(markdown.stdout.includes("**GET /books (listBooks)**"), markdown.stdout);
  assert.ok(markdown.stdout.includes("`operation-deprecated`"), markdown.stdout);

  // A description kept in several files compares with itself as equal.
  const same = diff([SPEC, SPEC, "--fail-on", "any"]);
  assert.equal(same.status, 0, same.stderr);
  assert.match(same.stdout, /\nno changes\n/);
});

test("diff: sunset dates against --date, or today", () => {
  const dir = workFolder("diff-sunset");
  const sunset = (date) =>
    SHELF_V1.replace("operationId: listBooks", `operationId: listBooks\n      deprecated: true\n      x-sunset: "${date}"`);
  // GET /books removed: breaking before its sunset, a deprecation once it has passed.
  const removed = SHELF_V1.replace(/ {4}get:\n[\s\S]*? {4}post:\n/, "    post:\n");
  assert.ok(!removed.includes("listBooks"));
  writeFileSync(join(dir, "far.yaml"), sunset("2999-01-01"));
  writeFileSync(join(dir, "past.yaml"), sunset("2000-01-01"));
  writeFileSync(join(dir, "removed.yaml"), removed);
  const level = (args) => {
    const result = playground(["diff", ...args, "--format", "json"], { cwd: dir });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(result.stdout).changes.find((change) => change.id === "operation-removed").level;
  };
  assert.equal(level(["far.yaml", "removed.yaml"]), "breaking", "today is before 2999");
  assert.equal(level(["past.yaml", "removed.yaml"]), "deprecation");
  assert.equal(level(["far.yaml", "removed.yaml", "--date", "2999-06-01"]), "deprecation");
  assert.equal(level(["past.yaml", "removed.yaml", "--date", "1999-12-31"]), "breaking");
  const failing = playground(["diff", "far.yaml", "removed.yaml", "--fail-on", "breaking"], { cwd: dir });
  assert.equal(failing.status, 1, failing.stderr);

  const bad = playground(["diff", "far.yaml", "removed.yaml", "--date", "2020-1-1"], { cwd: dir });
  assert.equal(bad.status, 2);
  assert.ok(bad.stderr.includes("expected a date as YYYY-MM-DD"), bad.stderr);
});

test("diff: a description that cannot be read exits 2, naming the file and the place", () => {
  const dir = workFolder("diff-unreadable");
  writeFileSync(join(dir, "v1.yaml"), SHELF_V1);
  writeFileSync(join(dir, "hello.json"), '{"hello": "world"}');
  writeFileSync(join(dir, "paths.yaml"), "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: [1, 2]\n");
  const broken = join(dir, "fixtures", "shelf", "components", "schemas.yaml");
  writeFileSync(broken, "Book: [\n");
  const cases = [
    [["missing.yaml", "v1.yaml"], /^playground: missing\.yaml: does not exist$/m],
    [["v1.yaml", "missing.yaml"], /^playground: missing\.yaml: does not exist$/m],
    [["v1.yaml", "hello.json"], /^playground: hello\.json: /m],
    [["v1.yaml", "paths.yaml"], /^playground: paths\.yaml: .*\/paths/m],
    [[SPEC, "v1.yaml"], /schemas\.yaml/],
  ];
  for (const [args, words] of cases) {
    const result = playground(["diff", ...args, "--fail-on", "breaking"], { cwd: dir, npx: args[0] === "missing.yaml" });
    assert.equal(result.status, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stdout, "", "nothing on stdout");
    assert.match(result.stderr, words);
  }

  // Mistakes in the command line are usage errors, as clap words them.
  const level = playground(["diff", "v1.yaml", "v1.yaml", "--fail-on", "major"], { cwd: dir });
  assert.equal(level.status, 2);
  assert.match(level.stderr, /^error: invalid value 'major' for '--fail-on <LEVEL>'\n {2}\[possible values: breaking, deprecation, any\]$/m);
  const one = playground(["diff", "v1.yaml"], { cwd: dir });
  assert.equal(one.status, 2);
  assert.match(one.stderr, /the following required arguments were not provided:\n {2}<NEW>\n\nUsage: playground diff <OLD> <NEW>\n/);
  const help = playground(["diff", "--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: playground diff \[OPTIONS\] <OLD> <NEW>/);
});

test("serve: the site, its mock at /mock, reloaded when the description changes", async () => {
  const dir = workFolder("serve");
  const spec = join(dir, SPEC);
  const server = await start(["serve", "--spec", spec, "--port", "0"]);
  try {
    const url = /^playground serving (http:\/\/127\.0\.0\.1:\d+)\/$/.exec(server.line)?.[1];
    assert.ok(url, server.line);
    assert.match(server.stderr(), /site of .*openapi\.yaml \(Bookshelf, 3 operations\); mock of Bookshelf 1\.0\.0 at \/mock\//);

    const page = await fetch(`${url}/`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await page.text();
    assert.ok(html.includes("<title>Bookshelf</title>"));
    assert.ok(html.includes("<script data-playground-serve>"), "the live-reload script is in the served page");

    const document = await (await fetch(`${url}/openapi.json`)).json();
    assert.equal(document.paths["/books"].post.operationId, "createBook");

    // A client asking for Markdown gets the page's twin; a browser still gets the page.
    const markdown = { headers: { accept: "text/markdown, text/html;q=0.9" } };
    const twin = await fetch(`${url}/`, markdown);
    assert.equal(twin.headers.get("content-type"), "text/markdown; charset=utf-8");
    assert.equal(twin.headers.get("vary"), "accept");
    assert.match(await twin.text(), /^# Bookshelf/);
    const browser = await fetch(`${url}/`, { headers: { accept: "text/html,*/*;q=0.8" } });
    assert.match(await browser.text(), /<title>Bookshelf<\/title>/);
    const create = await fetch(`${url}/operations/createBook`, markdown);
    assert.equal(create.status, 200);
    assert.match(await create.text(), /POST \/books/);
    const llms = await fetch(`${url}/llms.txt`);
    assert.equal(llms.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.match(await llms.text(), /\(operations\/createBook\.md\)/);
    assert.equal((await fetch(`${url}/operations/none`, markdown)).status, 404);

    const wasm = files(join(PACKAGE, "app")).find((name) => name.endsWith(".wasm"));
    const module = await fetch(`${url}/${wasm}`);
    assert.equal(module.status, 200);
    assert.equal(module.headers.get("content-type"), "application/wasm");
    assert.deepEqual(Buffer.from(await module.arrayBuffer()), readFileSync(join(PACKAGE, "app", wasm)));
    for (const hidden of [".playground-site", "no-such-file.js", "api-mock/../../package.json"]) {
      assert.equal((await fetch(`${url}/${hidden}`)).status, 404, hidden);
    }

    const created = await fetch(`${url}/mock/books`, json({ title: "Dune", author: "Frank Herbert" }));
    assert.equal(created.status, 201);
    const location = created.headers.get("location");
    assert.equal(location, "/mock/books/1");
    const book = await created.json();
    assert.equal(book.title, "Dune");
    const read = await fetch(`${url}${location}`);
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), book);

    const stream = await events(`${url}/__playground/events`);
    try {
      edit(spec, (text) => text.replace("title: Bookshelf", "title: Bookcase"));
      await stream.next("reload");
      assert.ok((await (await fetch(`${url}/`)).text()).includes("<title>Bookcase</title>"));
      assert.equal((await fetch(`${url}/mock/books/1`)).status, 404, "the mock starts again with an empty state");
      assert.match(server.stderr(), /playground: reloaded; the mock starts again with an empty state/);

      const schemas = join(dir, "fixtures", "shelf", "components", "schemas.yaml");
      const good = readFileSync(schemas, "utf8");
      writeFileSync(schemas, `${good}\nBroken: [\n`);
      const error = await stream.next("error");
      assert.ok(error.includes("schemas.yaml"), error);
      assert.match(server.stderr(), /playground: still serving the last good version/);
      assert.ok((await (await fetch(`${url}/`)).text()).includes("<title>Bookcase</title>"), "the last good version is served");

      writeFileSync(schemas, good);
      await stream.next("reload");
    } finally {
      stream.close();
    }
  } finally {
    const code = await server.stop("SIGTERM");
    assert.equal(code, 0, server.stderr());
    assert.match(server.stderr(), /playground: SIGTERM received, stopping/);
  }
});

test("mock: the description's mock over HTTP, with CORS and a state file", async () => {
  const dir = workFolder("mock");
  const spec = join(dir, SPEC);
  const state = join(dir, "state.json");
  let server = await start(["mock", "--spec", spec, "--port", "0", "--state", state]);
  try {
    const url = /^playground listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(server.line)?.[1];
    assert.ok(url, server.line);
    assert.match(server.stderr(), /playground: mocking Bookshelf 1\.0\.0 from .*openapi\.yaml; 1 stored resources: \/books/);

    const origin = "http://localhost:5173";
    const created = await fetch(`${url}/books`, { ...json({ title: "Dune" }), headers: { "content-type": "application/json", origin } });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("location"), "/books/1");
    assert.equal(created.headers.get("access-control-allow-origin"), origin);
    assert.equal(created.headers.get("access-control-allow-credentials"), "true");
    assert.match(created.headers.get("vary"), /Origin/);
    assert.equal((await created.json()).title, "Dune");

    const preflight = await fetch(`${url}/books`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-headers"), "content-type");

    const refused = await fetch(`${url}/books`, json({ author: "nobody" }));
    assert.equal(refused.status, 400, "the body is checked against the description");

    assert.equal(await server.stop("SIGINT"), 0, server.stderr());
    assert.match(server.stderr(), /playground: Ctrl-C received, stopping/);

    server = await start(["mock", "--spec", spec, "--port", "0", "--state", state]);
    const again = /^playground listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(server.line)[1];
    assert.match(server.stderr(), /playground: state loaded from .*state\.json \(1 items in 1 resources\)/);
    const book = await fetch(`${again}/books/1`);
    assert.equal(book.status, 200);
    assert.equal((await book.json()).title, "Dune");
  } finally {
    await server.stop();
  }

  if (!NATIVE) {
    const proxy = playground(["mock", "--spec", spec, "--proxy", "https://api.example.com"]);
    assert.equal(proxy.status, 2);
    assert.ok(proxy.stderr.includes("--proxy <URL>") && proxy.stderr.includes("needs the native binary"), proxy.stderr);
  }

  const missing = playground(["mock", "--spec", "missing.yaml"], { cwd: dir });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^playground: cannot mock missing\.yaml: does not exist$/m);
});
