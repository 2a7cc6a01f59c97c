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
import { largestProbeGap, starRing } from "../tests/_big_polygon.ts";

const { values } = parseArgs({
  options: { vertices: { type: "string", default: "2000,10000,10001,100000" } },
});
const SERVICE = "/arcgis/rest/services/Recruitment/MapServer";

/** A POST form's answer time and the largest probe gap meanwhile. */
async function timed(probeUrl: string, url: string, form: Record<string, string>) {
  let ms = 0;
  let answer = "";
  const gap = await largestProbeGap(probeUrl, async () => {
    const t0 = performance.now();
    const res = await fetch(url, { method: "POST", body: new URLSearchParams(form) });
    const text = await res.text();
    ms = performance.now() - t0;
    answer = `${res.status}${/"error"/.test(text.slice(0, 20)) ? " (error)" : ""}`;
  });
  return {
    ms: Math.round(ms),
    probeMaxGapMs: Math.round(gap.wallMs),
    probeMaxGapCpuMs: Math.round(gap.cpuMs),
    answer,
  };
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
