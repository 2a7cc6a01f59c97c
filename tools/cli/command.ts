/**
 * A command of `main.ts`: its name, one-line summary, positional arguments,
 * flags (declared once, `flags.ts`) and what it does with them. Its `--help`
 * and its usage errors come from the same declaration.
 *
 * @module
 */
import { type Flags, flagsHelp, parseFlags, UsageError, type Values } from "./flags.ts";

/** What a command module declares. */
export interface CommandSpec<F extends Flags> {
  name: string;
  /** One line for the top-level usage. */
  summary: string;
  /** The positional arguments in the synopsis (`FILE...`, `URL`); absent: none allowed. */
  positionals?: string;
  flags: F;
  /** Where the command is documented at length. */
  docs: string;
  /** Runs with the values read; resolves with the exit status. */
  run(values: Values<F>, positionals: string[]): Promise<number>;
}

/** A command as `main.ts` dispatches it: arguments in, exit status out. */
export interface Command {
  name: string;
  summary: string;
  /** `main.ts NAME ARGS [options]`. */
  synopsis: string;
  /** The whole `--help` text. */
  help(): string;
  /** Parses `args` (a UsageError when they are wrong) and runs. */
  run(args: string[]): Promise<number>;
}

/**
 * A command from its declaration.
 *
 * @example
 * ```ts
 * import { switchFlag } from "./flags.ts";
 * const hello = defineCommand({
 *   name: "hello",
 *   summary: "Says hello.",
 *   flags: { loud: switchFlag("Shout.") },
 *   docs: "README.md",
 *   run: (values) => {
 *     console.log(values.loud ? "HELLO" : "hello");
 *     return Promise.resolve(0);
 *   },
 * });
 * await hello.run(["--loud"]);
 * ```
 */
export function defineCommand<F extends Flags>(spec: CommandSpec<F>): Command {
  const synopsis = ["main.ts", spec.name, spec.positionals, "[options]"].filter(Boolean).join(" ");
  return {
    name: spec.name,
    summary: spec.summary,
    synopsis,
    help: () =>
      `Usage: ${synopsis}\n${spec.summary}\n\nOptions:\n${
        flagsHelp(spec.flags)
      }\n\nSee ${spec.docs}.`,
    run(args) {
      const { values, positionals } = parseFlags(spec.flags, args);
      if (spec.positionals === undefined && positionals.length > 0) {
        throw new UsageError(`Unexpected argument '${positionals[0]}'.`);
      }
      return spec.run(values, positionals);
    },
  };
}
