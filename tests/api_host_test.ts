/**
 * Malformed Host headers are refused with 400 before routing, as Django
 * refuses them (links are built from Host). Sent over a raw socket, since
 * fetch would not send such headers.
 */
import assert from "node:assert/strict";
import { send } from "./drf_reference/_raw_http.ts";
import { startTestServer } from "./_api_helpers.ts";

Deno.test({
  name: "malformed Host headers get 400 JSON on every path; valid ones are served",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s = await startTestServer();
    const port = Number(new URL(s.url).port);
    try {
      for (
        const host of [
          "exa mple.com",
          "a/b",
          "example.com:abc",
          "[::1",
          "ex_ample.com",
          "example.com:",
          "127.0.0.1:99999999999",
          "example.com:65536",
        ]
      ) {
        for (
          const target of ["/api/v1/vacancies/", "/arcgis/services/Recruitment/MapServer?wsdl", "/"]
        ) {
          const r = await send(port, { target, headers: { host } });
          assert.equal(r.status, 400, `${host} ${target}`);
          assert.deepEqual(JSON.parse(r.body), { detail: "Invalid Host header." });
        }
      }
      for (const host of ["good.example:8000", "[::1]:8000", "LOCALHOST", "good.example:65535"]) {
        const r = await send(port, { target: "/api/v1/vacancies/", headers: { host } });
        assert.equal(r.status, 200, host);
        assert.ok(JSON.parse(r.body).next.startsWith(`http://${host}/`), r.body.slice(0, 120));
      }
    } finally {
      await s.close();
    }
  },
});
