/**
 * What the OGC API face answers: a status, a media type, a body and extra
 * headers; the exception (`{"code", "description"}`, OGC API – Features
 * §7.5.1) as {@link OgcError}; and content negotiation by `f` and `Accept`.
 *
 * @module
 */

/** An answer of the face. */
export interface OgcReply {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** A request the face refuses: HTTP status, an exception code and a sentence. */
export class OgcError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A 400 for a bad query parameter value.
 *
 * @example
 * ```ts
 * throw badParameter("limit", "give a whole number from 1 to 1000.");
 * ```
 */
export function badParameter(name: string, message: string): OgcError {
  return new OgcError(
    400,
    "InvalidParameterValue",
    `Invalid value of parameter '${name}': ${message}`,
  );
}

/** The two kinds of answer every resource has. */
export type Format = "json" | "html";

/** Media types of the JSON kind (by resource) and of HTML. */
export const MEDIA = {
  json: "application/json",
  geojson: "application/geo+json",
  openapi: "application/vnd.oai.openapi+json;version=3.0",
  schema: "application/schema+json",
  html: "text/html",
} as const;

/** `f` values and what they ask for. */
const F_VALUES: Readonly<Record<string, Format>> = {
  json: "json",
  geojson: "json",
  "application/json": "json",
  "application/geo+json": "json",
  pjson: "json",
  html: "html",
  "text/html": "html",
};

/**
 * The format a request asks for: `f` first (json, geojson, html), else the
 * best `Accept` entry (HTML for browsers, JSON for `*`/`*` and JSON media
 * types); none of either is JSON. An unknown `f` or an `Accept` naming only
 * other media types is a 406.
 *
 * @example
 * ```ts
 * negotiate(null, "text/html,application/xhtml+xml;q=0.9"); // "html"
 * ```
 */
export function negotiate(f: string | null, accept: string | null): Format {
  if (f !== null) {
    const format = F_VALUES[f.toLowerCase()];
    if (!format) {
      throw new OgcError(
        406,
        "NotAcceptable",
        `Format f=${f} is not offered; use f=json (GeoJSON for features) or f=html.`,
      );
    }
    return format;
  }
  if (accept === null || accept.trim() === "") return "json";
  const ranked = accept.split(",").map((part, i) => {
    const [type, ...params] = part.trim().toLowerCase().split(";").map((s) => s.trim());
    const q = params.find((p) => p.startsWith("q="));
    return { type, q: q ? Number(q.slice(2)) : 1, i };
  }).filter((e) => e.q > 0).sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { type } of ranked) {
    if (type === "text/html" || type === "application/xhtml+xml") return "html";
    if (
      type === "*/*" || type === "application/*" || type.endsWith("/json") ||
      type.endsWith("+json")
    ) return "json";
  }
  throw new OgcError(
    406,
    "NotAcceptable",
    `None of the media types in Accept (${accept.slice(0, 200)}) is offered; ` +
      "use application/json, application/geo+json or text/html.",
  );
}

/**
 * A JSON answer.
 *
 * @example
 * ```ts
 * jsonReply({ links: [] }, MEDIA.json).status; // 200
 * ```
 */
export function jsonReply(
  value: unknown,
  contentType: string,
  headers?: Record<string, string>,
): OgcReply {
  return { status: 200, contentType, body: JSON.stringify(value), headers };
}
