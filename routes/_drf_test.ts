import assert from "node:assert/strict";
import { negotiate } from "./_drf.ts";
import { parseQs } from "./_querystring.ts";

Deno.test("negotiate: no Accept and no format is what */* negotiates", () => {
  assert.deepEqual(negotiate(new Headers(), parseQs("page=2")), { ok: true, indent: undefined });
  assert.deepEqual(
    negotiate(new Headers(), parseQs("page=2")),
    negotiate(new Headers({ accept: "*/*" }), parseQs("page=2")),
  );
  // Either one asked still goes through DRF's rules.
  assert.deepEqual(negotiate(new Headers({ accept: "application/json; indent=2" }), new Map()), {
    ok: true,
    indent: 2,
  });
  const unknown = negotiate(new Headers(), parseQs("format=xml"));
  assert.equal(unknown.ok, false);
  const empty = negotiate(new Headers({ accept: "" }), new Map());
  assert.equal(empty.ok ? 200 : empty.response.status, 406);
});
