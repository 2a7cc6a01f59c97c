/**
 * `deno task compile [--output PATH] [--target TRIPLE]`: builds the server as
 * one executable with `deno compile`, embedding everything it reads at run
 * time that the module graph alone would miss: the render worker module and
 * the map-document loader the workers import by URL, CanvasKit's wasm and the
 * DejaVu Sans font (`map/render/_assets.ts`), and the web map's bundle: a
 * binary has no bundler, so the page's OpenLayers bundle is written first
 * (`routes/webmap/bundle.ts`, {@link PREBUILT_DIR}) and embedded. The
 * world-atlas data and the demo generator are imported modules, so they are
 * in the graph already.
 *
 * `deno compile` starts from a `denort` runtime that it downloads; set
 * `DENORT_BIN` to a local denort of the same Deno version where that download
 * is not reachable.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { RUNTIME_ASSETS } from "../map/render/_assets.ts";
import { PREBUILT_DIR, writeWebMapBundle } from "../routes/webmap/bundle.ts";

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
 * the project folder, where the command must run); {@link prepareCompile}
 * must have run first.
 *
 * @example
 * ```ts
 * const args = compileArgs("var/dist/catalog-server");
 * ```
 */
export function compileArgs(output: string, target?: string): string[] {
  // V8's collector exposed, as `deno task start` runs the server (map/render/collect.ts).
  const args = [
    "compile",
    "--allow-all",
    "--v8-flags=--expose-gc,--max-semi-space-size=8",
    "--output",
    output,
  ];
  if (target) args.push("--target", target);
  for (const m of RUNTIME_MODULES) args.push("--include", m);
  for (const a of RUNTIME_ASSETS) args.push("--include", `node_modules/${a}`);
  args.push("--include", PREBUILT_DIR);
  args.push("main.ts");
  return args;
}

/**
 * Writes what the binary embeds but the module graph does not hold: the web
 * map's bundle, into {@link PREBUILT_DIR} below `root` (the project folder).
 *
 * @example
 * ```ts
 * await prepareCompile(".");
 * ```
 */
export async function prepareCompile(root: string): Promise<void> {
  await writeWebMapBundle(`${root}/${PREBUILT_DIR}`);
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
  await prepareCompile(".");
  const status = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(values.output!, values.target),
  }).spawn().status;
  Deno.exit(status.code);
}
