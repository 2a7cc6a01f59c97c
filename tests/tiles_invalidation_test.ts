/**
 * End to end: an import that moves a competition makes the server redraw
 * exactly the tiles it touched. Data (change_log written by the import),
 * tiles (MBTiles store) and HTTP (tile route ETags) meet here.
 */
import assert from "node:assert/strict";
import { importFiles } from "../data/mod.ts";
import { fetchJson, startTestServer } from "./_api_helpers.ts";
import { decode } from "./_render_helpers.ts";

function tileOf(lat: number, lon: number, z: number): { row: number; col: number } {
  const n = 2 ** z;
  const phi = lat * Math.PI / 180;
  return {
    col: Math.floor((lon + 180) / 360 * n),
    row: Math.floor((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2 * n),
  };
}

async function tile(base: string, z: number, t: { row: number; col: number }) {
  const res = await fetch(
    `${base}/arcgis/rest/services/Recruitment/MapServer/tile/${z}/${t.row}/${t.col}`,
  );
  assert.equal(res.status, 200);
  return { etag: res.headers.get("etag")!, png: new Uint8Array(await res.arrayBuffer()) };
}

/** Pixels of the competitions' marker colours (red/orange fills). */
function markerPixels(png: Uint8Array): number {
  const img = decode(png);
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    const [r, g, b] = [img.data[i], img.data[i + 1], img.data[i + 2]];
    if (r > 180 && g < 170 && b < 90) n++;
  }
  return n;
}

Deno.test({
  name: "tiles: an import that moves a competition redraws the tiles it touched, and only those",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    try {
      const z = 6;
      const all: Record<string, string>[] = [];
      for (let url: string | null = `${s.url}/api/v1/competitions/?page_size=100`; url;) {
        const { body } = await fetchJson(url);
        all.push(...body.results);
        url = body.next;
      }
      // The competitions of the least crowded level-6 tile: moving them all empties it.
      const key = (c: Record<string, string>) => {
        const t = tileOf(
          Number(c.document_reception_map_latitude),
          Number(c.document_reception_map_longitude),
          z,
        );
        return `${t.row}/${t.col}`;
      };
      const groups = Map.groupBy(all, key);
      const group = [...groups.values()].sort((a, b) => a.length - b.length)[0];
      const moved = group[0];
      const oldTile = tileOf(
        Number(moved.document_reception_map_latitude),
        Number(moved.document_reception_map_longitude),
        z,
      );
      const newPos = { lat: -33.868820, lon: 151.209290 }; // Sydney: no competition there
      const newTile = tileOf(newPos.lat, newPos.lon, z);
      const farTile = tileOf(40, -100, z); // North America, untouched

      const before = await tile(s.url, z, oldTile);
      const far = await tile(s.url, z, farTile);
      const emptyBefore = await tile(s.url, z, newTile);
      assert.ok(markerPixels(before.png) > 20, "the marker is drawn at its old place");
      assert.equal(markerPixels(emptyBefore.png), 0, "nothing drawn at the new place yet");
      // A repeat is a lookup with the same ETag.
      assert.equal((await tile(s.url, z, oldTile)).etag, before.etag);

      const file = `${s.dir}/moved.json`;
      await Deno.writeTextFile(
        file,
        JSON.stringify(group.map((c) => ({
          ...c,
          document_reception_map_latitude: newPos.lat.toFixed(6),
          document_reception_map_longitude: newPos.lon.toFixed(6),
        }))),
      );
      const report = await importFiles(s.dbPath, [file]);
      assert.equal(report.updated, group.length);
      // The tile cache re-reads data revisions and change_log at most once a second.
      await new Promise((r) => setTimeout(r, 1100));

      const after = await tile(s.url, z, oldTile);
      assert.notEqual(after.etag, before.etag, "the old place's tile was redrawn");
      assert.equal(markerPixels(after.png), 0, "and the marker is gone from it");
      const arrived = await tile(s.url, z, newTile);
      assert.ok(markerPixels(arrived.png) > 20, "the marker is drawn at its new place");
      assert.equal((await tile(s.url, z, farTile)).etag, far.etag, "an untouched tile is kept");
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "tiles: two servers in one process keep their tiles in their own stores",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const a = await startTestServer();
    const b = await startTestServer();
    try {
      const t = tileOf(55.75, 37.62, 3);
      await tile(a.url, 3, t);
      const files = (dir: string) => {
        try {
          return [...Deno.readDirSync(dir)].map((e) => e.name);
        } catch {
          return [];
        }
      };
      assert.ok(files(`${a.dir}/tiles/Recruitment`).some((n) => n.endsWith(".mbtiles")));
      assert.deepEqual(files(`${b.dir}/tiles`), [], "the second server stored nothing");
      // The second server draws its own tile from its own store.
      await tile(b.url, 3, t);
      assert.ok(files(`${b.dir}/tiles/Recruitment`).some((n) => n.endsWith(".mbtiles")));
    } finally {
      await a.close();
      await b.close();
    }
  },
});
