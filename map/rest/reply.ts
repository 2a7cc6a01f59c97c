/**
 * How ArcGIS REST answers are written: `f=json` (compact), `f=pjson`
 * (indented), `f=html` (the indented JSON, escaped, in a small readable
 * page), JSONP with `callback=`, files (`f=image`), and errors as ArcGIS
 * Server sends them: HTTP 200 with
 * `{"error":{"code":400,"message":"...","details":["..."]}}`.
 *
 * @module
 */
import {
  DataUnavailableError,
  InvalidRequestError,
  type MemberRef,
  type RequestMember,
} from "../errors.ts";
import { escapeHtml } from "../markup.ts";

/** One answer, ready for HTTP. */
export interface RestReply {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}

/** A non-JSON answer an endpoint returns as it is (an image, a KMZ). */
export class RestFile {
  /** Wraps `body` with its media type. */
  constructor(readonly contentType: string, readonly body: Uint8Array) {}
}

/**
 * An error with an ArcGIS REST code other than 400 (404 for an unknown
 * service, layer or path); the message is shown to the client.
 *
 * @example
 * ```ts
 * import { RestError } from "./reply.ts";
 * throw new RestError(404, "Service 'Roads' does not exist.");
 * ```
 */
export class RestError extends Error {
  /** Creates the error; `code` goes into the body's `error.code`. */
  constructor(readonly code: number, message: string, readonly details: string[] = []) {
    super(message);
    this.name = "RestError";
  }
}

/** The JSON formats every endpoint answers. */
export const JSON_FORMATS = ["json", "pjson", "html"] as const;

/** Names a JSONP callback may have: identifiers joined by dots (`dojo.io.script.jsonp_1`). */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

/** Whether `name` is a safe JSONP callback name. */
export function isCallbackName(name: string): boolean {
  return name.length <= 128 && CALLBACK.test(name);
}

/** JSON with U+2028/U+2029 escaped, so the text is also valid JavaScript (JSONP). */
function stringify(value: unknown, indent: boolean): string {
  return JSON.stringify(value, null, indent ? 2 : undefined)
    .replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Options of {@link writeJson}. */
export interface WriteOptions {
  /** `json`, `pjson`, `html` (or `geojson`, written as `json`). */
  format: string;
  /** JSONP function name (already checked with {@link isCallbackName}). */
  callback?: string;
  /** Title of the HTML page. */
  title?: string;
  /** Media type of `json` (default `application/json`; GeoJSON uses `application/geo+json`). */
  jsonType?: string;
}

/**
 * Writes a JSON value in the requested format.
 *
 * @example
 * ```ts
 * import { writeJson } from "./reply.ts";
 * writeJson({ currentVersion: 10.3 }, { format: "pjson" }).body; // '{\n  "currentVersion": 10.3\n}'
 * ```
 */
export function writeJson(value: unknown, opts: WriteOptions): RestReply {
  if (opts.format === "html") {
    const title = escapeHtml(opts.title ?? "ArcGIS REST Services Directory");
    const body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>${title}</h1>
<p>This answer as <code>f=json</code> or <code>f=pjson</code>.</p>
<pre>${escapeHtml(stringify(value, true))}</pre>
</body></html>
`;
    return { status: 200, contentType: "text/html; charset=utf-8", body };
  }
  const text = stringify(value, opts.format === "pjson");
  if (opts.callback !== undefined) {
    return {
      status: 200,
      contentType: "application/javascript; charset=utf-8",
      body: `${opts.callback}(${text});`,
    };
  }
  return {
    status: 200,
    contentType: `${opts.jsonType ?? "application/json"}; charset=utf-8`,
    body: text,
  };
}

/** The REST parameter that sets each request member an operation names in an error. */
const REST_WORDS: Readonly<Record<RequestMember, string>> = {
  mapSpatialReference: "sr",
  outputSpatialReference: "outSR",
  whereClause: "where",
  orderBy: "orderByFields",
  distinct: "returnDistinctValues",
  outFields: "outFields",
  layerDefinition: "layerDefs",
  relationDescription: "relationParam",
  searchText: "searchText",
  searchFields: "searchFields",
  layerIds: "layers",
  tolerance: "tolerance",
  exportImage: "size",
  mapImage: "imageDisplay",
  mapDisplay: "imageDisplay",
  mapArea: "bbox",
  imageSize: "imageDisplay",
  imageDpi: "imageDisplay",
  dpi: "dpi",
};

/** Parameter names an endpoint words differently (export sets the map's spatial reference with `imageSR`). */
export type RestWords = Partial<Record<RequestMember, string>>;

/** A request member worded as the REST parameter that sets it. */
function restWord(ref: MemberRef, words: RestWords): string {
  const word = (m: RequestMember) => words[m] ?? REST_WORDS[m];
  switch (ref.member) {
    case "imageSize":
      // One parameter holds the whole image display, except export's `size` and `dpi`.
      return ref.within === "exportImage" ? "size" : word(ref.within ?? "mapImage");
    case "imageDpi":
    case "dpi":
      return ref.within === "exportImage" || ref.within === "mapArea"
        ? "dpi"
        : word(ref.within ?? "mapImage");
    default:
      return word(ref.member);
  }
}

/**
 * The ArcGIS REST error body of an exception, and whether it is the
 * server's fault; request members named by the operations are worded as
 * REST parameters (`words` for an endpoint's own names).
 *
 * @example
 * ```ts
 * import { InvalidRequestError, member, say } from "../errors.ts";
 * import { errorBody } from "./reply.ts";
 * errorBody(new InvalidRequestError(say`Bad ${member("whereClause")}.`)).body.error.message; // "Bad where."
 * ```
 */
export function errorBody(
  err: unknown,
  words: RestWords = {},
): { body: { error: { code: number; message: string; details: string[] } }; server: boolean } {
  if (err instanceof RestError) {
    return {
      body: { error: { code: err.code, message: err.message, details: err.details } },
      server: err.code >= 500,
    };
  }
  if (err instanceof DataUnavailableError) {
    return { body: { error: { code: 500, message: err.message, details: [] } }, server: true };
  }
  if (err instanceof InvalidRequestError) {
    return {
      body: {
        error: {
          code: 400,
          message: err.wordedIn((ref) => restWord(ref, words)),
          details: err.details,
        },
      },
      server: false,
    };
  }
  return {
    body: {
      error: {
        code: 500,
        message: "Unable to complete operation.",
        details: ["The server failed to answer this request; the failure is logged."],
      },
    },
    server: true,
  };
}
