/**
 * Command line of the recruitment catalogue and map server: the table of
 * commands (each a module of `tools/cli/`, its flags declared once there)
 * and the top-level usage.
 *
 * ```
 * deno task start [--port 8000] [--host 0.0.0.0] [--db var/catalog.db] [--maps DIR] ...
 * deno task import FILE... [--db PATH] [--collection agency|vacancy|competition]
 * deno task sync URL [--db PATH] [--max-pages N] [--max-records N]
 * deno task demo [--db PATH] [--scale N] [--force]
 * deno task seed-tiles [--levels 0-6] [--service NAME] [--map NAME]
 * main.ts COMMAND --help
 * ```
 *
 * @module
 */
import type { Command } from "./tools/cli/command.ts";
import { UsageError } from "./tools/cli/flags.ts";
import { startFailure } from "./tools/cli/failures.ts";
import { serveCommand } from "./tools/cli/serve.ts";
import { importCommand } from "./tools/cli/import.ts";
import { syncCommand } from "./tools/cli/sync.ts";
import { demoCommand } from "./tools/cli/demo.ts";
import { seedTilesCommand } from "./tools/cli/seed_tiles.ts";

export { DEFAULT_DB } from "./tools/cli/flags.ts";
export { type RunningServer, type StartOptions, startServer } from "./tools/cli/server.ts";

/** The commands, in the order the usage lists them. */
const COMMANDS: readonly Command[] = [
  serveCommand,
  importCommand,
  syncCommand,
  demoCommand,
  seedTilesCommand,
];

/** The top-level usage: each command's synopsis and summary. */
function _usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.synopsis.length)) + 2;
  return [
    "Usage:",
    ...COMMANDS.map((c) => `  ${c.synopsis.padEnd(width)}${c.summary}`),
    "",
    "`main.ts COMMAND --help` lists a command's options; without a command, serve.",
  ].join("\n");
}

/**
 * Runs a command line; returns the process exit code (0 done, 1 failed,
 * 2 a usage error).
 *
 * @example
 * ```ts
 * const code = await run(["demo", "--help"]);
 * ```
 */
export async function run(argv: string[]): Promise<number> {
  const [name = "serve", ...rest] = argv[0]?.startsWith("-") && argv[0] !== "--help" &&
      argv[0] !== "-h"
    ? ["serve", ...argv]
    : argv;
  if (name === "help" || name === "--help" || name === "-h") {
    console.log(_usage());
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command "${name}".\n${_usage()}`);
    return 2;
  }
  if (rest.some((a) => a === "--help" || a === "-h")) {
    console.log(command.help());
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\`main.ts ${name} --help\` lists its options.`);
      return 2;
    }
    // Start-up failures a user can fix: one line naming what to change, no stack trace.
    const failure = startFailure(err);
    if (failure === undefined) throw err;
    console.error(failure);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await run(Deno.args));
