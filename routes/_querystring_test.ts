import assert from "node:assert/strict";
import { parseQs, pythonInt, quotePlus, urlencode } from "./_querystring.ts";

Deno.test("parseQs keeps blanks, decodes plus and percent, keeps first-seen key order", () => {
  const q = parseQs("b=2&a=x+y&flag&a=%D0%B6&bad=%ZZ&&c=");
  assert.deepEqual([...q.entries()], [
    ["b", ["2"]],
    ["a", ["x y", "ж"]],
    ["flag", [""]],
    ["bad", ["%ZZ"]],
    ["c", [""]],
  ]);
});

Deno.test("urlencode sorts keys and quotes like Python quote_plus", () => {
  const q = parseQs("search=a b/c,d&format=api&page=3&search=ё");
  q.delete("page");
  assert.equal(urlencode(q), "format=api&search=a+b%2Fc%2Cd&search=%D1%91");
  assert.equal(quotePlus("~._-"), "~._-");
});

Deno.test("pythonInt accepts what int() accepts and nothing else", () => {
  assert.equal(pythonInt("02"), 2);
  assert.equal(pythonInt(" 2"), 2);
  assert.equal(pythonInt("+2"), 2);
  assert.equal(pythonInt("-1"), -1);
  assert.equal(pythonInt("1_0"), 10);
  for (const bad of ["", "1.5", "2.0", "abc", "1__0", "_1", "0x10", "1e3"]) {
    assert.equal(pythonInt(bad), undefined, bad);
  }
});
