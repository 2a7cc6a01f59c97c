/**
 * The flags of a command, declared once as data (name, value placeholder,
 * default, help text, what a good value is): the parsing, the usage errors
 * ("Unknown option '--x'", "--port must be ...") and the `--help` text are all
 * derived from that one declaration, so they cannot drift apart.
 *
 * @module
 */
import { parseArgs } from "node:util";

/** A command line a user can fix: its message is printed with a pointer to `--help` (status 2). */
export class UsageError extends Error {}

/**
 * One flag: a switch (`--trust-proxy`) or a flag with a value (`--port N`),
 * turned into a `T` by `read`.
 */
export interface Flag<T> {
  /** The value's placeholder in the usage (`N`, `PATH`); absent for a switch. */
  arg?: string;
  /** One line on what the flag does. */
  help: string;
  /** The value when the flag is absent, as a user would type it (shown in `--help`). */
  default?: string;
  /** An environment variable read when the flag is absent (before the default). */
  env?: string;
  /** The flag's value from its text (`undefined`: absent, no default); throws a UsageError. */
  read(text: string | undefined, name: string): T;
}

/** A command's flags by name (without the leading `--`). */
export type Flags = Record<string, Flag<unknown>>;

/** The values of `F` once read. */
export type Values<F extends Flags> = { [K in keyof F]: F[K] extends Flag<infer T> ? T : never };

/**
 * A switch: `true` when given.
 *
 * @example
 * ```ts
 * const trustProxy = switchFlag("Trust X-Forwarded-* headers.");
 * ```
 */
export function switchFlag(help: string): Flag<boolean> {
  return { help, read: (text) => text !== undefined };
}

/**
 * A flag whose value is kept as typed (a path, a name, a URL); `must`, when
 * given, is what a good value looks like.
 *
 * @example
 * ```ts
 * const db = textFlag("PATH", "SQLite catalogue.", { default: "var/catalog.db" });
 * const maps = textFlag("DIR", "Map documents.");
 * ```
 */
export function textFlag(
  arg: string,
  help: string,
  opts: { default: string; must?: [RegExp, string] },
): Flag<string>;
export function textFlag(
  arg: string,
  help: string,
  opts?: { must?: [RegExp, string] },
): Flag<string | undefined>;
export function textFlag(
  arg: string,
  help: string,
  opts: { default?: string; must?: [RegExp, string] } = {},
): Flag<string | undefined> {
  return {
    arg,
    help,
    default: opts.default,
    read(text, name) {
      if (text !== undefined && opts.must && !opts.must[0].test(text)) {
        throw new UsageError(`--${name} must be ${opts.must[1]}, got "${text}".`);
      }
      return text;
    },
  };
}

/**
 * A flag whose value is one of `choices` (the usage error lists them).
 *
 * @example
 * ```ts
 * const engine = choiceFlag("E", "Who speaks HTTP.", ["hyper", "js"] as const, "hyper");
 * engine.read("js", "http-engine"); // "js"
 * ```
 */
export function choiceFlag<T extends string>(
  arg: string,
  help: string,
  choices: readonly T[],
  fallback: T,
): Flag<T> {
  return {
    arg,
    help,
    default: fallback,
    read(text, name) {
      if (text === undefined) return fallback;
      if (!(choices as readonly string[]).includes(text)) {
        const list = choices.map((c) => `"${c}"`).join(" or ");
        throw new UsageError(`--${name} must be ${list}, got "${text}".`);
      }
      return text as T;
    },
  };
}

/** What a number flag accepts. */
export interface NumberRule {
  /** Digits only (no fraction, no sign). */
  whole?: boolean;
  /** The smallest value accepted. */
  min?: number;
  /** Values must be above this one. */
  above?: number;
  /** The largest value accepted. */
  max?: number;
  /** What a good value is, for the error: `--flag must be ${must}, got "x".` */
  must: string;
}

/**
 * A number flag (`--port N`), checked against `rule`.
 *
 * @example
 * ```ts
 * const port = numberFlag("N", "Port.", { whole: true, max: 65535, must: "0-65535" }, {
 *   default: "8000",
 * });
 * ```
 */
export function numberFlag(
  arg: string,
  help: string,
  rule: NumberRule,
  opts: { default: string; env?: string },
): Flag<number>;
export function numberFlag(
  arg: string,
  help: string,
  rule: NumberRule,
  opts?: { env?: string },
): Flag<number | undefined>;
export function numberFlag(
  arg: string,
  help: string,
  rule: NumberRule,
  opts: { default?: string; env?: string } = {},
): Flag<number | undefined> {
  return {
    arg,
    help,
    default: opts.default,
    env: opts.env,
    read(text, name) {
      if (text === undefined) return undefined;
      const n = Number(text);
      const ok = (rule.whole ? /^\d+$/ : /^\d+(\.\d+)?$/).test(text) &&
        (rule.min === undefined || n >= rule.min) &&
        (rule.above === undefined || n > rule.above) &&
        (rule.max === undefined || n <= rule.max);
      if (!ok) throw new UsageError(`--${name} must be ${rule.must}, got "${text}".`);
      return n;
    },
  };
}

/**
 * Reads `args` against `flags`: the values (defaults and environment filled
 * in) and the positional arguments.
 *
 * @example
 * ```ts
 * const { values } = parseFlags({ db: textFlag("PATH", "Database.", { default: "a.db" }) }, []);
 * values.db; // "a.db"
 * ```
 */
export function parseFlags<F extends Flags>(
  flags: F,
  args: string[],
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): { values: Values<F>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(flags).map((
      [name, f],
    ) => [name, { type: f.arg === undefined ? "boolean" as const : "string" as const }]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(_parseMessage(err as Error));
  }
  const values: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(flags)) {
    const given = parsed.values[name];
    const text = given === undefined
      ? (f.env === undefined ? undefined : env(f.env)) ?? f.default
      : String(given);
    values[name] = f.arg === undefined ? given === true : f.read(text, name);
  }
  return { values: values as Values<F>, positionals: parsed.positionals };
}

/** node:util's parse errors, shortened to the part a user needs. */
function _parseMessage(err: Error): string {
  const code = (err as { code?: string }).code;
  const option = err.message.match(/'(-[^']*)'/)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) return `Unknown option '${option}'.`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    return /argument missing/.test(err.message)
      ? `Option '${option}' needs a value.`
      : `Option '${option}' takes no value.`;
  }
  return err.message;
}

/**
 * The options part of a command's `--help`: one line per flag, its
 * placeholder, help text and default, aligned.
 *
 * @example
 * ```ts
 * console.log(flagsHelp({ db: textFlag("PATH", "Database.", { default: "a.db" }) }));
 * ```
 */
export function flagsHelp(flags: Flags): string {
  const rows = Object.entries(flags).map(([name, f]) => {
    const left = f.arg === undefined ? `--${name}` : `--${name} ${f.arg}`;
    const dflt = [f.env && `$${f.env}`, f.default].filter(Boolean).join(", else ");
    return [left, dflt ? `${f.help.replace(/\.$/, "")} (default: ${dflt}).` : f.help];
  });
  rows.push(["--help, -h", "This text."]);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, help]) => `  ${left.padEnd(width)}${help}`).join("\n");
}

/** Where the database lives unless `--db` says otherwise. */
export const DEFAULT_DB = "var/catalog.db";

/** `--db PATH`, the same for every command. */
export const DB_FLAG: Flag<string> = textFlag("PATH", "The SQLite catalogue database.", {
  default: DEFAULT_DB,
});
