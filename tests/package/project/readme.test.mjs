// The README's examples as a reader copies them (run by tests/package/run.sh under Node 20 and
// 18): every ```js block of the installed package's README.md is compiled by tsc (checkJs, so a
// block that uses a name it does not import, or calls the package wrongly, fails; the
// declarations themselves are types-check.ts's), and run by
// Node in a folder that holds the to-do API's openapi.yaml (api/), each in a process of its own.
// The fence says where a block runs when it is not Node: ```js page (in a page) and
// ```js playwright (a Playwright test file, compiled against @playwright/test's types) are
// compiled only. ```sh blocks are neither.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

const readme = readFileSync(join("node_modules", "petstore-playground-mock", "README.md"), "utf8");

/** The fenced blocks of `markdown`: `{info, code, heading}` (the heading above the block). */
function blocks(markdown) {
  const found = [];
  let heading = "";
  let open = null;
  for (const line of markdown.split("\n")) {
    if (open) {
      if (line.startsWith("```")) {
        found.push(open);
        open = null;
      } else {
        open.code += `${line}\n`;
      }
    } else if (line.startsWith("```")) {
      open = { info: line.slice(3).trim(), code: "", heading };
    } else if (/^#{1,4} /.test(line)) {
      heading = line.replace(/^#+ /, "");
    }
  }
  assert.equal(open, null, "a block is not closed");
  return found;
}

const WHERE = { js: "node", "js page": "page", "js playwright": "playwright" };
const all = blocks(readme);
const snippets = all.filter((block) => block.info !== "sh");
for (const { info, heading } of snippets) {
  assert.ok(info in WHERE, `README (${heading}): a block fenced \`\`\`${info}; this test knows ${Object.keys(WHERE).join(", ")} and sh`);
}

// In the project, where the package and its peers resolve.
const folder = join(process.cwd(), "readme-snippets");
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder);
after(() => rmSync(folder, { recursive: true, force: true }));
const files = snippets.map((snippet, index) => {
  const slug = snippet.heading.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  const file = join(folder, `${String(index + 1).padStart(2, "0")}-${slug}.mjs`);
  writeFileSync(file, snippet.code);
  return { ...snippet, file, where: WHERE[snippet.info] };
});
const scratch = mkdtempSync(join(tmpdir(), "mock-readme-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

test("the README has its examples: Node, a page, MSW, Playwright, each method", () => {
  const where = files.map((file) => file.where);
  assert.ok(where.includes("page") && where.includes("playwright"), where.join(", "));
  assert.ok(where.filter((w) => w === "node").length >= 8, where.join(", "));
  for (const name of ["reset()", "snapshot()", "restore(", "resources()", "notices()", "onChange(", "handleJson(", "fetch(", "require(", "--experimental-vm-modules"]) {
    assert.ok(readme.includes(name), `the README says nothing of ${name}`);
  }
});

test("every example compiles with its own imports (tsc --checkJs)", () => {
  const tsc = join("node_modules", "typescript", "bin", "tsc");
  const args = ["--noEmit", "--allowJs", "--checkJs", "--strict", "--noImplicitAny", "false", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--types", "node", "--skipLibCheck"];
  const run = spawnSync(process.execPath, [tsc, ...args, ...files.map((f) => f.file)], { encoding: "utf8" });
  assert.equal(run.status, 0, `tsc on the README's examples:\n${run.stdout}${run.stderr}`);
});

for (const [index, snippet] of files.entries()) {
  if (snippet.where !== "node") continue;
  test(`README example ${index + 1} (${snippet.heading}) runs in Node`, () => {
    const cwd = join(scratch, String(index + 1));
    cpSync("api", cwd, { recursive: true });
    const run = spawnSync(process.execPath, [snippet.file], { cwd, encoding: "utf8", timeout: 60_000 });
    assert.equal(run.status, 0, `${snippet.file} exited with ${run.status}:\n${run.stdout}${run.stderr}\n--- the example:\n${snippet.code}`);
  });
}
