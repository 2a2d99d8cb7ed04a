// The command line's flags, read as the native `playground` (clap) reads them: `--name VALUE`
// or `--name=VALUE`, flags without values, repeated flags where allowed; a mistake is a usage
// error (exit 2) worded as clap words it, with the command's usage line.
import { PROGRAM } from "./common.js";

/** A mistake in the command line: printed as clap prints one, exit code 2. */
export class UsageError extends Error {
  constructor(message, usage) {
    super(message);
    this.usage = usage;
  }
}

/**
 * A command's flags. Each option: `{name, value?, required?, multiple?, default?, parse?, help}`
 * — `value` names the value (`"FILE"`; without it the option is a flag that is true when given),
 * `parse(text)` turns the text into the value or throws an `Error` saying why.
 */
export class Command {
  constructor(name, about, options) {
    this.name = name;
    this.about = about;
    this.options = [...options, { name: "help", short: "h", help: "Print help" }];
  }

  /** `--name <VALUE>` as clap shows an option in its messages. */
  shown(option) {
    return option.value ? `--${option.name} <${option.value}>` : `--${option.name}`;
  }

  /**
   * The usage line: `playground build [OPTIONS] --spec <FILE> --out <DIR>`; with `involved`
   * (option names), clap's usage of an error about them: the required options and those, without
   * `[OPTIONS]`.
   */
  usage(involved) {
    const required = this.options.filter((option) => option.required).map((option) => option.name);
    const names = involved ? [...new Set([...required, ...involved])] : required;
    const shown = names.map((name) => this.shown(this.option(name)));
    return [`${PROGRAM} ${this.name}`, ...(involved ? [] : ["[OPTIONS]"]), ...shown].join(" ");
  }

  /** The option called `name`. */
  option(name) {
    return this.options.find((option) => option.name === name);
  }

  /** The `--help` text. */
  help() {
    const rows = this.options.filter((option) => !option.hidden).map((option) => {
      const flag = `${option.short ? `-${option.short}, ` : "    "}${this.shown(option)}`;
      const fallback = option.default !== undefined ? ` [default: ${option.default}]` : "";
      return [flag, `${option.help}${fallback}`];
    });
    const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
    const lines = rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`);
    return `${this.about}\n\nUsage: ${this.usage()}\n\nOptions:\n${lines.join("\n")}\n`;
  }

  /**
   * A usage error of this command. `involved`: the options it is about, for the usage line
   * (`[]`: those required), or `null` for no usage line (as clap shows none under a wrong value).
   */
  error(message, involved) {
    return new UsageError(message, involved === null ? null : this.usage(involved));
  }

  /** A usage error for the options `missing`, which the command line needs; `because`: the given options that ask for them. */
  missing(missing, because = []) {
    const names = missing.map((name) => `  ${this.shown(this.option(name))}`).join("\n");
    return this.error(`the following required arguments were not provided:\n${names}`, [...missing, ...because]);
  }

  /**
   * The values of `argv`, by option name (flags true or false, repeated options arrays, the
   * others their parsed value or `undefined`); `{help: true}` when help is asked for.
   * Throws a `UsageError` for a flag it does not know, a missing or unparsable value, a
   * required option left out.
   */
  parse(argv) {
    const given = new Map();
    for (let i = 0; i < argv.length; i++) {
      const token = argv[i];
      if (token === "-h" || token === "--help") return { help: true };
      if (token.startsWith("--help=")) {
        throw this.error(`unexpected value '${token.slice(7)}' for '--help' found; no more were expected`, ["help"]);
      }
      if (!token.startsWith("--") || token === "--") throw this.error(`unexpected argument '${token}' found`);
      const equals = token.indexOf("=");
      const name = token.slice(2, equals < 0 ? undefined : equals);
      const option = this.options.find((candidate) => candidate.name === name && candidate.name !== "help");
      if (!option) throw this.error(`unexpected argument '${equals < 0 ? token : token.slice(0, equals)}' found`);
      let text;
      if (option.value) {
        if (equals >= 0) text = token.slice(equals + 1);
        else if (i + 1 < argv.length && !looksLikeFlag(argv[i + 1])) text = argv[++i];
        else throw this.error(`a value is required for '${this.shown(option)}' but none was supplied`, null);
      } else if (equals >= 0) {
        throw this.error(`unexpected value '${token.slice(equals + 1)}' for '${this.shown(option)}' found; no more were expected`, [name]);
      }
      if (given.has(name) && !option.multiple) {
        throw this.error(`the argument '${this.shown(option)}' cannot be used multiple times`);
      }
      let value = true;
      if (option.value) {
        try {
          value = option.parse ? option.parse(text) : text;
        } catch (error) {
          throw this.error(`invalid value '${text}' for '${this.shown(option)}': ${error.message}`, null);
        }
      }
      given.set(name, option.multiple ? [...(given.get(name) ?? []), value] : value);
    }
    const missing = this.options.filter((option) => option.required && !given.has(option.name));
    if (missing.length) throw this.missing(missing.map((option) => option.name));
    const values = { help: false };
    for (const option of this.options) {
      if (option.name === "help") continue;
      const key = camel(option.name);
      if (given.has(option.name)) values[key] = given.get(option.name);
      else if (option.multiple) values[key] = [];
      else if (!option.value) values[key] = false;
      else values[key] = option.default !== undefined ? (option.parse ? option.parse(option.default) : option.default) : undefined;
    }
    // The options given, in the order they first came (a Map keeps it).
    values.given = [...given.keys()];
    return values;
  }
}

/** Whether a token is a flag rather than a value (clap takes no value starting with `-`). */
function looksLikeFlag(token) {
  return token.startsWith("-") && token !== "-";
}

/** `no-validation` as `noValidation`. */
function camel(name) {
  return name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
}

/** An unsigned integer of at most `max` (a port: 65535), worded as clap refuses one. */
export function unsigned(max) {
  return (text) => {
    if (!/^\+?[0-9]+$/.test(text)) throw new Error(text === "" ? "cannot parse integer from empty string" : "invalid digit found in string");
    const value = Number(text);
    if (value > max) throw new Error(`${text} is not in 0..=${max}`);
    return value;
  };
}

/** A number such as `0.1`, as Rust's `f64` reads one. */
export function float(text) {
  if (!/^[+-]?(inf|infinity|nan|([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?)$/i.test(text)) {
    throw new Error("invalid float literal");
  }
  if (/nan/i.test(text)) return NaN;
  if (/inf/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  return Number(text);
}

/** Prints a usage error as clap does, on stderr; gives the exit code (2). */
export function printUsageError(error) {
  const usage = error.usage === null ? "" : `Usage: ${error.usage}\n\n`;
  process.stderr.write(`error: ${error.message}\n\n${usage}For more information, try '--help'.\n`);
  return 2;
}
