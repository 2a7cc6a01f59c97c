/**
 * Symbology of a map layer: the renderer (simple, unique values, class
 * breaks), its simple marker / line / fill symbols and the label settings.
 *
 * These zod schemas are the edge where map documents come in; the plain
 * types inferred from them are what the renderer, the legend and the SOAP
 * layer work with. Names follow the ArcGIS JavaScript API vocabulary
 * (`simple-marker`, `forward-diagonal`, ...). Sizes and widths are in
 * points (1/72 inch) so they scale with the requested DPI. Colours are
 * `[r, g, b, a]` with every channel 0-255 (a = 255 is opaque); `[r, g, b]`
 * is accepted and means opaque.
 *
 * @example
 * ```ts
 * const spec = RendererSpecSchema.parse({
 *   type: "simple",
 *   symbol: { type: "simple-marker", style: "circle", color: [220, 40, 40], size: 6 },
 * });
 * ```
 *
 * @module
 */
import { z } from "zod";

const channel = z.number().min(0).max(255);

/** An RGBA colour, channels 0-255; a three-element input is made opaque. */
export const ColorSchema = z
  .union([z.tuple([channel, channel, channel, channel]), z.tuple([channel, channel, channel])])
  .transform((c): Rgba => (c.length === 3 ? [c[0], c[1], c[2], 255] : [c[0], c[1], c[2], c[3]]));

/** `[r, g, b, a]`, every channel 0-255. */
export type Rgba = [number, number, number, number];

/** Dash patterns of simple lines (`none` draws nothing). */
export const LineStyleSchema = z.enum([
  "solid",
  "dash",
  "dot",
  "dash-dot",
  "dash-dot-dot",
  "none",
]);

/** A simple line symbol: colour, width in points, dash style. */
export const SimpleLineSymbolSchema = z.object({
  type: z.literal("simple-line"),
  style: LineStyleSchema.default("solid"),
  color: ColorSchema,
  width: z.number().min(0).max(200).default(1),
});

/** Marker shapes of simple marker symbols. */
export const MarkerStyleSchema = z.enum(["circle", "square", "cross", "x", "diamond"]);

/** A simple marker symbol: shape, fill colour, size (diameter) in points, optional outline. */
export const SimpleMarkerSymbolSchema = z.object({
  type: z.literal("simple-marker"),
  style: MarkerStyleSchema.default("circle"),
  color: ColorSchema,
  size: z.number().min(0).max(500).default(8),
  /** Rotation in degrees, counter-clockwise (ArcGIS marker angle). */
  angle: z.number().default(0),
  /** Offsets in points (positive x right, positive y up). */
  xoffset: z.number().default(0),
  yoffset: z.number().default(0),
  outline: z
    .object({ color: ColorSchema, width: z.number().min(0).max(100).default(1) })
    .optional(),
});

/** Fill patterns of simple fill symbols; `none` draws only the outline. */
export const FillStyleSchema = z
  .enum([
    "solid",
    "none",
    "hollow",
    "null",
    "horizontal",
    "vertical",
    "cross",
    "forward-diagonal",
    "backward-diagonal",
    "diagonal-cross",
  ])
  .transform((s) => (s === "hollow" || s === "null" ? "none" : s));

/** A simple fill symbol: pattern, colour and an optional outline line symbol. */
export const SimpleFillSymbolSchema = z.object({
  type: z.literal("simple-fill"),
  style: FillStyleSchema.default("solid"),
  color: ColorSchema.default([0, 0, 0, 0]),
  outline: SimpleLineSymbolSchema.optional(),
});

/** Any symbol a renderer can assign. */
export const SymbolSchema = z.discriminatedUnion("type", [
  SimpleMarkerSymbolSchema,
  SimpleLineSymbolSchema,
  SimpleFillSymbolSchema,
]);

/** Layer transparency in percent (0 = opaque, 100 = invisible), as ArcGIS layers have it. */
const transparency = z.number().min(0).max(100).default(0);

/** One symbol for every feature. */
export const SimpleRendererSchema = z.object({
  type: z.literal("simple"),
  transparency,
  symbol: SymbolSchema,
  label: z.string().default(""),
  description: z.string().default(""),
});

/** A labelled symbol used by the unique-value renderer's fallback. */
const DefaultClassSchema = z.object({ label: z.string().default(""), symbol: SymbolSchema });

/** One symbol per distinct value of a field; other values get `default` (or are not drawn). */
export const UniqueValueRendererSchema = z.object({
  type: z.literal("uniqueValue"),
  transparency,
  field: z.string().min(1),
  values: z.array(
    z.object({
      value: z.union([z.string(), z.number()]),
      label: z.string().default(""),
      description: z.string().default(""),
      symbol: SymbolSchema,
    }),
  ),
  default: DefaultClassSchema.optional(),
});

/**
 * Numeric classes: a value v falls into the first break with v <= max, and
 * above `minValue` (inclusive for the first class).
 */
export const ClassBreaksRendererSchema = z.object({
  type: z.literal("classBreaks"),
  transparency,
  field: z.string().min(1),
  minValue: z.number(),
  breaks: z
    .array(
      z.object({
        max: z.number(),
        label: z.string().default(""),
        description: z.string().default(""),
        symbol: SymbolSchema,
      }),
    )
    .min(1),
  default: DefaultClassSchema.optional(),
});

/** A layer's renderer; `transparency` is the layer transparency in percent (0 opaque). */
export const RendererSpecSchema = z.discriminatedUnion("type", [
  SimpleRendererSchema,
  UniqueValueRendererSchema,
  ClassBreaksRendererSchema,
]);

/** Label settings of a layer: text from `field`, drawn at `sizePt` with an optional halo. */
export const LabelSpecSchema = z.object({
  field: z.string().min(1),
  color: ColorSchema.default([0, 0, 0, 255]),
  sizePt: z.number().min(1).max(200).default(8),
  halo: z
    .object({ color: ColorSchema.default([255, 255, 255, 255]), sizePt: z.number().min(0).max(20) })
    .optional(),
  /** Labels drawn only when scale <= minScale (0 = no limit), like layer scale ranges. */
  minScale: z.number().min(0).default(0),
  /** Labels drawn only when scale >= maxScale (0 = no limit). */
  maxScale: z.number().min(0).default(0),
});

/** A simple line symbol (plain type). */
export type SimpleLineSymbol = z.infer<typeof SimpleLineSymbolSchema>;
/** A simple marker symbol (plain type). */
export type SimpleMarkerSymbol = z.infer<typeof SimpleMarkerSymbolSchema>;
/** A simple fill symbol (plain type). */
export type SimpleFillSymbol = z.infer<typeof SimpleFillSymbolSchema>;
/** Any symbol (plain type). */
export type SymbolSpec = z.infer<typeof SymbolSchema>;
/** A layer renderer (plain type). */
export type RendererSpec = z.infer<typeof RendererSpecSchema>;
/** Label settings (plain type). */
export type LabelSpec = z.infer<typeof LabelSpecSchema>;

/** One legend/renderer class: what it is called and how it is drawn. */
export interface RendererClass {
  label: string;
  description: string;
  symbol: SymbolSpec;
}

/**
 * The fields a renderer reads from each feature (empty for `simple`).
 *
 * @example
 * ```ts
 * declare const symbol: SymbolSpec;
 * rendererFields({ type: "simple", symbol, label: "", description: "", transparency: 0 }); // []
 * ```
 */
export function rendererFields(spec: RendererSpec): string[] {
  return spec.type === "simple" ? [] : [spec.field];
}

/**
 * The symbol for a feature's attributes, or null when the renderer assigns
 * none (no matching class and no default): such features are not drawn.
 *
 * @example
 * ```ts
 * declare const spec: RendererSpec;
 * const sym = pickSymbol(spec, { kind: "open" });
 * ```
 */
export function pickSymbol(
  spec: RendererSpec,
  attributes: Record<string, unknown>,
): SymbolSpec | null {
  if (spec.type === "simple") return spec.symbol;
  const raw = attributes[spec.field];
  if (spec.type === "uniqueValue") {
    for (const v of spec.values) {
      // Attribute values may arrive as numbers while documents list strings (or vice versa).
      if (
        v.value === raw || (raw !== null && raw !== undefined && String(v.value) === String(raw))
      ) {
        return v.symbol;
      }
    }
    return spec.default?.symbol ?? null;
  }
  const n = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : NaN;
  if (raw === null || raw === undefined || raw === "" || !Number.isFinite(n)) {
    return spec.default?.symbol ?? null;
  }
  if (n < spec.minValue) return spec.default?.symbol ?? null;
  for (const b of spec.breaks) {
    if (n <= b.max) return b.symbol;
  }
  return spec.default?.symbol ?? null;
}

/**
 * The classes of a renderer in legend order (the default class last).
 *
 * @example
 * ```ts
 * declare const spec: RendererSpec;
 * for (const c of rendererClasses(spec)) console.log(c.label);
 * ```
 */
export function rendererClasses(spec: RendererSpec): RendererClass[] {
  if (spec.type === "simple") {
    return [{ label: spec.label, description: spec.description, symbol: spec.symbol }];
  }
  const out: RendererClass[] = spec.type === "uniqueValue"
    ? spec.values.map((v) => ({
      label: v.label || String(v.value),
      description: v.description,
      symbol: v.symbol,
    }))
    : spec.breaks.map((b, i) => ({
      label: b.label || `${i === 0 ? spec.minValue : spec.breaks[i - 1].max} - ${b.max}`,
      description: b.description,
      symbol: b.symbol,
    }));
  if (spec.default) {
    out.push({ label: spec.default.label, description: "", symbol: spec.default.symbol });
  }
  return out;
}

/**
 * The largest extent, in points, a symbol reaches from its anchor (marker
 * radius plus outline, half a line width): what tile invalidation and view
 * clipping must pad by.
 *
 * @example
 * ```ts
 * symbolReachPt({ type: "simple-marker", style: "circle", color: [0, 0, 0, 255], size: 8,
 *   angle: 0, xoffset: 0, yoffset: 0 }); // 4
 * ```
 */
export function symbolReachPt(symbol: SymbolSpec): number {
  switch (symbol.type) {
    case "simple-marker": {
      // Squares and diamonds reach sqrt(2) further when rotated; be generous.
      const half = symbol.style === "circle" ? symbol.size / 2 : (symbol.size / 2) * Math.SQRT2;
      return half + (symbol.outline?.width ?? 0) / 2 +
        Math.hypot(symbol.xoffset, symbol.yoffset);
    }
    case "simple-line":
      return symbol.width / 2;
    case "simple-fill":
      return (symbol.outline?.width ?? 0) / 2;
  }
}

/**
 * The largest symbol reach of a renderer's classes, in points.
 *
 * @example
 * ```ts
 * declare const layer: { renderer: RendererSpec };
 * const padPt = rendererReachPt(layer.renderer);
 * ```
 */
export function rendererReachPt(spec: RendererSpec): number {
  let max = 0;
  for (const c of rendererClasses(spec)) max = Math.max(max, symbolReachPt(c.symbol));
  return max;
}
