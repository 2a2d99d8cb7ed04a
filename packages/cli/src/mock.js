// `playground mock`: the mock of a description over HTTP until Ctrl-C or SIGTERM, with the
// native server's flags where `ApiMock` of petstore-playground-mock offers what they ask
// (crates/server/src/cli.rs), its start-up lines and its CORS. The flags of the checking proxy
// (--proxy, --log, --record) need the native binary and are refused, saying so.
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync } from "node:fs";
import { dirname, resolve } from "node:path";

import { Command, float, unsigned } from "./args.js";
import { Failure, PROGRAM, ioMessage, messageOf, say } from "./common.js";
import { answerWithMock, listen, loadApiMock, stopOn, stopSignals } from "./http.js";
import { fileReader, isDirectory, loadSiteModule } from "./site.js";
import { NATIVE } from "./native.js";

/** The longest delay the options allow (`MAX_DELAY_MS`, one minute). */
const MAX_DELAY_MS = 60_000;

/** `--delay`: `250` or `100-500` milliseconds, read as `Delay::parse` reads it. */
function delay(text) {
  const number = (part) => {
    if (!/^\+?[0-9]+$/.test(part.trim()) || Number(part.trim()) > 0xffffffff) {
      throw new Error(`${JSON.stringify(part)} is not a number of milliseconds`);
    }
    return Number(part.trim());
  };
  const dash = text.indexOf("-");
  const [min, max] = dash < 0 ? [number(text), number(text)] : [number(text.slice(0, dash)), number(text.slice(dash + 1))];
  if (min > max) throw new Error(`the delay ${text} runs backwards; write the shorter one first`);
  if (max > MAX_DELAY_MS) throw new Error(`a delay of at most ${MAX_DELAY_MS} ms is allowed`);
  return { min, max };
}

export const MOCK = new Command("mock", "Serve the mock of a description over HTTP until Ctrl-C or SIGTERM.", [
  { name: "host", value: "HOST", default: "127.0.0.1", help: "Address to listen on (only this one)" },
  { name: "port", value: "PORT", default: "4010", parse: unsigned(65535), help: "Port to listen on; 0 picks a free one (the URL printed at start tells which)" },
  { name: "spec", value: "FILE", required: true, help: "Mock this OpenAPI document (3.0, 3.1 or Swagger 2.0; JSON or YAML)" },
  { name: "no-validation", help: "Answer requests without checking them against the document" },
  { name: "no-security", help: "Do not ask for the credentials the document's security requires" },
  { name: "credential", value: "VALUE", multiple: true, help: "Accept only this credential (an API key, a bearer token, or user:password for Basic); give it again for more" },
  { name: "delay", value: "MS", parse: delay, help: "Wait before every answer, MS or MIN-MAX milliseconds (e.g. 200 or 100-500)" },
  { name: "failure-rate", value: "RATE", parse: float, help: "The share of requests that fail (0 to 1), with a documented error status" },
  { name: "failure-status", value: "STATUS", parse: unsigned(65535), help: "With --failure-rate: the status of the failures; 0 cuts the connection instead" },
  { name: "behaviour", value: "FILE", help: "The mock's options as JSON (validate, security, seed, delay, failure, and per operationId under \"operations\"); the flags above win over it" },
  { name: "state", value: "FILE", help: "Keep the state in FILE (created when missing): every change is written there, synced to disk, before it is answered" },
  { name: "reset", help: "With --state: when FILE cannot be read as a saved mock, move it aside to FILE.unreadable-SECONDS and start fresh" },
  // Accepted only to be refused with a message (the native binary's), as clap would accept them.
  { name: "seed", hidden: true, help: "(the Petstore's demo data: not with --spec)" },
  { name: "proxy", value: "URL", help: "Needs the native binary: forward every request to the real API at URL, checking the exchanges" },
  { name: "log", value: "FILE", help: "Needs the native binary: with --proxy, log one JSON line per exchange" },
  { name: "record", help: "Needs the native binary: with --proxy and --state, keep the real answers' items" },
]);

/**
 * Checks what clap's `requires` and `conflicts_with` check natively, and refuses what needs the
 * native binary. Throws a `UsageError`.
 */
function checkCombinations(args) {
  const given = (name) => args.given.includes(name);
  // Reported as clap reports them: the option given first cannot be used with the other.
  const conflict = (a, b) => {
    if (!given(a) || !given(b)) return;
    const [first, second] = args.given.indexOf(a) < args.given.indexOf(b) ? [a, b] : [b, a];
    throw MOCK.error(`the argument '${shown(first)}' cannot be used with '${shown(second)}'`, [first]);
  };
  const requires = (a, b) => {
    if (given(a) && !given(b)) throw MOCK.missing([b], [a]);
  };
  const shown = (name) => MOCK.shown(MOCK.option(name));
  conflict("seed", "spec");
  conflict("credential", "no-security");
  requires("failure-status", "failure-rate");
  requires("reset", "state");
  for (const name of ["proxy", "log", "record"]) {
    if (given(name)) throw MOCK.error(`${shown(name)} needs the native binary (${NATIVE})`, [name]);
  }
}

/** The mock's options: --behaviour, with the flags winning over it (`mock_options`). */
function mockOptions(args) {
  let options = {};
  if (args.behaviour !== undefined) {
    let text;
    try {
      text = readFileSync(args.behaviour, "utf8");
    } catch (error) {
      throw new Failure(`cannot read ${args.behaviour}: ${ioMessage(error)}`);
    }
    try {
      options = JSON.parse(text);
    } catch (error) {
      throw new Failure(`${args.behaviour} is not the mock's options: ${error.message}`);
    }
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new Failure(`${args.behaviour} is not the mock's options: it holds no JSON object`);
    }
  }
  if (args.noValidation) options.validate = false;
  if (args.noSecurity) options.security = false;
  if (args.credential.length) options.credentials = [...(Array.isArray(options.credentials) ? options.credentials : []), ...args.credential];
  if (args.delay !== undefined) options.delay = args.delay;
  if (args.failureRate !== undefined) {
    // JSON has no NaN or infinity: refused here, in the words of the options' range check.
    if (!Number.isFinite(args.failureRate)) {
      const rate = Number.isNaN(args.failureRate) ? "NaN" : args.failureRate > 0 ? "inf" : "-inf";
      throw new Failure(`the mock's options: failure rate ${rate} is not between 0 and 1`);
    }
    const network = args.failureStatus === 0;
    options.failure = { rate: args.failureRate, network };
    if (args.failureStatus !== undefined && args.failureStatus !== 0) options.failure.status = args.failureStatus;
  }
  return options;
}

/**
 * The failure of options the mock refused: the --behaviour file's when its JSON has the wrong
 * shape (serde's words: the flags only give values of the right type), else the options' range
 * check's, as the native server words them.
 */
function optionsFailure(args, problem) {
  const shape = /^(unknown field|invalid type|missing field|invalid value|invalid length|unknown variant|duplicate field)\b/;
  if (args.behaviour !== undefined && shape.test(problem)) return new Failure(`${args.behaviour} is not the mock's options: ${problem}`);
  return new Failure(`the mock's options: ${problem}`);
}

/** The first bytes of a SQLite database: the native mock's state file. */
const SQLITE_HEADER = "SQLite format 3\0";

function isSqlite(path) {
  let fd;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return read === head.length && head.toString("latin1") === SQLITE_HEADER;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Opens the mock of `document` with `options`, its state in `args.state` when given (read back
 * when it holds one; moved aside with --reset when it cannot be), and says what it mocks, then
 * what state it keeps, in the native server's order.
 */
function openMock(ApiMock, args, document, options) {
  const make = (file) => {
    try {
      return new ApiMock(document, file === undefined ? options : { ...options, file });
    } catch (error) {
      const message = messageOf(error);
      const optionsProblem = /^ApiMock options: (.*?)\.?$/s.exec(message);
      if (optionsProblem) throw optionsFailure(args, optionsProblem[1]);
      const storage = /^ApiMock cannot open its storage(?: \([^)]*\))?: (.*)$/s.exec(message);
      if (file !== undefined && storage) throw Object.assign(new Failure(storage[1]), { storage: true });
      throw new Failure(`cannot mock ${args.spec}: ${message.replace(/^ApiMock cannot mock this description: /, "")}`);
    }
  };
  const path = args.state;
  if (path === undefined) {
    const mock = make();
    announce(args.spec, mock);
    return mock;
  }
  const dir = dirname(path);
  if (!isDirectory(dir)) throw new Failure(`cannot keep state in ${path}: the directory ${dir} does not exist`);
  if (isSqlite(path)) {
    announce(args.spec, make());
    throw new Failure(
      `the state file ${path} is a SQLite database: the state of the native playground mock, which this package does not read. Serve it with the native binary (${NATIVE}), or choose another file with --state.`,
    );
  }
  const existed = existsSync(path);
  try {
    const mock = make(path);
    announce(args.spec, mock);
    say(existed ? `state loaded from ${path} (${summary(mock)})` : `keeping the state in ${path} (a new file)`);
    return mock;
  } catch (error) {
    if (!error.storage) throw error;
    if (!args.reset) {
      announce(args.spec, make());
      throw new Failure(
        `cannot load the state file ${path}: ${error.message}\nThe file was left as it is: fix it, move it away, choose another file with --state, or start with --reset to keep it aside and start fresh.`,
      );
    }
    const aside = `${path}.unreadable-${Math.floor(Date.now() / 1000)}`;
    try {
      renameSync(path, aside);
    } catch (renameError) {
      throw new Failure(`cannot save the state to ${path}: ${ioMessage(renameError)}`);
    }
    const mock = make(path);
    announce(args.spec, mock);
    say(`${path} could not be loaded (${error.message}); it is kept as ${aside} and the mock starts fresh`);
    say(`keeping the state in ${path} (a new file)`);
    return mock;
  }
}

/** What the state holds, in words. */
function summary(mock) {
  const resources = mock.resources();
  const items = resources.reduce((sum, resource) => sum + resource.count, 0);
  return `${items} items in ${resources.length} resources`;
}

/** Runs `mock` with its parsed flags until Ctrl-C or SIGTERM; gives the exit code. */
export async function mock(args) {
  checkCombinations(args);
  const module = await loadSiteModule();
  let served;
  try {
    let document;
    try {
      ({ document } = module.loadDescription(resolve(args.spec), fileReader(), process.cwd()));
    } catch (error) {
      throw new Failure(`cannot mock ${args.spec}: ${withoutName(messageOf(error), args.spec)}`);
    }
    served = openMock(await loadApiMock(), args, document, mockOptions(args));
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    say(error.message);
    return 1;
  }
  let changes = 0;
  served.onChange(() => changes++);
  const signal = stopSignals();
  let listening;
  try {
    listening = await listen((request, response) => handle(served, request, response), args.host, args.port);
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    say(error.message);
    return 1;
  }
  // stdout is the one line a script or test reads to find the port.
  process.stdout.write(`${PROGRAM} listening on http://${listening.address}\n`);
  await stopOn(signal, listening.server);
  if (args.state !== undefined) {
    // Every change was written and synced before it was answered: one write each.
    say(`state kept in ${args.state} (${changes} changes in ${changes} commits)`);
  }
  return 0;
}

/** Says what is mocked: the API, the file, the resources (the first 8 by name). */
function announce(spec, mock) {
  const resources = mock.resources();
  const names = resources.slice(0, 8).map((resource) => resource.collection);
  const more = resources.length > names.length ? ` and ${resources.length - names.length} more` : "";
  const listed = resources.length ? `: ${names.join(", ")}${more}` : "";
  say(`mocking ${mock.api} from ${spec}; ${resources.length} stored resources${listed}`);
}

async function handle(mock, request, response) {
  try {
    await answerWithMock(mock, request, response, targetOf(request.url));
  } catch (error) {
    say(`the request ${request.method} ${request.url} failed: ${messageOf(error)}`);
    if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    response.end();
  }
}

/** The path and query of a request's target (an absolute-form one read as its path). */
function targetOf(url) {
  if (url.startsWith("/")) return url;
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return "/";
  }
}

/**
 * A description's problem without the file's name in front when it is the file given (the
 * native server says `cannot mock FILE: PROBLEM`, and names the file only when it is another).
 */
function withoutName(message, spec) {
  const names = new Set([spec, resolve(spec)]);
  const cwd = process.cwd();
  const absolute = resolve(spec);
  if (absolute.startsWith(`${cwd}/`)) names.add(absolute.slice(cwd.length + 1));
  for (const name of names) if (message.startsWith(`${name}: `)) return message.slice(name.length + 2);
  return message;
}
