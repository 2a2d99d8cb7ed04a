// The command line's flags, read as the native `playground` (clap) reads them: `--name VALUE`
// or `--name=VALUE`, flags without values, repeated flags where allowed, values from a list
// (`--format text|markdown|json`), positional arguments (`diff OLD NEW`, all of them required;
// after `--` every word is one); a mistake is a usage error (exit 2) worded as clap words it,
// with the command's usage line.
import { PROGRAM } from "./common.js";

/** A mistake in the command line: printed as clap prints one, exit code 2. */
export class UsageError extends Error {
  constructor(message, usage) {
    super(message);
    this.usage = usage;
  }
}

/**
 * A command's flags. Each option: `{name, value?, required?, multiple?, default?, possible?,
 * parse?, help}` — `value` names the value (`"FILE"`; without it the option is a flag that is
 * true when given), `possible` lists the values it takes (clap's `value_enum`), `parse(text)`
 * turns the text into the value or throws an `Error` saying why. Each positional argument:
 * `{name, help}` (`"OLD"`, its value under `old`), required, in order. Positional arguments and
 * options whose value is a `FILE` or a `DIR` are paths (Rust's `PathBuf`), which clap refuses
 * empty.
 */
export class Command {
  constructor(name, about, options, positionals = []) {
    this.name = name;
    this.about = about;
    this.options = [...options, { name: "help", short: "h", help: "Print help" }];
    this.positionals = positionals;
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
    const positionals = this.positionals.map((positional) => `<${positional.name}>`);
    return [`${PROGRAM} ${this.name}`, ...(involved ? [] : ["[OPTIONS]"]), ...shown, ...positionals].join(" ");
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
      const possible = option.possible ? ` [possible values: ${option.possible.join(", ")}]` : "";
      return [flag, `${option.help}${fallback}${possible}`];
    });
    // clap aligns each section on its own.
    const section = (title, rows) => {
      const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
      return `${title}:\n${rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`).join("\n")}\n`;
    };
    const positionals = this.positionals.map((positional) => [`<${positional.name}>`, positional.help]);
    const argumentsSection = positionals.length ? `${section("Arguments", positionals)}\n` : "";
    return `${this.about}\n\nUsage: ${this.usage()}\n\n${argumentsSection}${section("Options", rows)}`;
  }

  /**
   * A usage error of this command. `involved`: the options it is about, for the usage line
   * (`[]`: those required), or `null` for no usage line (as clap shows none under a wrong value).
   */
  error(message, involved) {
    return new UsageError(message, involved === null ? null : this.usage(involved));
  }

  /** clap's tip under an unknown flag of a command with arguments: how to pass it as one. */
  tip(token) {
    return this.positionals.length ? `\n\n  tip: to pass '${token}' as a value, use '-- ${token}'` : "";
  }

  /** clap's list of the values `option` takes, under a message about it (empty without one). */
  possible(option) {
    return option.possible ? `\n  [possible values: ${option.possible.join(", ")}]` : "";
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
    const words = [];
    let onlyWords = false;
    // A word where the command takes one, else clap's refusal.
    const word = (token) => {
      if (words.length >= this.positionals.length) throw this.error(`unexpected argument '${token}' found`);
      if (token === "") throw this.error(`a value is required for '<${this.positionals[words.length].name}>' but none was supplied`, null);
      words.push(token);
    };
    for (let i = 0; i < argv.length; i++) {
      const token = argv[i];
      if (onlyWords) {
        word(token);
        continue;
      }
      if (token === "-h" || token === "--help") return { help: true };
      if (token.startsWith("--help=")) {
        throw this.error(`unexpected value '${token.slice(7)}' for '--help' found; no more were expected`, ["help"]);
      }
      if (this.positionals.length) {
        if (token === "--") {
          onlyWords = true;
          continue;
        }
        if (!looksLikeFlag(token)) {
          word(token);
          continue;
        }
      }
      if (!token.startsWith("--") || token === "--") throw this.error(`unexpected argument '${token}' found${this.tip(token)}`);
      const equals = token.indexOf("=");
      const name = token.slice(2, equals < 0 ? undefined : equals);
      const option = this.options.find((candidate) => candidate.name === name && candidate.name !== "help");
      if (!option) {
        const unknown = equals < 0 ? token : token.slice(0, equals);
        // clap's usage under an unknown flag of a command with arguments: without [OPTIONS].
        throw this.error(`unexpected argument '${unknown}' found${this.tip(unknown)}`, this.positionals.length ? [] : undefined);
      }
      let text;
      if (option.value) {
        if (equals >= 0) text = token.slice(equals + 1);
        else if (i + 1 < argv.length && !looksLikeFlag(argv[i + 1])) text = argv[++i];
        else throw this.error(`a value is required for '${this.shown(option)}' but none was supplied${this.possible(option)}`, null);
        if ((option.possible || PATH_VALUES.has(option.value)) && text === "") {
          throw this.error(`a value is required for '${this.shown(option)}' but none was supplied${this.possible(option)}`, null);
        }
        if (option.possible && !option.possible.includes(text)) {
          throw this.error(`invalid value '${text}' for '${this.shown(option)}'${this.possible(option)}`, null);
        }
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
    if (words.length < this.positionals.length) {
      // clap names the arguments missing, and the options given in its usage line.
      const names = this.positionals.slice(words.length).map((positional) => `  <${positional.name}>`).join("\n");
      throw this.error(`the following required arguments were not provided:\n${names}`, [...given.keys()]);
    }
    const values = { help: false };
    this.positionals.forEach((positional, i) => {
      values[camel(positional.name.toLowerCase())] = words[i];
    });
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

/** The values that are paths, which clap refuses empty. */
const PATH_VALUES = new Set(["FILE", "DIR"]);

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
