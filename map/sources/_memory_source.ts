/**
 * A FeatureSource over features held in memory (GeoJSON, world-atlas):
 * a uniform grid of feature bounding boxes answers the envelope
 * prefilter, `evaluate` answers the where clause with the same semantics
 * as the SQL sources.
 *
 * @module
 */
import type { Extent, Feature, FieldInfo, LayerGeometryType } from "../types.ts";
import type { AttributeValue } from "../types.ts";
import type { FeatureQuery, FeatureSource } from "./source.ts";
import { evaluate } from "../query/mod.ts";
import { bboxOf, unionExtent } from "../geo/relate.ts";

/** What a memory source is made of. */
export interface MemorySourceConfig {
  /** Features (any order; they are sorted by id). Ids must be unique. */
  features: Feature[];
  /** Fields as fields() reports them (OID first). */
  fields: FieldInfo[];
  idField: string;
  wkid: number;
  geometryType: LayerGeometryType;
  revision: string;
  /**
   * The source's own spatial index (e.g. a file's R-tree): positions of the
   * features, in the order of `features` as given, whose boxes may meet a box.
   * Absent: a grid is built over the features' boxes.
   */
  index?: (box: Extent) => number[];
}

/** A grid cell list per cell index; features spanning cells appear in each. */
interface Grid {
  extent: Extent;
  cols: number;
  rows: number;
  cells: Int32Array[];
}

function buildGrid(boxes: (Extent | null)[], extent: Extent): Grid {
  const n = boxes.length;
  const side = Math.max(1, Math.min(256, Math.ceil(Math.sqrt(n / 4))));
  const cols = extent.xmax > extent.xmin ? side : 1;
  const rows = extent.ymax > extent.ymin ? side : 1;
  const lists: number[][] = Array.from({ length: cols * rows }, () => []);
  const grid = { extent, cols, rows, cells: [] as Int32Array[] };
  boxes.forEach((b, i) => {
    if (!b) return;
    const [c0, r0, c1, r1] = cellRange(grid, b);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) lists[r * cols + c].push(i);
  });
  grid.cells = lists.map((l) => Int32Array.from(l));
  return grid;
}

function cellRange(g: Omit<Grid, "cells">, b: Extent): [number, number, number, number] {
  const w = (g.extent.xmax - g.extent.xmin) / g.cols || 1;
  const h = (g.extent.ymax - g.extent.ymin) / g.rows || 1;
  const clampC = (v: number) => Math.max(0, Math.min(g.cols - 1, Math.floor(v)));
  const clampR = (v: number) => Math.max(0, Math.min(g.rows - 1, Math.floor(v)));
  return [
    clampC((b.xmin - g.extent.xmin) / w),
    clampR((b.ymin - g.extent.ymin) / h),
    clampC((b.xmax - g.extent.xmin) / w),
    clampR((b.ymax - g.extent.ymin) / h),
  ];
}

function meets(a: Extent, b: Extent): boolean {
  return a.xmin <= b.xmax && b.xmin <= a.xmax && a.ymin <= b.ymax && b.ymin <= a.ymax;
}

/** The in-memory FeatureSource. */
export class MemoryFeatureSource implements FeatureSource {
  readonly wkid: number;
  readonly geometryType: LayerGeometryType;
  readonly idField: string;
  private readonly features: Feature[];
  private readonly boxes: (Extent | null)[];
  private readonly byId = new Map<number, number>();
  private readonly fullExtent: Extent | null;
  private readonly grid: Grid | null;
  /** Position in `features` (sorted by id) of each feature as given. */
  private readonly sortedAt: Int32Array;

  /** Indexes the features. */
  constructor(private readonly cfg: MemorySourceConfig) {
    this.wkid = cfg.wkid;
    this.geometryType = cfg.geometryType;
    this.idField = cfg.idField;
    const order = cfg.features.map((_, i) => i).sort((a, b) =>
      cfg.features[a].id - cfg.features[b].id
    );
    this.features = order.map((i) => cfg.features[i]);
    this.sortedAt = new Int32Array(order.length);
    order.forEach((given, sorted) => this.sortedAt[given] = sorted);
    this.features.forEach((f, i) => {
      if (this.byId.has(f.id)) throw new Error(`Duplicate feature id ${f.id}.`);
      this.byId.set(f.id, i);
    });
    this.boxes = this.features.map((f) => (f.geometry ? bboxOf(f.geometry) : null));
    let e: Extent | null = null;
    for (const b of this.boxes) {
      if (!b) continue;
      e = unionExtent(e, b);
    }
    this.fullExtent = e;
    this.grid = e && !cfg.index ? buildGrid(this.boxes, e) : null;
  }

  /** Fields, OID first. */
  fields(): FieldInfo[] {
    return this.cfg.fields.map((f) => ({ ...f }));
  }

  /** Extent of all geometries. */
  extent(): Extent | null {
    return this.fullExtent ? { ...this.fullExtent } : null;
  }

  /** Fixed at load time. */
  revision(): string {
    return this.cfg.revision;
  }

  /** Indexes (ascending) of features that pass ids and bbox. */
  private candidates(q: FeatureQuery): number[] {
    let idx: number[] | null = null;
    if (q.objectIds) {
      idx = [...new Set(q.objectIds)].map((id) => this.byId.get(id)).filter((i): i is number =>
        i !== undefined
      ).sort((a, b) => a - b);
    }
    const box = q.bbox;
    if (box) {
      if (!this.fullExtent || !meets(box, this.fullExtent)) return [];
      if (idx) return idx.filter((i) => this.boxes[i] !== null && meets(this.boxes[i]!, box));
      if (this.cfg.index) {
        return this.cfg.index(box).map((given) => this.sortedAt[given])
          .filter((i) => this.boxes[i] !== null && meets(this.boxes[i]!, box))
          .sort((a, b) => a - b);
      }
      if (!this.grid) return [];
      const [c0, r0, c1, r1] = cellRange(this.grid, box);
      const seen = new Uint8Array(this.features.length);
      const out: number[] = [];
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          for (const i of this.grid.cells[r * this.grid.cols + c]) {
            if (seen[i]) continue;
            seen[i] = 1;
            if (meets(this.boxes[i]!, box)) out.push(i);
          }
        }
      }
      return out.sort((a, b) => a - b);
    }
    return idx ?? this.features.map((_, i) => i);
  }

  private matching(q: FeatureQuery): number[] {
    const idx = this.candidates(q);
    const where = q.where;
    if (!where) return idx;
    // The object id is a field too ("OBJECTID < 10"), though not stored among the attributes.
    const id = this.idField;
    return idx.filter((i) => {
      const f = this.features[i];
      return evaluate(where, { ...f.attributes, [id]: f.id });
    });
  }

  /** Matching features, ordered by id, with only the requested attributes. */
  query(q: FeatureQuery): Feature[] {
    let idx = this.matching(q);
    const start = q.offset ?? 0;
    idx = idx.slice(start, q.limit === undefined ? undefined : start + q.limit);
    const names = q.fields;
    const withGeometry = q.returnGeometry !== false;
    return idx.map((i) => {
      const f = this.features[i];
      let attributes: Record<string, AttributeValue> = f.attributes;
      if (names) {
        attributes = {};
        for (const n of names) if (n in f.attributes) attributes[n] = f.attributes[n];
      } else {
        attributes = { ...attributes };
      }
      return { id: f.id, attributes, geometry: withGeometry ? f.geometry : null };
    });
  }

  /** Number of matching features. */
  count(q: FeatureQuery): number {
    return this.matching(q).length;
  }

  /** One feature by id. */
  get(id: number): Feature | null {
    return this.query({ objectIds: [id] })[0] ?? null;
  }
}
