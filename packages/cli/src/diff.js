// `playground diff OLD NEW`: the two descriptions read as `build` reads them (Swagger 2.0
// converted) and compared by the site module (crates/modules/site, `diffDescriptions`: the
// native command line's `playground_diff`, compiled to WebAssembly), the report written as text,
// Markdown or JSON; the exit code says whether changes at the `--fail-on` level were found (1),
// or a description could not be read (2), as crates/cli/src/diff.rs says.
import { resolve } from "node:path";

import { Command } from "./args.js";
import { messageOf, say } from "./common.js";
import { fileReader, loadSiteModule } from "./site.js";

/** The exit code when a description cannot be read (`UNREADABLE` of crates/cli/src/diff.rs). */
export const UNREADABLE = 2;

export const DIFF = new Command(
  "diff",
  "Compare two descriptions: every change per operation and per schema, each breaking, a deprecation or non-breaking (exit 1 with --fail-on when one at that level is found, 2 when a description cannot be read).",
  [
    { name: "format", value: "FORMAT", default: "text", possible: ["text", "markdown", "json"], help: "How to write the changes" },
    {
      name: "fail-on",
      value: "LEVEL",
      possible: ["breaking", "deprecation", "any"],
      help: "Exit with 1 when a change at this level (or above) is found: for CI",
    },
    { name: "date", value: "DATE", parse: date, help: "The day sunset dates are compared with (YYYY-MM-DD) [default: today]" },
  ],
  [
    { name: "OLD", help: "The description before (OpenAPI 3.0 to 3.2 or Swagger 2.0; JSON or YAML, one file or many)" },
    { name: "NEW", help: "The description after" },
  ],
);

/** Runs `diff` with its parsed flags; gives the exit code. */
export async function diff(args) {
  const module = await loadSiteModule();
  let answer;
  try {
    answer = module.diffDescriptions(
      {
        // The paths as the user named them, for messages and the report; also absolute.
        old: args.old,
        oldRoot: resolve(args.old),
        new: args.new,
        newRoot: resolve(args.new),
        cwd: process.cwd(),
        format: args.format,
        failOn: args.failOn ?? null,
        date: args.date ?? today(),
      },
      fileReader(),
    );
  } catch (error) {
    say(messageOf(error));
    return UNREADABLE;
  }
  // The whole report out before the process exits (a pipe may take it in several writes).
  await new Promise((done) => process.stdout.write(answer.text, () => done()));
  return answer.failing ? 1 : 0;
}

/** A `--date`: `YYYY-MM-DD` (digits, nothing checked of the calendar, as the native command line). */
export function date(text) {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text)) throw new Error("expected a date as YYYY-MM-DD");
  return text;
}

/** Today (UTC) as `YYYY-MM-DD`. */
export function today() {
  return new Date().toISOString().slice(0, 10);
}
