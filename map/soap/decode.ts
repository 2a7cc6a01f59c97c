/**
 * Type-driven decoder: element tree -> plain objects (team-brief
 * convention). Lenient where real clients are sloppy (missing "required"
 * elements, unknown extra elements, any namespace on child elements,
 * missing `xsi:type` on abstract values when the children make the type
 * clear), strict where a value would be misread (wrong simple types,
 * unknown enumeration values, an `xsi:type` that does not fit).
 *
 * @module
 */
import { SoapFault } from "./fault.ts";
import { type ElementDef, isXsdType, type OperationDef, type Schema } from "./schema.ts";
import { parseSimple, typeDescription } from "./_simple.ts";
import type { XmlElement } from "./xml.ts";

/** The XML Schema namespace (`xsd:int` values of anyType elements). */
export const XSD_NS = "http://www.w3.org/2001/XMLSchema";

/** True for namespaces of ArcGIS type QNames: any `http://www.esri.com/schemas/ArcGIS/<ver>`. */
export function isEsriNamespace(ns: string): boolean {
  return ns.startsWith("http://www.esri.com/schemas/ArcGIS/");
}

const memberMaps = new WeakMap<Schema, Map<string, Map<string, ElementDef>>>();

function memberMap(schema: Schema, type: string): Map<string, ElementDef> {
  let perSchema = memberMaps.get(schema);
  if (!perSchema) memberMaps.set(schema, perSchema = new Map());
  let m = perSchema.get(type);
  if (!m) {
    m = new Map(schema.elementsOf(type).map((e) => [e.name, e]));
    perSchema.set(type, m);
  }
  return m;
}

/**
 * Decodes the children of an operation's request element.
 *
 * @example
 * ```ts
 * import { MAPSERVER_SCHEMA } from "./types.ts";
 * import { parseXml } from "./xml.ts";
 * const el = parseXml("<GetMapName><Index>0</Index></GetMapName>");
 * const req = decodeRequest(MAPSERVER_SCHEMA, MAPSERVER_SCHEMA.operation("GetMapName")!, el);
 * req.Index; // 0
 * ```
 */
export function decodeRequest(
  schema: Schema,
  op: OperationDef,
  el: XmlElement,
): Record<string, unknown> {
  return decodeMembers(schema, op.request, el, op.name);
}

function decodeMembers(
  schema: Schema,
  defs: readonly ElementDef[] | Map<string, ElementDef>,
  el: XmlElement,
  path: string,
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  const byName = defs instanceof Map ? defs : new Map(defs.map((d) => [d.name, d]));
  for (const child of el.children) {
    const def = byName.get(child.local);
    // Unknown elements (newer schema versions, vendor extras) are ignored; first occurrence wins.
    if (!def || child.local in into) continue;
    const v = decodeValue(schema, child, def.type, `${path}/${child.local}`);
    if (v !== undefined) into[child.local] = v;
  }
  return into;
}

/** Decodes one element whose declared type is `type` (XSD built-in or table type). */
export function decodeValue(schema: Schema, el: XmlElement, type: string, path: string): unknown {
  if (el.nil) return null;
  if (type === "anyType") return decodeAny(schema, el, path);
  if (isXsdType(type)) return simple(type, el.text, path);
  const def = schema.type(type);
  if (!def) throw new Error(`Unknown type ${type}`);
  switch (def.kind) {
    case "enum": {
      const text = el.text.trim();
      if (text === "") return undefined;
      if (!def.values.includes(text)) {
        throw new SoapFault(
          "Client",
          `${path} must be one of ${def.values.join(", ")}; got "${text.slice(0, 80)}".`,
          { Element: path, Type: type },
        );
      }
      return text;
    }
    case "array":
      return el.children
        .filter((c) => c.local === def.itemName)
        .map((c, i) => {
          const v = decodeValue(schema, c, def.itemType, `${path}/${def.itemName}[${i}]`);
          return v === undefined ? null : v;
        });
    case "complex": {
      const concrete = concreteType(schema, el, type, path);
      const obj: Record<string, unknown> = { $type: concrete };
      return decodeMembers(schema, memberMap(schema, concrete), el, path, obj);
    }
  }
}

function simple(type: string, text: string, path: string): unknown {
  try {
    return parseSimple(type, text);
  } catch {
    throw new SoapFault(
      "Client",
      `${path} must be ${typeDescription(type)}; got "${text.trim().slice(0, 80)}".`,
      { Element: path, Type: type },
    );
  }
}

/** Picks the concrete complex type of `el` for declared type `declared`. */
function concreteType(schema: Schema, el: XmlElement, declared: string, path: string): string {
  if (el.xsiType) {
    const name = el.xsiType.local;
    const def = schema.type(name);
    if (!def || def.kind !== "complex") {
      throw new SoapFault("Client", `${path} has unknown xsi:type "${name}".`, {
        Element: path,
        Type: name,
      });
    }
    if (!schema.derivesFrom(name, declared)) {
      throw new SoapFault(
        "Client",
        `${path} has xsi:type "${name}", which is not a kind of ${declared}.`,
        { Element: path, Type: name },
      );
    }
    if (def.abstract) {
      throw new SoapFault(
        "Client",
        `${path} has the abstract xsi:type "${name}"; send a concrete type.`,
      );
    }
    return name;
  }
  const def = schema.type(declared);
  if (def?.kind === "complex" && !def.abstract) return declared;
  return inferType(schema, el, declared, path);
}

/**
 * For an abstract declaration without xsi:type, choose the concrete subtype
 * whose members cover all child elements. Some hand-written clients leave
 * xsi:type out.
 */
function inferType(schema: Schema, el: XmlElement, declared: string, path: string): string {
  const names = [...new Set(el.children.map((c) => c.local))];
  // First covering subtype in declaration order: the "N" forms come first.
  const best = names.length === 0 ? undefined : schema.subtypesOf(declared).find((sub) => {
    const def = schema.type(sub);
    if (!def || def.kind !== "complex" || def.abstract) return false;
    const members = memberMap(schema, sub);
    return names.every((n) => members.has(n));
  });
  if (!best) {
    const options = schema.subtypesOf(declared).filter((s) => {
      const d = schema.type(s);
      return d?.kind === "complex" && !d.abstract;
    });
    throw new SoapFault(
      "Client",
      `${path} is declared as the abstract type ${declared}; add xsi:type with one of ${
        options.join(", ")
      }.`,
      { Element: path, Type: declared },
    );
  }
  return best;
}

/** Decodes an `anyType` element by its xsi:type (XSD simple or ArcGIS complex). */
function decodeAny(schema: Schema, el: XmlElement, path: string): unknown {
  const t = el.xsiType;
  if (t) {
    if (t.ns === XSD_NS) {
      if (isXsdType(t.local)) return simple(t.local, el.text, path) ?? "";
      // Other XSD built-ins (decimal, byte, ...) are kept as text.
      return el.text;
    }
    const def = schema.type(t.local);
    if (def) return decodeValue(schema, el, t.local, path);
    throw new SoapFault("Client", `${path} has unknown xsi:type "${t.local}".`, {
      Element: path,
      Type: t.local,
    });
  }
  return el.text;
}
