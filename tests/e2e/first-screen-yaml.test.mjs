// The first screen's own YAML reader (www/first-screen.js, readYaml) against js-yaml 4.1.0 with
// the core schema, as the app reads YAML (src/document/js.rs): wherever the reader gives a value,
// js-yaml must give the same one (deep and strict: -0, NaN and key order too), and the reader
// must read the YAML that OpenAPI documents are written in. It runs in Node, without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
// Pinned in scripts/ensure-tools.sh; the page loads the same build (index.html).
const jsyaml = createRequire(import.meta.url)(join(REPO, ".tools/node_modules/js-yaml"));
assert.equal(jsyaml.YAMLException.name, "YAMLException");

// The script as the page inlines it, with a window of its own.
const window = {};
new Function("window", await readFile(join(REPO, "www/first-screen.js"), "utf8"))(window);
const readYaml = window.__playgroundFirstScreen.readYaml;

const load = (text) => {
  try {
    return { value: jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA }) };
  } catch (e) {
    return { error: e.message };
  }
};
// The reader may leave any text to js-yaml (undefined); what it reads must be js-yaml's value.
function agrees(text, label) {
  const read = readYaml(text);
  if (read === undefined) return false;
  const expected = load(text);
  assert.ok(!("error" in expected), `${label}: read, but js-yaml rejects it: ${expected.error}\n${text}`);
  assert.deepStrictEqual(read, expected.value === undefined ? null : expected.value, `${label}\n${text}`);
  return true;
}

async function yamlFiles(dir) {
  const found = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory() && e.name !== "node_modules") found.push(...(await yamlFiles(path)));
    else if (e.isFile() && /\.ya?ml$/.test(e.name)) found.push(path);
  }
  return found;
}

test("the repository's YAML documents read as js-yaml reads them", async () => {
  const files = (
    await Promise.all(["tests/fixtures", "tests/package/project", "tests/cli-package/fixtures", "crates", "openapi"].map((d) => yamlFiles(join(REPO, d))))
  ).flat();
  assert.ok(files.length >= 30, `${files.length} files`);
  const read = [];
  for (const file of files) if (agrees(await readFile(file, "utf8"), file)) read.push(file.slice(REPO.length));
  // The Petstore the bench loads, and real descriptions written by others, are read here.
  for (const wanted of [
    "tests/fixtures/swagger-petstore3.yaml",
    "openapi/petstore.yaml",
    "crates/diff/tests/fixtures/real/blockfrost/new.yaml",
    "crates/diff/tests/fixtures/real/scalar-galaxy/new.yaml",
  ]) {
    assert.ok(read.includes(wanted), `${wanted} is read (read: ${read.length} of ${files.length})`);
  }
  // The broken one, and js-yaml's own ways, are left to js-yaml.
  assert.equal(readYaml(await readFile(join(REPO, "crates/cli/tests/fixtures/broken-yaml.yaml"), "utf8")), undefined);
});

test("documents as js-yaml writes them, in every style, read back the same", async () => {
  const docs = [
    jsyaml.load(await readFile(join(REPO, "openapi/petstore.yaml"), "utf8")),
    jsyaml.load(await readFile(join(REPO, "tests/fixtures/swagger-petstore3.yaml"), "utf8")),
    {
      text: "one\ntwo\n\nthree  \n  indented\nlast",
      trailing: "ends\n\n\n",
      lead: "\n\nstarts with breaks",
      spaces: "  leading spaces",
      quote: `it's "quoted" \\ back`,
      controls: "bell\u0007 esc\u001b nel\u0085 nbsp\u00a0 ls\u2028 astral \u{1f600}",
      colon: "a: b",
      hash: "a #b",
      numbers: ["1", "0x1F", "1e3", ".inf", "-.inf", ".nan", "0o17", "0b101", "1_000", "-0", "+1", "0.5", "1.", "null", "~", "true", "False", ""],
      values: [1, -1, 0.5, 1e21, -0, 0, null, true, false, 12345678901234567890],
      nested: [[1, [2, []]], { a: {}, b: [{ c: [{}] }] }],
      "x-key with spaces": { "200": "ok", "/pets/{id}": { get: null }, "-dash": 1, "?q": 2, "a:b": 3, "a #b": 4 },
    },
  ];
  const styles = [
    {},
    { lineWidth: 20 },
    { lineWidth: -1 },
    { flowLevel: 3 },
    { quotingType: '"' },
    { forceQuotes: true },
    { forceQuotes: true, quotingType: '"' },
    { indent: 4 },
    { indent: 1, noArrayIndent: true },
    { noCompatMode: true, lineWidth: 30 },
  ];
  let read = 0;
  for (const [i, doc] of docs.entries()) {
    for (const style of styles) {
      const text = jsyaml.dump(doc, style);
      if (agrees(text, `document ${i}, ${JSON.stringify(style)}`)) read++;
    }
  }
  // Only js-yaml's one-line flow collections of quoted scalars (flowLevel) are left to it.
  assert.ok(read >= docs.length * (styles.length - 1), `${read} of ${docs.length * styles.length}`);
});

test("each construct reads as js-yaml reads it, and what the reader leaves is left", () => {
  const readable = [
    "a: 1\nb: two\nc:\nd: ~\n",
    "---\na: 1\n",
    "--- # start\na: 1\n",
    "# comment\n\na: 1 # trailing\nb: 'x' # quoted\nc: \"y\"   \n",
    "a:\n- 1\n- - 2\n  - 3\n-\nb: 2\n",
    "a:\n  - x: 1\n    y: 2\n  -   z: 3\n      w: [a, b,  c d]\n  - []\n  - {}\n",
    "'200':\n  description: ok\n\"/p\" : 1\n",
    "a: |\n  one\n   two\n\n  three\n\n\nb: >\n  folded\n  lines\n\n   more\n  back\n",
    "a: |-\n  strip\n\nb: |+\n  keep\n\n\nc: >-\n\n  after a blank\nd: |\ne: >+\n",
    "a: |  # comment\n      deep\n        deeper\n",
    "a:\n  b:\n    c: |\n      x\n  d: e\n",
    "k: \"esc \\x41 \\u00e9 \\U0001F600 \\\" \\\\ \\/ \\n \\t \\0 \\_ \\N \\L \\P\"\n",
    "k: 'it''s'\nl: ''\nm: \"\"\n",
    "k: http://example.com/a#b\nl: a:b\nm: -x\nn: ?y\no: 12:30\np: ---\n",
    "1: a\n0x10: b\n1.50: c\ntrue: d\nnull: e\n.inf: f\n",
    "a:\r\n  b: 1\r\n",
    "\ufeffa: 1\n",
    "a: 1",
    "",
    "- a\n- b: 1\n",
    "a: {b: 1, c: [x, 'y', \"z\"], d: {}, e: a:b, f: http://x/y}\n",
    "a: [x y, -1, ?z, [], [[1]], {k: v}]   # flow\n",
    "a: one\n  two\n\n\n   three  \n\nb: -x\n  y\n",
    "a:\n  just a scalar\n  on two lines\nb:\n-\n  item\n",
    "- one\n  - two\n",
    "# only a comment\n",
  ];
  for (const text of readable) assert.ok(agrees(text, "readable"), `read: ${JSON.stringify(text)}`);
  const left = [
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: 'one\n  two'\n",
    "a: \"one\n  two\"\n",
    "a:\n\tb: 1\n",
    "a: 1\n---\nb: 2\n",
    "a: 1\n...\n",
    "%YAML 1.2\n---\na: 1\n",
    "a: 1\na: 2\n",
    "a: 1\n\"a\": 2\n",
    "<<: {a: 1}\n",
    "__proto__: 1\n",
    "? a\n: b\n",
    "a: [1,\n  2]\n",
    "a: {b: 1, b: 2}\n",
    "a: {b}\n",
    "a: {b: }\n",
    "a: [b: 1]\n",
    "a: [b, ]\n",
    "a: [b #c]\n",
    "a: {\"b\":1}\n",
    "a: one\n  two: three\n",
    "a: one\n  # comment\n  two\n",
    "---x: 1\n",
    "a: |2\n   x\n",
    "a: b: c\n",
    "a: @x\n",
    "  a: 1\n",
    "a: 1\n  b: 2\n",
    "a:\n  b: 1\n c: 2\n",
    "a: \"\\q\"\n",
    "a: 1\rb: 2\n",
    "a: \"x\"y\n",
  ];
  for (const text of left) assert.equal(readYaml(text), undefined, `left to js-yaml: ${JSON.stringify(text)}`);
});

test("changed texts: whatever the reader reads, js-yaml reads the same", async () => {
  const seeds = [
    await readFile(join(REPO, "tests/fixtures/swagger-petstore3.yaml"), "utf8"),
    "a: |\n  one\n\n   two\nb: >-\n  x\n  y\nc:\n- [1, b]\n- k: 'v''w'\n  l: \"\\u0041\"\n",
    "openapi: 3.0.3\ninfo:\n  title: T # c\n  version: 1.0.0\npaths:\n  /a:\n    get:\n      tags: [x, y]\n      summary: >\n        Long\n        text\n",
  ];
  const alphabet = [" ", "  ", "\n", ":", ": ", "-", "- ", "#", " #", "'", '"', "|", ">", "[", "]", "{", "}", ",", "&", "*", "!", "?", "a", "1", "0", ".", "_", "x", "\\", "+", "~", "\r", "\t", "%", "@", "---", "..."];
  // A fixed sequence (mulberry32), so a failure repeats.
  let seed = 57;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let read = 0, tried = 0;
  for (const [s, base] of seeds.entries()) {
    for (let n = 0; n < (s === 0 ? 3000 : 8000); n++) {
      let text = base;
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const at = Math.floor(random() * (text.length + 1));
        const cut = random() < 0.5 ? Math.floor(random() * 3) : 0;
        const put = random() < 0.8 ? alphabet[Math.floor(random() * alphabet.length)] : "";
        text = text.slice(0, at) + put + text.slice(at + cut);
      }
      tried++;
      if (agrees(text, `seed ${s}, change ${n}`)) read++;
    }
  }
  // Most small changes leave a text the reader still reads (else this test tests little).
  assert.ok(read > tried / 4, `${read} of ${tried} read`);
});
