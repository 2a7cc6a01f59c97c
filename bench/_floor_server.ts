/**
 * The storage floor for the JSON API benchmarks (issue 10): a bare
 * `Deno.serve` that answers `bench/api_mix.ts`'s request list from the same
 * SQLite file (node:sqlite, read-only) with the least work a server keeping
 * its documents in this database can do:
 *
 * - `/api/v1/{vacancies,competitions}/ID/`: one `SELECT doc ... WHERE id = ?`,
 *   read as bytes and sent as the body;
 * - `/api/v1/{vacancies,competitions}/?...page=N`: the 10 documents of the
 *   default order's page N by the `seq` range (N beyond the last page is
 *   taken modulo the page count), joined into a DRF page body
 *   (`{"count":..,"next":..,"previous":..,"results":[..]}`); any filter,
 *   search or ordering in the query is ignored, so those requests cost
 *   exactly a default-order page's document read.
 *
 * One read transaction is held for the process's life (the file is not
 * written during a benchmark), so no statement pays for the WAL read lock;
 * counts are read once at start. No validation, no headers beyond
 * `content-type`. Usage: `deno run -A bench/_floor_server.ts PORT DB [CACHE_KIB] [--headers=ours]`
 * (prints `ready PORT` once listening).
 *
 * `--headers=ours` (default `json`: `content-type` alone) makes every answer
 * carry the headers ours sends with a 200 API answer (`API_HEADERS`, a
 * constant `etag` and `last-modified` of the same shape, `COMMON_HEADERS`):
 * Deno answers a response whose only header is `content-type` on a fast
 * path, so this second reference shows what carrying the API's headers
 * costs by itself (`bench/api_floor.ts --floor-headers`). The floor the goal
 * is measured against stays the default.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { API_HEADERS } from "../routes/_drf.ts";
import { COMMON_HEADERS } from "../routes/_common_headers.ts";

const flags = Deno.args.filter((a) => a.startsWith("--"));
const [portText, dbPath, cacheText = "16384"] = Deno.args.filter((a) => !a.startsWith("--"));
const headerSet = flags.find((f) => f.startsWith("--headers="))?.slice("--headers=".length) ??
  "json";
const unknown = flags.filter((f) => !f.startsWith("--headers="));
if (unknown.length > 0 || (headerSet !== "json" && headerSet !== "ours")) {
  throw new Error(`Flags: --headers=json or --headers=ours only, not ${flags.join(" ")}.`);
}
const db = new DatabaseSync(dbPath, { readOnly: true });
// The same SQLite page cache as our server's read-only connection (data/catalog.ts), unless given.
db.exec(`PRAGMA cache_size = -${Number(cacheText)}`);
db.exec("BEGIN");
const encoder = new TextEncoder();
const headers: Record<string, string> = headerSet === "json"
  ? { "content-type": "application/json" }
  : {
    ...API_HEADERS,
    "etag": '"1-0000000"',
    "last-modified": new Date().toUTCString(),
    ...COMMON_HEADERS,
  };
const PAGE = 10;

interface List {
  count: number;
  pages: number;
  page: ReturnType<DatabaseSync["prepare"]>;
  detail: ReturnType<DatabaseSync["prepare"]>;
}
function list(table: string): List {
  const count = (db.prepare(`SELECT coalesce(max(seq), 0) AS n FROM ${table}_list`).get() as {
    n: number;
  }).n;
  return {
    count,
    pages: Math.max(1, Math.ceil(count / PAGE)),
    page: db.prepare(
      `SELECT CAST(r.doc AS BLOB) AS doc FROM ${table}_list AS l JOIN ${table} AS r
       ON r.id = l.id WHERE l.seq > ? AND l.seq <= ? ORDER BY l.seq`,
    ),
    detail: db.prepare(`SELECT CAST(doc AS BLOB) AS doc FROM ${table} WHERE id = ?`),
  };
}
const lists: Record<string, List> = {
  vacancies: list("vacancy"),
  competitions: list("competition"),
};
const PREFIX = "/api/v1/";

function pageBody(l: List, origin: string, path: string, page: number): Uint8Array {
  const rows = l.page.all((page - 1) * PAGE, page * PAGE) as { doc: Uint8Array }[];
  const link = (n: number) => JSON.stringify(`${origin}${path}?page=${n}`);
  const head = encoder.encode(
    `{"count":${l.count},"next":${page < l.pages ? link(page + 1) : "null"},"previous":${
      page > 1 ? link(page - 1) : "null"
    },"results":[`,
  );
  let size = head.length + 2 + Math.max(0, rows.length - 1);
  for (const r of rows) size += r.doc.length;
  const out = new Uint8Array(size);
  out.set(head, 0);
  let at = head.length;
  rows.forEach((r, i) => {
    if (i > 0) out[at++] = 0x2c; // ,
    out.set(r.doc, at);
    at += r.doc.length;
  });
  out[at++] = 0x5d; // ]
  out[at] = 0x7d; // }
  return out;
}

Deno.serve(
  {
    port: Number(portText),
    hostname: "127.0.0.1",
    // Port 0 picks a free port: say which.
    onListen: ({ port }) => console.log(`ready ${port}`),
  },
  (req) => {
    const url = new URL(req.url);
    const rest = url.pathname.slice(PREFIX.length).split("/");
    const l = lists[rest[0]];
    if (!url.pathname.startsWith(PREFIX) || !l) return new Response("{}", { status: 404 });
    if (rest[1]) {
      const row = l.detail.get(Number(rest[1])) as { doc: Uint8Array } | undefined;
      if (!row) return new Response("{}", { status: 404, headers });
      return new Response(row.doc as Uint8Array<ArrayBuffer>, { headers });
    }
    const asked = Number(url.searchParams.get("page") ?? "1");
    const page = (asked - 1) % l.pages + 1;
    const body = pageBody(l, url.origin, url.pathname, page);
    return new Response(body as Uint8Array<ArrayBuffer>, { headers });
  },
);
