/**
 * DRF behaviour of the list endpoints over real HTTP: headers, pagination
 * links, HEAD, OPTIONS, every error case, conditional GET, CORS, base URLs.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { fetchJson, fetchText, startTestServer, type TestServer } from "./_api_helpers.ts";

function publishedCount(dbPath: string, table: string): number {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    return Number(
      (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE published = 1`).get() as { n: number })
        .n,
    );
  } finally {
    db.close();
  }
}

function checkApiHeaders(h: Headers) {
  assert.equal(h.get("allow"), "GET, HEAD, OPTIONS");
  assert.equal(h.get("content-type"), "application/json");
  assert.equal(h.get("vary"), "Accept");
}

Deno.test({
  name: "api http behaviour",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s: TestServer = await startTestServer();
    const api = `${s.url}/api/v1`;
    try {
      const total = publishedCount(s.dbPath, "vacancy");
      const pages = Math.ceil(total / 10);

      await t.step("page 1: count of published records, next link, no previous", async () => {
        const { status, headers, body } = await fetchJson(`${api}/vacancies/`);
        assert.equal(status, 200);
        checkApiHeaders(headers);
        assert.equal(body.count, total);
        assert.deepEqual(Object.keys(body), ["count", "next", "previous", "results"]);
        assert.equal(body.results.length, 10);
        assert.equal(body.next, `${api}/vacancies/?page=2`);
        assert.equal(body.previous, null);
        const ids = body.results.map((r: { id: number }) => r.id);
        assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "ordered by id");
      });

      await t.step("middle page links; page 2's previous drops page", async () => {
        const { body: p2 } = await fetchJson(`${api}/vacancies/?page=2`);
        assert.equal(p2.previous, `${api}/vacancies/`);
        assert.equal(p2.next, `${api}/vacancies/?page=3`);
        const { body: p3 } = await fetchJson(`${api}/vacancies/?page=3`);
        assert.equal(p3.previous, `${api}/vacancies/?page=2`);
        assert.notEqual(p3.results[0].id, p2.results[0].id);
      });

      await t.step("last page: next null; page=last is the same page", async () => {
        const { body } = await fetchJson(`${api}/vacancies/?page=${pages}`);
        assert.equal(body.next, null);
        assert.equal(body.results.length, total - (pages - 1) * 10);
        const { body: last } = await fetchJson(`${api}/vacancies/?page=last`);
        assert.deepEqual(last, body);
      });

      await t.step("format=api is JSON and carried into links, parameters sorted", async () => {
        const { status, headers, body } = await fetchJson(
          `${api}/vacancies/?page=2&format=api&zeta=1&alpha=a%20b`,
        );
        assert.equal(status, 200);
        assert.equal(headers.get("content-type"), "application/json");
        assert.equal(body.next, `${api}/vacancies/?alpha=a+b&format=api&page=3&zeta=1`);
        assert.equal(body.previous, `${api}/vacancies/?alpha=a+b&format=api&zeta=1`);
        const { body: b2 } = await fetchJson(`${api}/vacancies/?format=json&flag`);
        assert.equal(b2.next, `${api}/vacancies/?flag=&format=json&page=2`);
      });

      await t.step("page numbers Python int() accepts", async () => {
        for (const p of ["02", "%202", "%2B2", "3&page=2"]) {
          const { status, body } = await fetchJson(`${api}/vacancies/?page=${p}`);
          assert.equal(status, 200, p);
          assert.equal(body.previous, `${api}/vacancies/`, p);
        }
      });

      await t.step("invalid pages are 404 Invalid page.", async () => {
        for (const p of ["0", "-1", String(pages + 1), "abc", "1.5", "2.0", "", "LAST"]) {
          const { status, headers, body } = await fetchJson(`${api}/vacancies/?page=${p}`);
          assert.equal(status, 404, `page=${p}`);
          checkApiHeaders(headers);
          assert.deepEqual(body, { detail: "Invalid page." });
        }
        // Searched, filtered and re-ordered lists, cold (their count is not known yet).
        for (
          const q of [
            "search=специалист",
            "search=специалист&salary_min=1",
            "agency=1",
            "ordering=-salary_from&group=1",
          ]
        ) {
          for (const p of ["999999", "1000"]) {
            const { status, body } = await fetchJson(`${api}/vacancies/?${q}&page=${p}`);
            assert.equal(status, 404, `${q}&page=${p}`);
            assert.deepEqual(body, { detail: "Invalid page." });
          }
        }
      });

      await t.step(
        "page_size: default 10, max 100, invalid falls back and is carried",
        async () => {
          assert.equal((await fetchJson(`${api}/vacancies/?page_size=25`)).body.results.length, 25);
          assert.equal(
            (await fetchJson(`${api}/vacancies/?page_size=1000`)).body.results.length,
            100,
          );
          for (const bad of ["0", "-1", "abc", "2.5", ""]) {
            const { body } = await fetchJson(`${api}/vacancies/?page_size=${bad}`);
            assert.equal(body.results.length, 10, bad);
            assert.equal(body.next, `${api}/vacancies/?page=2&page_size=${bad}`);
          }
        },
      );

      await t.step("HEAD: GET's headers and Content-Length, no body", async () => {
        const get = await fetchText(`${api}/vacancies/?page=2`);
        const head = await fetchText(`${api}/vacancies/?page=2`, { method: "HEAD" });
        assert.equal(head.status, 200);
        assert.equal(head.text, "");
        checkApiHeaders(head.headers);
        assert.equal(
          Number(head.headers.get("content-length")),
          new TextEncoder().encode(get.text).byteLength,
        );
      });

      await t.step("OPTIONS: DRF metadata", async () => {
        const expected = (name: string) => ({
          name,
          description: "",
          renders: ["application/json", "text/html"],
          parses: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"],
        });
        for (
          const [path, name] of [
            ["/vacancies/?page=99999", "Vacancy List"],
            ["/competitions/", "Competition List"],
            ["/agencies/for_vacancies/", "Agencies For Vacancies"],
          ]
        ) {
          const { status, headers, body } = await fetchJson(`${api}${path}`, { method: "OPTIONS" });
          assert.equal(status, 200);
          checkApiHeaders(headers);
          assert.deepEqual(body, expected(name));
        }
      });

      await t.step("405 for other methods, with the method as sent", async () => {
        for (const m of ["POST", "PUT", "PATCH", "DELETE", "BREW"]) {
          const { status, headers, body } = await fetchJson(`${api}/vacancies/`, {
            method: m,
            body: m === "DELETE" ? undefined : "{}",
          });
          assert.equal(status, 405, m);
          checkApiHeaders(headers);
          assert.deepEqual(body, { detail: `Method "${m}" not allowed.` });
        }
      });

      await t.step("format and Accept negotiation errors", async () => {
        for (const f of ["xml", "JSON"]) {
          const { status, body } = await fetchJson(`${api}/vacancies/?format=${f}`);
          assert.equal(status, 404);
          assert.deepEqual(body, { detail: "Not found." });
        }
        const empty = await fetchJson(`${api}/vacancies/?format=`);
        assert.equal(empty.status, 200);
        assert.equal(empty.body.next, `${api}/vacancies/?format=&page=2`);
        const r406 = await fetchJson(`${api}/vacancies/`, {
          headers: { accept: "application/xml" },
        });
        assert.equal(r406.status, 406);
        checkApiHeaders(r406.headers);
        assert.deepEqual(r406.body, { detail: "Could not satisfy the request Accept header." });
        const j406 = await fetchJson(`${api}/vacancies/?format=json`, {
          headers: { accept: "text/html" },
        });
        assert.equal(j406.status, 406);
        const html = await fetchJson(`${api}/vacancies/`, { headers: { accept: "text/html" } });
        assert.equal(html.status, 200);
        assert.equal(html.headers.get("content-type"), "application/json");
      });

      await t.step(
        "Accept: application/json; indent=2 pretty-prints with DRF separators",
        async () => {
          const { text } = await fetchText(`${api}/vacancies/`, {
            headers: { accept: "application/json; indent=2" },
          });
          assert.ok(text.startsWith('{\n  "count":'), text.slice(0, 40));
          const compact = await fetchText(`${api}/vacancies/`);
          assert.deepEqual(JSON.parse(text), JSON.parse(compact.text));
          assert.ok(!compact.text.includes("\n"));
        },
      );

      await t.step(
        "missing trailing slash: 301 to the slashed path, query kept, any method",
        async () => {
          for (const m of ["GET", "POST"]) {
            const r = await fetchText(`${api}/vacancies?page=2&format=api`, { method: m });
            assert.equal(r.status, 301);
            assert.equal(r.headers.get("location"), "/api/v1/vacancies/?page=2&format=api");
            assert.equal(r.text, "");
          }
          const d = await fetchText(`${api}/vacancies/12`);
          assert.equal(d.status, 301);
          assert.equal(d.headers.get("location"), "/api/v1/vacancies/12/");
        },
      );

      await t.step("unknown paths and malformed ids: JSON 404", async () => {
        for (
          const p of [
            "/api/v1/nothing/",
            "/api/v2/vacancies/",
            "/api/v1/vacancies/abc/",
            "/api/v1/vacancies/0/",
            "/nowhere",
          ]
        ) {
          const { status, body, headers } = await fetchJson(`${s.url}${p}`);
          assert.equal(status, 404, p);
          assert.equal(headers.get("content-type"), "application/json");
          assert.deepEqual(body, { detail: "Not found." });
        }
      });

      await t.step("detail routes serve exactly the listed record", async () => {
        for (const c of ["vacancies", "competitions"]) {
          const { body } = await fetchJson(`${api}/${c}/?page=2`);
          const rec = body.results[3];
          const d = await fetchJson(`${api}/${c}/${rec.id}/`);
          assert.equal(d.status, 200);
          checkApiHeaders(d.headers);
          assert.deepEqual(d.body, rec);
        }
        const { body: agencies } = await fetchJson(`${api}/agencies/for_vacancies/`);
        const a = await fetchJson(`${api}/agencies/for_vacancies/${agencies[1].id}/`);
        assert.deepEqual(a.body, agencies[1]);
      });

      await t.step("unpublished records are stored but never served", async () => {
        const db = new DatabaseSync(s.dbPath, { readOnly: true });
        const hidden = db.prepare("SELECT id FROM vacancy WHERE published = 0").all() as {
          id: number;
        }[];
        db.close();
        assert.ok(hidden.length > 0, "the demo data has unpublished vacancies");
        for (const { id } of hidden.slice(0, 5)) {
          assert.equal((await fetchJson(`${api}/vacancies/${id}/`)).status, 404);
        }
        const all = await fetchJson(`${api}/vacancies/?page_size=100`);
        assert.ok(!all.body.results.some((r: { id: number }) => hidden.some((h) => h.id === r.id)));
      });

      await t.step("conditional GET: ETag / Last-Modified and 304", async () => {
        const first = await fetchText(`${api}/vacancies/?page=2`);
        const etag = first.headers.get("etag")!;
        const lm = first.headers.get("last-modified")!;
        assert.ok(etag && lm);
        const again = await fetchText(`${api}/vacancies/?page=2`, {
          headers: { "if-none-match": etag },
        });
        assert.equal(again.status, 304);
        assert.equal(again.text, "");
        assert.equal(again.headers.get("etag"), etag);
        const other = await fetchText(`${api}/vacancies/?page=3`, {
          headers: { "if-none-match": etag },
        });
        assert.equal(other.status, 200, "another page has another ETag");
        const ims = await fetchText(`${api}/vacancies/?page=2`, {
          headers: { "if-modified-since": lm },
        });
        assert.equal(ims.status, 304);
        const old = await fetchText(`${api}/vacancies/?page=2`, {
          headers: { "if-modified-since": "Mon, 01 Jan 2001 00:00:00 GMT" },
        });
        assert.equal(old.status, 200);
      });

      await t.step("CORS: any origin may GET; preflight answered", async () => {
        const r = await fetchText(`${api}/vacancies/`, {
          headers: { origin: "https://portal.example" },
        });
        assert.equal(r.headers.get("access-control-allow-origin"), "*");
        const pre = await fetchText(`${api}/vacancies/`, {
          method: "OPTIONS",
          headers: {
            origin: "https://portal.example",
            "access-control-request-method": "GET",
            "access-control-request-headers": "if-none-match",
          },
        });
        assert.equal(pre.status, 200);
        assert.equal(pre.headers.get("access-control-allow-origin"), "*");
        assert.match(pre.headers.get("access-control-allow-methods")!, /GET/);
        assert.equal(pre.headers.get("access-control-allow-headers"), "if-none-match");
      });

      await t.step("links use the request's Host; X-Forwarded-* ignored by default", async () => {
        const { body } = await fetchJson(`${api}/vacancies/`, {
          headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
        });
        assert.ok(body.next.startsWith(s.url), body.next);
      });

      await t.step("OpenAPI 3.1 document", async () => {
        const { status, body } = await fetchJson(`${api}/schema/`);
        assert.equal(status, 200);
        assert.equal(body.openapi, "3.1.0");
        for (
          const p of [
            "/api/v1/vacancies/",
            "/api/v1/competitions/{id}/",
            "/api/v1/agencies/for_vacancies/",
          ]
        ) {
          assert.ok(body.paths[p], p);
        }
        const v = body.components.schemas.Vacancy;
        assert.equal(Object.keys(v.properties)[0], "id");
        assert.ok(v.properties.salary_from);
        assert.deepEqual(body.servers, [{ url: s.url }]);
      });
    } finally {
      await s.close();
    }
  },
});

Deno.test({
  name: "api base URL options: trusted proxy and public URL",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const proxied = await startTestServer({ trustProxy: true });
    try {
      const { body } = await fetchJson(`${proxied.url}/api/v1/vacancies/`, {
        headers: { "x-forwarded-host": "jobs.example.org", "x-forwarded-proto": "https" },
      });
      assert.equal(body.next, "https://jobs.example.org/api/v1/vacancies/?page=2");
    } finally {
      await proxied.close();
    }
    const fixed = await startTestServer({ publicUrl: "https://api.example.org/" });
    try {
      const { body } = await fetchJson(`${fixed.url}/api/v1/competitions/`);
      assert.equal(body.next, "https://api.example.org/api/v1/competitions/?page=2");
    } finally {
      await fixed.close();
    }
  },
});
