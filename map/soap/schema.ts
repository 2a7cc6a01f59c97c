/**
 * The shapes of the declarative SOAP type table and the `Schema` registry
 * built from it. One table drives decoding, encoding and the WSDL, so the
 * three cannot disagree.
 *
 * Types are written in a compact notation close to the spec's (§3):
 * `complex("PointN", "X:double Y:double M:double? ID:int? SpatialReference:SpatialReference?", { base: "Point" })`.
 * Member suffixes: `?` minOccurs=0, `~` nillable, `=v` XSD default (last).
 *
 * @module
 */

/** The XSD built-in types the ArcGIS schema uses. */
export const XSD_TYPES = [
  "string",
  "int",
  "short",
  "long",
  "double",
  "float",
  "boolean",
  "base64Binary",
  "dateTime",
  "unsignedByte",
  "anyType",
] as const;

/** One XSD built-in type. */
export type XsdType = typeof XSD_TYPES[number];

/** One child element of a sequence. */
export interface ElementDef {
  name: string;
  /** An XSD built-in (see {@link XSD_TYPES}) or a type of the table. */
  type: string;
  /** minOccurs="0". */
  optional: boolean;
  /** nillable="true". */
  nillable: boolean;
  /** XSD default value (lexical form), if any. */
  default?: string;
}

/** A complex type with a sequence of elements, optionally extending a base. */
export interface ComplexTypeDef {
  kind: "complex";
  name: string;
  base?: string;
  abstract: boolean;
  /** The type's own elements (the base's come first on the wire). */
  elements: readonly ElementDef[];
}

/** An `ArrayOfX` wrapper: zero or more `itemName` elements of `itemType`. */
export interface ArrayTypeDef {
  kind: "array";
  name: string;
  itemName: string;
  itemType: string;
  itemNillable: boolean;
}

/** An `xs:string` enumeration. */
export interface EnumTypeDef {
  kind: "enum";
  name: string;
  values: readonly string[];
}

/** Any named type of the table. */
export type TypeDef = ComplexTypeDef | ArrayTypeDef | EnumTypeDef;

/** Request and response elements of one operation. */
export interface OperationDef {
  name: string;
  request: readonly ElementDef[];
  response: readonly ElementDef[];
}

/** True when `type` is an XSD built-in rather than a table type. */
export function isXsdType(type: string): type is XsdType {
  return (XSD_TYPES as readonly string[]).includes(type);
}

/**
 * Parses the member notation (`Name:type`, suffixes `?`, `~`, `=default`)
 * into element definitions.
 *
 * @example
 * ```ts
 * members("Name:string MapArea:MapArea? Value:anyType?~ Editable:boolean?=true");
 * ```
 */
export function members(spec: string): ElementDef[] {
  const out: ElementDef[] = [];
  for (const token of spec.split(/[\s,]+/).filter(Boolean)) {
    const m = /^([A-Za-z_][\w]*):([A-Za-z_][\w]*)(\?)?(~)?(?:=(.+))?$/.exec(token);
    if (!m) throw new Error(`Bad member notation "${token}"`);
    const el: ElementDef = { name: m[1], type: m[2], optional: !!m[3], nillable: !!m[4] };
    if (m[5] !== undefined) el.default = m[5];
    out.push(el);
  }
  return out;
}

/** Declares a complex type. */
export function complex(
  name: string,
  spec: string,
  opts: { base?: string; abstract?: boolean } = {},
): ComplexTypeDef {
  return {
    kind: "complex",
    name,
    base: opts.base,
    abstract: !!opts.abstract,
    elements: members(spec),
  };
}

/** Declares an abstract complex type. */
export function abstract(name: string, spec = "", base?: string): ComplexTypeDef {
  return complex(name, spec, { base, abstract: true });
}

/** Declares a complex type extending `base`. */
export function ext(base: string, name: string, spec = ""): ComplexTypeDef {
  return complex(name, spec, { base });
}

/** Declares an `ArrayOfX` type. */
export function array(
  name: string,
  itemName: string,
  itemType: string,
  itemNillable = false,
): ArrayTypeDef {
  return { kind: "array", name, itemName, itemType, itemNillable };
}

/** Declares an enumeration. */
export function enumeration(name: string, values: string): EnumTypeDef {
  return { kind: "enum", name, values: values.split(/[\s,]+/).filter(Boolean) };
}

/** Declares an operation with its request and response members. */
export function operation(name: string, request: string, response = "Result:int"): OperationDef {
  return { name, request: members(request), response: members(response) };
}

/**
 * A closed set of types and operations with the lookups the decoder,
 * encoder and WSDL generator need.
 */
export class Schema {
  /** Types in declaration order (the WSDL writes them in this order). */
  readonly types: readonly TypeDef[];
  /** Operations in declaration order. */
  readonly operations: readonly OperationDef[];
  readonly #byName = new Map<string, TypeDef>();
  readonly #ops = new Map<string, OperationDef>();
  readonly #flat = new Map<string, readonly ElementDef[]>();
  readonly #subtypes = new Map<string, string[]>();

  /** Builds the registry; throws if a referenced type is missing or a name repeats. */
  constructor(types: readonly TypeDef[], operations: readonly OperationDef[]) {
    this.types = types;
    this.operations = operations;
    for (const t of types) {
      if (this.#byName.has(t.name)) throw new Error(`Type ${t.name} declared twice`);
      this.#byName.set(t.name, t);
    }
    for (const op of operations) this.#ops.set(op.name, op);
    for (const t of types) this.#checkRefs(t);
    for (const op of operations) {
      for (const e of [...op.request, ...op.response]) this.#checkRef(e.type, op.name);
    }
    // Transitive subtype lists, in declaration order.
    for (const t of types) {
      if (t.kind !== "complex") continue;
      for (let b = t.base; b; b = (this.#byName.get(b) as ComplexTypeDef).base) {
        const list = this.#subtypes.get(b) ?? [];
        list.push(t.name);
        this.#subtypes.set(b, list);
      }
    }
  }

  #checkRef(type: string, where: string): void {
    if (!isXsdType(type) && !this.#byName.has(type)) {
      throw new Error(`${where} refers to unknown type ${type}`);
    }
  }

  #checkRefs(t: TypeDef): void {
    if (t.kind === "complex") {
      if (t.base) {
        const b = this.#byName.get(t.base);
        if (!b || b.kind !== "complex") throw new Error(`${t.name} extends unknown type ${t.base}`);
      }
      for (const e of t.elements) this.#checkRef(e.type, t.name);
    } else if (t.kind === "array") this.#checkRef(t.itemType, t.name);
  }

  /** The named type, or undefined. */
  type(name: string): TypeDef | undefined {
    return this.#byName.get(name);
  }

  /** The named operation, or undefined. */
  operation(name: string): OperationDef | undefined {
    return this.#ops.get(name);
  }

  /** All elements of a complex type on the wire: base chain first, then its own. */
  elementsOf(name: string): readonly ElementDef[] {
    const cached = this.#flat.get(name);
    if (cached) return cached;
    const t = this.#byName.get(name);
    if (!t || t.kind !== "complex") throw new Error(`${name} is not a complex type`);
    const flat = t.base ? [...this.elementsOf(t.base), ...t.elements] : [...t.elements];
    this.#flat.set(name, flat);
    return flat;
  }

  /** Every type deriving (directly or not) from `name`, in declaration order. */
  subtypesOf(name: string): readonly string[] {
    return this.#subtypes.get(name) ?? [];
  }

  /** True when `sub` is `base` or derives from it. */
  derivesFrom(sub: string, base: string): boolean {
    for (let t: string | undefined = sub; t;) {
      if (t === base) return true;
      const def = this.#byName.get(t);
      t = def && def.kind === "complex" ? def.base : undefined;
    }
    return false;
  }

  /** True when values of `name` may carry another concrete type (abstract or has subtypes). */
  isPolymorphic(name: string): boolean {
    const t = this.#byName.get(name);
    return !!t && t.kind === "complex" && (t.abstract || this.subtypesOf(name).length > 0);
  }
}
