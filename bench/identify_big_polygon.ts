/**
 * A large self-intersecting search polygon on the REST face (issue 20 item 3):
 * for each vertex count, a warm REST identify and query with a star polygon
 * of `n` vertices, the closing one included (POST form), while `GET /api/v1/` is fetched every ~20 ms; prints the answer
 * time and the largest gap between probe answers (how long the event loop
 * was held).
 *
 * `deno run -A bench/identify_big_polygon.ts [--vertices 2000,10000,10001,100000]`
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startTestServer } from "../tests/_api_helpers.ts";

const { values } = parseArgs({
  options: { vertices: { type: "string", default: "2000,10000,10001,100000" } },
});
const SERVICE = "/arcgis/rest/services/Recruitment/MapServer";

function starRing(n: number): number[][] {
  const ring: number[][] = [];
  for (let i = 0; i < n; i++) {
    const a = (i * 2 * Math.PI * 7 * 3.0001) / n;
    const r = i % 2 ? 10 : 30;
    const round = (v: number) => Math.round(v * 1e4) / 1e4;
    ring.push([round(100 + r * Math.cos(a)), round(60 + r * Math.sin(a) * 0.5)]);
  }
  ring.push(ring[0]);
  return ring;
}

async function timed(probeUrl: string, url: string, form: Record<string, string>) {
  let stop = false;
  let gap = 0;
  let last = performance.now();
  const probe = (async () => {
    while (!stop) {
      await (await fetch(probeUrl)).arrayBuffer();
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", body: new URLSearchParams(form) });
  const text = await res.text();
  const ms = performance.now() - t0;
  stop = true;
  await probe;
  const error = /"error"/.test(text.slice(0, 20)) ? " (error)" : "";
  return { ms: Math.round(ms), probeMaxGapMs: Math.round(gap), answer: `${res.status}${error}` };
}

const s = await startTestServer();
try {
  const view = { mapExtent: "20,40,180,78", imageDisplay: "800,400,96" };
  // Warm-up: the layers' first load is not what is measured.
  await timed(`${s.url}/api/v1/`, `${s.url}${SERVICE}/identify`, {
    geometry: "100,60",
    tolerance: "3",
    ...view,
    f: "json",
  });
  for (const n of values.vertices.split(",").map(Number)) {
    const geometry = JSON.stringify({ rings: [starRing(n - 1)], spatialReference: { wkid: 4326 } });
    const common = { geometry, geometryType: "esriGeometryPolygon", returnGeometry: "false" };
    const identify = await timed(`${s.url}/api/v1/`, `${s.url}${SERVICE}/identify`, {
      ...common,
      tolerance: "3",
      layers: "all",
      ...view,
      f: "json",
    });
    const query = await timed(`${s.url}/api/v1/`, `${s.url}${SERVICE}/0/query`, {
      ...common,
      f: "json",
    });
    console.log(JSON.stringify({ vertices: n, bodyBytes: geometry.length, identify, query }));
  }
} finally {
  await s.close();
}
