import assert from "node:assert/strict";
import { LenientJsonError, parseLenientJson } from "./_lenient_json.ts";

Deno.test("lenient JSON reads standard JSON as JSON.parse does", () => {
  for (
    const text of [
      '{"x":1,"y":-2.5e3,"spatialReference":{"wkid":4326}}',
      '[1,"a\\"b\\u00e9\\n",true,false,null,{},[]]',
      '  {"rings":[[[0,0],[1,0],[1,1],[0,0]]]} ',
      '"Москва"',
      "0",
    ]
  ) assert.deepEqual(parseLenientJson(text), JSON.parse(text), text);
});

Deno.test("lenient JSON accepts what ArcGIS's parser accepts", () => {
  // QGIS and Esri's own documentation: unquoted member names.
  assert.deepEqual(parseLenientJson("{x: 31.000000, y: 51.000000}"), { x: 31, y: 51 });
  assert.deepEqual(parseLenientJson("{0: 'POP > 10', $a_1: 2}"), { 0: "POP > 10", $a_1: 2 });
  assert.deepEqual(parseLenientJson("{'wkid': 4326}"), { wkid: 4326 });
  assert.deepEqual(parseLenientJson("'it\\'s \"here\"'"), `it's "here"`);
  assert.deepEqual(parseLenientJson("[1, 2, ]"), [1, 2]);
  assert.deepEqual(parseLenientJson("{a: [1,], }"), { a: [1] });
  assert.deepEqual(parseLenientJson("/* c */ {a: 1} // end"), { a: 1 });
  assert.deepEqual(parseLenientJson("{a: // x\n 1}"), { a: 1 });
  assert.deepEqual(parseLenientJson("[+1, .5, 5., -.25e1]"), [1, 0.5, 5, -2.5]);
  assert.deepEqual(parseLenientJson("{имя: 1}"), { имя: 1 });
  // A member named __proto__ is a member.
  const o = parseLenientJson('{"__proto__": {"x": 1}}') as Record<string, unknown>;
  assert.deepEqual(Object.keys(o), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(o), Object.prototype);
});

Deno.test("lenient JSON refuses the rest, saying where", () => {
  for (
    const text of [
      "",
      "{",
      "{x 1}",
      "{x: 1 y: 2}",
      "[1 2]",
      "[,]",
      "{,}",
      "'open",
      "NaN",
      "Infinity",
      "0x10",
      "{a: 1} x",
      "/* open",
      '"\\q"',
      "True",
      "[".repeat(100),
    ]
  ) assert.throws(() => parseLenientJson(text), LenientJsonError, text);
  assert.throws(() => parseLenientJson("{x: 1 y: 2}"), /character 7 \(near 'y: 2}'\)/);
});
