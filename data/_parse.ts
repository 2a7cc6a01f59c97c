/**
 * Reading records from the API's own JSON shapes: a bare array, an envelope
 * page (`{count,next,previous,results}`), a single record, or NDJSON.
 *
 * @module
 */
import type { CollectionName } from "./collections.ts";

/** One raw record and where it came from. */
export interface RawRecord {
  /** 0-based position of the record in its file. */
  index: number;
  /** 1-based line number, for NDJSON. */
  line?: number;
  value: unknown;
}

/** A file could not be read as any of the accepted shapes. */
export class ShapeError extends Error {
  /** Names the problem; `index`/`line` locate it when known. */
  constructor(message: string, readonly index?: number, readonly line?: number) {
    super(message);
    this.name = "ShapeError";
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The records of a parsed JSON value: array, envelope or single record. */
export function recordsOfJson(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) {
    if (Array.isArray(value.results)) return value.results;
    if ("results" in value) throw new ShapeError("the envelope's results is not an array");
    return [value];
  }
  throw new ShapeError("expected a JSON array, an envelope page or a record object");
}

/**
 * Records of a file's text. Whole-text JSON is tried first; failing that, the
 * text is read as NDJSON (one JSON value per non-empty line).
 */
export function* recordsOfText(text: string): Generator<RawRecord> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === "") throw new ShapeError("the file is empty");
  let whole: unknown;
  let wholeError: unknown = null;
  try {
    whole = JSON.parse(body);
  } catch (err) {
    wholeError = err;
  }
  if (wholeError === null) {
    const records = recordsOfJson(whole);
    for (let i = 0; i < records.length; i++) yield { index: i, value: records[i] };
    return;
  }
  const lines = body.split("\n");
  if (lines.filter((l) => l.trim() !== "").length < 2) {
    throw new ShapeError(`not valid JSON: ${(wholeError as Error).message}`);
  }
  let index = 0;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (line === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new ShapeError(`not valid JSON: ${(err as Error).message}`, index, n + 1);
    }
    yield { index, line: n + 1, value };
    index++;
  }
}

/**
 * Which collection a record belongs to, by the fields only that collection has;
 * null when the shape matches none.
 */
export function detectCollection(value: unknown): CollectionName | null {
  if (!isObject(value)) return null;
  if ("document_reception_finished" in value || "competition_type" in value) {
    return "competitions";
  }
  if ("salary_from" in value || "url" in value && "groups_of_positions" in value) {
    return "vacancies";
  }
  if ("inn" in value && "type_of" in value) return "agencies";
  return null;
}

const TIMESTAMP_LOOSE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?$/;

/**
 * Pads `created_at`/`updated_at` to six fraction digits at any depth, because
 * Python's isoformat() drops the fraction when microseconds are zero and our
 * output always has six digits. Other values are left for validation to judge.
 */
export function normalizeTimestamps(value: unknown): void {
  if (Array.isArray(value)) {
    for (const v of value) normalizeTimestamps(v);
    return;
  }
  if (!isObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if ((k === "created_at" || k === "updated_at") && typeof v === "string") {
      const m = TIMESTAMP_LOOSE.exec(v);
      if (m) value[k] = `${m[1]}.${(m[2] ?? "").padEnd(6, "0")}`;
    } else if (typeof v === "object" && v !== null) {
      normalizeTimestamps(v);
    }
  }
}
