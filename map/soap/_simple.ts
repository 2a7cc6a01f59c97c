/**
 * Lexical conversion of XSD simple values in both directions: request text
 * to plain values (strict about wrong types, lenient about whitespace) and
 * plain values to their canonical XML text.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { XsdType } from "./schema.ts";

/** Value ranges of the integer types. */
const INT_RANGE: Readonly<Record<string, [number, number]>> = {
  int: [-2147483648, 2147483647],
  short: [-32768, 32767],
  long: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  unsignedByte: [0, 255],
};

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Why a lexical value was rejected, as a short phrase ("an int", ...). */
export function typeDescription(type: string): string {
  switch (type) {
    case "int":
    case "short":
    case "long":
      return `an integer (xs:${type})`;
    case "unsignedByte":
      return "an integer from 0 to 255 (xs:unsignedByte)";
    case "double":
    case "float":
      return `a number (xs:${type})`;
    case "boolean":
      return "true or false (xs:boolean)";
    case "dateTime":
      return "an ISO 8601 date and time (xs:dateTime)";
    case "base64Binary":
      return "base64 data (xs:base64Binary)";
    default:
      return `xs:${type}`;
  }
}

/**
 * Parses request text of an XSD simple type. Returns `undefined` for an
 * empty non-string value (clients write `<X/>` for "unset") and throws a
 * plain Error naming the expected type for a wrong value.
 */
export function parseSimple(type: XsdType | string, raw: string): unknown {
  if (type === "string" || type === "anyType") return raw;
  const text = raw.trim();
  if (text === "") return undefined;
  switch (type) {
    case "int":
    case "short":
    case "long":
    case "unsignedByte": {
      const [lo, hi] = INT_RANGE[type];
      const n = INTEGER.test(text) ? Number(text) : NaN;
      if (!(n >= lo && n <= hi)) throw new Error(typeDescription(type));
      return n;
    }
    case "double":
    case "float":
      if (DECIMAL.test(text)) return Number(text);
      if (text === "INF" || text === "+INF") return Infinity;
      if (text === "-INF") return -Infinity;
      if (text === "NaN") return NaN;
      throw new Error(typeDescription(type));
    case "boolean":
      if (text === "true" || text === "1") return true;
      if (text === "false" || text === "0") return false;
      throw new Error(typeDescription(type));
    case "dateTime": {
      const t = Date.parse(text);
      if (Number.isNaN(t)) throw new Error(typeDescription(type));
      return new Date(t);
    }
    case "base64Binary":
      if (!BASE64.test(text)) throw new Error(typeDescription(type));
      return new Uint8Array(Buffer.from(text, "base64"));
    default:
      return raw;
  }
}

/** Canonical XML text of a plain value for an XSD simple type; throws on a value of the wrong kind. */
export function formatSimple(type: XsdType | string, value: unknown, where: string): string {
  switch (type) {
    case "string":
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      break;
    case "int":
    case "short":
    case "long":
    case "unsignedByte": {
      const n = typeof value === "string" && INTEGER.test(value.trim()) ? Number(value) : value;
      const [lo, hi] = INT_RANGE[type];
      if (typeof n === "number" && Number.isInteger(n) && n >= lo && n <= hi) return String(n);
      break;
    }
    case "double":
    case "float": {
      const n = typeof value === "string" && DECIMAL.test(value.trim()) ? Number(value) : value;
      if (typeof n === "number") {
        if (Number.isFinite(n)) return String(n);
        return Number.isNaN(n) ? "NaN" : n > 0 ? "INF" : "-INF";
      }
      break;
    }
    case "boolean":
      if (typeof value === "boolean") return value ? "true" : "false";
      if (value === "true" || value === "false") return value;
      break;
    case "dateTime":
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
      if (typeof value === "number" && Number.isFinite(value)) return new Date(value).toISOString();
      if (typeof value === "string") return value;
      break;
    case "base64Binary":
      if (value instanceof Uint8Array) {
        return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
      }
      if (typeof value === "string") return value;
      break;
  }
  throw new Error(`${where}: cannot write ${describe(value)} as xs:${type}`);
}

/** Value written for a required simple member the handler did not supply. */
export function defaultSimple(type: XsdType | string): string {
  switch (type) {
    case "boolean":
      return "false";
    case "dateTime":
      return "1970-01-01T00:00:00Z";
    case "string":
    case "base64Binary":
    case "anyType":
      return "";
    default:
      return "0";
  }
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  const s = typeof v === "string" ? JSON.stringify(v.slice(0, 40)) : String(v);
  return `${typeof v} ${s}`;
}
