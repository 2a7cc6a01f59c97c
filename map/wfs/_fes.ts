/**
 * FES 2.0 (and Filter Encoding 1.1, for WFS 1.1.0) filters read into the
 * where engine's tree (`map/query/ast.ts`): property names are checked
 * against the feature type's fields and literals take the field's type by
 * the where parser's own rule ({@linkcode fieldLiteral}); nothing of the
 * filter becomes SQL text.
 *
 * Supported: And, Or, Not; PropertyIsEqualTo, NotEqualTo, LessThan,
 * GreaterThan, LessThanOrEqualTo, GreaterThanOrEqualTo (matchCase="false"
 * compares upper-cased), PropertyIsLike (wildCard, singleChar,
 * escapeChar/escape), PropertyIsNull, PropertyIsNil, PropertyIsBetween;
 * ResourceId/FeatureId/GmlObjectId; BBOX and Intersects with a GML
 * Envelope, Point, LineString, Polygon or their multi-geometries, as the
 * whole filter or a conjunct of a top-level And (it becomes the query's
 * one spatial filter).
 *
 * @module
 */
import type { FieldInfo, Geometry, Position } from "../types.ts";
import type { ValueNode, WhereNode } from "../query/mod.ts";
import { fieldLiteral, WhereClauseError } from "../query/mod.ts";
import { WfsError } from "./_exception.ts";
import { childrenNamed, type XmlNode } from "./_xml.ts";
import { type FeatureType, findProperty } from "./_feature_types.ts";
import { axes, parseCrs, type WfsCrs } from "./_crs.ts";

/** A filter as the engine takes it. */
export interface WfsFilter {
  where?: WhereNode;
  /** The one spatial filter (Intersects), its geometry in (x, y) order. */
  spatial?: { geometry: Geometry; wkid: number };
  /** Resource ids (`type.id`) the filter selects. */
  ids?: string[];
}

const COMPARE: Record<string, "=" | "<>" | "<" | "<=" | ">" | ">="> = {
  PropertyIsEqualTo: "=",
  PropertyIsNotEqualTo: "<>",
  PropertyIsLessThan: "<",
  PropertyIsGreaterThan: ">",
  PropertyIsLessThanOrEqualTo: "<=",
  PropertyIsGreaterThanOrEqualTo: ">=",
};

/** The operators the reader knows, for Filter_Capabilities. */
export const COMPARISON_OPERATORS = [
  ...Object.keys(COMPARE),
  "PropertyIsLike",
  "PropertyIsNull",
  "PropertyIsNil",
  "PropertyIsBetween",
];

const MAX_TERMS = 1000;

function bad(message: string): WfsError {
  return new WfsError("InvalidParameterValue", message, "FILTER");
}

class Reader {
  terms = 0;
  spatial: WfsFilter["spatial"];
  ids: string[] = [];

  constructor(readonly type: FeatureType, readonly defaultCrs: WfsCrs) {}

  elements(n: XmlNode): XmlNode[] {
    return n.children;
  }

  node(n: XmlNode, top: boolean): WhereNode | undefined {
    if (++this.terms > MAX_TERMS) throw bad(`The filter has more than ${MAX_TERMS} terms.`);
    const name = n.local;
    if (name === "And" || name === "Or") {
      const parts = n.children.map((c) => this.node(c, top && name === "And"));
      if (n.children.length < 2) throw bad(`${name} needs two operands or more.`);
      const kept = parts.filter((p): p is WhereNode => p !== undefined);
      if (name === "Or" && kept.length !== parts.length) {
        throw new WfsError(
          "OptionNotSupported",
          "A spatial operator is supported only as the whole filter or a term of its top-level And.",
          "FILTER",
        );
      }
      return kept.reduce<WhereNode | undefined>(
        (acc, p) => acc ? { kind: name === "And" ? "and" : "or", left: acc, right: p } : p,
        undefined,
      );
    }
    if (name === "Not") {
      if (n.children.length !== 1) throw bad("Not needs exactly one operand.");
      const inner = this.node(n.children[0], false);
      return { kind: "not", operand: inner! };
    }
    if (name in COMPARE) return this.compare(n, COMPARE[name]);
    if (name === "PropertyIsLike") return this.like(n);
    if (name === "PropertyIsNull" || name === "PropertyIsNil") {
      const [p] = this.operands(n, 1);
      return { kind: "isNull", value: this.field(p), negated: false };
    }
    if (name === "PropertyIsBetween") return this.between(n);
    if (name === "BBOX" || name === "Intersects") {
      if (!top) {
        throw new WfsError(
          "OptionNotSupported",
          `${name} is supported only as the whole filter or a term of its top-level And.`,
          "FILTER",
        );
      }
      if (this.spatial) {
        throw new WfsError("OptionNotSupported", "Only one spatial operator per filter.", "FILTER");
      }
      const geom = n.children.find((c) =>
        c.local !== "ValueReference" && c.local !== "PropertyName"
      );
      const prop = n.children.find((c) =>
        c.local === "ValueReference" || c.local === "PropertyName"
      );
      if (prop && findProperty(this.type, prop.text, "FILTER") !== "geometry") {
        throw bad(`${name} must name the geometry property ${this.type.geometryName}.`);
      }
      if (!geom) throw bad(`${name} needs a GML geometry.`);
      this.spatial = readGml(geom, this.defaultCrs);
      return undefined;
    }
    if (name === "ResourceId" || name === "FeatureId" || name === "GmlObjectId") {
      if (!top) {
        throw new WfsError("OptionNotSupported", `${name} must be at the filter's top.`, "FILTER");
      }
      const id = n.attrs.get("rid") ?? n.attrs.get("fid") ?? n.attrs.get("id");
      if (!id) throw bad(`${name} needs its identifier attribute.`);
      this.ids.push(id);
      return undefined;
    }
    throw new WfsError(
      "OptionNotSupported",
      `The filter operator "${name}" is not supported; see the Filter_Capabilities.`,
      "FILTER",
    );
  }

  operands(n: XmlNode, count: number): XmlNode[] {
    if (n.children.length !== count) {
      throw bad(`${n.local} needs ${count} operand${count > 1 ? "s" : ""}.`);
    }
    return n.children;
  }

  fieldOf(p: XmlNode): FieldInfo {
    if (p.local !== "ValueReference" && p.local !== "PropertyName") {
      throw bad(`${p.local} is not a property name (ValueReference or PropertyName).`);
    }
    const f = findProperty(this.type, p.text, "FILTER");
    if (f === "geometry") throw bad(`The geometry property cannot be compared as a value.`);
    return f;
  }

  field(p: XmlNode): ValueNode {
    return { kind: "field", name: this.fieldOf(p).name };
  }

  literal(field: FieldInfo, n: XmlNode): ValueNode {
    if (n.local !== "Literal") throw bad(`${n.local} is not a Literal.`);
    try {
      return fieldLiteral(field, n.text.trim() === "" && field.type !== "String" ? null : n.text);
    } catch (e) {
      if (e instanceof WhereClauseError) throw bad(e.message);
      throw e;
    }
  }

  compare(n: XmlNode, op: "=" | "<>" | "<" | "<=" | ">" | ">="): WhereNode {
    const [a, b] = this.operands(n, 2);
    const aIsProp = a.local !== "Literal";
    const prop = aIsProp ? a : b, lit = aIsProp ? b : a;
    const field = this.fieldOf(prop);
    let left: ValueNode = this.field(prop);
    let right: ValueNode = lit.local === "Literal" ? this.literal(field, lit) : this.field(lit);
    if (n.attrs.get("matchCase") === "false" && field.type === "String") {
      left = { kind: "call", name: "UPPER", args: [left] };
      right = { kind: "call", name: "UPPER", args: [right] };
    }
    const flip: Record<string, typeof op> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=" };
    return { kind: "compare", op: aIsProp ? op : flip[op] ?? op, left, right };
  }

  like(n: XmlNode): WhereNode {
    const [p, lit] = this.operands(n, 2);
    const field = this.fieldOf(p);
    const wild = n.attrs.get("wildCard") ?? "*";
    const single = n.attrs.get("singleChar") ?? "?";
    const esc = n.attrs.get("escapeChar") ?? n.attrs.get("escape") ?? "\\";
    if ([wild, single, esc].some((c) => [...c].length !== 1)) {
      throw bad("wildCard, singleChar and escapeChar must be one character each.");
    }
    if (lit.local !== "Literal") throw bad("PropertyIsLike needs a Literal pattern.");
    // The FES pattern as a LIKE pattern with % and _ and \ as its escape.
    let pattern = "";
    const chars = [...lit.text];
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i];
      if (c === esc && i + 1 < chars.length) {
        const next = chars[++i];
        pattern += next === "%" || next === "_" || next === "\\" ? `\\${next}` : next;
      } else if (c === wild) pattern += "%";
      else if (c === single) pattern += "_";
      else if (c === "%" || c === "_" || c === "\\") pattern += `\\${c}`;
      else pattern += c;
    }
    let value: ValueNode = this.field(p);
    let pat: ValueNode = { kind: "literal", value: pattern };
    if (n.attrs.get("matchCase") === "false") {
      value = { kind: "call", name: "UPPER", args: [value] };
      pat = { kind: "literal", value: pattern.toUpperCase() };
    }
    if (field.type !== "String") {
      value = { kind: "call", name: "CAST", args: [value], keyword: "VARCHAR" };
    }
    return { kind: "like", value, pattern: pat, escape: "\\", negated: false };
  }

  between(n: XmlNode): WhereNode {
    const p = n.children[0];
    const lo = childrenNamed(n, "LowerBoundary")[0]?.children[0];
    const hi = childrenNamed(n, "UpperBoundary")[0]?.children[0];
    if (!p || !lo || !hi) {
      throw bad("PropertyIsBetween needs a property, LowerBoundary and UpperBoundary.");
    }
    const field = this.fieldOf(p);
    return {
      kind: "between",
      value: this.field(p),
      low: this.literal(field, lo),
      high: this.literal(field, hi),
      negated: false,
    };
  }
}

function numbers(text: string, what: string): number[] {
  const parts = text.trim().split(/[\s,]+/).filter((s) => s !== "");
  const ns = parts.map(Number);
  if (ns.some((v) => !Number.isFinite(v))) throw bad(`The coordinates of ${what} are not numbers.`);
  return ns;
}

function positions(n: XmlNode, crs: WfsCrs): Position[] {
  const list = childrenNamed(n, "posList")[0] ?? childrenNamed(n, "coordinates")[0];
  let ns: number[];
  if (list) ns = numbers(list.text, n.local);
  else {
    const ps = [...childrenNamed(n, "pos"), ...childrenNamed(n, "coord")];
    ns = ps.flatMap((p) =>
      p.local === "coord"
        ? p.children.map((c) => numbers(c.text, n.local)[0])
        : numbers(p.text, n.local)
    );
  }
  if (ns.length % 2 !== 0 || ns.length === 0) {
    throw bad(`${n.local} needs pairs of coordinates (2D only).`);
  }
  const out: Position[] = [];
  for (let i = 0; i < ns.length; i += 2) out.push(axes(crs, [ns[i], ns[i + 1]]));
  return out;
}

function rings(polygon: XmlNode, crs: WfsCrs): Position[][] {
  const out: Position[][] = [];
  for (const b of polygon.children) {
    const ring = b.children.find((c) => c.local === "LinearRing");
    if (!ring) throw bad(`${b.local} needs a LinearRing.`);
    out.push(positions(ring, crs));
  }
  if (out.length === 0) throw bad("A Polygon needs an exterior ring.");
  return out;
}

function members(n: XmlNode): XmlNode[] {
  return n.children.flatMap((m) =>
    m.local.endsWith("Members") ? m.children : m.children.slice(0, 1)
  );
}

/**
 * A GML geometry (3.2 or 3.1.1) as the engine's geometry and WKID; its
 * `srsName` (or `fallback`) gives the axis order.
 *
 * @example
 * ```ts ignore
 * readGml(envelopeNode, urnCrs(4326)).geometry.type; // "Envelope"
 * ```
 */
export function readGml(n: XmlNode, fallback: WfsCrs): { geometry: Geometry; wkid: number } {
  const srs = n.attrs.get("srsName");
  const crs = srs ? parseCrs(srs, "FILTER") : fallback;
  const geometry = gmlShape(n, crs);
  return { geometry, wkid: crs.wkid };
}

function gmlShape(n: XmlNode, crs: WfsCrs): Geometry {
  switch (n.local) {
    case "Envelope":
    case "Box": {
      const lo = childrenNamed(n, "lowerCorner")[0], hi = childrenNamed(n, "upperCorner")[0];
      const ps = lo && hi
        ? [
          ...positions({ ...n, children: [{ ...lo, local: "pos" }] }, crs),
          ...positions({ ...n, children: [{ ...hi, local: "pos" }] }, crs),
        ]
        : positions(n, crs);
      if (ps.length !== 2) throw bad("An Envelope needs two corners.");
      const [a, b] = ps;
      return {
        type: "Envelope",
        xmin: Math.min(a[0], b[0]),
        ymin: Math.min(a[1], b[1]),
        xmax: Math.max(a[0], b[0]),
        ymax: Math.max(a[1], b[1]),
      };
    }
    case "Point": {
      const [p] = positions(n, crs);
      return { type: "Point", x: p[0], y: p[1] };
    }
    case "MultiPoint":
      return { type: "Multipoint", points: members(n).map((m) => positions(m, crs)[0]) };
    case "LineString":
      return { type: "Polyline", paths: [positions(n, crs)] };
    case "MultiCurve":
    case "MultiLineString":
      return { type: "Polyline", paths: members(n).map((m) => positions(m, crs)) };
    case "Polygon":
      return { type: "Polygon", rings: rings(n, crs) };
    case "MultiSurface":
    case "MultiPolygon":
      return { type: "Polygon", rings: members(n).flatMap((m) => rings(m, crs)) };
  }
  throw new WfsError(
    "OptionNotSupported",
    `The GML geometry "${n.local}" is not supported (Envelope, Point, LineString, Polygon and their multi-geometries are).`,
    "FILTER",
  );
}

/**
 * Reads a `fes:Filter` (or `ogc:Filter`) element against a feature type;
 * positions without `srsName` are in `defaultCrs`.
 *
 * @example
 * ```ts ignore
 * readFilter(parseXml(text, "FILTER"), type, urnCrs(4326)).where;
 * ```
 */
export function readFilter(root: XmlNode, type: FeatureType, defaultCrs: WfsCrs): WfsFilter {
  if (root.local !== "Filter") throw bad(`The filter's root element is ${root.local}, not Filter.`);
  const r = new Reader(type, defaultCrs);
  const parts = root.children.map((c) => r.node(c, true));
  if (root.children.length > 1 && !root.children.every((c) => /Id$/.test(c.local))) {
    throw bad("A Filter holds one operator (or a list of resource ids).");
  }
  const where = parts.find((p) => p !== undefined);
  return {
    ...(where ? { where } : {}),
    ...(r.spatial ? { spatial: r.spatial } : {}),
    ...(r.ids.length ? { ids: r.ids } : {}),
  };
}
