/**
 * Two checkouts' renderers in one process, view by view: each view is drawn
 * and encoded by one and then the other (the order alternating), so both
 * meet the same machine in the same milliseconds. For a renderer change on
 * a machine whose speed drifts more between runs than the change moves
 * (the server's own overhead is left out: `first_views.ts` measures that).
 *
 * ```
 * deno run -A --v8-flags=--expose-gc bench/render_ab.ts --root OTHER_CHECKOUT
 *   [--data countries50] [--views 400] [--seed 7] [--gap 0]
 * ```
 *
 * Views: `randomViews` of `_extents.ts` (1024x768 PNG24, five levels from
 * the whole world to 3° wide); the first 50 warm both sides up and are not
 * counted. Prints, per level, both sides' median draw-plus-encode time and
 * the ratio of this checkout's to the other's (medians, and sums).
 *
 * `--gap MS` waits that long (spinning, as another program drawing would
 * keep the core) before each draw, as a client's views arrive apart: on
 * this shared VM a pause of 20 ms makes the next view's every page cost
 * about a microsecond more to touch (cold page-table walks), so what a view
 * touches counts as much as what it computes.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { dataSets, dirOf, randomViews, VIEW_H, VIEW_W } from "./_extents.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    root: { type: "string" },
    data: { type: "string", default: "countries50" },
    views: { type: "string", default: "400" },
    seed: { type: "string", default: "7" },
    gap: { type: "string", default: "0" },
  },
});
if (!values.root) throw new Error("--root names the other checkout (the one to compare with).");

interface Side {
  name: string;
  draw(box: [number, number, number, number]): number;
}

/** A checkout's renderer, loaded from its own files (its own CanvasKit and stores). */
async function side(root: string, name: string, documentPath: string): Promise<Side> {
  const at = (p: string) => new URL(p, `file://${root.replace(/\/?$/, "/")}`).href;
  const { loadMapDocument } = await import(at("map/document/load.ts"));
  const { loadKit, renderMap } = await import(at("map/render/mod.ts"));
  const { prepareStores } = await import(at("map/render/_warmup.ts"));
  const service = await loadMapDocument(documentPath);
  const map = service.maps[0];
  prepareStores([map]);
  const kit = await loadKit();
  return {
    name,
    draw(box) {
      const timing = { drawMs: 0, encodeMs: 0 };
      const [xmin, ymin, xmax, ymax] = box;
      renderMap(kit, map, {
        extent: { xmin, ymin, xmax, ymax },
        wkid: 4326,
        widthPx: VIEW_W,
        heightPx: VIEW_H,
        format: "png24",
      }, timing);
      return timing.drawMs + timing.encodeMs;
    },
  };
}

const here = new URL("..", import.meta.url).pathname;
for (const d of dataSets(values.data)) {
  const doc = `${dirOf(d)}/${d.service}.json`;
  const sides = [await side(values.root, "other", doc), await side(here, "this", doc)];
  const times: number[][][] = [0, 1, 2, 3, 4].map(() => [[], []]);
  const gap = Number(values.gap);
  randomViews(Number(values.views), Number(values.seed)).forEach((v, i) => {
    for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const until = performance.now() + gap;
      while (performance.now() < until) { /* another program's turn */ }
      const ms = sides[k].draw(v.box);
      if (i >= 50) times[v.level][k].push(ms);
    }
  });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(`${d.label}: draw + encode, ms (this checkout against ${values.root})`);
  console.log("| level | other median | this median | this / other (medians) | (sums) |");
  console.log("| ---: | ---: | ---: | ---: | ---: |");
  times.forEach(([a, b], level) => {
    const width = Math.round(360 * (3 / 360) ** (level / 4));
    console.log(
      `| ${width}° | ${median(a).toFixed(2)} | ${median(b).toFixed(2)} | ${
        (median(b) / median(a)).toFixed(2)
      } | ${(sum(b) / sum(a)).toFixed(2)} |`,
    );
  });
}
