/**
 * The legend swatch images REST has drawn, by service, map, layer and
 * digest, so that `/legend/images/...` requests answer from memory instead
 * of drawing the whole layer's legend again for each image. Bounded by the
 * bytes it holds (least recently used first out); an entry drawn for a map
 * object that has since been replaced (documents reloaded) is never served.
 *
 * @module
 */
import { LRUCache } from "lru-cache";
import type { MapFrame } from "../ops/mod.ts";

/** One swatch image. */
export interface SwatchImage {
  contentType: string;
  bytes: Uint8Array;
}

interface Entry extends SwatchImage {
  frame: MapFrame;
}

/** Where a swatch belongs and its digest (the `url` the legend gave it, without size). */
export interface SwatchKey {
  service: string;
  frame: MapFrame;
  layerId: number;
  digest: string;
}

function keyText(k: SwatchKey): string {
  return `${k.service}\n${k.frame.name}\n${k.layerId}\n${k.digest.toLowerCase()}`;
}

/**
 * Swatch images kept for the image requests that follow a legend.
 *
 * @example
 * ```ts ignore
 * const cache = new SwatchCache(4 * 2 ** 20);
 * cache.put({ service: "World", frame, layerId: 0, digest: "ab12" }, image);
 * cache.get({ service: "World", frame, layerId: 0, digest: "ab12" }); // image
 * ```
 */
export class SwatchCache {
  readonly #entries: LRUCache<string, Entry>;
  /** Legend draws under way, by what they draw. */
  readonly #drawing = new Map<string, Promise<void>>();

  /** `maxBytes` bounds the sum of image sizes; an image over an eighth of it is not kept. */
  constructor(readonly maxBytes = 8 * 2 ** 20) {
    this.#entries = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (e) => Math.max(1, e.bytes.byteLength),
    });
  }

  /** Bytes of the images kept. */
  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  /** The image under `key`, if kept (and drawn for the same map object). */
  get(key: SwatchKey): SwatchImage | undefined {
    const e = this.#entries.get(keyText(key));
    return e?.frame === key.frame ? e : undefined;
  }

  /** Keeps `image` under `key`, pushing out the least recently used images over the bound. */
  put(key: SwatchKey, image: SwatchImage): void {
    this.#entries.set(keyText(key), { ...image, frame: key.frame });
  }

  /**
   * Runs `draw` (which puts the swatches it draws) unless a draw named
   * `what` is under way, whose end it then waits for instead: image
   * requests that miss the cache at once (a legend panel after a restart)
   * draw the layer's legend once, not once each.
   */
  async drawOnce(what: string, draw: () => Promise<void>): Promise<void> {
    let running = this.#drawing.get(what);
    if (!running) {
      running = draw().finally(() => this.#drawing.delete(what));
      this.#drawing.set(what, running);
    }
    await running;
  }
}
