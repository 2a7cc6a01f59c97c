/**
 * One CanvasKit instance per isolate (main thread or worker), loaded lazily
 * from the `bin/full` build, which unlike the default build can encode JPEG
 * and WEBP; plus the DejaVu Sans typeface (Latin and Cyrillic glyphs).
 *
 * @module
 */
import ckModule from "canvaskit-wasm/full";
import type { CanvasKit, CanvasKitInitOptions, Surface, Typeface } from "canvaskit-wasm";
import { packageAsset } from "./_assets.ts";

/** A loaded CanvasKit with the label typeface. */
export interface Kit {
  ck: CanvasKit;
  typeface: Typeface;
}

// The package is CommonJS: at run time the default import is the init
// function, while its typings describe an ES default export.
const CanvasKitInit = ckModule as unknown as (opts: CanvasKitInitOptions) => Promise<CanvasKit>;

let loading: Promise<Kit> | null = null;

/** A file inside an npm package, in node_modules or a compiled binary (`_assets.ts`). */
function packageFile(specifier: string): string {
  return packageAsset(specifier);
}

/**
 * The isolate's CanvasKit, loaded on first use (about 90 ms) and shared after.
 *
 * @example
 * ```ts
 * const { ck } = await loadKit();
 * ```
 */
export function loadKit(): Promise<Kit> {
  loading ??= (async () => {
    const wasm = packageFile("canvaskit-wasm/bin/full/canvaskit.wasm");
    const ck = await CanvasKitInit({ locateFile: () => wasm });
    const fontBytes = await Deno.readFile(packageFile("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"));
    const typeface = ck.Typeface.MakeFreeTypeFaceFromData(fontBytes.slice().buffer);
    if (!typeface) throw new Error("CanvasKit could not load the DejaVu Sans font.");
    return { ck, typeface };
  })();
  return loading;
}

const spare = new Map<string, Surface>();

/**
 * A raster surface of `w` x `h`, reused from the previous render of the
 * same size when there is one (allocating and first-touching a 4096 x 3072
 * surface in wasm memory costs tens of milliseconds). Give it back with
 * {@link releaseSurface}; draws are synchronous, so nothing else holds it.
 */
export function borrowSurface(kit: Kit, w: number, h: number): Surface | null {
  const key = `${w}x${h}`;
  const s = spare.get(key);
  if (s) {
    spare.delete(key);
    return s;
  }
  return kit.ck.MakeSurface(w, h);
}

/** Keeps `s` for the next render of its size (one spare per size, two sizes at most). */
export function releaseSurface(s: Surface): void {
  const key = `${s.width()}x${s.height()}`;
  if (spare.has(key) || spare.size >= 2) {
    s.delete();
    return;
  }
  spare.set(key, s);
}
