/**
 * Where the renderer finds the files it reads at run time (CanvasKit's wasm,
 * the DejaVu Sans font) in both ways the server runs:
 *
 * - `deno run` / `deno task start`: the project's `node_modules` folder
 *   (`deno task start` installs into it the packages the server imports;
 *   `deno install` all of them);
 * - a `deno compile` binary: the same relative path inside the binary's
 *   embedded file system, where `deno task compile` puts these files with
 *   `--include` (a compiled program maps `import.meta.url` into it).
 *
 * A path outside both (a global npm cache) is resolved as Node would, so a
 * caller started with `--node-modules-dir=none` still works.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
// The font package is only read, never imported as code: this import is what makes `deno task
// start` (npm packages installed lazily, as modules import them) install it.
import "dejavu-fonts-ttf/package.json" with { type: "json" };

/**
 * Files of npm packages read at run time; `deno task compile` embeds exactly
 * these (keep the two lists equal).
 */
export const RUNTIME_ASSETS: readonly string[] = [
  "canvaskit-wasm/bin/full/canvaskit.wasm",
  "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
];

/**
 * Local path of `specifier` (`package/path/in/package`), an entry of
 * {@link RUNTIME_ASSETS}.
 *
 * @example
 * ```ts
 * const wasm = packageAsset("canvaskit-wasm/bin/full/canvaskit.wasm");
 * ```
 */
export function packageAsset(specifier: string): string {
  const local = fileURLToPath(new URL(`../../node_modules/${specifier}`, import.meta.url));
  if (existsSync(local)) return local;
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    throw new Error(
      `The server cannot find ${specifier}: run it from the project folder (deno task start ` +
        `installs node_modules), or rebuild the binary with deno task compile.`,
    );
  }
}
