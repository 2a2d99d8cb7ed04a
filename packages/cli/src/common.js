// What every command shares: the program's name in its messages, the error that carries a
// message for the user, I/O errors worded as the native command line words them, and paths
// joined as they are shown.
import { readFileSync } from "node:fs";

/** The program's name, at the start of every message (as the native `playground`'s). */
export const PROGRAM = "playground";

/** The package's version (`playground --version`). */
export const VERSION = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

/**
 * A failure whose message is the whole sentence the user reads after `playground: ` (the file
 * at fault first); the command exits with 1.
 */
export class Failure extends Error {}

/** Prints `playground: message` on stderr. */
export function say(message) {
  process.stderr.write(`${PROGRAM}: ${message}\n`);
}

/** The message of anything thrown: an `Error`'s, or the value itself (a WebAssembly module may throw strings). */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The system's words where libuv's differ from the C library's, which the native command line
 * prints (Rust's `io::Error`): "File exists (os error 17)" rather than "file already exists".
 */
const STRERROR = {
  EEXIST: "File exists",
  EISDIR: "Is a directory",
  EXDEV: "Invalid cross-device link",
  EBUSY: "Device or resource busy",
  ELOOP: "Too many levels of symbolic links",
  ENAMETOOLONG: "File name too long",
  EADDRNOTAVAIL: "Cannot assign requested address",
  ENOTFOUND: "Name or service not known",
};

/**
 * A system error as Rust's `io::Error` shows it ("No such file or directory (os error 2)"),
 * without the path and the call Node puts in its message; other errors keep their message.
 */
export function ioMessage(error) {
  if (!error || typeof error.code !== "string") return messageOf(error);
  if (error.code === "ENOTFOUND") return "failed to lookup address information: Name or service not known";
  const words = STRERROR[error.code] ?? systemWords(error);
  if (words === undefined) return messageOf(error);
  return typeof error.errno === "number" ? `${words} (os error ${Math.abs(error.errno)})` : words;
}

/** libuv's words of `error` ("ENOENT: no such file or directory, open 'x'"), capitalised. */
function systemWords(error) {
  const match = /^[A-Z0-9_]+: ([^,]+)/.exec(error.message ?? "");
  if (!match) return undefined;
  return match[1].charAt(0).toUpperCase() + match[1].slice(1);
}

/** `name` in the folder `dir` as written (`dir/name`; no doubled `/`, nothing normalised), as the native command line shows joined paths. */
export function joinShown(dir, name) {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}
