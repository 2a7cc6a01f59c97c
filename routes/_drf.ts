/**
 * The Django REST Framework behaviours the JSON API copies: content
 * negotiation (`format` + `Accept`), JSON rendering, standard headers and
 * the `{"detail": ...}` error shape.
 *
 * @module
 */
import { parseQs, pythonInt, type QueryPairs } from "./_querystring.ts";
import type { Face } from "./router.ts";

/** Headers DRF puts on every API response (CORS and nosniff are the application's: `_common_headers.ts`). */
export const API_HEADERS: Readonly<Record<string, string>> = {
  "allow": "GET, HEAD, OPTIONS",
  "content-type": "application/json",
  "vary": "Accept",
  "access-control-expose-headers": "ETag, Last-Modified, Link",
};

interface MediaType {
  main: string;
  sub: string;
  params: Map<string, string>;
}

function parseMediaType(text: string): MediaType {
  const [full, ...rawParams] = text.split(";");
  const [main = "", sub = ""] = full.trim().toLowerCase().split("/");
  const params = new Map<string, string>();
  for (const p of rawParams) {
    const eq = p.indexOf("=");
    if (eq < 0) continue;
    params.set(
      p.slice(0, eq).trim().toLowerCase(),
      p.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1"),
    );
  }
  return { main: main.trim(), sub: sub.trim(), params };
}

function precedence(m: MediaType): number {
  if (m.main === "*") return 0;
  if (m.sub === "*") return 1;
  const keys = [...m.params.keys()];
  return keys.length === 0 || (keys.length === 1 && keys[0] === "q") ? 2 : 3;
}

/** A renderer as DRF knows it: a `format` name and a media type. */
interface Renderer {
  format: string;
  main: string;
  sub: string;
}

/** Our two renderers. Both write JSON: `format=api` is accepted, the body stays JSON (seed). */
const RENDERERS: Renderer[] = [
  { format: "json", main: "application", sub: "json" },
  { format: "api", main: "text", sub: "html" },
];

/** Outcome of negotiation: JSON indentation to use, or the error response. */
export type Negotiation = { ok: true; indent: number | undefined } | {
  ok: false;
  response: Response;
};

const ANY_JSON: Negotiation = Object.freeze({ ok: true, indent: undefined });

/**
 * DRF's `DefaultContentNegotiation.select_renderer`: an unknown `format`
 * is 404, an `Accept` header nothing satisfies is 406, and
 * `Accept: application/json; indent=N` asks for pretty output.
 *
 * @example
 * ```ts
 * negotiate(new Headers({ accept: "application/json; indent=2" }), new Map()); // { ok: true, indent: 2 }
 * ```
 */
export function negotiate(headers: Headers, query: QueryPairs): Negotiation {
  const format = query.get("format")?.at(-1);
  const acceptHeader = headers.get("accept");
  // Neither asked: JSON, not indented (what the walk below finds for "*/*").
  if (acceptHeader === null && format === undefined) return ANY_JSON;
  let renderers = RENDERERS;
  if (format) {
    renderers = RENDERERS.filter((r) => r.format === format);
    if (renderers.length === 0) return { ok: false, response: notFound() };
  }
  // Only a missing header means "anything": an empty one accepts nothing (406), as in DRF.
  const accept = (acceptHeader ?? "*/*").trim();
  const types = accept.split(",").map((t) => parseMediaType(t.trim()));
  for (let level = 3; level >= 0; level--) {
    const set = types.filter((t) => precedence(t) === level);
    for (const r of renderers) {
      for (const t of set) {
        const subOk = t.sub === "*" || t.sub === r.sub;
        const mainOk = t.main === "*" || t.main === r.main;
        if (subOk && mainOk) return { ok: true, indent: level === 3 ? indentOf(t) : undefined };
      }
    }
  }
  return {
    ok: false,
    response: errorResponse(406, "Could not satisfy the request Accept header."),
  };
}

function indentOf(t: MediaType): number | undefined {
  // DRF: zero_as_none(max(min(int(indent), 8), 0)) with Python's int().
  const raw = t.params.get("indent");
  const n = raw === undefined ? undefined : pythonInt(raw);
  if (n === undefined) return undefined;
  const clamped = Math.max(Math.min(n, 8), 0);
  return clamped === 0 ? undefined : clamped;
}

/**
 * Escapes U+2028 and U+2029 as DRF's JSONRenderer does (JSON.stringify
 * leaves them raw, which breaks JavaScript consumers of JSONP-like bodies).
 */
export function escapeLineSeparators(json: string): string {
  return json.replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

/** Serializes a value like DRF: compact separators, raw UTF-8, escaped U+2028/9. */
export function renderJson(value: unknown): string {
  return escapeLineSeparators(JSON.stringify(value));
}

/**
 * Re-indents a compact JSON text as DRF's JSONRenderer writes it when asked
 * to indent: Python's `json.dumps(indent=n, separators=(",", ": "))`.
 */
export function indentJson(json: string, indent: number): string {
  const pad = " ".repeat(indent);
  const write = (v: unknown, depth: number): string => {
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const inner = pad.repeat(depth + 1);
      return "[\n" + v.map((x) => inner + write(x, depth + 1)).join(",\n") + "\n" +
        pad.repeat(depth) + "]";
    }
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v);
      if (entries.length === 0) return "{}";
      const inner = pad.repeat(depth + 1);
      return "{\n" +
        entries.map(([k, x]) => inner + JSON.stringify(k) + ": " + write(x, depth + 1)).join(
          ",\n",
        ) +
        "\n" + pad.repeat(depth) + "}";
    }
    return JSON.stringify(v);
  };
  return escapeLineSeparators(write(JSON.parse(json), 0));
}

/** A JSON response with the API's standard headers. */
export function jsonResponse(status: number, body: string): Response {
  return new Response(body, { status, headers: API_HEADERS });
}

/**
 * `{"detail": message}` with the API's standard headers, indented when the
 * negotiated `Accept` asked for it (DRF renders errors like any response).
 */
export function errorResponse(status: number, detail: string, indent?: number): Response {
  const body = renderJson({ detail });
  return jsonResponse(status, indent ? indentJson(body, indent) : body);
}

/** DRF's 404 body. */
export function notFound(): Response {
  return errorResponse(404, "Not found.");
}

/** DRF's 405 body: the method name as Django sees it (upper-cased). */
export function methodNotAllowed(method: string, indent?: number): Response {
  return errorResponse(405, `Method "${method.toUpperCase()}" not allowed.`, indent);
}

/**
 * How the pages beside the JSON API (the home page and its assets) refuse:
 * DRF's 405 JSON; OPTIONS is the router's 204.
 */
export const DRF_FACE: Face = {
  options: true,
  methodNotAllowed: (req) => methodNotAllowed(req.method),
};

/**
 * How the JSON API refuses: DRF's 405 after DRF's negotiation (a bad
 * `Accept` is a 406 first; an `indent` indents the error). Its routes
 * answer OPTIONS themselves (DRF's metadata), and take methods in any case
 * (Django upper-cases them).
 */
export const API_FACE: Face = {
  options: false,
  anyCaseMethods: true,
  methodNotAllowed(req, url) {
    const neg = negotiate(req.headers, parseQs(url.search.slice(1)));
    return neg.ok ? methodNotAllowed(req.method, neg.indent) : neg.response;
  },
};

/** Body of DRF's `SimpleMetadata` for a read-only view (OPTIONS). */
export function optionsBody(name: string): string {
  return renderJson({
    name,
    description: "",
    renders: ["application/json", "text/html"],
    parses: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"],
  });
}
