/**
 * One CanvasKit instance per isolate (main thread or worker), loaded lazily
 * from the `bin/full` build, which unlike the default build can encode JPEG
 * and WEBP; plus the DejaVu Sans typeface (Latin and Cyrillic glyphs).
 *
 * Memory: CanvasKit's wasm heap grows up to 2 GiB and never shrinks, so
 * every object made here has one owner that frees it. A raster surface's
 * pixels are a separate `malloc` that only `Surface.dispose()` frees
 * (`delete()` leaks them): surfaces are made and freed only through
 * {@link makeRasterSurface} or {@link borrowSurface} / {@link freeSurface}.
 * Map surfaces ({@link borrowSurface}) sit on pixel memory we allocate, so
 * a finished image can be read in place ({@link surfacePixels}) instead of
 * through `readPixels`' malloc'd copy.
 *
 * @module
 */
import ckModule from "canvaskit-wasm/full";
import type {
  CanvasKit,
  CanvasKitInitOptions,
  Color,
  ImageInfo,
  MallocObj,
  Surface,
  Typeface,
} from "canvaskit-wasm";
import { packageAsset } from "./_assets.ts";
import { Scratch, SCRATCH_LIMIT_BYTES } from "./_scratch.ts";
import type { WasmHeap } from "./_rgb_rows.ts";

/** A loaded CanvasKit with the label typeface. */
export interface Kit {
  ck: CanvasKit;
  typeface: Typeface;
  /**
   * CanvasKit's wasm memory, where it draws (see {@link instantiateKit});
   * absent if it could not be found, and then nothing is done in place.
   */
  memory?: WebAssembly.Memory;
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
    const { ck, memory } = await instantiateKit({ locateFile: () => wasm });
    const fontBytes = await Deno.readFile(packageFile("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"));
    const typeface = ck.Typeface.MakeFreeTypeFaceFromData(fontBytes.slice().buffer);
    if (!typeface) throw new Error("CanvasKit could not load the DejaVu Sans font.");
    return { ck, typeface, memory };
  })();
  return loading;
}

/**
 * Starts CanvasKit and finds its wasm memory, which the package does not
 * expose: the module instances made while it starts are noted (it
 * instantiates its module through `WebAssembly.instantiate`, wrapped for
 * that call alone) and the memory is the export whose buffer is
 * CanvasKit's heap. Code of ours that works on drawn pixels where they are
 * (the PNG24 packer) is instantiated on it. The memory is undefined when no
 * export matches (another CanvasKit build): the pixels are then copied out.
 */
async function instantiateKit(
  opts: CanvasKitInitOptions,
): Promise<{ ck: CanvasKit; memory: WebAssembly.Memory | undefined }> {
  const instantiate = WebAssembly.instantiate;
  const made: WebAssembly.Instance[] = [];
  const noting = async (...args: Parameters<typeof WebAssembly.instantiate>) => {
    const r = await (instantiate as (...a: unknown[]) => Promise<unknown>)(...args);
    made.push(
      r instanceof WebAssembly.Instance ? r : (r as { instance: WebAssembly.Instance }).instance,
    );
    return r;
  };
  WebAssembly.instantiate = noting as typeof WebAssembly.instantiate;
  let ck: CanvasKit;
  try {
    ck = await CanvasKitInit(opts);
  } finally {
    WebAssembly.instantiate = instantiate;
  }
  const heap = (ck as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer;
  const memory = made.flatMap((i) => Object.values(i.exports)).find((e) =>
    e instanceof WebAssembly.Memory && e.buffer === heap
  ) as WebAssembly.Memory | undefined;
  return { ck, memory };
}

/**
 * Forgets the isolate's CanvasKit (after an out-of-memory failure or when
 * its heap passed a limit): the next {@link loadKit} starts a fresh
 * instance, and the old heap is garbage once its last job is done.
 */
export function discardKit(kit: Kit): void {
  spares.get(kit)?.clear();
  spares.delete(kit);
  scratches.get(kit)?.close();
  scratches.delete(kit);
  readBuffers.delete(kit);
  packBuffers.delete(kit);
  loading = null;
}

/** Bytes of the kit's wasm heap (it only ever grows). */
export function heapBytes(kit: Kit): number {
  // Emscripten's view of the heap (re-made on growth); not in CanvasKit's typings.
  return (kit.ck as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer.byteLength;
}

/**
 * Raised when CanvasKit cannot allocate what a drawing needs. The kit that
 * raised it should be discarded (a pool recycles its worker), so the
 * failure never carries over to later requests.
 */
export class RenderMemoryError extends Error {
  /** Creates the error; `what` names the allocation (e.g. "a 4096x4096 image"). */
  constructor(what: string) {
    super(
      `The renderer ran out of memory for ${what}; ask for a smaller image or try again ` +
        `in a moment.`,
    );
    this.name = "RenderMemoryError";
  }
}

/**
 * Whether `err` means the kit's wasm heap is exhausted or CanvasKit aborted
 * (after an abort every later call into that instance fails too).
 */
export function isKitFailure(err: unknown): boolean {
  if (err instanceof RenderMemoryError || err instanceof WebAssembly.RuntimeError) return true;
  if (!(err instanceof Error)) return /out of memory|Aborted\(/i.test(String(err));
  return err.name === "RenderMemoryError" || /out of memory|Aborted\(/i.test(err.message);
}

/**
 * A `w` x `h` raster surface (RGBA 8888), or a {@link RenderMemoryError}
 * naming `what` when the heap cannot hold it. Free it with
 * {@link freeSurface}.
 */
export function makeRasterSurface(kit: Kit, w: number, h: number, what: string): Surface {
  const s = kit.ck.MakeSurface(w, h);
  if (!s) throw new RenderMemoryError(what);
  return s;
}

/** Pixel memory of the surfaces made by {@link borrowSurface}, which we allocate ourselves. */
const ownPixels = new WeakMap<Surface, { ck: CanvasKit; pixels: MallocObj }>();

/**
 * A cleared RGBA 8888 surface over pixel memory this module allocated, so
 * {@link surfacePixels} can read it in place; null when the heap cannot
 * hold it.
 *
 * Its pixels are stored premultiplied, unlike `MakeSurface`'s: Skia then
 * blends in its 8-bit pipeline, which draws the antialiased hairlines of
 * polygon outlines about twice as fast as the float pipeline an
 * unpremultiplied surface needs (10 against 5.5 ms for a world map of the
 * 50m countries, issue 9). Every read of a map's pixels already went
 * through premultiplied values (the compositor reads premultiplied and
 * unpremultiplies; opaque pixels are the same either way), so only the
 * blending arithmetic changes: antialiased edge pixels differ by a few
 * levels (bench/README.md history in git, issue 9, eighth step).
 */
function makeOwnedSurface(kit: Kit, w: number, h: number): Surface | null {
  const { ck } = kit;
  const pixels = ck.Malloc(Uint8Array, w * h * 4);
  if (!pixels.byteOffset) return null;
  const s = ck.MakeRasterDirectSurface(
    {
      width: w,
      height: h,
      colorType: ck.ColorType.RGBA_8888,
      alphaType: ck.AlphaType.Premul,
      colorSpace: ck.ColorSpace.SRGB,
    },
    pixels,
    w * 4,
  );
  if (!s) {
    ck.Free(pixels);
    return null;
  }
  s.getCanvas().clear(ck.TRANSPARENT);
  ownPixels.set(s, { ck, pixels });
  return s;
}

/**
 * The pixels of a surface made by {@link borrowSurface}, in place in the
 * wasm heap (premultiplied RGBA, as stored; the same as unpremultiplied
 * where alpha is 255): valid only until the next call into
 * CanvasKit, which may grow and so move the heap. Null for other surfaces.
 */
export function surfacePixels(s: Surface): Uint8Array | null {
  const own = ownPixels.get(s);
  if (!own) return null;
  s.flush();
  return own.pixels.toTypedArray() as Uint8Array;
}

/** Frees a surface made by {@link makeRasterSurface} or {@link borrowSurface}, pixels included. */
export function freeSurface(s: Surface): void {
  const own = ownPixels.get(s);
  if (own) {
    ownPixels.delete(s);
    s.delete();
    own.ck.Free(own.pixels);
    return;
  }
  // dispose() frees the malloc'd pixels, then deletes the Skia object.
  s.dispose();
}

/** Bytes of one spare surface kept between renders at most (a 4096 x 4096 image). */
export const SPARE_SURFACE_BYTES = 4096 * 4096 * 4;

/** Spare surfaces of one kit, bounded by their total pixel bytes (most recent kept). */
class SpareSurfaces {
  #bySize = new Map<string, Surface>();
  #bytes = 0;
  readonly #budget: number;

  constructor(budget: number) {
    this.#budget = budget;
  }

  take(w: number, h: number): Surface | null {
    const key = `${w}x${h}`;
    const s = this.#bySize.get(key);
    if (!s) return null;
    this.#bySize.delete(key);
    this.#bytes -= w * h * 4;
    return s;
  }

  give(s: Surface): void {
    const w = s.width(), h = s.height(), bytes = w * h * 4;
    const key = `${w}x${h}`;
    if (bytes > this.#budget || this.#bySize.has(key)) {
      freeSurface(s);
      return;
    }
    // Oldest first out until the newcomer fits: cycling sizes cannot grow the total.
    for (const [k, old] of this.#bySize) {
      if (this.#bytes + bytes <= this.#budget) break;
      this.#bySize.delete(k);
      this.#bytes -= old.width() * old.height() * 4;
      freeSurface(old);
    }
    this.#bySize.set(key, s);
    this.#bytes += bytes;
  }

  get bytes(): number {
    return this.#bytes;
  }

  surfaces(): IterableIterator<Surface> {
    return this.#bySize.values();
  }

  clear(): void {
    for (const s of this.#bySize.values()) freeSurface(s);
    this.#bySize.clear();
    this.#bytes = 0;
  }
}

const spares = new WeakMap<Kit, SpareSurfaces>();

function sparesOf(kit: Kit): SpareSurfaces {
  let s = spares.get(kit);
  if (!s) spares.set(kit, s = new SpareSurfaces(SPARE_SURFACE_BYTES));
  return s;
}

/**
 * A raster surface of `w` x `h` cleared to `background`, reused from an
 * earlier render of the same size when one is spare (allocating and
 * first-touching a 4096 x 3072 surface in wasm memory costs tens of
 * milliseconds). Give it back with
 * {@link releaseSurface}; draws are synchronous, so nothing else holds it.
 * Throws {@link RenderMemoryError} when the heap cannot hold it, after
 * freeing the spares in case that makes room.
 */
export function borrowSurface(kit: Kit, w: number, h: number, background: Color): Surface {
  const s = takeSurface(kit, w, h);
  // A spare already cleared to this colour (see clearSpareSurfaces) is not cleared again.
  const was = clearedTo.get(s);
  clearedTo.delete(s);
  if (!was || !sameColor(was, background)) s.getCanvas().clear(background);
  borrowedWith.set(s, background);
  return s;
}

function takeSurface(kit: Kit, w: number, h: number): Surface {
  const spare = sparesOf(kit);
  const hit = spare.take(w, h);
  if (hit) return hit;
  const s = makeOwnedSurface(kit, w, h);
  if (s) return s;
  spare.clear();
  const retry = makeOwnedSurface(kit, w, h);
  if (!retry) throw new RenderMemoryError(`a ${w}x${h} image`);
  return retry;
}

function sameColor(a: Color, b: Color): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}

/** The background each borrowed surface was cleared to. */
const borrowedWith = new WeakMap<Surface, Color>();
/** Spares cleared ahead of their next use, and to what. */
const clearedTo = new WeakMap<Surface, Color>();
/** Spares drawn on since they were last cleared, with the background of that drawing. */
const drawnOn = new WeakMap<Surface, Color>();

/**
 * Keeps `s` for a later render of its size while the kit's spares stay
 * within {@link SPARE_SURFACE_BYTES} in total (the oldest are freed first);
 * frees it otherwise.
 */
export function releaseSurface(kit: Kit, s: Surface): void {
  const background = borrowedWith.get(s);
  borrowedWith.delete(s);
  if (background) drawnOn.set(s, background);
  sparesOf(kit).give(s);
}

/**
 * Clears the spares given back since the last call to the background they
 * were drawn on, so the next render of that size and background need not:
 * a render thread calls it once it has replied, while the image's pages
 * are still fresh (on the project's VM, clearing a 1024x768 surface takes
 * 0.3 ms then and 2-3 ms after a pause between views, when every page
 * costs a walk of cold page tables). A spare freed meanwhile is skipped.
 */
export function clearSpareSurfaces(kit: Kit): void {
  for (const s of spares.get(kit)?.surfaces() ?? []) {
    const background = drawnOn.get(s);
    if (!background) continue;
    drawnOn.delete(s);
    s.getCanvas().clear(background);
    clearedTo.set(s, background);
  }
}

/** Bytes held by the kit's spare surfaces (tests and diagnostics). */
export function spareSurfaceBytes(kit: Kit): number {
  return spares.get(kit)?.bytes ?? 0;
}

const scratches = new WeakMap<Kit, Scratch>();

/** The kit's reusable work buffers (see _scratch.ts): one job at a time uses them. */
export function scratchOf(kit: Kit): Scratch {
  let s = scratches.get(kit);
  if (!s) scratches.set(kit, s = new Scratch(SCRATCH_LIMIT_BYTES, heapOf(kit)));
  return s;
}

/** CanvasKit's heap as the PNG24 packer works in it: a buffer of its own kept there. */
function heapOf(kit: Kit): WasmHeap | undefined {
  const memory = kit.memory;
  if (!memory) return undefined;
  return { memory, buffer: (n) => keptBuffer(kit, packBuffers, n)?.byteOffset ?? 0 };
}

/** A wasm buffer each kit reads pixels into, grown to the largest read within the limit. */
const readBuffers = new WeakMap<Kit, MallocObj>();
/** A wasm buffer each kit packs PNG24 scanlines into (_rgb_rows.ts), kept the same way. */
const packBuffers = new WeakMap<Kit, MallocObj>();

/**
 * The kit's buffer of `kept` with room for `n` bytes (grown, within the
 * scratch limit), or undefined when the heap has no room for it.
 */
function keptBuffer(kit: Kit, kept: WeakMap<Kit, MallocObj>, n: number): MallocObj | undefined {
  if (n > SCRATCH_LIMIT_BYTES) return undefined;
  const have = kept.get(kit);
  if (have && have.length >= n) return have;
  if (have) kit.ck.Free(have);
  kept.delete(kit);
  // Malloc does not throw when the heap cannot grow: it answers address 0,
  // which readPixels would write over. No room: the caller does without.
  const buf = kit.ck.Malloc(Uint8Array, n);
  if (!buf.byteOffset) return undefined;
  kept.set(kit, buf);
  return buf;
}

/** Something CanvasKit reads pixels from: a canvas or an image. */
interface PixelSource {
  readPixels(
    x: number,
    y: number,
    info: ImageInfo,
    dest?: MallocObj,
  ): Float32Array | Uint8Array | null;
}

/**
 * Reads `info`'s pixels of `source` into the kit's work buffer `role`
 * (valid until the role is read into again), through a wasm buffer kept
 * for the next read: neither copy is left for the garbage collector. Null
 * when the wasm heap has no room for the read.
 */
export function readPixelsInto(
  kit: Kit,
  source: PixelSource,
  info: ImageInfo,
  role: string,
): Uint8Array | null {
  const n = info.width * info.height * 4;
  // No room for the kept buffer: CanvasKit allocates for this read alone.
  const dest = keptBuffer(kit, readBuffers, n);
  const px = source.readPixels(0, 0, info, dest) as Uint8Array | null;
  if (!px) return null;
  const out = scratchOf(kit).bytes(role, n);
  out.set(px.subarray(0, n));
  return out;
}

/**
 * The surface's pixels as unpremultiplied RGBA, copied out of the wasm
 * heap into the kit's "read-back" work buffer (valid until the next
 * read-back); a {@link RenderMemoryError} naming `what` when there is no
 * room for the copy.
 */
export function readUnpremultiplied(kit: Kit, surface: Surface, what: string): Uint8Array {
  const { ck } = kit;
  const img = surface.makeImageSnapshot();
  let rgba: Uint8Array | null;
  try {
    rgba = readPixelsInto(kit, img, {
      width: surface.width(),
      height: surface.height(),
      colorType: ck.ColorType.RGBA_8888,
      alphaType: ck.AlphaType.Unpremul,
      colorSpace: ck.ColorSpace.SRGB,
    }, "read-back");
  } finally {
    img.delete();
  }
  if (!rgba) throw new RenderMemoryError(`reading back ${what}`);
  return rgba;
}
