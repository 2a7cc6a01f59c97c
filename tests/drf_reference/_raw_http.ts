/**
 * A minimal HTTP/1.1 client for the DRF differential test: it sends the
 * request target byte for byte (fetch would normalise it and refuses
 * methods like TRACE) over a fresh connection and reads the whole answer.
 *
 * @module
 */
import assert from "node:assert/strict";

/** One request sent to both servers. */
export interface Case {
  /** Request target: path and query, sent byte for byte. */
  target: string;
  method?: string;
  /** Extra headers; `host` replaces the default `Host: 127.0.0.1:<port>`. */
  headers?: Record<string, string>;
  /** Request body (sent with its Content-Length). */
  body?: string;
  /** Also compare the body text byte for byte (after replacing the base URLs). */
  raw?: boolean;
}

/** A raw HTTP/1.1 response. */
export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** For HEAD: the body the same request answers with GET. */
  get?: string;
}

/** Sends one request over a fresh connection and reads the whole answer. */
export async function send(port: number, c: Case): Promise<RawResponse> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const lines = [
      `${c.method ?? "GET"} ${c.target} HTTP/1.1`,
      `Host: ${c.headers?.host ?? `127.0.0.1:${port}`}`,
      "Connection: close",
    ];
    for (const [k, v] of Object.entries(c.headers ?? {})) {
      if (k !== "host") lines.push(`${k}: ${v}`);
    }
    const body = new TextEncoder().encode(c.body ?? "");
    if (c.body !== undefined) lines.push(`Content-Length: ${body.byteLength}`);
    await conn.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
    if (body.byteLength) await conn.write(body);
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(65536);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
    }
    return parseResponse(concat(chunks), c.method === "HEAD");
  } finally {
    try {
      conn.close();
    } catch {
      // already closed by the peer
    }
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function parseResponse(bytes: Uint8Array, head: boolean): RawResponse {
  let end = -1;
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      end = i;
      break;
    }
  }
  assert.ok(end >= 0, "a complete HTTP response head");
  const [statusLine, ...headerLines] = new TextDecoder().decode(bytes.slice(0, end)).split(
    "\r\n",
  );
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body: Uint8Array = bytes.slice(end + 4);
  if (!head && headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
    body = dechunk(body);
  }
  return { status, headers, body: new TextDecoder().decode(body) };
}

function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (;;) {
    let eol = at;
    while (eol + 1 < bytes.length && !(bytes[eol] === 13 && bytes[eol + 1] === 10)) eol++;
    const size = parseInt(new TextDecoder().decode(bytes.slice(at, eol)), 16);
    if (!size) break;
    parts.push(bytes.slice(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return concat(parts);
}
