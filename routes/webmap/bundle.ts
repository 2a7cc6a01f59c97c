/**
 * The web map's script and style sheet: `app.ts` bundled with OpenLayers
 * (npm `ol`, pinned in deno.json) into one ES module and one CSS file, so
 * the browser loads two files from this server and nothing from a CDN.
 *
 * - `deno task start`: bundled in process on first use with Deno's own
 *   bundler (`Deno.bundle`, unstable `bundle` in deno.json), which runs
 *   esbuild from its npm package; about a second, then kept in memory.
 * - a `deno task compile` binary has no bundler: `tools/compile.ts` writes
 *   the bundle with {@link writeWebMapBundle} into {@link PREBUILT_DIR} and
 *   embeds it; {@link WebMapBundle} reads it from there in a binary.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The bundled files. */
export interface WebMapAssets {
  /** ES module (OpenLayers and the page's code). */
  js: Uint8Array;
  /** OpenLayers' style sheet. */
  css: Uint8Array;
}

const ENTRY = new URL("./app.ts", import.meta.url).href;

/** Folder (relative to the project) where `deno task compile` puts the prebuilt bundle. */
export const PREBUILT_DIR = "var/build/webmap";

/** File names of the bundle inside {@link PREBUILT_DIR}. */
export const BUNDLE_FILES = { js: "app.js", css: "app.css" } as const;

/**
 * Bundles the web map now with `Deno.bundle` (minified ES module + CSS).
 *
 * @example
 * ```ts
 * const { js, css } = await bundleWebMap();
 * ```
 */
export async function bundleWebMap(): Promise<WebMapAssets> {
  if (typeof Deno.bundle !== "function") {
    throw new Error("this Deno has no bundler (Deno.bundle; run with --unstable-bundle)");
  }
  const result = await Deno.bundle({
    entrypoints: [ENTRY],
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    outputDir: "/webmap",
  });
  if (!result.success) {
    throw new Error(`bundling the web map failed: ${result.errors.map((e) => e.text).join("; ")}`);
  }
  const files = result.outputFiles ?? [];
  const pick = (ext: string) => {
    const file = files.find((f) => f.path.endsWith(ext));
    if (!file) throw new Error(`the web map bundle has no ${ext} file`);
    return file.contents ?? new TextEncoder().encode(file.text());
  };
  return { js: pick(".js"), css: pick(".css") };
}

/**
 * Writes the bundle into `dir` (for `deno task compile`); returns the paths written.
 *
 * @example
 * ```ts
 * await writeWebMapBundle("var/build/webmap");
 * ```
 */
export async function writeWebMapBundle(dir: string): Promise<string[]> {
  const assets = await bundleWebMap();
  await Deno.mkdir(dir, { recursive: true });
  const paths = [join(dir, BUNDLE_FILES.js), join(dir, BUNDLE_FILES.css)];
  await Deno.writeFile(paths[0], assets.js);
  await Deno.writeFile(paths[1], assets.css);
  return paths;
}

/** Options of {@link WebMapBundle}. */
export interface WebMapBundleOptions {
  /** Bundles the page (default {@link bundleWebMap}). */
  bundle?: () => Promise<WebMapAssets>;
  /** Read the prebuilt bundle instead of bundling (default: in a `deno compile` binary). */
  prebuilt?: boolean;
  /** Folder of the prebuilt bundle (default {@link PREBUILT_DIR} in the project). */
  prebuiltDir?: string;
}

/**
 * The bundle, made (or, in a compiled binary, read) once on first use and
 * kept; a failure is kept too, so every request answers the same until a
 * restart.
 *
 * @example
 * ```ts
 * const bundle = new WebMapBundle();
 * const { js } = await bundle.assets();
 * ```
 */
export class WebMapBundle {
  #pending: Promise<WebMapAssets> | undefined;
  #options: WebMapBundleOptions;

  constructor(options: WebMapBundleOptions = {}) {
    this.#options = options;
  }

  /** The bundled files (bundling on the first call). */
  assets(): Promise<WebMapAssets> {
    this.#pending ??= this.#load();
    return this.#pending;
  }

  async #load(): Promise<WebMapAssets> {
    if (!(this.#options.prebuilt ?? Deno.build.standalone)) {
      return await (this.#options.bundle ?? bundleWebMap)();
    }
    const dir = this.#options.prebuiltDir ??
      fileURLToPath(new URL(`../../${PREBUILT_DIR}`, import.meta.url));
    try {
      return {
        js: await Deno.readFile(join(dir, BUNDLE_FILES.js)),
        css: await Deno.readFile(join(dir, BUNDLE_FILES.css)),
      };
    } catch (e) {
      throw new Error(
        `The web map's prebuilt bundle is missing from ${dir} (${
          e instanceof Error ? e.message : e
        }): build the binary with deno task compile.`,
      );
    }
  }
}
