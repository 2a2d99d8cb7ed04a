// What only the native `playground` binary does (`host`, `export`, `drift`, `mcp`, the mock's
// checking proxy): where to get it.
import { PROGRAM, VERSION } from "./common.js";

/** Where the native binary comes from, in words. */
export const NATIVE =
  `the release tarball ${PROGRAM}-${VERSION}-x86_64-unknown-linux-musl.tar.gz, ` +
  "or `cargo install --profile native --path crates/cli --features embed-app` in a clone of the repository";

/** Says that `command` needs the native binary; gives the exit code (2). */
export function needsNative(command) {
  process.stderr.write(`${PROGRAM} ${command} needs the native binary: ${NATIVE}\n`);
  return 2;
}
