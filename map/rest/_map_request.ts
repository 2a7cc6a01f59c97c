/**
 * The map-view parts REST endpoints share when they build the requests of
 * the MapServer operations (the same requests the SOAP face decodes):
 * `layerDefs` (`{"0":"where"}` or `0:where;1:where`), the `layers`
 * switch of export (`show:`, `hide:`, `include:`, `exclude:`), and the
 * LayerDescriptions that carry all of that per layer.
 *
 * @module
 */
import type { LayerDescription, MapFrame } from "../ops/mod.ts";
import { InvalidRequestError } from "../errors.ts";
import { invalid, jsonValue } from "./params.ts";

/** Checks that every id names a layer of `frame` (an unknown id is the client's mistake). */
export function checkLayerIds(frame: MapFrame, ids: readonly number[], name: string): void {
  for (const id of ids) {
    if (!frame.layers.some((l) => l.id === id)) {
      throw new InvalidRequestError(
        `Parameter '${name}': layer ${id} does not exist. Layer ids: ${
          frame.layers.map((l) => `${l.id} (${l.name})`).join(", ")
        }.`,
        { [name]: id },
        [`'${name}' parameter is invalid`],
      );
    }
  }
}

/** Comma-separated layer ids (`0,1,2`). */
export function parseLayerIds(name: string, text: string): number[] {
  const items = text.split(",").map((s) => s.trim()).filter((s) => s !== "");
  return items.map((s) => {
    if (!/^-?\d+$/.test(s)) throw invalid(name, "comma-separated layer ids", text);
    return Number(s);
  });
}

/**
 * `layerDefs` as definition expressions by layer id: JSON
 * (`{"0":"POP > 10"}`, or `[{"layerId":0,"where":"..."}]`) or the older
 * `0:POP > 10;1:NAME = 'x'` form.
 */
export function parseLayerDefs(frame: MapFrame, text: string | undefined): Map<number, string> {
  const out = new Map<number, string>();
  if (text === undefined) return out;
  const name = "layerDefs";
  const t = text.trim();
  const put = (key: unknown, where: unknown) => {
    const id = typeof key === "number"
      ? key
      : /^\s*-?\d+\s*$/.test(String(key))
      ? Number(key)
      : NaN;
    if (!Number.isInteger(id) || typeof where !== "string") {
      throw invalid(name, `{"<layer id>":"<where clause>"} or <layer id>:<where clause>;...`, t);
    }
    out.set(id, where);
  };
  if (t.startsWith("{") || t.startsWith("[")) {
    const v = jsonValue(name, t, "JSON");
    if (Array.isArray(v)) {
      for (const item of v) {
        const o = typeof item === "object" && item !== null ? item as Record<string, unknown> : {};
        put(o.layerId, o.where ?? o.definitionExpression);
      }
    } else {
      for (const [k, w] of Object.entries(v as Record<string, unknown>)) put(k, w);
    }
  } else {
    // A where clause may hold ';' inside quotes: split only before the next `<id>:`.
    // One ';' may end the list: esri-leaflet's layerDef() writes `<id>:<where>;` for each.
    for (const part of t.replace(/;\s*$/, "").split(/;(?=\s*-?\d+\s*:)/)) {
      const m = /^\s*(-?\d+)\s*:(.*)$/s.exec(part);
      if (!m) {
        throw invalid(name, `{"<layer id>":"<where clause>"} or <layer id>:<where clause>;...`, t);
      }
      put(m[1], m[2].trim());
    }
  }
  checkLayerIds(frame, [...out.keys()], name);
  return out;
}

/**
 * The layers an export draws: the map's default visibility changed by
 * `show:ids` (only these), `hide:ids`, `include:ids` (these too) or
 * `exclude:ids`; undefined keeps the defaults (as does an empty list).
 */
export function parseLayerVisibility(
  frame: MapFrame,
  text: string | undefined,
): Map<number, boolean> | undefined {
  if (text === undefined) return undefined;
  const name = "layers";
  const m = /^\s*(show|hide|include|exclude)\s*:(.*)$/is.exec(text);
  if (!m) throw invalid(name, "show:, hide:, include: or exclude: and layer ids", text);
  const op = m[1].toLowerCase();
  const ids = new Set(parseLayerIds(name, m[2]));
  checkLayerIds(frame, [...ids], name);
  // An empty list changes nothing, `show:` included: ArcGIS then draws the
  // default-visible layers (QGIS's whole-service layer sends `show:`).
  if (ids.size === 0) return undefined;
  return new Map(frame.layers.map((l) => {
    const listed = ids.has(l.id);
    const visible = op === "show"
      ? listed
      : op === "hide"
      ? l.visible && !listed
      : op === "include"
      ? l.visible || listed
      : l.visible && !listed;
    return [l.id, visible];
  }));
}

/** What goes into the LayerDescriptions of a request. */
export interface LayerOptions {
  visibility?: Map<number, boolean>;
  definitions: Map<number, string>;
  /** Identify and Find: whether results carry geometry. */
  returnGeometry?: boolean;
  /** Identify and Find: generalise returned shapes (map units; 0 = off). */
  maxAllowableOffset?: number;
  /** Identify and Find: attributes by field name instead of alias. */
  returnFieldNames?: boolean;
}

/** One LayerDescription per layer of `frame`, carrying `opts`. */
export function layerDescriptions(frame: MapFrame, opts: LayerOptions): LayerDescription[] {
  return frame.layers.map((l) => {
    const offset = opts.maxAllowableOffset ?? 0;
    return {
      LayerID: l.id,
      Visible: opts.visibility?.get(l.id) ?? l.visible,
      DefinitionExpression: opts.definitions.get(l.id) ?? "",
      LayerResultOptions: {
        IncludeGeometry: opts.returnGeometry ?? true,
        ReturnFieldNamesInResults: opts.returnFieldNames ?? false,
        ...(offset > 0
          ? {
            GeometryResultOptions: { GeneralizeGeometries: true, MaximumAllowableOffset: offset },
          }
          : {}),
      },
    };
  });
}
