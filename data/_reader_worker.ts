/**
 * A reader worker of {@linkcode ReaderPool}: its own read-only connection to
 * the catalogue, running the slow list work (cold counts, id lists) so the
 * main thread never waits on it.
 *
 * Messages in: `{ type: "open", path }`, then `{ type: "run", id, work }`.
 * Messages out: `{ id, result }` (an id list's buffer is transferred) or
 * `{ id, error }`.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { type Catalog, type ListWork, openCatalog } from "./catalog.ts";

let catalog: Catalog | null = null;
let openError = "";

self.onmessage = (e: MessageEvent) => {
  const msg = e.data as { type: "open"; path: string } | {
    type: "run";
    id: number;
    work: ListWork;
  };
  if (msg.type === "open") {
    try {
      catalog = openCatalog(msg.path, {
        readonly: true,
        idListBytes: 0,
        // Its work reads long runs once: a small page cache keeps the server's RSS down.
        cacheKiB: 4096,
        onNotice: () => {},
        // Counts of searches with salary or date ranges check these (~10 MB at 1M vacancies).
        keepRangeColumns: true,
      });
      catalog.preloadRangeColumns();
    } catch (err) {
      openError = (err as Error).message;
    }
    return;
  }
  try {
    if (!catalog) throw new Error(`the reader could not open the catalogue: ${openError}`);
    const result = catalog.runListWork(msg.work);
    // Before the answer, so the pages are back in the shared cache when the page is read.
    catalog.releaseCachedPages();
    self.postMessage({ id: msg.id, result }, result.ids ? [result.ids.buffer as ArrayBuffer] : []);
  } catch (err) {
    self.postMessage({ id: msg.id, error: (err as Error).message });
  }
};
