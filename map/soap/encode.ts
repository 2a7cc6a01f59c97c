/**
 * Type-driven encoder: plain objects -> XML, strictly in schema order, the
 * way ArcGIS writes it: unqualified child elements, `xsi:type="tns:T"` on
 * every complex element (concrete ones and arrays included), `xsd:`-typed
 * `anyType` values, and defaults for required simple members the handler
 * left out so the output always validates.
 *
 * Values: see the team-brief convention. Polymorphic values name their
 * concrete type in `$type`; `anyType` values may force an XSD type with
 * `{ $xsd: "short", value: 3 }`.
 *
 * @module
 */
import { escapeText } from "./_xml_text.ts";
import { defaultSimple, formatSimple } from "./_simple.ts";
import {
  type ArrayTypeDef,
  type ElementDef,
  isXsdType,
  type OperationDef,
  type Schema,
} from "./schema.ts";

/** Prefix the encoder uses for the ArcGIS namespace (declared on the envelope). */
export const TNS = "tns";

/** Concrete types used when a required member of an abstract type is missing. */
const FALLBACK: Readonly<Record<string, string>> = {
  SpatialReference: "UnknownCoordinateSystem",
  Color: "RgbColor",
  Point: "PointN",
  Envelope: "EnvelopeN",
  Multipoint: "MultipointN",
};

/**
 * Writes the children of an operation's response element.
 *
 * @example
 * ```ts
 * import { MAPSERVER_SCHEMA } from "./types.ts";
 * encodeResponse(MAPSERVER_SCHEMA, MAPSERVER_SCHEMA.operation("GetMapCount")!, { Result: 1 });
 * // "<Result>1</Result>"
 * ```
 */
export function encodeResponse(
  schema: Schema,
  op: OperationDef,
  result: Record<string, unknown>,
): string {
  const out: string[] = [];
  for (const def of op.response) {
    writeElement(schema, out, def, result[def.name], `${op.name}Response/${def.name}`);
  }
  return out.join("");
}

/** Writes one element `<name>` holding `value` of declared `type`; appends to `out`. */
export function encodeValue(
  schema: Schema,
  out: string[],
  name: string,
  type: string,
  value: unknown,
): void {
  writeElement(schema, out, { name, type, optional: false, nillable: false }, value, name);
}

function writeElement(
  schema: Schema,
  out: string[],
  def: ElementDef,
  value: unknown,
  path: string,
): void {
  if (value === undefined || (value === null && !def.nillable)) {
    if (def.optional) return;
    writeDefault(schema, out, def, path);
    return;
  }
  if (value === null) {
    out.push(`<${def.name} xsi:nil="true"/>`);
    return;
  }
  writeTyped(schema, out, def.name, def.type, value, path);
}

/**
 * A simple value as escaped character data. Bytes become base64, whose alphabet never needs
 * escaping: the escape scan over an image's hundreds of KB of base64 is skipped.
 */
function simpleText(type: string, value: unknown, path: string): string {
  const text = formatSimple(type, value, path);
  return type === "base64Binary" && value instanceof Uint8Array ? text : escapeText(text);
}

function writeTyped(
  schema: Schema,
  out: string[],
  name: string,
  type: string,
  value: unknown,
  path: string,
): void {
  if (type === "anyType") return writeAny(schema, out, name, value, path);
  if (isXsdType(type)) {
    out.push(`<${name}>${simpleText(type, value, path)}</${name}>`);
    return;
  }
  const t = schema.type(type);
  if (!t) throw new Error(`${path}: unknown type ${type}`);
  if (t.kind === "enum") {
    if (typeof value !== "string" || !t.values.includes(value)) {
      throw new Error(`${path}: ${JSON.stringify(value)} is not a value of ${type}`);
    }
    out.push(`<${name}>${value}</${name}>`);
  } else if (t.kind === "array") {
    writeArray(schema, out, name, t, value, path);
  } else {
    if (typeof value !== "object" || Array.isArray(value) || value instanceof Uint8Array) {
      throw new Error(`${path}: expected an object of type ${type}`);
    }
    writeComplex(schema, out, name, type, value as Record<string, unknown>, path);
  }
}

function writeComplex(
  schema: Schema,
  out: string[],
  name: string,
  declared: string,
  obj: Record<string, unknown>,
  path: string,
): void {
  const concrete = concreteOf(schema, declared, obj.$type, path);
  out.push(`<${name} xsi:type="${TNS}:${concrete}">`);
  for (const m of schema.elementsOf(concrete)) {
    writeElement(schema, out, m, obj[m.name], `${path}/${m.name}`);
  }
  out.push(`</${name}>`);
}

function concreteOf(schema: Schema, declared: string, $type: unknown, path: string): string {
  let concrete = typeof $type === "string" ? $type : declared;
  if (!schema.derivesFrom(concrete, declared)) {
    throw new Error(`${path}: ${concrete} is not a kind of ${declared}`);
  }
  const def = schema.type(concrete);
  if (def?.kind === "complex" && def.abstract) {
    if ($type !== undefined) throw new Error(`${path}: $type ${concrete} is abstract`);
    concrete = fallbackOf(schema, declared, path);
  }
  return concrete;
}

function fallbackOf(schema: Schema, declared: string, path: string): string {
  const preferred = FALLBACK[declared];
  if (preferred) return preferred;
  const first = schema.subtypesOf(declared).find((s) => {
    const d = schema.type(s);
    return d?.kind === "complex" && !d.abstract;
  });
  if (!first) throw new Error(`${path}: no concrete type for abstract ${declared}`);
  return first;
}

function writeArray(
  schema: Schema,
  out: string[],
  name: string,
  t: ArrayTypeDef,
  value: unknown,
  path: string,
): void {
  if (!Array.isArray(value)) throw new Error(`${path}: expected an array for ${t.name}`);
  if (value.length === 0) {
    out.push(`<${name} xsi:type="${TNS}:${t.name}"/>`);
    return;
  }
  out.push(`<${name} xsi:type="${TNS}:${t.name}">`);
  const item: ElementDef = {
    name: t.itemName,
    type: t.itemType,
    optional: false,
    nillable: t.itemNillable,
  };
  if (t.itemType === "int" || t.itemType === "double" || t.itemType === "string") {
    // Hot path: long simple arrays (FIDSets, screen coordinates).
    const open = `<${t.itemName}>`, close = `</${t.itemName}>`;
    for (let i = 0; i < value.length; i++) {
      out.push(open + escapeText(formatSimple(t.itemType, value[i], `${path}[${i}]`)) + close);
    }
  } else {
    for (let i = 0; i < value.length; i++) {
      writeElement(schema, out, item, value[i], `${path}/${t.itemName}[${i}]`);
    }
  }
  out.push(`</${name}>`);
}

/** Writes an `anyType` value with the xsi:type ArcGIS uses for it. */
function writeAny(schema: Schema, out: string[], name: string, value: unknown, path: string): void {
  let xsd: string;
  let v: unknown = value;
  if (typeof value === "string") xsd = "string";
  else if (typeof value === "boolean") xsd = "boolean";
  else if (typeof value === "number") {
    xsd = Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 ? "int" : "double";
  } else if (value instanceof Date) xsd = "dateTime";
  else if (value instanceof Uint8Array) xsd = "base64Binary";
  else if (typeof value === "object" && value !== null && "$xsd" in value) {
    const forced = value as { $xsd: unknown; value: unknown };
    if (typeof forced.$xsd !== "string" || !isXsdType(forced.$xsd) || forced.$xsd === "anyType") {
      throw new Error(`${path}: $xsd must name an XSD simple type`);
    }
    xsd = forced.$xsd;
    v = forced.value;
  } else if (typeof value === "object" && value !== null && "$type" in value) {
    const $type = (value as { $type: unknown }).$type;
    const def = typeof $type === "string" ? schema.type($type) : undefined;
    if (!def || def.kind !== "complex") throw new Error(`${path}: unknown $type ${String($type)}`);
    writeComplex(schema, out, name, $type as string, value as Record<string, unknown>, path);
    return;
  } else {
    throw new Error(`${path}: cannot write ${typeof value} as anyType`);
  }
  out.push(`<${name} xsi:type="xsd:${xsd}">${simpleText(xsd, v, path)}</${name}>`);
}

/** A required member the handler left out: write what validates and means "unset". */
function writeDefault(schema: Schema, out: string[], def: ElementDef, path: string): void {
  const { name, type } = def;
  if (type === "anyType") {
    out.push(`<${name}/>`);
    return;
  }
  if (isXsdType(type)) {
    out.push(`<${name}>${escapeText(def.default ?? defaultSimple(type))}</${name}>`);
    return;
  }
  const t = schema.type(type);
  if (!t) throw new Error(`${path}: unknown type ${type}`);
  if (t.kind === "enum") out.push(`<${name}>${def.default ?? t.values[0]}</${name}>`);
  else if (t.kind === "array") out.push(`<${name} xsi:type="${TNS}:${t.name}"/>`);
  else writeComplex(schema, out, name, type, {}, path);
}
