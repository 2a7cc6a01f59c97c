/**
 * Checks the predicates against GEOS (through libgdal's OGR_G_* functions,
 * called by FFI), the engine behind PostGIS and QGIS: random small shapes
 * on an integer grid, where shared edges, corners and collinear runs are
 * common, and real Natural Earth outlines against random boxes and points.
 * Skipped when libgdal is not installed.
 */
import assert from "node:assert/strict";
import { GDAL_SONAMES, gdalReference, optionalTest } from "../../tests/_optional.ts";
import type { Geometry, Position } from "../types.ts";
import {
  contains,
  crosses,
  intersects,
  overlaps,
  relateMatrix,
  touches,
  within,
} from "./relate.ts";

const SYMBOLS = {
  OGR_G_CreateFromWkt: { parameters: ["pointer", "pointer", "pointer"], result: "i32" },
  OGR_G_Intersects: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_G_Touches: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_G_Within: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_G_Contains: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_G_Overlaps: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_G_Crosses: { parameters: ["pointer", "pointer"], result: "i32" },
  OGR_G_DestroyGeometry: { parameters: ["pointer"], result: "void" },
} as const;

function openGdal(): Deno.DynamicLibrary<typeof SYMBOLS> | null {
  for (const name of GDAL_SONAMES) {
    try {
      return Deno.dlopen(name, SYMBOLS);
    } catch {
      // try the next soname
    }
  }
  return null;
}

const gdal = openGdal();
const GEOS = gdalReference("GEOS (through libgdal)", () => gdal);
globalThis.addEventListener("unload", () => gdal?.close());

function toWkt(g: Geometry): string {
  const list = (l: Position[]) => l.map((p) => `${p[0]} ${p[1]}`).join(",");
  switch (g.type) {
    case "Point":
      return `POINT (${g.x} ${g.y})`;
    case "Multipoint":
      return `MULTIPOINT (${g.points.map((p) => `(${p[0]} ${p[1]})`).join(",")})`;
    case "Polyline":
      return `MULTILINESTRING (${g.paths.map((p) => `(${list(p)})`).join(",")})`;
    case "Polygon":
      // Our rings may hold several outer rings; GEOS wants a MULTIPOLYGON then.
      return toMultiPolygonWkt(g.rings);
    case "Envelope":
      return `POLYGON ((${g.xmin} ${g.ymin},${g.xmin} ${g.ymax},${g.xmax} ${g.ymax},${g.xmax} ${g.ymin},${g.xmin} ${g.ymin}))`;
  }
}

function toMultiPolygonWkt(rings: Position[][]): string {
  const polys: Position[][][] = [];
  for (const ring of rings) {
    let area = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      area += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
    }
    if (area <= 0 || polys.length === 0) polys.push([ring]);
    else polys[polys.length - 1].push(ring);
  }
  const list = (l: Position[]) => l.map((p) => `${p[0]} ${p[1]}`).join(",");
  return `MULTIPOLYGON (${
    polys.map((p) => `(${p.map((r) => `(${list(r)})`).join(",")})`).join(",")
  })`;
}

function geos(wkt: string): Deno.PointerValue {
  const text = new TextEncoder().encode(`${wkt}\0`);
  const textPtr = new BigUint64Array([
    BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(text))),
  ]);
  const out = new BigUint64Array(1);
  const err = gdal!.symbols.OGR_G_CreateFromWkt(
    Deno.UnsafePointer.of(textPtr),
    null,
    Deno.UnsafePointer.of(out),
  );
  assert.equal(err, 0, `GDAL rejected ${wkt}`);
  return Deno.UnsafePointer.create(out[0]);
}

type Ours = (a: Geometry, b: Geometry) => boolean;
const PREDICATES: [string, Ours, keyof typeof SYMBOLS][] = [
  ["intersects", intersects, "OGR_G_Intersects"],
  ["touches", touches, "OGR_G_Touches"],
  ["within", within, "OGR_G_Within"],
  ["contains", contains, "OGR_G_Contains"],
  ["overlaps", overlaps, "OGR_G_Overlaps"],
  ["crosses", crosses, "OGR_G_Crosses"],
];

function compare(a: Geometry, b: Geometry): string[] {
  const ga = geos(toWkt(a));
  const gb = geos(toWkt(b));
  const out: string[] = [];
  for (const [name, ours, symbol] of PREDICATES) {
    const fn = gdal!.symbols[symbol] as (x: Deno.PointerValue, y: Deno.PointerValue) => number;
    const theirs = fn(ga, gb) !== 0;
    if (ours(a, b) !== theirs) {
      out.push(
        `${name}: ours ${!theirs}, GEOS ${theirs}: ${toWkt(a)} | ${toWkt(b)} ${relateMatrix(a, b)}`,
      );
    }
  }
  gdal!.symbols.OGR_G_DestroyGeometry(ga);
  gdal!.symbols.OGR_G_DestroyGeometry(gb);
  return out;
}

let seed = 2024;
function rnd(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n);
}

function randomShape(): Geometry {
  const P = (): Position => [rnd(7), rnd(7)];
  switch (rnd(7)) {
    case 0:
      return { type: "Point", x: rnd(7), y: rnd(7) };
    case 1:
      return { type: "Multipoint", points: [P(), P(), P()] };
    case 2: {
      const path = [P()];
      for (let i = 0; i < 1 + rnd(3); i++) {
        const next = P();
        const last = path[path.length - 1];
        if (next[0] !== last[0] || next[1] !== last[1]) path.push(next);
      }
      return path.length > 1 ? { type: "Polyline", paths: [path] } : { type: "Point", x: 1, y: 1 };
    }
    case 3: {
      const x = rnd(5), y = rnd(5);
      return { type: "Envelope", xmin: x, ymin: y, xmax: x + 1 + rnd(3), ymax: y + 1 + rnd(3) };
    }
    case 4: {
      for (;;) {
        const [a, b, c] = [P(), P(), P()];
        if ((b[0] - a[0]) * (c[1] - a[1]) !== (b[1] - a[1]) * (c[0] - a[0])) {
          const cw = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) < 0;
          return { type: "Polygon", rings: [cw ? [a, b, c, a] : [a, c, b, a]] };
        }
      }
    }
    case 5: {
      const x = rnd(3), y = rnd(3);
      return {
        type: "Polygon",
        rings: [
          [[x, y], [x, y + 4], [x + 4, y + 4], [x + 4, y], [x, y]],
          [[x + 1, y + 1], [x + 3, y + 1], [x + 3, y + 3], [x + 1, y + 3], [x + 1, y + 1]],
        ],
      };
    }
    default: {
      // Two separate squares: a multi-part polygon.
      const x = rnd(3), y = rnd(5);
      return {
        type: "Polygon",
        rings: [
          [[x, y], [x, y + 1], [x + 1, y + 1], [x + 1, y], [x, y]],
          [[x + 3, y], [x + 3, y + 2], [x + 4, y + 2], [x + 4, y], [x + 3, y]],
        ],
      };
    }
  }
}

optionalTest(GEOS, {
  name: "predicates agree with GEOS on 2,000 random shape pairs",
  fn() {
    const problems: string[] = [];
    for (let i = 0; i < 2000; i++) problems.push(...compare(randomShape(), randomShape()));
    assert.deepEqual(problems.slice(0, 10).map((p) => p.slice(0, 300)), []);
  },
});

optionalTest(GEOS, {
  name: "predicates agree with GEOS on Natural Earth outlines",
  async fn() {
    const { openWorldAtlas } = await import("../sources/world_atlas.ts");
    const countries = await openWorldAtlas({ scale: "110m" });
    const all = countries.query({});
    const pickCountry = (name: string) => all.find((f) => f.attributes.name === name)!.geometry!;
    // Russia and Fiji are left out: their 110m rings jump across the antimeridian, which
    // makes them invalid planar polygons (GEOS answers arbitrarily for those).
    const outlines = ["Kazakhstan", "France", "Italy", "Indonesia", "Brazil", "Mongolia"]
      .map(pickCountry);
    const problems: string[] = [];
    for (const outline of outlines) {
      const e = (outline as { rings: Position[][] }).rings.flat();
      const xs = e.map((p) => p[0]), ys = e.map((p) => p[1]);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      for (let i = 0; i < 25; i++) {
        const x = x0 + ((x1 - x0) * rnd(1000)) / 1000, y = y0 + ((y1 - y0) * rnd(1000)) / 1000;
        const w = ((x1 - x0) * (1 + rnd(400))) / 1000, h = ((y1 - y0) * (1 + rnd(400))) / 1000;
        problems.push(...compare({ type: "Point", x, y }, outline));
        problems.push(
          ...compare({ type: "Envelope", xmin: x, ymin: y, xmax: x + w, ymax: y + h }, outline),
        );
      }
      for (const other of outlines) problems.push(...compare(outline, other));
    }
    assert.deepEqual(problems.slice(0, 5).map((p) => p.slice(0, 300)), []);
  },
});
