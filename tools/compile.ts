/**
 * `deno task compile [--output PATH] [--target TRIPLE]`: builds the server as
 * one executable with `deno compile`, embedding everything it reads at run
 * time that the module graph alone would miss: the render worker module and
 * the map-document loader the workers import by URL, CanvasKit's wasm and the
 * DejaVu Sans font (`map/render/_assets.ts`). The world-atlas data and the
 * demo generator are imported modules, so they are in the graph already.
 *
 * `deno compile` starts from a `denort` runtime that it downloads; set
 * `DENORT_BIN` to a local denort of the same Deno version where that download
 * is not reachable.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { RUNTIME_ASSETS } from "../map/render/_assets.ts";

/** Where the binary goes by default (git-ignored). */
export const DEFAULT_OUTPUT = "var/dist/catalog-server";

/** Modules started or imported by URL at run time, which `deno compile` cannot see. */
export const RUNTIME_MODULES: readonly string[] = [
  "map/render/_worker.ts",
  "map/document/mod.ts",
  "data/_reader_worker.ts",
];

/**
 * The `deno compile` arguments for a binary at `output` (paths relative to
 * the project folder, where the command must run).
 *
 * @example
 * ```ts
 * const args = compileArgs("var/dist/catalog-server");
 * ```
 */
export function compileArgs(output: string, target?: string): string[] {
  const args = ["compile", "--allow-all", "--output", output];
  if (target) args.push("--target", target);
  for (const m of RUNTIME_MODULES) args.push("--include", m);
  for (const a of RUNTIME_ASSETS) args.push("--include", `node_modules/${a}`);
  args.push("main.ts");
  return args;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      output: { type: "string", short: "o", default: DEFAULT_OUTPUT },
      target: { type: "string" },
    },
  });
  Deno.chdir(new URL("..", import.meta.url));
  const status = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(values.output!, values.target),
  }).spawn().status;
  Deno.exit(status.code);
}
