// The `playground` command of the npm package: `build`, `serve`, `mock` and `diff` as the
// native binary runs them (the same flags, messages, output and exit codes), on Node alone;
// `host`, `export`, `drift` and `mcp` are the native binary's, and say where to get it.
import { UsageError, printUsageError } from "./args.js";
import { BUILD, build } from "./build.js";
import { PROGRAM, VERSION } from "./common.js";
import { DIFF, diff } from "./diff.js";
import { MOCK, mock } from "./mock.js";
import { needsNative } from "./native.js";
import { SERVE, serve } from "./serve.js";

/** The commands this package runs, by name. */
const COMMANDS = new Map([
  [MOCK.name, { command: MOCK, run: mock }],
  [BUILD.name, { command: BUILD, run: build }],
  [SERVE.name, { command: SERVE, run: serve }],
  [DIFF.name, { command: DIFF, run: diff }],
]);

/** The commands only the native binary runs. */
const NATIVE_ONLY = new Set(["host", "export", "drift", "mcp"]);

const HELP = `Publish the reference and the mock of an API description.

Usage: ${PROGRAM} <COMMAND>

Commands:
  mock    ${MOCK.about}
  build   ${BUILD.about}
  serve   ${SERVE.about}
  diff    ${DIFF.about}
  host    Serve published sites at their addresses and custom domains (the native binary's)
  export  Write the state a \`mock --state FILE\` keeps as JSON (the native binary's)
  drift   Sum up the log of \`mock --proxy URL --log LOG\` (the native binary's)
  mcp     Serve an MCP server over the description's mock (the native binary's)
  help    Print this message or the help of the given command

Options:
  -h, --help     Print help
  -V, --version  Print version

\`${PROGRAM} COMMAND --help\` tells a command's flags. Node 18 or later.
`;

/** Runs the command line `argv` (without node and the script); gives the exit code. */
export async function main(argv) {
  const [first, ...rest] = argv;
  if (first === "-V" || first === "--version") {
    process.stdout.write(`${PROGRAM} ${VERSION}\n`);
    return 0;
  }
  if (first === "-h" || first === "--help" || (first === "help" && rest.length === 0)) {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === "help") return main([rest[0], "--help"]);
  if (first === undefined) {
    process.stderr.write(HELP);
    return 2;
  }
  if (NATIVE_ONLY.has(first)) return needsNative(first);
  const known = COMMANDS.get(first);
  if (!known) {
    const message = first.startsWith("-") ? `unexpected argument '${first}' found` : `unrecognized subcommand '${first}'`;
    return printUsageError(new UsageError(message, `${PROGRAM} <COMMAND>`));
  }
  try {
    const args = known.command.parse(rest);
    if (args.help) {
      process.stdout.write(known.command.help());
      return 0;
    }
    return await known.run(args);
  } catch (error) {
    if (error instanceof UsageError) return printUsageError(error);
    throw error;
  }
}
