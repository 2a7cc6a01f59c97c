import assert from "node:assert/strict";
import { createRestApi, RestParams } from "./mod.ts";
import type { MapServer } from "../mod.ts";
import { InvalidRequestError } from "../errors.ts";

function params(qs: string): RestParams {
  return new RestParams(new URLSearchParams(qs));
}

Deno.test("RestParams reads typed values and names the parameter at fault", () => {
  const p = params("Where=1%3D1&returnGeometry=FALSE&n=12&list=a,%20b,,c&geo=%7B%22x%22%3A1%7D&e=");
  assert.equal(p.string("where"), "1=1");
  assert.equal(p.boolean("RETURNGEOMETRY"), false);
  assert.equal(p.number("n", { integer: true, min: 0 }), 12);
  assert.deepEqual(p.list("list"), ["a", "b", "c"]);
  assert.deepEqual(p.json("geo"), { x: 1 });
  assert.equal(p.string("e"), undefined, "blank is absent");
  assert.equal(p.number("missing"), undefined);
  assert.deepEqual(params("ids=1,2, 3").numbers("ids", { integer: true }), [1, 2, 3]);
  assert.equal(
    params("r=esrispatialrelwithin").choice("r", ["esriSpatialRelWithin"]),
    "esriSpatialRelWithin",
  );
  const cases: [string, (p: RestParams) => unknown, RegExp][] = [
    ["n=abc", (p) => p.number("n"), /'n'.*a number/],
    ["n=1.5", (p) => p.number("n", { integer: true }), /whole number/],
    ["n=-1", (p) => p.number("n", { min: 0 }), /at least 0/],
    ["b=yes", (p) => p.boolean("b"), /true or false/],
    ["j={x", (p) => p.json("j"), /'j'.*JSON/],
    ["ids=1,x", (p) => p.numbers("ids"), /'ids'/],
    ["r=near", (p) => p.choice("r", ["a", "b"]), /one of a, b/],
  ];
  for (const [qs, read, message] of cases) {
    assert.throws(() => read(params(qs)), (e: unknown) => {
      assert.ok(e instanceof InvalidRequestError, qs);
      assert.match(e.message, message);
      assert.equal(e.details.length, 1);
      return true;
    });
  }
});

Deno.test("RestParams.size reads width,height[,dpi] one way for export, identify and legend", () => {
  const px = { integer: true, example: "400,400" };
  assert.deepEqual(params("size=400, 300").size("size", px), { width: 400, height: 300 });
  assert.equal(params("f=json").size("size", px), undefined);
  assert.deepEqual(params("d=600;550").size("d", { ...px, dpi: 96 }), {
    width: 600,
    height: 550,
    dpi: 96,
  });
  assert.deepEqual(params("d=600,550,192").size("d", { ...px, dpi: 96 })?.dpi, 192);
  assert.deepEqual(params("s=7.5,500").size("s", { max: 500, example: "15,15" }), {
    width: 7.5,
    height: 500,
  });
  for (
    const [qs, opts] of [
      ["size=400", px],
      ["size=400,300,96", px],
      ["size=0,300", px],
      ["size=40.5,300", px],
      ["size=400,", px],
      ["d=600,550,-1", { ...px, dpi: 96 }],
      ["s=501,10", { max: 500, example: "15,15" }],
    ] as const
  ) {
    const name = qs.split("=")[0];
    assert.throws(() => params(qs).size(name, opts), new RegExp(`'${name}'.*e\\.g\\.`), qs);
  }
});

Deno.test("an unexpected error is code 500, logged, and never thrown", async () => {
  const logged: unknown[] = [];
  const api = createRestApi({} as MapServer, {
    endpoints: [
      { path: "/boom", handle: () => Promise.reject(new RangeError("offset out of bounds")) },
      {
        path: "/bad",
        handle: () => {
          throw new InvalidRequestError("Bad thing.", { thing: 1 });
        },
      },
    ],
    onError: (e) => logged.push(e),
  });
  const urls = { baseUrl: "http://127.0.0.1" };
  const boom = await api.handle("/boom", params("f=json"), urls);
  assert.equal(boom.status, 200);
  const body = JSON.parse(boom.body as string);
  assert.equal(body.error.code, 500);
  assert.doesNotMatch(body.error.message, /offset/, "internals stay in the log");
  assert.equal(logged.length, 1);
  const bad = JSON.parse((await api.handle("/bad", params("f=pjson"), urls)).body as string);
  assert.deepEqual(bad, { error: { code: 400, message: "Bad thing.", details: ["thing: 1"] } });
  assert.equal(logged.length, 1, "client errors are not logged");
});
