import assert from "node:assert/strict";
import { joinBytes, utf8 } from "./_bytes.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

Deno.test("joinBytes: ASCII and non-ASCII text around byte items, as UTF-8", () => {
  const items = [utf8('{"a":"ж"}'), utf8("2"), utf8("")];
  assert.equal(text(joinBytes("[", items, ",", "]")), '[{"a":"ж"},2,]');
  assert.equal(
    text(joinBytes('{"next":"http://h/é?q=ё","r":[', items, ", ", "]}")),
    '{"next":"http://h/é?q=ё","r":[{"a":"ж"}, 2, ]}',
  );
  assert.equal(text(joinBytes("«", [], "—", "»")), "«»");
  assert.equal(text(joinBytes("", [utf8("x")], "", "")), "x");
  // Lone surrogates are encoded as TextEncoder does (U+FFFD), never written as raw code units.
  assert.deepEqual(joinBytes("\ud800", [], "", ""), utf8("\ud800"));
});
